"""Maybe Movies rules: decisions, legal actions, refusals and applying an action (the game's ``GameRules``).

The rules have one room per part of the game: ``setup`` (§3), ``turn`` (draws,
the pitch and the end of the turn), ``vote`` (votes and CHANGE rounds),
``resolution`` (budget, check, profit, payout) and ``scoring`` (§5.2); this
module holds the decisions and re-exports what callers read through it.

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

from collections.abc import Callable
from operator import is_
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.games.maybe_movies import resolution, turn, vote
from greenlight.games.maybe_movies.actions import (
    Add,
    Copy,
    Finish,
    Icon,
    Pick,
    Profit,
    Remove,
    Slot,
    Vote,
    copy_card,
    icon_named,
    pick_card,
    profit_of,
    vote_with,
)
from greenlight.games.maybe_movies.budget import ChoicePoint
from greenlight.games.maybe_movies.cards import ICON_INDEX, ICONS
from greenlight.games.maybe_movies.events import CostChoice, ProfitChoice
from greenlight.games.maybe_movies.resolution import final_votes as final_votes
from greenlight.games.maybe_movies.resolution import made_icons as made_icons
from greenlight.games.maybe_movies.resolution import pitch_facts as pitch_facts
from greenlight.games.maybe_movies.resolution import vote_order as vote_order
from greenlight.games.maybe_movies.scoring import final_breakdowns as final_breakdowns
from greenlight.games.maybe_movies.scoring import icon_counts as icon_counts
from greenlight.games.maybe_movies.scoring import outcome as outcome
from greenlight.games.maybe_movies.scoring import rank_breakdowns as rank_breakdowns
from greenlight.games.maybe_movies.scoring import score_breakdown as score_breakdown
from greenlight.games.maybe_movies.scoring import scores as scores
from greenlight.games.maybe_movies.setup import HAND_SIZE as HAND_SIZE
from greenlight.games.maybe_movies.setup import MARKET_SIZE as MARKET_SIZE
from greenlight.games.maybe_movies.setup import PERSONAL_SIZE as PERSONAL_SIZE
from greenlight.games.maybe_movies.setup import position as position

# The rules' other rooms; their names that callers read through ``rules`` are re-exported here.
from greenlight.games.maybe_movies.setup import setup as setup
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
    MaybeMoviesState,
)

PROMPTS = {
    PITCH: "Pitch a movie: add market cards to the row from left to right (a card you pass over cannot join later), then finish.",
    VOTE: "Vote: choose a secret card from your hand.",
    CHANGE_EDIT: "CHANGE: edit the pitch (remove a row card and/or add one of your personal cards).",
    COST_CHOICE: "Decide a tie in a blockbuster cost text.",
    PROFIT_CHOICE: "Decide a blockbuster profit text.",
    MOVIE_PICK: "Pick the card for Movies Made.",
}


EDIT_PROMPTS = {
    EDIT_START: "CHANGE: remove a row card, or add one of your personal cards.",
    EDIT_ADD: "CHANGE: add one of your personal cards, or finish the edit.",
    EDIT_SLOT: "CHANGE: choose where in the pitch the added card goes (its place matters for blockbuster texts).",
}


def actor(state: MaybeMoviesState) -> int | None:
    """The seat that owes the current sequential decision (None during votes and at the end)."""
    phase = state.phase
    if phase in (VOTE, OVER):
        return None
    if phase == CHANGE_EDIT:
        return state.change_queue[0][0]
    return state.active


#: Decisions are immutable and few, so each distinct one is built once and shared: sequential ones by
#: (phase, seat, detail), votes by the voters and, per seat, whether its vote is still missing.
_DECISIONS: dict[tuple[Any, ...], Decision] = {}
_VOTE_DECISIONS: dict[tuple[int, ...], dict[tuple[bool, ...], Decision]] = {}
_NO_VOTES = (None,) * 6  # one per seat at the largest table


def decision(state: MaybeMoviesState) -> Decision:
    """What the game waits for now."""
    phase = state.phase
    if phase == VOTE:
        voters = state.voters
        by_missing = _VOTE_DECISIONS.get(voters)
        if by_missing is None:
            by_missing = _VOTE_DECISIONS[voters] = {}
        missing = tuple(map(is_, state.votes, _NO_VOTES))
        found = by_missing.get(missing)
        if found is None:
            found = by_missing[missing] = _vote_decision(voters, missing)
        return found
    if phase == PITCH:
        return (_BLOCKBUSTER_PITCH_DECISIONS if state.blockbuster else _PITCH_DECISIONS)[state.active]
    if phase == OVER:
        return GAME_OVER
    if phase == CHANGE_EDIT:
        key: tuple[Any, ...] = (CHANGE_EDIT, state.change_queue[0][0], state.edit_step)
    else:
        key = (phase, state.active, state.trendsetter)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS[key] = _make_decision(key)
    return found


def _vote_decision(voters: tuple[int, ...], missing: tuple[bool, ...]) -> Decision:
    waiting = tuple(seat for seat in voters if missing[seat])
    committed = tuple(seat for seat in voters if not missing[seat])
    return Decision(players=waiting, kind=VOTE, simultaneous=True, committed=committed, prompt=PROMPTS[VOTE])


def _make_decision(key: tuple[Any, ...]) -> Decision:
    phase = key[0]
    if phase == CHANGE_EDIT:
        return Decision(players=(key[1],), kind=CHANGE_EDIT, prompt=EDIT_PROMPTS[key[2]])
    if phase == MOVIE_PICK and key[2]:
        return Decision(players=(key[1],), kind=MOVIE_PICK, prompt="Pick the top card of this movie's stack.")
    return Decision(players=(key[1],), kind=phase, prompt=PROMPTS[phase])


#: The pitch decision of each seat (the most frequent sequential decision).
_PITCH_DECISIONS = tuple(_make_decision((PITCH, seat, False)) for seat in range(6))
#: With Blockbuster Budgets the pitch is an ordered sequence: any market card may come next (§4.1).
_BLOCKBUSTER_PITCH_DECISIONS = tuple(
    Decision(players=(seat,), kind=PITCH, prompt="Pitch a movie: add market cards to the row in the order they are read, then finish.")
    for seat in range(6)
)


def sequential_actions(state: MaybeMoviesState) -> list[Action]:
    """The legal actions of the seat owing the current sequential decision."""
    phase = state.phase
    if phase == PITCH:
        return turn.pitch_actions(state)
    if phase == CHANGE_EDIT:
        return vote.edit_actions(state)
    if phase == MOVIE_PICK:
        return [pick_card(card) for card in state.row]
    if phase in (COST_CHOICE, PROFIT_CHOICE):
        point = state.choice_point
        assert point is not None
        if point.kind == "copy":
            return [copy_card(card) for card in point.options]
        if point.kind == "icon":
            return [icon_named(ICONS[icon]) for icon in point.options]
        return [profit_of(amount) for amount in point.options]
    return []


def legal_actions(state: MaybeMoviesState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; empty if it owes none."""
    phase = state.phase
    if phase == VOTE:
        if state.votes[seat] is None and seat in state.voters:
            return list(map(vote_with, state.hands[seat]))
        return []
    if phase == PITCH:
        return turn.pitch_actions(state) if seat == state.active else []
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
            if state.edit_step == EDIT_SLOT:
                return "choose the slot for the card you added first"
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


def apply(state: MaybeMoviesState, seat: int, action: Action) -> list[Event]:
    """Apply a legal action, then every automatic step that follows."""
    events: list[Event] = []
    if state.phase == VOTE:
        assert isinstance(action, Vote)
        vote.commit_vote(state, seat, action.card, events)
    else:
        apply_sequential(state, action, events)
    settle(state, events)
    return events


def apply_sequential(state: MaybeMoviesState, action: Action, events: list[Event]) -> None:
    """One step of the current sequential decision."""
    phase = state.phase
    if phase == PITCH:
        if isinstance(action, Add):
            turn.add_to_pitch(state, action.card, events)
        else:
            turn.finish_pitch(state, events)
    elif phase == CHANGE_EDIT:
        if isinstance(action, Remove):
            vote.edit_remove(state, action.card, events)
        elif isinstance(action, Add):
            vote.edit_add(state, action.card, events)
        elif isinstance(action, Slot):
            vote.complete_edit(state, action.index, events)
        else:
            vote.complete_edit(state, None, events)
    elif phase == COST_CHOICE:
        choice: str | int = action.card if isinstance(action, Copy) else ICON_INDEX[action.icon]  # type: ignore[attr-defined]
        _record_cost_choice(state, choice, events)
        state.cost_choices.append(choice)
        resolution.continue_costs(state, events)
    elif phase == PROFIT_CHOICE:
        assert isinstance(action, Profit)
        point = _open_choice(state)
        events.append(Event("profit_choice", ProfitChoice(seat=state.active, card=point.card, kind=point.kind, choice=action.amount)))
        state.profit_choices.append(action.amount)
        resolution.continue_profits(state, events)
    elif phase == MOVIE_PICK:
        assert isinstance(action, Pick)
        turn.pick_movie(state, action.card, events)


def _open_choice(state: MaybeMoviesState) -> ChoicePoint:
    point = state.choice_point
    assert point is not None, "a cost or profit choice is open"
    return point


def _record_cost_choice(state: MaybeMoviesState, choice: str | int, events: list[Event]) -> None:
    """The event of a cost choice: the card copied, or the icon (recorded by its index) by name."""
    point = _open_choice(state)
    shown: str
    if point.kind == "icon":
        assert isinstance(choice, int), "an icon choice is recorded by the icon's index"
        shown = ICONS[choice]
    else:
        assert isinstance(choice, str), "a copy choice is the id of the card copied"
        shown = choice
    events.append(Event("cost_choice", CostChoice(seat=state.active, card=point.card, kind=point.kind, choice=shown)))


def settle(state: MaybeMoviesState, events: list[Event]) -> None:
    """Run every automatic step: single-card votes, the reveal, and decisions with exactly one legal option (§4.0)."""
    while True:
        phase = state.phase
        if phase == VOTE:
            # Seats without a vote are the non-voters and the voters still to choose.
            if state.votes.count(None) > state.num_players - len(state.voters):
                hands = state.hands
                if 1 not in map(len, hands):  # nobody holds a last card, which would vote by itself
                    return
                for seat in decision(state).players:
                    hand = hands[seat]
                    if len(hand) == 1:
                        vote.commit_vote(state, seat, hand[0], events, automatic=True)
                if decision(state).players:
                    return
            vote.reveal(state, events)
        elif phase == PITCH:
            # Most steps are pitch steps: count the options instead of building them (turn.pitch_actions).
            if turn.pitch_option_count(state) != 1:
                return
            apply_sequential(state, turn.pitch_actions(state)[0], events)
        elif phase == OVER:
            return
        else:
            options = sequential_actions(state)
            if len(options) != 1:
                return
            apply_sequential(state, options[0], events)
