"""The data of every Opening Weekend event, by kind (``EVENT_TYPES``), as ``rules`` makes it and ``words`` reads it."""

from __future__ import annotations

from typing import TypedDict


class Released(TypedDict):
    """A seat sealed a release (everyone sees that, not which card)."""

    seat: int
    round: int


class MyRelease(TypedDict):
    """The card the seat sealed (seen by that seat only)."""

    seat: int
    card: str


class WeekendPlayed(TypedDict):
    """The releases were revealed and the weekend scored."""

    round: int
    weekend: str
    plays: list[str]
    winner: int
    value: int
    flop: int | None


class WeekendRevealed(TypedDict):
    """A face-down weekend was turned up (Sneak Previews)."""

    weekend: str
    round: int


class GameOver(TypedDict):
    """The game ended."""

    scores: list[int]


EVENT_TYPES: dict[str, type] = {
    "released": Released,
    "my_release": MyRelease,
    "weekend_played": WeekendPlayed,
    "weekend_revealed": WeekendRevealed,
    "game_over": GameOver,
}
