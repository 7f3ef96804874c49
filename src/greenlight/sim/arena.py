"""The arena: named bots play many seeded games with rotating seats; a report of how each did.

**Line-up.** One bot name per seat; if fewer names than players are given,
the last one fills the remaining seats (``hard medium`` at 3 players is hard
against two medium bots).

**Seats.** The games cycle through every distinct arrangement of the line-up
over the seats when there are at most 24 of them (all of them for 3 distinct
bots at 3 seats), else through its rotations. Each cycle plays the **same deal**
(one game seed per cycle), so every bot meets the same cards from every seat.

**Seeds.** Game ``i`` of an arena with seed ``S`` uses a game seed derived
from ``(S, cycle)`` and bot seeds derived from ``(S, i, seat)``, so the rows
do not depend on the number of workers.

>>> report = run_arena("cinecitta", 3, ["heuristic", "random"], games=6, seed=1)
>>> [summary.bot for summary in report.summaries], report.games
(['heuristic', 'random'], 6)
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlight.bots import make_bot
from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.core.rng import derive_seed
from greenlight.core.spec import OptionValue
from greenlight.sim.pool import Progress, run_games
from greenlight.sim.runner import GameResult, GameTask
from greenlight.sim.stats import BotSummary, bradley_terry, elo_ratings, pairwise_results, summarize

#: Use every distinct seat arrangement when there are at most this many; else rotations.
MAX_ARRANGEMENTS = 24


def lineup(bots: Sequence[str], num_players: int) -> tuple[str, ...]:
    """One bot name per seat: the names given, the last repeated to fill the table.

    >>> lineup(["hard", "medium"], 3)
    ('hard', 'medium', 'medium')
    """
    if not bots:
        raise OptionError("name at least one bot (--bot NAME)")
    if len(bots) > num_players:
        raise OptionError(f"{len(bots)} bots were named for {num_players} seats; name at most one bot per seat")
    return (*bots, *([bots[-1]] * (num_players - len(bots))))


def seat_schedule(seats: Sequence[str]) -> list[tuple[str, ...]]:
    """The seat arrangements the arena cycles through, in a fixed order.

    >>> seat_schedule(("hard", "medium", "medium"))
    [('hard', 'medium', 'medium'), ('medium', 'hard', 'medium'), ('medium', 'medium', 'hard')]
    """
    distinct = sorted(set(itertools.permutations(seats)), key=lambda order: [seats.index(name) for name in order])
    if len(distinct) <= MAX_ARRANGEMENTS:
        return distinct
    return [tuple(seats[(seat + shift) % len(seats)] for seat in range(len(seats))) for shift in range(len(seats))]


def arena_tasks(
    game: str, num_players: int, bots: Sequence[str], games: int, seed: int, options: dict[str, OptionValue] | None = None
) -> list[GameTask]:
    """The seeded tasks of an arena run (see the module docstring)."""
    schedule = seat_schedule(lineup(bots, num_players))
    tasks = []
    for index in range(games):
        cycle, position = divmod(index, len(schedule))
        seats = schedule[position]
        tasks.append(
            GameTask(
                game=game,
                num_players=num_players,
                seed=derive_seed("arena/game", seed, cycle, bits=48),
                bots=seats,
                bot_seeds=tuple(derive_seed("arena/bot", seed, index, seat, bits=48) for seat in range(num_players)),
                options=dict(options or {}),
                index=index,
            )
        )
    return tasks


@dataclass(slots=True)
class ArenaReport:
    """What an arena run measured."""

    game: str
    num_players: int
    options: dict[str, OptionValue]
    #: The arena seed (None for a report pooled from several runs).
    seed: int | None
    games: int
    lineup: tuple[str, ...]
    schedule: list[tuple[str, ...]]
    summaries: list[BotSummary]
    seconds: float
    mean_length: float
    rows: list[GameResult] = field(default_factory=list, repr=False)

    def summary(self, bot: str) -> BotSummary:
        """The summary of ``bot``."""
        for item in self.summaries:
            if item.bot == bot:
                return item
        raise KeyError(bot)

    def to_json(self, with_rows: bool = False) -> dict[str, Any]:
        """JSON-ready form (the per-game rows only if asked)."""
        data: dict[str, Any] = {
            "game": self.game,
            "num_players": self.num_players,
            "options": dict(self.options),
            "seed": self.seed,
            "games": self.games,
            "lineup": list(self.lineup),
            "schedule": [list(order) for order in self.schedule],
            "bots": [summary.to_json() for summary in self.summaries],
            "seconds": self.seconds,
            "mean_length": self.mean_length,
        }
        if with_rows:
            data["rows"] = [row.to_json() for row in self.rows]
        return data


def report_from_rows(rows: Sequence[GameResult], seed: int | None, seats: Sequence[str], seconds: float = 0.0) -> ArenaReport:
    """Summaries (win shares, scores, breakdowns, ratings) of finished arena rows."""
    if not rows:
        raise OptionError("an arena needs at least one game")
    if len({(row.game, row.num_players) for row in rows}) > 1:
        raise OptionError("these rows mix games or player counts; report them separately")
    names = list(dict.fromkeys(seats))
    summaries = [summarize(rows, name) for name in names]
    if len(names) > 1:
        ratings = elo_ratings(bradley_terry(pairwise_results(rows)))
        for summary in summaries:
            summary.elo = ratings[summary.bot]
    first = rows[0]
    return ArenaReport(
        game=first.game,
        num_players=first.num_players,
        options=dict(first.options),
        seed=seed,
        games=len(rows),
        lineup=tuple(seats),
        schedule=seat_schedule(seats),
        summaries=summaries,
        seconds=seconds,
        mean_length=sum(row.length for row in rows) / len(rows),
        rows=list(rows),
    )


def run_arena(
    game: str,
    num_players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, OptionValue] | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> ArenaReport:
    """Play an arena and report; bot names and options are checked before any game starts."""
    if games < 1:
        raise OptionError("the arena needs at least one game (--games)")
    the_game = get_game(game)
    resolved = the_game.spec.resolve_options(num_players, options)
    seats = lineup(bots, num_players)
    for name in dict.fromkeys(seats):
        make_bot(name, the_game, 0)  # raises OptionError for an unknown bot
    tasks = arena_tasks(the_game.spec.id, num_players, seats, games, seed, resolved)
    started = time.perf_counter()
    rows = run_games(tasks, workers=workers, progress=progress)
    return report_from_rows(rows, seed, seats, time.perf_counter() - started)


def load_rows(path: str | Path) -> list[GameResult]:
    """Result rows from a JSON-lines file written by ``greenlight arena --rows``."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                rows.append(GameResult.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError) as error:
                raise OptionError(f"{path}: line {number} is not an arena result row ({error})") from None
    return rows


def pooled_report(paths: Sequence[str | Path]) -> ArenaReport:
    """One report over the rows of several arena runs (for example runs with different seeds, kept short)."""
    rows = [row for path in paths for row in load_rows(path)]
    if not rows:
        raise OptionError("no result rows in " + ", ".join(str(path) for path in paths))
    # The first row of a run is played by the line-up in its given seat order.
    return report_from_rows(rows, None, rows[0].bots)
