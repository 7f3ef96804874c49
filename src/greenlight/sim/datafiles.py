"""A game's custom data files (its ``path`` options): which options they are, their digest, shipping their contents.

A designer points a ``path`` option (``data`` in every built-in game: Cinecitta
1937's card file, Maybe Movies' deck file, Movie Empire's folder) at a file or a folder. A study records
the **digest** of the contents, not only the path, so editing a card file
in place and rerunning into the same folder is noticed. The Ray backend
ships the **contents** to the workers, which may be other machines.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "cards.toml").write_text("x = 1\\n")
>>> digest(folder / "cards.toml") == digest(folder / "cards.toml"), len(digest(folder / "cards.toml"))
(True, 64)
>>> restored = materialize(pack(folder / "cards.toml"), pathlib.Path(tempfile.mkdtemp()))
>>> restored.name, restored.read_text()
('cards.toml', 'x = 1\\n')
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.game import Game
from greenlight.core.spec import OptionValue

#: What :func:`pack` returns: the base name, whether it is a folder, and every file's bytes by relative path.
Packed = tuple[str, bool, dict[str, bytes]]


def path_options(game: Game[Any]) -> list[str]:
    """Names of the game's ``path`` options (data-file overrides), in declaration order."""
    return [spec.name for spec in game.spec.options if spec.kind == "path"]


def card_option(game: Game[Any]) -> str:
    """The option ``--cards`` sets: the game's first ``path`` option."""
    names = path_options(game)
    if not names:
        raise OptionError(f"{game.spec.title} has no data-file option, so --cards cannot be used")
    return names[0]


def _files(path: Path) -> list[tuple[str, Path]]:
    if path.is_dir():
        return sorted((str(file.relative_to(path)), file) for file in path.rglob("*") if file.is_file())
    return [(path.name, path)]


def digest(path: str | Path) -> str:
    """SHA-256 over the file (or every file of the folder, with its relative name)."""
    source = Path(path)
    if not source.exists():
        raise OptionError(f"data path {source} does not exist")
    sha = hashlib.sha256()
    for name, file in _files(source):
        sha.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    return sha.hexdigest()


def data_digests(game: Game[Any], options: Mapping[str, OptionValue]) -> dict[str, str]:
    """``{option: digest}`` for every ``path`` option that is set."""
    return {name: digest(str(options[name])) for name in path_options(game) if options.get(name)}


def pack(path: str | Path) -> Packed:
    """The contents of a data file or folder, to send to another machine."""
    source = Path(path)
    return source.name, source.is_dir(), {name: file.read_bytes() for name, file in _files(source)}


def materialize(packed: Packed, root: Path) -> Path:
    """Write packed contents under ``root`` (a folder named after their digest, reused when present); return the path."""
    name, is_dir, files = packed
    sha = hashlib.sha256()
    for relative in sorted(files):
        sha.update(relative.encode() + b"\0" + files[relative] + b"\0")
    base = root / sha.hexdigest()
    target = base / name
    if not base.exists():
        staging = root / f".{sha.hexdigest()}.{os.getpid()}"
        for relative, content in files.items():
            file = (staging / name / relative) if is_dir else (staging / name)
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(content)
        try:
            staging.rename(base)
        except OSError:  # another worker on this machine got there first with the same contents
            shutil.rmtree(staging, ignore_errors=True)
    return target


# -- what a study's data were, and what changed between two studies --------------------------------------------


def data_snapshot(game: Game[Any], num_players: int, options: Mapping[str, OptionValue]) -> dict[str, Any]:
    """The data a study plays with, kept beside its results (``data.json``) so a comparison can say what changed.

    ``tables``: every table's validated records (None for a game that makes its
    own cards from each seed, such as a generated catalogue); ``custom``: the tables
    read from the designer's data path; ``titles``: every component's name for
    people by its code (the game's own words), so reports name cards by title.
    """
    dataset = game.data
    path = options.get(dataset.option) if dataset is not None else None
    tables: dict[str, list[dict[str, Any]]] | None = None
    custom: list[str] = []
    if dataset is not None and (path or dataset.bundled_is_default):
        sources = dataset.locate(str(path) if path else None)
        tables = {name: source.read() for name, source in sources.items()}
        custom = [name for name, source in sources.items() if not source.bundled]
    state = game.new_state(num_players, 0, options)
    titles = {component.id: component.name for component in game.components(state)}
    return {"tables": tables, "custom": custom, "titles": titles}


@dataclass(frozen=True, slots=True)
class DataChange:
    """One difference between two studies' data: a field of a card, or a card only one of them has."""

    table: str
    card: str
    title: str
    #: The card type the statistics give the card (None when it is not a card they count).
    kind: str | None
    field: str | None
    before: Any
    after: Any

    def words(self) -> str:
        """The change in words: ``Benny Crumb (stars): cost 2 -> 1``."""
        where = f"{self.title} ({self.card}, {self.table})" if self.title != self.card else f"{self.card} ({self.table})"
        if self.field is None:
            return f"{where}: {'added' if self.before is None else 'removed'}"
        return f"{where}: {self.field} {_value_words(self.before)} -> {_value_words(self.after)}"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "table": self.table,
            "card": self.card,
            "title": self.title,
            "type": self.kind,
            "field": self.field,
            "before": self.before,
            "after": self.after,
            "words": self.words(),
        }


def _value_words(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "empty" if value is None else str(value)


def data_changes(game: Game[Any], before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[DataChange]:
    """Every field that differs between two snapshots (:func:`data_snapshot`), card by card, in table order."""
    dataset = game.data
    tables_a = (before or {}).get("tables") or {}
    tables_b = (after or {}).get("tables") or {}
    titles = {**(after or {}).get("titles", {}), **(before or {}).get("titles", {})}  # a card keeps its name before the change
    changes: list[DataChange] = []
    for name in dict.fromkeys([*tables_a, *tables_b]):
        table = dataset.table(name) if dataset is not None and name in dataset.names() else None
        id_field = table.id_field if table is not None else "id"
        rows_a = {str(row[id_field]): row for row in tables_a.get(name, [])}
        rows_b = {str(row[id_field]): row for row in tables_b.get(name, [])}
        for card in dict.fromkeys([*rows_a, *rows_b]):
            row_a, row_b = rows_a.get(card), rows_b.get(card)
            record = row_b if row_b is not None else row_a
            assert record is not None
            kind = table.type_of(record) if table is not None else None
            title = titles.get(card, card)
            if row_a is None or row_b is None:
                changes.append(DataChange(name, card, title, kind, None, row_a and card, row_b and card))
                continue
            for field_name in dict.fromkeys([*row_a, *row_b]):
                if row_a.get(field_name) != row_b.get(field_name):
                    changes.append(DataChange(name, card, title, kind, field_name, row_a.get(field_name), row_b.get(field_name)))
    return changes
