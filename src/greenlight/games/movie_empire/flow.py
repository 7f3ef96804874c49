"""Sequencing: run every automatic step until some player owes a decision (§4, R70).

``advance`` is called after every applied action. It resolves queued
line-limit checks, skips decisions that have a single legal option known to
everyone (a forced pass, an exemption that can only be declined, the last free
market, a produce step with nothing left to lay), and moves from phase to
phase: Grumpy → Working → Premiere → Internet → Upkeep → next round, or the
end of the game after the last round's premieres.
"""

from __future__ import annotations

from greenlight.core.events import Event
from greenlight.games.movie_empire.effects import run_check
from greenlight.games.movie_empire.events import GameOver, PremierePhase, passed_event, produce_done_event
from greenlight.games.movie_empire.premiere import build_net_items, free_markets, net_lines, pending_release, release_spaces, score_premiere
from greenlight.games.movie_empire.rounds import (
    begin_upkeep,
    exemption_choice,
    instant_effect,
    resolve_gifts,
    resolve_setup,
    upkeep_board,
    upkeep_dossiers,
)
from greenlight.games.movie_empire.state import (
    GIFT,
    GRUMPY,
    INTERNET,
    NO_SEAT,
    OVER,
    PREMIERE,
    Q_CHECK,
    SETUP,
    SUB_NONE,
    UP_DOSSIERS,
    UPKEEP,
    WORKING,
    MovieEmpireState,
)
from greenlight.games.movie_empire.working import ASSISTANTS, can_place, only_pass, produce_options, produce_step_over

TURN_ACTIVE, TURN_OVER = 0, 1


def begin_turn(state: MovieEmpireState, seat: int) -> None:
    """A fresh working-phase turn for ``seat``."""
    state.turn_seat = seat
    state.step = TURN_ACTIVE
    state.turn_placed = state.turn_produced = state.turn_acted = False
    state.sub = SUB_NONE
    state.sub_card = None
    state.sub_space = NO_SEAT
    state.target = NO_SEAT
    state.lays = 0


def end_turn(state: MovieEmpireState) -> None:
    """The current turn is over; the next seat is found by ``advance``."""
    state.step = TURN_OVER


#: The seats clockwise after each seat, the seat itself last, by number of players (read, not worked out, each turn).
_SEATS_AFTER = {n: tuple(tuple((seat + offset) % n for offset in range(1, n + 1)) for seat in range(n)) for n in range(1, 9)}


def next_turn(state: MovieEmpireState) -> bool:
    """Give the turn to the next seat clockwise that has not passed and has an assistant left (§4.2 step 1)."""
    n = state.num_players
    try:
        seats = _SEATS_AFTER[n][state.turn_seat]
    except (IndexError, KeyError):  # not a seat (a position being checked): the same order, worked out
        seats = tuple((state.turn_seat + offset) % n for offset in range(1, n + 1))
    passed, placed = state.passed, state.placed
    for seat in seats:
        if not passed[seat] and placed[seat] < ASSISTANTS:
            begin_turn(state, seat)
            return True
    return False


def advance(state: MovieEmpireState, events: list[Event]) -> None:
    """Run automatic steps until a decision is owed (or the game is over)."""
    while True:
        if state.queue:
            kind, seat = state.queue[0]
            if kind == Q_CHECK and run_check(state, seat, events):
                continue
            return
        phase = state.phase
        if phase == WORKING:
            if not _working(state, events):
                return
        elif phase == SETUP:
            if any(commit is None for commit in state.commit):
                return
            resolve_setup(state, events)
        elif phase == GRUMPY:
            if not _grumpy(state, events):
                return
        elif phase == GIFT:
            if any(commit is None for commit in state.commit):
                return
            resolve_gifts(state, events)
        elif phase == PREMIERE:
            if not _premiere(state, events):
                return
        elif phase == INTERNET:
            if not _internet(state, events):
                return
        elif phase == UPKEEP:
            if state.step == UP_DOSSIERS:
                upkeep_dossiers(state, events)
            else:
                upkeep_board(state, events)
        else:
            return


def _grumpy(state: MovieEmpireState, events: list[Event]) -> bool:
    order = state.turn_order()
    while state.exempt_pos < state.num_players:
        seat = order[state.exempt_pos]
        if exemption_choice(state, seat):
            return False
        state.exempt_pos += 1  # only "decline" is possible: nothing to decide
    instant_effect(state, events)
    return True


def _working(state: MovieEmpireState, events: list[Event]) -> bool:
    if state.step == TURN_OVER:
        if not next_turn(state):
            _begin_premiere(state, events)
            return True
        # A new turn began; nothing was queued meanwhile, so its first decision is looked at at once.
    elif state.sub != SUB_NONE:
        return False
    seat = state.turn_seat
    if state.target != NO_SEAT:
        if produce_step_over(state, seat):
            state.target = NO_SEAT  # nothing more can be laid: the produce step ends by itself
            events.append(produce_done_event(seat))
            return True
        return False
    # A turn menu of only [pass] or only [end] is no decision; it is told without building the menu: a placement
    # on offer, or with none what ``only_pass`` tests, or after the placement a dossier or a produce step.
    if not state.turn_placed:
        if can_place(state, seat):
            return False
        if only_pass(state, seat):
            state.passed[seat] = True  # R67: a player who cannot place must pass
            events.append(passed_event(seat))
            end_turn(state)
            return True
        return False
    # After the placement the menu holds a Purge whenever a dossier is usable (R53), else the produce targets and end.
    taken = state.dossier[seat]  # usable_dossier, inlined (R51): most seats hold no dossier
    usable = taken != NO_SEAT and taken < state.round and not state.clean
    if not usable and (state.turn_produced or not produce_options(state, seat, first_only=True)):
        end_turn(state)
        return True
    return False


def _begin_premiere(state: MovieEmpireState, events: list[Event]) -> None:
    state.phase = PREMIERE
    state.prem_pos = 0
    state.markets_used = []
    state.turn_seat = NO_SEAT
    premiere_phase_data: PremierePhase = {"round": state.round}
    events.append(Event("premiere_phase", premiere_phase_data))


def _premiere(state: MovieEmpireState, events: list[Event]) -> bool:
    spaces = release_spaces(state)
    while state.prem_pos < len(spaces):
        pending = pending_release(state, spaces)
        if pending is None:
            state.prem_pos += 1
            continue
        markets = free_markets(state)
        if len(markets) > 1:
            return False
        seat, line = pending
        score_premiere(state, seat, line, markets[0], events)  # the last free market (R37)
        state.prem_pos += 1
        return True
    state.phase = INTERNET
    state.net_items = build_net_items(state)
    state.net_pos = 0
    return True


def _internet(state: MovieEmpireState, events: list[Event]) -> bool:
    while state.net_pos < len(state.net_items):
        seat, space = state.net_items[state.net_pos]
        if net_lines(state, seat, space):
            return False
        state.net_pos += 1
    if state.round >= state.last_round:
        from greenlight.games.movie_empire.scoring import game_over_outcome

        state.phase = OVER
        result = game_over_outcome(state)
        events.append(Event("game_over", GameOver(scores=list(result.scores), winners=list(result.winners))))
        return False
    begin_upkeep(state)
    return True
