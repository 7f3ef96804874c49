"""The RL examples keep working: the vector-env example follows the masks, the PPO example learns."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_sync_vector_env_plays_whole_games_within_the_masks() -> None:
    example = _load("vector_env")
    result = example.run("cinecitta", envs=3, steps=120, seed=1)
    assert result.steps == 360
    assert result.games >= 3 * (120 // 24) - 3  # a 3-player game is 24 learner steps
    assert result.illegal == 0
    assert 0.0 <= result.win_share <= 1.0


def test_async_vector_env_runs_a_game_with_its_own_player_count() -> None:
    example = _load("vector_env")
    result = example.run("movie-empire", envs=2, steps=150, asynchronous=True, seed=2)
    assert result.steps == 300 and result.games >= 1 and result.illegal == 0


def test_masked_random_actions_pick_only_legal_codes() -> None:
    import numpy as np

    example = _load("vector_env")
    masks = np.zeros((3, 10), dtype=np.int8)
    masks[0, [2, 7]] = 1
    masks[1, 9] = 1
    masks[2, :] = 1
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = example.masked_random_actions(masks, rng)
        assert actions[0] in (2, 7) and actions[1] == 9 and 0 <= actions[2] < 10


def test_ppo_example_runs_an_update_and_repeats_exactly() -> None:
    pytest.importorskip("torch")
    example = _load("train_ppo")
    config = example.Config(envs=2, rollout=16, minibatches=2, epochs=1)
    first = example.run(random_updates=1, medium_updates=0, eval_games=4, config=config, log=False)
    assert first.random_steps == 32 and first.medium_steps == 0
    assert all(0.0 <= share <= 1.0 for share in (first.before_random, first.after_random))
    again = example.run(random_updates=1, medium_updates=0, eval_games=4, config=config, log=False)
    assert (again.before_random, again.after_random) == (first.before_random, first.after_random)


@pytest.mark.slow
def test_ppo_raises_the_win_share_against_random_bots() -> None:
    """A small seeded budget (about a minute on one core): the greedy win share over 200 evaluation deals rises clearly.

    (The default run in docs/rl.md goes from 0.30 to 0.86 in 40 updates.)
    """
    pytest.importorskip("torch")
    example = _load("train_ppo")
    result = example.run(random_updates=10, medium_updates=0, eval_games=200, log=False)
    # Against two random bots a random player wins about 1/3; one standard error of a 200-game share is about 0.035.
    assert result.after_random >= result.before_random + 0.12
    assert result.after_random >= 0.45


def test_ppo_self_play_repeats_exactly_and_its_saved_policy_plays_as_a_policy_bot(tmp_path: Path) -> None:
    """Self-play trains on Movie Empire (cards picked one at a time) and repeats exactly; the file it saves plays, as the
    ``policy:FILE`` bot, the very moves of the example's in-process opponent bot (the same observation and mask)."""
    pytest.importorskip("torch")
    import torch

    from greenlight.bots import make_bot
    from greenlight.core.bot import SeatView
    from greenlight.core.match import Match
    from greenlight.core.registry import get_game

    example = _load("train_ppo")
    config = example.Config(
        game="movie-empire", players=3, envs=3, rollout=8, minibatches=2, epochs=1, hidden=16, snapshot_every=1, device="cpu"
    )
    first = example.run(0, 0, eval_games=0, config=config, log=False, selfplay_updates=2)
    assert (first.random_steps, first.medium_steps, first.selfplay_steps) == (0, 0, 48)
    again = example.run(0, 0, eval_games=0, config=config, log=False, selfplay_updates=2)
    for name, tensor in first.agent.state_dict().items():
        assert torch.equal(tensor, again.agent.state_dict()[name]), name
    path = tmp_path / "movie-empire.pt"
    example.save(first.agent, str(path), config, note="test")
    game = get_game("movie-empire")
    official = make_bot(f"policy:{path}", game, 0)
    own = example.PolicyBot([example.PolicyNet(first.agent).eval()], seed=0)
    match = Match.start(game, 3, seed=4)
    compared = 0
    while not match.decision().is_terminal:
        seat = match.decision().players[0]
        action = own.choose(SeatView(game, match.state, seat))
        if len(match.legal_actions(seat)) > 1:
            assert official.choose(SeatView(game, match.state, seat)) == action
            compared += 1
        match.play(seat, action)
    assert compared > 50
