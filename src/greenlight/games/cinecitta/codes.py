"""The integer action codes of Cinecitta 1937: one block per action type (``core.actions.ActionLayout``)."""

from __future__ import annotations

from greenlight.core.actions import ActionLayout
from greenlight.games.cinecitta.actions import SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import MAX_CARDS, OCCUPATIONS, CardTable
from greenlight.games.cinecitta.state import CinecittaState

#: Offer amounts run 0..500 in steps of 10 (the players' total at 5 players).
AMOUNT_SLOTS = 51
OCCUPATION_SLOTS = 6  # no card moved out, or one of the 5 occupations


def offer_code(state: CinecittaState, action: Offer) -> int:
    """By card, then amount."""
    return state.table.index(action.card) * AMOUNT_SLOTS + min(action.amount // 10, AMOUNT_SLOTS - 1)


def respond_code(state: CinecittaState, action: Respond) -> int:
    """Secure the funds, or headhunt."""
    return 0 if action.choice == SECURE else 1


def place_code(state: CinecittaState, action: Place) -> int:
    """Nothing to place; else the card order and the occupations moved out (Studio occupations are unique)."""
    table = state.table
    if not action.placements:
        return 0
    (first, out1), *rest = action.placements
    second, out2 = rest[0] if rest else (None, None)
    swapped = int(second is not None and table.index(second) < table.index(first))
    return 1 + (swapped * OCCUPATION_SLOTS + _occupation_slot(table, out1)) * OCCUPATION_SLOTS + _occupation_slot(table, out2)


def _occupation_slot(table: CardTable, card: str | None) -> int:
    """0 for no card moved out, else 1 + the card's occupation index."""
    return 0 if card is None else 1 + OCCUPATIONS.index(table[card].occupation)


LAYOUT = ActionLayout(
    [
        (Offer, MAX_CARDS * AMOUNT_SLOTS, offer_code),
        (Respond, 2, respond_code),
        (Place, 1 + 2 * OCCUPATION_SLOTS * OCCUPATION_SLOTS, place_code),
    ]
)

#: The most actions one seat takes in a game: 8 rounds at most (3 players), each an offer, a response and a
#: placement (the slots of the OpenSpiel adapter's perfect-recall history tensor).
MAX_OWN_ACTIONS = 24
