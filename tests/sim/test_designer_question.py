"""A designer's question answered end to end, as the docs tell it: make a star cheaper in a spreadsheet, compare with
the game as printed, and read the answer in words; then sweep a card's cost and get its plot and a fair value."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib")

from greenlight.cli.main import app

GAMES = ["-n", "2", "-b", "heuristic", "-g", "60", "--seed", "3", "-w", "1", "--no-report"]


def words(output: str) -> str:
    return " ".join(output.split())


@pytest.mark.slow
def test_a_cheaper_star_in_a_csv_is_named_in_the_verdict_and_a_sweep_suggests_a_fair_cost(tmp_path: Path) -> None:
    runner = CliRunner()
    template = tmp_path / "template"
    assert runner.invoke(app, ["data", "template", "movie-empire", "--format", "csv", "--out", str(template)]).exit_code == 0
    mine = tmp_path / "my_data"
    mine.mkdir()
    with (template / "stars.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    cost = rows[0].index("cost")
    for row in rows[1:]:
        if row[0] == "ST16":  # Jasper Vale, cost 5
            row[cost] = "0"
    with (mine / "stars.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)

    base = runner.invoke(app, ["simulate", "movie-empire", *GAMES, "--out", str(tmp_path / "base")])
    assert base.exit_code == 0, base.output
    cheap = runner.invoke(
        app,
        ["simulate", "movie-empire", *GAMES, "--out", str(tmp_path / "cheap"), "--cards", str(mine), "--compare", str(tmp_path / "base")],
    )
    assert cheap.exit_code == 0, cheap.output
    said = words(cheap.output)
    assert "What differs between A and B: - Jasper Vale (ST16, stars): cost 5 -> 0" in said
    changed = said.split("What changed (significant after correcting for every test):", 1)[1].split("What did not change", 1)[0]
    assert "Jasper Vale: taken per game rose from" in changed and "95% CI" in changed
    comparison = json.loads((tmp_path / "cheap" / "compare.json").read_text(encoding="utf-8"))
    assert comparison["paired"] and any(item["subject"] == "ST16" and item["significant_holm"] for item in comparison["headlines"])

    sweep = runner.invoke(
        app,
        ["sweep", "movie-empire", "--vary", "cards.PB03.cost=1..5", "-g", "40", "--seed", "3", "-w", "1", "--out", str(tmp_path / "sweep")],
    )
    assert sweep.exit_code == 0, sweep.output
    result = json.loads((tmp_path / "sweep" / "sweep.json").read_text(encoding="utf-8"))
    assert (tmp_path / "sweep" / "sweep.png").stat().st_size > 5000 and result["card_title"] == "Stunts"
    chosen = next(point for point in result["points"] if point["value"] == result["suggested"])
    low, high = chosen["win_share_ci95"]
    assert result["suggested_at_parity"] and low <= result["parity"] <= high
    assert f"Suggested cost of Stunts: {result['suggested']}" in words(sweep.output)
