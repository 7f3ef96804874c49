"""Sweeps and balance: what may vary (refused before any game otherwise), the same deals at every value, a suggested
value from the measured points, resuming, and balance ranking cards by distance from parity within a budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.sim.balance import run_balance
from greenlight.sim.datafiles import data_changes
from greenlight.sim.runner import GameResult
from greenlight.sim.study import LocalBackend, load_study, read_study_data
from greenlight.sim.sweep import Point, crossing, parse_vary, run_sweep, suggest


class Counter:
    """A sweep progress that counts the games it is told about."""

    def __init__(self) -> None:
        self.total = 0
        self.done = 0

    def start(self, total: int, done: int) -> None:
        self.total = total

    def advance(self, row: GameResult) -> None:
        self.done += 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("stars.ST99.cost=1..3", "stars has no card ST99"),
        ("cards.XX01.cost=1..3", "has no card XX01"),
        ("stars.ST16.name=1..3", "not a number"),
        ("stars.ST16.price=1..3", "has no field 'price'"),
        ("stars.ST16.cost=-1..2", "stars.ST16.cost=-1: must be at least 0"),
        ("moons.ST16.cost=1..3", "has no table moons"),
        ("rounds=3..6", "option rounds must be at least 4"),
        ("turns=3..6", "has no rule parameter called turns"),
        ("rounds=8..6:0", "the step"),
        ("rounds=a..b", "values are whole numbers"),
        ("stars.ST16.cost", "--vary is PATH=VALUES"),
    ],
)
def test_what_cannot_vary_is_refused_before_any_game(text: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        parse_vary(get_game("movie-empire"), text)


def test_a_card_found_by_id_and_a_parameter_parse() -> None:
    game = get_game("movie-empire")
    card = parse_vary(game, "cards.ST16.cost=2..6:2")
    assert (card.table, card.card, card.field, card.values) == ("stars", "ST16", "cost", (2, 4, 6))
    assert parse_vary(game, "parameters.rounds=8,10").parameter == "rounds"


def test_the_suggestion_is_the_judged_point_closest_to_parity_inside_its_interval() -> None:
    def point(value: int, share: float | None, low: float = 0.0, high: float = 0.0) -> Point:
        return Point(
            value, 40, share, low if share is not None else None, high if share is not None else None, 40, 1.0, 100.0, (99.0, 101.0)
        )

    points = [point(1, 0.70, 0.60, 0.80), point(2, 0.58, 0.45, 0.70), point(3, 0.45, 0.33, 0.57), point(4, None)]
    chosen, inside = suggest(points, 0.5, current=1)
    assert chosen is not None and chosen.value == 3 and inside  # 0.58 and 0.45 both include parity; 0.45 is nearer
    assert crossing(points, 0.5) == pytest.approx(2 + (0.5 - 0.58) / (0.45 - 0.58))
    far, inside = suggest([point(1, 0.9, 0.8, 0.95), point(2, 0.8, 0.7, 0.9)], 0.5, current=1)
    assert far is not None and far.value == 2 and not inside


def test_a_parameter_sweep_plays_the_same_deals_at_every_value_and_resumes(tmp_path: Path) -> None:
    progress = Counter()
    out = tmp_path / "sweep"
    result = run_sweep("cinecitta", 3, ["heuristic"], "starting_money=80..120:40", 4, 2, out, backend=LocalBackend(1), progress=progress)
    assert progress.total == 8 == progress.done and [point.value for point in result.points] == [80, 120]
    assert result.measure_words() == "the first player's win share" and result.current == 100
    rows = [load_study(folder)[1] for folder in result.folders]
    assert [(row["seed"], row["seat0.bot_seed"]) for row in rows[0]] == [(row["seed"], row["seat0.bot_seed"]) for row in rows[1]]
    assert [json.loads(row["options"])["starting_money"] for row in (rows[0][0], rows[1][0])] == [80, 120]
    data = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert data["values"] == [80, 120] and data["verdict"] and (out / "sweep.png").stat().st_size > 2000
    assert "Summary" in (out / "sweep.html").read_text(encoding="utf-8")
    again = Counter()
    run_sweep("cinecitta", 3, ["heuristic"], "starting_money=80..120:40", 4, 2, out, backend=LocalBackend(1), progress=again)
    assert again.done == 8  # every game comes from the saved chunks
    with pytest.raises(OptionError, match="holds another sweep"):
        run_sweep("cinecitta", 3, ["heuristic"], "extra_rounds=-1..0", 4, 2, out, backend=LocalBackend(1))


def test_a_card_sweep_changes_only_that_field(tmp_path: Path) -> None:
    result = run_sweep("cinecitta", 3, ["heuristic"], "cards.D2.reels=1..2", 3, 1, tmp_path / "cards", backend=LocalBackend(1))
    game = get_game("cinecitta")
    first, second = (read_study_data(folder) for folder in result.folders)
    changes = data_changes(game, first, second)
    assert [(change.card, change.field, change.before, change.after) for change in changes] == [("D2", "reels", 1, 2)]
    assert result.card_title == "Director 2" and result.action is not None and result.current == 3


def test_balance_ranks_cards_by_distance_from_parity_within_its_budget(tmp_path: Path) -> None:
    report = run_balance("cinecitta", 3, ["heuristic"], 60, 1, 4, tmp_path / "balance", backend=LocalBackend(1))
    distances = [abs(item.distance) for item in report.candidates if item.significant]
    assert distances == sorted(distances, reverse=True)
    assert report.games == 20 and report.budget <= 60
    swept = [item for item in report.candidates if item.sweep is not None]
    assert len(swept) <= 1 and all(item.sweep is not None and item.sweep.folders for item in swept)
    data = json.loads((tmp_path / "balance" / "balance.json").read_text(encoding="utf-8"))
    assert data["summary"][0].startswith("Seat 0 wins") and (tmp_path / "balance" / "study" / "report.html").exists()
