"""Sentences for players: each legal action in context (with what it costs or scores), warnings before a move
that cannot pay off, the log line of every event, and the help of each step.

Card names come from :mod:`words`; numbers come from the public table and the acting seat's own hand only
(:mod:`preview`), never from a hidden vote or card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.core.words import Component, seat_name
from greenlight.games.maybe_movies import preview, rules
from greenlight.games.maybe_movies.actions import Add, Copy, Finish, Icon, Pick, Profit, Remove, Slot, Vote
from greenlight.games.maybe_movies.budget import ChoicePoint, NeedChoice, Replay, evaluate_costs, evaluate_profits, net_of, success_check
from greenlight.games.maybe_movies.cards import EXAMPLE_CATALOGUE, ICON_INDEX, ICONS, YES, load_catalogue
from greenlight.games.maybe_movies.events import (
    Budget,
    CardsBack,
    ChangeNoEffect,
    ChangeRound,
    CostChoice,
    Discarded,
    Failed,
    GameOver,
    MarketRefilled,
    MovieMade,
    Payout,
    PersonalDrawn,
    PitchAdded,
    Pitched,
    ProfitChoice,
    Profits,
    ReplacementDrawn,
    Reshuffled,
    RowCardRemoved,
    RowEdited,
    StackMade,
    TurnStarted,
    VoteChosen,
    VoteCommitted,
    VotesRevealed,
    VoteStarted,
)
from greenlight.games.maybe_movies.observation import Check, MaybeMoviesObservation
from greenlight.games.maybe_movies.state import CHANGE_EDIT, COST_CHOICE, MOVIE_PICK, PITCH, PROFIT_CHOICE, MaybeMoviesState
from greenlight.games.maybe_movies.text import render_text as render_text  # the terminal board
from greenlight.games.maybe_movies.words import (
    ICON_LEGEND,
    CatalogueWords,
    catalogue_words,
    check_summary,
    counts_words,
    icon_count,
    icons_list,
    join_words,
    ordinal,
    plural,
)

# -- components and refusals ---------------------------------------------------------------------------------


def components(state: MaybeMoviesState | None) -> list[Component]:
    """Every card of ``state``'s catalogue in words (generated from its seed, or its deck file); else the bundled seed-0 catalogue."""
    table = state.table if state is not None else load_catalogue(EXAMPLE_CATALOGUE)
    return catalogue_words(table).components()


def why_illegal(state: MaybeMoviesState, player: int, action: Action) -> str:
    """Reason for refusing ``action``, naming cards as players read them (``Jungle (M03)``)."""
    words = catalogue_words(state.table)

    def name(code: str) -> str:
        found = words.name(code)
        return code if found == code else f"{found} ({code})"

    return rules.why_illegal(state, player, action, name)


# -- actions -----------------------------------------------------------------------------------------------


def describe_action(state: MaybeMoviesState, player: int, action: Action) -> str:
    """A short sentence saying what ``action`` does for ``player`` now, with what it costs or scores."""
    words = catalogue_words(state.table)
    phase = state.phase
    if isinstance(action, Vote):
        return _vote_words(state, player, action.card, words)
    if phase == PITCH:
        if isinstance(action, Add):
            return _pitch_add_words(state, action.card, words)
        budget = preview.row_budget(state, state.row)
        return f"Pitch {words.names(state.row)}: {_needs(budget)}; then everyone votes."
    if phase == CHANGE_EDIT:
        return _edit_words(state, action, words)
    if phase == COST_CHOICE and isinstance(action, (Copy, Icon)):
        return _cost_choice_words(state, action, words)
    if phase == PROFIT_CHOICE and isinstance(action, Profit):
        return _profit_choice_words(state, action.amount, words)
    if phase == MOVIE_PICK and isinstance(action, Pick):
        return _pick_words(state, player, action.card, words)
    return str(action)


def _needs(budget: preview.RowBudget) -> str:
    texts = f", plus {plural(len(budget.open_texts), 'blockbuster text')} read after the vote" if budget.open_texts else ""
    return f"needs {counts_words(budget.need)}, profit {budget.profit}{texts}"


def _pitch_add_words(state: MaybeMoviesState, card: str, words: CatalogueWords) -> str:
    row = [*state.row, card]
    place = f" as its {ordinal(len(row))} card from the left" if state.blockbuster and state.row else ""
    budget = preview.row_budget(state, row)
    notes = []
    if card in budget.cost_doubles:
        notes.append("it costs double (an icon of a failed movie)")
    if card in budget.profit_doubles:
        notes.append("it yields double (an icon of a successful movie)")
    note = f"; {join_words(notes)}" if notes else ""
    then = " It is then pitched: no other card can follow." if _add_finishes(state, card) else ""
    passed = _passed_over(state, card)
    if passed:
        then += f" {words.names(passed)}, to its left, can then no longer join this pitch."
    return f"Add {words.title(card)} to the pitch{place} ({words.face(card)}){note}: the pitch then {_needs(budget)}.{then}"


def _passed_over(state: MaybeMoviesState, card: str) -> list[str]:
    """The market cards that adding ``card`` leaves out for good: without Blockbuster Budgets the row keeps market order,
    so the cards between the last one added and ``card`` can no longer join (R16)."""
    if state.blockbuster:
        return []
    return list(state.market[state.pitch_from : state.market.index(card)])


def _add_finishes(state: MaybeMoviesState, card: str) -> bool:
    """Whether adding ``card`` leaves no other card to add, so the pitch is locked at once."""
    if state.blockbuster:
        return len(state.market) == 1
    return state.market.index(card) == len(state.market) - 1


def _vote_words(state: MaybeMoviesState, player: int, card: str, words: CatalogueWords) -> str:
    vote = state.table.vote(card)
    title = words.title(card)
    if vote.is_change:
        draw = "you then draw a replacement from the pool" if state.pool else "the pool is empty, so you draw no replacement"
        return (
            f"Vote {title}: after the reveal you change the pitch (remove a card and/or add a personal card), "
            f"then everyone votes again; the card leaves the game and {draw}."
        )
    budget = preview.row_budget(state, state.row)
    icon = ICONS[vote.icon]
    needed = budget.need[vote.icon]
    use = f"the pitch needs {icon_count(needed, vote.icon)}" if needed else f"the pitch needs no {icon}"
    value = icon_count(vote.value, vote.icon)
    if vote.kind == YES:
        gain = "if it succeeds you share the profit with the other YES-voters; if it fails this card goes to the pool"
        return f"Vote {title}: adds {value} ({use}); {gain}."
    if player == state.active:
        gain = "if it fails you win this card back (unless every vote is NO); if it succeeds, you still get the cards left over"
    else:
        gain = "if it fails you win this card back (unless every vote is NO); if it succeeds you win nothing from it"
    return f"Vote {title}: takes {value} off the votes ({use}); {gain}."


def _edit_words(state: MaybeMoviesState, action: Action, words: CatalogueWords) -> str:
    if isinstance(action, Remove):
        row = [card for card in state.row if card != action.card]
        after = f"; the pitch then {_needs(preview.row_budget(state, row))}" if row else "; you must then add a personal card"
        return f"Remove {words.title(action.card)} from the pitch (it is discarded){after}."
    if isinstance(action, Add):
        row = [*state.row, action.card]
        where = "; you then choose where it goes" if state.blockbuster else ", at the right end"
        return (
            f"Add your personal card {words.title(action.card)} to the pitch ({words.face(action.card)}){where}; "
            f"the pitch then {_needs(preview.row_budget(state, row))}. You draw a new personal card."
        )
    if isinstance(action, Slot):
        added = state.edit_added
        assert added is not None
        row = state.row
        if not row:
            place = "as the only card"
        elif action.index == 0:
            place = f"first, before {words.name(row[0])}"
        elif action.index >= len(row):
            place = f"last, after {words.name(row[-1])}"
        else:
            place = f"between {words.name(row[action.index - 1])} and {words.name(row[action.index])}"
        return f"Put {words.title(added)} {place} (order matters for blockbuster texts, read left to right)."
    if isinstance(action, Finish):
        return f"End the change without adding a card: the pitch stays {words.names(state.row)}."
    return str(action)


def _choice_card(state: MaybeMoviesState) -> ChoicePoint:
    point = state.choice_point
    assert point is not None
    return point


def _cost_choice_words(state: MaybeMoviesState, action: Copy | Icon, words: CatalogueWords) -> str:
    point = _choice_card(state)
    text = words.name(point.card)
    if isinstance(action, Copy):
        choice: str | int = action.card
        copied = state.table.movie(action.card)
        what = f"{text} copies the cost of {words.title(action.card)}"
        what += f", {icons_list(copied.cost)}" if not copied.is_text else ""
    else:
        choice = ICON_INDEX[action.icon]
        what = f"{text} costs 2 {action.icon}"
    votes = rules.final_votes(state)
    facts = rules.pitch_facts(state, state.row, votes)
    try:
        evaluation = evaluate_costs(facts, Replay([*state.cost_choices, choice]))
    except NeedChoice:
        return f"{what}; another cost choice follows."
    table = state.table
    result = success_check(evaluation.need, evaluation.any_units, net_of([table.vote(card) for card in votes if card is not None]))
    outcome = "succeeds" if result.success else "fails"
    return f"{what}: the pitch then needs {counts_words(evaluation.need, evaluation.any_units)} and {outcome}."


def _profit_choice_words(state: MaybeMoviesState, amount: int, words: CatalogueWords) -> str:
    point = _choice_card(state)
    what = f"{words.name(point.card)} yields {amount}"
    assert state.evaluation is not None
    votes = rules.final_votes(state)
    facts = rules.pitch_facts(state, state.row, votes)
    try:
        evaluation = evaluate_profits(facts, state.evaluation, Replay([*state.profit_choices, amount]))
    except NeedChoice:
        return f"{what}; another profit choice follows."
    profit = evaluation.profit or 0
    table = state.table
    played = [card for card in votes if card is not None]
    yes = sum(1 for card in played if table.vote(card).kind == YES)
    collected = preview.collected_count(state, profit, len(played))
    if collected == 0:
        share = "nothing is collected"
    elif yes == 0:
        share = f"no YES-voter, so you get all {collected}"
    else:
        each, rest = divmod(collected, yes)
        share = f"{plural(yes, 'YES-voter')} get {each} each" + (f" and you {rest} more" if rest else "")
    return f"{what}: profit {profit} in all, {plural(collected, 'vote card')} collected; {share}."


def _pick_words(state: MaybeMoviesState, player: int, card: str, words: CatalogueWords) -> str:
    table = state.table
    icons = table.movie(card).printed_icons
    gains = []
    for seat in range(state.num_players):
        won_icons = [table.vote(won).icon for won in state.won[seat]]
        gains.append(sum(won_icons.count(icon) for icon in icons))
    others = max((gain for seat, gain in enumerate(gains) if seat != player), default=0)
    if not icons:
        shows = "it shows no icon, so it adds nothing to the scores"
    elif len(icons) == 1:
        shows = f"its {ICONS[icons[0]]} icon then counts"
    else:
        shows = f"its icons ({icons_list(icons)}) then count"
    score = f"your score +{gains[player]} now (best other player +{others})"
    assert state.result is not None
    if state.trendsetter:
        kind = "successful" if state.result.success else "failed"
        later = "yield double" if state.result.success else "cost double"
        effect = f"; later cards sharing its icons {later}" if icons else ""
        return f"Top the {kind} stack with {words.title(card)}: {shows}; {score}{effect}."
    rest = [other for other in state.row if other != card]
    discard = f"; {words.names(rest)} discarded" if rest else ""
    return f"Put {words.title(card)} into the movies made: {shows}; {score}{discard}."


def action_warning(state: MaybeMoviesState, player: int, action: Action) -> str | None:
    """Why ``player`` should confirm ``action``: a pitch or a YES vote that certainly comes to nothing."""
    if state.phase == PITCH and (isinstance(action, Finish) or (isinstance(action, Add) and _add_finishes(state, action.card))):
        row = state.row if isinstance(action, Finish) else [*state.row, action.card]  # type: ignore[union-attr]
        lost = preview.doomed(state, player, row)
        if lost is not None:
            return (
                f"This pitch cannot succeed: it needs {plural(lost[0], 'icon')} and the votes can bring at most {lost[1]}. "
                "It will fail and no movie is made."
            )
        if isinstance(action, Add) and (passed := _passed_over(state, action.card)):
            # The market's last card pitches at once: a newcomer clicking it first lost the cards they meant to add.
            words = catalogue_words(state.table)
            return (
                f"{words.title(action.card)} is the market's last card: adding it pitches at once, and "
                f"{words.names(passed)}, to its left, stay out of the pitch (cards join it left to right)."
            )
        return None
    if state.phase == PITCH and isinstance(action, Add):
        before = preview.doomed(state, player, state.row)
        after = preview.doomed(state, player, [*state.row, action.card])
        if after is not None and before is None:
            return (
                f"With this card the pitch cannot succeed: it would need {plural(after[0], 'icon')} "
                f"and the votes can bring at most {after[1]}. Cards cannot be taken back out of a pitch."
            )
        return None
    if isinstance(action, Vote) and state.table.vote(action.card).kind == YES:
        lost = preview.doomed(state, player, state.row, own_card=action.card)
        if lost is not None:
            return (
                f"This pitch cannot succeed: it needs {plural(lost[0], 'icon')} and with this card the votes bring at most {lost[1]}. "
                "Your YES card would go to the pool and score nothing."
            )
    return None


# -- events ----------------------------------------------------------------------------------------------


def describe_event(event: Event, state: MaybeMoviesState | None = None, names: Sequence[str] | None = None) -> str:
    """One line of log text ("" for an event that deserves none)."""
    words = _EVENT_WORDS.get(event.kind)
    if words is None:
        return event.kind.replace("_", " ").capitalize() + "."
    return words(event.data, _Told(state, names, catalogue_words(state.table) if state is not None else None))


@dataclass(frozen=True, slots=True)
class _Told:
    """How an event is put into words: the state whose catalogue names its cards, and the seats' names."""

    state: MaybeMoviesState | None
    names: Sequence[str] | None
    words: CatalogueWords | None

    def who(self, seat: int) -> str:
        return seat_name(self.names, seat)

    def name(self, card: str) -> str:
        return self.words.name(card) if self.words is not None else card

    def label(self, card: str) -> str:
        return self.words.label(card) if self.words is not None else card

    def many(self, cards: Sequence[str], empty: str = "nothing") -> str:
        return join_words(self.name(card) for card in cards) or empty

    def labels(self, cards: Sequence[str]) -> str:
        return "; ".join(self.label(card) for card in cards)


_Data = TypeVar("_Data")
_Words = Callable[[Mapping[str, object], _Told], str]


def _on(declared: type[_Data], words: Callable[[_Data, _Told], str]) -> _Words:
    """The words of one event kind, whose data is ``declared`` (its type in ``events.EVENT_TYPES``)."""

    def told(data: Mapping[str, object], told: _Told) -> str:
        return words(cast(_Data, data), told)

    return told


def _seat_card(pair: Sequence[int | str]) -> tuple[int, str]:
    """A ``[seat, card]`` pair of an event."""
    seat, card = pair
    assert isinstance(seat, int) and isinstance(card, str), "a pair is a seat and a card"
    return seat, card


def _pitched(data: Pitched, told: _Told) -> str:
    needs = f": it {_needs(preview.row_budget(told.state, data['row']))}" if told.state is not None else ""
    return f"{told.who(data['seat'])} pitches {told.many(data['row'])}{needs}."


def _vote_started(data: VoteStarted, told: _Told) -> str:
    voters = [told.who(seat) for seat in data["voters"]]
    if not voters:
        return "Nobody can vote: every hand is empty."
    again = " again" if data["round"] > 1 else ""
    return f"{join_words(voters)} vote{again} in secret."


def _votes_revealed(data: VotesRevealed, told: _Told) -> str:
    shown = join_words(f"{told.who(seat)} {told.name(card)}" for seat, card in enumerate(data["votes"]) if card is not None)
    return f"Votes revealed: {shown or 'no votes'}."


def _change_round(data: ChangeRound, told: _Told) -> str:
    order = join_words([f"{told.who(seat)} ({told.name(card)})" for seat, card in map(_seat_card, data["order"])], "then")
    return f"CHANGE! The pitch is changed by {order}, lowest number first."


def _row_edited(data: RowEdited, told: _Told) -> str:
    parts = []
    if data["removed"]:
        parts.append(f"removed {told.name(data['removed'])}")
    if data["added"]:
        parts.append(f"added {told.name(data['added'])}")
    edit = f"{told.who(data['seat'])} ({told.name(data['change'])}) {join_words(parts)}"
    return f"{edit}: the pitch is now {told.many(data['row'])} (changed {plural(data['K'], 'time')} this turn)."


def _personal_drawn(data: PersonalDrawn, told: _Told) -> str:
    new = "a new personal movie card" if len(data["cards"]) == 1 else "new personal movie cards"
    return f"{told.who(data['seat'])} draws {told.labels(data['cards'])} as {new}."


def _replacement_drawn(data: ReplacementDrawn, told: _Told) -> str:
    if data["card"] is None:
        return f"{told.who(data['seat'])} finds the pool empty and draws no replacement."
    return f"{told.who(data['seat'])} draws {told.name(data['card'])} from the pool."


def _cost_choice(data: CostChoice, told: _Told) -> str:
    if data["kind"] == "copy":
        return f"{told.who(data['seat'])} decides: {told.name(data['card'])} copies the cost of {told.name(data['choice'])}."
    return f"{told.who(data['seat'])} decides: {told.name(data['card'])} costs 2 {data['choice']}."


def _profit(data: Profits, told: _Told) -> str:
    summed = " + ".join(str(value) for value in data["profits"])
    return f"Profit: {data['total']}" + (f" ({summed})." if len(data["profits"]) > 1 else ".")


def _payout(data: Payout, told: _Told) -> str:
    shares = [f"{told.who(seat)} wins {told.many(cards)}" for seat, cards in enumerate(data["won"]) if cards]
    pooled = f"; {plural(len(data['to_pool']), 'card')} to the pool" if data["to_pool"] else ""
    collected = len(data["collected"])
    return f"Payout of {plural(collected, 'vote card')}: {'; '.join(shares) or 'nobody wins a card'}{pooled}."


def _failed(data: Failed, told: _Told) -> str:
    pooled = plural(len(data["to_pool"]), "card")
    if data["all_no"]:
        return f"Every vote was NO: nobody gets anything; {pooled} to the pool."
    back = [f"{told.who(seat)} wins back {told.many(cards)}" for seat, cards in enumerate(data["won"]) if cards]
    return f"{'; '.join(back) or 'No NO-voter wins anything'}; {pooled} to the pool."


def _movie_made(data: MovieMade, told: _Told) -> str:
    rest = f"; {told.many(data['discarded'])} discarded" if data.get("discarded") else ""
    return f"{told.who(data['seat'])} puts {told.label(data['card'])} into the movies made{rest}."


def _stack_made(data: StackMade, told: _Told) -> str:
    return (
        f"{told.who(data['seat'])} stacks {told.many(data['cards'])} with {told.name(data['top'])} on top, "
        f"marked {'a success' if data['success'] else 'a failure'}."
    )


#: The words of each event kind ("" for events that deserve no line, such as a secret vote being cast), each handler
#: reading the kind's data as its TypedDict (``events.EVENT_TYPES``).
_EVENT_WORDS: dict[str, _Words] = {
    "turn_started": _on(TurnStarted, lambda data, told: f"Turn {data['turn']}: {told.who(data['active'])} pitches."),
    "market_refilled": _on(MarketRefilled, lambda data, told: f"New in the market: {told.labels(data['cards'])}."),
    "reshuffled": _on(
        Reshuffled, lambda data, told: f"The {plural(data['cards'], 'discarded movie card')} are shuffled into a new draw pile."
    ),
    "pitch_added": _on(PitchAdded, lambda data, told: f"{told.who(data['seat'])} adds {told.label(data['card'])} to the pitch."),
    "pitched": _on(Pitched, _pitched),
    "vote_started": _on(VoteStarted, _vote_started),
    "vote_committed": _on(
        VoteCommitted, lambda data, told: f"{told.who(data['seat'])} votes their last card." if data["automatic"] else ""
    ),
    "vote_chosen": _on(VoteChosen, lambda data, told: f"You vote {told.name(data['card'])} (secret until everyone has voted)."),
    "votes_revealed": _on(VotesRevealed, _votes_revealed),
    "change_round": _on(ChangeRound, _change_round),
    "change_no_effect": _on(
        ChangeNoEffect,
        lambda data, told: (
            f"{told.who(data['seat'])}'s {told.name(data['change'])} changes nothing: no personal card to add and a one-card pitch."
        ),
    ),
    "row_card_removed": _on(
        RowCardRemoved, lambda data, told: f"{told.who(data['seat'])} removes {told.name(data['card'])} from the pitch; it is discarded."
    ),
    "row_edited": _on(RowEdited, _row_edited),
    "personal_drawn": _on(PersonalDrawn, _personal_drawn),
    "cards_back": _on(
        CardsBack, lambda data, told: "Every YES and NO vote goes back to its owner's hand; the CHANGE cards leave the game."
    ),
    "replacement_drawn": _on(ReplacementDrawn, _replacement_drawn),
    "budget": _on(Budget, lambda data, told: f"The final pitch needs {counts_words(data['need'], data['any'])}."),
    "checked": _on(Check, lambda data, told: check_summary(data)),
    "cost_choice": _on(CostChoice, _cost_choice),
    "profit_choice": _on(
        ProfitChoice, lambda data, told: f"{told.who(data['seat'])} decides: {told.name(data['card'])} yields {data['choice']}."
    ),
    "profit": _on(Profits, _profit),
    "payout": _on(Payout, _payout),
    "failed": _on(Failed, _failed),
    "discarded": _on(Discarded, lambda data, told: f"Discarded: {told.many(data['cards'])}."),
    "movie_made": _on(MovieMade, _movie_made),
    "stack_made": _on(StackMade, _stack_made),
    "game_over": _on(GameOver, lambda data, told: _game_over_words(data["scores"], data["winners"], told.names)),
}


def _game_over_words(scores: Sequence[float], winners: Sequence[int], names: Sequence[str] | None) -> str:
    points = [int(score) for score in scores]
    best = join_words(seat_name(names, seat) for seat in winners)
    verb = "wins" if len(winners) == 1 else "share the win"
    top = points[winners[0]] if winners else 0
    ranked = sorted(range(len(points)), key=lambda seat: -points[seat])
    others = [f"{seat_name(names, seat)} {points[seat]}" for seat in ranked if seat not in winners]
    rest = f"; {', '.join(others)}" if others else ""
    return f"The game is over: {best} {verb} with {plural(top, 'point')}{rest}."


# -- help -----------------------------------------------------------------------------------------------

STEP_HELP = {
    "pitch": (
        "Pitching: add market cards to the pitch one at a time, then pitch it. Every cost icon of the pitch must be "
        "brought by the votes; the profits add up to how many vote cards a success shares out. A pitch is locked once pitched."
    ),
    "vote": (
        "Voting: everyone with cards, the pitching player too, picks one card in secret; all are shown together. "
        "YES cards add their value of their icon, NO cards take it off. Two spare icons of one kind stand in for one missing icon. "
        "On a success the profit's worth of cards is collected (this vote's cards first, then the pool) and shared equally among "
        "the YES-voters; what cannot be shared equally goes to the pitching player. On a failure every NO-voter wins back their "
        "own card, unless every vote was NO; YES cards go to the pool. A won card is never played again."
    ),
    "change_edit": (
        "Changing the pitch (Breaking Changes): remove one card of the pitch and/or add one of your personal movie cards, "
        "at least one of the two; the pitch keeps at least one card. Then every vote goes back and everyone votes again."
    ),
    "cost_choice": (
        "A blockbuster cost is tied: choose which neighbour it copies or which icon it costs. Blockbusters are read left to "
        "right; one further right counts as empty for those on its left."
    ),
    "profit_choice": (
        "A blockbuster profit is open: choose its value (1, 2 or 3, or one of the tied cards' profits). The profit is the "
        "number of vote cards the success collects."
    ),
    "movie_pick": (
        "The movie is made: choose the card that goes into the movies made. Its icons count for scoring: each won vote card "
        "scores 1 point for every movie made showing its icon."
    ),
    "trendsetter": (
        "Trendsetter Tricks: every pitch becomes a stack in the movies made, success or failure; you choose its top card, "
        "whose icons count. A later card sharing an icon with a failed top costs double; with a successful top it yields double."
    ),
    "over": "The game is over: each won vote card scored 1 point for every movie made showing its icon.",
}


SCORING_HELP = "Scoring: at the end, each won vote card scores 1 point for every movie made that shows its icon; its value does not count."


def help_text(observation: MaybeMoviesObservation) -> str:
    """The legend and the rules of the step the observation is at, in short paragraphs."""
    phase = observation["phase"]
    kind = observation["decision"]["kind"] or phase
    options = observation["options"]
    parts = [ICON_LEGEND]
    if kind == "movie_pick" and options.get("trendsetter_tricks"):
        parts.append(STEP_HELP["trendsetter"])
    else:
        parts.append(STEP_HELP.get(kind, STEP_HELP.get(phase, STEP_HELP["pitch"])))
    if options.get("blockbuster_budgets") and kind in ("pitch", "vote"):
        parts.append(
            "Blockbuster Budgets: a blockbuster's cost and profit are texts, worked out after the final vote, left to right; "
            "the order of the pitch matters."
        )
    if options.get("breaking_changes") and kind == "vote":
        parts.append(
            "Breaking Changes: a CHANGE card played as a vote lets its owner change the pitch, lowest number first; everyone "
            "then votes again. A CHANGE card leaves the game and its owner draws a replacement from the pool if it has cards."
        )
    if options.get("trendsetter_tricks") and kind == "pitch":
        parts.append(STEP_HELP["trendsetter"])
    parts.append(SCORING_HELP)
    return "\n\n".join(parts)
