"""``greenlight review``: every decision of one seat of a saved game, against the best move the search finds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress

from greenlight.bots.review import review_game
from greenlight.bots.review_page import review_html
from greenlight.cli.common import console, fail
from greenlight.core.errors import GreenlightError
from greenlight.core.record import Record
from greenlight.core.registry import get_game


def register(app: typer.Typer) -> None:
    """Add the ``review`` command."""

    @app.command()
    def review(
        file: Annotated[Path, typer.Argument(help="A record saved with --record or downloaded from the server")],
        seat: Annotated[int, typer.Option(help="The seat to review, from 0")],
        out: Annotated[Path, typer.Option(help="Folder for review.json and review.html")] = Path("review"),
        seconds: Annotated[float, typer.Option(help="Seconds of search per decision")] = 1.0,
        iterations: Annotated[int | None, typer.Option(help="Search iterations per decision instead (reproducible)")] = None,
    ) -> None:
        """Review one seat's decisions: the move played and the best found, their estimated win shares and a verdict.

        Each position is searched from what that seat could see at that point only. Verdicts by the estimated loss
        in win share: good (< 5%), inaccuracy (< 10%), mistake (< 20%), blunder.
        """
        if seconds <= 0:
            raise fail("--seconds must be more than 0")
        try:
            record = Record.load(file)
            game = get_game(record.game)
            with Progress(console=console, transient=True) as bar:
                task = bar.add_task("Reviewing", total=None)

                def advance(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total, description=f"Reviewing decision {done} of {total}")

                result = review_game(game, record, seat, seconds=seconds, iterations=iterations, progress=advance)
        except GreenlightError as error:
            raise fail(str(error)) from None
        out.mkdir(parents=True, exist_ok=True)
        (out / "review.json").write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
        (out / "review.html").write_text(review_html(result), encoding="utf-8")
        counts = ", ".join(f"{count} {label}" for label, count in result.counts().items())
        console.print(f"Reviewed {len(result.decisions)} decisions of {result.seat_name}: {counts}.")
        console.print(f"Wrote {out / 'review.json'} and {out / 'review.html'}")
