"""Movie Empire bots: a heuristic player and a cheap position evaluation for search bots.

The heuristic follows one coherent plan: keep scripts it can complete, buy and
lay the stages its lines still need (never closing a stage the script still
needs), start a second line when Grumpy allows it, release a movie once its
script is met (or when time runs out), premiere where the trend and market pay
most, keep Grumpy happy enough for a budget and a second line, and keep its
dossier for the end-game bonus unless the annual plan blocks a ready release.

It reads a determinized world (``SeatView.determinize``) only for what the seat
knows: its own hand and lines and the public board.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.games.movie_empire.actions import (
    NEW_LINE,
    SKIP,
    Cut,
    Discard,
    Done,
    End,
    Exempt,
    Give,
    Keep,
    Lay,
    Market,
    Net,
    Pass,
    Place,
    Produce,
    Purge,
    Release,
    Script,
    Shut,
    Stack,
    Star,
    Stop,
    Take,
)
from greenlight.games.movie_empire.cards import (
    T_CREDIT,
    T_DENOUNCE,
    T_FIRST_PLAYER,
    T_NICE,
    T_NICE_DOSSIER,
    T_OVERTIME,
    T_PRODUCTION,
    T_RELEASE,
    T_REVEAL,
    T_SABOTAGE,
    T_SCRIPT,
    T_STAR,
    Tables,
)
from greenlight.games.movie_empire.effects import hand_limit, level
from greenlight.games.movie_empire.lines import Line, apply_lay, holds, lay_actions, metrics, production_pp
from greenlight.games.movie_empire.premiere import EUR_PP, USA_MONEY
from greenlight.games.movie_empire.state import MovieEmpireState
from greenlight.games.movie_empire.working import HIRE_FEES, releasable

#: What one money is worth in PP while it can still buy cards (at the end it is worth 1/3).
MONEY = 0.4


def money_worth(money: int) -> float:
    """The worth of one more money: less when plenty is held, never below the 1/3 it scores at the end."""
    return MONEY if money <= 8 else 0.36 if money <= 14 else 1 / 3


#: An unused dossier scores 3 PP at the end; spending one must be worth more.
DOSSIER = 3.0
#: Share of a script's PP credited for each card it needs, before the script is met.
SHARE = 1.0
#: What each needed card adds beyond the script: its part of the premiere's market and trend.
PREMIERE_SHARE = 0.6


# -- line and card values -----------------------------------------------------------------------------


def deficits(table: Tables, line: Line) -> list[int]:
    """How many more cards of each stage the script needs."""
    counts = line.counts()
    return [max(0, need - have) for need, have in zip(table.scripts[line.script].needs, counts, strict=True)]


def reachable(line: Line, stage: int) -> bool:
    """Whether a card of ``stage`` can still be laid at an end, now or after the stages between (never between the ends)."""
    return not line.cards or stage <= line.stages[0] or stage >= line.stages[-1]


def feasible(table: Tables, line: Line) -> bool:
    """Whether every stage the script still needs can still be laid (stages strictly between the ends are closed)."""
    return all(missing == 0 or reachable(line, stage) for stage, missing in enumerate(deficits(table, line)))


def premiere_estimate(state: MovieEmpireState, line: Line, market_bonus: float = EUR_PP) -> float:
    """PP the line would score if it premiered now in a good market (trend by its requirement only)."""
    table = state.table
    m = metrics(table, line)
    score = production_pp(table, line) + market_bonus
    if m.script_met:
        score += table.scripts[line.script].pp
    score += sum(table.stars[star].pp for star in line.stars if holds(table.stars[star].requirement, m))
    if m.period >= 6:
        score += 1.5  # +2 PP, usually -1 sympathy
    trend = state.trend_row[2]
    if trend is not None and line.cards and holds(table.trends[trend].requirement, m):
        score += table.trends[trend].pp_without + (2.0 if not state.trend_hit else 0.0)
    return score


def line_potential(state: MovieEmpireState, line: Line) -> float:
    """What a line is worth to its owner before release: its premiere now plus credit for script progress."""
    table = state.table
    script = table.scripts[line.script]
    estimate = premiere_estimate(state, line, market_bonus=0.0)
    needed = sum(script.needs)
    done = needed - sum(deficits(table, line))
    estimate += PREMIERE_SHARE * done  # each needed card brings the premiere's market and trend nearer
    if metrics(table, line).script_met or not feasible(table, line):
        return estimate
    return estimate + SHARE * script.pp * done / max(1, needed)


def _time_factor(state: MovieEmpireState) -> float:
    left = state.last_round - state.round
    return 1.0 if left >= 2 else 0.7 if left == 1 else 0.25


def lay_gain(state: MovieEmpireState, line: Line, action: Lay | Stack | Star) -> float:
    """How much a lay raises the line's potential (negative if it closes a needed stage)."""
    after = apply_lay(state.table, line, action)
    return line_potential(state, after) - line_potential(state, line)


def _targets(state: MovieEmpireState, seat: int, hand: Sequence[str]) -> list[tuple[Line, float]]:
    """Lines a card could serve, with a weight: own open lines (1.0), shut ones (0.5), lines planned from scripts in hand."""
    table = state.table
    targets: list[tuple[Line, float]] = []
    for line in state.lines[seat]:
        if line is not None and not line.locked:
            targets.append((line, 0.5 if line.shut else 1.0))
    if any(line is None or line.locked for line in state.lines[seat]):
        for card in dict.fromkeys(hand):
            if card in table.scripts:
                targets.append((Line(card), 0.85))
    return targets


def card_value(state: MovieEmpireState, seat: int, card: str, hand: Sequence[str] | None = None, exclude: Line | None = None) -> float:
    """What a card is worth to ``seat`` next to the rest of ``hand``: its best use in a line (now or later).

    ``exclude`` leaves one line out (to ask what a card is worth elsewhere).
    """
    table = state.table
    hand = list(state.hands[seat] if hand is None else hand)
    if card in hand:
        hand.remove(card)
    if card in table.scripts:
        return _script_card_value(state, seat, card, hand)
    targets = [(line, weight) for line, weight in _targets(state, seat, hand) if line is not exclude]
    if card in table.stars:
        star = table.stars[card]
        best = 0.0
        for line, weight in targets:
            if table.scripts[line.script].genre in star.banned:
                continue
            fits = bool(line.cards) and holds(star.requirement, metrics(table, line))
            best = max(best, weight * star.pp * (1.0 if fits else 0.45))
        return best * _time_factor(state)
    info = table.production[card]
    best = 0.1 * info.pp
    spare = [0, 0, 0, 0]  # cards of each stage already in hand (they fill deficits first)
    for other in hand:
        stage = table.production[other].stage if other in table.production else -1
        if stage >= 0:
            spare[stage] += 1
    for line, weight in targets:
        script = table.scripts[line.script]
        share = SHARE * script.pp / max(1, sum(script.needs)) + PREMIERE_SHARE
        if info.is_upgrade and any(c == info.upgrade_of and s is None for c, s in zip(line.cards, line.stacked, strict=True)):
            best = max(best, weight * info.pp)
            continue
        if any(table.production[c].carried_name == info.carried_name for c in line.cards):
            continue
        missing = deficits(table, line)
        pp = 1 if info.is_upgrade else info.pp
        stages = [s for s in range(4) if reachable(line, s)] if info.is_joker else [info.stage]
        for stage in stages:
            if not reachable(line, stage):
                continue
            value = pp + share if missing[stage] > spare[stage] and feasible(table, line) else 0.4 * pp
            best = max(best, weight * value)
    return best * _time_factor(state)


def script_quality(table: Tables, script_id: str) -> float:
    """Scripts of about four cards pay best for the time they take."""
    script = table.scripts[script_id]
    needed = sum(script.needs)
    scarce = max(0, script.needs[0] - 1) + max(0, script.needs[3] - 1)  # green and red cards are the rarest
    return script.pp - 1.2 * needed - 1.0 * max(0, needed - 4) - 0.4 * scarce + 0.5


def _script_card_value(state: MovieEmpireState, seat: int, card: str, hand: Sequence[str]) -> float:
    table = state.table
    lines = state.lines[seat]
    if not any(line is None or line.locked for line in lines):
        return 0.2
    spare_scripts = sum(1 for other in hand if other in table.scripts)
    left = state.last_round - state.round
    needed = sum(table.scripts[card].needs)
    if left * 2 < needed:
        return 0.2
    quality = max(0.0, script_quality(table, card))
    open_now = sum(1 for line in lines if line is not None)
    if open_now == 0 and spare_scripts == 0:
        return 5.0 + 0.3 * quality
    if open_now < level(state, seat).lines and spare_scripts == 0:
        return 3.0 + 0.2 * quality
    return (0.8 if spare_scripts == 0 else 0.2) + 0.05 * quality


# -- evaluation (for search bots) -----------------------------------------------------------------------


def evaluate(state: MovieEmpireState, seat: int) -> float:
    """A cheap estimate of ``seat``'s final score from this position (PP, money, sympathy, lines, hand)."""
    table = state.table
    score = float(state.pp[seat]) + state.money[seat] / 3.0 + table.sympathy[state.sympathy[seat]].end_pp
    if state.dossier[seat] >= 0 and not state.clean:
        score += 3.0
    score += 2.0 * state.statues[seat]
    factor = _time_factor(state)
    for line in state.lines[seat]:
        if line is not None:
            score += (premiere_estimate(state, line) if line.locked else line_potential(state, line) * factor) * (0.5 if line.shut else 1.0)
    score += 0.4 * sum(card_value(state, seat, card) for card in state.hands[seat])
    return score


# -- the bot ----------------------------------------------------------------------------------------------


@dataclass
class _Choice:
    action: Action
    score: float


class HeuristicBot(Bot):
    """Plays the coherent plan described in the module docstring."""

    name = "heuristic"

    def choose(self, view: SeatView) -> Action:
        """Pick an action for the seat behind ``view``."""
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        world = view.determinize(random.Random(self.rng.getrandbits(32)))
        assert isinstance(world, MovieEmpireState)
        return self.decide(world, view.seat, actions)

    def decide(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        """The heuristic's choice among ``actions`` on a state whose hidden parts are already drawn (search rollouts).

        Deterministic in (world, seat, actions); reads only what ``seat`` knows.
        """
        if len(actions) == 1:
            return actions[0]
        from greenlight.games.movie_empire.rules import decision

        handler = getattr(self, f"_on_{decision(world).kind}", None)
        choice: Action | None = handler(world, seat, actions) if handler is not None else None
        if choice is None or choice not in actions:
            return actions[0]
        return choice

    # -- setup and Grumpy --------------------------------------------------------------------------

    def _on_keep(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        table = world.table
        if world.phase == "setup":
            return max(actions, key=lambda a: sum(script_quality(table, card) for card in _cards(a)))
        return self._on_sabotage_keep(world, seat, actions)

    def _on_sabotage_keep(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        return max(actions, key=lambda a: sum(card_value(world, seat, card) for card in _cards(a)))

    def _on_exemption(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        plan = world.table.plans[world.plan or ""]
        ways = {action.way: action for action in actions if isinstance(action, Exempt)}
        if plan.effect in ("gain_money", "none"):
            return ways["decline"]
        if "free" in ways:
            return ways["free"]
        if plan.effect == "release_requirement":
            ready = [line for line in world.lines[seat] if line is not None and _ready(world, seat, line)]
            blocked = [line for line in ready if not holds(plan.release_requirement, metrics(world.table, line))]
            if blocked:
                if "dossier" in ways:
                    return ways["dossier"]
                if "pay" in ways and world.money[seat] >= 8:
                    return ways["pay"]
        return ways["decline"]

    def _on_give(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        return min(actions, key=lambda a: sum(card_value(world, seat, card) for card in _cards(a)))

    # -- the working phase ----------------------------------------------------------------------------

    def _on_turn(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        dossier = self._dossier_action(world, seat, actions)
        if dossier is not None:
            return dossier
        produce = self._best_produce(world, seat, actions)
        if produce is not None and (not world.turn_placed or produce.score > 0.4):
            return produce.action
        if not world.turn_placed:
            places = [self._score_place(world, seat, action) for action in actions if isinstance(action, Place)]
            best = max(places, key=lambda choice: choice.score, default=None)
            if best is not None and best.score > 0.0:
                return best.action
            return next((action for action in actions if isinstance(action, Pass)), actions[0])
        return next((action for action in actions if isinstance(action, End)), actions[0])

    def _dossier_action(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action | None:
        """Cut! a strong rival release (3-4 players), or Purge a board that offers no stage a line needs."""
        cost = _dossier_cost(world)
        for action in actions:
            if isinstance(action, Cut):
                index = world.table.space_by_id[action.space].index
                victim = world.assistant[index]
                line = world.lines[victim][world.release_line[index]]
                leader = max(range(world.num_players), key=lambda other: world.pp[other])
                if line is not None and premiere_estimate(world, line) - 1.0 > cost + 8.0 and leader == victim:
                    return action
        purge = next((action for action in actions if isinstance(action, Purge)), None)
        early = not world.turn_placed and world.round <= world.last_round - 2 and world.money[seat] >= 5
        if purge is not None and early and _missing_from_board(world, seat) and len(world.hands[seat]) <= 2 and cost < 2.5:
            return purge
        return None

    def _best_produce(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> _Choice | None:
        best: _Choice | None = None
        for action in actions:
            if not isinstance(action, Produce):
                continue
            if action.line == NEW_LINE:
                score = self._new_line_score(world, seat)
            else:
                line = world.lines[seat][int(action.line) - 1]
                assert line is not None
                gains = [self._net_gain(world, seat, line, lay) for lay in lay_actions(world.table, line, world.hands[seat])]
                score = max(gains, default=0.0)
            if score > 0.25 and (best is None or score > best.score):
                best = _Choice(action, score)
        return best

    def _new_line_score(self, world: MovieEmpireState, seat: int) -> float:
        table = world.table
        hand = world.hands[seat]
        best = 0.0
        for script in (card for card in hand if card in table.scripts):
            line = Line(script)
            for lay in lay_actions(table, line, hand):
                best = max(best, self._net_gain(world, seat, line, lay) + 1.0)
        return best

    def _net_gain(self, world: MovieEmpireState, seat: int, line: Line, lay: Lay | Stack | Star) -> float:
        """A lay's gain, less what keeping the card for another line would be worth."""
        elsewhere = card_value(world, seat, lay.card, exclude=line) / max(_time_factor(world), 0.01)
        return lay_gain(world, line, lay) - 0.9 * elsewhere + (0.5 if len(world.hands[seat]) >= hand_limit(world) else 0.0)

    def _score_place(self, world: MovieEmpireState, seat: int, action: Place) -> _Choice:
        table = world.table
        space = table.space_by_id[action.space]
        fee = HIRE_FEES[world.placed[seat]]
        money = world.money[seat]
        worth = money_worth(money)
        score = -fee * worth
        task = space.task
        hand = world.hands[seat]
        full = len(hand) >= hand_limit(world)
        worst = min((card_value(world, seat, card) for card in hand), default=0.0)
        if task == T_PRODUCTION:
            card = world.slot_card[space.index] or ""
            price = table.production[card].cost + space.surcharge
            gain = card_value(world, seat, card, [*hand, card])
            if full:
                gain -= max(worst, 0.0) if gain > worst else gain
            score += gain - price * worth
            if money - fee - price < 2 and gain < 3:
                score -= 1.0
        elif task == T_SCRIPT:
            card = world.slot_card[space.index] or ""
            score += card_value(world, seat, card) - (worst if full else 0.0) - 0.3
        elif task == T_STAR:
            card = world.slot_card[space.index] or ""
            star = table.stars[card]
            score += card_value(world, seat, card) - star.cost * worth - (worst if full else 0.0)
        elif task == T_CREDIT:
            score += space.money * money_worth(money + space.money) * (1.6 if money < 5 else 1.0) - 0.3
        elif task == T_FIRST_PLAYER:
            score += space.money * money_worth(money + space.money) + 0.2
        elif task == T_OVERTIME:
            digging = 1.2 if _missing_from_board(world, seat) else 0.0  # draw for a stage no slot offers
            score += (1.0 + digging if len(hand) <= 2 else 0.2 + digging / 2 if len(hand) == 3 else -2.0) + space.money * worth
        elif task == T_RELEASE:
            score += self._release_value(world, seat)
        elif task in (T_NICE, T_NICE_DOSSIER):
            score += self._sympathy_value(world, seat, 2 if action.dossier else 1) - (_dossier_cost(world) if action.dossier else 0.0)
        elif task == T_DENOUNCE:
            others = [other for other in range(world.num_players) if other != seat]
            hurt = sum(1.0 if world.sympathy[o] in (2, 3) else 0.3 for o in others)
            score += hurt - worth - 0.2
        elif task == T_REVEAL:  # +3 PP at the end for 4 money, and the dossier's uses meanwhile
            score += DOSSIER + 0.5 - (-space.money) * worth if money - fee >= 10 else -1.0
        elif task == T_SABOTAGE:
            if action.dossier:  # draw 5, keep the 2 best
                digging = 2.5 if _missing_from_board(world, seat) else 1.2
                score += 2 * digging * _time_factor(world) - _dossier_cost(world) - (1.5 if len(hand) >= 3 else 0.0)
            else:
                score += self._swap_value(world, seat)
        return _Choice(action, score)

    def _sympathy_value(self, world: MovieEmpireState, seat: int, steps: int) -> float:
        level_now = world.sympathy[seat]
        table = world.table
        after = min(5, level_now + steps)
        value = (table.sympathy[after].end_pp - table.sympathy[level_now].end_pp) * 0.6
        value += (table.sympathy[after].budget - table.sympathy[level_now].budget) * MONEY * min(4, world.last_round - world.round)
        if table.sympathy[after].lines > table.sympathy[level_now].lines and world.round < world.last_round - 1:
            value += 2.5
        return value

    def _release_value(self, world: MovieEmpireState, seat: int) -> float:
        best = -1.0
        for index in releasable(world, seat):
            line = world.lines[seat][index]
            assert line is not None
            if _ready(world, seat, line):
                best = max(best, premiere_estimate(world, line) + 2.0)
        return best

    def _swap_value(self, world: MovieEmpireState, seat: int) -> float:
        table = world.table
        mine = [card for card in world.hands[seat] if card in table.production]
        if not mine:
            return -1.0
        give = min(card_value(world, seat, card) for card in mine)
        best = 0.0
        for space in table.spaces_in_use(world.num_players, world.clean):
            card = world.slot_card[space.index]
            if space.task == T_PRODUCTION and card is not None and world.blocked[space.index] < 0:
                best = max(best, card_value(world, seat, card))
        return best - give - 0.5

    def _on_produce(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        line = world.lines[seat][world.target]
        if line is None:
            scripts = [action for action in actions if isinstance(action, Script)]
            return max(scripts, key=lambda a: self._start_score(world, seat, a.card))
        best: _Choice | None = None
        for action in actions:
            if isinstance(action, (Lay, Stack, Star)):
                gain = self._net_gain(world, seat, line, action)
                if best is None or gain > best.score:
                    best = _Choice(action, gain)
        done = next((action for action in actions if isinstance(action, Done)), None)
        if best is not None and (best.score > 0.25 or done is None):
            return best.action
        return done if done is not None else actions[0]

    def _start_score(self, world: MovieEmpireState, seat: int, script: str) -> float:
        line = Line(script)
        hand = [card for card in world.hands[seat] if card != script]
        gains = [self._net_gain(world, seat, line, lay) for lay in lay_actions(world.table, line, hand)]
        return max(gains, default=0.0) + script_quality(world.table, script)

    def _on_swap(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        return min(actions, key=lambda a: card_value(world, seat, a.card))  # type: ignore[attr-defined]

    def _on_take(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        table = world.table

        def value(action: Action) -> float:
            assert isinstance(action, Take)
            card = world.slot_card[table.space_by_id[action.slot].index]
            return card_value(world, seat, card) if card is not None else 0.0

        return max(actions, key=value)

    def _on_release(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        def value(action: Action) -> float:
            assert isinstance(action, Release)
            line = world.lines[seat][action.line - 1]
            return premiere_estimate(world, line) if line is not None else 0.0

        return max(actions, key=value)

    # -- interrupts and premieres ------------------------------------------------------------------------

    def _on_discard(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        stop = next((action for action in actions if isinstance(action, Stop)), None)
        if stop is not None:
            return stop
        discards = [action for action in actions if isinstance(action, Discard)]
        return min(discards, key=lambda a: card_value(world, seat, a.card))

    def _on_shut(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        def value(action: Action) -> float:
            assert isinstance(action, Shut)
            line = world.lines[seat][action.line - 1]
            assert line is not None
            return premiere_estimate(world, line) if line.locked else line_potential(world, line)

        return min(actions, key=value)

    def _on_market(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        table = world.table
        from greenlight.games.movie_empire.premiere import pending_release

        pending = pending_release(world)
        line = world.lines[seat][pending[1]] if pending is not None else None
        trend_id = world.trend_row[2]
        trend = table.trends[trend_id] if trend_id is not None else None
        hit = line is not None and trend is not None and holds(trend.requirement, metrics(table, line))

        def value(action: Action) -> float:
            assert isinstance(action, Market)
            base = {"EUR": float(EUR_PP), "USA": USA_MONEY * MONEY, "CHN": 1.0}[action.market]
            if hit and trend is not None:
                base += trend.pp_with if trend.market is None or trend.market == action.market else trend.pp_without
            return base

        return max(actions, key=value)

    def _on_internet(self, world: MovieEmpireState, seat: int, actions: list[Action]) -> Action:
        best: _Choice | None = None
        for action in actions:
            assert isinstance(action, Net)
            if action.line == SKIP:
                continue
            line = world.lines[seat][int(action.line) - 1]
            if line is None:
                continue
            value = premiere_estimate(world, line, market_bonus=0.0) - 2 * MONEY
            keep = line_potential(world, line) * (0.0 if world.round >= world.last_round else 0.8)
            if value > max(keep, 2.0) and (best is None or value > best.score):
                best = _Choice(action, value)
        if best is not None:
            return best.action
        return next(action for action in actions if isinstance(action, Net) and action.line == SKIP)


def _ready(world: MovieEmpireState, seat: int, line: Line) -> bool:
    """Release now: the script is met, it can no longer be met, or it is worth enough for the time left."""
    table = world.table
    if 1 not in line.stages:
        return False
    m = metrics(table, line)
    if m.script_met:
        return True
    left = world.last_round - world.round
    if left == 0:
        return True
    now = premiere_estimate(world, line)
    if not feasible(table, line):
        return now >= 4.0
    # About two needed cards can be found per round: release what cannot be finished in time.
    return sum(deficits(table, line)) > 2 * left and now >= 4.0


def _cards(action: Action) -> tuple[str, ...]:
    assert isinstance(action, (Keep, Give))
    return action.cards


def _dossier_cost(world: MovieEmpireState) -> float:
    """The end bonus given up, plus the Upkeep penalty: your own sympathy at 2 players, the others' at 3-4 (a gain)."""
    if world.num_players == 2:
        return DOSSIER + 0.8
    return DOSSIER - 0.4 * (world.num_players - 1)


def _missing_from_board(world: MovieEmpireState, seat: int) -> bool:
    """Some line needs a stage that neither the hand nor any production slot offers."""
    table = world.table
    offered = {table.production[card].stage for card in world.hands[seat] if card in table.production}
    for space in table.spaces_in_use(world.num_players, world.clean):
        card = world.slot_card[space.index]
        if space.task == T_PRODUCTION and card is not None:
            offered.add(table.production[card].stage)
    if -1 in offered:
        return False  # a joker can fill it
    for line in world.lines[seat]:
        if line is None or line.locked:
            continue
        if any(missing and stage not in offered for stage, missing in enumerate(deficits(table, line))):
            return True
    return False
