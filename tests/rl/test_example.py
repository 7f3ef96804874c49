"""A tiny run of the REINFORCE example, so the example keeps working."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_cinecitta_reinforce.py"


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_cinecitta_reinforce", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_tiny_training_run_evaluates_on_schedule_and_repeats_exactly() -> None:
    example = _load_example()
    history = example.train(episodes=40, eval_every=20, eval_games=6, seed=3, log=False)
    assert [episodes for episodes, _ in history] == [0, 20, 40]
    assert all(0.0 <= share <= 1.0 for _, share in history)
    assert example.train(episodes=40, eval_every=20, eval_games=6, seed=3, log=False) == history


def test_zero_policy_is_uniform_over_legal_codes_and_an_update_moves_towards_the_choice() -> None:
    import numpy as np

    example = _load_example()
    policy = example.MaskedLinearPolicy.zeros(10, 3)
    legal = np.array([2, 5, 7])
    x = np.array([1.0, 0.0, 0.5])
    np.testing.assert_allclose(policy.probabilities(x, legal), [1 / 3, 1 / 3, 1 / 3])
    policy.update(x, legal, chosen=1, step=0.5)
    probabilities = policy.probabilities(x, legal)
    assert probabilities[1] > 1 / 3 > probabilities[0] == probabilities[2]
    assert not policy.weights[[0, 1, 3, 4, 6, 8, 9]].any()
