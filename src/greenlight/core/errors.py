"""The error hierarchy: one base error and a few precise subclasses.

Every message is written for the person who caused it: a player, a designer
editing a data file, or a client of the server.
"""

from __future__ import annotations


class GreenlightError(Exception):
    """Base class of every error Greenlight raises on purpose."""


class IllegalActionError(GreenlightError):
    """An action was refused; the message says why, in the game's own words.

    >>> str(IllegalActionError("Catering is already in line 1"))
    'Catering is already in line 1'
    """


class ActionParseError(GreenlightError):
    """A text could not be read as an action of this game (it is not an action at all, so not an illegal one)."""


class OptionError(GreenlightError):
    """A game option or player count is not valid for this game."""


class DataError(GreenlightError):
    """A card or board data file is broken.

    The message names the file, the card and the field, so the designer can go
    straight to the line that needs fixing.

    >>> str(DataError("cards.toml", "D6", "reels", "must be an integer >= 0, got -1"))
    'cards.toml: card D6, field reels: must be an integer >= 0, got -1'
    """

    def __init__(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.problem = problem
        parts = [f"card {card}" if card is not None else "", f"field {field}" if field is not None else ""]
        location = ", ".join(part for part in parts if part)
        super().__init__(f"{file}: {location}: {problem}" if location else f"{file}: {problem}")


class RecordError(GreenlightError):
    """A saved game record is malformed or does not replay."""
