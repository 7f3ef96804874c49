"""``greenlight simulate``: a run, a resumed run, refusals, --cards, and both ways of comparing."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from typer.testing import CliRunner, Result

from greenlight.cli.main import app
from greenlight.games.cinecitta.cards import BUNDLED_CARDS


def said(result: Result) -> str:
    """The command's output with rich's line wrapping undone."""
    return " ".join(result.output.split())


BASE = ["simulate", "cinecitta", "-n", "3", "-b", "heuristic", "-b", "random", "-g", "6", "--chunk-size", "3", "-w", "1"]


def test_simulate_writes_rows_summary_and_report_then_resumes(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "study"
    first = runner.invoke(app, [*BASE, "--seed", "2", "--out", str(out), "--json"])
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout)
    assert summary["games"] == 6 and summary["study"]["lineup"] == ["heuristic", "random", "random"]
    assert summary["run"]["games_played"] == 6 and summary["run"]["games_reused"] == 0
    assert json.loads((out / "summary.json").read_text())["positions"] == summary["positions"]
    for name in ("games.parquet", "cards.parquet", "manifest.json", "report.html", "seat_positions.png", "cards.png"):
        assert (out / name).exists(), name
    again = runner.invoke(app, [*BASE, "--seed", "2", "--out", str(out), "--no-report"])
    assert again.exit_code == 0, again.output
    assert "0 games played, 6 reused from earlier runs" in said(again)
    assert "win share by seat position" in said(again) and "heuristic" in said(again)


def test_simulate_refuses_to_mix_studies_and_conflicting_card_files(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "study"
    assert runner.invoke(app, [*BASE, "--seed", "2", "--out", str(out), "--no-report"]).exit_code == 0
    mixed = runner.invoke(app, [*BASE, "--seed", "3", "--out", str(out), "--no-report"])
    assert mixed.exit_code == 2 and "holds a different study" in said(mixed) and "--fresh" in said(mixed)
    replaced = runner.invoke(app, [*BASE, "--seed", "3", "--out", str(out), "--no-report", "--fresh"])
    assert replaced.exit_code == 0 and "6 games played, 0 reused" in said(replaced)
    both = runner.invoke(app, [*BASE, "--out", str(out), "--cards", "a.toml", "-o", "data=b.toml"])
    assert both.exit_code == 2 and "--cards and -o data=... name different files" in said(both)
    missing = runner.invoke(app, [*BASE, "--out", str(tmp_path / "x"), "--cards", str(tmp_path / "none.toml")])
    assert missing.exit_code == 2 and "does not exist" in said(missing)
    backend = runner.invoke(app, [*BASE, "--out", str(tmp_path / "y"), "--backend", "spark"])
    assert backend.exit_code == 2 and "unknown backend" in said(backend)
    nothing = runner.invoke(app, [*BASE, "--out", str(tmp_path / "z"), "--compare", str(tmp_path / "nowhere")])
    assert nothing.exit_code == 2 and "holds no study to compare with" in said(nothing)


def test_an_unreachable_ray_cluster_is_named_at_once(tmp_path: Path) -> None:
    # A port nobody listens on: Ray alone would retry it for minutes.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = CliRunner()
    refused = runner.invoke(app, [*BASE, "--out", str(tmp_path / "r"), "--backend", "ray", "--address", f"127.0.0.1:{port}"])
    assert refused.exit_code == 2 and f"cannot reach Ray at 127.0.0.1:{port}: Connection refused" in said(refused)
    typo = runner.invoke(app, [*BASE, "--out", str(tmp_path / "t"), "--backend", "ray", "--address", "headnode"])
    assert typo.exit_code == 2 and "a Ray address is auto, HOST:PORT or ray://HOST:PORT, not 'headnode'" in said(typo)


def test_compare_cards_runs_the_variant_and_compares(tmp_path: Path) -> None:
    cards = tmp_path / "rich_directors.toml"
    text = Path(BUNDLED_CARDS).read_text(encoding="utf-8")
    cards.write_text(text.replace('occupation = "Director"\nnumber = 2', 'occupation = "Director"\nnumber = 9'), encoding="utf-8")
    assert cards.read_text(encoding="utf-8") != text
    runner = CliRunner()
    out = tmp_path / "study"
    result = runner.invoke(app, [*BASE, "--out", str(out), "--compare-cards", str(cards), "--no-report"])
    assert result.exit_code == 0, result.output
    assert "A/B" in said(result) and "Win shares by seat position" in said(result)
    assert "What differs between A and B: - Director 2 (D2, cards): number 2 -> 9" in said(result)
    variant = json.loads((out / "variant" / "manifest.json").read_text())
    assert variant["study"]["options"]["data"] == str(cards) and list(variant["study"]["data"]) == ["data"]
    comparison = json.loads((out / "compare.json").read_text())
    assert comparison["a"]["name"] == str(out) and comparison["b"]["name"] == str(out / "variant")
    assert {item["section"] for item in comparison["headlines"]} >= {"seat position", "bot", "score breakdown"}
    assert (out / "compare.html").exists() and (out / "compare_effects.png").exists()


def test_compare_with_another_study_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    base = tmp_path / "base"
    assert runner.invoke(app, [*BASE, "--seed", "1", "--out", str(base), "--no-report"]).exit_code == 0
    awards = runner.invoke(
        app, [*BASE, "--seed", "1", "--out", str(tmp_path / "awards"), "-o", "movie_awards", "--no-report", "--compare", str(base)]
    )
    assert awards.exit_code == 0, awards.output
    comparison = json.loads((tmp_path / "awards" / "compare.json").read_text())
    assert comparison["a"]["name"] == str(base)
    assert "movie_awards=True" in comparison["b"]["study"] and "movie_awards" not in comparison["a"]["study"]
    award = next(item for item in comparison["headlines"] if item["name"] == "award")
    assert award["a"] == 0.0  # no awards without the variant
