"""Effects shared by every phase: drawing with reshuffles, the hand, sympathy and the line limit.

These functions change the state and append events; they never decide
anything a player decides. Decisions they cause (hand-limit discards, line
shut-downs) are queued as interrupts (``state.queue``) in turn order (R60, R70).
"""

from __future__ import annotations

from greenlight.core.events import Event
from greenlight.games.movie_empire.cards import SympathyLevel
from greenlight.games.movie_empire.events import DossierSpent, LineReopened, LineShut, sympathy_event
from greenlight.games.movie_empire.lines import Line, with_flags
from greenlight.games.movie_empire.parameters import HAND_LIMIT
from greenlight.games.movie_empire.state import NO_SEAT, Q_CHECK, Q_DISCARD, Q_SHUT, MovieEmpireState

SYMPATHY_MIN, SYMPATHY_MAX = -5, 5


# -- drawing (§4.11) ----------------------------------------------------------------------


def draw_production(state: MovieEmpireState) -> str | None:
    """The top production card; the discard pile is reshuffled into a new pile when needed (R4)."""
    if not state.production_pile:
        if not state.production_discard:
            return None
        state.production_pile = state.production_discard
        state.production_discard = []
        state.shuffle(state.production_pile)
    return state.production_pile.pop()


def draw_star(state: MovieEmpireState) -> str | None:
    """The top star, reshuffling the star discard pile when needed."""
    if not state.star_pile:
        if not state.star_discard:
            return None
        state.star_pile = state.star_discard
        state.star_discard = []
        state.shuffle(state.star_pile)
    return state.star_pile.pop()


def draw_script(state: MovieEmpireState) -> str | None:
    """The top script, reshuffling the script discard pile when needed."""
    if not state.script_pile:
        if not state.script_discard:
            return None
        state.script_pile = state.script_discard
        state.script_discard = []
        state.shuffle(state.script_pile)
    return state.script_pile.pop()


def discard_card(state: MovieEmpireState, card: str) -> None:
    """Put a card face up on its own deck's discard pile (§4.5 point 4, R3)."""
    table = state.table
    if card in table.production:
        state.production_discard.append(card)
    elif card in table.stars:
        state.star_discard.append(card)
    else:
        state.script_discard.append(card)


# -- the hand (§4.5) ---------------------------------------------------------------------


def hand_limit(state: MovieEmpireState) -> int:
    """Cards a hand may hold: the ``hand_limit`` rule parameter (4 in the rulebook, §2.2, §4.5)."""
    return HAND_LIMIT.number(state.options)


def gain_cards(state: MovieEmpireState, seat: int, cards: list[str], public: bool) -> None:
    """Cards enter ``seat``'s hand; taken face up (``public``) they stay known to all. Queues the hand limit."""
    state.hands[seat].extend(cards)
    if public:
        state.known[seat].extend(cards)
    if len(state.hands[seat]) > hand_limit(state) and (Q_DISCARD, seat) not in state.queue:
        state.queue.append((Q_DISCARD, seat))  # R2: discard at once


def remove_from_hand(state: MovieEmpireState, seat: int, card: str) -> None:
    """A card leaves the hand in the open (laid, discarded, swapped): forget it in what others knew."""
    state.hands[seat].remove(card)
    if card in state.known[seat]:
        state.known[seat].remove(card)
    giver = (seat - 1) % state.num_players
    if card in state.gifted[giver]:
        state.gifted[giver].remove(card)


# -- sympathy and the line limit (§4.7, §4.12) -----------------------------------------------


def level(state: MovieEmpireState, seat: int) -> SympathyLevel:
    """The seat's row of the sympathy bar."""
    return state.table.sympathy[state.sympathy[seat]]


def change_sympathy(state: MovieEmpireState, seat: int, delta: int, events: list[Event], cause: str) -> int:
    """Move the sympathy marker, clamped to -5…+5 at each change (R12); return the actual change."""
    before = state.sympathy[seat]
    after = max(SYMPATHY_MIN, min(SYMPATHY_MAX, before + delta))
    state.sympathy[seat] = after
    events.append(sympathy_event(seat, after - before, after, cause))
    return after - before


def queue_checks(state: MovieEmpireState, seats: set[int] | list[int]) -> None:
    """Queue line-limit checks for ``seats`` in turn order (§4.7, R60)."""
    if not seats:
        return
    if len(seats) == 1:  # the usual case (Be Nice, Cut!): one seat, in no order to keep
        (seat,) = seats
        state.queue.append((Q_CHECK, seat))
        return
    chosen = set(seats)
    for seat in state.turn_order():
        if seat in chosen:
            state.queue.append((Q_CHECK, seat))


def open_lines(state: MovieEmpireState, seat: int) -> int:
    """Lines that are not shut down (locked lines count as open, §4.7)."""
    opened = 0
    for line in state.lines[seat]:  # a loop, not sum() of a generator: two slots, asked at every check
        if line is not None and not line.shut:
            opened += 1
    return opened


def run_check(state: MovieEmpireState, seat: int, events: list[Event]) -> bool:
    """Resolve the line-limit check at the head of the queue; False if ``seat`` must now choose a line to shut.

    Reopening is automatic (R29): a shut line reopens whenever open < allowed.
    """
    allowed = level(state, seat).lines
    lines = state.lines[seat]
    opened = open_lines(state, seat)
    if opened > allowed:
        state.queue[0] = (Q_SHUT, seat)
        return False
    for index, line in enumerate(lines):
        if opened >= allowed:
            break
        if line is not None and line.shut:
            lines[index] = _flip(line, shut=False)
            opened += 1
            events.append(Event("line_reopened", LineReopened(seat=seat, line=index + 1)))
    state.queue.pop(0)
    return True


def shut_line(state: MovieEmpireState, seat: int, index: int, events: list[Event]) -> None:
    """Shut down line ``index`` (its script is turned face down; R30)."""
    line = state.lines[seat][index]
    assert line is not None
    state.lines[seat][index] = _flip(line, shut=True)
    events.append(Event("line_shut", LineShut(seat=seat, line=index + 1, script=line.script)))


def _flip(line: Line, *, shut: bool) -> Line:
    return with_flags(line, shut=shut)


# -- dossiers (§4.4) -------------------------------------------------------------------------


def usable_dossier(state: MovieEmpireState, seat: int) -> bool:
    """A dossier on the tableau taken in an earlier round (R51); never in Clean Hands."""
    taken = state.dossier[seat]
    return taken != NO_SEAT and taken < state.round and not state.clean


def spend_dossier(state: MovieEmpireState, seat: int, use: str, events: list[Event]) -> None:
    """The dossier leaves the tableau (so RV1 may be taken again, R52) and counts for the Upkeep penalty."""
    state.dossier[seat] = NO_SEAT
    state.spent[seat] += 1
    events.append(Event("dossier_spent", DossierSpent(seat=seat, use=use)))
