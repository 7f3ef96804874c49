"""The weak-bot caution: a finding made only by rule-of-thumb bots says so in words, one made by the strong level does not.

A comparison's summary ends with its cautions (``greenlight.sim.verdict``), and a
study's report with its answers (``greenlight.sim.report.study_answers``). The
real comparisons here play two games a side of Cinecitta 1937 at 4 and 5
rounds (``extra_rounds`` -4 and -3): the rounds differ in every game, so the
paired test finds a significant change with the fewest games, and the caution
(which speaks of findings) has one to speak of.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib")  # the sim extra

from greenlight.cli.main import app
from greenlight.cli.simulate import study_side
from greenlight.sim.compare import Comparison, Headline, compare_studies
from greenlight.sim.report import study_answers
from greenlight.sim.verdict import verdict

#: Two games a side: the fewest a paired test can judge.
GAMES = ["cinecitta", "-n", "3", "-g", "2", "--seed", "5", "-w", "1", "--no-report"]
WEAK_CAUTION = (
    "Every seat was played by rule-of-thumb bots (heuristic, random): a stronger player may use the change differently. "
    "Confirm a finding with a smaller study with a search bot (-b strong, docs/simulation.md) before you rely on it."
)
WEAK_ANSWER = (
    "Played by rule-of-thumb bots only (heuristic, random): fast, but a stronger player may see the game differently; "
    "confirm a finding with search bots (docs/simulation.md)."
)
ROUNDS = "Rounds per game rose from 4.00 to 5.00 (+25 %, +1; 95% CI +1 to +1)."


def words(output: str) -> str:
    """The terminal's text with its line wrapping undone."""
    return " ".join(output.split())


def compare_rounds(tmp_path: Path, bots: list[str]) -> str:
    """Play A at 4 rounds and B at 5 with ``bots``, compare them from the command line, and return what it printed."""
    runner = CliRunner()
    a = runner.invoke(app, ["simulate", *GAMES, *bots, "-o", "extra_rounds=-4", "--out", str(tmp_path / "a")])
    assert a.exit_code == 0, a.output
    b = runner.invoke(
        app, ["simulate", *GAMES, *bots, "-o", "extra_rounds=-3", "--out", str(tmp_path / "b"), "--compare", str(tmp_path / "a")]
    )
    assert b.exit_code == 0, b.output
    return words(b.output)


def test_a_comparison_played_by_weak_bots_carries_the_caution_in_words(tmp_path: Path) -> None:
    said = compare_rounds(tmp_path, ["-b", "heuristic", "-b", "random"])
    assert "What differs between A and B: - Option extra_rounds: -4 in A, -3 in B." in said
    assert ROUNDS in said.split("What changed (significant after correcting for every test):", 1)[1].split("What did not change", 1)[0]
    assert f"Cautions: - {WEAK_CAUTION}" in said
    summary = verdict(compare_studies(study_side(tmp_path / "a"), study_side(tmp_path / "b")))
    assert summary.cautions == [WEAK_CAUTION]
    # The study's own report says the same of the bots that played it.
    report = json.loads((tmp_path / "a" / "summary.json").read_text(encoding="utf-8"))
    assert study_answers(report)[-1] == WEAK_ANSWER


def test_a_comparison_played_by_the_strong_level_carries_no_caution(tmp_path: Path) -> None:
    said = compare_rounds(tmp_path, ["-b", "strong"])
    summary = verdict(compare_studies(study_side(tmp_path / "a"), study_side(tmp_path / "b")))
    assert ROUNDS in summary.changed  # a finding the caution would speak of, were the bots weak
    assert summary.cautions == []
    assert "Cautions:" not in said and "rule-of-thumb" not in said
    report = json.loads((tmp_path / "a" / "summary.json").read_text(encoding="utf-8"))
    assert not any("rule-of-thumb" in answer for answer in study_answers(report))


def _headline(name: str, p_holm: float) -> Headline:
    """A bot's number with the given corrected p-value (significant below 0.05)."""
    return Headline("bot", name, "paired t", 0.3, 0.4, (0.2, 0.4), (0.3, 0.5), 40, 40, p_holm, p_holm=p_holm, label=name, kind="share")


def _comparison(bots: tuple[str, ...], headlines: list[Headline]) -> Comparison:
    return Comparison(("a", "b"), ("a", "b"), headlines, True, (40, 40), [], [], [], (bots, bots))


def test_when_strong_and_weak_bots_play_only_the_weak_bots_moving_is_cautioned() -> None:
    moved_weak = [_headline("random win share", 0.001), _headline("strong win share", 0.6)]
    assert verdict(_comparison(("strong", "random"), moved_weak)).cautions == [
        "Only the rule-of-thumb bots' numbers moved (random), not strong's: the finding may not hold for strong play."
    ]
    moved_both = [_headline("random win share", 0.001), _headline("strong win share", 0.002)]
    assert verdict(_comparison(("strong", "random"), moved_both)).cautions == []


def test_weak_bots_without_a_significant_change_need_no_caution() -> None:
    quiet = [_headline("heuristic win share", 0.6)]
    assert verdict(_comparison(("heuristic",), quiet)).cautions == []
    moved = [_headline("heuristic win share", 0.01)]
    assert verdict(_comparison(("heuristic",), moved)).cautions == [
        "Every seat was played by rule-of-thumb bots (heuristic): a stronger player may use the change differently. "
        "Confirm a finding with a smaller study with a search bot (-b strong, docs/simulation.md) before you rely on it."
    ]
