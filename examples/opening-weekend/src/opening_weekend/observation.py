"""The shape of an Opening Weekend observation, as ``view`` builds it and ``words``, ``encoding`` and the bots read it.

Declared once as TypedDicts, so mypy checks every reader, and named by ``Game.observation_type``, so the
conformance harness checks every observation the game makes against it (``greenlight.core.shapes``).
"""

# No ``from __future__ import annotations``: TypedDict must see ``NotRequired`` itself (Python 3.11).
from typing import NotRequired, TypedDict

from greenlight.core.views import ObservationHeader


class WeekendView(TypedDict):
    """A face-up weekend: its id, name and value."""

    id: str
    name: str
    value: int


class Final(TypedDict):
    """The end of the game."""

    scores: list[float]
    ranks: list[int]
    winners: list[int]


class OpeningWeekendObservation(ObservationHeader):
    """What a seat (or a spectator) sees; ``hand`` and ``my_release`` for a seat only, ``final`` at the end."""

    round: int
    rounds: int
    weekend: WeekendView | None
    calendar: list[WeekendView]
    scores: list[int]
    won: list[list[WeekendView]]
    played: list[list[int]]
    hand_sizes: list[int]
    committed: list[int]
    waiting: list[int]
    hand: NotRequired[list[str]]
    my_release: NotRequired[str | None]
    final: NotRequired[Final]
