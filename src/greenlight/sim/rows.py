"""Result rows as flat records for columnar files, and back.

A study writes two tables (see :mod:`greenlight.sim.storage`):

**games**, one row per game, every value a number, a bool, a text or empty:

=================================  ======================================================
column                             meaning
=================================  ======================================================
``index``                          position of the game in the study (0, 1, ...)
``game``, ``num_players``          game id and player count
``seed``                           the game seed (the deal)
``options``                        the game's options, as JSON text
``length``                         number of actions in the game
``winners``, ``winner_bots``       winning seats and their bots, as JSON lists
``seat<i>.bot``                    the bot at seat ``i`` (seat 0 moves first)
``seat<i>.bot_seed``               its seed
``seat<i>.score``, ``.rank``       final score and rank (1 = best; ties share a rank)
``seat<i>.share``                  win share: 1/k for each of k winners, else 0
``seat<i>.breakdown.<category>``   the score breakdown (nested fields joined with ``.``)
``seat<i>.stat.<name>``            the game's per-seat statistics (``greenlight.games.<id>.stats``)
``seat<i>.start``                  the seat's place in the turn order at the start (0 = first), where the game says
``stat.<name>``                    the game's per-game statistics
=================================  ======================================================

**cards**, one row per (game, seat, card, action): ``index``, ``seat``,
``bot``, ``share`` (the seat's win share in that game), ``card``, ``type``,
``action`` and ``count``.

:func:`result_from_row` rebuilds the :class:`~greenlight.sim.runner.GameResult`
(timing aside) from a games row and its card rows, so every summary can be
computed again from the files alone.

>>> from greenlight.sim.runner import GameTask, play_game
>>> result = play_game(GameTask("cinecitta", 3, 5, ("random",) * 3, (1, 2, 3), stats=True))
>>> row = game_row(result)
>>> row["seat0.bot"], row["length"], "seat1.breakdown.quality" in row, "stat.headhunts" in row
('random', 72, True, True)
>>> result_from_row(row, card_rows(result)) == result
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from greenlight.sim.runner import GameResult

#: A cell of a flat table.
Cell = bool | int | float | str | None

SEAT_PREFIX = "seat"
BREAKDOWN = "breakdown"
STAT = "stat"
START = "start"
#: The cards table's columns and their kinds (fixed, so the table can be written chunk by chunk).
CARD_KINDS = {"index": "int", "seat": "int", "bot": "str", "share": "float", "card": "str", "type": "str", "action": "str", "count": "int"}


def flatten(prefix: str, values: Mapping[str, Any], into: dict[str, Cell]) -> None:
    """Write ``values`` into ``into`` as ``prefix.name`` cells; nested mappings get longer names, lists become JSON text.

    >>> row: dict[str, Cell] = {}
    >>> flatten("b", {"money": 3, "patriot": {"USA": 3}, "tags": [1]}, row)
    >>> row
    {'b.money': 3, 'b.patriot.USA': 3, 'b.tags': '[1]'}
    """
    for name, value in values.items():
        key = f"{prefix}.{name}"
        if isinstance(value, Mapping):
            flatten(key, value, into)
        elif isinstance(value, (list, tuple)):
            into[key] = json.dumps(list(value))
        else:
            into[key] = value


def unflatten(prefix: str, row: Mapping[str, Cell]) -> dict[str, Any]:
    """The mapping :func:`flatten` wrote under ``prefix`` (JSON text stays text; empty cells of absent fields are skipped).

    >>> unflatten("b", {"b.money": 3, "b.patriot.USA": 3, "other": 1})
    {'money': 3, 'patriot': {'USA': 3}}
    """
    start = prefix + "."
    values: dict[str, Any] = {}
    for key, value in row.items():
        if not key.startswith(start):
            continue
        *parents, name = key[len(start) :].split(".")
        target = values
        for parent in parents:
            target = target.setdefault(parent, {})
        target[name] = value
    return values


def game_row(result: GameResult) -> dict[str, Cell]:
    """The flat games-table row of one result (see the module docstring)."""
    row: dict[str, Cell] = {
        "index": result.index,
        "game": result.game,
        "num_players": result.num_players,
        "seed": result.seed,
        "options": json.dumps(result.options, sort_keys=True),
        "length": result.length,
        "winners": json.dumps(list(result.winners)),
        "winner_bots": json.dumps([result.bots[seat] for seat in result.winners]),
    }
    stats = result.stats or {}
    for seat in range(result.num_players):
        prefix = f"{SEAT_PREFIX}{seat}"
        row[f"{prefix}.bot"] = result.bots[seat]
        row[f"{prefix}.bot_seed"] = result.bot_seeds[seat]
        row[f"{prefix}.score"] = result.scores[seat]
        row[f"{prefix}.rank"] = result.ranks[seat]
        row[f"{prefix}.share"] = result.returns[seat]
        flatten(f"{prefix}.{BREAKDOWN}", result.breakdown[seat], row)
        if stats.get("seats"):
            flatten(f"{prefix}.{STAT}", stats["seats"][seat], row)
        if stats.get("order") is not None:
            row[f"{prefix}.{START}"] = stats["order"][seat]
    flatten(STAT, stats.get("game", {}), row)
    return row


def card_rows(result: GameResult) -> list[dict[str, Cell]]:
    """The cards-table rows of one result (none if it has no statistics)."""
    stats = result.stats or {}
    return [
        {
            "index": result.index,
            "seat": seat,
            "bot": result.bots[seat],
            "share": result.returns[seat],
            "card": card,
            "type": kind,
            "action": action,
            "count": count,
        }
        for seat, card, kind, action, count in stats.get("cards", ())
    ]


def _seat_values(row: Mapping[str, Cell], num_players: int, field: str) -> list[Cell]:
    return [row[f"{SEAT_PREFIX}{seat}.{field}"] for seat in range(num_players)]


def result_from_row(row: Mapping[str, Cell], cards: Iterable[Mapping[str, Cell]] = ()) -> GameResult:
    """Rebuild the result of one games row and its card rows (timing is not kept in the files)."""
    n = int(row["num_players"])  # type: ignore[arg-type]
    seat_stats = [unflatten(f"{SEAT_PREFIX}{seat}.{STAT}", row) for seat in range(n)]
    game_stats = unflatten(STAT, row)
    card_entries = [[card["seat"], card["card"], card["type"], card["action"], card["count"]] for card in cards]
    has_stats = bool(game_stats or any(seat_stats) or card_entries)
    winners = json.loads(str(row["winners"]))
    starts = [row.get(f"{SEAT_PREFIX}{seat}.{START}") for seat in range(n)]
    return GameResult(
        index=int(row["index"]),  # type: ignore[arg-type]
        game=str(row["game"]),
        num_players=n,
        seed=int(row["seed"]),  # type: ignore[arg-type]
        options=json.loads(str(row["options"])),
        bots=tuple(str(name) for name in _seat_values(row, n, "bot")),
        bot_seeds=tuple(int(seed) for seed in _seat_values(row, n, "bot_seed")),  # type: ignore[arg-type]
        scores=tuple(float(score) for score in _seat_values(row, n, "score")),  # type: ignore[arg-type]
        ranks=tuple(int(rank) for rank in _seat_values(row, n, "rank")),  # type: ignore[arg-type]
        winners=tuple(winners),
        returns=tuple(float(share) for share in _seat_values(row, n, "share")),  # type: ignore[arg-type]
        breakdown=tuple(unflatten(f"{SEAT_PREFIX}{seat}.{BREAKDOWN}", row) for seat in range(n)),
        length=int(row["length"]),  # type: ignore[arg-type]
        stats=(
            {"game": game_stats, "seats": seat_stats, "cards": sorted(card_entries)}
            | ({"order": [int(place) for place in starts]} if None not in starts else {})  # type: ignore[arg-type]
            if has_stats
            else None
        ),
    )


def results_from_tables(games: Sequence[Mapping[str, Cell]], cards: Iterable[Mapping[str, Cell]]) -> list[GameResult]:
    """Rebuild every result of a games table and its cards table, in the games table's order."""
    by_index: dict[int, list[Mapping[str, Cell]]] = {}
    for card in cards:
        by_index.setdefault(int(card["index"]), []).append(card)  # type: ignore[arg-type]
    return [result_from_row(row, by_index.get(int(row["index"]), [])) for row in games]  # type: ignore[arg-type]
