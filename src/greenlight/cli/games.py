"""``greenlight games``: the registered games, their player counts, options and bots."""

from __future__ import annotations

import typer
from rich.table import Table

from greenlight.bots import bot_names
from greenlight.cli.common import console
from greenlight.core.registry import all_games


def register(app: typer.Typer) -> None:
    """Add the ``games`` command."""

    @app.command("games")
    def list_games() -> None:
        """List the games with their player counts, options and bot levels."""
        table = Table(title="Greenlight games")
        for column in ("id", "title", "players", "options", "bots"):
            table.add_column(column)
        for game in all_games().values():
            options = "\n".join(f"{spec.name} ({spec.kind}, default {spec.default}): {spec.help}" for spec in game.spec.options)
            table.add_row(
                game.spec.id,
                game.spec.title,
                f"{game.spec.min_players}-{game.spec.max_players}",
                options or "-",
                ", ".join(bot_names(game)),
            )
        console.print(table)
