"""Helpers shared by the CLI commands: option parsing, seat specs, result printing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from greenlight.core.errors import GreenlightError, OptionError
from greenlight.core.game import Game
from greenlight.core.outcome import Outcome
from greenlight.core.registry import get_game

console = Console(highlight=False)
error_console = Console(stderr=True, highlight=False)


def fail(message: str) -> typer.Exit:
    """Print an error in red and return the exit to raise (the message is shown as written, brackets and all).

    Not wrapped by rich (the terminal wraps it): a file path in the message stays whole, to copy, and whatever the
    width of the console.
    """
    error_console.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return typer.Exit(code=2)


def load_game(name: str) -> Game[Any]:
    """The game called ``name``, or a clean CLI error."""
    try:
        return get_game(name)
    except OptionError as error:
        raise fail(str(error)) from None


def parse_options(game: Game[Any], pairs: Sequence[str]) -> dict[str, Any]:
    """Turn ``name=value`` strings into an options dict (values are coerced by the game spec)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            value = "true"  # a bare flag name switches a variant on
        try:
            options[name.strip()] = game.spec.option(name.strip()).coerce(value.strip())
        except OptionError as error:
            raise fail(str(error)) from None
    return options


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who plays a seat: a human at this terminal or a bot level."""

    human: bool
    bot: str = ""

    @classmethod
    def parse(cls, text: str) -> SeatSpec:
        """``human`` or ``bot:LEVEL`` (``bot`` alone means the heuristic level)."""
        text = text.strip().lower()
        if text == "human":
            return cls(human=True)
        if text == "bot":
            return cls(human=False, bot="heuristic")
        if text.startswith("bot:") and len(text) > 4:
            return cls(human=False, bot=text[4:])
        raise OptionError(f"a seat is 'human' or 'bot:LEVEL', not {text!r}")

    def __str__(self) -> str:
        return "human" if self.human else f"bot:{self.bot}"


def outcome_table(game: Game[Any], outcome: Outcome, names: Sequence[str]) -> Table:
    """A rich table with one column per seat (by name): place, score, then every scoring category in words."""
    table = Table(title=f"{game.spec.title}: final result")
    table.add_column("")
    for name in names:
        table.add_column(escape(name), justify="right")
    table.add_row("place", *(ordinal(rank) for rank in outcome.ranks))
    table.add_row("[bold]score[/bold]", *(f"[bold]{number(score)}[/bold]" for score in outcome.scores))
    categories: list[str] = []
    for item in outcome.breakdown:
        categories.extend(key for key in item if key not in categories)
    for category in categories:
        table.add_row(escape(category_words(category)), *(escape(_cell(item.get(category))) for item in outcome.breakdown))
    table.add_row("", *("[green]winner[/green]" if seat in outcome.winners else "" for seat in range(len(outcome.scores))))
    return table


def category_words(key: str) -> str:
    """A scoring category as a player reads it: ``box_office`` -> ``box office``."""
    return key.replace("_", " ")


def number(value: float) -> str:
    """A score without a pointless ``.0``.

    >>> number(13.0), number(2.5)
    ('13', '2.5')
    """
    return f"{value:g}"


def ordinal(rank: int) -> str:
    """1st, 2nd, 3rd, 4th...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']
    """
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number(value)
    if isinstance(value, str):
        return value.replace("_", " ").lower() if value.isupper() else value
    if isinstance(value, dict):
        return ", ".join(f"{category_words(str(key))} {_cell(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_cell(item) for item in value)
    return str(value)


def result_json(game: Game[Any], outcome: Outcome, seats: Sequence[str], extra: dict[str, Any]) -> str:
    """The final result as one JSON document."""
    return json.dumps({"game": game.spec.id, "seats": list(seats), **outcome.to_json(), **extra})


def guard(error: GreenlightError) -> typer.Exit:
    """Turn an engine error into a clean CLI failure."""
    return fail(str(error))
