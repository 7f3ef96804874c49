"""Budget, Profit and the success check: §4.3, §4.4, §6.1 (doubling) and §6.3 (blockbuster texts).

Everything here is a pure function of the final row, the final vote and the
public table state, so bots can call it on hypothetical rows. A cost value is a
7-tuple: the count of each named icon in icon order, then the ``any`` units.

>>> result = success_check(need=(1, 2, 0, 0, 1, 0), any_units=0, net=(-2, 5, 4, 0, 0, 0))
>>> result.shortfall_total, result.wildcards, result.success
(4, 3, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import floordiv, gt, mul, sub
from typing import Any, NamedTuple

from greenlight.games.maybe_movies.cards import ICONS, NO, NUM_ICONS, YES, MovieCard, VoteCard
from greenlight.games.maybe_movies.observation import Check, CostView, IconCounts, IconName

Cost = tuple[int, int, int, int, int, int, int]
EMPTY: Cost = (0, 0, 0, 0, 0, 0, 0)
ANY = NUM_ICONS  # index of the ``any`` units in a Cost

#: Builds a named tuple from all its fields in order: what calling the class does, without its keyword handling (half
#: the cost; the rules build these records at every final vote).
_new_record = tuple.__new__


def cost_of_icons(icons: Sequence[int], times: int = 1) -> Cost:
    """A cost holding ``times`` copies of each icon in ``icons``."""
    counts = [0] * (NUM_ICONS + 1)
    for icon in icons:
        counts[icon] += times
    return tuple(counts)  # type: ignore[return-value]


def any_cost(units: int) -> Cost:
    """A cost of ``units`` any-units."""
    return (0, 0, 0, 0, 0, 0, units)


def cost_size(cost: Cost) -> int:
    """Number of named icons plus ``any`` units."""
    return sum(cost)


def double(cost: Cost) -> Cost:
    """Every count of the cost x2 (Trendsetter cost doubling, §6.1)."""
    return tuple(2 * count for count in cost)  # type: ignore[return-value]


def cost_json(cost: Cost) -> CostView:
    """Readable form: named icons that occur, and the any-units."""
    return {"icons": dict(_named_counts(cost)), "any": cost[ANY]}


@cache
def _named_counts(cost: Cost) -> tuple[tuple[IconName, int], ...]:
    return tuple((ICONS[i], cost[i]) for i in range(NUM_ICONS) if cost[i])


@cache
def printed_cost(icons: tuple[int, ...]) -> Cost:
    """The cost of an icon card with these printed icons (``cost_of_icons``, made once per distinct tuple)."""
    return cost_of_icons(icons)


def icon_counts_json(counts: Sequence[int]) -> IconCounts:
    """Counts in icon order as a mapping icon -> count, every icon present.

    >>> icon_counts_json([2, 0, 0, 0, 1, 0])
    {'money': 2, 'actors': 0, 'script': 0, 'setting': 0, 'camera': 1, 'microphone': 0}
    """
    money, actors, script, setting, camera, microphone = counts
    return {"money": money, "actors": actors, "script": script, "setting": setting, "camera": camera, "microphone": microphone}


# -- the success check (§4.4) -------------------------------------------------------------


class CheckResult(NamedTuple):
    """The success check worked out: needs, net, shortfall D, surplus S, wildcards W and any-units A."""

    need: tuple[int, ...]
    net: tuple[int, ...]
    shortfall: tuple[int, ...]
    surplus: tuple[int, ...]
    any_units: int
    shortfall_total: int
    surplus_total: int
    wildcards: int
    success: bool

    def to_json(self) -> Check:
        """JSON form; per-icon lists are in icon order (§2.1)."""
        return {
            "need": list(self.need),
            "net": list(self.net),
            "shortfall": list(self.shortfall),
            "surplus": list(self.surplus),
            "A": self.any_units,
            "D": self.shortfall_total,
            "S": self.surplus_total,
            "W": self.wildcards,
            "result": "SUCCESS" if self.success else "FAIL",
        }


def net_of(votes: Sequence[VoteCard]) -> tuple[int, ...]:
    """net[i] = values of YES cards with icon i minus values of NO cards with icon i (§4.4 step 1)."""
    net = [0] * NUM_ICONS
    for card in votes:
        if card.kind == YES:
            net[card.icon] += card.value
        elif card.kind == NO:
            net[card.icon] -= card.value
    return tuple(net)


def success_check(need: Sequence[int], any_units: int, net: Sequence[int]) -> CheckResult:
    """§4.4: D from needed icons (a negative net adds to it, R3), surplus pairs as wildcards, then W >= D and S - 2D >= A."""
    # Per icon, in C (maps over the six icons; the check runs at every final vote):
    # shortfall = max(0, need - net) where need > 0, else 0; surplus = max(0, net - need).
    shortfall = tuple(map(mul, map(max, map(sub, need, net), _ZEROS), map(gt, need, _ZEROS)))
    surplus = tuple(map(max, map(sub, net, need), _ZEROS))
    d = sum(shortfall)
    s = sum(surplus)
    w = sum(map(floordiv, surplus, _TWOS))
    return _new_record(CheckResult, (tuple(need), tuple(net), shortfall, surplus, any_units, d, s, w, w >= d and s - 2 * d >= any_units))


_ZEROS = (0,) * NUM_ICONS
_TWOS = (2,) * NUM_ICONS


def passes(need: Sequence[int], any_units: int, net: Sequence[int]) -> bool:
    """Just the result of :func:`success_check` (fast path for bots)."""
    d = s = w = 0
    for i in range(NUM_ICONS):
        have = net[i]
        want = need[i]
        if want > 0 and want > have:
            d += want - have
        elif have > want:
            extra = have - want
            s += extra
            w += extra // 2
    return w >= d and s - 2 * d >= any_units


# -- the context of an evaluation ------------------------------------------------------------


class PitchFacts(NamedTuple):
    """What the texts of §2.5 read: the final row and vote, K, and the Movies Made icons.

    (A named tuple: the rules build these twice a turn, and a tuple is built several times as fast as a frozen
    dataclass.)
    """

    cards: tuple[MovieCard, ...]
    yes: int
    no: int
    changes: int
    made_icons: frozenset[int]
    failed_icons: frozenset[int] = frozenset()
    success_icons: frozenset[int] = frozenset()

    @property
    def size(self) -> int:
        """k, the number of row cards."""
        return len(self.cards)

    @property
    def unanimous(self) -> bool:
        """#YES = 0 or #NO = 0 (a single voter, or none, counts as unanimous, R40, R42)."""
        return self.yes == 0 or self.no == 0

    def icon_counts(self) -> list[int]:
        """Counts of the pitch icons (the multiset union of PI over the row)."""
        counts = [0] * NUM_ICONS
        for card in self.cards:
            for icon in card.printed_icons:
                counts[icon] += 1
        return counts

    @property
    def full_set(self) -> bool:
        """All 6 icons appear among the pitch icons (R35)."""
        return all(self.icon_counts())

    @property
    def matched(self) -> bool:
        """The pitch icons share an icon with the Movies Made icons (R32); never with no Movies Made."""
        return any(icon in self.made_icons for card in self.cards for icon in card.printed_icons)

    def cost_doubles(self, card: MovieCard) -> bool:
        """§6.1: PI(card) shares an icon with the top of a failed stack (at most once, R22)."""
        return any(icon in self.failed_icons for icon in card.printed_icons)

    def profit_doubles(self, card: MovieCard) -> bool:
        """§6.1: PI(card) shares an icon with the top of a successful stack."""
        return any(icon in self.success_icons for icon in card.printed_icons)


# -- choices made by the active player (R38) ---------------------------------------------------


class ChoicePoint(NamedTuple):
    """A tie the active player must decide: which card's cost to copy, which icon, or which profit."""

    kind: str  # "copy", "icon" or "profit"
    card: str  # the text card being evaluated
    options: tuple[Any, ...]  # card ids, icon indices or profit numbers


class NeedChoice(Exception):
    """Raised inside an evaluation when the next choice has not been made yet."""

    def __init__(self, point: ChoicePoint) -> None:
        super().__init__(point.kind)
        self.point = point


Chooser = Callable[[ChoicePoint], Any]


class Replay:
    """A chooser that replays choices already made and stops at the first one still open."""

    __slots__ = ("choices", "used")

    def __init__(self, choices: Sequence[Any]) -> None:
        self.choices = choices
        self.used = 0

    def __call__(self, point: ChoicePoint) -> Any:
        """The next recorded choice, or NeedChoice(point) once they run out."""
        if self.used < len(self.choices):
            choice = self.choices[self.used]
            self.used += 1
            return choice
        raise NeedChoice(point)


def first_option(point: ChoicePoint) -> Any:
    """A chooser that always takes the first option (for previews and quick estimates)."""
    return point.options[0]


# -- costs (§6.3 C1-C4) -------------------------------------------------------------------------


def base_costs(facts: PitchFacts, choose: Chooser) -> list[Cost]:
    """C1-C2: the base cost of every row card, text cards left to right; later text cards count as empty (R33)."""
    cards = facts.cards
    costs: list[Cost | None] = [None if card.cost_key is not None else printed_cost(card.cost) for card in cards]
    if None in costs:
        for j, card in enumerate(cards):
            if card.is_text:
                costs[j] = _text_cost(j, facts, costs, choose)
    return costs  # type: ignore[return-value]


def _resolved_cost(costs: Sequence[Cost | None], m: int) -> Cost:
    cost = costs[m]
    return EMPTY if cost is None else cost


def _text_cost(j: int, facts: PitchFacts, costs: Sequence[Cost | None], choose: Chooser) -> Cost:
    card = facts.cards[j]
    key = card.cost_key
    x = card.x
    if key in ("copycat_most_neighbor", "copycat_least_neighbor"):
        neighbours = [m for m in (j - 1, j + 1) if 0 <= m < facts.size]
        if not neighbours:
            return EMPTY
        if len(neighbours) == 1:
            return _resolved_cost(costs, neighbours[0])
        left, right = (_resolved_cost(costs, m) for m in neighbours)
        size_left, size_right = cost_size(left), cost_size(right)
        most = key == "copycat_most_neighbor"
        if size_left != size_right:
            return left if (size_left > size_right) == most else right
        if left == right:
            return left
        ids = (facts.cards[j - 1].id, facts.cards[j + 1].id)
        chosen = choose(ChoicePoint("copy", card.id, ids))
        return left if chosen == ids[0] else right
    if key == "num_yes_votes":
        return cost_of_icons((x,), facts.yes)  # type: ignore[arg-type]
    if key == "num_no_votes":
        return cost_of_icons((x,), facts.no)  # type: ignore[arg-type]
    if key == "pitch_size":
        return cost_of_icons((x,), facts.size)  # type: ignore[arg-type]
    if key == "pitch_size_conditional":
        return cost_of_icons((x,), 2) if facts.size <= 3 else EMPTY  # type: ignore[arg-type]
    if key == "match_cost":
        return cost_of_icons((x,), 3) if facts.matched else EMPTY  # type: ignore[arg-type]
    if key == "match_no_cost":
        return cost_of_icons((x,), 2) if not facts.matched else EMPTY  # type: ignore[arg-type]
    if key == "wildcard_cost":
        return any_cost(card.n or 0)
    if key == "wildcard_cost_conditional":
        return EMPTY if facts.full_set else any_cost(card.n or 0)
    if key == "unanimous_vote":
        return EMPTY if facts.unanimous else cost_of_icons((x,), 4)  # type: ignore[arg-type]
    if key in ("copycat_most_icon", "copycat_least_icon"):
        counts = facts.icon_counts()
        present = [count for count in counts if count > 0]
        if not present:
            return EMPTY
        target = max(present) if key == "copycat_most_icon" else min(present)  # R39: only icons that appear
        tied = tuple(icon for icon in range(NUM_ICONS) if counts[icon] == target)
        icon = tied[0] if len(tied) == 1 else choose(ChoicePoint("icon", card.id, tied))
        return cost_of_icons((icon,), 2)
    if key == "num_changes":
        return any_cost(facts.changes)  # R34: K any-units
    raise ValueError(f"unknown cost key {key}")


def final_costs(facts: PitchFacts, base: Sequence[Cost]) -> list[Cost]:
    """C3: base cost, doubled once when the card matches a failed stack (§6.1)."""
    if not facts.failed_icons:
        return list(base)
    return [double(cost) if facts.cost_doubles(card) else cost for card, cost in zip(facts.cards, base, strict=True)]


def budget_of(costs: Sequence[Cost]) -> tuple[tuple[int, ...], int]:
    """C4: need per icon and A, the total any-units."""
    if not costs:
        return (0,) * NUM_ICONS, 0
    totals = list(map(sum, zip(*costs, strict=True)))
    return tuple(totals[:NUM_ICONS]), totals[ANY]


# -- profits (§6.3 P1-P4) ----------------------------------------------------------------------


def base_profits(facts: PitchFacts, sizes: Sequence[int], choose: Chooser) -> list[int]:
    """P1-P2: base profits, text cards left to right; a later text card counts as 0 (R33)."""
    cards = facts.cards
    profits: list[int | None] = [None if card.cost_key is not None else card.profit for card in cards]
    if None in profits:
        for j, card in enumerate(cards):
            if card.is_text:
                profits[j] = _text_profit(j, facts, sizes, profits, choose)
    return profits  # type: ignore[return-value]


def _text_profit(j: int, facts: PitchFacts, sizes: Sequence[int], profits: Sequence[int | None], choose: Chooser) -> int:
    card = facts.cards[j]
    key = card.profit_key

    def value(m: int) -> int:
        known = profits[m]
        return 0 if known is None else known

    if key in ("copycat_most_neighbor", "copycat_least_neighbor"):
        neighbours = [value(m) for m in (j - 1, j + 1) if 0 <= m < facts.size]
        if not neighbours:
            return 0
        return max(neighbours) if key == "copycat_most_neighbor" else min(neighbours)
    if key == "num_yes_votes":
        return facts.yes
    if key == "num_no_votes":
        return facts.no
    if key == "pitch_size":
        return facts.size
    if key == "pitch_size_conditional":
        return 3 if facts.size >= 3 else 0
    if key == "match_reward":
        return 4 if facts.matched else 0
    if key == "match_no_reward":
        return 3 if not facts.matched else 0
    if key == "wildcard_profit":
        return int(choose(ChoicePoint("profit", card.id, (1, 2, 3))))
    if key == "wildcard_profit_conditional":
        return 5 if facts.full_set else 1
    if key == "unanimous_profit":
        return 5 if facts.unanimous else 0
    if key in ("copycat_most", "copycat_least"):
        others = [m for m in range(facts.size) if m != j]  # R39: never the card itself
        if not others:
            return 0
        target = max(sizes[m] for m in others) if key == "copycat_most" else min(sizes[m] for m in others)
        options = tuple(sorted({value(m) for m in others if sizes[m] == target}))
        return options[0] if len(options) == 1 else int(choose(ChoicePoint("profit", card.id, options)))
    if key == "num_changes":
        return facts.changes
    raise ValueError(f"unknown profit key {key}")


def final_profits(facts: PitchFacts, base: Sequence[int]) -> list[int]:
    """P3: base profit, doubled once when the card matches a successful stack (§6.1)."""
    if not facts.success_icons:
        return list(base)
    return [2 * profit if facts.profit_doubles(card) else profit for card, profit in zip(facts.cards, base, strict=True)]


# -- whole evaluations -----------------------------------------------------------------------------


class Evaluation(NamedTuple):
    """Costs and Budget of a final row (and Profit once evaluated)."""

    base_costs: tuple[Cost, ...]
    costs: tuple[Cost, ...]
    need: tuple[int, ...]
    any_units: int
    base_profits: tuple[int, ...] | None = None
    profits: tuple[int, ...] | None = None

    @property
    def profit(self) -> int | None:
        """P, the sum of the final profits (None before the profit step)."""
        return None if self.profits is None else sum(self.profits)


def evaluate_costs(facts: PitchFacts, choose: Chooser) -> Evaluation:
    """C1-C4 (may raise NeedChoice through ``choose``)."""
    base = base_costs(facts, choose)
    costs = final_costs(facts, base)
    need, any_units = budget_of(costs)
    return _new_record(Evaluation, (tuple(base), tuple(costs), need, any_units, None, None))


def evaluate_profits(facts: PitchFacts, evaluation: Evaluation, choose: Chooser) -> Evaluation:
    """P1-P4 on top of a cost evaluation (may raise NeedChoice through ``choose``)."""
    sizes = list(map(cost_size, evaluation.base_costs))
    base = base_profits(facts, sizes, choose)
    profits = final_profits(facts, base)
    base_costs, costs, need, any_units, _, _ = evaluation
    return _new_record(Evaluation, (base_costs, costs, need, any_units, tuple(base), tuple(profits)))
