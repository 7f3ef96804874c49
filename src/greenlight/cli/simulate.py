"""``greenlight simulate``: the simulation lab. Many seeded games into a folder, a balance report, an optional A/B comparison.

See ``docs/simulation.md`` for a designer's walk-through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from greenlight.cli.common import console, fail, load_game, parse_options
from greenlight.core.errors import GreenlightError
from greenlight.core.game import Game
from greenlight.sim.compare import ALPHA, Comparison, StudySide, write_study_comparison
from greenlight.sim.datafiles import card_option
from greenlight.sim.export import CARDS_CSV, GAMES_CSV, write_cards_csv, write_games_csv
from greenlight.sim.report import REPORT, study_answers, write_report, write_summary
from greenlight.sim.rows import results_from_tables
from greenlight.sim.runner import GameResult
from greenlight.sim.storage import default_format, find_table, read_table
from greenlight.sim.study import (
    CARDS,
    GAMES,
    Backend,
    Study,
    StudyRun,
    check_folder,
    load_study,
    make_backend,
    prepare_study,
    read_manifest,
    read_study_data,
    run_study,
)
from greenlight.sim.summary import summarize_study
from greenlight.sim.verdict import verdict

#: Where ``--compare-cards`` writes the second study, inside ``--out``.
VARIANT = "variant"


class ProgressBar:
    """A rich progress bar for a study (also a :class:`greenlight.sim.study.StudyProgress`): games done, running win totals."""

    def __init__(self, progress: Progress, label: str) -> None:
        self.progress = progress
        self.task = progress.add_task(label, total=None)
        self.wins: dict[str, float] = {}

    def start(self, total: int, done: int) -> None:
        """Set the total and the games finished by earlier runs."""
        self.progress.update(self.task, total=total, completed=done)

    def advance(self, row: GameResult) -> None:
        """One more game."""
        for name, share in zip(row.bots, row.returns, strict=True):
            self.wins[name] = self.wins.get(name, 0.0) + share
        shares = "  ".join(f"{name} {wins:g}" for name, wins in self.wins.items())
        self.progress.update(self.task, advance=1, description=f"wins this run: {shares}")


def _options(game: Game[Any], pairs: list[str], cards: str | None) -> dict[str, Any]:
    options = parse_options(game, pairs)
    if cards is not None:
        try:
            name = card_option(game)
        except GreenlightError as error:
            raise fail(str(error)) from None
        if options.get(name) not in (None, cards):
            raise fail(f"--cards and -o {name}=... name different files; give one")
        options[name] = cards
    return options


def _run(study: Study, out: Path, backend: Backend, fresh: bool, quiet: bool, label: str) -> StudyRun:
    with Progress(
        TextColumn(f"[bold]{label}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
        console=console,
        disable=quiet,
    ) as progress:
        return run_study(study, out, backend, ProgressBar(progress, ""), fresh=fresh)


def _finish(run: StudyRun, report: bool) -> dict[str, Any]:
    titles = (read_study_data(run.out) or {}).get("titles")
    summary = summarize_study(run.study.to_json(), run.results, run.cards, run.run_info(), titles)
    write_summary(run.out, summary)
    manifest = read_manifest(run.out) or {}
    write_games_csv(run.out, run.games, str(manifest.get("storage", default_format())))
    write_cards_csv(run.out, summary)
    if report:
        write_report(run.out, summary, run.results)
    return summary


def study_side(folder: Path, results: list[GameResult] | None = None) -> StudySide:
    """One side of a comparison, read from a finished study folder (its games, card rows, manifest and data)."""
    manifest, rows = load_study(folder)
    cards_file = find_table(folder / CARDS)
    return StudySide(
        str(folder),
        results if results is not None else results_from_tables(rows, ()),
        read_table(cards_file) if cards_file is not None else None,
        manifest,
        read_study_data(folder),
    )


def summary_tables(summary: dict[str, Any]) -> list[Table]:
    """Seat positions and bots as rich tables."""
    positions = Table(title=f"{summary['study']['game']}: {summary['games']} games, win share by seat position")
    for column in ("seat", "win share", "95% CI", "parity", "p vs parity", "mean score"):
        positions.add_column(column, justify="left" if column == "seat" else "right")
    for item in summary["positions"]:
        low, high = item["win_share_ci95"]
        positions.add_row(
            str(item["seat"]),
            f"{item['win_share']:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{item['parity']:.3f}",
            f"{item['p_value_vs_parity']:.4f}",
            f"{item['mean_score']:.1f}",
        )
    bots = Table(title="bots")
    for column in ("bot", "seats", "win share", "95% CI", "x parity", "Elo", "mean score"):
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for item in summary["bots"]:
        low, high = item["win_share_ci95"]
        bots.add_row(
            item["bot"],
            str(item["seats"]),
            f"{item['win_share']:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{item['win_share_over_parity']:.2f}",
            f"{item['elo']:.0f}" if item["elo"] is not None else "-",
            f"{item['mean_score']:.1f}",
        )
    return [positions, bots]


def comparison_table(comparison: Comparison) -> Table:
    """The significant numbers of a comparison, and those of the cards whose data changed, as a rich table."""
    names = comparison.names
    table = Table(title=f"A/B: A = {names[0]}, B = {names[1]} (significant, and changed cards; every number is in compare.html)")
    for column in ("number", "A", "B", "B - A", "95% CI of B - A", "p (Holm)"):
        table.add_column(column, justify="left" if column == "number" else "right")
    for item in comparison.headlines:
        if not (item.significant or (item.changed and not item.rare)):
            continue
        style = ("green" if item.difference > 0 else "red") if item.p_holm < ALPHA else ""
        difference = f"[{style}]{item.difference:+.3f}[/{style}]" if style else f"{item.difference:+.3f}"
        low, high = item.difference_ci
        table.add_row(
            item.label or item.name, f"{item.a:.3f}", f"{item.b:.3f}", difference, f"{low:+.3f} to {high:+.3f}", f"{item.p_holm:.4f}"
        )
    return table


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command."""

    @app.command()
    def simulate(
        game_name: Annotated[str, typer.Argument(metavar="GAME")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players (default: the minimum)")] = 0,
        bot: Annotated[
            list[str] | None,
            typer.Option("--bot", "-b", help="A bot per seat in order; the last fills the other seats (default heuristic)"),
        ] = None,
        games: Annotated[int, typer.Option("--games", "-g", help="Number of games")] = 1000,
        seed: Annotated[int, typer.Option(help="Study seed: the same seed plays the same games on any backend")] = 0,
        out: Annotated[Path | None, typer.Option("--out", "-d", help="Folder for the results (default: study-GAME)")] = None,
        cards: Annotated[str | None, typer.Option("--cards", help="Custom card data: sets the game's data-file option")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE, as for play")] = None,
        backend: Annotated[str, typer.Option(help="local (process pool) or ray")] = "local",
        address: Annotated[str | None, typer.Option(help="Ray cluster address (auto, HOST:6379 or ray://HOST:10001)")] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Local processes, or CPUs of a Ray started here (default: all)")] = 0,
        chunk_size: Annotated[int, typer.Option(help="Games per saved chunk (the unit of resuming)")] = 100,
        fresh: Annotated[bool, typer.Option("--fresh", help="Delete earlier results in the folder and start over")] = False,
        compare: Annotated[Path | None, typer.Option(help="Compare with this finished study folder (A = it, B = this study)")] = None,
        compare_cards: Annotated[
            str | None, typer.Option(help="Also run this study with these card data (into OUT/variant) and compare (A = this, B = it)")
        ] = None,
        ship_code: Annotated[
            bool, typer.Option("--ship-code", help="Ray: upload this greenlight package to the cluster with the job")
        ] = False,
        report: Annotated[bool, typer.Option(help="Write report.html and its plots")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print summary.json instead of tables")] = False,
    ) -> None:
        """Play many seeded games with rotating seats into a folder (resumable), then write rows, summary.json and report.html."""
        game = load_game(game_name)
        count = players or game.spec.min_players
        folder = out or Path(f"study-{game.spec.id}")
        options = _options(game, option or [], cards)
        try:
            study = prepare_study(game.spec.id, count, bot or ["heuristic"], games, seed, options, chunk_size)
            variant = None
            if compare_cards is not None:
                variant = prepare_study(
                    game.spec.id, count, study.lineup, games, seed, {**options, card_option(game): compare_cards}, chunk_size
                )
            check_folder(study, folder, fresh)
            if variant is not None:
                check_folder(variant, folder / VARIANT, fresh)
            if compare is not None and read_manifest(compare) is None:
                raise fail(f"{compare} holds no study to compare with (no manifest.json)")
            runner = make_backend(backend, workers, address, ship_code)
        except GreenlightError as error:
            raise fail(str(error)) from None
        try:
            run = _run(study, folder, runner, fresh, as_json, "simulate")
            summary = _finish(run, report)
            variant_run = _run(variant, folder / VARIANT, runner, fresh, as_json, "variant") if variant is not None else None
            if variant_run is not None:
                _finish(variant_run, report)
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted:[/yellow] finished chunks are saved in {folder}; rerun the same command to resume")
            raise typer.Exit(code=130) from None
        except GreenlightError as error:
            raise fail(str(error)) from None
        comparison: Comparison | None = None
        if compare is not None or variant_run is not None:
            try:
                if variant_run is not None:
                    sides = (study_side(folder, run.results), study_side(folder / VARIANT, variant_run.results))
                else:
                    assert compare is not None
                    sides = (study_side(compare), study_side(folder, run.results))
                comparison, _ = write_study_comparison(folder, *sides)
            except GreenlightError as error:
                raise fail(str(error)) from None
        if as_json:
            print(json.dumps(summary, indent=1))
            return
        wide = Console(highlight=False, width=max(console.width, 110))
        if comparison is not None:
            wide.print(verdict(comparison).text(), markup=False)
            wide.print(comparison_table(comparison))
        else:
            for answer in study_answers(summary):
                wide.print("- " + answer, markup=False)
            for table in summary_tables(summary):
                wide.print(table)
        info = run.run_info()
        speed = f" ({info['games_per_second']:.1f} games/s)" if info["games_per_second"] else ""
        total = f"; {info['runs']} runs, {info['total_seconds']:.1f} s in all" if info.get("runs", 0) > 1 else ""
        console.print(
            f"{info['games_played']} games played, {info['games_reused']} reused from earlier runs, on {run.backend}{speed}{total}"
        )
        written = [find_table(folder / GAMES) or folder / GAMES, folder / GAMES_CSV, folder / CARDS_CSV, folder / "summary.json"]
        written += [folder / REPORT] if report else []
        if comparison is not None:
            written.append(folder / "compare.html")
        console.print("wrote " + ", ".join(str(path) for path in written))
