"""Difficulty levels offered by name in the CLI and the web lobby: random, easy, medium, hard, expert.

* ``random``: uniformly random legal moves.
* ``easy``: the game's heuristic, but a quarter of its moves are random (a
  short random-rollout search for a game without a heuristic). With half,
  it was no better than random at Cinecitta 1937.
* ``medium``: the game's heuristic level (a 200-iteration search with random
  rollouts for a game without one).
* ``strong``: a cheap search for balance studies, at least twenty times
  faster than ``hard`` (CPU time per move): ``hard``'s search with a step
  budget calibrated per game to a twentieth of its time or less, and at Maybe
  Movies and Movie Empire progressive widening that tries the heuristic's move
  first and short rollouts (``STRONG_SEARCH`` in the game's ``search`` module; docs/bots.md measures how
  close it plays to ``hard``).
* ``hard``: ISMCTS with the game's rollout policy, about one second a move on
  the reference machine (one core of a 2-core VM).
* ``expert``: the same search with four times the budget.

Search levels have a **step** budget (actions simulated in the tree and in
rollouts), calibrated per game to the target time, so a seed reproduces every
move; a wall-clock **ceiling** (ten times the target) only stops a search
early on a much slower or overloaded machine, the one case where a search
level is not reproducible.

Searches can also be named directly: ``search:500`` (500 iterations),
``search:0.5s`` (half a second), ``search:steps=20000``, with options after a
slash: ``search:500/random`` or ``search:500/depth=8/c=0.5`` (see
:func:`parse_search`).

The search levels also take a time per move instead of their step budget:
``hard:0.05`` is the ``hard`` settings searching 0.05 s a move (wall clock;
``hard:0.05/cpu`` counts the process's CPU seconds), for comparisons at equal
time such as the arena against OpenSpiel's ISMCTS (see
:func:`parse_timed_level`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from greenlight.bots.hooks import find_hard_search, find_strong_search, heuristic_factory
from greenlight.bots.ismcts import ISMCTSBot, SearchConfig
from greenlight.bots.options import BotOption, flag, read_bot_options
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, RandomBot, SeatView
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

LEVELS = ("random", "easy", "medium", "strong", "hard", "expert")
#: Bots that choose a move in milliseconds (the game's heuristic at most): the server thinks for them apart from searches.
QUICK_BOTS = frozenset({"random", "easy", "medium", "heuristic"})

#: Share of ``easy`` moves (with a real choice) that are random.
EASY_RANDOM_SHARE = 0.25
#: Wall-clock ceiling of a search level, as a multiple of its target time (a guard, not the budget).
CEILING_FACTOR = 10.0
#: Target seconds per searched move.
HARD_SECONDS = 1.0
EXPERT_SECONDS = 4.0
#: ``strong``'s target: at most this fraction of ``hard``'s CPU time per move (its wall-clock ceiling is as much of ``hard``'s).
STRONG_FRACTION = 1 / 20

#: The ``hard`` search of a game that declares no tuning: the game's rollout policy to the end of the game.
DEFAULT_HARD = SearchConfig(iterations=None, steps=15_000)


class NoisyBot(Bot):
    """Plays another bot's move, except that with probability ``epsilon`` it plays a random legal move."""

    def __init__(self, inner: Bot, seed: int, epsilon: float, name: str) -> None:
        super().__init__(seed)
        self.inner = inner
        self.epsilon = epsilon
        self.name = name

    def choose(self, view: SeatView) -> Action:
        """The inner bot's move, or a random one."""
        legal = view.legal_actions()
        if len(legal) > 1 and self.rng.random() < self.epsilon:
            return legal[self.rng.randrange(len(legal))]
        return self.inner.choose(view)


def hard_config(game: Game[Any]) -> SearchConfig:
    """The ``hard`` search settings for ``game``, with the wall-clock ceiling filled in.

    A game tunes them in its own package: ``HARD_SEARCH`` in its ``search`` module, a dict of
    :class:`SearchConfig` fields (calibrate ``steps`` to about one second a move with the arena).
    """
    config = hard_search(game)
    return dataclasses.replace(config, seconds=HARD_SECONDS * CEILING_FACTOR)


def hard_search(game: Game[Any]) -> SearchConfig:
    """The game's own ``hard`` tuning (see :func:`hard_config`), or :data:`DEFAULT_HARD`; a bad tuning says which field."""
    declared = find_hard_search(game)
    if declared is None:
        return DEFAULT_HARD
    try:
        return dataclasses.replace(DEFAULT_HARD, **declared)
    except (TypeError, ValueError) as error:
        raise ValueError(f"HARD_SEARCH of {game.spec.title} is not a valid search: {error}") from None


def expert_config(game: Game[Any]) -> SearchConfig:
    """Four times the ``hard`` budget (and ceiling)."""
    hard = hard_config(game)
    factor = EXPERT_SECONDS / HARD_SECONDS

    def scaled(budget: int | None) -> int | None:
        return int(budget * factor) if budget is not None else None

    seconds = hard.seconds * factor if hard.seconds is not None else None
    return dataclasses.replace(hard, iterations=scaled(hard.iterations), steps=scaled(hard.steps), seconds=seconds)


def strong_config(game: Game[Any]) -> SearchConfig:
    """``hard``'s search with the game's own changes (else :data:`STRONG_FRACTION` of its budget).

    A game tunes them in its own package: ``STRONG_SEARCH`` in its ``search`` module, a dict of
    :class:`SearchConfig` fields changed from ``hard``'s. The step budgets of the bundled games were calibrated
    with :func:`greenlight.bots.speed.compare_speed` (CPU time per move on the same positions as ``hard``,
    interleaved) to 23-25 times faster than ``hard``; widening and short rollouts were chosen with the arena
    against the heuristic (docs/bots.md).

    The wall-clock ceiling is :data:`STRONG_FRACTION` of ``hard``'s either way.
    """
    hard = hard_config(game)
    changes = find_strong_search(game)
    if changes is None:
        return scaled_config(hard, STRONG_FRACTION)
    seconds = hard.seconds * STRONG_FRACTION if hard.seconds is not None else None
    return dataclasses.replace(hard, iterations=None, seconds=seconds, **changes)


def scaled_config(config: SearchConfig, factor: float) -> SearchConfig:
    """``config`` with its iteration, step and time budgets multiplied by ``factor`` (at least one iteration or step)."""

    def scaled(budget: int | None) -> int | None:
        return max(1, int(budget * factor)) if budget is not None else None

    seconds = config.seconds * factor if config.seconds is not None else None
    return dataclasses.replace(config, iterations=scaled(config.iterations), steps=scaled(config.steps), seconds=seconds)


def _easy(game: Game[Any], seed: int) -> Bot:
    factory = heuristic_factory(game)
    if factory is None:
        return ISMCTSBot(seed, SearchConfig(iterations=25, rollout="random"), name="easy")
    return NoisyBot(factory(seed), seed + 1, epsilon=EASY_RANDOM_SHARE, name="easy")


def _medium(game: Game[Any], seed: int) -> Bot:
    factory = heuristic_factory(game)
    if factory is None:
        return ISMCTSBot(seed, SearchConfig(iterations=200, rollout="random"), name="medium")
    bot = factory(seed)
    bot.name = "medium"
    return bot


LEVEL_FACTORIES: dict[str, Callable[[Game[Any], int], Bot]] = {
    "random": lambda game, seed: RandomBot(seed),
    "easy": _easy,
    "medium": _medium,
    "strong": lambda game, seed: ISMCTSBot(seed, strong_config(game), name="strong"),
    "hard": lambda game, seed: ISMCTSBot(seed, hard_config(game), name="hard"),
    "expert": lambda game, seed: ISMCTSBot(seed, expert_config(game), name="expert"),
}


def _rollout_depth(value: str) -> int | None:
    return None if value in ("", "none", "end") else int(value)


#: The options of ``search:...`` (and of the timed levels), by the name written in the bot's name.
SEARCH_OPTIONS: dict[str, BotOption] = {
    "steps": BotOption("steps", int),
    "cost": BotOption("iteration_cost", float),
    "game": flag("rollout", "game"),
    "random": flag("rollout", "random"),
    "heuristic": flag("rollout", "heuristic"),
    "depth": BotOption("rollout_depth", _rollout_depth),
    "c": BotOption("exploration", float),
    "widen": BotOption("widening", float),
    "eps": BotOption("rollout_epsilon", float),
    "prior": BotOption("prior", str),
    "cpu": flag("clock", "cpu"),
    "wall": flag("clock", "wall"),
}


def parse_search(text: str, game: Game[Any]) -> SearchConfig:
    """Read ``search:BUDGET[/OPTION...]``: BUDGET is iterations (``500``), seconds (``0.5s``) or ``steps=N``.

    Options: ``steps=N`` (also stop after N simulated actions), ``cost=X``
    (steps counted per iteration on top of its actions),
    ``game``, ``heuristic`` or ``random`` (rollout policy), ``depth=N`` (cut
    rollouts after N choices with the game's evaluation), ``c=X``
    (exploration), ``widen=K`` (progressive widening), ``prior=KIND`` (who
    suggests the first action widening tries: ``auto``, ``heuristic`` or
    ``game``, see :class:`SearchConfig`), ``eps=X``, ``cpu``
    (a time budget counts CPU seconds, not wall-clock seconds). Unset
    options take the game's ``hard`` settings.

    >>> from greenlight.core.registry import get_game
    >>> parse_search("search:300/random/depth=4", get_game("cinecitta")).rollout
    'random'
    >>> parse_search("search:steps=9000/c=0.3", get_game("cinecitta")).steps
    9000
    """
    changes: dict[str, Any] = {"iterations": None, "seconds": None, "steps": None}
    try:
        budget, options = read_bot_options(text.partition(":")[2], SEARCH_OPTIONS)
        if not budget:
            pass
        elif budget.endswith("s"):
            changes["seconds"] = float(budget[:-1])
        else:
            changes["iterations"] = int(budget)
        return dataclasses.replace(hard_search(game), **(changes | options))
    except ValueError as error:
        raise OptionError(
            f"cannot read bot {text!r}: {error}; write search:ITERATIONS or search:SECONDSs, e.g. search:500/depth=8"
        ) from None


#: The levels that are searches, and so take a time per move (``hard:0.05``).
TIMED_LEVELS = ("strong", "hard", "expert")


def parse_timed_level(text: str, game: Game[Any]) -> SearchConfig:
    """Read ``LEVEL:SECONDS[/OPTION...]`` for a search level: its settings, searching SECONDS a move.

    The level's step budget gives way to the time budget (``expert`` is then
    the same search as ``hard``: its only difference is the budget). Options
    are those of :func:`parse_search`, such as ``cpu``.

    >>> from greenlight.core.registry import get_game
    >>> config = parse_timed_level("hard:0.05/cpu", get_game("cinecitta"))
    >>> config.seconds, config.steps, config.iterations, config.clock
    (0.05, None, None, 'cpu')
    """
    level, _, body = text.partition(":")
    budget, slash, extras = body.partition("/")
    if level not in TIMED_LEVELS:
        raise OptionError(f"cannot read bot {text!r}: only {', '.join(TIMED_LEVELS[:-1])} and {TIMED_LEVELS[-1]} take a time per move")
    try:
        seconds = float(budget.removesuffix("s"))
    except ValueError:
        raise OptionError(f"cannot read bot {text!r}: write {level}:SECONDS, e.g. {level}:0.05 or {level}:0.05/cpu") from None
    return parse_search(f"search:{seconds}s{slash}{extras}", game)
