"""The numbers of a study, computed from its result rows: what ``summary.json`` holds and the report shows.

Every number here is a function of the rows alone (the files on disk), so
a summary can be checked against the data, and two studies compared
(:mod:`greenlight.sim.compare`). Win shares, intervals and ratings come
from :mod:`greenlight.sim.stats`.

* ``positions``: win share and mean score of each seat position, whoever
  held it, with 95% intervals and a test against parity (first-player
  advantage); ``turn_order`` the same by place in the starting turn order
  (0 = first to act), for a game whose first player is not seat 0.
* ``bots``: each bot's win share, interval, x parity, Elo, mean score and
  mean score breakdown.
* ``length``: actions per game; ``length_in_units`` the game's length in its
  own unit (rounds, turns) where its statistics count it.
* ``breakdown``: mean of every numeric score category over all seats.
* ``statistics``: the game's own per-game and per-seat statistics
  (:mod:`greenlight.sim.gamestats`): mean with interval, min, max; per bot.
* ``cards``: per card and per card type, for each action (taken, laid, ...):
  how often it happened (``per_game``), in how many games, and the win
  share of the seats that did it, with an interval and its ratio to parity
  (``lift``: above 1 means seats that took or played it won more often
  than an average seat; an association, not a cause). Each card has its
  ``title`` (the game's name for it) and ``rare`` when fewer than
  :data:`RARE_SEAT_GAMES` seats did it (too few to judge its win share).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from greenlight.core.registry import get_game
from greenlight.sim.arena import report_from_rows
from greenlight.sim.gamestats import GameNotes, game_notes
from greenlight.sim.rows import Cell, flatten
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import mean, normal_interval, position_summaries, start_order, wilson_interval

#: A card done by fewer seats (game-seats) than this is too rare to judge its win share: shown grey, with its count.
RARE_SEAT_GAMES = 30
#: Bot names that play by rules of thumb (fast, weaker than a search): a finding seen only with them is to be confirmed.
WEAK_BOTS = frozenset({"random", "easy", "medium", "heuristic"})

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


class CardTally:
    """Card statistics added up one chunk of card rows at a time, in memory proportional to the distinct cards.

    For each (action, card) and (action, type): how many times, in how many
    games, by how many (game, seat) pairs, and their summed win shares. Every
    game must come in a single :meth:`add` call (a chunk holds whole games), so
    counts of distinct games and seats simply add up across calls.
    """

    def __init__(self) -> None:
        #: ``(by, action, name) -> [times, games, seat_games, share_sum]``
        self.totals: dict[tuple[str, str, str], list[float]] = {}
        #: ``(action, card) -> type``
        self.types: dict[tuple[str, str], str] = {}

    @classmethod
    def of(cls, cards: Iterable[Mapping[str, Any]]) -> CardTally:
        """The tally of a whole cards table."""
        tally = cls()
        tally.add(cards)
        return tally

    def add(self, cards: Iterable[Mapping[str, Any]]) -> None:
        """Add the card rows of some whole games."""
        times: dict[tuple[str, str, str], int] = defaultdict(int)
        shares: dict[tuple[str, str, str], dict[tuple[int, int], float]] = defaultdict(dict)
        for row in cards:
            action = str(row["action"])
            self.types.setdefault((action, str(row["card"])), str(row["type"]))
            for by in ("card", "type"):
                key = (by, action, str(row[by]))
                times[key] += int(row["count"])
                shares[key][(int(row["index"]), int(row["seat"]))] = float(row["share"])
        for key, count in times.items():
            seats = shares[key]
            total = self.totals.setdefault(key, [0, 0, 0, 0.0])
            total[0] += count
            total[1] += len({index for index, _ in seats})
            total[2] += len(seats)
            total[3] += sum(seats.values())

    def summaries(self, games: int, parity: float, by: str = "card", titles: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """Per (action, card or type), sorted by action then by how often: see :func:`card_summaries`."""
        keys = [key for key in self.totals if key[0] == by]
        keys.sort(key=lambda key: (key[1], -self.totals[key][0], key[2]))
        summaries = []
        for key in keys:
            times, seen, seat_games, share_sum = self.totals[key]
            low, high = wilson_interval(share_sum, int(seat_games))
            win_share = share_sum / seat_games if seat_games else 0.0
            entry: dict[str, Any] = {"action": key[1], by: key[2]}
            if by == "card":
                entry["type"] = self.types[(key[1], key[2])]
                entry["title"] = (titles or {}).get(key[2], key[2])
            entry.update(
                times=int(times),
                games=int(seen),
                per_game=times / games if games else 0.0,
                seat_games=int(seat_games),
                win_share=win_share,
                win_share_ci95=[low, high],
                lift=win_share / parity if parity else None,
                rare=seat_games < RARE_SEAT_GAMES,
            )
            summaries.append(entry)
        return summaries


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
    return CardTally.of(cards).summaries(games, parity, by)


def summarize_study(
    study: Mapping[str, Any],
    results: Sequence[GameResult],
    cards: CardTally | Iterable[Mapping[str, Any]],
    run: Mapping[str, Any] | None = None,
    titles: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The whole ``summary.json`` of a study: its parameters, every section listed in the module docstring, and ``run``.

    ``cards`` is the study's :class:`CardTally`, or its card rows; ``titles`` names cards by code (the study's ``data.json``).
    """
    tally = cards if isinstance(cards, CardTally) else CardTally.of(cards)
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
    notes = game_notes(get_game(str(study["game"])))
    unit = None
    if notes.length is not None:
        statistic, words = notes.length
        unit = {"unit": words, **numeric_summary((result.stats or {}).get("game", {}).get(statistic) for result in results)}
    ordered = all(start_order(result) is not None for result in results)
    return {
        "study": dict(study),
        "games": len(results),
        "seats_note": notes.seats,
        "positions": [item.to_json() for item in position_summaries(results)],
        "turn_order": [item.to_json() for item in position_summaries(results, by_turn_order=True)] if ordered else None,
        "bots": bots,
        "length": numeric_summary(result.length for result in results),
        "length_in_units": unit,
        "breakdown": breakdown_means(results),
        "statistics": statistics_summary(results),
        "labels": _labels(notes, results),
        "cards": {
            "by_card": tally.summaries(len(results), parity, "card", titles),
            "by_type": tally.summaries(len(results), parity, "type"),
        },
        "run": dict(run or {}),
    }


def _labels(notes: GameNotes, results: Sequence[GameResult]) -> dict[str, str]:
    """The game's words for every statistic and score category the results hold (the report's row names)."""
    names: dict[str, None] = {}
    for result in results[:50]:  # every game has the same names; a few cover optional ones
        stats = result.stats or {}
        names.update(dict.fromkeys(stats.get("game", {})))
        for seat in stats.get("seats", []):
            names.update(dict.fromkeys(seat))
        for item in result.breakdown:
            names.update(dict.fromkeys(flat_breakdown(item)))
    return {name: notes.label(name) for name in names}
