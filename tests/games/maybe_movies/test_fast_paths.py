"""The fast paths of the rules agree with the plain forms of the rules they replace.

Catalogue generation, the success check, the pitch-option count and the shared events are written for
speed (random playouts run them thousands of times a second); these tests compare them with the
straightforward forms of §2.6, §4.4 and the engine contract, on many seeds and random inputs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from greenlight.games.maybe_movies import GAME, rules, turn
from greenlight.games.maybe_movies.budget import CheckResult, budget_of, success_check
from greenlight.games.maybe_movies.cards import (
    CHANGE,
    COST_KEYS,
    N_KEYS,
    NO,
    NUM_BLOCKBUSTERS,
    NUM_CHANGE,
    NUM_ICONS,
    NUM_MOVIES,
    NUM_VOTES,
    PROFIT_KEYS,
    X_KEYS,
    YES,
    CardLayout,
    Catalogue,
    MovieCard,
    VoteCard,
    generate_catalogue,
)
from greenlight.games.maybe_movies.chance import deck_stream, int_in, pick, real_in, round_half_up, shuffle
from greenlight.games.maybe_movies.state import PITCH


class PlainPicker:
    """``BP(margin)`` exactly as §2.6 words it: the eligible icons are those within ``margin`` of the smallest count."""

    def __init__(self, margin: int) -> None:
        self.margin = margin
        self.counts = [0] * NUM_ICONS

    def draw(self, rng: random.Random) -> int:
        limit = min(self.counts) + self.margin
        icon = pick(rng, [icon for icon, count in enumerate(self.counts) if count <= limit])
        self.counts[icon] += 1
        return icon


def plain_catalogue(seed: int) -> tuple[list[VoteCard], list[VoteCard], list[MovieCard], list[MovieCard]]:
    """G1-G4 of §2.6 with the primitives of ``chance``, one draw at a time."""
    rng = deck_stream(seed)
    picker = PlainPicker(1)
    votes = []
    for i in range(NUM_VOTES):
        if i % 2 == 0:
            value = int_in(rng, 2, 4)
            votes.append(VoteCard(f"Y{i // 2 + 1:02d}", YES, value, picker.draw(rng)))
        else:
            value = int_in(rng, 1, 2)
            votes.append(VoteCard(f"N{i // 2 + 1:02d}", NO, value, picker.draw(rng)))
    changes = [VoteCard(f"C{n:02d}", CHANGE, number=n) for n in range(1, NUM_CHANGE + 1)]
    counts = [1] * 27 + [2] * 14 + [3] * 5
    shuffle(rng, counts)
    picker = PlainPicker(3)
    movies = []
    for k in range(1, NUM_MOVIES + 1):
        n = counts[k - 1]
        icons = tuple(picker.draw(rng) for _ in range(n))
        profit = min(5, max(1, round_half_up(n * real_in(rng, 0.66, 1.75))))
        movies.append(MovieCard(f"M{k:02d}", icons, profit))
    picker = PlainPicker(1)
    blockbusters = []
    for k in range(1, NUM_BLOCKBUSTERS + 1):
        cost_key = pick(rng, COST_KEYS)
        x = picker.draw(rng) if cost_key in X_KEYS else None
        n_param = int_in(rng, 1, 3) if cost_key in N_KEYS else None
        blockbusters.append(MovieCard(f"B{k:02d}", cost_key=cost_key, x=x, n=n_param, profit_key=pick(rng, PROFIT_KEYS)))
    return votes, changes, movies, blockbusters


@pytest.mark.parametrize("seeds", [range(0, 150), range(10_000, 10_150), range(2**40, 2**40 + 50)])
def test_generated_catalogues_are_the_plain_generation(seeds: range) -> None:
    for seed in seeds:
        votes, changes, movies, blockbusters = plain_catalogue(seed)
        catalogue = generate_catalogue.__wrapped__(seed)
        assert list(catalogue.votes) == votes, seed
        assert list(catalogue.changes) == changes
        assert list(catalogue.movies) == movies, seed
        assert list(catalogue.blockbusters) == blockbusters, seed
        assert catalogue.layout == CardLayout.of((*votes, *changes), (*movies, *blockbusters))


def plain_check(need: Sequence[int], any_units: int, net: Sequence[int]) -> CheckResult:
    """§4.4 one icon at a time."""
    shortfall = tuple(max(0, need[i] - net[i]) if need[i] > 0 else 0 for i in range(NUM_ICONS))
    surplus = tuple(max(0, net[i] - need[i]) for i in range(NUM_ICONS))
    d, s, w = sum(shortfall), sum(surplus), sum(amount // 2 for amount in surplus)
    return CheckResult(tuple(need), tuple(net), shortfall, surplus, any_units, d, s, w, w >= d and s - 2 * d >= any_units)


def test_the_success_check_is_the_plain_check() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        need = [rng.randint(-1, 8) for _ in range(NUM_ICONS)]
        net = [rng.randint(-8, 12) for _ in range(NUM_ICONS)]
        any_units = rng.randint(0, 6)
        assert success_check(need, any_units, net) == plain_check(need, any_units, net)


def test_the_budget_adds_up_every_cost() -> None:
    rng = random.Random(8)
    for size in range(0, 8):
        costs = [tuple(rng.randint(0, 4) for _ in range(NUM_ICONS + 1)) for _ in range(size)]
        totals = [sum(cost[i] for cost in costs) for i in range(NUM_ICONS + 1)]
        assert budget_of(costs) == (tuple(totals[:NUM_ICONS]), totals[NUM_ICONS])  # type: ignore[arg-type]


OPTION_SETS = [
    dict(zip(("trendsetter_tricks", "breaking_changes", "blockbuster_budgets"), flags, strict=True))
    for flags in itertools.product((False, True), repeat=3)
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_counted_pitch_options_are_the_pitch_actions(options: dict[str, bool]) -> None:
    """``settle`` counts the pitch options instead of building them; in random games the count is always right."""
    rng = random.Random(11)
    for seed in range(12):
        state = GAME.new_state(3 + seed % 4, seed, options)
        while players := GAME.decision(state).players:
            if state.phase == PITCH:
                assert turn.pitch_option_count(state) == len(turn.pitch_actions(state))
            seat = rng.choice(players)
            GAME.apply_unchecked(state, seat, rng.choice(rules.legal_actions(state, seat)))


def play_randomly(seed: int, options: dict[str, bool]) -> list[dict[str, object]]:
    """The events of one random game, as JSON."""
    rng = random.Random(seed)
    state = GAME.new_state(3 + seed % 4, seed, options)
    events = []
    while players := GAME.decision(state).players:
        seat = rng.choice(players)
        events += GAME.apply_unchecked(state, seat, rng.choice(rules.legal_actions(state, seat)))
    return [event.to_json() for event in events]


def test_shared_events_stay_as_they_were_made() -> None:
    """Events that follow from a few values are shared between games: playing on never changes one handed out."""
    first = {seed: play_randomly(seed, options) for seed, options in enumerate(OPTION_SETS)}
    for seed, options in enumerate(OPTION_SETS * 2):
        play_randomly(seed + 100, options)
    assert {seed: play_randomly(seed, options) for seed, options in enumerate(OPTION_SETS)} == first


def test_blockbusters_drawn_later_are_the_same_whichever_way_they_are_first_asked_for() -> None:
    """A generated catalogue draws its blockbusters when first needed; by id, by list or by digest, they are G4's."""
    for seed in range(20):
        votes, changes, movies, blockbusters = plain_catalogue(seed)
        eager = Catalogue("generated", votes, changes, movies, blockbusters, flavour_seed=seed)
        by_id, by_list, by_digest = (generate_catalogue.__wrapped__(seed) for _ in range(3))
        assert "B07" in by_id and by_id.movie("B07") == blockbusters[6]
        assert by_list.blockbusters == tuple(blockbusters) == by_id.blockbusters
        assert by_digest.static_key() == eager.static_key()
        assert by_list.movie_cards == eager.movie_cards


def test_a_game_with_blockbuster_budgets_has_its_blockbusters_at_once() -> None:
    """The rules read cards from ``movie_cards`` directly, so a state that plays blockbusters finds them there."""
    state = GAME.new_state(4, 3, {"blockbuster_budgets": True})
    blockbuster_ids = [card for card in state.draw_pile + state.market if card.startswith("B")]
    assert len(blockbuster_ids) == 16 and all(card in state.table.movie_cards for card in blockbuster_ids)
