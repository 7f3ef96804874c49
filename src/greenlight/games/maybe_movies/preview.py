"""Previews before committing: what a pitch needs and pays, what the votes can bring, how a payout would be shared.

Everything here reads only what the given seat may know (§8): the public table, its own hand and the
multiset of cards it cannot see (the catalogue is public, so a seat knows *which* cards are hidden, not
where). No hidden vote and no hidden card id is ever used, so previews and warnings leak nothing.

A pitch **cannot succeed** when the icons it certainly needs are more than the best the votes can bring:
success needs the YES values to reach at least the named icons plus the icons of any kind (every missing
icon costs two spare icons, §4.4), and each voter plays one card. Blockbuster texts are counted at their
smallest possible cost (nothing), so the test never claims a pitch that could pass is lost. With Breaking
Changes a CHANGE card can still alter the pitch, so no pitch is called lost while one may be played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from greenlight.games.maybe_movies import rules
from greenlight.games.maybe_movies.budget import cost_of_icons, double, icon_counts_json
from greenlight.games.maybe_movies.cards import CHANGE, NUM_ICONS, YES
from greenlight.games.maybe_movies.observation import Preview, Share
from greenlight.games.maybe_movies.state import CHANGE_EDIT, PITCH, VOTE, MaybeMoviesState


@dataclass(frozen=True, slots=True)
class RowBudget:
    """The part of a row's Budget and Profit known before the vote (icon cards exact, with Trendsetter doubling)."""

    need: tuple[int, ...]
    profit: int
    open_texts: tuple[str, ...]
    cost_doubles: tuple[str, ...]
    profit_doubles: tuple[str, ...]

    @property
    def icons(self) -> int:
        """How many icons the votes must bring at least."""
        return sum(self.need)


def row_budget(state: MaybeMoviesState, row: Sequence[str]) -> RowBudget:
    """Budget per icon and Profit of ``row`` as far as known before the vote; blockbuster texts stay open (R36)."""
    table = state.table
    _, failed, succeeded = rules.made_icons(state)
    need = [0] * NUM_ICONS
    profit = 0
    open_texts: list[str] = []
    cost_doubles: list[str] = []
    profit_doubles: list[str] = []
    for card_id in row:
        card = table.movie(card_id)
        icons = set(card.printed_icons)
        if icons & failed:
            cost_doubles.append(card_id)
        if icons & succeeded:
            profit_doubles.append(card_id)
        if card.is_text:
            open_texts.append(card_id)
            continue
        cost = cost_of_icons(card.cost)
        cost = double(cost) if icons & failed else cost
        for icon in range(NUM_ICONS):
            need[icon] += cost[icon]
        profit += card.profit * (2 if icons & succeeded else 1)
    return RowBudget(tuple(need), profit, tuple(open_texts), tuple(cost_doubles), tuple(profit_doubles))


def voters_for(state: MaybeMoviesState) -> tuple[int, ...]:
    """Who votes on the pitch: this round's voters, or (before the vote) every seat with cards in hand."""
    if state.phase == VOTE:
        return state.voters
    return tuple(seat for seat in range(state.num_players) if state.hands[seat])


def best_yes(state: MaybeMoviesState, viewer: int | None, seat: int, own_card: str | None = None) -> int:
    """The largest YES value ``seat`` can play, as ``viewer`` knows it (0 if it certainly plays no YES)."""
    table = state.table
    if seat == viewer:
        if own_card is not None:
            cards: Sequence[str] = [own_card]
        elif state.phase == VOTE and state.votes[seat] is not None:
            cards = [state.votes[seat]]  # type: ignore[list-item]
        else:
            cards = state.hands[seat]
    else:
        known = state.known[seat]
        unknown = len(state.hands[seat]) - len(known)
        cards = list(known) + (sorted(rules_hidden(state, viewer)) if unknown > 0 else [])
    return max((table.vote(card).value for card in cards if table.vote(card).kind == YES), default=0)


def rules_hidden(state: MaybeMoviesState, viewer: int | None) -> frozenset[str]:
    """The hand cards ``viewer`` cannot see (their multiset is public: the catalogue is a printed list, §8)."""
    from greenlight.games.maybe_movies.view import secrets

    return secrets(state, viewer)


def reach(state: MaybeMoviesState, viewer: int | None, own_card: str | None = None) -> int:
    """The most icons the votes can bring, as ``viewer`` knows it (its own card fixed to ``own_card`` if given)."""
    return sum(best_yes(state, viewer, seat, own_card) for seat in voters_for(state))


def change_possible(state: MaybeMoviesState, viewer: int | None, own_card: str | None = None) -> bool:
    """Whether a CHANGE card may still be played on this pitch (so it may still change), as ``viewer`` knows it."""
    if not state.breaking:
        return False
    table = state.table
    in_hands = 2 * state.num_players - len(state.out_of_play)
    if own_card is None:
        return in_hands > 0
    if table.vote(own_card).kind == CHANGE:
        return True
    mine = sum(1 for card in state.hands[viewer] if table.vote(card).kind == CHANGE) if viewer is not None else 0
    return in_hands - mine > 0


def doomed(state: MaybeMoviesState, viewer: int | None, row: Sequence[str], own_card: str | None = None) -> tuple[int, int] | None:
    """``(icons needed, most the votes can bring)`` when ``row`` certainly fails, as ``viewer`` knows it; else None."""
    if not row or change_possible(state, viewer, own_card):
        return None
    budget = row_budget(state, row)
    best = reach(state, viewer, own_card)
    return (budget.icons, best) if budget.icons > best else None


def collected_count(state: MaybeMoviesState, profit: int, voters: int) -> int:
    """C: how many cards a success with ``profit`` collects from ``voters`` votes and the pool (§4.5 step 1, R7)."""
    if profit <= 0:
        return 0
    return min(profit, voters + len(state.pool))


def shares(collected: int, voters: int) -> list[Share]:
    """For 0 .. ``voters`` YES-voters: the cards each YES-voter gets and the rest that goes to the pitching player."""
    result: list[Share] = [{"yes_voters": 0, "each": 0, "to_pitcher": collected}]
    for yes in range(1, voters + 1):
        each, rest = divmod(collected, yes)
        result.append({"yes_voters": yes, "each": each, "to_pitcher": rest})
    return result


def preview(state: MaybeMoviesState, viewer: int | None) -> Preview | None:
    """The numbers and sentences of the pitch preview for ``viewer`` (None when no pitch is open)."""
    from greenlight.games.maybe_movies.words import catalogue_words, counts_words, plural, share_words, signed_words

    if not state.row or state.phase not in (PITCH, VOTE, CHANGE_EDIT):
        return None
    words = catalogue_words(state.table)
    budget = row_budget(state, state.row)
    voters = voters_for(state)
    best = reach(state, viewer)
    lost = doomed(state, viewer, state.row)
    collected = None if budget.open_texts else collected_count(state, budget.profit, len(voters))
    lines = [f"The pitch needs {counts_words(budget.need)}; profit {budget.profit}."]
    if budget.open_texts:
        lines[0] = f"The pitch needs {counts_words(budget.need)} and profit {budget.profit} from its movie cards."
        lines.append(f"The cost and profit of {words.names(budget.open_texts)} are read after the final vote, left to right.")
    if budget.cost_doubles:
        verb = "costs" if len(budget.cost_doubles) == 1 else "cost"
        lines.append(f"Trendsetter Tricks: {words.names(budget.cost_doubles)} {verb} double (an icon of a failed movie).")
    if budget.profit_doubles:
        verb = "yields" if len(budget.profit_doubles) == 1 else "yield"
        lines.append(f"Trendsetter Tricks: {words.names(budget.profit_doubles)} {verb} double (an icon of a successful movie).")
    if lost is not None:
        lines.append(f"It cannot succeed: it needs {plural(lost[0], 'icon')} and the votes can bring at most {lost[1]}.")
    else:
        lines.append(f"{plural(len(voters), 'vote')} will be cast; together they can bring at most {plural(best, 'icon')}.")
    mine = state.votes[viewer] if state.phase == VOTE and viewer is not None else None
    if mine is not None:
        lines.append(f"Your secret vote: {words.name(mine)}.")
    if state.rounds:
        table = state.table
        earlier = [table.vote(card) for card in state.rounds[-1] if card is not None and not table.vote(card).is_change]
        net = [0] * NUM_ICONS
        for card in earlier:
            net[card.icon] += card.value if card.kind == YES else -card.value
        lines.append(f"Before the change, the votes brought {signed_words(net)}.")
    if collected is not None and lost is None:
        lines.append(f"If it succeeds it collects {plural(collected, 'vote card')} to share out: {share_words(collected, len(voters))}.")
    return {
        "need": icon_counts_json(budget.need),
        "profit": budget.profit,
        "open_texts": list(budget.open_texts),
        "voters": list(voters),
        "reach": best,
        "can_succeed": lost is None,
        "collected": collected,
        "shares": shares(collected, len(voters)) if collected is not None else None,
        "words": lines,
    }
