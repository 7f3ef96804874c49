"""Property-based tests of the success check (§4.4) and of the Blockbuster evaluation (§6.3)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from greenlight.games.maybe_movies.budget import NeedChoice, PitchFacts, Replay, evaluate_costs, net_of, passes, success_check
from greenlight.games.maybe_movies.cards import COST_KEYS, N_KEYS, NO, PROFIT_KEYS, X_KEYS, YES, MovieCard, VoteCard

icons = st.integers(min_value=0, max_value=5)
yes_votes = st.builds(lambda icon, value: VoteCard("y", YES, value, icon), icons, st.integers(2, 4))
no_votes = st.builds(lambda icon, value: VoteCard("n", NO, value, icon), icons, st.integers(1, 2))
votes = st.lists(st.one_of(yes_votes, no_votes), max_size=6)
needs = st.lists(st.integers(min_value=0, max_value=4), min_size=6, max_size=6)
any_units = st.integers(min_value=0, max_value=4)


def brute_force(need: Sequence[int], any_needed: int, net: Sequence[int]) -> bool:
    """Is there any way to pay? Own icons pay their own need; 2 spare icons of one type make a wildcard
    for one missing icon; 1 spare icon pays one any-unit. Tries every split of every spare amount."""
    shortfall = sum(max(0, n - v) for n, v in zip(need, net, strict=True) if n > 0)
    spare = [max(0, v - n) for n, v in zip(need, net, strict=True)]
    for pairs in itertools.product(*(range(s // 2 + 1) for s in spare)):
        singles = sum(s - 2 * p for s, p in zip(spare, pairs, strict=True))
        if sum(pairs) >= shortfall and singles >= any_needed:
            return True
    return False


@settings(max_examples=400)
@given(needs, any_units, votes)
def test_the_closed_form_is_exact(need: list[int], any_needed: int, cast: list[VoteCard]) -> None:
    net = net_of(cast)
    result = success_check(need, any_needed, net)
    assert result.success == brute_force(need, any_needed, net)
    assert passes(need, any_needed, net) == result.success


@settings(max_examples=300)
@given(needs, any_units, votes, st.integers(2, 4), st.data())
def test_a_yes_vote_of_a_needed_icon_never_turns_success_into_failure(
    need: list[int], any_needed: int, cast: list[VoteCard], value: int, data: st.DataObject
) -> None:
    needed = [icon for icon in range(6) if need[icon] > 0]
    if not needed:
        need[0] = 1
        needed = [0]
    icon = data.draw(st.sampled_from(needed))
    before = success_check(need, any_needed, net_of(cast)).success
    after = success_check(need, any_needed, net_of([*cast, VoteCard("y", YES, value, icon)])).success
    assert after or not before


@settings(max_examples=300)
@given(needs, any_units, votes, yes_votes)
def test_any_yes_vote_never_hurts(need: list[int], any_needed: int, cast: list[VoteCard], extra: VoteCard) -> None:
    before = success_check(need, any_needed, net_of(cast)).success
    assert success_check(need, any_needed, net_of([*cast, extra])).success or not before


@settings(max_examples=300)
@given(needs, any_units, votes, no_votes)
def test_a_no_vote_on_an_unneeded_icon_without_surplus_changes_nothing(
    need: list[int], any_needed: int, cast: list[VoteCard], extra: VoteCard
) -> None:
    net = net_of(cast)
    if need[extra.icon] > 0 or net[extra.icon] > 0:
        return
    assert success_check(need, any_needed, net_of([*cast, extra])).success == success_check(need, any_needed, net).success


@settings(max_examples=300)
@given(needs, any_units, votes, icons, st.integers(0, 1))
def test_a_smaller_budget_never_turns_success_into_failure(
    need: list[int], any_needed: int, cast: list[VoteCard], icon: int, fewer_any: int
) -> None:
    net = net_of(cast)
    before = success_check(need, any_needed, net).success
    smaller = list(need)
    smaller[icon] = max(0, smaller[icon] - 1)
    assert success_check(smaller, max(0, any_needed - fewer_any), net).success or not before


@settings(max_examples=200)
@given(needs, any_units, votes, st.randoms(use_true_random=False))
def test_the_order_of_the_votes_does_not_matter(need: list[int], any_needed: int, cast: list[VoteCard], rng: object) -> None:
    shuffled = list(cast)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert success_check(need, any_needed, net_of(shuffled)) == success_check(need, any_needed, net_of(cast))


@settings(max_examples=200)
@given(needs, votes)
def test_shortfall_surplus_and_wildcards_follow_the_definitions(need: list[int], cast: list[VoteCard]) -> None:
    result = success_check(need, 0, net_of(cast))
    for icon in range(6):
        if need[icon] == 0:
            assert result.shortfall[icon] == 0  # R3: an unneeded icon costs nothing, however negative
        else:
            assert result.shortfall[icon] == max(0, need[icon] - result.net[icon])
        assert result.surplus[icon] == max(0, result.net[icon] - need[icon])
    assert result.wildcards == sum(s // 2 for s in result.surplus)
    assert result.success == (result.wildcards >= result.shortfall_total)  # A = 0: the second test always holds


# -- the Blockbuster evaluation --------------------------------------------------------------------------


def _card(index: int, key_index: int, profit_key_index: int, x: int, n: int) -> MovieCard:
    key = COST_KEYS[key_index]
    return MovieCard(
        f"T{index}",
        cost_key=key,
        x=x if key in X_KEYS else None,
        n=n if key in N_KEYS else None,
        profit_key=PROFIT_KEYS[profit_key_index],
    )


row_cards = st.lists(
    st.one_of(
        st.builds(lambda icon_list, profit: ("icon", tuple(icon_list), profit), st.lists(icons, min_size=1, max_size=3), st.integers(1, 5)),
        st.builds(lambda k, p, x, n: ("text", k, p, x, n), st.integers(0, 13), st.integers(0, 13), icons, st.integers(1, 3)),
    ),
    min_size=1,
    max_size=6,
)


def _row(spec: list[tuple[object, ...]]) -> tuple[MovieCard, ...]:
    cards = []
    for index, item in enumerate(spec):
        if item[0] == "icon":
            cards.append(MovieCard(f"M{index}", item[1], item[2]))  # type: ignore[arg-type]
        else:
            cards.append(_card(index, *item[1:]))  # type: ignore[arg-type]
    return tuple(cards)


def _evaluations(facts: PitchFacts) -> list[tuple[int, ...]]:
    """The Budget (need + any) for every sequence of cost choices."""
    results = []
    pending: list[list[object]] = [[]]
    while pending:
        choices = pending.pop()
        chooser = Replay(choices)
        try:
            evaluation = evaluate_costs(facts, chooser)
        except NeedChoice as error:  # branch on every option
            assert len(set(error.point.options)) == len(error.point.options) >= 2
            pending.extend([*choices, option] for option in error.point.options)
            continue
        results.append((*evaluation.need, evaluation.any_units))
    return results


@settings(max_examples=200)
@given(row_cards, st.integers(0, 6), st.integers(0, 6), st.integers(0, 4), st.sets(icons))
def test_every_branch_of_cost_choices_gives_a_budget(
    spec: list[tuple[object, ...]], yes: int, no: int, changes: int, made: set[int]
) -> None:
    facts = PitchFacts(_row(spec), yes, no, changes, frozenset(made))
    budgets = _evaluations(facts)
    assert budgets
    assert all(value >= 0 for budget in budgets for value in budget)


@settings(max_examples=200)
@given(row_cards, st.integers(0, 6), st.integers(0, 6), st.sets(icons), st.sets(icons))
def test_trendsetter_doubling_applies_at_most_once_per_card(
    spec: list[tuple[object, ...]], yes: int, no: int, failed: set[int], succeeded: set[int]
) -> None:
    plain = PitchFacts(_row(spec), yes, no, 0, frozenset(failed | succeeded))
    doubled = PitchFacts(_row(spec), yes, no, 0, frozenset(failed | succeeded), frozenset(failed), frozenset(succeeded))
    base = evaluate_costs(plain, lambda point: point.options[0])
    final = evaluate_costs(doubled, lambda point: point.options[0])
    for card, before, after in zip(plain.cards, base.costs, final.costs, strict=True):
        factor = 2 if set(card.printed_icons) & failed else 1
        assert after == tuple(factor * count for count in before)
