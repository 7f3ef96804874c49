"""Statistics: exact values for intervals, win shares, pairwise results and Bradley-Terry ratings."""

from __future__ import annotations

import math

import pytest

from greenlight.sim.runner import GameResult, SeatTiming
from greenlight.sim.stats import (
    bot_game_shares,
    bradley_terry,
    elo_ratings,
    mean,
    normal_interval,
    pairwise_results,
    summarize,
    wilson_interval,
)


def row(bots: tuple[str, ...], scores: tuple[float, ...], ranks: tuple[int, ...], winners: tuple[int, ...], **extra: object) -> GameResult:
    share = 1 / len(winners) if winners else 0.0
    returns = tuple(share if seat in winners else 0.0 for seat in range(len(bots)))
    breakdown = extra.pop("breakdown", tuple({} for _ in bots))
    timing = extra.pop("timing", ())
    seeds = tuple(range(len(bots)))
    return GameResult(0, "g", len(bots), 1, {}, bots, seeds, scores, ranks, winners, returns, breakdown, 10, timing=timing)  # type: ignore[arg-type]


def test_wilson_interval_matches_the_closed_form() -> None:
    low, high = wilson_interval(60, 100)
    # p = 0.6, n = 100, z = 1.96: centre 0.5962, half-width 0.0943.
    assert low == pytest.approx(0.50200, abs=1e-5)
    assert high == pytest.approx(0.69060, abs=1e-5)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_normal_interval_of_the_mean() -> None:
    low, high = normal_interval([1.0, 3.0])
    # mean 2, sample sd sqrt(2), standard error 1: 2 -/+ 1.96.
    assert low == pytest.approx(2 - 1.959964, abs=1e-6)
    assert high == pytest.approx(2 + 1.959964, abs=1e-6)
    assert normal_interval([5.0]) == (5.0, 5.0)
    assert mean([]) == 0.0


def test_win_share_splits_ties_and_averages_a_bots_seats() -> None:
    rows = [
        row(("a", "b", "b"), (9, 5, 5), (1, 2, 2), (0,)),
        row(("b", "a", "b"), (7, 7, 1), (1, 1, 3), (0, 1)),
        row(("b", "b", "a"), (8, 2, 1), (1, 2, 3), (0,)),
    ]
    assert bot_game_shares(rows, "a") == [1.0, 0.5, 0.0]
    assert bot_game_shares(rows, "b") == [0.0, 0.25, 0.5]
    summary = summarize(rows, "a")
    assert summary.win_share == 0.5
    assert summary.parity == pytest.approx(1 / 3)
    assert summary.seats == 3 and summary.games == 3
    assert summary.mean_score == pytest.approx((9 + 7 + 1) / 3)


def test_pairwise_results_follow_ranks_with_half_points_for_ties() -> None:
    rows = [
        row(("a", "b", "c"), (9, 5, 5), (1, 2, 2), (0,)),
        row(("c", "a", "b"), (7, 7, 1), (1, 1, 3), (0, 1)),
    ]
    assert pairwise_results(rows) == {
        ("a", "b"): [2.0, 0.0],
        ("a", "c"): [1.5, 0.5],
        ("b", "c"): [0.5, 1.5],
    }


def test_bradley_terry_two_bots_is_the_odds_ratio() -> None:
    strengths = bradley_terry({("a", "b"): [30, 10]}, prior=0.0)
    assert strengths["a"] / strengths["b"] == pytest.approx(3.0, rel=1e-6)
    assert strengths["a"] * strengths["b"] == pytest.approx(1.0, rel=1e-6)
    with_prior = bradley_terry({("a", "b"): [30, 0]}, prior=0.5)
    assert with_prior["a"] / with_prior["b"] == pytest.approx(61.0, rel=1e-6)


def test_bradley_terry_solves_the_likelihood_equations() -> None:
    pairs = {("a", "b"): [12.0, 8.0], ("a", "c"): [15.0, 5.0], ("b", "c"): [9.5, 10.5]}
    strength = bradley_terry(pairs, prior=0.0)
    # At the maximum, each bot's wins equal its expected wins: W_i = sum_j n_ij p_i / (p_i + p_j).
    for name in "abc":
        wins = sum(w[0] if pair[0] == name else w[1] for pair, w in pairs.items() if name in pair)
        expected = sum(
            (w[0] + w[1]) * strength[name] / (strength[pair[0]] + strength[pair[1]]) for pair, w in pairs.items() if name in pair
        )
        assert expected == pytest.approx(wins, rel=1e-6)


def test_elo_scale() -> None:
    ratings = elo_ratings({"a": 10.0, "b": 1.0, "c": 0.1})
    assert ratings == {"a": 1900.0, "b": 1500.0, "c": 1100.0}
    assert elo_ratings(bradley_terry({("x", "y"): [3, 1]}, prior=0.0))["x"] == pytest.approx(1500 + 200 * math.log10(3), abs=0.1)


def test_summary_breakdown_labels_and_timing() -> None:
    rows = [
        row(
            ("a", "b"),
            (10, 4),
            (1, 2),
            (0,),
            breakdown=({"status": "FINISHED", "money": 30, "pen": True}, {"status": "DROPPED", "money": None, "pen": False}),
            timing=(SeatTiming(moves=5, choices=4, seconds=2.0, max_seconds=0.9, iterations=400), SeatTiming(moves=5, choices=5)),
        ),
        row(
            ("b", "a"),
            (6, 8),
            (2, 1),
            (1,),
            breakdown=({"status": "FINISHED", "money": 10, "pen": False}, {"status": "FINISHED", "money": 50, "pen": False}),
            timing=(SeatTiming(moves=5, choices=3), SeatTiming(moves=6, choices=6, seconds=1.0, max_seconds=0.4, iterations=100)),
        ),
    ]
    a = summarize(rows, "a")
    assert a.win_share == 1.0
    assert a.breakdown == {"money": 40.0}
    assert a.labels == {"status": {"FINISHED": 2}, "pen": {"true": 1, "false": 1}}
    assert a.seconds_per_move == pytest.approx(3.0 / 10)
    assert a.max_seconds == 0.9
    assert a.iterations_per_second == pytest.approx(500 / 3.0)
    b = summarize(rows, "b")
    assert b.labels["status"] == {"DROPPED": 1, "FINISHED": 1}
    assert b.iterations_per_second == 0.0
