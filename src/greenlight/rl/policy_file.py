"""Policy files: save a trained PyTorch policy with what it was trained for, and load it to play as a bot.

A policy file is a TorchScript module (``torch.jit.save``) with one extra
file, ``greenlight.json``: the format and its version, the game, the player
count and options, the observation size and the number of action codes, the
Greenlight version and the environment interface version
(:data:`greenlight.rl.common.ENV_VERSION`), and a free note. The module's
contract::

    forward(observation: float32 [batch, observation_size], mask: bool [batch, action_count]) -> float32 logits [batch, action_count]

where observations are the environments' vectors and codes their agent codes
(``mask`` is True at the legal codes; the loader ignores the logits of the
others, so a module need not mask them itself). Any ``torch.nn.Module`` of
that shape saves: :func:`save_policy` scripts it (``torch.jit.script``) or,
if scripting fails, traces it on an example input, and checks the output
shape before it writes anything.

``policy:FILE`` names such a file as a bot everywhere bots go
(:mod:`greenlight.bots.policy`). PyTorch is imported only when a policy is
saved or loaded: Greenlight imports without it, and these functions say which
extra to install.

>>> import tempfile, torch
>>> from greenlight.core.registry import get_game
>>> class Linear(torch.nn.Module):
...     def __init__(self, size: int, count: int) -> None:
...         super().__init__()
...         self.layer = torch.nn.Linear(size, count)
...     def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
...         return self.layer(observation)
>>> size, count = policy_sizes(get_game("cinecitta"), 3)
>>> path = tempfile.mkdtemp() + "/linear.pt"
>>> save_policy(Linear(size, count), path, game="cinecitta", players=3, note="untrained")
>>> policy = load_policy(path)
>>> policy.info.game, policy.info.players, policy.info.note
('cinecitta', 3, 'untrained')
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import greenlight
from greenlight.bots.policy import METADATA_FILE, TRAIN_EXTRA, PolicyFileError, PolicyInfo, read_policy_info
from greenlight.core.game import Game
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.rl.actions import agent_codes_for
from greenlight.rl.common import ENV_VERSION
from greenlight.rl.encoding import encoding_for

if TYPE_CHECKING:
    import torch

__all__ = ["LoadedPolicy", "load_policy", "policy_sizes", "save_policy"]


def _torch() -> Any:
    """PyTorch, or an error that names the extra to install."""
    try:
        import torch
    except ImportError:
        raise PolicyFileError(f"policy files need {TRAIN_EXTRA}") from None
    return torch


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence PyTorch's notice that TorchScript is deprecated (the file format stays loadable; the notice says nothing to a player)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def policy_sizes(game: Game[Any], players: int, options: Mapping[str, OptionValue] | None = None) -> tuple[int, int]:
    """(observation size, number of agent codes) of ``game`` at ``players`` seats: the shapes a policy takes and gives."""
    resolved = game.spec.resolve_options(players, options)
    codes = agent_codes_for(game)
    return encoding_for(game).size(players, resolved) + codes.block_size, codes.num_codes


def save_policy(
    module: torch.nn.Module,
    path: str | os.PathLike[str],
    *,
    game: str,
    players: int,
    note: str = "",
    options: Mapping[str, OptionValue] | None = None,
) -> None:
    """Script ``module`` and save it at ``path`` with its metadata (see the module docstring).

    ``game`` is a game id (or alias), ``players`` the player count it was
    trained for, ``options`` the game options if not the defaults. Raises
    ValueError if the module does not give ``[batch, action_count]`` logits.
    """
    torch = _torch()
    played = get_game(game)
    resolved = played.spec.resolve_options(players, options)
    size, count = policy_sizes(played, players, resolved)
    example = (torch.zeros(1, size, dtype=torch.float32), torch.ones(1, count, dtype=torch.bool))
    was_training = module.training
    module.eval()
    try:
        with _quiet():
            try:
                scripted = torch.jit.script(module)
            except Exception:  # TorchScript refuses much ordinary Python; tracing records the same computation
                scripted = torch.jit.trace(module, example)
            with torch.no_grad():
                logits = scripted(*example)
    finally:
        module.train(was_training)
    if tuple(logits.shape) != (1, count):
        raise ValueError(f"the policy must return logits of shape [batch, {count}] for {played.spec.id}; it returned {list(logits.shape)}")
    info = PolicyInfo(
        path=os.fspath(path),
        game=played.spec.id,
        players=players,
        observation_size=size,
        action_count=count,
        options=dict(resolved),
        greenlight_version=greenlight.__version__,
        env_version=ENV_VERSION,
        note=note,
    )
    with _quiet():
        torch.jit.save(scripted, os.fspath(path), _extra_files={METADATA_FILE: json.dumps(info.metadata(), sort_keys=True)})


class LoadedPolicy:
    """A policy file loaded to play: its metadata (``info``) and the scores of legal codes (the bots' ``Policy``)."""

    def __init__(self, info: PolicyInfo, module: Any) -> None:
        self.info = info
        self.module = module

    def logits(self, observation: Sequence[float], mask: Sequence[bool]) -> list[float]:
        """The module's logits for one observation vector and mask (every code, illegal ones included)."""
        torch = _torch()
        vector = torch.tensor([list(observation)], dtype=torch.float32)
        legal = torch.tensor([list(mask)], dtype=torch.bool)
        # One thread: a move is one small forward pass, and PyTorch's thread pool only adds waiting (a 388 x 3,135 layer
        # took 12 ms a move with two threads on the loaded 2-core machine, 0.6 ms with one). Set for this call only.
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                out = self.module(vector, legal)
        finally:
            torch.set_num_threads(threads)
        if tuple(out.shape) != (1, self.info.action_count):
            raise PolicyFileError(
                f"policy file {self.info.path} returned logits of shape {list(out.shape)}, not [1, {self.info.action_count}]"
            )
        values: list[float] = out[0].tolist()
        return values

    def scores(self, observation: Sequence[float], legal_codes: Sequence[int]) -> list[float]:
        """The logits of ``legal_codes``, in their order (what :class:`~greenlight.bots.policy.PolicyBot` plays)."""
        mask = [False] * self.info.action_count
        for code in legal_codes:
            mask[code] = True
        logits = self.logits(observation, mask)
        return [logits[code] for code in legal_codes]


def load_policy(path: str | os.PathLike[str], *, game: Game[Any] | str | None = None, players: int | None = None) -> LoadedPolicy:
    """Load the policy file at ``path``; with ``game`` (and ``players``), refuse one trained for another.

    Every refusal is a :class:`~greenlight.bots.policy.PolicyFileError` naming
    the file: missing, not a policy file, another game, player count or
    observation size, or PyTorch missing (naming the ``train`` extra).
    """
    info = read_policy_info(path)
    if game is not None:
        played = get_game(game) if isinstance(game, str) else game
        info.check(played, players)
        size, count = policy_sizes(played, info.players, info.options)
        if (size, count) != (info.observation_size, info.action_count):
            raise PolicyFileError(
                f"policy file {info.path} takes observations of {info.observation_size} and {info.action_count} action codes; "
                f"{played.spec.id} at {info.players} players has {size} and {count} (saved by Greenlight {info.greenlight_version})"
            )
    torch = _torch()
    try:
        with _quiet():
            module = torch.jit.load(os.fspath(path), map_location="cpu")
    except RuntimeError as error:
        raise PolicyFileError(f"policy file {info.path} cannot be loaded by this PyTorch: {error}") from None
    module.eval()
    return LoadedPolicy(info, module)
