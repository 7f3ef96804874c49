"""The integer action codes of Movie Empire: one block per action type (``core.actions.ActionLayout``).

Within a block an action is coded by the index of its card, space, line or choice.
"""

from __future__ import annotations

from greenlight.core.actions import ActionLayout
from greenlight.games.movie_empire.actions import (
    EXEMPT_WAYS,
    SKIP,
    Block,
    Cut,
    Discard,
    Done,
    End,
    Exempt,
    Give,
    Keep,
    Lay,
    Market,
    Net,
    Pass,
    Place,
    Produce,
    Purge,
    Release,
    Script,
    Shut,
    Stack,
    Star,
    Stop,
    Swap,
    Take,
)
from greenlight.games.movie_empire.cards import BOARD_MARKETS, MAX_CARD_INDEX, MAX_PRODUCTION, MAX_SCRIPTS, MAX_SPACES, MAX_STARS, STAGES
from greenlight.games.movie_empire.state import MovieEmpireState

_PAIRS = MAX_CARD_INDEX * (MAX_CARD_INDEX + 1) // 2 + MAX_CARD_INDEX  # unordered pairs (with repeats) and singles


def _pair(state: MovieEmpireState, action: Keep | Give) -> int:
    """Unordered pairs i <= j get j(j+1)/2 + i; a single card comes after all pairs; none is the last single slot."""
    indexes = sorted(state.table.card_index[card] for card in action.cards)
    if len(indexes) == 2:
        i, j = indexes
        return j * (j + 1) // 2 + i
    base = MAX_CARD_INDEX * (MAX_CARD_INDEX + 1) // 2
    return base + (indexes[0] if indexes else MAX_CARD_INDEX - 1)


def _place(state: MovieEmpireState, action: Place) -> int:
    return state.table.space_by_id[action.space].index * 2 + int(action.dossier)


def _space(state: MovieEmpireState, action: Block | Cut) -> int:
    return state.table.space_by_id[action.space].index


def _slot(state: MovieEmpireState, action: Take) -> int:
    return state.table.space_by_id[action.slot].index


def _line(state: MovieEmpireState, action: Release | Shut) -> int:
    return action.line - 1


def _produce(state: MovieEmpireState, action: Produce) -> int:
    return 2 if action.line == "new" else int(action.line) - 1


def _net(state: MovieEmpireState, action: Net) -> int:
    return 2 if action.line == SKIP else int(action.line) - 1


def _production_card(state: MovieEmpireState, action: Swap | Stack) -> int:
    return state.table.production[action.card].index


def _lay(state: MovieEmpireState, action: Lay) -> int:
    stage = 0 if action.stage is None else 1 + STAGES.index(action.stage)
    return (state.table.production[action.card].index * 2 + (action.end == "right")) * 5 + stage


LAYOUT = ActionLayout(
    [
        (Pass, 1, None),
        (Done, 1, None),
        (Purge, 1, None),
        (End, 1, None),
        (Stop, 1, None),
        (Exempt, len(EXEMPT_WAYS), lambda state, action: EXEMPT_WAYS.index(action.way)),
        (Place, MAX_SPACES * 2, _place),
        (Block, MAX_SPACES, _space),
        (Cut, MAX_SPACES, _space),
        (Take, MAX_SPACES, _slot),
        (Release, 2, _line),
        (Produce, 3, _produce),
        (Shut, 2, _line),
        (Market, len(BOARD_MARKETS), lambda state, action: BOARD_MARKETS.index(action.market)),
        (Net, 3, _net),
        (Swap, MAX_PRODUCTION, _production_card),
        (Stack, MAX_PRODUCTION, _production_card),
        (Lay, MAX_PRODUCTION * 2 * 5, _lay),
        (Star, MAX_STARS, lambda state, action: state.table.stars[action.card].index),
        (Script, MAX_SCRIPTS, lambda state, action: state.table.scripts[action.card].index),
        (Discard, MAX_CARD_INDEX, lambda state, action: state.table.card_index[action.card]),
        (Keep, _PAIRS, _pair),
        (Give, _PAIRS, _pair),
    ]
)
