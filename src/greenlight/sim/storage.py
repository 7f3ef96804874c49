"""Flat tables on disk: Parquet through pyarrow, or CSV (with a small typed schema beside it) when pyarrow is absent.

A table is a list of flat records (``{column: value}``, values bool, int,
float, str or None). Columns are the union of the records' keys in the order
first seen; a record without a column gets an empty cell. Each column has
one kind (``bool`` < ``int`` < ``float`` are promoted to the widest seen;
text never mixes with numbers), so reading a table back gives the same
values it was written with. Files are written under a temporary name and
renamed into place, so a file that exists is complete.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> rows = [{"a": 1, "b": "x"}, {"a": 2.5, "c": None}]
>>> written = write_table(folder / "t", rows, "csv")
>>> written.name, read_table(written)
('t.csv', [{'a': 1.0, 'b': 'x', 'c': None}, {'a': 2.5, 'b': None, 'c': None}])
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from greenlight.sim.rows import Cell

PARQUET = "parquet"
CSV = "csv"
FORMATS = (PARQUET, CSV)
_KIND_ORDER = {"null": 0, "bool": 1, "int": 2, "float": 3}


def default_format() -> str:
    """``parquet`` when pyarrow is installed, else ``csv``."""
    return PARQUET if importlib.util.find_spec("pyarrow") is not None else CSV


_KIND_OF_TYPE: dict[type, str] = {type(None): "null", bool: "bool", int: "int", float: "float", str: "str"}


def _kind(value: Cell) -> str:
    exact = _KIND_OF_TYPE.get(type(value))
    if exact is not None:
        return exact  # every cell passes here: one dict lookup instead of an isinstance chain
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    raise TypeError(f"a table cell must be a bool, number, text or empty, got {value!r}")


def column_kinds(rows: Sequence[Mapping[str, Cell]]) -> dict[str, str]:
    """Every column (in first-seen order) with its kind: ``null``, ``bool``, ``int``, ``float`` or ``str``.

    >>> column_kinds([{"a": True, "b": None}, {"a": 3, "b": "x"}])
    {'a': 'int', 'b': 'str'}
    """
    kinds: dict[str, str] = {}
    for row in rows:
        for name, value in row.items():
            kind = _kind(value)
            seen = kinds.get(name)
            if seen is None:
                kinds[name] = kind
                continue
            if kind == "null" or kind == seen:
                continue
            if "str" in (kind, seen) and seen != "null":
                raise TypeError(f"column {name!r} mixes text and numbers ({seen} and {kind})")
            kinds[name] = kind if _KIND_ORDER.get(kind, 9) > _KIND_ORDER.get(seen, -1) else seen
    return kinds


def _convert(value: Cell, kind: str) -> Cell:
    if value is None:
        return None
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    return value


def write_table(path: Path, rows: Sequence[Mapping[str, Cell]], fmt: str) -> Path:
    """Write ``rows`` to ``path`` plus the format's suffix (column kinds taken from the rows); return the file written."""
    with TableWriter(path, fmt, column_kinds(rows)) as writer:
        writer.write(rows)
    return writer.target


class TableWriter:
    """Writes a table batch by batch (so a large table never has to be in memory at once) with fixed column kinds.

    The file appears under its final name only when the writer is closed
    without an error (use it as a context manager).
    """

    def __init__(self, path: Path, fmt: str, kinds: Mapping[str, str]) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown table format {fmt!r}; use one of {', '.join(FORMATS)}")
        self.fmt = fmt
        self.kinds = dict(kinds)
        self.target = path.with_name(f"{path.name}.{fmt}")
        self.temporary = path.with_name(f".{path.name}.{fmt}.tmp")
        self._parquet: Any = None
        self._csv: Any = None
        if fmt == PARQUET:
            import pyarrow as pa
            import pyarrow.parquet as pq

            types = {"null": pa.null(), "bool": pa.bool_(), "int": pa.int64(), "float": pa.float64(), "str": pa.string()}
            self._schema = pa.schema([(name, types[kind]) for name, kind in self.kinds.items()])
            self._parquet = pq.ParquetWriter(self.temporary, self._schema)
        else:
            self._handle = self.temporary.open("w", encoding="utf-8", newline="")
            self._csv = csv.writer(self._handle)
            self._csv.writerow(self.kinds)

    def copy(self, file: Path) -> None:
        """Append every row of a table file written with the same columns (Parquet is copied without Python rows)."""
        if self._parquet is not None and file.suffix == f".{PARQUET}":
            import pyarrow.parquet as pq

            table = pq.read_table(file)
            if table.num_rows:  # an empty chunk was written without columns
                self._parquet.write_table(table.select(list(self.kinds)).cast(self._schema))
        else:
            self.write(read_table(file))

    def write(self, rows: Sequence[Mapping[str, Cell]]) -> None:
        """Append rows (a column the kinds do not name is an error; a missing one is an empty cell)."""
        for row in rows:
            extra = set(row) - set(self.kinds)
            if extra:
                raise KeyError(f"columns {sorted(extra)} are not in this table")
        if self._parquet is not None:
            import pyarrow as pa

            columns = [
                pa.array([_convert(row.get(name), kind) for row in rows], type=self._schema.field(name).type)
                for name, kind in self.kinds.items()
            ]
            self._parquet.write_table(pa.Table.from_arrays(columns, schema=self._schema))
        else:
            for row in rows:
                self._csv.writerow(_csv_cell(_convert(row.get(name), kind)) for name, kind in self.kinds.items())

    def close(self, keep: bool = True) -> None:
        """Finish the file and move it into place (or delete it if ``keep`` is false)."""
        if self._parquet is not None:
            self._parquet.close()
        else:
            self._handle.close()
        if not keep:
            self.temporary.unlink(missing_ok=True)
            return
        if self.fmt == CSV:
            # The typed schema goes beside the final table first, so a table that exists always has its schema.
            schema = self.target.with_name(self.target.name + ".schema.json")
            schema_temporary = schema.with_name(f".{schema.name}.tmp")
            schema_temporary.write_text(json.dumps({"columns": self.kinds}), encoding="utf-8")
            os.replace(schema_temporary, schema)
        os.replace(self.temporary, self.target)

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self.close(keep=kind is None)


def _csv_cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # repr round-trips every float exactly
    return str(value)


def _from_csv(text: str, kind: str) -> Cell:
    if text == "":
        return None
    if kind == "bool":
        return text == "true"
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    return text


def read_table(file: Path) -> list[dict[str, Any]]:
    """Read a table written by :func:`write_table` (the format is taken from the suffix)."""
    if file.suffix == f".{PARQUET}":
        import pyarrow.parquet as pq

        rows: list[dict[str, Any]] = pq.read_table(file).to_pylist()
        return rows
    kinds: dict[str, str] = json.loads(file.with_name(file.name + ".schema.json").read_text(encoding="utf-8"))["columns"]
    with file.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, [])
        return [{name: _from_csv(text, kinds[name]) for name, text in zip(header, record, strict=True)} for record in reader]


def find_table(path: Path) -> Path | None:
    """The table file written for ``path`` (any format), or None."""
    for fmt in FORMATS:
        file = path.with_name(f"{path.name}.{fmt}")
        if file.exists():
            return file
    return None
