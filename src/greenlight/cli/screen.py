"""One screen at a time in the terminal: a turn (the table, the question, the choices) fits the window it is played in.

A person reads the table and answers at the prompt without scrolling back: when the table and the choices are
taller than the window, the middle of the table is left out (its head, the general state, and its tail, the seat's
own cards, stay), with a line saying how to read all of it (``board``, shown through a pager when it is taller than
the window), and a long list of choices is folded into one line per group. Words wrap at spaces with a hanging
indent, never in the middle of a word.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.errors import MarkupError
from rich.markup import escape
from rich.table import Table
from rich.text import Text

#: The window's size when the terminal does not say (columns, rows).
FALLBACK_SIZE = (120, 40)


def window_rows() -> int:
    """How many rows the terminal window has (``LINES``, the terminal itself, else 40)."""
    return shutil.get_terminal_size(FALLBACK_SIZE).lines


def height(console: Console, renderable: RenderableType) -> int:
    """How many rows ``renderable`` takes when printed on ``console`` (its width, wrapped at spaces)."""
    return len(console.render_lines(renderable, console.options, pad=False))


def markup_lines(text: str) -> list[Text]:
    """The lines of a rich-markup text, each parsed on its own (a line whose markup does not close stays as written)."""
    lines: list[Text] = []
    for line in text.split("\n"):
        try:
            lines.append(Text.from_markup(line))
        except MarkupError:
            lines.append(Text(line))
    return lines


@dataclass(frozen=True, slots=True)
class Fitted:
    """The table as it fits the rows left for it: the lines shown and how many rows of it are left out."""

    lines: list[Text]
    left_out: int


def fit_table(console: Console, text: str, rows: int) -> Fitted:
    """The lines of the table ``text`` that fit in ``rows`` rows: all of them if they fit, else its head and its tail
    with a note between them saying how many rows are left out and how to read them.

    >>> console = Console(width=40, record=True)
    >>> fitted = fit_table(console, "\\n".join(f"line {n}" for n in range(10)), 5)
    >>> [line.plain for line in fitted.lines], fitted.left_out
    (['line 0', 'line 1', '… 6 more lines of the table: type board to read it all …', 'line 8', 'line 9'], 6)
    """
    lines = markup_lines(text)
    heights = [height(console, line) for line in lines]
    if sum(heights) <= rows:
        return Fitted(lines, 0)
    room = max(rows - 1, 0)  # one row for the note
    head_room = room // 2
    head: list[Text] = []
    used = 0
    for line, rows_of in zip(lines, heights, strict=True):
        if used + rows_of > head_room:
            break
        head.append(line)
        used += rows_of
    tail: list[Text] = []
    for line, rows_of in zip(reversed(lines[len(head) :]), reversed(heights[len(head) :]), strict=True):
        if used + rows_of > room:
            break
        tail.insert(0, line)
        used += rows_of
    skipped = len(lines) - len(head) - len(tail)
    left_out = sum(heights) - used
    note = Text(f"… {skipped} more line{'s' if skipped != 1 else ''} of the table: type board to read it all …", style="dim")
    return Fitted([*head, note, *tail], left_out)


def choice_list(rows: Sequence[tuple[str, str, str]]) -> Table:
    """Numbered choices as a grid: the number, the text to type and the words (wrapped at spaces under themselves).

    ``rows`` are (number, text, words in markup).
    """
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for number, text, words in rows:
        grid.add_row(number, escape(text), Text.from_markup(words))
    return grid


def numbered(rows: Sequence[tuple[str, str]]) -> Table:
    """Numbered lines (number, markup) whose words wrap at spaces under themselves."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(ratio=1)
    for number, words in rows:
        grid.add_row(number, Text.from_markup(words))
    return grid


def show(console: Console, renderable: RenderableType, rows: int | None = None) -> None:
    """Print ``renderable``; when it is taller than the window, through a pager (the reader leaves it with q)."""
    if console.is_terminal and height(console, renderable) > (rows if rows is not None else window_rows()) - 1:
        # The system pager (PAGER, else less): a less of the reader's own settings shows colours only with -R.
        os.environ.setdefault("LESS", "-R")
        with console.pager(styles=True):
            console.print(renderable)
        return
    console.print(renderable)
