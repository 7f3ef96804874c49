"""The printed cards: twenty-four buzz cards and eight weekends."""

from __future__ import annotations

from dataclasses import dataclass

#: Buzz cards B01..B24; the number is how loud the film's buzz is.
BUZZ = tuple(f"B{number:02d}" for number in range(1, 25))
#: Buzz cards dealt to each player.
HAND_SIZE = 5


@dataclass(frozen=True, slots=True)
class Weekend:
    """A weekend of the release calendar and the points its box office is worth."""

    id: str
    name: str
    value: int


WEEKENDS = (
    Weekend("W1", "Heatwave Weekend", 1),
    Weekend("W2", "Big Match Sunday", 2),
    Weekend("W3", "Rainy Saturday", 3),
    Weekend("W4", "Long Weekend", 4),
    Weekend("W5", "Half Term", 5),
    Weekend("W6", "Valentine's Weekend", 6),
    Weekend("W7", "Thanksgiving", 7),
    Weekend("W8", "Christmas Day", 8),
)
WEEKEND_BY_ID = {weekend.id: weekend for weekend in WEEKENDS}


def buzz(card: str) -> int:
    """The loudness printed on a buzz card.

    >>> buzz("B07")
    7
    """
    return int(card[1:])


def buzz_name(card: str) -> str:
    """The card's name as players say it: ``Buzz 7``."""
    return f"Buzz {buzz(card)}"
