"""``greenlight bench``: engine throughput on one core, as one JSON line."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from greenlight.benchmark import compare_openspiel as compare
from greenlight.benchmark import measure
from greenlight.cli.common import fail, load_game, parse_options


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command."""

    @app.command()
    def bench(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        seconds: Annotated[float, typer.Option(help="How long to run random playouts")] = 5.0,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE")] = None,
        seed: Annotated[int, typer.Option()] = 0,
        compare_openspiel: Annotated[
            bool,
            typer.Option(
                "--compare-openspiel", help="Also time OpenSpiel's python_tic_tac_toe, interleaved, and print the ratio (rl extra)"
            ),
        ] = False,
    ) -> None:
        """Random-playout throughput (actions/s, games/s) and clone/apply/legal_actions cost in microseconds."""
        game = load_game(game_name)
        count = players or game.spec.min_players
        options = parse_options(game, option or [])
        if compare_openspiel:
            try:
                print(json.dumps(compare(game, count, options, seconds=seconds, seed=seed)))
            except ImportError as error:
                raise fail(f"--compare-openspiel needs OpenSpiel (pip install -e '.[rl]'): {error}") from None
            return
        row = measure(game, count, options, seconds=seconds, seed=seed)
        print(json.dumps(row))
