"""The terminal at the table: line editing, history and completion, hand-overs, autosaves.

A person types at a prompt with GNU readline when it is there (arrow keys,
history across games, Tab completing the legal actions and commands), so a
long action like ``place C3 S9:D5`` is a few keystrokes. Hot-seat hand-overs
clear the screen and the terminal's scrollback, so the next player cannot
scroll back to the previous hand. Games are saved after every move to a
save folder (:func:`save_folder`) unless ``--record`` names a file.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from greenlight.core.errors import GreenlightError
from greenlight.core.record import Record

#: Clear the screen, the scrollback, and go home (xterm and compatible terminals).
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"
HISTORY_LENGTH = 1000

try:  # GNU readline: absent on some platforms, where plain input() is used
    import readline
except ImportError:  # pragma: no cover - depends on the platform
    readline = None  # type: ignore[assignment]


def data_home() -> Path:
    """Where Greenlight keeps a person's files.

    ``$GREENLIGHT_HOME``, else ``$XDG_DATA_HOME/greenlight``, else ``~/.local/share/greenlight``.
    """
    if os.environ.get("GREENLIGHT_HOME"):
        return Path(os.environ["GREENLIGHT_HOME"])
    base = Path(os.environ["XDG_DATA_HOME"]) if os.environ.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / "greenlight"


def save_folder() -> Path:
    """The folder every terminal game is saved to (without ``--record``)."""
    return data_home() / "saves"


def new_save_path(game_id: str) -> Path:
    """A fresh save file for a game starting now."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = save_folder() / f"{game_id}-{stamp}.json"
    number = 2
    while path.exists():
        path = save_folder() / f"{game_id}-{stamp}-{number}.json"
        number += 1
    return path


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A save file found in the save folder."""

    path: Path
    record: Record
    modified: float
    finished: bool


def latest_save(game_id: str | None, is_finished: Callable[[Record], bool]) -> SavedGame | None:
    """The most recently saved unfinished game (of ``game_id`` if given), or None."""
    folder = save_folder()
    if not folder.is_dir():
        return None
    candidates = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime, reverse=True)
    for path in candidates:
        try:
            record = Record.load(path)
        except GreenlightError:
            continue
        if game_id is not None and record.game != game_id:
            continue
        try:
            finished = is_finished(record)
        except GreenlightError:
            continue
        if not finished:
            return SavedGame(path, record, path.stat().st_mtime, finished)
    return None


def age_in_words(seconds: float) -> str:
    """``just now``, ``5 minutes ago``, ``3 hours ago``, ``2 days ago``.

    >>> age_in_words(30), age_in_words(300), age_in_words(7200), age_in_words(200000)
    ('just now', '5 minutes ago', '2 hours ago', '2 days ago')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


class Prompt:
    """Reads a person's answers: readline editing, history and Tab completion where available."""

    def __init__(self, history: Path | None = None) -> None:
        self.words: list[str] = []
        self.interactive = sys.stdin.isatty()
        self.history = history
        if readline is not None and self.interactive:
            readline.set_completer(self._complete)
            readline.set_completer_delims("")  # complete the whole line: actions have spaces in them
            readline.parse_and_bind("tab: complete")
            readline.set_history_length(HISTORY_LENGTH)
            if history is not None and history.is_file():
                with contextlib.suppress(OSError):
                    readline.read_history_file(str(history))

    def offer(self, words: Sequence[str]) -> None:
        """What Tab completes now: the legal actions' texts and the commands."""
        self.words = list(dict.fromkeys(words))

    def ask(self, prompt: str) -> str:
        """One line from the person (EOFError at the end of input)."""
        answer = input(prompt)
        if readline is not None and self.interactive and self.history is not None:
            with contextlib.suppress(OSError):
                self.history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(str(self.history))
        return answer

    def _complete(self, text: str, state: int) -> str | None:
        matches = [word for word in self.words if word.startswith(text)]
        return matches[state] if state < len(matches) else None


def completions(words: Sequence[str], text: str) -> list[str]:
    """What Tab would offer for ``text`` among ``words`` (the completion rule, testable without a terminal).

    >>> completions(["offer D6 30", "offer D6 40", "respond secure"], "offer D6 3")
    ['offer D6 30']
    """
    return [word for word in dict.fromkeys(words) if word.startswith(text)]


def clear_screen_and_scrollback() -> None:
    """Wipe what the previous player saw, scrollback included."""
    sys.stdout.write(CLEAR_ALL)
    sys.stdout.flush()


def write_json_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a crash mid-write never leaves half a save."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def save_record(record: Record, path: Path) -> None:
    """Save a game record (after every move)."""
    write_json_atomically(path, json.dumps(record.to_json(), indent=1) + "\n")
