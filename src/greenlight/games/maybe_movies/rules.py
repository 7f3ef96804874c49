"""Maybe Movies rules: setup, decisions, legal actions, the turn sequence, payout and scoring.

Rule functions follow ``shared/rules/maybe_movies.md``; comments cite its
sections (§) and rulings (R). The turn runs T1-T10 of §4.0. Every step that is
automatic, and every decision with exactly one legal option, is applied at once
by :func:`settle`, so a caller only ever sees real choices.

>>> state = setup(4, 0, {})
>>> state.market
['M12', 'M43', 'M44', 'M15', 'M17', 'M33']
>>> sorted(state.hands[0])
['N03', 'N09', 'N13', 'N17', 'N21', 'N25', 'Y05', 'Y09', 'Y18', 'Y21']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from greenlight.core.actions import Action, shared
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.games.maybe_movies.actions import FINISH, Add, Copy, Finish, Icon, Pick, Profit, Remove, Slot, Vote
from greenlight.games.maybe_movies.budget import (
    NeedChoice,
    PitchFacts,
    Replay,
    cost_json,
    evaluate_costs,
    evaluate_profits,
    net_of,
    success_check,
)
from greenlight.games.maybe_movies.cards import ICON_INDEX, ICONS, NO, NUM_ICONS, YES, Catalogue, catalogue_for
from greenlight.games.maybe_movies.chance import play_stream, random_index, shuffle
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    EDIT_ADD,
    EDIT_SLOT,
    EDIT_START,
    MOVIE_PICK,
    OVER,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    ChangeRecord,
    MaybeMoviesState,
    Settlement,
    Stack,
    TurnRecord,
)

MARKET_SIZE = 6
HAND_SIZE = 10
PERSONAL_SIZE = 2

# -- shared action objects (legal-action lists are built on every step, so each action is made once) --------

_add = shared(Add)
_remove = shared(Remove)
_pick = shared(Pick)
_copy = shared(Copy)
_slot = shared(Slot)
_profit = shared(Profit)
_icon = shared(Icon)
_vote = shared(Vote)


# -- setup (§3) ----------------------------------------------------------------------------------


def setup(num_players: int, seed: int, options: dict[str, Any]) -> MaybeMoviesState:
    """Generate (or load) the catalogue, then §3 steps 1-9 on the play stream, then start turn 1."""
    table = catalogue_for(options.get("data"), seed)
    state = MaybeMoviesState(table, num_players, dict(options), play_stream(seed))
    deal(state)
    start_turn(state, [])
    settle(state, [])
    return state


def deal(state: MaybeMoviesState) -> None:
    """§3 steps 2-8, draw for draw on the play stream."""
    rng = state.rng
    table = state.table
    n = state.num_players
    yes = [card.id for card in table.votes if card.kind == YES]
    no = [card.id for card in table.votes if card.kind == NO]
    shuffle(rng, yes)
    shuffle(rng, no)
    deck = yes[: 5 * n] + no[: 5 * n]
    state.pool = yes[5 * n :] + no[5 * n :]
    while True:  # R9: re-deal the same list, in its current order, until every hand has a YES and a NO
        shuffle(rng, deck)
        hands = [deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)] for seat in range(n)]
        if all(_has_both(table, hand) for hand in hands):
            break
    state.hands = hands
    if state.breaking:  # R25: exactly 2 CHANGE cards per seat, numbers 1 .. 2N
        change = [card.id for card in sorted(table.changes, key=lambda card: card.number) if card.number <= 2 * n]
        shuffle(rng, change)
        for seat in range(n):
            state.hands[seat] += change[2 * seat : 2 * seat + 2]
    pile = [card.id for card in table.movies]
    if state.blockbuster:  # R41: all 16 blockbusters join the movie deck
        pile += [card.id for card in table.blockbusters]
    shuffle(rng, pile)
    state.draw_pile = pile
    refill_market(state, [])
    if state.breaking:
        for seat in range(n):
            refill_personal(state, seat, [])


def _has_both(table: Catalogue, hand: Sequence[str]) -> bool:
    kinds = {table.vote(card).kind for card in hand}
    return YES in kinds and NO in kinds


def position(
    num_players: int,
    *,
    hands: Sequence[Sequence[str]],
    table: Catalogue | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    market: Sequence[str] = (),
    row: Sequence[str] = (),
    pool: Sequence[str] = (),
    draw_pile: Sequence[str] = (),
    discard: Sequence[str] = (),
    personal: Sequence[Sequence[str]] | None = None,
    won: Sequence[Sequence[str]] | None = None,
    made: Sequence[Stack] = (),
    active: int = 0,
    turn: int = 1,
) -> MaybeMoviesState:
    """An explicit position for tests and puzzles.

    With a ``row`` the pitch is already locked and the vote (T4) begins;
    without one the active player is about to pitch from ``market`` (T2). The
    play stream is that of ``seed``; the catalogue is generated from ``seed``
    unless ``table`` is given.
    """
    resolved = {"trendsetter_tricks": False, "breaking_changes": False, "blockbuster_budgets": False, "data": None, **(options or {})}
    table = table or catalogue_for(resolved.get("data"), seed)
    state = MaybeMoviesState(table, num_players, resolved, play_stream(seed))
    state.hands = [list(hand) for hand in hands]
    state.market = list(market)
    state.pool = list(pool)
    state.draw_pile = list(draw_pile)
    state.discard = list(discard)
    state.personal = [list(cards) for cards in personal] if personal is not None else [[] for _ in range(num_players)]
    state.won = [list(cards) for cards in won] if won is not None else [[] for _ in range(num_players)]
    state.made = list(made)
    state.active = active
    state.turn = turn
    if row:
        state.row = list(row)
        state.pitched = tuple(row)
        start_vote_round(state, [])
    else:
        state.phase = PITCH
    settle(state, [])
    return state


# -- movie draws (§4.8) --------------------------------------------------------------------------


def draw_movie(state: MaybeMoviesState, events: list[Event]) -> str | None:
    """Take the first card of the draw pile; an empty pile reshuffles the discards first (R17)."""
    if not state.draw_pile:
        if not state.discard:
            return None
        state.draw_pile = state.discard
        state.discard = []
        shuffle(state.rng, state.draw_pile)
        events.append(Event("reshuffled", {"cards": len(state.draw_pile)}))
    return state.draw_pile.pop(0)


def refill_market(state: MaybeMoviesState, events: list[Event]) -> None:
    """Append cards one at a time until the market holds 6 or no card can be drawn (§4.8)."""
    drawn: list[str] = []
    while len(state.market) < MARKET_SIZE:
        card = draw_movie(state, events)
        if card is None:
            break
        state.market.append(card)
        drawn.append(card)
    if drawn:
        events.append(Event("market_refilled", {"cards": drawn}))


def refill_personal(state: MaybeMoviesState, seat: int, events: list[Event]) -> tuple[str, ...]:
    """Draw personal movie cards back up to 2 (R31), with the same draw rule as the market."""
    drawn: list[str] = []
    while len(state.personal[seat]) < PERSONAL_SIZE:
        card = draw_movie(state, events)
        if card is None:
            break
        state.personal[seat].append(card)
        drawn.append(card)
    if drawn:
        events.append(Event("personal_drawn", {"seat": seat, "cards": drawn}))
    return tuple(drawn)


# -- the turn: T1 and T2 -------------------------------------------------------------------------


def start_turn(state: MaybeMoviesState, events: list[Event]) -> None:
    """T1: refill the market; a market still empty ends the game (R17). Then the active player pitches."""
    refill_market(state, events)
    if not state.market:
        game_over(state, events)
        return
    state.phase = PITCH
    state.row = []
    state.pitch_from = 0
    events.append(Event("turn_started", {"turn": state.turn, "active": state.active}))


def pitch_actions(state: MaybeMoviesState) -> list[Action]:
    """T2 steps: add a market card, or finish once the row holds one (§4.1).

    Without Blockbuster the row is a set kept in market order (R16), so cards
    are added in market order only: every set has exactly one path.
    """
    start = 0 if state.blockbuster else state.pitch_from
    actions: list[Action] = [_add(card) for card in state.market[start:]]
    if state.row:
        actions.append(FINISH)
    return actions


def add_to_pitch(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Move a market card to the end of the row."""
    index = state.market.index(card)
    del state.market[index]
    state.row.append(card)
    state.pitch_from = index
    events.append(Event("pitch_added", {"seat": state.active, "card": card}))


def finish_pitch(state: MaybeMoviesState, events: list[Event]) -> None:
    """Lock the pitch (R4), refill the market (T3) and start the vote (T4)."""
    state.pitched = tuple(state.row)
    events.append(Event("pitched", {"seat": state.active, "row": list(state.row)}))
    refill_market(state, events)
    start_vote_round(state, events)


# -- T4-T5: votes and CHANGE rounds ----------------------------------------------------------------


def start_vote_round(state: MaybeMoviesState, events: list[Event]) -> None:
    """T4: every seat with a non-empty hand votes, the active player included (R10, R30)."""
    state.phase = VOTE
    state.voters = tuple(seat for seat in range(state.num_players) if state.hands[seat])
    state.votes = [None] * state.num_players
    events.append(Event("vote_started", {"voters": list(state.voters), "round": len(state.rounds) + 1}))


def waiting_voters(state: MaybeMoviesState) -> tuple[int, ...]:
    """Voters who have not chosen yet."""
    votes = state.votes
    return tuple(seat for seat in state.voters if votes[seat] is None)


def commit_vote(state: MaybeMoviesState, seat: int, card: str, events: list[Event], automatic: bool = False) -> None:
    """Store a secret vote; the card stays in hand until the reveal. Only *that* a seat chose is public."""
    state.votes[seat] = card
    events.append(Event("vote_committed", {"seat": seat, "automatic": automatic}))
    events.append(Event("vote_chosen", {"seat": seat, "card": card}, audience=(seat,)))


def reveal(state: MaybeMoviesState, events: list[Event]) -> None:
    """T5: reveal every vote at once; CHANGE cards start a CHANGE round, otherwise this is the final vote."""
    revealed = tuple(state.votes)
    table = state.table
    for seat, card in enumerate(revealed):
        if card is not None:
            state.hands[seat].remove(card)
            if card in state.known[seat]:
                state.known[seat].remove(card)
    state.rounds.append(revealed)
    state.votes = [None] * state.num_players
    state.voters = ()
    events.append(Event("votes_revealed", {"votes": list(revealed), "round": len(state.rounds)}))
    changers = [(seat, card) for seat, card in enumerate(revealed) if card is not None and table.vote(card).is_change]
    if changers:
        changers.sort(key=lambda entry: table.vote(entry[1]).number)  # §6.2: lowest number first
        state.change_queue = changers
        events.append(Event("change_round", {"order": [[seat, card] for seat, card in changers]}))
        next_edit(state, events)
    else:
        final_vote(state, events)


def next_edit(state: MaybeMoviesState, events: list[Event]) -> None:
    """Give the next CHANGE-voter its CHANGE_EDIT; a voter with no legal edit has no effect (R27)."""
    while state.change_queue:
        seat, card = state.change_queue[0]
        if not state.personal[seat] and len(state.row) <= 1:
            record = ChangeRecord(seat, card, state.table.vote(card).number)
            state.change_records.append(record)
            state.change_queue.pop(0)
            events.append(Event("change_no_effect", {"seat": seat, "change": card}))
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
            actions.extend(_remove(card) for card in state.row)
        actions.extend(_add(card) for card in personal)
        return actions
    if state.edit_step == EDIT_ADD:
        actions = [_add(card) for card in personal]
        if state.row:
            actions.append(FINISH)
        return actions
    return [_slot(index) for index in range(len(state.row) + 1)]


def edit_remove(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Remove a row card; it goes to the discard pile at once (§6.2)."""
    state.row.remove(card)
    state.discard.append(card)
    state.edit_removed = card
    state.edit_step = EDIT_ADD
    events.append(Event("row_card_removed", {"seat": state.change_queue[0][0], "card": card, "row": list(state.row)}))


def edit_add(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Add a personal card: refill personal cards at once (R31); it goes at the right end, or (Blockbuster) to a chosen slot."""
    seat = state.change_queue[0][0]
    state.personal[seat].remove(card)
    state.edit_added = card
    state.edit_refills = refill_personal(state, seat, events)
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
            {
                "seat": seat,
                "change": change,
                "removed": record.removed,
                "added": added,
                "slot": slot,
                "row": list(state.row),
                "K": state.edits,
            },
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
    returned: list[list[Any]] = []
    for seat, card in enumerate(revealed):
        if card is None:
            continue
        if table.vote(card).is_change:
            state.out_of_play.append(card)
        else:
            state.hands[seat].append(card)
            state.known[seat].append(card)  # §8: everyone saw it go back
            returned.append([seat, card])
    events.append(Event("cards_back", {"returned": returned}))
    changes = sum(1 for card in revealed if card is not None and table.vote(card).is_change)
    first = len(state.change_records) - changes
    for index in range(first, len(state.change_records)):  # ascending CHANGE order
        record = state.change_records[index]
        if not state.pool:
            events.append(Event("replacement_drawn", {"seat": record.seat, "card": None}))
            continue
        drawn = state.pool.pop(random_index(state.rng, len(state.pool)))
        state.hands[record.seat].append(drawn)
        state.known[record.seat].append(drawn)
        state.change_records[index] = record._replace(replacement=drawn)
        events.append(Event("replacement_drawn", {"seat": record.seat, "card": drawn}))
    start_vote_round(state, events)


# -- T6-T8: budget, check, profit, payout -------------------------------------------------------------


def final_votes(state: MaybeMoviesState) -> tuple[str | None, ...]:
    """The final vote per seat (None = no vote)."""
    return state.rounds[-1] if state.rounds else (None,) * state.num_players


def made_icons(state: MaybeMoviesState) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """Printed icons of all Movies Made tops; of failed tops; of successful tops (the last two with Trendsetter only)."""
    table = state.table
    every: set[int] = set()
    failed: set[int] = set()
    succeeded: set[int] = set()
    for stack in state.made:
        icons = table.movie(stack.top).printed_icons
        every.update(icons)
        (succeeded if stack.success else failed).update(icons)
    if not state.trendsetter:
        return frozenset(every), frozenset(), frozenset()
    return frozenset(every), frozenset(failed), frozenset(succeeded)


def pitch_facts(state: MaybeMoviesState, row: Sequence[str], votes: Iterable[str | None]) -> PitchFacts:
    """The facts the cost and profit texts read for ``row`` under ``votes`` (R32, R36)."""
    table = state.table
    yes = no = 0
    for card in votes:
        if card is not None:
            kind = table.vote(card).kind
            yes += kind == YES
            no += kind == NO
    every, failed, succeeded = made_icons(state)
    cards = tuple(table.movie(card) for card in row)
    return PitchFacts(cards, yes, no, state.edits, every, failed, succeeded)


def final_vote(state: MaybeMoviesState, events: list[Event]) -> None:
    """The final vote is in: evaluate the costs (T6)."""
    state.cost_choices = []
    state.profit_choices = []
    continue_costs(state, events)


def continue_costs(state: MaybeMoviesState, events: list[Event]) -> None:
    """T6 left to right; stop at the first COST_CHOICE still open (R38), else run the check (T7)."""
    votes = final_votes(state)
    facts = pitch_facts(state, state.row, votes)
    try:
        evaluation = evaluate_costs(facts, Replay(state.cost_choices))
    except NeedChoice as need:
        state.phase = COST_CHOICE
        state.choice_point = need.point
        return
    state.choice_point = None
    state.evaluation = evaluation
    table = state.table
    result = success_check(evaluation.need, evaluation.any_units, net_of([table.vote(card) for card in votes if card is not None]))
    state.result = result
    events.append(
        Event(
            "budget",
            {
                "row": list(state.row),
                "costs": [cost_json(cost) for cost in evaluation.costs],
                "need": list(evaluation.need),
                "any": evaluation.any_units,
            },
        )
    )
    events.append(Event("checked", result.to_json()))
    if result.success:
        continue_profits(state, events)
    else:
        resolve_failure(state, events)
        to_movie_pick(state, events)


def continue_profits(state: MaybeMoviesState, events: list[Event]) -> None:
    """T8 after a success: profits left to right, stopping at an open PROFIT_CHOICE; then the payout."""
    assert state.evaluation is not None
    facts = pitch_facts(state, state.row, final_votes(state))
    try:
        evaluation = evaluate_profits(facts, state.evaluation, Replay(state.profit_choices))
    except NeedChoice as need:
        state.phase = PROFIT_CHOICE
        state.choice_point = need.point
        return
    state.choice_point = None
    state.evaluation = evaluation
    assert evaluation.profits is not None
    events.append(Event("profit", {"profits": list(evaluation.profits), "total": sum(evaluation.profits)}))
    payout(state, sum(evaluation.profits), events)
    to_movie_pick(state, events)


def vote_order(state: MaybeMoviesState) -> list[int]:
    """Seats from the active player clockwise."""
    n = state.num_players
    return [(state.active + offset) % n for offset in range(n)]


def payout(state: MaybeMoviesState, profit: int, events: list[Event]) -> None:
    """§4.5 with the chance events of §4.9: collect P votes, shuffle, share among YES-voters, remainder to the active player."""
    rng = state.rng
    table = state.table
    votes = final_votes(state)
    order = vote_order(state)
    played = [card for card in (votes[seat] for seat in order) if card is not None]
    yes_voters = [seat for seat in order if (card := votes[seat]) is not None and table.vote(card).kind == YES]
    to_pool: list[str] = []
    if profit <= 0:  # R13: nothing collected, L to the pool in L order
        collected: list[str] = []
        to_pool = played
    elif profit <= len(played):
        shuffle(rng, played)
        collected = played[:profit]
        to_pool = played[profit:]
    else:
        collected = played
        extra = min(profit - len(played), len(state.pool))  # R7: pay what exists
        if extra > 0:
            shuffle(rng, state.pool)  # R6: top-ups drawn at random
            collected = collected + state.pool[:extra]
            del state.pool[:extra]
    state.pool.extend(to_pool)
    shuffle(rng, collected)
    shares: list[list[str]] = [[] for _ in range(state.num_players)]
    if yes_voters:
        each = len(collected) // len(yes_voters)
        for index, seat in enumerate(yes_voters):
            shares[seat] = collected[index * each : (index + 1) * each]
        shares[state.active] += collected[len(yes_voters) * each :]  # the remainder, whatever the active player voted
    else:
        shares[state.active] = list(collected)  # R12
    for seat, cards in enumerate(shares):
        state.won[seat].extend(cards)
    state.settlement = Settlement(True, profit, tuple(collected), tuple(tuple(cards) for cards in shares), tuple(to_pool))
    events.append(
        Event("payout", {"profit": profit, "collected": list(collected), "won": [list(cards) for cards in shares], "to_pool": to_pool})
    )


def resolve_failure(state: MaybeMoviesState, events: list[Event]) -> None:
    """§4.6: NO-voters win their own card and YES cards go to the pool; if every vote was NO, all go to the pool (R14)."""
    table = state.table
    votes = final_votes(state)
    played = [(seat, votes[seat]) for seat in vote_order(state) if votes[seat] is not None]
    any_yes = any(table.vote(card).kind == YES for _, card in played)  # type: ignore[arg-type]
    shares: list[list[str]] = [[] for _ in range(state.num_players)]
    to_pool: list[str] = []
    for seat, card in played:
        assert card is not None
        if any_yes and table.vote(card).kind == NO:
            state.won[seat].append(card)
            shares[seat].append(card)
        else:
            to_pool.append(card)
    state.pool.extend(to_pool)
    state.settlement = Settlement(False, None, (), tuple(tuple(cards) for cards in shares), tuple(to_pool), all_no=not any_yes)
    events.append(Event("failed", {"all_no": not any_yes, "won": [list(cards) for cards in shares], "to_pool": to_pool}))


# -- T9-T10 ------------------------------------------------------------------------------------------


def to_movie_pick(state: MaybeMoviesState, events: list[Event]) -> None:
    """T9: a success (or any pitch with Trendsetter) needs a MOVIE_PICK; a base failure discards the row."""
    assert state.result is not None
    if state.trendsetter or state.result.success:
        state.phase = MOVIE_PICK
        return
    state.discard.extend(state.row)
    events.append(Event("discarded", {"cards": list(state.row)}))
    end_turn(state, None, events)


def pick_movie(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Base: the card joins Movies Made and the rest is discarded in row order (R15). Trendsetter: the row becomes a stack (§6.1)."""
    assert state.result is not None
    success = state.result.success
    if state.trendsetter:
        state.made.append(Stack(tuple(state.row), card, success))
        events.append(Event("stack_made", {"seat": state.active, "top": card, "cards": list(state.row), "success": success}))
    else:
        state.made.append(Stack((card,), card, True))
        rest = [other for other in state.row if other != card]
        state.discard.extend(rest)
        events.append(Event("movie_made", {"seat": state.active, "card": card, "discarded": rest}))
    end_turn(state, card, events)


def end_turn(state: MaybeMoviesState, movie: str | None, events: list[Event]) -> None:
    """Record the turn; T10: the game ends when every hand is empty, else the next seat clockwise is active."""
    assert state.evaluation is not None and state.result is not None and state.settlement is not None
    state.history.append(
        TurnRecord(
            turn=state.turn,
            active=state.active,
            pitched=state.pitched,
            rounds=tuple(state.rounds),
            changes=tuple(state.change_records),
            row=tuple(state.row),
            edits=state.edits,
            cost_choices=tuple(state.cost_choices),
            profit_choices=tuple(state.profit_choices),
            evaluation=state.evaluation,
            check=state.result,
            settlement=state.settlement,
            movie=movie,
        )
    )
    state.row = []
    state.pitched = ()
    state.rounds = []
    state.change_records = []
    state.edits = 0
    state.cost_choices = []
    state.profit_choices = []
    state.evaluation = None
    state.result = None
    state.settlement = None
    state.choice_point = None
    if not any(state.hands):
        game_over(state, events)
        return
    state.active = (state.active + 1) % state.num_players
    state.turn += 1
    start_turn(state, events)


def game_over(state: MaybeMoviesState, events: list[Event]) -> None:
    """§5: the game is over; score it."""
    state.phase = OVER
    result = outcome(state)
    events.append(Event("game_over", {"scores": list(result.scores), "winners": list(result.winners)}))


# -- decisions and legal actions -------------------------------------------------------------------------

PROMPTS = {
    PITCH: "Pitch a movie: add market cards to the row, then finish.",
    VOTE: "Vote: choose a secret card from your hand.",
    CHANGE_EDIT: "CHANGE: edit the pitch (remove a row card and/or add one of your personal cards).",
    COST_CHOICE: "Decide a tie in a blockbuster cost text.",
    PROFIT_CHOICE: "Decide a blockbuster profit text.",
    MOVIE_PICK: "Pick the card for Movies Made.",
}
EDIT_PROMPTS = {
    EDIT_START: "CHANGE: remove a row card, or add one of your personal cards.",
    EDIT_ADD: "CHANGE: add one of your personal cards, or finish the edit.",
    EDIT_SLOT: "CHANGE: choose the slot for the added card (0 = leftmost).",
}


def actor(state: MaybeMoviesState) -> int | None:
    """The seat that owes the current sequential decision (None during votes and at the end)."""
    phase = state.phase
    if phase in (VOTE, OVER):
        return None
    if phase == CHANGE_EDIT:
        return state.change_queue[0][0]
    return state.active


#: Decisions are immutable and few, so each distinct one is built once and shared.
_DECISIONS: dict[tuple[Any, ...], Decision] = {}


def decision(state: MaybeMoviesState) -> Decision:
    """What the game waits for now."""
    phase = state.phase
    if phase == OVER:
        return GAME_OVER
    if phase == VOTE:
        votes = state.votes
        committed = 0
        for seat in state.voters:
            if votes[seat] is not None:
                committed |= 1 << seat
        key: tuple[Any, ...] = (VOTE, state.voters, committed)
    elif phase == CHANGE_EDIT:
        key = (CHANGE_EDIT, state.change_queue[0][0], state.edit_step)
    else:
        key = (phase, state.active, state.trendsetter)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS[key] = _make_decision(key)
    return found


def _make_decision(key: tuple[Any, ...]) -> Decision:
    phase = key[0]
    if phase == VOTE:
        voters, mask = key[1], key[2]
        waiting = tuple(seat for seat in voters if not mask >> seat & 1)
        committed = tuple(seat for seat in voters if mask >> seat & 1)
        return Decision(players=waiting, kind=VOTE, simultaneous=True, committed=committed, prompt=PROMPTS[VOTE])
    if phase == CHANGE_EDIT:
        return Decision(players=(key[1],), kind=CHANGE_EDIT, prompt=EDIT_PROMPTS[key[2]])
    if phase == MOVIE_PICK and key[2]:
        return Decision(players=(key[1],), kind=MOVIE_PICK, prompt="Pick the top card of this movie's stack.")
    return Decision(players=(key[1],), kind=phase, prompt=PROMPTS[phase])


def sequential_actions(state: MaybeMoviesState) -> list[Action]:
    """The legal actions of the seat owing the current sequential decision."""
    phase = state.phase
    if phase == PITCH:
        return pitch_actions(state)
    if phase == CHANGE_EDIT:
        return edit_actions(state)
    if phase == MOVIE_PICK:
        return [_pick(card) for card in state.row]
    if phase in (COST_CHOICE, PROFIT_CHOICE):
        point = state.choice_point
        assert point is not None
        if point.kind == "copy":
            return [_copy(card) for card in point.options]
        if point.kind == "icon":
            return [_icon(ICONS[icon]) for icon in point.options]
        return [_profit(amount) for amount in point.options]
    return []


def legal_actions(state: MaybeMoviesState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; empty if it owes none."""
    phase = state.phase
    if phase == VOTE:
        if state.votes[seat] is None and seat in state.voters:
            return list(map(_vote, state.hands[seat]))
        return []
    if phase == OVER or seat != actor(state):
        return []
    return sequential_actions(state)


def why_illegal(state: MaybeMoviesState, seat: int, action: Action, name: Callable[[str], str] = str) -> str:
    """Explain a refused action in the words of the rules; ``name`` says a card (its code by default)."""
    phase = state.phase
    if isinstance(action, Vote):
        if phase != VOTE:
            return "votes are cast after the pitch is finished"
        if action.card not in state.hands[seat]:
            return f"{name(action.card)} is not in your hand"
    if isinstance(action, Add):
        if phase == PITCH:
            if action.card in state.row:
                return f"{name(action.card)} is already in the pitch"
            if action.card not in state.market:
                return f"{name(action.card)} is not in the market; a pitch uses market cards only (R4)"
            return (
                "without Blockbuster Budgets the row keeps market order, so add cards left to right "
                f"(after {name(state.row[-1])} only cards to its right in the market)"
            )
        if phase == CHANGE_EDIT:
            if state.edit_step == EDIT_SLOT:
                return "choose the slot for the card you added first"
            return f"{name(action.card)} is not one of your personal movie cards"
        return "cards are added to the row while pitching or in a CHANGE edit"
    if isinstance(action, Finish):
        if phase == PITCH:
            return "a pitch needs at least 1 card"
        if phase == CHANGE_EDIT:
            if state.edit_step == EDIT_START:
                return "a CHANGE edit must remove or add a card; it cannot be skipped"
            return "the row must keep at least 1 card: add one of your personal cards"
        return "there is nothing to finish now"
    if isinstance(action, Remove):
        if phase != CHANGE_EDIT:
            return "row cards are removed only in a CHANGE edit"
        if state.edit_step != EDIT_START:
            return "an edit removes at most one card, before adding"
        if action.card not in state.row:
            return f"{name(action.card)} is not in the row"
        return "removing the only row card needs a personal card to add in its place"
    if isinstance(action, Slot):
        if phase != CHANGE_EDIT or state.edit_step != EDIT_SLOT:
            return "a slot is chosen only after adding a card in a CHANGE edit with Blockbuster Budgets"
        return f"the slot must be from 0 to {len(state.row)}"
    if isinstance(action, (Copy, Icon, Profit)):
        if state.choice_point is None:
            return "there is no blockbuster text to decide now"
        return f"choose one of: {', '.join(str(option) for option in sequential_actions(state))}"
    if isinstance(action, Pick):
        if phase != MOVIE_PICK:
            return "a card is picked for Movies Made only at the end of a turn"
        return f"{name(action.card)} is not in this movie's row"
    return f"'{action}' is not a legal action now"


# -- applying actions -------------------------------------------------------------------------------------


def apply(state: MaybeMoviesState, seat: int, action: Action) -> list[Event]:
    """Apply a legal action, then every automatic step that follows."""
    events: list[Event] = []
    if state.phase == VOTE:
        assert isinstance(action, Vote)
        commit_vote(state, seat, action.card, events)
    else:
        apply_sequential(state, action, events)
    settle(state, events)
    return events


def apply_sequential(state: MaybeMoviesState, action: Action, events: list[Event]) -> None:
    """One step of the current sequential decision."""
    phase = state.phase
    if phase == PITCH:
        if isinstance(action, Add):
            add_to_pitch(state, action.card, events)
        else:
            finish_pitch(state, events)
    elif phase == CHANGE_EDIT:
        if isinstance(action, Remove):
            edit_remove(state, action.card, events)
        elif isinstance(action, Add):
            edit_add(state, action.card, events)
        elif isinstance(action, Slot):
            complete_edit(state, action.index, events)
        else:
            complete_edit(state, None, events)
    elif phase == COST_CHOICE:
        choice: Any = action.card if isinstance(action, Copy) else ICON_INDEX[action.icon]  # type: ignore[attr-defined]
        _record_choice(state, "cost_choice", choice, events)
        state.cost_choices.append(choice)
        continue_costs(state, events)
    elif phase == PROFIT_CHOICE:
        assert isinstance(action, Profit)
        _record_choice(state, "profit_choice", action.amount, events)
        state.profit_choices.append(action.amount)
        continue_profits(state, events)
    elif phase == MOVIE_PICK:
        assert isinstance(action, Pick)
        pick_movie(state, action.card, events)


def _record_choice(state: MaybeMoviesState, kind: str, choice: Any, events: list[Event]) -> None:
    point = state.choice_point
    assert point is not None
    shown = ICONS[choice] if point.kind == "icon" else choice
    events.append(Event(kind, {"seat": state.active, "card": point.card, "kind": point.kind, "choice": shown}))


def settle(state: MaybeMoviesState, events: list[Event]) -> None:
    """Run every automatic step: single-card votes, the reveal, and decisions with exactly one legal option (§4.0)."""
    while True:
        phase = state.phase
        if phase == OVER:
            return
        if phase == VOTE:
            for seat in waiting_voters(state):
                hand = state.hands[seat]
                if len(hand) == 1:
                    commit_vote(state, seat, hand[0], events, automatic=True)
            if waiting_voters(state):
                return
            reveal(state, events)
            continue
        options = sequential_actions(state)
        if len(options) != 1:
            return
        apply_sequential(state, options[0], events)


# -- scoring (§5.2) --------------------------------------------------------------------------------------


def icon_counts(state: MaybeMoviesState) -> list[int]:
    """MM[i]: how often icon i appears among the printed icons of Movies Made (stack tops with Trendsetter, R23, R37)."""
    counts = [0] * NUM_ICONS
    table = state.table
    for stack in state.made:
        for icon in table.movie(stack.top).printed_icons:
            counts[icon] += 1
    return counts


def score_breakdown(state: MaybeMoviesState, seat: int, counts: Sequence[int] | None = None) -> dict[str, Any]:
    """The number of won cards and the points per icon (won cards of that icon x MM[icon]; R11). The score is their sum."""
    counts = counts if counts is not None else icon_counts(state)
    table = state.table
    cards_by_icon = [0] * NUM_ICONS
    for card in state.won[seat]:
        cards_by_icon[table.vote(card).icon] += 1
    points = [cards_by_icon[i] * counts[i] for i in range(NUM_ICONS)]
    return {"won_cards": len(state.won[seat]), **{ICONS[i]: points[i] for i in range(NUM_ICONS)}}


def scores(state: MaybeMoviesState) -> list[int]:
    """Current score of every seat (public: Movies Made and won areas are face up)."""
    counts = icon_counts(state)
    table = state.table
    return [sum(counts[table.vote(card).icon] for card in cards) for cards in state.won]


def outcome(state: MaybeMoviesState) -> Outcome:
    """Scores, competition ranking, and shared wins on ties (R18)."""
    counts = icon_counts(state)
    breakdowns = [score_breakdown(state, seat, counts) for seat in range(state.num_players)]
    points = [sum(item[icon] for icon in ICONS) for item in breakdowns]
    return outcome_from_keys(points, [(score,) for score in points], breakdowns)
