"""Maybe Movies after the final vote (T6-T8): budget, the success check, profit, payout or failure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Any

from greenlight.core.events import Event
from greenlight.games.maybe_movies import turn
from greenlight.games.maybe_movies.budget import (
    ChoicePoint,
    Cost,
    NeedChoice,
    PitchFacts,
    Replay,
    cost_json,
    evaluate_costs,
    evaluate_profits,
    net_of,
    success_check,
)
from greenlight.games.maybe_movies.cards import NO, YES, VoteCard
from greenlight.games.maybe_movies.chance import shuffle
from greenlight.games.maybe_movies.events import Budget, Failed, Payout, Profits
from greenlight.games.maybe_movies.observation import CostView
from greenlight.games.maybe_movies.state import COST_CHOICE, PROFIT_CHOICE, MaybeMoviesState, Settlement

#: Builds a named tuple from all its fields in order: what calling the class does, without its keyword handling (half
#: the cost; the rules build these records at every final vote).
_new_record = tuple.__new__


def final_votes(state: MaybeMoviesState) -> tuple[str | None, ...]:
    """The final vote per seat (None = no vote)."""
    return state.rounds[-1] if state.rounds else (None,) * state.num_players


def made_icons(state: MaybeMoviesState) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """Printed icons of all Movies Made tops; of failed tops; of successful tops (the last two with Trendsetter only)."""
    movie_cards = state.table.movie_cards
    every: set[int] = set()
    if not state.trendsetter:
        for stack in state.made:
            every.update(movie_cards[stack.top].printed_icons)
        return frozenset(every), _NO_ICONS, _NO_ICONS
    failed: set[int] = set()
    succeeded: set[int] = set()
    for stack in state.made:
        icons = movie_cards[stack.top].printed_icons
        every.update(icons)
        (succeeded if stack.success else failed).update(icons)
    return frozenset(every), frozenset(failed), frozenset(succeeded)


_NO_ICONS: frozenset[int] = frozenset()


def pitch_facts(state: MaybeMoviesState, row: Sequence[str], votes: Iterable[str | None]) -> PitchFacts:
    """The facts the cost and profit texts read for ``row`` under ``votes`` (R32, R36)."""
    return _facts(state, row, _cast(state, votes), made_icons(state))


def _cast(state: MaybeMoviesState, votes: Iterable[str | None]) -> list[VoteCard]:
    """The cards of the votes cast."""
    hand_cards = state.table.hand_cards
    return [hand_cards[card] for card in votes if card is not None]


def _facts(
    state: MaybeMoviesState,
    row: Sequence[str],
    cast: Sequence[VoteCard],
    icons: tuple[frozenset[int], frozenset[int], frozenset[int]],
) -> PitchFacts:
    movie_cards = state.table.movie_cards
    kinds = list(map(_kind, cast))
    every, failed, succeeded = icons
    cards = tuple([movie_cards[card] for card in row])
    return _new_record(PitchFacts, (cards, kinds.count(YES), kinds.count(NO), state.edits, every, failed, succeeded))


_kind = attrgetter("kind")


def _evaluation_facts(state: MaybeMoviesState, cast: Sequence[VoteCard], texts: bool) -> PitchFacts:
    """:func:`pitch_facts` of the final row for the evaluation, which reads the Movies Made icons only through
    blockbuster texts (``texts``: the row holds one) and Trendsetter doubling: without either they are left
    empty (the facts go nowhere else)."""
    return _facts(state, state.row, cast, made_icons(state) if texts or state.trendsetter else _NO_MADE_ICONS)


_NO_MADE_ICONS = (_NO_ICONS, _NO_ICONS, _NO_ICONS)


def _no_choice(point: ChoicePoint) -> Any:
    """The chooser of a row without blockbusters, where nothing is ever chosen."""
    raise AssertionError(f"a row without blockbusters asked for a choice: {point}")


def final_vote(state: MaybeMoviesState, events: list[Event]) -> None:
    """The final vote is in: evaluate the costs (T6)."""
    state.cost_choices = []
    state.profit_choices = []
    continue_costs(state, events)


def continue_costs(state: MaybeMoviesState, events: list[Event]) -> None:
    """T6 left to right; stop at the first COST_CHOICE still open (R38), else run the check (T7)."""
    cast = _cast(state, final_votes(state))
    texts = not state.table.text_ids.isdisjoint(state.row)  # a blockbuster's texts may read more, and ask for choices
    facts = _evaluation_facts(state, cast, texts)
    try:
        evaluation = evaluate_costs(facts, Replay(state.cost_choices) if texts else _no_choice)
    except NeedChoice as need:
        state.phase = COST_CHOICE
        state.choice_point = need.point
        return
    state.choice_point = None
    state.evaluation = evaluation
    result = success_check(evaluation.need, evaluation.any_units, net_of(cast))
    state.result = result
    # Event data as dict displays: a TypedDict called like a class builds the same dict several times slower.
    budget: Budget = {
        "row": list(state.row),
        "costs": [_COST_VIEWS.get(cost) or _cost_view(cost) for cost in evaluation.costs],
        "need": list(evaluation.need),
        "any": evaluation.any_units,
    }
    events.append(Event("budget", budget))
    events.append(Event("checked", result.to_json()))
    if result.success:
        continue_profits(state, events, facts)
    else:
        resolve_failure(state, events)
        turn.to_movie_pick(state, events)


#: The cost views of the budget event, one per distinct cost (event data is immutable, so they are shared).
_COST_VIEWS: dict[Cost, CostView] = {}


def _cost_view(cost: Cost) -> CostView:
    view = _COST_VIEWS[cost] = cost_json(cost)
    return view


def continue_profits(state: MaybeMoviesState, events: list[Event], facts: PitchFacts | None = None) -> None:
    """T8 after a success: profits left to right, stopping at an open PROFIT_CHOICE; then the payout.

    ``facts`` are those the costs were evaluated with, if the caller has them (they have not changed since).
    """
    assert state.evaluation is not None
    texts = not state.table.text_ids.isdisjoint(state.row)  # as in continue_costs
    if facts is None:
        facts = _evaluation_facts(state, _cast(state, final_votes(state)), texts)
    try:
        evaluation = evaluate_profits(facts, state.evaluation, Replay(state.profit_choices) if texts else _no_choice)
    except NeedChoice as need:
        state.phase = PROFIT_CHOICE
        state.choice_point = need.point
        return
    state.choice_point = None
    state.evaluation = evaluation
    assert evaluation.profits is not None
    total = sum(evaluation.profits)
    profits: Profits = {"profits": list(evaluation.profits), "total": total}
    events.append(Event("profit", profits))
    payout(state, total, events)
    turn.to_movie_pick(state, events)


def vote_order(state: MaybeMoviesState) -> list[int]:
    """Seats from the active player clockwise."""
    active = state.active
    return [*range(active, state.num_players), *range(active)]


def payout(state: MaybeMoviesState, profit: int, events: list[Event]) -> None:
    """§4.5 with the chance events of §4.9: collect P votes, shuffle, share among YES-voters, remainder to the active player."""
    rng = state.rng
    hand_cards = state.table.hand_cards
    votes = final_votes(state)
    played: list[str] = []
    yes_voters: list[int] = []
    for seat in vote_order(state):
        card = votes[seat]
        if card is not None:
            played.append(card)
            if hand_cards[card].kind == YES:
                yes_voters.append(seat)
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
    won = tuple([tuple(cards) for cards in shares])
    state.settlement = _new_record(Settlement, (True, profit, tuple(collected), won, tuple(to_pool), False))
    paid: Payout = {"profit": profit, "collected": list(collected), "won": [list(cards) for cards in shares], "to_pool": to_pool}
    events.append(Event("payout", paid))


def resolve_failure(state: MaybeMoviesState, events: list[Event]) -> None:
    """§4.6: NO-voters win their own card and YES cards go to the pool; if every vote was NO, all go to the pool (R14)."""
    hand_cards = state.table.hand_cards
    votes = final_votes(state)
    played = [(seat, card) for seat in vote_order(state) if (card := votes[seat]) is not None]
    kinds = [hand_cards[card].kind for _, card in played]
    any_yes = YES in kinds
    shares: list[list[str]] = [[] for _ in range(state.num_players)]
    to_pool: list[str] = []
    for (seat, card), kind in zip(played, kinds, strict=True):
        if any_yes and kind == NO:
            state.won[seat].append(card)
            shares[seat].append(card)
        else:
            to_pool.append(card)
    state.pool.extend(to_pool)
    state.settlement = _new_record(Settlement, (False, None, (), tuple([tuple(cards) for cards in shares]), tuple(to_pool), not any_yes))
    failed: Failed = {"all_no": not any_yes, "won": [list(cards) for cards in shares], "to_pool": to_pool}
    events.append(Event("failed", failed))
