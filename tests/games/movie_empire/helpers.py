"""Shared helpers for the Movie Empire rule tests."""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.cards import load_tables
from greenlight.games.movie_empire.lines import Line, build_line
from greenlight.games.movie_empire.state import MovieEmpireState

TABLE = load_tables()


def line(script: str, cards: list[str], stars: list[str] | None = None, **flags: bool) -> Line:
    """A line from card ids (``PJ01:R`` for a joker's stage, ``+PY05`` for an upgrade stacked on the card before)."""
    return build_line(TABLE, script, cards, stars or [], **flags)


def play(state: MovieEmpireState, seat: int, *texts: str) -> list[Event]:
    """Apply actions given as text (checked), returning all events."""
    events: list[Event] = []
    for text in texts:
        events += GAME.apply(state, seat, GAME.parse_action(text))
    return events


def legal(state: MovieEmpireState, seat: int) -> set[str]:
    """The legal actions of ``seat`` as texts."""
    return {str(action) for action in GAME.legal_actions(state, seat)}


def legal_of(state: MovieEmpireState, seat: int, kind: type[Action] | tuple[type[Action], ...]) -> set[str]:
    """The legal actions of one type as texts."""
    return {str(action) for action in GAME.legal_actions(state, seat) if isinstance(action, kind)}
