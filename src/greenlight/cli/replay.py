"""``greenlight replay``: step through a saved game record."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from greenlight.cli.common import console, fail, outcome_table
from greenlight.core.errors import GreenlightError
from greenlight.core.record import Record, replay_steps
from greenlight.core.registry import get_game
from greenlight.core.state import GameState


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command."""

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="A record saved with --record or downloaded from the server")],
        seat: Annotated[int | None, typer.Option(help="Watch as this seat (default: spectator, public information only)")] = None,
        reveal: Annotated[bool, typer.Option(help="Show every action, secret ones included")] = False,
        step: Annotated[
            bool, typer.Option("--step/--no-step", help="Wait for Enter after each action (default when interactive)")
        ] = sys.stdin.isatty(),
        board: Annotated[bool, typer.Option(help="Show the board after every action")] = False,
    ) -> None:
        """Replay a saved game action by action, with the event log in words.

        Without --reveal, another seat's action text is hidden (it may hold a
        secret choice); the events show what that seat was allowed to see.
        """
        try:
            record = Record.load(file)
            game = get_game(record.game)
        except GreenlightError as error:
            raise fail(str(error)) from None
        if seat is not None and not 0 <= seat < record.num_players:
            raise fail(f"seat must be 0 to {record.num_players - 1}")
        console.print(
            f"[bold]{escape(game.spec.title)}[/bold], {record.num_players} players, {len(record.actions)} actions, seed {record.seed}"
        )
        names = record.seat_names()
        last: GameState | None = None
        try:
            for index, (state, actor, text, events) in enumerate(replay_steps(record, game), 1):
                last = state
                shown = escape(text) if reveal or actor == seat else "acts"
                console.print(f"[bold]{index:>4}[/bold] {escape(names[actor])} {shown}")
                for event in events:
                    if reveal or event.visible_to(seat):
                        words = game.describe_event(event, state, names)
                        if words:
                            console.print(f"      {escape(words)}")
                if board:
                    console.print(game.render_text(game.observe(state, seat), names))
                if step:
                    try:
                        answer = console.input("[dim]Enter: next action, q: stop[/dim] ")
                    except EOFError:
                        break
                    if answer.strip().lower() == "q":
                        break
        except GreenlightError as error:
            raise fail(str(error)) from None
        if last is not None and game.is_terminal(last):
            console.print(outcome_table(game, game.outcome(last), names))
