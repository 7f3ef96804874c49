"""``greenlight position``: the position after any move of a saved game, as a file to play from or to study."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from greenlight.cli.common import console, fail
from greenlight.core.errors import GreenlightError
from greenlight.core.positions import dumps
from greenlight.core.record import Record, replay_steps, start_state
from greenlight.core.registry import get_game


def register(app: typer.Typer) -> None:
    """Add the ``position`` command."""

    @app.command()
    def position(
        file: Annotated[Path, typer.Argument(help="A record saved with --record or downloaded from the server")],
        at: Annotated[int | None, typer.Option(help="After this many moves (0: the start; default: the last move)")] = None,
        out: Annotated[Path | None, typer.Option(help="Write the position to this file instead of printing it")] = None,
    ) -> None:
        """Print the whole position after move N of a record (every hidden card and random stream included).

        The output is a position file (docs/positions.md): ``greenlight play --position FILE`` starts a game from it.
        It shows every secret of the game, so it is for study, not for a game still being played.
        """
        try:
            record = Record.load(file)
            game = get_game(record.game)
            moves = len(record.actions) if at is None else at
            if not 0 <= moves <= len(record.actions):
                raise fail(f"--at must be from 0 to {len(record.actions)} (the record has {len(record.actions)} moves)")
            state = start_state(record, game)
            for index, (reached, *_rest) in enumerate(replay_steps(record, game), 1):
                state = reached
                if index == moves:
                    break
            text = dumps(game.to_position(state))
        except GreenlightError as error:
            raise fail(str(error)) from None
        if out is None:
            console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            out.write_text(text + "\n", encoding="utf-8")
            console.print(f"Wrote the position after move {moves} of {len(record.actions)} to {out}")
