"""bench/baselines.py runs end to end at a minuscule scale and writes complete tables (figures are never asserted)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]
AGENTS = ["random", "medium", "hard/30", "ppo-fixed", "ppo-self"]


def test_baselines_writes_a_row_per_agent_with_intervals_and_compute(tmp_path: Path) -> None:
    out = tmp_path / "baselines.csv"
    arguments = ["--games", "cinecitta:3", "--scale", "0.01", "--seeds", "2", "--rollout", "8"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "baselines.py"), *arguments, "--work", str(tmp_path / "work"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    with out.open() as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        header = reader.fieldnames
    assert header == [
        "game", "players", "agent", "bot", "train_seeds", "train_steps_per_seed", "train_wall_s", "train_cpu_s",
        "eval_games", "eval_seats", "win_share", "ci95_low", "ci95_high", "parity", "elo", "seed_win_shares",
        "vs_hard_share", "vs_hard_low", "vs_hard_high", "eval_think_s",
    ]  # fmt: skip
    assert [(row["game"], row["players"], row["agent"]) for row in rows] == [("cinecitta", "3", agent) for agent in AGENTS]
    by_agent = {row["agent"]: row for row in rows}
    assert by_agent["hard/30"]["bot"] == "search:steps=700"  # Cinecitta's hard budget is 21,000 steps
    # Each agent meets 4 others in 2 line-ups, over 3 seat arrangements, for 2 seeds x 1 cycle of deals: 48 games,
    # and sits at 1 seat of one line-up and 2 of the other: 72 seats.
    for row in rows:
        assert (int(row["eval_games"]), int(row["eval_seats"])) == (48, 72)
        low, share, high = float(row["ci95_low"]), float(row["win_share"]), float(row["ci95_high"])
        assert 0.0 <= low <= share <= high <= 1.0
        assert float(row["parity"]) == pytest.approx(1 / 3, abs=1e-4)
        assert float(row["elo"]) > 0
    for agent in ("ppo-fixed", "ppo-self"):
        row = by_agent[agent]
        # one update of 8 games x 8 steps against random, one against medium; self-play as many
        assert (int(row["train_seeds"]), int(row["train_steps_per_seed"])) == (2, 128)
        assert float(row["train_wall_s"]) > 0 and float(row["train_cpu_s"]) > 0
        assert len(row["seed_win_shares"].split(";")) == 2
    for agent in ("random", "medium", "hard/30"):
        assert (by_agent[agent]["train_seeds"], by_agent[agent]["train_steps_per_seed"]) == ("0", "0")
    assert by_agent["hard/30"]["vs_hard_share"] == "nan"
    assert 0.0 <= float(by_agent["ppo-self"]["vs_hard_low"]) <= float(by_agent["ppo-self"]["vs_hard_high"]) <= 1.0
    with (tmp_path / "baselines-pairs.csv").open() as handle:
        pairs = list(csv.DictReader(handle))
    assert sorted((row["agent"], row["opponent"]) for row in pairs) == sorted((a, b) for a in AGENTS for b in AGENTS if a != b)
    # a pair's tables: 2 line-ups x 3 arrangements x 2 deals; one agent of the pair sits at 1 + 2 seats of each deal
    assert all((row["games"], row["seats"]) == ("12", "18") for row in pairs)
    table = [line for line in done.stdout.splitlines() if line.startswith("| cinecitta")]
    assert len(table) == len(AGENTS)
