"""A small study of every game on the local pool (1 and 2 workers) and on Ray: identical rows, a summary that matches
the rows, and a report with every plot."""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.sim.report import PLOTS, REPORT, write_report, write_summary
from greenlight.sim.study import GAMES, LocalBackend, Study, StudyRun, prepare_study, run_study
from greenlight.sim.summary import summarize_study

ray = pytest.importorskip("ray")

#: (game, players, line-up, games, options): cheap bots, a few dozen games in all.
STUDIES = [
    ("cinecitta", 3, ["heuristic", "random"], 12, {"movie_awards": True}),
    ("maybe-movies", 3, ["heuristic", "random"], 9, {"breaking_changes": True}),
    ("movie-empire", 2, ["heuristic", "random"], 8, {}),
]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _custom_cards(folder: Path) -> str:
    """A Cinecitta card file where every Director has 3 more reels (a designer's edit)."""
    lines, occupation = [], ""
    for line in Path(BUNDLED_CARDS).read_text(encoding="utf-8").splitlines():
        occupation = line if line.startswith("occupation") else occupation
        if line.startswith("reels") and "Director" in occupation:
            line = f"reels = {int(line.split('=')[1]) + 3}"
        lines.append(line)
    target = folder / "cards.toml"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(target)


def _run_everywhere(study: Study, folder: Path) -> dict[str, StudyRun]:
    from greenlight.sim.ray_backend import RayBackend

    return {
        "local1": run_study(study, folder / "local1", LocalBackend(1)),
        "local2": run_study(study, folder / "local2", LocalBackend(2)),
        "ray": run_study(study, folder / "ray", RayBackend()),
    }


def _check_summary_matches_rows(summary: dict[str, Any], games: list[dict[str, Any]], cards: list[dict[str, Any]]) -> None:
    """Recompute the headline numbers straight from the table rows (not through GameResult)."""
    n = games[0]["num_players"]
    assert summary["games"] == len(games)
    for position in summary["positions"]:
        shares = [row[f"seat{position['seat']}.share"] for row in games]
        scores = [row[f"seat{position['seat']}.score"] for row in games]
        assert position["win_share"] == pytest.approx(sum(shares) / len(games))
        assert position["mean_score"] == pytest.approx(sum(scores) / len(games))
        assert position["parity"] == pytest.approx(1 / n)
    for bot in summary["bots"]:
        seats = [(row, seat) for row in games for seat in range(n) if row[f"seat{seat}.bot"] == bot["bot"]]
        assert bot["seats"] == len(seats)
        assert bot["mean_score"] == pytest.approx(sum(row[f"seat{seat}.score"] for row, seat in seats) / len(seats))
        per_game: dict[int, list[float]] = defaultdict(list)
        for row, seat in seats:
            per_game[row["index"]].append(row[f"seat{seat}.share"])
        assert bot["win_share"] == pytest.approx(sum(sum(v) / len(v) for v in per_game.values()) / len(per_game))
    assert summary["length"]["mean"] == pytest.approx(sum(row["length"] for row in games) / len(games))
    assert summary["length"]["min"] == min(row["length"] for row in games)
    for name, item in summary["statistics"]["game"].items():
        values = [row[f"stat.{name}"] for row in games if row[f"stat.{name}"] is not None]
        assert item["n"] == len(values)
        assert item["mean"] == pytest.approx(sum(values) / len(values))
    for name, item in summary["statistics"]["seat"].items():
        values = [row[f"seat{seat}.stat.{name}"] for row in games for seat in range(n) if row[f"seat{seat}.stat.{name}"] is not None]
        assert item["mean"] == pytest.approx(sum(values) / len(values))
    for name, value in summary["breakdown"].items():
        cells = [row.get(f"seat{seat}.breakdown.{name}") for row in games for seat in range(n)]
        numbers = [cell for cell in cells if isinstance(cell, (int, float)) and not isinstance(cell, bool)]
        assert value == pytest.approx(sum(numbers) / len(numbers))
    times: dict[tuple[str, str], int] = defaultdict(int)
    for card in cards:
        times[(card["action"], card["card"])] += card["count"]
    assert {(item["action"], item["card"]): item["times"] for item in summary["cards"]["by_card"]} == times
    by_type: dict[tuple[str, str], int] = defaultdict(int)
    for card in cards:
        by_type[(card["action"], card["type"])] += card["count"]
    assert {(item["action"], item["type"]): item["times"] for item in summary["cards"]["by_type"]} == by_type


def test_a_study_gives_the_same_rows_on_every_backend(tmp_path: Path) -> None:
    # One test for all games, so that under pytest-xdist a single worker starts a single Ray.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for game, players, bots, games, options in STUDIES:
            check_one_game(tmp_path / game, game, players, bots, games, options)
    finally:
        ray.shutdown()


def check_one_game(tmp_path: Path, game: str, players: int, bots: list[str], games: int, options: dict[str, Any]) -> None:
    tmp_path.mkdir()
    if game == "cinecitta":  # also checks that a custom data file reaches Ray workers and rows keep its path
        options = {**options, "data": _custom_cards(tmp_path)}
    study = prepare_study(game, players, bots, games, seed=11, options=options, chunk_size=4)
    runs = _run_everywhere(study, tmp_path)
    reference = runs["local1"]
    assert len(reference.games) == games and reference.played == games and reference.reused == 0
    assert [row["index"] for row in reference.games] == list(range(games))
    reference_cards = reference.read_cards()
    assert reference_cards, "every game records card statistics"
    for name in ("local2", "ray"):
        assert runs[name].games == reference.games, (game, name)
        assert runs[name].read_cards() == reference_cards, (game, name)
        assert runs[name].cards.totals == reference.cards.totals, (game, name)
        assert runs[name].results == reference.results, (game, name)
    # Seats rotate: every bot sits at every position.
    for seat in range(players):
        assert {row[f"seat{seat}.bot"] for row in reference.games} == set(bots)
    if game == "cinecitta":
        assert {json.loads(row["options"])["data"] for row in runs["ray"].games} == {options["data"]}
        # A seat that dropped out skipped the awards step: it reports no figure (R43).
        assert all(row["seat0.breakdown.award"] in (-100, 0, 200, None) for row in reference.games)
        assert any(row["seat0.breakdown.award"] is not None for row in reference.games)

    summary = summarize_study(study.to_json(), reference.results, reference.cards, reference.run_info())
    assert summary == summarize_study(study.to_json(), reference.results, reference_cards, reference.run_info())
    _check_summary_matches_rows(summary, reference.games, reference_cards)
    write_summary(reference.out, summary)
    assert json.loads((reference.out / "summary.json").read_text())["games"] == games

    files = write_report(reference.out, summary, reference.results)
    page = (reference.out / REPORT).read_text(encoding="utf-8")
    for name in PLOTS:
        plot = reference.out / name
        assert plot.read_bytes()[:8] == PNG_MAGIC and plot.stat().st_size > 2000, name
        assert f'src="{name}"' in page, name
    assert files[-1] == reference.out / REPORT
    assert (reference.out / f"{GAMES}.parquet").exists()
    shutil.rmtree(tmp_path / "local2")  # keep the temporary folder small
