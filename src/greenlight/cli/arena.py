"""``greenlight arena``: bots play many seeded games with rotating seats; win shares, scores and ratings."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from greenlight.cli.common import console, fail, load_game, parse_options
from greenlight.core.errors import GreenlightError
from greenlight.sim.arena import ArenaReport, pooled_report, run_arena
from greenlight.sim.pool import default_workers
from greenlight.sim.runner import GameResult


def report_table(report: ArenaReport) -> Table:
    """The per-bot summary as a rich table."""
    seed = f"seed {report.seed}" if report.seed is not None else "pooled runs"
    table = Table(title=f"{report.game}, {report.num_players} players, {report.games} games, {seed}")
    for column in ("bot", "seats", "win share", "95% CI", "x parity", "Elo", "mean score", "s/move", "max s", "iter/s"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for item in report.summaries:
        table.add_row(
            item.bot,
            str(item.seats),
            f"{item.win_share:.3f}",
            f"{item.win_low:.3f}-{item.win_high:.3f}",
            f"{item.win_share / item.parity:.2f}",
            f"{item.elo:.0f}" if item.elo is not None else "-",
            f"{item.mean_score:.1f}",
            f"{item.seconds_per_move:.3f}",
            f"{item.max_seconds:.2f}",
            f"{item.iterations_per_second:.0f}" if item.iterations_per_second else "-",
        )
    return table


def breakdown_table(report: ArenaReport) -> Table:
    """Mean score breakdown per bot (numeric fields) and the share of each text value (such as a status)."""
    table = Table(title="score breakdown (mean per seat)")
    table.add_column("field")
    for item in report.summaries:
        table.add_column(item.bot, justify="right")
    fields = list(dict.fromkeys(key for item in report.summaries for key in item.breakdown))
    for key in fields:
        table.add_row(key, *(f"{item.breakdown[key]:.1f}" if key in item.breakdown else "-" for item in report.summaries))
    labels = list(dict.fromkeys((key, value) for item in report.summaries for key, counts in item.labels.items() for value in counts))
    for key, value in labels:
        cells = [f"{item.labels.get(key, {}).get(value, 0) / item.seats:.1%}" for item in report.summaries]
        table.add_row(f"{key} = {value}", *cells)
    return table


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command."""

    @app.command()
    def arena(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        bot: Annotated[
            list[str] | None, typer.Option("--bot", "-b", help="A bot per seat in order; the last fills the other seats")
        ] = None,
        games: Annotated[int, typer.Option("--games", "-g", help="Number of games")] = 100,
        seed: Annotated[int, typer.Option(help="Arena seed: the same seed plays the same games")] = 0,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Local processes (default: all cores)")] = 0,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON instead of tables")] = False,
        rows: Annotated[str | None, typer.Option("--rows", help="Also write every game's result row to this JSON-lines file")] = None,
        from_rows: Annotated[
            list[str] | None, typer.Option("--from-rows", help="Report on rows saved by --rows (repeat to pool runs) instead of playing")
        ] = None,
    ) -> None:
        """Pit bots against each other: win share (ties split) with a 95% interval, Elo, mean score and breakdown."""
        game = load_game(game_name)
        if from_rows:
            try:
                pooled = pooled_report(from_rows)
            except (GreenlightError, OSError) as error:
                raise fail(str(error)) from None
            if pooled.game != game.spec.id:
                raise fail(f"the rows are from {pooled.game}, not {game.spec.id}")
            show(pooled, as_json, workers=0)
            return
        count = players or game.spec.min_players
        names = bot or ["hard", "medium"]
        pool = workers or default_workers()
        try:
            with Progress(
                TextColumn("[bold]arena[/bold]"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.description}"),
                console=console if not as_json else None,
                transient=as_json,
                disable=as_json,
            ) as progress:
                task = progress.add_task("", total=games)
                leader: dict[str, float] = {}

                def advance(row: GameResult) -> None:
                    for name, share in zip(row.bots, row.returns, strict=True):
                        leader[name] = leader.get(name, 0.0) + share
                    shares = "  ".join(f"{name} {wins:g}" for name, wins in leader.items())
                    progress.update(task, advance=1, description=f"wins: {shares}")

                options = parse_options(game, option or [])
                report = run_arena(game.spec.id, count, names, games, seed, options, workers=pool, progress=advance)
        except GreenlightError as error:
            raise fail(str(error)) from None
        if rows:
            with open(rows, "w", encoding="utf-8") as handle:
                for row in report.rows:
                    handle.write(json.dumps(row.to_json()) + "\n")
        show(report, as_json, workers=pool)


def show(report: ArenaReport, as_json: bool, workers: int) -> None:
    """Print the report as JSON or as tables."""
    if as_json:
        print(json.dumps(report.to_json(), indent=1))
        return
    # The report is wide: keep its columns readable on a narrow terminal (or a pipe) rather than squeezing them.
    wide = Console(highlight=False, width=max(console.width, 130))
    wide.print(report_table(report))
    wide.print(breakdown_table(report))
    played = f" in {report.seconds:.1f} s on {workers} worker(s)" if workers else " (from saved rows)"
    console.print(f"{report.games} games{played}; mean length {report.mean_length:.1f} actions")
