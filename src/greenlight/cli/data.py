"""``greenlight data``: a game's card data as spreadsheets (templates, export, import, check) and its rule parameters.

See ``docs/simulation.md`` (Data in a spreadsheet).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from greenlight.cli.common import console, fail, load_game
from greenlight.core.errors import GreenlightError
from greenlight.sim.spreadsheets import FORMATS, check_data, export_data, import_data, parameter_rows

data_app = typer.Typer(
    help="Card data as spreadsheets (CSV, XLSX) and rule parameters: template, export, import, check.", no_args_is_help=True
)


def _written(files: list[Path]) -> None:
    console.print("wrote " + ", ".join(str(file) for file in files))


@data_app.command()
def template(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"One of {', '.join(FORMATS)}")] = "xlsx",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File (xlsx) or folder (csv, toml) to write")] = None,
) -> None:
    """The bundled data as a starting point: a workbook (a sheet per table, a README sheet, the rule parameters) or CSV files."""
    game = load_game(game_name)
    target = out or Path(f"{game.spec.id}-data" + (".xlsx" if fmt == "xlsx" else ""))
    try:
        _written(export_data(game, None, fmt, target))
    except GreenlightError as error:
        raise fail(str(error)) from None


@data_app.command()
def export(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    source: Annotated[Path, typer.Argument(metavar="PATH", help="The data to export: a file, folder or workbook the game reads")],
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"One of {', '.join(FORMATS)}")] = "xlsx",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="File (xlsx) or folder (csv, toml) to write")] = None,
) -> None:
    """A designer's data in another form (for example TOML files as one workbook)."""
    game = load_game(game_name)
    target = out or Path(f"{source.stem}-export" + (".xlsx" if fmt == "xlsx" else ""))
    try:
        _written(export_data(game, source, fmt, target))
    except GreenlightError as error:
        raise fail(str(error)) from None


@data_app.command(name="import")
def import_(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    source: Annotated[Path, typer.Argument(metavar="PATH", help="A CSV file, a workbook or a folder of them")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the game's own format (a folder, or one file)")],
) -> None:
    """Check a spreadsheet completely (every field, then every rule of the data) and write it in the game's own format."""
    game = load_game(game_name)
    try:
        _written(import_data(game, source, out))
    except GreenlightError as error:
        raise fail(str(error)) from None


@data_app.command()
def check(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    source: Annotated[Path, typer.Argument(metavar="PATH", help="A data file, folder or workbook")],
) -> None:
    """Validate data without playing: every table, every rule of the data, the rule parameters it sets."""
    game = load_game(game_name)
    try:
        found = check_data(game, source)
    except GreenlightError as error:
        raise fail(str(error)) from None
    table = Table(title=f"{game.spec.title}: {source} is valid")
    table.add_column("table")
    table.add_column("records", justify="right")
    table.add_column("read from")
    for name, item in found["tables"].items():
        table.add_row(name, str(item["records"]), item["from"])
    console.print(table)
    if found["parameters"]:
        changed = ", ".join(f"{name} = {value}" for name, value in found["parameters"].items())
        console.print(f"rule parameters set by {found['parameters_from']}: {changed}")


@data_app.command()
def parameters(game_name: Annotated[str, typer.Argument(metavar="GAME")]) -> None:
    """The game's rule parameters: name, the rulebook's value, the values allowed, the rule, what it does."""
    game = load_game(game_name)
    table = Table(title=f"{game.spec.title}: rule parameters (set with -o NAME=VALUE or a data file's parameters table)")
    for column in ("name", "default", "allowed", "rule", "what it does"):
        table.add_column(column)
    for row in parameter_rows(game):
        table.add_row(row["name"], str(row["default"]), row["allowed"], row["rule"], row["help"])
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add the ``data`` command group."""
    app.add_typer(data_app, name="data")
