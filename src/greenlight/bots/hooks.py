"""Per-game help for search: rollout policies and position evaluations, found without touching game internals.

Search bots only use the core contract. A game can make them stronger in two
optional ways, looked up here:

* a **rollout policy**: ``game.rollout_action(state, seat, rng)`` (a legal move
  for ``seat``, chosen fast) if the
  game object has one (the proposed optional contract method), otherwise
  ``rollout_action`` in an optional ``search`` module of the game's own
  package; failing both, the game's own ``heuristic`` level from
  ``game.bots()``, asked to move for any seat of a determinized state through
  a :class:`~greenlight.core.bot.SeatView`;
* an **evaluation**: ``game.evaluate(state)`` if the game object has one (the
  proposed optional contract method), otherwise ``evaluate(state)`` in an
  optional ``search`` module of the game's own package. Either returns, per
  seat, an estimated win share in ``[0, 1]`` for a determinized, unfinished
  state, so a rollout can stop early.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.game import Game
from greenlight.core.registry import companion_module
from greenlight.core.state import GameState

#: Picks a legal action for ``seat`` in a (determinized) state.
Policy = Callable[[GameState, int], Action]
#: Estimated win share of every seat in an unfinished (determinized) state.
Evaluator = Callable[[GameState], Sequence[float]]
#: A game's fast rollout move: (state, seat, rng) -> a legal action of ``seat``.
RolloutAction = Callable[[GameState, int, random.Random], Action]

HEURISTIC = "heuristic"


def heuristic_factory(game: Game[Any]) -> Callable[[int], Bot] | None:
    """The game's own ``heuristic`` bot factory, if it has one."""
    return game.bots().get(HEURISTIC)


def random_policy(game: Game[Any], rng: random.Random) -> Policy:
    """A uniformly random policy drawing from ``rng``."""

    def choose(state: GameState, seat: int) -> Action:
        legal = game.legal_actions(state, seat)
        return legal[rng.randrange(len(legal))]

    return choose


def heuristic_policy(game: Game[Any], rng: random.Random, epsilon: float = 0.0) -> Policy | None:
    """The game's heuristic bot as a policy (a random move with probability ``epsilon``); None without a heuristic.

    The heuristic bot is seeded from ``rng``, so a policy built from the same
    ``rng`` state makes the same choices.
    """
    factory = heuristic_factory(game)
    if factory is None:
        return None
    bot = factory(rng.getrandbits(63))

    def choose(state: GameState, seat: int) -> Action:
        if epsilon and rng.random() < epsilon:
            legal = game.legal_actions(state, seat)
            return legal[rng.randrange(len(legal))]
        return bot.choose(SeatView(game, state, seat))

    return choose


def game_policy(game: Game[Any], rng: random.Random, epsilon: float = 0.0) -> Policy | None:
    """The game's own fast rollout policy (a random move with probability ``epsilon``); None if it has none."""
    rollout_action = find_rollout_action(game)
    if rollout_action is None:
        return None

    def choose(state: GameState, seat: int) -> Action:
        if epsilon and rng.random() < epsilon:
            legal = game.legal_actions(state, seat)
            return legal[rng.randrange(len(legal))]
        return rollout_action(state, seat, rng)

    return choose


def _hook(game: Game[Any], name: str) -> Any:
    """``game.<name>`` if the game object has it, else ``<name>`` in the game package's ``search`` module, else None."""
    method = getattr(game, name, None)
    if callable(method):
        return method
    module = companion_module(game, "search")
    function = getattr(module, name, None) if module is not None else None
    return function if callable(function) else None


def find_hard_search(game: Game[Any]) -> dict[str, Any] | None:
    """The game's own ``hard`` search tuning (``HARD_SEARCH`` in its ``search`` module), or None."""
    module = companion_module(game, "search")
    tuning = getattr(module, "HARD_SEARCH", None) if module is not None else None
    return dict(tuning) if isinstance(tuning, dict) else None


def find_strong_search(game: Game[Any]) -> dict[str, Any] | None:
    """The game's own ``strong`` changes to its ``hard`` search (``STRONG_SEARCH`` in its ``search`` module), or None."""
    module = companion_module(game, "search")
    tuning = getattr(module, "STRONG_SEARCH", None) if module is not None else None
    return dict(tuning) if isinstance(tuning, dict) else None


def find_evaluator(game: Game[Any]) -> Evaluator | None:
    """The game's evaluation (win-share estimates per seat), or None if it has none."""
    evaluator: Evaluator | None = _hook(game, "evaluate")
    return evaluator


def find_rollout_action(game: Game[Any]) -> RolloutAction | None:
    """The game's fast rollout move, or None if it has none."""
    rollout_action: RolloutAction | None = _hook(game, "rollout_action")
    return rollout_action
