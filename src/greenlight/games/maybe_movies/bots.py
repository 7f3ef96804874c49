"""The Maybe Movies heuristic bot: pitch movies it expects to pass and that score for it; vote by expected value.

The bot sees only its :class:`~greenlight.core.bot.SeatView`. It determinizes
one world per decision (hidden parts dealt again, unshuffled: see
:class:`_Unshuffled`) and reads from it the public table, its own hand and
which cards are unknown to it; it then samples the
other voters' next cards a few times from those (see :class:`_World`). Every
candidate (a pitch, a vote, an edit) is scored by the expected gain of the bot
minus the mean gain of the others, where a gain counts

* won vote cards, each worth the icon's count on Movies Made plus the growth
  expected over the turns left, and
* the points every won area gains from the card that joins Movies Made.

Cost and profit choices are worked out from the revealed final vote.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.games.maybe_movies import rules
from greenlight.games.maybe_movies.actions import Add, Copy, Finish, Icon, Pick, Profit, Remove, Slot, Vote
from greenlight.games.maybe_movies.budget import (
    NeedChoice,
    PitchFacts,
    Replay,
    evaluate_costs,
    evaluate_profits,
    first_option,
    net_of,
    passes,
)
from greenlight.games.maybe_movies.cards import CHANGE, ICON_INDEX, NUM_ICONS, YES, Catalogue, VoteCard
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    EDIT_ADD,
    EDIT_START,
    MOVIE_PICK,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    MaybeMoviesState,
)

#: Vote profiles of the other seats sampled per decision (each seat's next vote drawn as determinize would deal it).
SAMPLES = 8
#: Profiles a pitch is planned with (the same ones for every row, so rows compare on equal terms).
PITCH_SAMPLES = 8
#: Largest pitch the bot considers (bigger rows rarely pass).
MAX_PITCH = 3
#: Expected Movies Made icons added per icon and per turn left (about 1.4 icons per made card, 6 icons).
GROWTH_PER_TURN = {False: 0.12, True: 0.2}  # keyed by Trendsetter: every pitch adds a stack there

#: A sampled vote of the other seats, summed: (net per icon, #YES, #NO, cards played, their total value, NO cards' value).
_Profile = tuple[list[int], int, int, int, float, float]
#: One candidate vote of the bot: (is YES, is NO, icon or -1, signed value, card value); all zero/-1 for no vote.
_Candidate = tuple[bool, bool, int, int, float]
_NO_VOTE: _Candidate = (False, False, -1, 0, 0.0)


def _check_sums(need: Sequence[int], net: Sequence[int]) -> tuple[int, int, int]:
    """The success check's shortfall D, surplus S and wildcards W (§4.4), as ``budget.passes`` adds them up."""
    short = surplus = wild = 0
    for want, have in zip(need, net, strict=True):
        if want > 0 and want > have:
            short += want - have
        elif have > want:
            surplus += have - want
            wild += (have - want) >> 1
    return short, surplus, wild


@lru_cache(maxsize=1 << 16)
def row_costs(
    table: Catalogue, row: tuple[str, ...], yes: int, no: int, edits: int, made: tuple[frozenset[int], frozenset[int], frozenset[int]]
) -> tuple[tuple[int, ...], int, int]:
    """Need per icon, any-units and Profit of ``row`` (ties take the first option), memoised across decisions.

    Exactly :func:`~greenlight.games.maybe_movies.budget.evaluate_costs` and
    ``evaluate_profits`` on the facts these arguments make (``made`` as
    :func:`~greenlight.games.maybe_movies.rules.made_icons` gives it): they
    read nothing else, and the same rows come back from decision to decision.
    """
    every, failed, succeeded = made
    facts = PitchFacts(tuple(table.movie(card) for card in row), yes, no, edits, every, failed, succeeded)
    evaluation = evaluate_costs(facts, first_option)
    profit = sum(evaluate_profits(facts, evaluation, first_option).profits or ())
    return evaluation.need, evaluation.any_units, profit


class _Unshuffled(random.Random):
    """The bot's stream, whose ``shuffle`` leaves the list as it is: handed to ``determinize``, it deals the hidden
    cards in their canonical (sorted) order.

    The bot reads nothing that a shuffle there decides: of the other hands
    only the union of their unknown cards (the same in every world) and how
    many CHANGE cards each holds (fixed by R25/R26 in any position play can
    reach), never the draw pile's order nor which unknown card sits where;
    it samples the other seats' votes itself (``_World._sample_profiles``).
    Shuffling cost about a fifth of ``determinize`` for nothing. The world
    still depends only on what the seat sees and on this stream.
    """

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        """Leave ``x`` in its order (see the class)."""


class _World:
    """One determinized world seen from the bot's seat, with the numbers the value model needs.

    Only the public part of the world is read, plus the bot's own hand; the
    other seats' hands serve only to know which cards are unknown to the bot
    (their union is the same in every world the seat cannot tell apart). Their
    next votes are then sampled ``samples`` times from those unknown cards, as
    :func:`~greenlight.games.maybe_movies.determinization.determinize` would
    deal them, instead of determinizing whole worlds again.
    """

    def __init__(self, world: MaybeMoviesState, me: int, rng: random.Random, samples: int = SAMPLES) -> None:
        self.state = world
        self.me = me
        self.table = world.table
        self.n = world.num_players
        counts = rules.icon_counts(world)
        turns_left = max((len(hand) for hand in world.hands), default=0)
        growth = GROWTH_PER_TURN[world.trendsetter] * turns_left
        self.card_value = [counts[icon] + growth for icon in range(NUM_ICONS)]
        faces = self.table.hand_cards
        self.won_icons = [[0] * NUM_ICONS for _ in range(self.n)]
        for won, cards in zip(self.won_icons, world.won, strict=True):
            for card in cards:
                won[faces[card].icon] += 1
        self.won_total = [sum(won[icon] for won in self.won_icons) for icon in range(NUM_ICONS)]
        card_value = self.card_value
        pool_values = [card_value[faces[card].icon] for card in world.pool]
        self.pool_size = len(pool_values)
        self.pool_value = sum(pool_values) / len(pool_values) if pool_values else 0.0
        self.made = rules.made_icons(world)
        self.order = rules.vote_order(world)
        # The profiles are drawn on first use (a Movie Made pick or a cost choice needs none), from this stream.
        self._rng = rng
        self._samples = samples
        self._profiles: list[_Profile] | None = None
        self._costs: dict[tuple[Any, ...], tuple[tuple[int, ...], int, int]] = {}
        self._picks: dict[tuple[str, ...], tuple[float, float]] = {}
        self._own: list[_Candidate] | None = None
        self._pick_scores: dict[int, list[float]] = {}
        self._card_picks: dict[int, dict[str, float]] = {}
        self._text: dict[tuple[str, ...], bool] = {}

    @property
    def profiles(self) -> list[_Profile]:
        """The sampled votes of the other seats (drawn at the first call, the same ones after)."""
        if self._profiles is None:
            self._profiles = self._sample_profiles(self._rng, self._samples)
        return self._profiles

    def voting_hand(self, seat: int) -> list[str]:
        """The cards ``seat`` can vote with next (during a CHANGE round its revealed card comes back first)."""
        hand = list(self.state.hands[seat])
        if self.state.phase == CHANGE_EDIT and self.state.rounds:
            card = self.state.rounds[-1][seat]
            if card is not None and not self.table.vote(card).is_change:
                hand.append(card)
        return hand

    def _sample_profiles(self, rng: random.Random, samples: int) -> list[_Profile]:
        """The other seats' next votes, ``samples`` times: each plays a uniform card of its hand.

        A seat's hand is its publicly known cards, its CHANGE cards (how many
        is public, which ones does not matter) and unknown vote cards, which
        are drawn without replacement from the sorted union of the unknown
        cards (so only what the seat knows and ``rng`` decide the samples). A
        committed, unrevealed vote is such a card too.
        """
        faces = self.table.hand_cards
        state = self.state
        card_value = self.card_value
        revealed = state.rounds[-1] if state.phase == CHANGE_EDIT and state.rounds else None
        seats: list[tuple[list[tuple[bool, int, int, float] | None], int, int]] = []  # (known cards, their count, hand size)
        unknown: list[VoteCard] = []
        for seat in self.order:
            if seat == self.me:
                continue
            hand = state.hands[seat]
            known = state.known[seat]
            back = revealed[seat] if revealed is not None else None
            if back is not None and faces[back].kind == CHANGE:
                back = None  # a revealed CHANGE card does not come back
            size = len(hand) + (back is not None)
            if not size:
                continue
            fixed: list[tuple[bool, int, int, float] | None] = []
            for card in hand:
                face = faces[card]
                if face.kind == CHANGE:
                    fixed.append(None)
                elif card in known:
                    fixed.append((face.kind == YES, face.icon, face.value, card_value[face.icon]))
                else:
                    unknown.append(face)
            if back is not None:  # the revealed card coming back (voting_hand puts it last) is public
                face = faces[back]
                fixed.append((face.kind == YES, face.icon, face.value, card_value[face.icon]))
            seats.append((fixed, len(fixed), size))
        unknown.sort()  # by card id: the order must not tell where the cards are
        pool = [(face.kind == YES, face.icon, face.value, card_value[face.icon]) for face in unknown]
        pool_size = len(pool)
        profiles: list[_Profile] = []
        random_ = rng.random
        for _ in range(samples):
            taken: set[int] = set()
            net = [0] * NUM_ICONS
            yes = no = played = 0
            values = no_values = 0.0
            for fixed_infos, known_count, size in seats:
                index = int(random_() * size)
                if index < known_count:
                    vote = fixed_infos[index]
                else:  # one of the unknown cards, not already played by another seat in this sample
                    pick = int(random_() * pool_size)
                    while pick in taken:
                        pick = int(random_() * pool_size)
                    taken.add(pick)
                    vote = pool[pick]
                if vote is None:
                    continue  # a CHANGE card counts as no vote
                is_yes, icon, amount, value = vote
                played += 1
                values += value
                if is_yes:
                    yes += 1
                    net[icon] += amount
                else:
                    no += 1
                    net[icon] -= amount
                    no_values += value
            profiles.append((net, yes, no, played, values, no_values))
        return profiles

    def costs(self, row: tuple[str, ...], yes: int, no: int, edits: int) -> tuple[tuple[int, ...], int, int]:
        """Need per icon, any-units and Profit of ``row`` under a final vote with ``yes``/``no`` cards, memoised.

        Ties take the first option. Only text cards read the vote and K, so a
        row of icon cards is worked out once whatever the vote.
        """
        key: tuple[Any, ...] = (row, yes, no, edits)
        found = self._costs.get(key)
        if found is None:
            if not self.has_text(row):
                yes = no = edits = 0
            found = self._costs[key] = row_costs(self.table, row, yes, no, edits, self.made)
        return found

    def has_text(self, row: tuple[str, ...]) -> bool:
        """Whether ``row`` holds a text card (a blockbuster), memoised."""
        text = self._text.get(row)
        if text is None:
            movie = self.table.movie
            text = self._text[row] = any(movie(card).is_text for card in row)
        return text

    def preferred_pick(self, seat: int, row: Sequence[str]) -> str:
        """The row card ``seat`` would put into Movies Made: the one whose icons score most for it against the others."""
        score = self._pick_scores.get(seat)
        if score is None:
            spread = max(1, self.n - 1)
            score = self._pick_scores[seat] = [
                self.won_icons[seat][icon] - sum(self.won_icons[s][icon] for s in range(self.n) if s != seat) / spread
                for icon in range(NUM_ICONS)
            ]
        values = self._card_picks.setdefault(seat, {})  # a card's value recurs in every row it is part of
        best, best_value = row[0], float("-inf")
        for card in row:
            value = values.get(card)
            if value is None:
                value = 0.0
                for icon in self.table.movie(card).printed_icons:
                    value += score[icon]
                values[card] = value
            if value > best_value:
                best, best_value = card, value
        return best

    def pick_gains(self, row: tuple[str, ...]) -> tuple[float, float]:
        """What the active player's pick of ``row`` into Movies Made adds: to the bot, and to all seats together."""
        found = self._picks.get(row)
        if found is None:
            icons = self.table.movie(self.preferred_pick(self.state.active, row)).printed_icons
            mine = float(sum(self.won_icons[self.me][icon] for icon in icons))
            found = self._picks[row] = (mine, float(sum(self.won_total[icon] for icon in icons)))
        return found

    def own_votes(self) -> list[_Candidate]:
        """The bot's distinct votes (by kind, icon and value; CHANGE cards left out), or no vote if it holds none."""
        if self._own is None:
            votes = {self.candidate(card) for card in self.voting_hand(self.me) if not self.table.vote(card).is_change}
            self._own = sorted(votes) or [_NO_VOTE]
        return self._own

    def candidate(self, card: str | None) -> _Candidate:
        """The bot's vote ``card`` as the value model reads it (a CHANGE card or None is no vote)."""
        if card is None:
            return _NO_VOTE
        vote = self.table.vote(card)
        if vote.is_change:
            return _NO_VOTE
        is_yes = vote.kind == YES
        return (is_yes, not is_yes, vote.icon, vote.value if is_yes else -vote.value, self.card_value[vote.icon])

    def _icon_row_sums(
        self,
        costs: tuple[tuple[int, ...], int, int],
        pick_mine: float,
        pick_total: float,
        candidates: Sequence[_Candidate],
        profiles: Sequence[_Profile],
        totals: list[float],
    ) -> list[float]:
        """Add to ``totals`` each candidate's utility summed over ``profiles``, for a row of icon cards (its need,
        any-units and Profit do not depend on the vote); return ``totals``.

        The same sums in the same order as :meth:`_text_row_sums`, so the same floats; what does not change from
        one profile to the next (a candidate's need on its icon, its failure payoff) is worked out once.
        """
        need, any_units, profit = costs
        me_active = self.state.active == self.me
        trend = self.state.trendsetter
        pool_size, pool_value = self.pool_size, self.pool_value
        spread = max(1, self.n - 1)
        # Per candidate: its index, is YES, icon, delta, value, the need on its icon, and its failure payoff
        # (mine, total) when some YES was played: a NO voter wins its own card back.
        prepared = [
            (
                index,
                my_yes,
                icon,
                delta,
                my_value,
                need[icon] if icon >= 0 else 0,
                my_value if my_no else 0.0,
            )
            for index, (my_yes, my_no, icon, delta, my_value) in enumerate(candidates)
        ]
        for net, their_yes, _, their_played, their_values, their_no_values in profiles:
            short0 = surplus0 = wild0 = 0  # _check_sums, inline: this loop is most of the bot's time
            for want, have in zip(need, net):  # noqa: B905 - both have NUM_ICONS entries
                if want > 0 and want > have:
                    short0 += want - have
                elif have > want:
                    surplus0 += have - want
                    wild0 += (have - want) >> 1
            for index, my_yes, icon, delta, my_value, want, my_back in prepared:
                yes = their_yes + my_yes
                short, surplus, wild = short0, surplus0, wild0
                if icon >= 0:
                    # The check without the bot's card, corrected on the one icon its card changes.
                    have = net[icon]
                    if want > 0 and want > have:
                        short -= want - have
                    elif have > want:
                        surplus -= have - want
                        wild -= (have - want) >> 1
                    have += delta
                    if want > 0 and want > have:
                        short += want - have
                    elif have > want:
                        surplus += have - want
                        wild += (have - want) >> 1
                mine = total = 0.0
                if wild >= short and surplus - 2 * short >= any_units:
                    if profit > 0:
                        count = their_played + (icon >= 0)
                        values = their_values + my_value
                        if profit <= count:
                            collected, total = profit, profit / count * values
                        else:
                            extra = min(profit - count, pool_size)
                            collected, total = count + extra, values + extra * pool_value
                        if collected:
                            per_card = total / collected
                            if yes:
                                each = collected // yes
                                if my_yes:
                                    mine = each * per_card
                                if me_active:
                                    mine += (collected - each * yes) * per_card
                            elif me_active:
                                mine = total
                    mine += pick_mine
                    total += pick_total
                else:
                    if yes:
                        total = their_no_values + my_back
                        mine = my_back
                    if trend:
                        mine += pick_mine
                        total += pick_total
                totals[index] += mine - (total - mine) / spread
        return totals

    def utilities(self, row: Sequence[str], candidates: Sequence[_Candidate], edits: int, samples: int = SAMPLES) -> list[float]:
        """Mean over the first ``samples`` profiles of the bot's gain minus the others' mean gain, per candidate vote.

        A gain counts the won vote cards (each worth its icon's expected
        count on Movies Made) and the points the card picked into Movies Made
        adds to every won area.
        """
        key = tuple(row)
        profiles = self.profiles[:samples]
        pick_mine, pick_total = self.pick_gains(key)
        sums = [0.0] * len(candidates)
        if self.has_text(key):
            self._text_row_sums(key, edits, pick_mine, pick_total, candidates, profiles, sums)
        else:
            self._icon_row_sums(self.costs(key, 0, 0, edits), pick_mine, pick_total, candidates, profiles, sums)
        return [value / max(1, len(profiles)) for value in sums]

    def _text_row_sums(
        self,
        key: tuple[str, ...],
        edits: int,
        pick_mine: float,
        pick_total: float,
        candidates: Sequence[_Candidate],
        profiles: Sequence[_Profile],
        totals: list[float],
    ) -> list[float]:
        """Add to ``totals`` each candidate's utility summed over ``profiles``, for a row with a text card (its need,
        any-units and Profit depend on #YES, #NO and K); return ``totals``. This loop values icon rows too."""
        trend = self.state.trendsetter
        me_active = self.state.active == self.me
        pool_size, pool_value = self.pool_size, self.pool_value
        spread = max(1, self.n - 1)
        for net, their_yes, their_no, their_played, their_values, their_no_values in profiles:
            for index, (my_yes, my_no, icon, delta, my_value) in enumerate(candidates):
                yes = their_yes + my_yes
                need, any_units, profit = self.costs(key, yes, their_no + my_no, edits)
                short, surplus, wild = _check_sums(need, net)
                if icon >= 0:
                    # The check without the bot's card, corrected on the one icon its card changes.
                    want = need[icon]
                    have = net[icon]
                    if want > 0 and want > have:
                        short -= want - have
                    elif have > want:
                        surplus -= have - want
                        wild -= (have - want) >> 1
                    have += delta
                    if want > 0 and want > have:
                        short += want - have
                    elif have > want:
                        surplus += have - want
                        wild += (have - want) >> 1
                success = wild >= short and surplus - 2 * short >= any_units
                mine = total = 0.0
                if success:
                    count = their_played + (icon >= 0)
                    values = their_values + my_value
                    if profit > 0:
                        if profit <= count:
                            collected, total = profit, profit / count * values
                        else:
                            extra = min(profit - count, pool_size)
                            collected, total = count + extra, values + extra * pool_value
                        if collected:
                            per_card = total / collected
                            if yes:
                                each = collected // yes
                                if my_yes:
                                    mine = each * per_card
                                if me_active:
                                    mine += (collected - each * yes) * per_card
                            elif me_active:
                                mine = total
                elif yes:
                    # Failure: every NO voter wins its own card back.
                    total = their_no_values + (my_value if my_no else 0.0)
                    mine = my_value if my_no else 0.0
                if success or trend:
                    mine += pick_mine
                    total += pick_total
                totals[index] += mine - (total - mine) / spread
        return totals


class HeuristicBot(Bot):
    """Pitches movies it expects to pass and that score for it; votes by expected value for its won votes.

    A pitch is planned once, at its first step, greedily (the best card to
    add to the row so far, up to three cards) and then played card by card.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = _Unshuffled(seed)
        # The pitch being played: its seat, the cards still to add, the cards addable at the next step, and whether
        # the row is ordered (Blockbuster).
        self._plan: tuple[int, list[str], frozenset[str], bool] | None = None

    def choose(self, view: SeatView) -> Action:
        """Pick an action for the seat behind ``view``."""
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        kind = view.decision().kind
        if kind == PITCH:
            planned = self._planned(view.seat, actions)
            if planned is not None:
                return planned
        self._plan = None
        world = _World(view.determinize(self.rng), view.seat, self.rng)  # type: ignore[arg-type]
        if kind == VOTE:
            return self._vote(world, actions, world.state.row, world.state.edits)
        if kind == PITCH:
            return self._pitch(world, actions)
        if kind == MOVIE_PICK:
            return self._pick(world, actions)
        if kind == COST_CHOICE:
            return self._cost_choice(world, actions)
        if kind == PROFIT_CHOICE:
            return self._profit_choice(world, actions)
        if kind == CHANGE_EDIT:
            return self._edit(world, actions)
        return self.rng.choice(actions)

    # -- votes --------------------------------------------------------------------------------

    def _vote_values(self, world: _World, row: Sequence[str], cards: Sequence[str], edits: int) -> dict[str, float]:
        """Mean utility of each candidate vote; a CHANGE card is valued by the pool card it brings back."""
        values: dict[str, float] = {}
        keys: dict[tuple[Any, ...], list[str]] = {}
        for card in cards:
            vote = world.table.vote(card)
            if vote.is_change:
                # A CHANGE vote postpones the decision and (pool permitting) swaps itself for a pool card.
                values[card] = 0.5 * world.pool_value if world.pool_size else -0.5
                continue
            keys.setdefault((vote.kind, vote.icon, vote.value), []).append(card)
        if keys:
            groups = list(keys.values())
            utilities = world.utilities(row, [world.candidate(group[0]) for group in groups], edits)
            for group, utility in zip(groups, utilities, strict=True):
                for card in group:
                    values[card] = utility
        return values

    def _vote(self, world: _World, actions: Sequence[Action], row: Sequence[str], edits: int) -> Action:
        cards = [action.card for action in actions if isinstance(action, Vote)]
        values = self._vote_values(world, row, cards, edits)
        best = max(cards, key=lambda card: (values[card], -cards.index(card)))
        return Vote(best)

    # -- pitching -------------------------------------------------------------------------------

    def _row_value(self, world: _World, row: Sequence[str], edits: int, samples: int = SAMPLES) -> float:
        """What the row is worth to the bot when it votes its best card against the sampled votes."""
        return max(world.utilities(row, world.own_votes(), edits, samples))

    def _planned(self, seat: int, actions: Sequence[Action]) -> Action | None:
        """The next step of the pitch planned at its first step, if this is still that pitch.

        Only the legal actions tell: the same seat, exactly the market cards
        addable after the cards added so far, and a row that can be finished.
        (A search asks one bot about many positions; any that fits is the same
        pitch, as far as the plan goes.)
        """
        if self._plan is None:
            return None
        planner, rest, addable, ordered = self._plan
        now = [action.card for action in actions if isinstance(action, Add)]
        if planner != seat or frozenset(now) != addable or Finish() not in actions:
            return None
        return self._next_step(seat, rest, now, ordered)

    def _next_step(self, seat: int, rest: list[str], addable: list[str], ordered: bool) -> Action:
        """Add the next planned card, or finish; remember which cards the rules will offer next.

        Without Blockbuster a pitch is a set built in market order (R16): only
        the cards after the one just added stay addable. With it, all others.
        """
        if not rest:
            self._plan = None
            return Finish()
        card = rest[0]
        after = addable[addable.index(card) + 1 :] if not ordered else [other for other in addable if other != card]
        self._plan = (seat, rest[1:], frozenset(after), ordered)
        return Add(card)

    def _pitch(self, world: _World, actions: Sequence[Action]) -> Action:
        """Plan the pitch greedily: add the card that makes the row worth most, while one does (up to MAX_PITCH cards)."""
        addable = [action.card for action in actions if isinstance(action, Add)]
        row = list(world.state.row)
        best_row = list(row)
        best_value = self._row_value(world, row, 0, PITCH_SAMPLES) if row else float("-inf")
        current = list(row)
        left = list(addable)
        while left and len(current) < MAX_PITCH:
            step_value, step_card = max(
                (self._row_value(world, [*current, card], 0, PITCH_SAMPLES), -index) for index, card in enumerate(left)
            )
            if step_value <= best_value:
                break  # no card makes the row better: bigger rows built on it rarely would
            card = left.pop(-step_card)
            current.append(card)
            best_value, best_row = step_value, list(current)
        if len(best_row) == len(row) and Finish() not in actions:  # pragma: no cover - an empty row always gains a card
            return actions[0]
        extra = best_row[len(row) :]
        ordered = world.state.blockbuster
        if not ordered:  # a set: added in market order, the only order the rules offer (R16)
            extra.sort(key=addable.index)
        return self._next_step(world.me, extra, addable, ordered)

    # -- after the vote -----------------------------------------------------------------------------

    def _pick(self, world: _World, actions: Sequence[Action]) -> Action:
        cards = [action.card for action in actions if isinstance(action, Pick)]
        return Pick(world.preferred_pick(world.me, cards))

    def _facts(self, state: MaybeMoviesState) -> PitchFacts:
        return rules.pitch_facts(state, state.row, rules.final_votes(state))

    def _cost_choice(self, world: _World, actions: Sequence[Action]) -> Action:
        """Prefer the option under which the pitch passes (the bot is the active player), then the cheaper one."""
        state = world.state
        facts = self._facts(state)
        table = state.table
        net = net_of([table.vote(card) for card in rules.final_votes(state) if card is not None])
        best: tuple[Any, ...] | None = None
        choice = actions[0]
        for action in actions:
            value: Any = action.card if isinstance(action, Copy) else ICON_INDEX[action.icon] if isinstance(action, Icon) else None
            try:
                evaluation = evaluate_costs(facts, _Then(Replay([*state.cost_choices, value])))
            except NeedChoice:  # pragma: no cover - _Then always answers
                continue
            key = (passes(evaluation.need, evaluation.any_units, net), -sum(evaluation.need) - evaluation.any_units)
            if best is None or key > best:
                best, choice = key, action
        return choice

    def _profit_choice(self, world: _World, actions: Sequence[Action]) -> Action:
        """The profit that gives the bot the most cards, the others the fewest."""
        state = world.state
        votes = rules.final_votes(state)
        played = [card for card in votes if card is not None]
        yes_voters = [seat for seat, card in enumerate(votes) if card is not None and state.table.vote(card).kind == YES]
        facts = self._facts(state)
        assert state.evaluation is not None
        best: tuple[float, int] | None = None
        choice = actions[0]
        for action in actions:
            assert isinstance(action, Profit)
            evaluation = evaluate_profits(facts, state.evaluation, _Then(Replay([*state.profit_choices, action.amount])))
            profit = sum(evaluation.profits or ())
            collected = min(profit, len(played) + len(state.pool)) if profit > 0 else 0
            if yes_voters:
                each = collected // len(yes_voters)
                mine = each * (world.me in yes_voters) + collected - each * len(yes_voters)
                theirs = each * (len(yes_voters) - (world.me in yes_voters))
            else:
                mine, theirs = collected, 0
            key = (mine - theirs / max(1, state.num_players - 1), profit)
            if best is None or key > best:
                best, choice = key, action
        return choice

    # -- CHANGE edits ----------------------------------------------------------------------------------

    def _edit(self, world: _World, actions: Sequence[Action]) -> Action:
        """Score every way to finish the edit by the re-vote it leads to."""
        state = world.state
        me = world.me
        personal = list(state.personal[me])
        row = list(state.row)
        edits = state.edits + 1
        best: tuple[float, int] | None = None
        choice = actions[0]
        for index, action in enumerate(actions):
            outcomes: list[list[str]] = []
            if isinstance(action, Remove):
                rest = [card for card in row if card != action.card]
                outcomes = ([rest] if rest else []) + [[*rest, card] for card in personal]
            elif isinstance(action, Add):
                outcomes = [[*row, action.card]] if state.edit_step in (EDIT_START, EDIT_ADD) else []
            elif isinstance(action, Finish):
                outcomes = [row]
            elif isinstance(action, Slot):
                added = state.edit_added
                assert added is not None
                outcomes = [[*row[: action.index], added, *row[action.index :]]]
            if not outcomes:
                continue
            value = max(self._row_value(world, outcome, edits) for outcome in outcomes)
            if best is None or (value, -index) > best:
                best, choice = (value, -index), action
        return choice


class _Then:
    """A chooser that replays given choices, then takes the first option of any later tie."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay

    def __call__(self, point: Any) -> Any:
        try:
            return self.replay(point)
        except NeedChoice:
            return first_option(point)
