"""Comparisons that answer in words: paired when the studies replay the same deals, duplicates counted once, the cards
whose data changed first, refusals and warnings; the study folder keeps its data and every run's time; reports fold
single-bar panels, name cards by title and write CSV beside Parquet."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")  # the sim extra

from greenlight.core.errors import OptionError
from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.sim.compare import CHANGED, MAIN, RARE, StudySide, compare_results, compare_studies, is_paired
from greenlight.sim.export import write_cards_csv
from greenlight.sim.report import write_report
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import holm_adjust
from greenlight.sim.study import LocalBackend, prepare_study, read_manifest, read_study_data, run_study
from greenlight.sim.summary import summarize_study
from greenlight.sim.verdict import verdict


def result(index: int, returns: tuple[float, float], stats: dict[str, float], seed: int | None = None, length: int = 10) -> GameResult:
    winners = tuple(seat for seat, share in enumerate(returns) if share > 0)
    scores = tuple(10.0 * share for share in returns)
    ranks = tuple(1 if share > 0 else 2 for share in returns)
    return GameResult(
        index,
        "cinecitta",
        2,
        index if seed is None else seed,
        {},
        ("x", "y"),
        (1, 2),
        scores,
        ranks,
        winners,
        returns,
        ({"money": stats["money"]}, {"money": 0}),
        length,
        stats={"game": {"premieres": stats["premieres"], "points": 3 * stats["premieres"] + 1, "noise": stats["noise"]}, "seats": [{}, {}]},
    )


def studies(shift: int) -> tuple[list[GameResult], list[GameResult]]:
    a = [result(i, (1.0, 0.0) if i % 2 else (0.0, 1.0), {"money": i % 5, "premieres": i % 3, "noise": (i * 7) % 4}) for i in range(60)]
    b = [
        result(
            i,
            (1.0, 0.0) if i % 2 or i % 5 == 0 else (0.0, 1.0),
            {"money": i % 5, "premieres": i % 3 + shift * (i % 2), "noise": (i * 5) % 4},
        )
        for i in range(60)
    ]
    return a, b


def test_the_same_deals_are_compared_game_by_game() -> None:
    a, b = studies(shift=1)
    assert is_paired(a, b)
    found = {item.name: item for item in compare_results(a, b)}
    assert found["seat 0 win share"].test == "paired t" and found["premieres"].test == "paired t"
    shuffled = [result(i, row.returns, {"money": 0, "premieres": 0, "noise": 0}, seed=1000 + i) for i, row in enumerate(b)]  # type: ignore[arg-type]
    assert not is_paired(a, shuffled)
    assert {item.test for item in compare_results(a, shuffled) if item.name == "seat 0 win share"} == {"two-proportion z"}


def test_numbers_that_measure_the_same_thing_count_once_in_the_correction() -> None:
    a, b = studies(shift=1)
    headlines = compare_results(a, b)
    found = {item.name: item for item in headlines}
    premieres, points = found["premieres"], found["points"]
    assert points.label in premieres.also and premieres.label in points.also
    assert premieres.p_holm == points.p_holm
    main = [item for item in headlines if item.family == MAIN]
    groups = len(main) - 1  # premieres and points are one test
    raw = sorted({item.p_value for item in main if item.name != "points"})
    assert len([item for item in main if item.name != "points"]) == groups
    assert found["noise"].p_holm == pytest.approx(
        holm_adjust([item.p_value for item in main if item.name != "points"])[
            [item.name for item in main if item.name != "points"].index("noise")
        ]
    )
    assert raw  # every main number was tested


def test_studies_of_other_player_counts_are_refused() -> None:
    a, _ = studies(shift=0)
    three = [GameResult(0, "cinecitta", 3, 0, {}, ("x", "y", "y"), (1, 2, 3), (1, 0, 0), (1, 2, 2), (0,), (1.0, 0, 0), ({}, {}, {}), 9)]
    with pytest.raises(OptionError, match="cannot compare studies of 2 and 3 players"):
        compare_results(a, three)


def _cinecitta_study(out: Path, cards: str | None, games: int = 6) -> None:
    options = {"data": cards} if cards else {}
    study = prepare_study("cinecitta", 3, ["heuristic", "random"], games, 5, options, chunk_size=3)
    run_study(study, out, LocalBackend(1))


def test_a_comparison_leads_with_the_changed_cards_and_says_it_in_words(tmp_path: Path) -> None:
    rich = tmp_path / "rich.toml"
    rich.write_text(
        Path(BUNDLED_CARDS)
        .read_text(encoding="utf-8")
        .replace("number = 2\npromotion = 1\nreels = 3", "number = 9\npromotion = 1\nreels = 3", 1)
    )
    _cinecitta_study(tmp_path / "a", None)
    _cinecitta_study(tmp_path / "b", str(rich))
    data = read_study_data(tmp_path / "b")
    assert data is not None and data["custom"] == ["cards"] and data["titles"]["D3"] == "Director 3"
    assert next(card for card in data["tables"]["cards"] if card["id"] == "D2")["number"] == 9

    def side(name: str) -> StudySide:
        from greenlight.sim.rows import results_from_tables
        from greenlight.sim.storage import find_table, read_table

        folder = tmp_path / name
        games = read_table(find_table(folder / "games"))  # type: ignore[arg-type]
        cards = read_table(find_table(folder / "cards"))  # type: ignore[arg-type]
        return StudySide(str(folder), results_from_tables(games, ()), cards, read_manifest(folder), read_study_data(folder))

    comparison = compare_studies(side("a"), side("b"))
    assert comparison.paired and [change.words() for change in comparison.changes] == ["Director 2 (D2, cards): number 2 -> 9"]
    changed = [item for item in comparison.headlines if item.changed]
    assert changed and {item.subject for item in changed} == {"D2", "Director"}
    assert all(item.family in (CHANGED, RARE) for item in changed)
    assert {item.family for item in comparison.headlines if item.subject == "D3"} <= {"cards", RARE}
    text = verdict(comparison).text()
    assert text.startswith("What differs between A and B:\n  - Director 2 (D2, cards): number 2 -> 9")
    assert "Game by game: both studies replay the same 6 deals" in text
    assert "Director 2, whose data changed: no significant change (" in text


def test_a_resumed_study_counts_every_runs_time_and_writes_spreadsheet_files(tmp_path: Path) -> None:
    out = tmp_path / "study"
    _cinecitta_study(out, None, games=3)
    study = prepare_study("cinecitta", 3, ["heuristic"], 6, 5, {}, chunk_size=3)
    with pytest.raises(OptionError):  # another line-up: another study
        run_study(study, out, LocalBackend(1))
    study = prepare_study("cinecitta", 3, ["heuristic", "random"], 6, 5, {}, chunk_size=3)
    run = run_study(study, out, LocalBackend(1))
    info = run.run_info()
    runs = (read_manifest(out) or {})["runs"]
    assert info["runs"] == 2 == len(runs) and [entry["games_played"] for entry in runs] == [3, 3]
    assert info["total_seconds"] == pytest.approx(sum(entry["seconds"] for entry in runs)) and info["total_seconds"] >= info["seconds"] > 0
    summary = summarize_study(study.to_json(), run.results, run.cards, info, (read_study_data(out) or {})["titles"])
    with write_cards_csv(out, summary).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and {row["title"] for row in rows} >= {"Director 2"} and all(row["card"] != row["title"] for row in rows)
    page = (write_report(out, summary, run.results)[-1]).read_text(encoding="utf-8")
    assert "2 runs" in page and "Director 2" in page and page.index("Summary") < page.index("<img") < page.index("<h2>Tables</h2>")
    assert 'src="bots.png"' in page  # two bots: the per-bot panels are drawn


def test_a_self_play_study_folds_its_single_bar_panels_into_tables(tmp_path: Path) -> None:
    out = tmp_path / "self"
    study = prepare_study("movie-empire", 2, ["heuristic"], 4, 1, {}, chunk_size=4)
    run = run_study(study, out, LocalBackend(1))
    summary = summarize_study(study.to_json(), run.results, run.cards, run.run_info(), (read_study_data(out) or {})["titles"])
    files = write_report(out, summary, run.results)
    page = files[-1].read_text(encoding="utf-8")
    assert not (out / "bots.png").exists() and not (out / "score_breakdown.png").exists() and not (out / "seat_statistics.png").exists()
    assert 'src="bots.png"' not in page and "Score breakdown (mean per seat)" in page
    assert "rounds" in page and "first player of round 1 is drawn at random" in page and "The first player wins" in page
    assert summary["turn_order"] is not None and summary["length_in_units"]["unit"] == "rounds"
    assert json.loads(json.dumps(summary))["labels"]["genre_A"] == "action movies released"
