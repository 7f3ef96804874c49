"""Player words: the printed components of a game in a person's language, and checks that text uses them.

Every game's view layer is the one source of what a person reads (see
:class:`~greenlight.core.game.Game`: ``components``, ``describe_action``,
``action_warning``, ``describe_event``, ``render_text``, ``help_text``).
The terminal and the web render those words; they never show data-file field
names or a bare card code. This module holds the shared pieces: the
:class:`Component` record and the checks the tests and the conformance
harness apply to any text.

>>> face = Component("production card", "PG07", "Colour Grading", "post-production (red), costs 2")
>>> bare_codes("Lay Colour Grading (PG07) to the right of line 1", [face])
[]
>>> bare_codes("lay PG07 right", [face])
['PG07']
>>> jargon("needs n(each)>=1 and script_met")
['>=', 'n(', 'script_met']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: snake_case keys, comparison and logic operators and call-like forms never belong in player words.
_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_OPERATORS = re.compile(r">=|<=|==|!=|&&|\|\||\s&\s|[{}]|\b[a-z]\(")


@dataclass(frozen=True, slots=True)
class Component:
    """One printed component of a game (a card, trend, plan, board space, blockbuster...) in a player's words.

    ``kind`` is what players call it ("production card", "annual plan"),
    ``id`` the short code of the data files (shown only beside the name, where
    a terminal player must type something short), ``name`` its printed name
    and ``text`` its face in full sentences: cost, icons, points, requirements.
    """

    kind: str
    id: str
    name: str
    text: str

    @property
    def title(self) -> str:
        """Name and code, for places where a player types the code: ``Colour Grading (PG07)``."""
        return f"{self.name} ({self.id})" if self.id and self.id != self.name else self.name


def default_names(num_players: int) -> list[str]:
    """How seats are called when nobody gave names: ``Player 1``, ``Player 2``, ...

    >>> default_names(2)
    ['Player 1', 'Player 2']
    """
    return [f"Player {seat + 1}" for seat in range(num_players)]


def seat_name(names: Sequence[str] | None, seat: int) -> str:
    """The name of ``seat`` from ``names`` (or ``Player N`` without them)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Player {seat + 1}"


def bare_codes(text: str, components: Iterable[Component]) -> list[str]:
    """Component codes that appear in ``text`` as whole words without their component's name beside them."""
    found = set()
    for component in components:
        code = component.id
        # A whole-word match needs the code as a substring first: one C scan rules out nearly every component.
        if not code or code == component.name or code not in text:
            continue
        if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text) and component.name not in text:
            found.add(code)
    return sorted(found)


def jargon(text: str) -> list[str]:
    """Pieces of ``text`` that read like code or data rather than words: snake_case keys, operators, ``n(...)``."""
    return sorted({match.group().strip() for pattern in (_SNAKE, _OPERATORS) for match in pattern.finditer(text)})
