"""``greenlight rules GAME``: the rules for players, in the terminal."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from greenlight.cli.common import console, fail, load_game
from greenlight.core.registry import companion_file


def register(app: typer.Typer) -> None:
    """Add the ``rules`` command."""

    @app.command()
    def rules(
        game_name: Annotated[str, typer.Argument(metavar="GAME", help="A game id, as `greenlight games` lists them")],
        plain: Annotated[bool, typer.Option(help="Print the Markdown source instead of formatting it")] = False,
    ) -> None:
        """Show how to play GAME: setup, a turn, scoring, every variant and expansion, with examples."""
        game = load_game(game_name)
        path = companion_file(game, "guide.md")
        if path is None:
            raise fail(f"{game.spec.title} has no rules for players yet")
        text = path.read_text(encoding="utf-8")
        if plain:
            print(text)
        else:
            console.print(Markdown(text))
