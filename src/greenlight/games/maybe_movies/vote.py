"""Maybe Movies votes and CHANGE rounds (T4-T5): secret votes, the reveal, and the edits of the pitch."""

from __future__ import annotations

from itertools import compress

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.maybe_movies import resolution, turn
from greenlight.games.maybe_movies.actions import FINISH, add_card, remove_card, slot_at
from greenlight.games.maybe_movies.chance import random_index
from greenlight.games.maybe_movies.events import (
    CardsBack,
    ChangeNoEffect,
    ChangeRound,
    ReplacementDrawn,
    RowCardRemoved,
    RowEdited,
    VoteChosen,
    VoteCommitted,
    VotesRevealed,
    VoteStarted,
)
from greenlight.games.maybe_movies.state import CHANGE_EDIT, EDIT_ADD, EDIT_SLOT, EDIT_START, VOTE, ChangeRecord, MaybeMoviesState


def start_vote_round(state: MaybeMoviesState, events: list[Event]) -> None:
    """T4: every seat with a non-empty hand votes, the active player included (R10, R30)."""
    state.phase = VOTE
    voters = state.voters = tuple(compress(range(state.num_players), state.hands))
    state.votes = [None] * state.num_players
    key = (voters, len(state.rounds) + 1)
    event = _VOTE_STARTED.get(key)
    if event is None:
        started: VoteStarted = {"voters": list(voters), "round": key[1]}
        event = _VOTE_STARTED[key] = Event("vote_started", started)
    events.append(event)


# Events are immutable (``core.events.Event``), so those that follow from a few small values are made once per
# distinct value and shared: most events of a random playout are these.
_VOTE_STARTED: dict[tuple[tuple[int, ...], int], Event] = {}
_VOTE_EVENTS: dict[tuple[int, str, bool], tuple[Event, Event]] = {}


def commit_vote(state: MaybeMoviesState, seat: int, card: str, events: list[Event], automatic: bool = False) -> None:
    """Store a secret vote; the card stays in hand until the reveal. Only *that* a seat chose is public."""
    state.votes[seat] = card
    key = (seat, card, automatic)
    made = _VOTE_EVENTS.get(key)
    if made is None:
        # Event data as dict displays: a TypedDict called like a class builds the same dict several times slower.
        committed: VoteCommitted = {"seat": seat, "automatic": automatic}
        chosen: VoteChosen = {"seat": seat, "card": card}
        made = _VOTE_EVENTS[key] = (Event("vote_committed", committed), Event("vote_chosen", chosen, (seat,)))
    events += made


def reveal(state: MaybeMoviesState, events: list[Event]) -> None:
    """T5: reveal every vote at once; CHANGE cards start a CHANGE round, otherwise this is the final vote."""
    revealed = tuple(state.votes)
    table = state.table
    hands, known = state.hands, state.known
    for seat, card in enumerate(revealed):
        if card is not None:
            hands[seat].remove(card)
            if card in known[seat]:
                known[seat].remove(card)
    state.rounds.append(revealed)
    state.votes = [None] * state.num_players
    state.voters = ()
    shown: VotesRevealed = {"votes": list(revealed), "round": len(state.rounds)}
    events.append(Event("votes_revealed", shown))
    change_ids = table.change_ids
    changers = (
        []
        if change_ids.isdisjoint(revealed)
        else [(seat, card) for seat, card in enumerate(revealed) if card is not None and card in change_ids]
    )
    if changers:
        changers.sort(key=lambda entry: table.vote(entry[1]).number)  # §6.2: lowest number first
        state.change_queue = changers
        events.append(Event("change_round", ChangeRound(order=[[seat, card] for seat, card in changers])))
        next_edit(state, events)
    else:
        resolution.final_vote(state, events)


def next_edit(state: MaybeMoviesState, events: list[Event]) -> None:
    """Give the next CHANGE-voter its CHANGE_EDIT; a voter with no legal edit has no effect (R27)."""
    while state.change_queue:
        seat, card = state.change_queue[0]
        if not state.personal[seat] and len(state.row) <= 1:
            record = ChangeRecord(seat, card, state.table.vote(card).number)
            state.change_records.append(record)
            state.change_queue.pop(0)
            events.append(Event("change_no_effect", ChangeNoEffect(seat=seat, change=card)))
            continue
        state.phase = CHANGE_EDIT
        state.edit_step = EDIT_START
        state.edit_removed = None
        state.edit_added = None
        state.edit_refills = ()
        return
    end_change_round(state, events)


def edit_actions(state: MaybeMoviesState) -> list[Action]:
    """CHANGE_EDIT steps (R27, R28): remove a row card or add a personal card; after a removal add or finish; then the slot."""
    seat = state.change_queue[0][0]
    personal = state.personal[seat]
    if state.edit_step == EDIT_START:
        actions: list[Action] = []
        if len(state.row) >= 2 or personal:  # a removal alone may not empty the row
            actions.extend(remove_card(card) for card in state.row)
        actions.extend(add_card(card) for card in personal)
        return actions
    if state.edit_step == EDIT_ADD:
        actions = [add_card(card) for card in personal]
        if state.row:
            actions.append(FINISH)
        return actions
    return [slot_at(index) for index in range(len(state.row) + 1)]


def edit_remove(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Remove a row card; it goes to the discard pile at once (§6.2)."""
    state.row.remove(card)
    state.discard.append(card)
    state.edit_removed = card
    state.edit_step = EDIT_ADD
    events.append(Event("row_card_removed", RowCardRemoved(seat=state.change_queue[0][0], card=card, row=list(state.row))))


def edit_add(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Add a personal card: refill personal cards at once (R31); it goes at the right end, or (Blockbuster) to a chosen slot."""
    seat = state.change_queue[0][0]
    state.personal[seat].remove(card)
    state.edit_added = card
    state.edit_refills = turn.refill_personal(state, seat, events)
    if state.blockbuster:
        state.edit_step = EDIT_SLOT
        return
    complete_edit(state, len(state.row), events)


def complete_edit(state: MaybeMoviesState, slot: int | None, events: list[Event]) -> None:
    """Finish one CHANGE-voter's edit: K goes up by 1 (remove + add counts once)."""
    seat, change = state.change_queue.pop(0)
    added = state.edit_added
    if added is not None:
        assert slot is not None
        state.row.insert(slot, added)
    else:
        slot = None
    state.edits += 1
    record = ChangeRecord(seat, change, state.table.vote(change).number, state.edit_removed, added, slot, state.edit_refills)
    state.change_records.append(record)
    events.append(
        Event(
            "row_edited",
            RowEdited(seat=seat, change=change, removed=record.removed, added=added, slot=slot, row=list(state.row), K=state.edits),
        )
    )
    state.edit_removed = None
    state.edit_added = None
    state.edit_refills = ()
    state.edit_step = EDIT_START
    next_edit(state, events)


def end_change_round(state: MaybeMoviesState, events: list[Event]) -> None:
    """§6.2 steps 3-5: cards back, CHANGE cards out of play (R26), replacement draws (R29), then a re-vote."""
    revealed = state.rounds[-1]
    table = state.table
    returned: list[list[int | str]] = []
    for seat, card in enumerate(revealed):
        if card is None:
            continue
        if table.vote(card).is_change:
            state.out_of_play.append(card)
        else:
            state.hands[seat].append(card)
            state.known[seat].append(card)  # §8: everyone saw it go back
            returned.append([seat, card])
    events.append(Event("cards_back", CardsBack(returned=returned)))
    changes = sum(1 for card in revealed if card is not None and table.vote(card).is_change)
    first = len(state.change_records) - changes
    for index in range(first, len(state.change_records)):  # ascending CHANGE order
        record = state.change_records[index]
        if not state.pool:
            events.append(Event("replacement_drawn", ReplacementDrawn(seat=record.seat, card=None)))
            continue
        drawn = state.pool.pop(random_index(state.rng, len(state.pool)))
        state.hands[record.seat].append(drawn)
        state.known[record.seat].append(drawn)
        state.change_records[index] = record._replace(replacement=drawn)
        events.append(Event("replacement_drawn", ReplacementDrawn(seat=record.seat, card=drawn)))
    start_vote_round(state, events)
