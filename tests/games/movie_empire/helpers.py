"""Shared helpers for the Movie Empire rule tests."""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.cards import T_RELEASE, T_SABOTAGE, load_tables
from greenlight.games.movie_empire.lines import Line, build_line
from greenlight.games.movie_empire.state import MovieEmpireState
from greenlight.games.movie_empire.working import in_use, place_problem

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


def placements_by_the_rules(state: MovieEmpireState, seat: int, skip_hand_dependent: bool) -> list[str]:
    """The placements ``place_problem`` allows, in board order (without the SB1 swap and releases if asked):
    what every fast placement scan is checked against."""
    return [
        f"place {space.id}" + (" dossier" if dossier else "")
        for space in in_use(state)
        for dossier in (False, True)
        if place_problem(state, seat, space, dossier) is None
        and not (skip_hand_dependent and (space.task == T_RELEASE or (space.task == T_SABOTAGE and not dossier)))
    ]
