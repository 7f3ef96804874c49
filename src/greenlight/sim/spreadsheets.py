"""A game's card data as spreadsheets and back: templates, exports and imports (CSV, XLSX, TOML, JSON).

Reading is the game's own (:class:`greenlight.core.data.DataSet`): a CSV file,
a workbook or a folder of them is read with the same validation as the
TOML files, errors naming the file, row, card and column. This module writes:

* :func:`export_data`: a game's data (bundled, or a designer's data path) as
  a workbook (one sheet per table, a ``README`` sheet saying what every
  column holds, a drop-down list on every column with fixed choices, and the
  game's rule parameters on a ``parameters`` sheet), as a folder of CSV
  files, or in the game's own format (TOML files, or JSON);
* :func:`import_data`: reads a designer's spreadsheet (checked by starting a
  game with it, so every rule of the data is checked, not only each field)
  and writes it in the game's own format.

A template is the export of the bundled data.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from greenlight.core.data import PARAMETERS, DataSet, DataTable, FieldSpec
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

FORMATS = ("xlsx", "csv", "toml", "json")


def dataset_of(game: Game[Any]) -> DataSet:
    """The game's data declaration, or a clear error for a game without data files."""
    if game.data is None:
        raise OptionError(f"{game.spec.title} declares no data files")
    return game.data


def read_data(game: Game[Any], path: str | Path | None) -> dict[str, list[dict[str, Any]]]:
    """Every table's records: of the designer's data path, else the bundled data (or example) the template starts from."""
    dataset = dataset_of(game)
    return dataset.read(path if path is not None else dataset.bundled)


def parameter_rows(game: Game[Any], values: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The game's rule parameters as rows: name, value, default, allowed values, rule and what it does."""
    rows = []
    for spec in game.spec.parameters:
        rows.append(
            {
                "name": spec.name,
                "value": (values or {}).get(spec.name, spec.default),
                "default": spec.default,
                "allowed": _allowed(spec.minimum, spec.maximum),
                "rule": spec.rule or "",
                "help": spec.help,
            }
        )
    return rows


def _allowed(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f"{minimum} to {maximum}"
    if minimum is not None:
        return f"at least {minimum}"
    if maximum is not None:
        return f"at most {maximum}"
    return "any whole number"


# -- TOML ----------------------------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def toml_table(table: DataTable, records: Sequence[Mapping[str, Any]], header: str = "") -> str:
    """The records of one table as TOML (``[[key]]`` blocks; an empty optional field is left out).

    >>> from greenlight.core.data import FieldSpec, DataTable
    >>> stars = DataTable("stars", "card", (FieldSpec("id", "str"), FieldSpec("tags", "list[str]")))
    >>> print(toml_table(stars, [{"id": "A", "tags": ["x"]}]))
    [[card]]
    id = "A"
    tags = ["x"]
    <BLANKLINE>
    """
    lines = [f"# {line}" for line in header.splitlines()]
    if lines:
        lines.append("")
    for record in records:
        lines.append(f"[[{table.key}]]")
        for spec in table.fields:
            value = record.get(spec.name)
            if value is None:
                continue
            lines.append(f"{spec.name} = {_toml_value(value)}")
        lines.append("")
    return "\n".join(lines)


def _columns_note(table: DataTable) -> str:
    return "Columns: " + "; ".join(f"{spec.name} ({spec.describe()})" for spec in table.fields)


# -- CSV and XLSX ----------------------------------------------------------------------------------------------------


def _cells(table: DataTable, record: Mapping[str, Any]) -> list[Any]:
    return [spec.to_cell(record.get(spec.name)) for spec in table.fields]


def write_csv(file: Path, table: DataTable, records: Sequence[Mapping[str, Any]]) -> Path:
    """One table as a CSV file (header row of column names, lists as ``a, b``, an empty cell for an empty value)."""
    with file.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([spec.name for spec in table.fields])
        for record in records:
            writer.writerow(
                ["" if cell is None else ("true" if cell is True else "false" if cell is False else cell) for cell in _cells(table, record)]
            )
    return file


def _openpyxl() -> Any:
    try:
        import openpyxl
    except ImportError:
        raise OptionError("writing .xlsx needs openpyxl: pip install 'greenlight-boardgames[sim]'") from None
    return openpyxl


def write_workbook(
    file: Path, game: Game[Any], tables: Mapping[str, Sequence[Mapping[str, Any]]], parameters: Mapping[str, Any] | None = None
) -> Path:
    """Every table as a sheet of one workbook, with a README sheet and a parameters sheet (see the module docstring)."""
    openpyxl = _openpyxl()
    from openpyxl.styles import Font
    from openpyxl.worksheet.datavalidation import DataValidation

    dataset = dataset_of(game)
    book = openpyxl.Workbook()
    readme = book.active
    readme.title = "README"
    readme.append([f"{game.spec.title}: card data. One sheet per table; the first row names the columns."])
    readme.append(["Edit the values, add or delete rows, keep the column names. Lists are written a, b. Leave a cell empty for no value."])
    readme.append(
        ["Use it with: greenlight simulate GAME --cards THIS_FILE (or import it: greenlight data import GAME THIS_FILE --out FOLDER)."]
    )
    readme.append([])
    readme.append(["sheet", "column", "what it holds"])
    readme.cell(readme.max_row, 1).font = readme.cell(readme.max_row, 2).font = readme.cell(readme.max_row, 3).font = Font(bold=True)
    for table in dataset.tables:
        for spec in table.fields:
            readme.append([table.name, spec.name, spec.describe()])
    readme.column_dimensions["A"].width = 18
    readme.column_dimensions["B"].width = 24
    readme.column_dimensions["C"].width = 80
    for table in dataset.tables:
        records = tables.get(table.name, [])
        sheet = book.create_sheet(table.name)
        sheet.append([spec.name for spec in table.fields])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for record in records:
            sheet.append(_cells(table, record))
        sheet.freeze_panes = "A2"
        for position, spec in enumerate(table.fields, start=1):
            letter = sheet.cell(1, position).column_letter
            sheet.column_dimensions[letter].width = max(10, min(40, len(spec.name) + 4))
            if spec.choices is not None and spec.kind in ("str", "int"):
                choices = ",".join(str(choice) for choice in spec.choices)
                if len(choices) < 250:  # a list validation holds at most 255 characters
                    validation = DataValidation(type="list", formula1=f'"{choices}"', allow_blank=not spec.required)
                    validation.error = f"{spec.name}: {spec.describe()}"
                    sheet.add_data_validation(validation)
                    validation.add(f"{letter}2:{letter}1048576")
    rows = parameter_rows(game, parameters)
    if rows:
        sheet = book.create_sheet(PARAMETERS)
        sheet.append(["name", "value", "default", "allowed", "rule", "what it does"])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            sheet.append([row["name"], row["value"], row["default"], row["allowed"], row["rule"], row["help"]])
        sheet.column_dimensions["A"].width = 24
        sheet.column_dimensions["F"].width = 80
    book.save(file)
    return file


# -- export and import ---------------------------------------------------------------------------------------------


def export_data(game: Game[Any], path: str | Path | None, fmt: str, out: str | Path) -> list[Path]:
    """Write the game's data (of ``path``, else the bundled data) in ``fmt`` to ``out``; return the files written.

    ``xlsx``: one workbook (``out`` is the file); ``csv``: a folder of one CSV
    file per table; ``toml`` / ``json``: the game's own format (a folder of TOML
    files for a folder data set, else one file).
    """
    if fmt not in FORMATS:
        raise OptionError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    dataset = dataset_of(game)
    tables = read_data(game, path)
    parameters = dataset.parameters(path)[1] if path is not None else {}
    target = Path(out)
    if fmt == "xlsx":
        target.parent.mkdir(parents=True, exist_ok=True)
        return [write_workbook(target if target.suffix == ".xlsx" else target.with_suffix(".xlsx"), game, tables, parameters)]
    if fmt == "csv":
        target.mkdir(parents=True, exist_ok=True)
        files = [write_csv(target / f"{table.name}.csv", table, tables[table.name]) for table in dataset.tables]
        if parameters:
            files.append(_write_parameters_csv(target / f"{PARAMETERS}.csv", parameters))
        return files
    return write_native(game, tables, fmt, target, parameters)


def _write_parameters_csv(file: Path, parameters: Mapping[str, Any]) -> Path:
    with file.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "value"])
        for name, value in parameters.items():
            writer.writerow([name, value])
    return file


def write_native(
    game: Game[Any], tables: Mapping[str, Sequence[Mapping[str, Any]]], fmt: str, out: Path, parameters: Mapping[str, Any] | None = None
) -> list[Path]:
    """The tables in the game's own layout: a folder of TOML (or JSON) files, or one file holding every table."""
    dataset = dataset_of(game)
    if dataset.folder or (len(dataset.tables) > 1 and fmt == "toml" and len({table.key for table in dataset.tables}) < len(dataset.tables)):
        out.mkdir(parents=True, exist_ok=True)
        files = []
        for table in dataset.tables:
            file = out / f"{table.name}.{fmt}"
            if fmt == "json":
                file.write_text(json.dumps({table.key: list(tables[table.name])}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            else:
                file.write_text(
                    toml_table(table, tables[table.name], f"{game.spec.title}: {table.name}. {_columns_note(table)}"), encoding="utf-8"
                )
            files.append(file)
        if parameters:
            file = out / f"{PARAMETERS}.toml"
            file.write_text("".join(f"{name} = {_toml_value(value)}\n" for name, value in parameters.items()), encoding="utf-8")
            files.append(file)
        return files
    file = out if out.suffix == f".{fmt}" else out.with_suffix(f".{fmt}")
    file.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        data: dict[str, Any] = {table.key: list(tables[table.name]) for table in dataset.tables}
        if parameters:
            data[PARAMETERS] = dict(parameters)
        file.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        parts = [
            toml_table(table, tables[table.name], f"{game.spec.title}: {table.name}. {_columns_note(table)}") for table in dataset.tables
        ]
        if parameters:
            parts.insert(0, f"[{PARAMETERS}]\n" + "".join(f"{name} = {_toml_value(value)}\n" for name, value in parameters.items()) + "\n")
        file.write_text("\n".join(parts), encoding="utf-8")
    return [file]


def check_data(game: Game[Any], path: str | Path) -> dict[str, Any]:
    """Validate a designer's data completely (every field, then every rule of the data, by starting a game with it).

    Returns what was read: per table its record count and whether it came from ``path`` or the bundled data, and the
    rule parameters it sets. Raises :class:`~greenlight.core.errors.DataError` naming the file, row, card and column.
    """
    dataset = dataset_of(game)
    sources = dataset.locate(path)
    counts = {name: len(source.read()) for name, source in sources.items()}
    for players in game.spec.player_counts:
        game.new_state(players, 0, {dataset.option: str(path)})
    where, parameters = dataset.parameters(path)
    return {
        "tables": {
            name: {"records": counts[name], "from": "bundled" if source.bundled else source.label} for name, source in sources.items()
        },
        "parameters": parameters,
        "parameters_from": where,
    }


def import_data(game: Game[Any], source: str | Path, out: str | Path, fmt: str | None = None) -> list[Path]:
    """Check a designer's data (any readable form) and write it in the game's own format (``toml``, or ``json``) to ``out``."""
    check_data(game, source)
    dataset = dataset_of(game)
    native = fmt or ("json" if dataset.bundled.suffix == ".json" else "toml")
    if native not in ("toml", "json"):
        raise OptionError("import writes the game's own format: toml or json")
    tables = {name: records for name, records in dataset.read(source).items()}
    if dataset.folder:
        custom = {name for name, item in dataset.locate(source).items() if not item.bundled}
        target = Path(out)
        if target.exists() and not target.is_dir():
            raise OptionError(f"{target} is a file; {game.spec.title}'s data is a folder")
        written = write_native(game, {name: tables[name] for name in tables}, native, target, dataset.parameters(source)[1])
        # Only the tables the designer gave are written: the others stay the bundled ones.
        for file in written:
            if file.stem != PARAMETERS and file.stem not in custom:
                file.unlink()
        return [file for file in written if file.exists()]
    return write_native(game, tables, native, Path(out), dataset.parameters(source)[1])


def copy_data(source: str | Path, target: str | Path) -> Path:
    """Copy a data file or folder (a sweep's starting point)."""
    origin, destination = Path(source), Path(target)
    if origin.is_dir():
        shutil.copytree(origin, destination, dirs_exist_ok=True)
    else:
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, destination)
    return destination


def field_spec(dataset: DataSet, table: str, name: str) -> FieldSpec:
    """A field of a table, or an OptionError naming the fields there are."""
    try:
        return dataset.table(table).field(name)
    except KeyError as error:
        raise OptionError(str(error.args[0])) from None
