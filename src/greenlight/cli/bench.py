"""``greenlight bench``: engine throughput on one core, as one JSON line."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from greenlight.benchmark import measure
from greenlight.cli.common import load_game, parse_options


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command."""

    @app.command()
    def bench(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        seconds: Annotated[float, typer.Option(help="How long to run random playouts")] = 5.0,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE")] = None,
        seed: Annotated[int, typer.Option()] = 0,
    ) -> None:
        """Random-playout throughput (actions/s, games/s) and clone/apply/legal_actions cost in microseconds."""
        game = load_game(game_name)
        count = players or game.spec.min_players
        row = measure(game, count, parse_options(game, option or []), seconds=seconds, seed=seed)
        print(json.dumps(row))
