"""Final results: scores, ranking with the game's tie-breaks, a breakdown per category."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``ranks`` use competition ranking (1, 1, 3, ...): seats equal on the whole
    sort key share a place. ``winners`` are the seats ranked 1 that the game
    counts as winners (empty when nobody wins). ``breakdown`` explains each
    seat's score category by category.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[Mapping[str, Any], ...] = field(default=())

    def returns(self) -> tuple[float, ...]:
        """Win shares: 1/k for each of k winners, 0 for everyone else (ties split)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if seat in self.winners else 0.0 for seat in range(len(self.scores)))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "breakdown": [dict(item) for item in self.breakdown],
        }


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Rank seats by ``keys`` (higher is better); equal keys share a place.

    >>> competition_ranks([(10, 1), (12, 0), (10, 1), (3, 5)])
    (2, 1, 2, 4)
    """
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return tuple(ranks)


def outcome_from_keys(
    scores: Sequence[float],
    keys: Sequence[Any],
    breakdown: Sequence[Mapping[str, Any]],
    eligible: Sequence[bool] | None = None,
) -> Outcome:
    """Build an Outcome: rank by ``keys``; winners are the eligible seats ranked first.

    >>> outcome_from_keys([5, 7, 7], [(5,), (7,), (7,)], [{}, {}, {}]).winners
    (1, 2)
    """
    ranks = competition_ranks(keys)
    can_win = eligible if eligible is not None else [True] * len(scores)
    winners = tuple(seat for seat in range(len(scores)) if ranks[seat] == 1 and can_win[seat])
    return Outcome(tuple(float(score) for score in scores), ranks, winners, tuple(breakdown))
