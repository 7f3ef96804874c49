"""Statistics of a finished game for ``greenlight simulate`` (found by ``greenlight.sim`` in this module).

* **game**: ``flops`` (rounds with a flop), ``winning_buzz`` (average winning card).
* **seats**: ``weekends_won``, ``points_from_weekends``.
* **cards** (type ``weekend``): which seat ``won`` each weekend.
"""

from __future__ import annotations

from typing import Any, cast

from greenlight.core.match import Match
from opening_weekend.cards import WEEKEND_BY_ID, buzz
from opening_weekend.events import WeekendPlayed


def statistics(match: Match) -> dict[str, Any]:
    """Per-game, per-seat and per-card statistics of ``match``."""
    n = match.num_players
    won = [0] * n
    points = [0] * n
    flops = 0
    winning: list[int] = []
    cards: list[tuple[int, str, str, str]] = []
    for event in match.events:
        if event.kind != "weekend_played":
            continue
        data = cast(WeekendPlayed, event.data)
        winner = data["winner"]
        won[winner] += 1
        points[winner] += WEEKEND_BY_ID[data["weekend"]].value
        winning.append(buzz(data["plays"][winner]))
        flops += data["flop"] is not None
        cards.append((winner, data["weekend"], "weekend", "won"))
    return {
        "game": {"flops": flops, "winning_buzz": sum(winning) / len(winning) if winning else None},
        "seats": [{"weekends_won": won[seat], "points_from_weekends": points[seat]} for seat in range(n)],
        "cards": cards,
    }
