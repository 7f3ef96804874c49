"""What each seat may see (rules §8) and its secrets (``determinization`` redraws the hidden part, ``text`` draws the terminal).

Observations name cards by id and carry a ``cards`` table with the details of
every card they mention, so a client needs no catalogue (the catalogue itself
is not sent: listing every id would name the cards hidden in other hands).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import cast

from greenlight.core.decision import Decision
from greenlight.core.views import observation_header
from greenlight.games.maybe_movies import determinization, preview, rules
from greenlight.games.maybe_movies.budget import ChoicePoint, Evaluation, cost_json, cost_of_icons, double, icon_counts_json
from greenlight.games.maybe_movies.cards import CHANGE, ICONS, NUM_ICONS
from greenlight.games.maybe_movies.observation import (
    CardDetails,
    CardFace,
    ChangeView,
    ChoiceView,
    DecisionView,
    EditView,
    EvaluationCard,
    EvaluationView,
    FinalPart,
    MaybeMoviesObservation,
    PitchCard,
    PitchPreview,
    SeatPart,
    SettlementView,
    StackView,
    TurnView,
    UnseenChange,
    UnseenVote,
)
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    OVER,
    ChangeRecord,
    MaybeMoviesState,
    Settlement,
    Stack,
    TurnRecord,
)
from greenlight.games.maybe_movies.words import catalogue_words, check_sentences, score_words

# -- observation -------------------------------------------------------------------------------


def observe(state: MaybeMoviesState, viewer: int | None) -> MaybeMoviesObservation:
    """The JSON-ready view of ``viewer`` (None = spectator): its hand and everything public, nothing else."""
    n = state.num_players
    decision = rules.decision(state)
    return {
        **observation_header("maybe-movies", viewer, n, state.options),
        "icons": list(ICONS),
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "decision": _decision_json(decision),
        "hand_sizes": [len(hand) for hand in state.hands],
        "known_in_hand": [list(cards) for cards in state.known],
        "market": list(state.market),
        "row": list(state.row),
        "pitch": pitch_preview(state),
        "preview": preview.preview(state, viewer),
        "pool": list(state.pool),
        "won": [list(cards) for cards in state.won],
        "movies_made": [_stack_json(stack) for stack in state.made],
        "movies_made_icons": icon_counts_json(rules.icon_counts(state)),
        "personal": [list(cards) for cards in state.personal],
        "draw_pile_size": len(state.draw_pile),
        "draw_pile_cards": sorted(state.draw_pile),
        "unseen_in_hands": unseen_in_hands(state, viewer),
        "discard": list(state.discard),
        "out_of_play": list(state.out_of_play),
        "voters": list(state.voters),
        "committed": [seat for seat in state.voters if state.votes[seat] is not None],
        "reveals": [list(votes) for votes in state.rounds],
        "changes": [_change_json(record) for record in state.change_records],
        "change_queue": [[seat, card] for seat, card in state.change_queue],
        "edit": _edit_json(state),
        "K": state.edits,
        "choice": _choice_json(state.choice_point),
        "cost_choices": [_choice_value(value) for value in state.cost_choices],
        "profit_choices": list(state.profit_choices),
        "evaluation": _evaluation_json(state.evaluation, state.row) if state.evaluation is not None else None,
        "check": state.result.to_json() if state.result is not None else None,
        "check_words": check_sentences(state.result.to_json()) if state.result is not None else None,
        "settlement": _settlement_json(state.settlement) if state.settlement is not None else None,
        "history": [_turn_json(record) for record in state.history],
        "scores": rules.scores(state),
        **_seat_part(state, viewer),
        **_final_part(state),
        "cards": card_details(state, viewer),
    }


def _decision_json(decision: Decision) -> DecisionView:
    # ``Decision.to_json`` is the engine's (its value types are not declared); the harness checks it against DecisionView.
    return cast(DecisionView, decision.to_json())


def _seat_part(state: MaybeMoviesState, viewer: int | None) -> SeatPart:
    """A seat's own hand and secret vote (nothing for a spectator)."""
    if viewer is None:
        return {}
    return {"hand": list(state.hands[viewer]), "my_vote": state.votes[viewer]}


def _final_part(state: MaybeMoviesState) -> FinalPart:
    """The final scores once the game is over (nothing before)."""
    if state.phase != OVER:
        return {}
    breakdowns = rules.final_breakdowns(state)
    result = rules.rank_breakdowns(breakdowns)
    made = rules.icon_counts(state)
    hand_cards = state.table.hand_cards
    won_by_icon = [[sum(1 for card in won if hand_cards[card].icon == icon) for icon in range(NUM_ICONS)] for won in state.won]
    return {
        "final": {
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "winners": list(result.winners),
            "breakdown": breakdowns,
            "words": [score_words(counts, made) for counts in won_by_icon],
        }
    }


def unseen_in_hands(state: MaybeMoviesState, viewer: int | None) -> list[UnseenVote | UnseenChange]:
    """What the hand cards hidden from ``viewer`` are, without saying who holds which or naming them.

    The catalogue is public like a printed deck list (§8), so every seat knows
    the cards it cannot see; ids are left out because they would name the
    cards in other hands. Entries are card details with a ``count``, sorted.
    """
    table = state.table
    counts: dict[tuple[tuple[str, object], ...], int] = {}
    entries: dict[tuple[tuple[str, object], ...], CardFace] = {}
    for card in secrets(state, viewer):
        details = table.details(card)
        face = tuple(details.items())
        counts[face] = counts.get(face, 0) + 1
        entries[face] = details
    return [_unseen(entries[face], counts[face]) for face in sorted(counts, key=_face_order)]


#: The sort key of each hand-card face seen (its canonical JSON): the faces are few, and observe asks at every step.
_FACE_ORDER: dict[tuple[tuple[str, object], ...], str] = {}


def _face_order(face: tuple[tuple[str, object], ...]) -> str:
    """Where a face goes in ``unseen_in_hands``: by its details as canonical JSON."""
    found = _FACE_ORDER.get(face)
    if found is None:
        found = _FACE_ORDER[face] = json.dumps(dict(face), sort_keys=True)
    return found


def _unseen(details: CardFace, count: int) -> UnseenVote | UnseenChange:
    """A hidden hand card's details (its kind, icon and value, or its number) with how many such cards are hidden."""
    assert "type" in details, "only vote and CHANGE cards are held in hand"
    if details["type"] == CHANGE:
        return {"type": details["type"], "number": details["number"], "count": count}
    return {"type": details["type"], "icon": details["icon"], "value": details["value"], "count": count}


def _choice_value(value: str | int) -> str:
    """A recorded cost choice as shown: a card id to copy, or an icon (recorded by its index) by name."""
    return value if isinstance(value, str) else ICONS[value]


def _stack_json(stack: Stack) -> StackView:
    return {"cards": list(stack.cards), "top": stack.top, "result": "SUCCESS" if stack.success else "FAIL"}


def _change_json(record: ChangeRecord) -> ChangeView:
    return {
        "seat": record.seat,
        "change": record.card,
        "number": record.number,
        "removed": record.removed,
        "added": record.added,
        "slot": record.slot,
        "personal_drawn": list(record.refills),
        "replacement": record.replacement,
        "effect": record.had_effect,
    }


def _edit_json(state: MaybeMoviesState) -> EditView | None:
    if state.phase != CHANGE_EDIT:
        return None
    seat, card = state.change_queue[0]
    return {"seat": seat, "change": card, "step": state.edit_step, "removed": state.edit_removed, "added": state.edit_added}


def _choice_json(point: ChoicePoint | None) -> ChoiceView | None:
    if point is None:
        return None
    options = [ICONS[option] for option in point.options] if point.kind == "icon" else list(point.options)
    return {"kind": point.kind, "card": point.card, "options": options}


def _evaluation_json(evaluation: Evaluation, row: Sequence[str]) -> EvaluationView:
    cards: list[EvaluationCard] = []
    for index, card in enumerate(row):
        entry: EvaluationCard = {
            "card": card,
            "base_cost": cost_json(evaluation.base_costs[index]),
            "cost": cost_json(evaluation.costs[index]),
        }
        if evaluation.profits is not None and evaluation.base_profits is not None:
            entry["base_profit"] = evaluation.base_profits[index]
            entry["profit"] = evaluation.profits[index]
        cards.append(entry)
    return {
        "cards": cards,
        "budget": icon_counts_json(evaluation.need),
        "any": evaluation.any_units,
        "profit": evaluation.profit,
    }


def _settlement_json(settlement: Settlement) -> SettlementView:
    return {
        "result": "SUCCESS" if settlement.success else "FAIL",
        "profit": settlement.profit,
        "collected": list(settlement.collected),
        "won": [list(cards) for cards in settlement.won],
        "to_pool": list(settlement.to_pool),
        "all_no": settlement.all_no,
    }


def _turn_json(record: TurnRecord) -> TurnView:
    evaluation = record.evaluation
    return {
        "turn": record.turn,
        "active": record.active,
        "pitched": list(record.pitched),
        "reveals": [list(votes) for votes in record.rounds],
        "changes": [_change_json(change) for change in record.changes],
        "row": list(record.row),
        "K": record.edits,
        "cost_choices": [_choice_value(value) for value in record.cost_choices],
        "profit_choices": list(record.profit_choices),
        "profits": list(evaluation.profits) if evaluation.profits is not None else None,
        "check": record.check.to_json(),
        "check_words": check_sentences(record.check.to_json()),
        "settlement": _settlement_json(record.settlement),
        "movie": record.movie,
    }


def pitch_preview(state: MaybeMoviesState) -> PitchPreview:
    """The row's Budget per icon and Profit as far as known before the vote.

    Icon cards are exact (with Trendsetter doubling); blockbuster texts are
    evaluated only after the final vote (R36), so they are listed as open.
    """
    table = state.table
    _, failed, succeeded = rules.made_icons(state)
    need = [0] * NUM_ICONS
    profit = 0
    cards: list[PitchCard] = []
    open_texts: list[str] = []
    for card_id in state.row:
        card = table.movie(card_id)
        icons = set(card.printed_icons)
        cost_doubles = bool(icons & failed)
        profit_doubles = bool(icons & succeeded)
        if card.is_text:
            open_texts.append(card_id)
            cards.append({"card": card_id, "cost_doubles": cost_doubles, "profit_doubles": profit_doubles, "cost": None, "profit": None})
        else:
            cost = cost_of_icons(card.cost)
            cost = double(cost) if cost_doubles else cost
            for icon in range(NUM_ICONS):
                need[icon] += cost[icon]
            value = card.profit * (2 if profit_doubles else 1)
            profit += value
            cards.append(
                {"card": card_id, "cost_doubles": cost_doubles, "profit_doubles": profit_doubles, "cost": cost_json(cost), "profit": value}
            )
    return {"cards": cards, "budget": icon_counts_json(need), "profit": profit, "open_texts": open_texts}


def card_details(state: MaybeMoviesState, viewer: int | None) -> dict[str, CardDetails]:
    """Details of every card the observation of ``viewer`` mentions, taken from the state's public places.

    The details are shared between observations: treat them as read-only.
    """
    mentioned: set[str] = set()
    add = mentioned.update
    add(state.market)
    add(state.row)
    add(state.discard)
    add(state.pool)
    add(state.out_of_play)
    add(state.draw_pile)  # its cards are public (the catalogue, §8); only the order is hidden
    for seat in range(state.num_players):
        add(state.personal[seat])
        add(state.won[seat])
        add(state.known[seat])
    if viewer is not None:
        add(state.hands[viewer])
    for stack in state.made:
        add(stack.cards)
    for votes in state.rounds:
        add(card for card in votes if card is not None)
    _add_changes(mentioned, state.change_records)
    add(card for card in (state.edit_removed, state.edit_added) if card is not None)
    if state.choice_point is not None:
        mentioned.add(state.choice_point.card)
        if state.choice_point.kind == "copy":
            add(state.choice_point.options)
    for record in state.history:
        add(record.pitched)
        add(record.row)
        for votes in record.rounds:
            add(card for card in votes if card is not None)
        _add_changes(mentioned, record.changes)
    words = catalogue_words(state.table)
    return {card: words.details(card) for card in sorted(mentioned)}


def _add_changes(mentioned: set[str], records: Sequence[ChangeRecord]) -> None:
    for record in records:
        mentioned.add(record.card)
        mentioned.update(record.refills)
        mentioned.update(card for card in (record.removed, record.added, record.replacement) if card is not None)


def secrets(state: MaybeMoviesState, viewer: int | None) -> frozenset[str]:
    """Cards in other hands that are not public knowledge (§8): they must never appear in ``viewer``'s observation."""
    hidden: set[str] = set()
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            known = state.known[seat]
            hidden.update(card for card in hand if card not in known)
    return frozenset(hidden)


def revealed_from_deal(state: MaybeMoviesState) -> list[set[str]]:
    """Per seat, the cards of its setup hand that it has revealed (public: every reveal and replacement draw is, §8).

    A card leaves a hand only by being revealed, so the first seat to reveal a
    card was dealt it, unless that seat drew it from the face-up pool first
    (a CHANGE replacement draw, R29): such a card was public before.
    """
    seen: set[str] = set()
    dealt: list[set[str]] = [set() for _ in range(state.num_players)]
    turns = [(record.rounds, record.changes) for record in state.history]
    turns.append((tuple(state.rounds), tuple(state.change_records)))
    for rounds, changes in turns:
        for revealed in rounds:
            for seat, card in enumerate(revealed):
                if card is not None and card not in seen:
                    seen.add(card)
                    dealt[seat].add(card)
            for record in changes:  # the replacement draws of this round (its CHANGE cards identify it)
                if record.card in revealed and record.replacement is not None:
                    seen.add(record.replacement)
    return dealt


def determinize(state: MaybeMoviesState, viewer: int | None, rng: random.Random) -> MaybeMoviesState:
    """A full position ``viewer`` cannot tell from ``state``, every hidden part drawn again (see ``determinization``)."""
    return determinization.determinize(state, viewer, rng)
