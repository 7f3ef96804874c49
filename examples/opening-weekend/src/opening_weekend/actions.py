"""The one action: release a film with a buzz card from your hand (face down until all have chosen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action


@dataclass(frozen=True, slots=True)
class Release(Action):
    """Commit ``card`` (a buzz card of your hand) to this round's weekend: ``release B07``."""

    verb: ClassVar[str] = "release"
    card: str


ACTION_TYPES = (Release,)
