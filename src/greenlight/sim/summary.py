"""The numbers of a study, computed from its result rows: what ``summary.json`` holds and the report shows.

Every number here is a function of the rows alone (the files on disk), so
a summary can be checked against the data, and two studies compared
(:mod:`greenlight.sim.compare`). Win shares, intervals and ratings come
from :mod:`greenlight.sim.stats`.

* ``positions``: win share and mean score of each seat position, whoever
  held it, with 95% intervals and a test against parity (first-player
  advantage).
* ``bots``: each bot's win share, interval, x parity, Elo, mean score and
  mean score breakdown.
* ``length``: actions per game.
* ``breakdown``: mean of every numeric score category over all seats.
* ``statistics``: the game's own per-game and per-seat statistics
  (:mod:`greenlight.sim.gamestats`): mean with interval, min, max; per bot.
* ``cards``: per card and per card type, for each action (taken, laid, ...):
  how often it happened (``per_game``), in how many games, and the win
  share of the seats that did it, with an interval and its ratio to parity
  (``lift``: above 1 means seats that took or played it won more often
  than an average seat; an association, not a cause).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from greenlight.sim.arena import report_from_rows
from greenlight.sim.rows import Cell, flatten
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import mean, normal_interval, position_summaries, wilson_interval

#: Bot-summary fields measured from timing, which result files do not keep.
_TIMING_FIELDS = ("seconds_per_move", "max_seconds_per_move", "iterations_per_second")


def numeric_summary(values: Iterable[Cell]) -> dict[str, Any]:
    """Count, mean with a 95% interval, min and max of the numbers among ``values`` (empty cells are skipped).

    >>> numeric_summary([1, 3, None, 2])  # doctest: +ELLIPSIS
    {'n': 3, 'mean': 2.0, 'ci95': [0.868..., 3.131...], 'min': 1.0, 'max': 3.0}
    """
    numbers = [float(value) for value in values if value is not None and not isinstance(value, str)]
    low, high = normal_interval(numbers)
    return {
        "n": len(numbers),
        "mean": mean(numbers),
        "ci95": [low, high],
        "min": min(numbers) if numbers else None,
        "max": max(numbers) if numbers else None,
    }


def flat_breakdown(breakdown: Mapping[str, Any]) -> dict[str, Cell]:
    """A seat's score breakdown with nested categories as ``parent.child`` names.

    >>> flat_breakdown({"money": 3, "patriot": {"USA": 3, "EUR": 0}})
    {'money': 3, 'patriot.USA': 3, 'patriot.EUR': 0}
    """
    row: dict[str, Cell] = {}
    flatten("", breakdown, row)
    return {key[1:]: value for key, value in row.items()}


def _numeric(value: Cell) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def breakdown_means(results: Sequence[GameResult]) -> dict[str, float]:
    """Mean of every numeric breakdown category over all seats of all games (a category absent from a seat is skipped)."""
    values: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for item in result.breakdown:
            for key, value in flat_breakdown(item).items():
                if _numeric(value):
                    values[key].append(float(value))  # type: ignore[arg-type]
    return {key: mean(numbers) for key, numbers in values.items()}


def statistics_summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """The game's own statistics: per game, per seat, and per seat by bot."""
    game: dict[str, list[Cell]] = defaultdict(list)
    seat: dict[str, list[Cell]] = defaultdict(list)
    by_bot: dict[str, dict[str, list[Cell]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        stats = result.stats or {}
        for key, value in stats.get("game", {}).items():
            game[key].append(value)
        for index, values in enumerate(stats.get("seats", [])):
            for key, value in values.items():
                seat[key].append(value)
                by_bot[result.bots[index]][key].append(value)
    return {
        "game": {key: numeric_summary(values) for key, values in game.items()},
        "seat": {key: numeric_summary(values) for key, values in seat.items()},
        "seat_by_bot": {bot: {key: numeric_summary(values)["mean"] for key, values in stats.items()} for bot, stats in by_bot.items()},
    }


def card_summaries(cards: Iterable[Mapping[str, Any]], games: int, parity: float, by: str = "card") -> list[dict[str, Any]]:
    """Per (action, card) or (action, type): times, games, per game, seats, win share with interval, lift over parity.

    ``cards`` are rows of the cards table; ``games`` the number of games in the
    study; ``parity`` the win share of an average seat (1 / players). The win
    share counts each (game, seat) that did the action once, whatever the count.
    Sorted by action, then by how often it happened.

    >>> rows = [{"index": 0, "seat": 1, "card": "D2", "type": "Director", "action": "taken", "count": 2, "share": 1.0}]
    >>> item = card_summaries(rows, games=4, parity=0.5)[0]
    >>> item["card"], item["times"], item["per_game"], item["seat_games"], item["win_share"], item["lift"]
    ('D2', 2, 0.5, 1, 1.0, 2.0)
    """
    times: dict[tuple[str, str], int] = defaultdict(int)
    types: dict[tuple[str, str], str] = {}
    seat_share: dict[tuple[str, str], dict[tuple[int, int], float]] = defaultdict(dict)
    for row in cards:
        key = (str(row["action"]), str(row[by]))
        times[key] += int(row["count"])
        types.setdefault(key, str(row["type"]))
        seat_share[key][(int(row["index"]), int(row["seat"]))] = float(row["share"])
    summaries = []
    for key in sorted(times, key=lambda item: (item[0], -times[item], item[1])):
        shares = seat_share[key]
        low, high = wilson_interval(sum(shares.values()), len(shares))
        win_share = mean(shares.values())
        entry: dict[str, Any] = {"action": key[0], by: key[1]}
        if by == "card":
            entry["type"] = types[key]
        entry.update(
            times=times[key],
            games=len({index for index, _ in shares}),
            per_game=times[key] / games if games else 0.0,
            seat_games=len(shares),
            win_share=win_share,
            win_share_ci95=[low, high],
            lift=win_share / parity if parity else None,
        )
        summaries.append(entry)
    return summaries


def summarize_study(
    study: Mapping[str, Any], results: Sequence[GameResult], cards: Sequence[Mapping[str, Any]], run: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The whole ``summary.json`` of a study: its parameters, every section listed in the module docstring, and ``run``."""
    if not results:
        raise ValueError("a study summary needs at least one game")
    flat = [replace(result, breakdown=tuple(flat_breakdown(item) for item in result.breakdown)) for result in results]
    lineup = tuple(study["lineup"])
    arena = report_from_rows(flat, int(study["seed"]), lineup)
    bots = []
    for summary in arena.summaries:
        data = summary.to_json()
        for name in _TIMING_FIELDS:
            data.pop(name, None)
        bots.append(data)
    parity = mean(1 / result.num_players for result in results)
    return {
        "study": dict(study),
        "games": len(results),
        "positions": [item.to_json() for item in position_summaries(results)],
        "bots": bots,
        "length": numeric_summary(result.length for result in results),
        "breakdown": breakdown_means(results),
        "statistics": statistics_summary(results),
        "cards": {
            "by_card": card_summaries(cards, len(results), parity, "card"),
            "by_type": card_summaries(cards, len(results), parity, "type"),
        },
        "run": dict(run or {}),
    }
