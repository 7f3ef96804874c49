"""``greenlight sweep`` and ``greenlight balance``: find a fair value for a card's number or a rule parameter.

See ``docs/simulation.md`` (Sweeps and balance).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from greenlight.cli.common import console, fail, load_game
from greenlight.cli.simulate import ProgressBar, _options
from greenlight.core.errors import GreenlightError
from greenlight.sim.balance import run_balance
from greenlight.sim.study import make_backend
from greenlight.sim.sweep import SweepResult, ensure_budget, parse_values, run_sweep


def _bar(label: str, quiet: bool) -> Progress:
    return Progress(
        TextColumn(f"[bold]{label}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
        console=console,
        disable=quiet,
    )


def sweep_table(result: SweepResult) -> Table:
    """Each value's win share with its interval, how often, and the suggestion."""
    table = Table(title=f"{result.vary.label}: {result.measure_words()} (parity {result.parity:.3f})")
    for column in ("value", "win share", "95% CI", "per game", "length"):
        table.add_column(column, justify="right")
    for point in result.points:
        mark = " <- suggested" if result.suggested is not None and point.value == result.suggested.value else ""
        table.add_row(
            f"{point.value}{mark}",
            f"{point.share:.3f}" if point.share is not None else f"rare ({point.seats})",
            f"{point.low:.3f}-{point.high:.3f}" if point.low is not None and point.high is not None else "-",
            f"{point.per_game:.3f}" if point.per_game is not None else "-",
            f"{point.length:.0f}",
        )
    return table


def register(app: typer.Typer) -> None:
    """Add the ``sweep`` and ``balance`` commands."""

    @app.command()
    def sweep(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        vary: Annotated[str, typer.Option("--vary", "-v", help="PATH=VALUES: stars.ST16.cost=2..6, cards.ST16.cost=2,4,6, rounds=8..12")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        bot: Annotated[list[str] | None, typer.Option("--bot", "-b", help="A bot per seat in order; the last fills the table")] = None,
        games: Annotated[int, typer.Option("--games", "-g", help="Games per value")] = 200,
        budget: Annotated[int | None, typer.Option(help="Games in all, shared by the values (instead of --games)")] = None,
        seed: Annotated[int, typer.Option(help="The same seed plays the same deals at every value")] = 0,
        out: Annotated[Path | None, typer.Option("--out", "-d", help="Folder (default: sweep-GAME)")] = None,
        cards: Annotated[str | None, typer.Option("--cards", help="Start from this data instead of the bundled data")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE")] = None,
        action: Annotated[
            str | None, typer.Option(help="For a card: the action whose win share is measured (default: its most frequent)")
        ] = None,
        backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
        address: Annotated[str | None, typer.Option(help="Ray cluster address")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Local processes, or CPUs of a Ray started here")] = 0,
        fresh: Annotated[bool, typer.Option("--fresh", help="Delete earlier results in the folder and start over")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print sweep.json instead of tables")] = False,
    ) -> None:
        """Play a study per value of a card's number or a rule parameter (same deals at every value); suggest a fair value."""
        game = load_game(game_name)
        count = players or game.spec.min_players
        folder = out or Path(f"sweep-{game.spec.id}")
        options = _options(game, option or [], cards)
        try:
            values = len(parse_values(vary.partition("=")[2]))
            per_value = ensure_budget(budget, games, values)
            runner = make_backend(backend, workers, address)
            with _bar("sweep", as_json) as progress:
                bar = ProgressBar(progress, "")
                result = run_sweep(
                    game.spec.id, count, bot or ["heuristic"], vary, per_value, seed, folder, options, runner, bar, fresh, action
                )
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted:[/yellow] finished chunks are saved in {folder}; rerun the same command to resume")
            raise typer.Exit(code=130) from None
        except GreenlightError as error:
            raise fail(str(error)) from None
        if as_json:
            print(json.dumps(result.to_json(), indent=1))
            return
        wide = Console(highlight=False, width=max(console.width, 100))
        wide.print(result.verdict(), markup=False)
        wide.print(sweep_table(result))
        console.print(f"wrote {folder / 'sweep.html'}, {folder / 'sweep.png'}, {folder / 'sweep.json'}, {folder / 'sweep.csv'}")

    @app.command()
    def balance(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        bot: Annotated[list[str] | None, typer.Option("--bot", "-b", help="A bot per seat in order; the last fills the table")] = None,
        budget: Annotated[int, typer.Option(help="Games in all: a third for the study, the rest for the sweeps")] = 3000,
        top: Annotated[int, typer.Option(help="Cards to sweep (the furthest from parity)")] = 3,
        seed: Annotated[int, typer.Option(help="Study seed")] = 0,
        out: Annotated[Path | None, typer.Option("--out", "-d", help="Folder (default: balance-GAME)")] = None,
        cards: Annotated[str | None, typer.Option("--cards", help="Start from this data instead of the bundled data")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE")] = None,
        backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
        address: Annotated[str | None, typer.Option(help="Ray cluster address")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Local processes, or CPUs of a Ray started here")] = 0,
        fresh: Annotated[bool, typer.Option("--fresh", help="Delete earlier results in the folder and start over")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print balance.json instead of tables")] = False,
    ) -> None:
        """List the cards furthest from parity and, for the worst few, sweep their cost to suggest a fair value."""
        game = load_game(game_name)
        count = players or game.spec.min_players
        folder = out or Path(f"balance-{game.spec.id}")
        options = _options(game, option or [], cards)
        try:
            runner = make_backend(backend, workers, address)
            with _bar("balance", as_json) as progress:
                bar = ProgressBar(progress, "")
                report = run_balance(game.spec.id, count, bot or ["heuristic"], budget, top, seed, folder, options, runner, bar, fresh)
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted:[/yellow] finished chunks are saved in {folder}; rerun the same command to resume")
            raise typer.Exit(code=130) from None
        except GreenlightError as error:
            raise fail(str(error)) from None
        if as_json:
            print(json.dumps(report.to_json(), indent=1))
            return
        wide = Console(highlight=False, width=max(console.width, 110))
        for line in report.lines():
            wide.print("- " + line, markup=False)
        table = Table(title="cards furthest from parity")
        for column in ("card", "action", "win share", "95% CI", "from parity", "field", "now", "suggested"):
            table.add_column(column, justify="left" if column in ("card", "action", "field") else "right")
        for row in report.rows():
            table.add_row(*row)
        wide.print(table)
        console.print(f"wrote {folder / 'balance.html'}, {folder / 'balance.json'}")
