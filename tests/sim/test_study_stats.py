"""Significance tests against scipy, seat-position shares, flat rows and table files, card summaries, A/B comparison."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

scipy_stats = pytest.importorskip("scipy.stats")  # the sim extra

from greenlight.core.errors import OptionError
from greenlight.core.spec import OptionValue
from greenlight.sim.compare import compare_results, mean_headline, proportion_headline, write_comparison
from greenlight.sim.rows import card_rows, game_row, result_from_row, results_from_tables
from greenlight.sim.runner import GameResult, GameTask, play_game
from greenlight.sim.stats import (
    holm_adjust,
    one_proportion_z_test,
    position_summaries,
    regularized_beta,
    student_t_sf,
    two_proportion_z_test,
    welch_t_test,
)
from greenlight.sim.storage import CSV, PARQUET, column_kinds, read_table, write_table
from greenlight.sim.summary import card_summaries


def result(index: int, bots: tuple[str, ...], scores: tuple[float, ...], winners: tuple[int, ...], length: int = 10) -> GameResult:
    share = 1 / len(winners) if winners else 0.0
    ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    returns = tuple(share if seat in winners else 0.0 for seat in range(len(bots)))
    return GameResult(
        index, "g", len(bots), index, {}, bots, tuple(range(len(bots))), scores, ranks, winners, returns, ({},) * len(bots), length
    )


def test_t_distribution_and_beta_match_scipy() -> None:
    rng = random.Random(3)
    for _ in range(300):
        df, t = rng.uniform(1, 200), rng.uniform(-6, 6)
        assert student_t_sf(t, df) == pytest.approx(float(scipy_stats.t.sf(t, df)), abs=1e-10)
        a, b, x = rng.uniform(0.2, 40), rng.uniform(0.2, 40), rng.random()
        assert regularized_beta(a, b, x) == pytest.approx(float(scipy_stats.beta.cdf(x, a, b)), abs=1e-10)


def test_welch_t_test_matches_scipy() -> None:
    rng = random.Random(5)
    for size_a, size_b in ((5, 8), (30, 30), (200, 17)):
        a = [rng.gauss(10, 2) for _ in range(size_a)]
        b = [rng.gauss(11, 5) for _ in range(size_b)]
        expected = float(scipy_stats.ttest_ind(a, b, equal_var=False).pvalue)
        assert welch_t_test(a, b) == pytest.approx(expected, rel=1e-9)
    assert welch_t_test([1.0], [2.0, 3.0]) == 1.0
    assert welch_t_test([2.0, 2.0], [2.0, 2.0]) == 1.0
    assert welch_t_test([2.0, 2.0], [3.0, 3.0]) == 0.0


def test_proportion_tests_match_the_formulas() -> None:
    z = (0.6 - 0.45) / math.sqrt(0.525 * 0.475 * 2 / 100)  # pooled proportion 105 / 200
    assert two_proportion_z_test(60, 100, 45, 100) == pytest.approx(float(2 * scipy_stats.norm.sf(z)), rel=1e-12)
    assert two_proportion_z_test(5, 10, 5, 10) == 1.0
    assert two_proportion_z_test(0, 0, 5, 10) == 1.0
    assert one_proportion_z_test(60, 100, 0.5) == pytest.approx(float(2 * scipy_stats.norm.sf(2.0)), rel=1e-12)
    assert one_proportion_z_test(3, 10, 0.0) == 1.0


def test_holm_adjustment() -> None:
    assert holm_adjust([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm_adjust([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm_adjust([0.9, 0.8]) == pytest.approx([1.0, 1.0])  # 2 x 0.8 is capped at 1
    assert holm_adjust([]) == []


def test_position_summaries_count_ties_as_shared_wins() -> None:
    rows = [
        result(0, ("a", "b", "c"), (5, 3, 1), (0,)),
        result(1, ("c", "a", "b"), (4, 4, 1), (0, 1)),
        result(2, ("b", "c", "a"), (1, 2, 3), (2,)),
        result(3, ("a", "b", "c"), (1, 1, 1), ()),
    ]
    seats = position_summaries(rows)
    assert [item.win_share for item in seats] == pytest.approx([1.5 / 4, 0.5 / 4, 1 / 4])
    assert [item.mean_score for item in seats] == pytest.approx([11 / 4, 10 / 4, 6 / 4])
    assert all(item.parity == pytest.approx(1 / 3) and item.games == 4 for item in seats)
    assert seats[0].p_value == pytest.approx(one_proportion_z_test(1.5, 4, 1 / 3))


@pytest.mark.parametrize(
    ("game", "players", "options"), [("cinecitta", 4, {"movie_awards": True}), ("maybe-movies", 3, {}), ("movie-empire", 2, {})]
)
def test_rows_round_trip_through_both_file_formats(tmp_path: Path, game: str, players: int, options: dict[str, OptionValue]) -> None:
    tasks = [
        GameTask(game, players, seed, ("heuristic",) + ("random",) * (players - 1), tuple(range(players)), options, index=seed, stats=True)
        for seed in range(3)
    ]
    results = [play_game(task) for task in tasks]
    games = [game_row(item) for item in results]
    cards = [card for item in results for card in card_rows(item)]
    for fmt in (PARQUET, CSV):
        games_back = read_table(write_table(tmp_path / f"games-{fmt}", games, fmt))
        cards_back = read_table(write_table(tmp_path / f"cards-{fmt}", cards, fmt))
        assert games_back == games and cards_back == cards
        assert results_from_tables(games_back, cards_back) == results
    assert result_from_row(games[0], [card for card in cards if card["index"] == 0]).stats == results[0].stats
    assert sum(int(card["count"] or 0) for card in cards) == sum(entry[4] for item in results for entry in (item.stats or {})["cards"])


def test_table_columns_keep_one_kind() -> None:
    assert column_kinds([{"a": 1, "b": None}, {"a": 2.5, "b": True}, {"a": None, "c": "x"}]) == {"a": "float", "b": "bool", "c": "str"}
    with pytest.raises(TypeError, match="mixes text and numbers"):
        column_kinds([{"a": 1}, {"a": "x"}])
    with pytest.raises(TypeError, match="must be a bool, number, text or empty"):
        column_kinds([{"a": [1]}])  # type: ignore[dict-item]


def test_an_empty_table_round_trips(tmp_path: Path) -> None:
    for fmt in (PARQUET, CSV):
        assert read_table(write_table(tmp_path / f"empty-{fmt}", [], fmt)) == []


def test_card_summaries_count_each_game_seat_once_for_the_win_share() -> None:
    rows = [
        {"index": 0, "seat": 0, "card": "X", "type": "T", "action": "taken", "count": 3, "share": 1.0},
        {"index": 1, "seat": 2, "card": "X", "type": "T", "action": "taken", "count": 1, "share": 0.0},
        {"index": 1, "seat": 1, "card": "Y", "type": "T", "action": "taken", "count": 1, "share": 0.5},
        {"index": 1, "seat": 1, "card": "Y", "type": "T", "action": "laid", "count": 1, "share": 0.5},
    ]
    by_card = card_summaries(rows, games=2, parity=1 / 3)
    assert [(item["action"], item["card"], item["times"], item["games"], item["seat_games"]) for item in by_card] == [
        ("laid", "Y", 1, 1, 1),
        ("taken", "X", 4, 2, 2),
        ("taken", "Y", 1, 1, 1),
    ]
    taken_x = by_card[1]
    assert taken_x["per_game"] == 2.0 and taken_x["win_share"] == 0.5 and taken_x["lift"] == pytest.approx(1.5)
    by_type = card_summaries(rows, games=2, parity=1 / 3, by="type")
    assert [(item["action"], item["type"], item["times"], item["seat_games"]) for item in by_type] == [
        ("laid", "T", 1, 1),
        ("taken", "T", 5, 3),
    ]
    assert by_type[1]["win_share"] == pytest.approx(1.5 / 3)


def test_headlines_give_both_means_and_the_test() -> None:
    item = proportion_headline("bot", "x win share", [1, 0, 1, 1], [0, 0, 1, 0])
    assert (item.a, item.b, item.difference, item.n_a, item.n_b) == (0.75, 0.25, -0.5, 4, 4)
    assert item.p_value == pytest.approx(two_proportion_z_test(3, 4, 1, 4))
    means = mean_headline("length", "actions", [1, 2, 3, 4], [3, 4, 5, 6, 7])
    assert means.p_value == pytest.approx(float(scipy_stats.ttest_ind([1, 2, 3, 4], [3, 4, 5, 6, 7], equal_var=False).pvalue))
    assert means.effect == pytest.approx(2.5 / (15 / 7) ** 0.5)


def test_a_study_compared_with_itself_shows_no_difference(tmp_path: Path) -> None:
    rows = [
        play_game(GameTask("cinecitta", 3, seed, ("heuristic", "random", "random"), (1, 2, 3), index=seed, stats=True)) for seed in range(6)
    ]
    headlines, files = write_comparison(tmp_path, rows, rows, ("A", "B"), ("a", "b"))
    assert all(item.difference == 0 and item.p_value == 1.0 and item.p_holm == 1.0 for item in headlines)
    sections = {item.section for item in headlines}
    assert sections == {"seat position", "bot", "game length", "score breakdown", "seat statistic", "game statistic"}
    names = {item.name for item in headlines}
    assert {"seat 0 win share", "heuristic win share", "random mean score", "actions per game", "quality", "pens", "headhunts"} <= names
    page = (tmp_path / "compare.html").read_text(encoding="utf-8")
    for file in files:
        assert file.exists()
        if file.suffix == ".png":
            assert f'src="{file.name}"' in page
    data = json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))
    assert len(data["headlines"]) == len(headlines) and data["a"]["name"] == "A"


def test_a_real_difference_is_significant() -> None:
    # B: the first seat always wins; A: the second seat always wins.
    a = [result(i, ("x", "y"), (1, 2), (1,)) for i in range(40)]
    b = [result(i, ("x", "y"), (2, 1), (0,), length=12) for i in range(40)]
    found = {item.name: item for item in compare_results(a, b)}
    seat0 = found["seat 0 win share"]
    assert (seat0.a, seat0.b) == (0.0, 1.0) and seat0.p_value < 1e-15 and seat0.p_holm < 0.05
    length = found["actions per game"]
    assert length.difference == 2 and length.p_value == 0.0
    other_game = GameResult(0, "other", 2, 0, {}, ("x", "y"), (0, 1), (1, 2), (2, 1), (1,), (0.0, 1.0), ({}, {}), 5)
    with pytest.raises(OptionError, match="cannot compare a study of g with one of other"):
        compare_results(a, [other_game])
    with pytest.raises(OptionError, match="at least one game"):
        compare_results(a, [])
