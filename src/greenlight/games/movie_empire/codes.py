"""The integer action codes of Movie Empire: one block per action type (``core.actions.ActionLayout``).

Within a block an action is coded by the index of its card, space, line or choice.
"""

from __future__ import annotations

from greenlight.core.actions import ActionLayout
from greenlight.games.movie_empire import actions as act
from greenlight.games.movie_empire.cards import BOARD_MARKETS, MAX_CARD_INDEX, MAX_PRODUCTION, MAX_SCRIPTS, MAX_SPACES, MAX_STARS, STAGES
from greenlight.games.movie_empire.state import MovieEmpireState

_PAIRS_BELOW = MAX_CARD_INDEX * (MAX_CARD_INDEX + 1) // 2  # codes of unordered pairs (with repeats)
_PAIRS = _PAIRS_BELOW + MAX_CARD_INDEX  # then singles (the last single slot also stands for no card)


def _pair(state: MovieEmpireState, action: act.Keep | act.Give) -> int:
    """Unordered pairs i <= j get j(j+1)/2 + i; a single card comes after all pairs; none is the last single slot."""
    indexes = sorted(state.table.card_index[card] for card in action.cards)
    if len(indexes) == 2:
        i, j = indexes
        return j * (j + 1) // 2 + i
    return _PAIRS_BELOW + (indexes[0] if indexes else MAX_CARD_INDEX - 1)


def _place(state: MovieEmpireState, action: act.Place) -> int:
    return state.table.space_by_id[action.space].index * 2 + int(action.dossier)


def _space(state: MovieEmpireState, action: act.Block | act.Cut) -> int:
    return state.table.space_by_id[action.space].index


def _slot(state: MovieEmpireState, action: act.Take) -> int:
    return state.table.space_by_id[action.slot].index


def _line(state: MovieEmpireState, action: act.Release | act.Shut) -> int:
    return action.line - 1


def _produce(state: MovieEmpireState, action: act.Produce) -> int:
    return 2 if action.line == "new" else int(action.line) - 1


def _net(state: MovieEmpireState, action: act.Net) -> int:
    return 2 if action.line == act.SKIP else int(action.line) - 1


def _production_card(state: MovieEmpireState, action: act.Swap | act.Stack) -> int:
    return state.table.production[action.card].index


def _lay(state: MovieEmpireState, action: act.Lay) -> int:
    stage = 0 if action.stage is None else 1 + STAGES.index(action.stage)
    return (state.table.production[action.card].index * 2 + (action.end == "right")) * 5 + stage


LAYOUT = ActionLayout(
    [
        (act.Pass, 1, None),
        (act.Done, 1, None),
        (act.Purge, 1, None),
        (act.End, 1, None),
        (act.Stop, 1, None),
        (act.Exempt, len(act.EXEMPT_WAYS), lambda state, action: act.EXEMPT_WAYS.index(action.way)),
        (act.Place, MAX_SPACES * 2, _place),
        (act.Block, MAX_SPACES, _space),
        (act.Cut, MAX_SPACES, _space),
        (act.Take, MAX_SPACES, _slot),
        (act.Release, 2, _line),
        (act.Produce, 3, _produce),
        (act.Shut, 2, _line),
        (act.Market, len(BOARD_MARKETS), lambda state, action: BOARD_MARKETS.index(action.market)),
        (act.Net, 3, _net),
        (act.Swap, MAX_PRODUCTION, _production_card),
        (act.Stack, MAX_PRODUCTION, _production_card),
        (act.Lay, MAX_PRODUCTION * 2 * 5, _lay),
        (act.Star, MAX_STARS, lambda state, action: state.table.stars[action.card].index),
        (act.Script, MAX_SCRIPTS, lambda state, action: state.table.scripts[action.card].index),
        (act.Discard, MAX_CARD_INDEX, lambda state, action: state.table.card_index[action.card]),
        (act.Keep, _PAIRS, _pair),
        (act.Give, _PAIRS, _pair),
    ]
)


def _cards_of_pair_code(local: int) -> tuple[int, ...]:
    """The sorted card indexes of a Keep or Give from its code inside the block (the inverse of ``_pair``)."""
    if local >= _PAIRS_BELOW:
        single = local - _PAIRS_BELOW
        return () if single == MAX_CARD_INDEX - 1 else (single,)
    j = int(((8 * local + 1) ** 0.5 - 1) / 2)
    while j * (j + 1) // 2 > local:
        j -= 1
    while (j + 1) * (j + 2) // 2 <= local:
        j += 1
    return (local - j * (j + 1) // 2, j)


#: For agents (``greenlight.rl.actions``): Keep and Give are chosen one card at a time, a code per card index, so the
#: agent layout has 1,784 codes instead of the 52,182 pairs above. The game's own codes and actions do not change.
PICKED = {act.Keep: _cards_of_pair_code, act.Give: _cards_of_pair_code}
#: Card indexes a pick chooses among, and the most cards one Keep or Give holds (2: §3 step 6 with Shoot a Short,
#: the Sabotage keep, AP12).
PICK_ITEMS = MAX_CARD_INDEX
MAX_PICKS = 2
#: A bound on the agent actions (picks included) one seat takes in a game, for the OpenSpiel adapter's
#: perfect-recall history tensor (the adapter refuses to go past it, saying so). Not proved from the rules:
#: random and heuristic games take at most 103 (2 players).
MAX_OWN_ACTIONS = 512
