"""The Maybe Movies heuristic bot: pitch movies it expects to pass and that score for it; vote by expected value.

The bot sees only its :class:`~greenlight.core.bot.SeatView`. It samples a few
determinized worlds (other hands, other seats' pending votes and the draw pile
drawn again) and, in each, lets the other voters pick a random card from their
hand. Every candidate (a pitch, a vote, an edit) is scored by the expected gain
of the bot minus the mean gain of the others, where a gain counts

* won vote cards, each worth the icon's count on Movies Made plus the growth
  expected over the turns left, and
* the points every won area gains from the card that joins Movies Made.

Cost and profit choices are worked out from the revealed final vote.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
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
from greenlight.games.maybe_movies.cards import ICON_INDEX, NUM_ICONS, YES, VoteCard
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

#: Determinized worlds sampled per decision.
SAMPLES = 8
#: Largest pitch the bot considers (bigger rows rarely pass).
MAX_PITCH = 3
#: Expected Movies Made icons added per icon and per turn left (about 1.4 icons per made card, 6 icons).
GROWTH_PER_TURN = {False: 0.12, True: 0.2}  # keyed by Trendsetter: every pitch adds a stack there


class _World:
    """One determinized world seen from the bot's seat, with the numbers the value model needs."""

    def __init__(self, world: MaybeMoviesState, me: int, rng: random.Random) -> None:
        self.state = world
        self.me = me
        self.table = world.table
        self.n = world.num_players
        counts = rules.icon_counts(world)
        turns_left = max((len(hand) for hand in world.hands), default=0)
        growth = GROWTH_PER_TURN[world.trendsetter] * turns_left
        self.card_value = [counts[icon] + growth for icon in range(NUM_ICONS)]
        self.won_icons = [[0] * NUM_ICONS for _ in range(self.n)]
        for seat, cards in enumerate(world.won):
            for card in cards:
                self.won_icons[seat][self.table.vote(card).icon] += 1
        pool_values = [self.card_value[self.table.vote(card).icon] for card in world.pool]
        self.pool_size = len(pool_values)
        self.pool_value = sum(pool_values) / len(pool_values) if pool_values else 0.0
        self.made = rules.made_icons(world)
        order = rules.vote_order(world)
        self.order = order
        # The other seats' votes: the (resampled) committed ones, else a random card of their hand.
        self.others: dict[int, str | None] = {}
        for seat in range(self.n):
            if seat == me:
                continue
            hand = self.voting_hand(seat)
            committed = world.votes[seat] if world.phase == VOTE else None
            self.others[seat] = committed if committed is not None else (rng.choice(hand) if hand else None)

    def voting_hand(self, seat: int) -> list[str]:
        """The cards ``seat`` can vote with next (during a CHANGE round its revealed card comes back first)."""
        hand = list(self.state.hands[seat])
        if self.state.phase == CHANGE_EDIT and self.state.rounds:
            card = self.state.rounds[-1][seat]
            if card is not None and not self.table.vote(card).is_change:
                hand.append(card)
        return hand

    def preferred_pick(self, seat: int, row: Sequence[str]) -> str:
        """The row card ``seat`` would put into Movies Made: the one whose icons score most for it against the others."""
        best, best_value = row[0], float("-inf")
        for card in row:
            value = 0.0
            for icon in self.table.movie(card).printed_icons:
                others = sum(self.won_icons[s][icon] for s in range(self.n) if s != seat) / max(1, self.n - 1)
                value += self.won_icons[seat][icon] - others
            if value > best_value:
                best, best_value = card, value
        return best

    def gains(self, row: Sequence[str], votes: Sequence[str | None], edits: int) -> list[float]:
        """Expected gain of every seat if ``row`` is decided by ``votes`` (a CHANGE card counts as no vote)."""
        table = self.table
        played: list[tuple[int, VoteCard]] = []
        for seat in self.order:
            card = votes[seat]
            if card is not None:
                vote = table.vote(card)
                if not vote.is_change:
                    played.append((seat, vote))
        yes = sum(1 for _, vote in played if vote.kind == YES)
        every, failed, succeeded = self.made
        facts = PitchFacts(tuple(table.movie(card) for card in row), yes, len(played) - yes, edits, every, failed, succeeded)
        evaluation = evaluate_costs(facts, first_option)
        success = passes(evaluation.need, evaluation.any_units, net_of([vote for _, vote in played]))
        gains = [0.0] * self.n
        active = self.state.active
        if success:
            profit = sum(evaluate_profits(facts, evaluation, first_option).profits or ())
            values = [self.card_value[vote.icon] for _, vote in played]
            if profit <= 0:
                collected, total = 0, 0.0
            elif profit <= len(played):
                collected, total = profit, profit / len(played) * sum(values)
            else:
                extra = min(profit - len(played), self.pool_size)
                collected, total = len(played) + extra, sum(values) + extra * self.pool_value
            if collected:
                per_card = total / collected
                yes_voters = [seat for seat, vote in played if vote.kind == YES]
                if yes_voters:
                    each = collected // len(yes_voters)
                    for seat in yes_voters:
                        gains[seat] += each * per_card
                    gains[active] += (collected - each * len(yes_voters)) * per_card
                else:
                    gains[active] += total
        elif yes:
            for seat, vote in played:
                if vote.kind != YES:
                    gains[seat] += self.card_value[vote.icon]
        if success or self.state.trendsetter:
            made = self.preferred_pick(active, row)
            for icon in table.movie(made).printed_icons:
                for seat in range(self.n):
                    gains[seat] += self.won_icons[seat][icon]
        return gains

    def utility(self, row: Sequence[str], my_vote: str | None, edits: int) -> float:
        """The bot's gain minus the mean gain of the others."""
        votes: list[str | None] = [self.others.get(seat) for seat in range(self.n)]
        votes[self.me] = my_vote
        gains = self.gains(row, votes, edits)
        others = (sum(gains) - gains[self.me]) / max(1, self.n - 1)
        return gains[self.me] - others


class HeuristicBot(Bot):
    """Pitches movies it expects to pass and that score for it; votes by expected value for its won votes."""

    name = "heuristic"

    def choose(self, view: SeatView) -> Action:
        """Pick an action for the seat behind ``view``."""
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        kind = view.decision().kind
        worlds = [_World(view.determinize(self.rng), view.seat, self.rng) for _ in range(SAMPLES)]  # type: ignore[arg-type]
        if kind == VOTE:
            return self._vote(worlds, actions)
        if kind == PITCH:
            return self._pitch(worlds, actions)
        if kind == MOVIE_PICK:
            return self._pick(worlds[0], actions)
        if kind == COST_CHOICE:
            return self._cost_choice(worlds[0], actions)
        if kind == PROFIT_CHOICE:
            return self._profit_choice(worlds[0], actions)
        if kind == CHANGE_EDIT:
            return self._edit(worlds, actions)
        return self.rng.choice(actions)

    # -- votes --------------------------------------------------------------------------------

    def _vote_values(self, worlds: Sequence[_World], row: Sequence[str], cards: Sequence[str], edits: int) -> dict[str, float]:
        """Mean utility of each candidate vote; a CHANGE card is valued by the pool card it brings back."""
        world = worlds[0]
        values: dict[str, float] = {}
        seen: dict[tuple[Any, ...], float] = {}
        for card in cards:
            vote = world.table.vote(card)
            if vote.is_change:
                # A CHANGE vote postpones the decision and (pool permitting) swaps itself for a pool card.
                values[card] = 0.5 * world.pool_value if world.pool_size else -0.5
                continue
            key = (vote.kind, vote.icon, vote.value)
            if key not in seen:
                seen[key] = sum(sample.utility(row, card, edits) for sample in worlds) / len(worlds)
            values[card] = seen[key]
        return values

    def _vote(self, worlds: Sequence[_World], actions: Sequence[Action]) -> Action:
        state = worlds[0].state
        cards = [action.card for action in actions if isinstance(action, Vote)]
        values = self._vote_values(worlds, state.row, cards, state.edits)
        best = max(cards, key=lambda card: (values[card], -cards.index(card)))
        return Vote(best)

    # -- pitching -------------------------------------------------------------------------------

    def _row_value(self, worlds: Sequence[_World], row: Sequence[str], edits: int) -> float:
        """What the row is worth to the bot when it votes its best card against the sampled votes."""
        world = worlds[0]
        hand = world.voting_hand(world.me)
        candidates = [card for card in hand if not world.table.vote(card).is_change]
        if not candidates:
            return sum(sample.utility(row, None, edits) for sample in worlds) / len(worlds)
        values = self._vote_values(worlds, row, candidates, edits)
        return max(values.values())

    def _pitch(self, worlds: Sequence[_World], actions: Sequence[Action]) -> Action:
        state = worlds[0].state
        addable = [action.card for action in actions if isinstance(action, Add)]
        row = list(state.row)
        room = MAX_PITCH - len(row)
        best_value = self._row_value(worlds, row, 0) if row else float("-inf")
        best_next: Action = Finish()
        for size in range(1, max(0, room) + 1):
            for extra in itertools.combinations(addable, size):
                value = self._row_value(worlds, row + list(extra), 0)
                if value > best_value:
                    best_value, best_next = value, Add(extra[0])
        if best_next not in actions:
            return actions[0]
        return best_next

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

    def _edit(self, worlds: Sequence[_World], actions: Sequence[Action]) -> Action:
        """Score every way to finish the edit by the re-vote it leads to."""
        state = worlds[0].state
        me = worlds[0].me
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
            value = max(self._row_value(worlds, outcome, edits) for outcome in outcomes)
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
