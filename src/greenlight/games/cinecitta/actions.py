"""Cinecitta 1937 actions: offer, respond, place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action
from greenlight.core.errors import ActionParseError

SECURE = "secure"
HEADHUNT = "headhunt"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Put one staff card and some money in the folder for your partner (step 1)."""

    verb: ClassVar[str] = "offer"
    card: str
    amount: int


@dataclass(frozen=True, slots=True)
class Respond(Action):
    """Secure the funds or headhunt the card in the folder you received (step 2)."""

    verb: ClassVar[str] = "respond"
    choice: str


@dataclass(frozen=True, slots=True)
class Place(Action):
    """A placement plan (step 3c): pending cards in order, each with the Studio card it pushes out under rule (c).

    ``placements`` holds ``(card, out)`` pairs; ``out`` is None unless the Studio
    was full without a card of the same occupation. Text: ``place C3 S9:D5``.
    """

    verb: ClassVar[str] = "place"
    placements: tuple[tuple[str, str | None], ...] = ()

    def __str__(self) -> str:
        parts = [card if out is None else f"{card}:{out}" for card, out in self.placements]
        return " ".join([self.verb, *parts])

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Place:
        """Read ``C3`` or ``S9:D5`` tokens."""
        placements: list[tuple[str, str | None]] = []
        for token in tokens:
            card, _, out = token.partition(":")
            if not card or (_ and not out):
                raise ActionParseError(f"a placement is CARD or CARD:OUT (the Studio card it replaces), not {token!r}")
            placements.append((card, out or None))
        if len(placements) > 2:
            raise ActionParseError("a plan places at most 2 cards")
        return cls(tuple(placements))


ACTION_TYPES: tuple[type[Action], ...] = (Offer, Respond, Place)
