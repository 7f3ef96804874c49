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
