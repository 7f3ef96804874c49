"""The RL and search benchmarks run end to end and print complete tables (figures are never asserted: see docs/performance.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _table_rows(output: str) -> list[list[str]]:
    """The cells of every Markdown table row in ``output``, header and rule included."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in output.splitlines() if line.startswith("|")]


def _run(script: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *arguments], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_rl_prints_every_column_it_announces() -> None:
    output = _run("bench_rl.py", "cinecitta:3", "maybe-movies:3", "--rounds", "1", "--seconds", "0.05", "--reference", "--bound", "--all")
    header, rule, *rows = _table_rows(output)
    assert "AEC, observation not written, steps/s" in header and "AEC / engine" in header
    assert len(rule) == len(header)
    assert [row[:2] for row in rows] == [["cinecitta", "3"], ["maybe-movies", "3"]]
    for row in rows:
        assert len(row) == len(header)
        # every figure is a positive count or share, as printed
        assert all(float(cell.replace(",", "").rstrip("%")) > 0 for cell in row[2:])


def test_bench_rl_measures_connect_four_and_both_vector_envs_in_the_same_run() -> None:
    output = _run("bench_rl.py", "movie-empire:2", "--rounds", "1", "--seconds", "0.2", "--pettingzoo", "--vector")
    header, rule, *rows = _table_rows(output)
    assert len(rule) == len(header)
    assert header[-5:] == [
        "connect_four_v3 AEC steps/s",
        "AEC / connect_four",
        "sync vector learner steps/s",
        "async vector learner steps/s",
        "async / sync",
    ]
    (row,) = rows
    assert row[:2] == ["movie-empire", "2"] and len(row) == len(header)
    assert all(float(cell.replace(",", "").rstrip("%")) > 0 for cell in row[2:])


def test_bench_search_prints_its_ratio_table() -> None:
    pytest.importorskip("pyspiel")
    output = _run("bench_search.py", "cinecitta:3", "--positions", "2", "--iterations", "20", "--rounds", "1", "--no-hard")
    rows = _table_rows(output)
    assert rows, output
    header, _rule, *body = rows
    assert body and all(len(row) == len(header) for row in body)
    assert any(row[0].startswith("cinecitta") for row in body)


def test_bench_actions_prints_the_share_of_each_code_range_ever_legal() -> None:
    output = _run("bench_actions.py", "movie-empire:2", "cinecitta:3", "--games", "3")
    header, _rule, *rows = _table_rows(output)
    assert [row[:2] for row in rows] == [["movie-empire", "2"], ["cinecitta", "3"]]
    movie_empire = dict(zip(header, rows[0], strict=True))
    # The agent layout of Movie Empire is its game codes without the pair blocks, then the card picks.
    assert movie_empire["game codes"] == "52,182" and movie_empire["agent codes"] == "1,784"
    reached = int(movie_empire["ever legal"].replace(",", ""))
    assert 0 < reached < 1784
    # The environment card's figures: the observation is the env's (Movie Empire's 1,698 and its picked block),
    # and Cinecitta's length is fixed (8 rounds of three steps in which every one of the 3 seats commits).
    cinecitta = dict(zip(header, rows[1], strict=True))
    assert movie_empire["observation size"] == "1,922" and cinecitta["observation size"] == "388"
    assert cinecitta["agent steps per game"] == cinecitta["longest"] == "72"
    assert 0 < int(movie_empire["agent steps per game"]) <= int(movie_empire["longest"].replace(",", ""))
