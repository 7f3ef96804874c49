"""Loading and validating data files: TOML or JSON, and spreadsheets (CSV, XLSX).

Every game keeps its cards and board in data files. A broken file raises
:class:`DataError` naming the file, the card and the field (and for a
spreadsheet the row and the column).

A game declares its data as a :class:`DataSet` of :class:`DataTable`\\ s (the
stars, the board spaces, ...). A designer's data path is then one of:

* **one file** holding every table under its key (TOML ``[[card]]`` lists, or
  JSON), or a CSV file when the game has a single table;
* **a workbook** (``.xlsx``) with one sheet per table, named like the table;
* **a folder** with one file per table (``stars.toml``, ``stars.csv``,
  ``stars.xlsx``, ...).

Every file of a folder and every sheet of a workbook must be one the game
reads: a misnamed ``star.toml`` stops with an error naming it and the names
the game reads, instead of being silently ignored. A folder data set
(``DataSet.folder``) takes a table it does not hold from the bundled data;
any other data set needs every table.
"""

from __future__ import annotations

import csv
import difflib
import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenlight.core.errors import DataError


def load_data_file(path: str | Path) -> dict[str, Any]:
    """Read a ``.toml`` or ``.json`` file into a dict; a syntax error names the file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(str(file), None, None, f"cannot read the file ({error.strerror})") from None
    try:
        data = json.loads(text) if file.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise DataError(str(file), None, None, f"not valid {file.suffix.lstrip('.').upper() or 'TOML'}: {error}") from None
    if not isinstance(data, dict):
        raise DataError(str(file), None, None, "the top level must be a table/object")
    return data


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """How one field of a data record must look.

    ``kind`` is one of ``int``, ``str``, ``bool``, ``list[int]``, ``list[str]``.
    ``check`` may add a custom test returning an error text or None.
    """

    name: str
    kind: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    default: Any = None
    nullable: bool = False
    check: Callable[[Any], str | None] | None = None

    def validate(self, value: Any) -> str | None:
        """An error text for ``value``, or None if it is fine."""
        if value is None and self.nullable:
            return None
        kind_ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "str": isinstance(value, str),
            "bool": isinstance(value, bool),
            "list[int]": isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
            "list[str]": isinstance(value, list) and all(isinstance(v, str) for v in value),
        }.get(self.kind, False)
        if not kind_ok:
            return f"must be {_kind_words(self.kind)}, got {value!r}"
        items = value if isinstance(value, list) else [value]
        for item in items:
            if self.choices is not None and item not in self.choices:
                return f"must be one of {', '.join(str(c) for c in self.choices)}, got {item!r}"
            if self.minimum is not None and isinstance(item, int) and item < self.minimum:
                return f"must be at least {self.minimum}, got {item}"
            if self.maximum is not None and isinstance(item, int) and item > self.maximum:
                return f"must be at most {self.maximum}, got {item}"
        return self.check(value) if self.check else None

    def from_cell(self, cell: Any) -> Any:
        """The value of a spreadsheet cell (text from CSV, or a typed XLSX cell) as this field's kind.

        Returns :data:`ABSENT` for an empty cell of a scalar field (the field then takes its default, or is
        missing); an empty list field is an empty list. Raises ValueError with the problem in words.

        >>> FieldSpec("n", "int").from_cell(" 3 "), FieldSpec("n", "int").from_cell(4.0), FieldSpec("ok", "bool").from_cell("Yes")
        (3, 4, True)
        >>> at = FieldSpec("at", "list[int]")
        >>> FieldSpec("tags", "list[str]").from_cell("D, A"), at.from_cell("3;4"), at.from_cell("")
        (['D', 'A'], [3, 4], [])
        >>> FieldSpec("n", "int").from_cell("two")
        Traceback (most recent call last):
        ...
        ValueError: must be a whole number, got 'two'
        """
        if isinstance(cell, str):
            cell = cell.strip()
        empty = cell is None or cell == ""
        if self.kind.startswith("list["):
            if empty:
                return []
            parts = [part.strip() for part in str(_plain_number(cell)).replace(";", ",").split(",")]
            if self.kind == "list[int]":
                return [_whole_number(part) for part in parts if part]
            return [part for part in parts if part]
        if empty:
            return ABSENT
        if self.kind == "int":
            return _whole_number(cell)
        if self.kind == "bool":
            if isinstance(cell, bool):
                return cell
            word = str(_plain_number(cell)).lower()
            if word in _TRUE_WORDS:
                return True
            if word in _FALSE_WORDS:
                return False
            raise ValueError(f"must be true or false, got {cell!r}")
        return str(_plain_number(cell))

    def to_cell(self, value: Any) -> str | int | bool | None:
        """This field's value as a spreadsheet cell (lists as ``a, b``; None as an empty cell).

        >>> FieldSpec("at", "list[int]").to_cell([3, 4]), FieldSpec("x", "str", nullable=True).to_cell(None)
        ('3, 4', None)
        """
        if isinstance(value, list):
            return ", ".join(str(item) for item in value)
        return value  # type: ignore[no-any-return]

    def describe(self) -> str:
        """What the field holds, in words (for templates and help).

        >>> FieldSpec("cost", "int", minimum=0).describe(), FieldSpec("genre", "str", choices=("A", "C")).describe()
        ('a whole number, at least 0', 'a text, one of A, C')
        """
        words = [_kind_words(self.kind)]
        if self.choices is not None:
            words.append("one of " + ", ".join(str(choice) for choice in self.choices))
        if self.minimum is not None:
            words.append(f"at least {self.minimum}")
        if self.maximum is not None:
            words.append(f"at most {self.maximum}")
        if not self.required:
            words.append("may be left empty")
        return ", ".join(words)


#: What :meth:`FieldSpec.from_cell` returns for an empty cell: the field is absent from the record.
ABSENT: Any = object()
_TRUE_WORDS = frozenset({"true", "yes", "y", "1", "x"})
_FALSE_WORDS = frozenset({"false", "no", "n", "0"})


def _plain_number(cell: Any) -> Any:
    """A spreadsheet number as the text a person typed: 3.0 is 3 (spreadsheets store every number as a float)."""
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    return cell


def _whole_number(cell: Any) -> int:
    if isinstance(cell, bool):
        raise ValueError(f"must be a whole number, got {cell!r}")
    if isinstance(cell, int):
        return cell
    if isinstance(cell, float):
        if cell.is_integer():
            return int(cell)
        raise ValueError(f"must be a whole number, got {cell!r}")
    text = str(cell).strip()
    try:
        return int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"must be a whole number, got {text!r}") from None
        if number.is_integer():
            return int(number)
        raise ValueError(f"must be a whole number, got {text!r}") from None


def _kind_words(kind: str) -> str:
    return {
        "int": "a whole number",
        "str": "a text",
        "bool": "true or false",
        "list[int]": "a list of whole numbers",
        "list[str]": "a list of texts",
    }.get(kind, kind)


def read_records(
    file: str,
    rows: Any,
    fields: Sequence[FieldSpec],
    *,
    id_field: str = "id",
    what: str = "card",
    rows_at: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """Validate a list of records; return them with defaults filled in.

    Unknown fields, missing fields, wrong types and duplicate ids raise
    DataError naming the file, the record id and the field. ``rows_at`` gives
    each record's row in a spreadsheet, so the error names the row (and the
    column) too.

    >>> read_records("x.toml", [{"id": "A", "n": 1}], [FieldSpec("id", "str"), FieldSpec("n", "int", minimum=0)])
    [{'id': 'A', 'n': 1}]
    >>> read_records("x.toml", [{"id": "A", "n": -1}], [FieldSpec("id", "str"), FieldSpec("n", "int", minimum=0)])
    Traceback (most recent call last):
    ...
    greenlight.core.errors.DataError: x.toml: card A, field n: must be at least 0, got -1
    """
    if not isinstance(rows, list) or not rows:
        raise DataError(file, None, None, f"expected a non-empty list of {what}s")
    known = {spec.name for spec in fields}
    noun = "column" if rows_at is not None else "field"
    seen: set[Any] = set()
    result: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        at = rows_at[index] if rows_at is not None else None
        if not isinstance(row, Mapping):
            raise DataError(file, f"#{index + 1}", None, f"each {what} must be a table/object", row=at)
        label = str(row.get(id_field, f"#{index + 1}"))
        for name in row:
            if name not in known:
                raise DataError(file, label, str(name), f"unknown {noun} (known {noun}s: {', '.join(sorted(known))})", row=at)
        record: dict[str, Any] = {}
        for spec in fields:
            if spec.name not in row:
                if spec.required:
                    raise DataError(file, label, spec.name, "is missing", row=at)
                record[spec.name] = spec.default
                continue
            problem = spec.validate(row[spec.name])
            if problem:
                raise DataError(file, label, spec.name, problem, row=at)
            record[spec.name] = row[spec.name]
        if record[id_field] in seen:
            raise DataError(file, label, id_field, f"duplicate {id_field}; every {what} needs its own", row=at)
        seen.add(record[id_field])
        result.append(record)
    return result


def require(condition: bool, file: str, card: str | None, field: str | None, problem: str) -> None:
    """Raise DataError(file, card, field, problem) unless ``condition`` holds."""
    if not condition:
        raise DataError(file, card, field, problem)


def bundled_path(package_file: str, *parts: str) -> Path:
    """Path of a data file shipped next to a module (``bundled_path(__file__, "data", "cards.toml")``)."""
    return Path(package_file).resolve().parent.joinpath(*parts)


# -- a game's data: tables, where each is read from, spreadsheets ---------------------------------

#: Suffixes a data file may have.
TABLE_SUFFIXES = (".toml", ".json", ".csv", ".xlsx")
#: The name of the rule parameters' table in a data folder, a workbook or a whole-data file (see :meth:`DataSet.parameters`).
PARAMETERS = "parameters"
#: Sheets of a workbook that are notes for people, never read.
NOTE_SHEETS = frozenset({"README", "read me", "Fields"})


@dataclass(frozen=True, slots=True)
class DataTable:
    """One table of a game's data: a list of records of one kind (the stars, the board spaces, the sympathy levels).

    ``name`` is the file name without suffix in a folder and the sheet name in a
    workbook; ``key`` the list's name inside a TOML or JSON file (``[[card]]``).
    """

    name: str
    key: str
    fields: tuple[FieldSpec, ...]
    id_field: str = "id"
    what: str = "card"
    #: The card type the game's statistics give these records (None: not cards the statistics count) ...
    card_type: str | None = None
    #: ... or the field holding each record's type (an occupation).
    type_field: str | None = None
    #: The numeric field a balance sweep tries first (a cost), if any.
    tune: str | None = None

    def type_of(self, record: Mapping[str, Any]) -> str | None:
        """The card type the game's statistics give this record (see :attr:`card_type`).

        >>> DataTable("cards", "card", (), type_field="occupation").type_of({"occupation": "Director"})
        'Director'
        """
        if self.type_field is not None:
            return str(record[self.type_field])
        return self.card_type

    def field(self, name: str) -> FieldSpec:
        """The field called ``name``; a KeyError names the fields there are."""
        for spec in self.fields:
            if spec.name == name:
                return spec
        raise KeyError(f"{self.name} has no field {name!r} (fields: {', '.join(spec.name for spec in self.fields)})")


@dataclass(frozen=True, slots=True)
class TableSource:
    """Where one table's records are read from: a file (and the list or sheet in it), or the bundled data."""

    table: DataTable
    path: Path
    #: The list key inside a TOML/JSON file, or the sheet of a workbook; None: the whole file is this table (CSV).
    part: str | None
    bundled: bool = False

    @property
    def label(self) -> str:
        """How errors name the source: the file, and the sheet of a workbook."""
        if self.path.suffix == ".xlsx" and self.part is not None:
            return f"{self.path} (sheet {self.part})"
        return str(self.path)

    def rows(self) -> tuple[Any, list[int] | None]:
        """The raw records (before validation), and each one's row number for a spreadsheet (None otherwise)."""
        suffix = self.path.suffix
        if suffix == ".csv":
            return _spreadsheet_records(self.label, self.table, _csv_rows(self.path))
        if suffix == ".xlsx":
            return _spreadsheet_records(self.label, self.table, _sheet_rows(self.path, self.part))
        data = load_data_file(self.path)
        return data.get(self.part or self.table.key), None

    def read(self) -> list[dict[str, Any]]:
        """The validated records (:func:`read_records`), errors naming the file, card and field (and row and column)."""
        rows, rows_at = self.rows()
        table = self.table
        return read_records(self.label, rows, table.fields, id_field=table.id_field, what=table.what, rows_at=rows_at)


@dataclass(frozen=True, slots=True)
class DataSet:
    """A game's data: its tables, the bundled files, and how a designer's data path is read (see the module docstring)."""

    #: The game's title, for messages.
    game: str
    tables: tuple[DataTable, ...]
    #: The bundled data: a folder (one file per table) or one file holding every table.
    bundled: Path
    #: True: the designer's data may leave tables out (they come from the bundled data); False: it holds every table.
    folder: bool
    #: The name of the game's option that names the data path.
    option: str = "data"
    #: Whether a game without a data path plays the bundled data (False: it makes its own, the bundled file is an example).
    bundled_is_default: bool = True

    def table(self, name: str) -> DataTable:
        """The table called ``name``."""
        for table in self.tables:
            if table.name == name:
                return table
        raise KeyError(f"{self.game} has no data table {name!r} (tables: {', '.join(self.names())})")

    def names(self) -> list[str]:
        """The tables' names, in declaration order."""
        return [table.name for table in self.tables]

    def locate(self, path: str | Path | None) -> dict[str, TableSource]:
        """Where every table is read from for the data path ``path`` (None: the bundled data).

        A file or sheet the game does not read, two files for one table, or a
        table missing from a data set that needs every table raises
        :class:`DataError` naming it and the names the game reads.
        """
        if path is None:
            return self._sources(self.bundled, bundled=True)
        source = Path(path)
        if not source.exists():
            raise DataError(str(source), None, None, "cannot read the file (no such file or folder)")
        found = self._sources(source, bundled=False)
        missing = [name for name in self.names() if name not in found]
        if missing and not self.folder:
            raise DataError(str(source), None, None, f"{self.game} needs {_quoted(missing)} there too; it reads {self._expected()}")
        if missing:
            fallback = self._sources(self.bundled, bundled=True)
            found.update({name: fallback[name] for name in missing})
        return {name: found[name] for name in self.names()}

    def fingerprint(self, path: str | Path) -> tuple[tuple[str, int, int], ...]:
        """Names, sizes and modification times of the files at ``path``: a loader caches on it, so an edited file is read again."""
        source = Path(path)
        try:
            files = _folder_files(source) if source.is_dir() else [source]
            return tuple((file.name, (stat := file.stat()).st_size, stat.st_mtime_ns) for file in files)
        except OSError:
            return ()

    def read(self, path: str | Path | None) -> dict[str, list[dict[str, Any]]]:
        """Every table's validated records for the data path ``path`` (None: the bundled data)."""
        return {name: source.read() for name, source in self.locate(path).items()}

    def parameters(self, path: str | Path | None) -> tuple[str, dict[str, Any]]:
        """The rule parameters a data path sets (its ``parameters`` table), and where they were read (for errors).

        In a folder: ``parameters.toml`` (or ``.json``: ``name = value`` lines at
        the top level), ``parameters.csv`` or a one-sheet ``parameters.xlsx`` (columns
        ``name`` and ``value``); in a workbook: a ``parameters`` sheet; in a TOML or
        JSON file: a ``[parameters]`` table.
        """
        if path is None:
            return "", {}
        return _parameters_cached(self, str(path), self.fingerprint(path))

    def _read_parameters(self, path: str) -> tuple[str, dict[str, Any]]:
        source = Path(path)
        if not source.exists():
            return "", {}
        if source.is_dir():
            files = [file for file in _folder_files(source) if file.stem == PARAMETERS]
            if not files:
                return "", {}
            file = files[0]
            if file.suffix in (".toml", ".json"):
                data = load_data_file(file)
                values = data.get(PARAMETERS, data) if set(data) == {PARAMETERS} else data
                return str(file), _parameter_table(str(file), values)
            rows = _csv_rows(file) if file.suffix == ".csv" else _sheet_rows(file, None)
            return str(file), _parameter_rows(str(file), rows)
        if source.suffix == ".xlsx":
            if PARAMETERS not in _sheet_names(source):
                return "", {}
            label = f"{source} (sheet {PARAMETERS})"
            return label, _parameter_rows(label, _sheet_rows(source, PARAMETERS))
        if source.suffix in (".toml", ".json"):
            data = load_data_file(source)
            return str(source), _parameter_table(str(source), data.get(PARAMETERS, {}))
        return "", {}

    def _expected(self) -> str:
        names = self.names()
        files = "the files " + ", ".join(f"{name}.toml" for name in names) + " (or .json, .csv, .xlsx)"
        return f"{files}, and {PARAMETERS}.toml for rule parameters" if self.folder or len(names) > 1 else files

    def _unknown(self, where: str, name: str, what: str) -> DataError:
        known = [*self.names(), PARAMETERS]
        stem, dot, suffix = name.partition(".")
        close = difflib.get_close_matches(stem, known, n=1)
        hint = f" (did you mean {close[0]}{dot}{suffix}?)" if close else ""
        return DataError(where, None, None, f"{self.game} reads no {what} called {name}{hint}; it reads {self._expected()}")

    def _sources(self, source: Path, bundled: bool) -> dict[str, TableSource]:
        names = set(self.names())
        if source.is_dir():
            found: dict[str, TableSource] = {}
            parameters = False
            for file in _folder_files(source):
                if file.is_dir():
                    raise DataError(str(file), None, None, f"a data folder holds only the files {self.game} reads, not folders")
                stem, suffix = file.stem, file.suffix
                if suffix not in TABLE_SUFFIXES or (stem not in names and stem != PARAMETERS):
                    raise self._unknown(str(source), file.name, "file")
                if stem == PARAMETERS:
                    parameters = True
                    continue
                if stem in found:
                    raise DataError(str(source), None, None, f"both {found[stem].path.name} and {file.name} hold {stem}; keep one")
                table = self.table(stem)
                part = None if suffix == ".csv" else table.key if suffix in (".toml", ".json") else _only_sheet(file, table)
                found[stem] = TableSource(table, file, part, bundled)
            if not found and not parameters and not bundled:
                raise DataError(
                    str(source), None, None, f"the folder holds none of the files {self.game} reads; it reads {self._expected()}"
                )
            return found
        suffix = source.suffix
        if suffix == ".xlsx":
            found = {}
            for sheet in _sheet_names(source):
                if sheet in NOTE_SHEETS or sheet == PARAMETERS:
                    continue
                if sheet not in names:
                    if len(self.tables) == 1 and len(_data_sheets(source)) == 1:
                        found[self.tables[0].name] = TableSource(self.tables[0], source, sheet, bundled)
                        continue
                    raise self._unknown(str(source), sheet, "sheet")
                found[sheet] = TableSource(self.table(sheet), source, sheet, bundled)
            return found
        if suffix == ".csv":
            if len(self.tables) != 1:
                raise DataError(
                    str(source),
                    None,
                    None,
                    f"{self.game} has several tables; give a folder of CSV files or a workbook ({self._expected()})",
                )
            return {self.tables[0].name: TableSource(self.tables[0], source, None, bundled)}
        if suffix in (".toml", ".json"):
            if self.folder and len(self.tables) > 1:
                raise DataError(str(source), None, None, f"{self.game}'s data is a folder (or a workbook); it reads {self._expected()}")
            data = load_data_file(source)
            keys = {table.key: table for table in self.tables}
            for key in data:
                if key not in keys and key != PARAMETERS:
                    expected = ", ".join([*keys, PARAMETERS])
                    raise DataError(str(source), None, str(key), f"{self.game} reads no list called {key} (it reads {expected})")
            return {table.name: TableSource(table, source, table.key, bundled) for table in self.tables if table.key in data or bundled}
        raise DataError(str(source), None, None, f"a data file is .toml, .json, .csv or .xlsx, not {suffix or 'a file without suffix'}")


_PARAMETERS_READ: dict[tuple[str, str, tuple[tuple[str, int, int], ...]], tuple[str, dict[str, Any]]] = {}


def _parameters_cached(dataset: DataSet, path: str, fingerprint: tuple[tuple[str, int, int], ...]) -> tuple[str, dict[str, Any]]:
    """:meth:`DataSet.parameters`, read again only when a file changed (every game start asks)."""
    key = (dataset.game, path, fingerprint)
    found = _PARAMETERS_READ.get(key)
    if found is None:
        if len(_PARAMETERS_READ) > 256:
            _PARAMETERS_READ.clear()
        found = _PARAMETERS_READ[key] = dataset._read_parameters(path)
    return found[0], dict(found[1])


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(names)


def _folder_files(folder: Path) -> list[Path]:
    """The files of a data folder a person put there (hidden files and spreadsheet lock files are not)."""
    return sorted(file for file in folder.iterdir() if not file.name.startswith((".", "~$")))


def _csv_rows(file: Path) -> list[tuple[int, list[Any]]]:
    try:
        with file.open(encoding="utf-8-sig", newline="") as handle:
            return [(number, row) for number, row in enumerate(csv.reader(handle), start=1)]
    except OSError as error:
        raise DataError(str(file), None, None, f"cannot read the file ({error.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise DataError(str(file), None, None, f"not a CSV file in UTF-8: {error}") from None


def _workbook(file: Path) -> Any:
    try:
        import openpyxl
    except ImportError:
        raise DataError(str(file), None, None, "reading .xlsx needs openpyxl: pip install 'greenlight-boardgames[sim]'") from None
    try:
        return openpyxl.load_workbook(file, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds (zip, XML, key errors) for a file that is not a workbook
        raise DataError(str(file), None, None, f"not an .xlsx workbook ({type(error).__name__}: {error})") from None


def _sheet_names(file: Path) -> list[str]:
    book = _workbook(file)
    try:
        return list(book.sheetnames)
    finally:
        book.close()


def _data_sheets(file: Path) -> list[str]:
    return [name for name in _sheet_names(file) if name not in NOTE_SHEETS and name != PARAMETERS]


def _only_sheet(file: Path, table: DataTable) -> str:
    """The sheet of a one-table workbook in a folder: the one named like the table, or its only data sheet."""
    sheets = _data_sheets(file)
    if table.name in sheets:
        return table.name
    if len(sheets) == 1:
        return sheets[0]
    raise DataError(str(file), None, None, f"the workbook has several sheets ({', '.join(sheets)}); name the one to read {table.name}")


def _sheet_rows(file: Path, sheet: str | None) -> list[tuple[int, list[Any]]]:
    book = _workbook(file)
    try:
        names = [name for name in book.sheetnames if name not in NOTE_SHEETS]
        name = sheet if sheet is not None else (names[0] if names else None)
        if name is None or name not in book.sheetnames:
            raise DataError(str(file), None, None, f"the workbook has no sheet {sheet}")
        return [(number, list(row)) for number, row in enumerate(book[name].iter_rows(values_only=True), start=1)]
    finally:
        book.close()


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _spreadsheet_records(label: str, table: DataTable, rows: list[tuple[int, list[Any]]]) -> tuple[list[dict[str, Any]], list[int]]:
    """A sheet's rows as records: the first non-empty row names the columns; empty rows are skipped; cells become field values."""
    body = [(number, row) for number, row in rows if not all(_blank(cell) for cell in row)]
    if not body:
        raise DataError(
            label, None, None, f"the sheet is empty; its first row names the columns ({', '.join(s.name for s in table.fields)})"
        )
    header_at, header = body[0]
    columns = [str(cell).strip() if not _blank(cell) else "" for cell in header]
    specs = {spec.name: spec for spec in table.fields}
    for position, name in enumerate(columns):
        if name and columns.index(name) != position:
            raise DataError(label, None, name, "two columns have this name", row=header_at)
        if name and name not in specs:
            raise DataError(label, None, name, f"unknown column (known columns: {', '.join(sorted(specs))})", row=header_at)
    records: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, row in body[1:]:
        record: dict[str, Any] = {}
        label_cell = row[columns.index(table.id_field)] if table.id_field in columns and columns.index(table.id_field) < len(row) else None
        card = str(_plain_number(label_cell)).strip() if not _blank(label_cell) else None
        for position, cell in enumerate(row):
            name = columns[position] if position < len(columns) else ""
            if not name:
                if not _blank(cell):
                    raise DataError(
                        label, card, None, f"a value in column {position + 1}, which has no name in row {header_at}", row=number
                    )
                continue
            try:
                value = specs[name].from_cell(cell)
            except ValueError as error:
                raise DataError(label, card, name, str(error), row=number) from None
            if value is not ABSENT:
                record[name] = value
        records.append(record)
        numbers.append(number)
    return records, numbers


def _parameter_table(label: str, values: Any) -> dict[str, Any]:
    if not isinstance(values, Mapping):
        raise DataError(label, None, PARAMETERS, "must be a table of name = value")
    return dict(values)


def _parameter_rows(label: str, rows: list[tuple[int, list[Any]]]) -> dict[str, Any]:
    body = [(number, row) for number, row in rows if not all(_blank(cell) for cell in row)]
    if not body:
        return {}
    header_at, header = body[0]
    columns = [str(cell).strip().lower() if not _blank(cell) else "" for cell in header]
    if "name" not in columns or "value" not in columns:
        raise DataError(label, None, None, "the first row names the columns name and value", row=header_at)
    name_at, value_at = columns.index("name"), columns.index("value")
    values: dict[str, Any] = {}
    for number, row in body[1:]:
        name = str(row[name_at]).strip() if name_at < len(row) and not _blank(row[name_at]) else ""
        value = row[value_at] if value_at < len(row) else None
        if not name:
            raise DataError(label, None, "name", "a parameter needs a name", row=number)
        if name in values:
            raise DataError(label, name, "name", "this parameter is given twice", row=number)
        values[name] = _plain_number(value.strip() if isinstance(value, str) else value)
    return values
