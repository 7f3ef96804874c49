"""Loading and validating data files (TOML or JSON).

Every game keeps its cards and board in data files. A broken file raises
:class:`DataError` naming the file, the card and the field.
"""

from __future__ import annotations

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
) -> list[dict[str, Any]]:
    """Validate a list of records; return them with defaults filled in.

    Unknown fields, missing fields, wrong types and duplicate ids raise
    DataError naming the file, the record id and the field.

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
    seen: set[Any] = set()
    result: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise DataError(file, f"#{index + 1}", None, f"each {what} must be a table/object")
        label = str(row.get(id_field, f"#{index + 1}"))
        for name in row:
            if name not in known:
                raise DataError(file, label, str(name), f"unknown field (known fields: {', '.join(sorted(known))})")
        record: dict[str, Any] = {}
        for spec in fields:
            if spec.name not in row:
                if spec.required:
                    raise DataError(file, label, spec.name, "is missing")
                record[spec.name] = spec.default
                continue
            problem = spec.validate(row[spec.name])
            if problem:
                raise DataError(file, label, spec.name, problem)
            record[spec.name] = row[spec.name]
        if record[id_field] in seen:
            raise DataError(file, label, id_field, f"duplicate {id_field}; every {what} needs its own")
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
