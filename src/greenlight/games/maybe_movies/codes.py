"""The integer action codes of Maybe Movies: one block per action type (``core.actions.ActionLayout``).

Cards are coded by catalogue position (movies 0-59, hand cards 0-71), slots,
icons and profit values by number.
"""

from __future__ import annotations

from greenlight.core.actions import ActionLayout
from greenlight.games.maybe_movies.actions import Add, Copy, Finish, Icon, Pick, Profit, Remove, Slot, Vote
from greenlight.games.maybe_movies.cards import ICON_INDEX, NUM_BLOCKBUSTERS, NUM_CHANGE, NUM_ICONS, NUM_MOVIES, NUM_VOTES
from greenlight.games.maybe_movies.state import MaybeMoviesState

MOVIE_CARDS = NUM_MOVIES + NUM_BLOCKBUSTERS  # 60
HAND_CARDS = NUM_VOTES + NUM_CHANGE  # 72
#: Insertion slots: a row holds at most 6 + 2N = 18 cards, so after a removal at most 17 (slots 0-17).
SLOTS = 20
#: Profit choices: 1-3 for wildcard_profit; a copied base profit is at most k = 18 (pitch_size).
PROFIT_VALUES = 32


def _movie(state: MaybeMoviesState, action: Add | Remove | Copy | Pick) -> int:
    return state.table.movie_index(action.card)


def _vote(state: MaybeMoviesState, action: Vote) -> int:
    return state.table.vote_index(action.card)


def _slot(state: MaybeMoviesState, action: Slot) -> int:
    return action.index


def _icon(state: MaybeMoviesState, action: Icon) -> int:
    return ICON_INDEX[action.icon]


def _profit(state: MaybeMoviesState, action: Profit) -> int:
    return action.amount


LAYOUT = ActionLayout(
    [
        (Add, MOVIE_CARDS, _movie),
        (Finish, 1, None),
        (Vote, HAND_CARDS, _vote),
        (Remove, MOVIE_CARDS, _movie),
        (Slot, SLOTS, _slot),
        (Copy, MOVIE_CARDS, _movie),
        (Icon, NUM_ICONS, _icon),
        (Profit, PROFIT_VALUES, _profit),
        (Pick, MOVIE_CARDS, _movie),
    ]
)

#: A bound on the actions one seat takes in a game, for the OpenSpiel adapter's perfect-recall history tensor
#: (the adapter refuses to go past it, saying so). Not proved from the rules: random and heuristic games take
#: at most 24 (3 players); 256 leaves room for Breaking Changes and long edits.
MAX_OWN_ACTIONS = 256
