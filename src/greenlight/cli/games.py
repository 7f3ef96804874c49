"""``greenlight games``: the registered games, their player counts, options and bots (readable at 80 columns)."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from greenlight.bots import bot_names
from greenlight.cli.common import console
from greenlight.core.registry import all_games
from greenlight.core.spec import OptionSpec


def register(app: typer.Typer) -> None:
    """Add the ``games`` command."""

    @app.command("games")
    def list_games() -> None:
        """List the games with their player counts, options (the names -o takes) and bot levels."""
        for game in all_games().values():
            spec = game.spec
            console.print(f"[bold]{escape(spec.title)}[/bold]  (greenlight play {spec.id}), {spec.min_players}-{spec.max_players} players")
            console.print(Padding(Text(spec.summary), (0, 0, 0, 2)))
            console.print(f"  Bots: {', '.join(bot_names(game))}")
            if spec.options:
                console.print("  Options (-o NAME or -o NAME=VALUE):")
            for option in spec.options:
                # The name a person types is printed whole, on a line of its own; the explanation wraps below it.
                console.print(f"    [cyan]{option.name}[/cyan]  {escape(option_kind(option))}", soft_wrap=True)
                console.print(Padding(Text(option.help), (0, 0, 0, 6)))
            console.print(f"  Rules: greenlight rules {spec.id}")
            console.print()


def option_kind(option: OptionSpec) -> str:
    """What an option takes and its default, in words."""
    if option.kind == "bool":
        return f"on or off, default {'on' if option.default else 'off'}"
    if option.kind == "path":
        return "a data file (default: the bundled one)"
    if option.choices:
        return f"one of {', '.join(str(choice) for choice in option.choices)}, default {option.default}"
    return f"{option.kind}, default {option.default}"
