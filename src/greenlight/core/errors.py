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
    straight to the line that needs fixing. A spreadsheet (CSV or XLSX) also
    names the row, and calls the field a column.

    >>> str(DataError("cards.toml", "D6", "reels", "must be an integer >= 0, got -1"))
    'cards.toml: card D6, field reels: must be an integer >= 0, got -1'
    >>> str(DataError("stars.csv", "ST02", "cost", "must be a whole number, got 'two'", row=3))
    "stars.csv: row 3, card ST02, column cost: must be a whole number, got 'two'"
    """

    def __init__(self, file: str, card: str | None, field: str | None, problem: str, *, row: int | None = None) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.problem = problem
        self.row = row
        noun = "column" if row is not None else "field"
        parts = [
            f"row {row}" if row is not None else "",
            f"card {card}" if card is not None else "",
            f"{noun} {field}" if field is not None else "",
        ]
        location = ", ".join(part for part in parts if part)
        super().__init__(f"{file}: {location}: {problem}" if location else f"{file}: {problem}")


class RecordError(GreenlightError):
    """A saved game record is malformed or does not replay."""
