"""The game runner, the process pool and the arena (schedule, seeds, report, command line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from greenlight.cli.main import app
from greenlight.core.errors import IllegalActionError, OptionError
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.sim.arena import arena_tasks, lineup, load_rows, pooled_report, run_arena, seat_schedule
from greenlight.sim.pool import run_games
from greenlight.sim.runner import GameResult, GameTask, play_game


def test_a_result_row_replays_from_its_record() -> None:
    task = GameTask("cinecitta", 4, seed=12, bots=("heuristic", "random", "easy", "medium"), bot_seeds=(1, 2, 3, 4), keep_record=True)
    result = play_game(task)
    assert result.record is not None
    match = Match.from_record(Record.from_json(result.record))
    outcome = match.outcome()
    assert result.scores == outcome.scores
    assert result.winners == outcome.winners
    assert result.returns == outcome.returns()
    assert result.breakdown == outcome.breakdown
    assert result.length == len(match.record.actions)
    assert result.bots == task.bots and result.bot_seeds == task.bot_seeds and result.seed == 12
    assert [timing.moves for timing in result.timing] == [sum(1 for seat, _ in match.record.actions if seat == s) for s in range(4)]


def test_a_result_row_round_trips_through_json() -> None:
    result = play_game(GameTask("cinecitta", 3, seed=2, bots=("random",) * 3, bot_seeds=(5, 6, 7)))
    again = GameResult.from_json(json.loads(json.dumps(result.to_json())))
    assert again == result
    assert again.timing == result.timing


def test_a_task_needs_a_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="one bot and one bot seed per seat"):
        GameTask("cinecitta", 3, seed=2, bots=("random",), bot_seeds=(1, 2, 3))


def test_a_bot_that_plays_an_illegal_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from greenlight.core.bot import RandomBot
    from greenlight.games.cinecitta.actions import Respond

    monkeypatch.setattr(RandomBot, "choose", lambda self, view: Respond("headhunt"))
    with pytest.raises(IllegalActionError):
        play_game(GameTask("cinecitta", 3, seed=2, bots=("random",) * 3, bot_seeds=(5, 6, 7)))


def test_rows_do_not_depend_on_the_number_of_workers() -> None:
    tasks = arena_tasks("cinecitta", 3, ["search:4", "heuristic", "random"], games=8, seed=3)
    finished: list[int] = []
    parallel = run_games(tasks, workers=2, progress=lambda row: finished.append(row.index))
    serial = run_games(tasks, workers=1)
    assert parallel == serial
    assert [row.index for row in parallel] == list(range(8))
    assert sorted(finished) == list(range(8))


def test_lineup_fills_the_table_with_the_last_bot() -> None:
    assert lineup(["hard", "medium"], 3) == ("hard", "medium", "medium")
    assert lineup(["a", "b", "c"], 3) == ("a", "b", "c")
    with pytest.raises(OptionError, match="at most one bot per seat"):
        lineup(["a", "b", "c", "d"], 3)
    with pytest.raises(OptionError, match="at least one bot"):
        lineup([], 3)


def test_seat_schedule_uses_every_arrangement_or_rotations() -> None:
    assert seat_schedule(("a", "b")) == [("a", "b"), ("b", "a")]
    assert len(seat_schedule(("a", "b", "c"))) == 6
    assert len(seat_schedule(("a", "b", "c", "d"))) == 24
    five = seat_schedule(("a", "b", "c", "d", "e"))
    assert ["".join(order) for order in five] == ["abcde", "bcdea", "cdeab", "deabc", "eabcd"]
    # Every bot sits in every seat equally often over one cycle.
    for schedule in (seat_schedule(("x", "y", "y")), seat_schedule(("a", "b", "c", "d"))):
        for seat in range(len(schedule[0])):
            counts = {name: sum(order[seat] == name for order in schedule) for name in schedule[0]}
            assert len(set(counts.values())) == 1 or set(schedule[0]) == {"x", "y"}


def test_arena_plays_the_same_deal_from_every_seat() -> None:
    tasks = arena_tasks("cinecitta", 3, ["hard", "medium"], games=7, seed=9)
    assert [task.bots for task in tasks[:3]] == [("hard", "medium", "medium"), ("medium", "hard", "medium"), ("medium", "medium", "hard")]
    assert tasks[0].seed == tasks[1].seed == tasks[2].seed != tasks[3].seed
    assert tasks[3].seed == tasks[5].seed != tasks[6].seed
    assert len({seed for task in tasks for seed in task.bot_seeds}) == 21
    assert arena_tasks("cinecitta", 3, ["hard", "medium"], games=7, seed=9) == tasks
    assert arena_tasks("cinecitta", 3, ["hard", "medium"], games=7, seed=10)[0].seed != tasks[0].seed


def test_arena_report() -> None:
    report = run_arena("cinecitta", 3, ["heuristic", "random"], games=12, seed=4)
    heuristic, random_bot = report.summary("heuristic"), report.summary("random")
    assert report.games == 12 and len(report.rows) == 12
    assert heuristic.seats == 12 and random_bot.seats == 24
    # Win shares per seat, ties split: the seats' shares add up to the games that had a winner.
    decided = sum(1 for row in report.rows if row.winners)
    assert heuristic.win_share * 12 + random_bot.win_share * 2 * 12 == pytest.approx(decided)
    assert heuristic.win_low <= heuristic.win_share <= heuristic.win_high
    assert heuristic.elo is not None and random_bot.elo is not None
    assert heuristic.elo + random_bot.elo == pytest.approx(3000.0, abs=0.2)
    assert "quality" in heuristic.breakdown and "status" in heuristic.labels
    data = report.to_json()
    assert data["bots"][0]["win_share_over_parity"] == pytest.approx(heuristic.win_share * 3)
    assert "rows" not in data and len(report.to_json(with_rows=True)["rows"]) == 12


def test_arena_refuses_unknown_bots_and_options() -> None:
    with pytest.raises(OptionError, match="unknown bot"):
        run_arena("cinecitta", 3, ["heuristic", "grandmaster"], games=2, seed=1)
    with pytest.raises(OptionError):
        run_arena("cinecitta", 3, ["heuristic"], games=2, seed=1, options={"destination_change": True})
    with pytest.raises(OptionError, match="at least one game"):
        run_arena("cinecitta", 3, ["heuristic"], games=0, seed=1)


def test_arena_command_prints_a_json_report(tmp_path: object) -> None:
    runner = CliRunner()
    args = ["arena", "cinecitta", "-n", "3", "--bot", "heuristic", "--bot", "random", "--games", "6", "--seed", "2", "-w", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["lineup"] == ["heuristic", "random", "random"]
    assert [bot["bot"] for bot in data["bots"]] == ["heuristic", "random"]
    again = json.loads(runner.invoke(app, args).stdout)
    assert [bot["win_share"] for bot in again["bots"]] == [bot["win_share"] for bot in data["bots"]]


def test_arena_command_tables_and_errors() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "cinecitta", "-n", "3", "--bot", "medium", "--bot", "easy", "--games", "3", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "Elo" in result.output and "quality" in result.output
    bad = runner.invoke(app, ["arena", "cinecitta", "-n", "3", "--bot", "nobody", "--games", "3", "--workers", "1"])
    assert bad.exit_code == 2
    assert "unknown bot" in bad.output


def test_saved_rows_are_reported_again_and_pooled(tmp_path: Path) -> None:
    runner = CliRunner()
    files = []
    for seed in (1, 2):
        path = tmp_path / f"run{seed}.jsonl"
        args = ["arena", "cinecitta", "-n", "3", "-b", "heuristic", "-b", "random", "-g", "3", "--seed", str(seed), "-w", "1", "--json"]
        played = runner.invoke(app, [*args, "--rows", str(path)])
        assert played.exit_code == 0, played.output
        files.append(path)
    single = json.loads(runner.invoke(app, ["arena", "cinecitta", "--from-rows", str(files[0]), "--json"]).stdout)
    assert single["games"] == 3 and single["seed"] is None
    pooled = pooled_report(files)
    assert pooled.games == 6
    rows = [row for path in files for row in load_rows(path)]
    assert pooled.summary("heuristic").win_share == pytest.approx(sum(row.returns[row.bots.index("heuristic")] for row in rows) / 6)
    wrong = runner.invoke(app, ["arena", "maybe-movies", "--from-rows", str(files[0])])
    assert wrong.exit_code == 2 and "not maybe-movies" in wrong.output
    (tmp_path / "bad.jsonl").write_text("{}\n")
    bad = runner.invoke(app, ["arena", "cinecitta", "--from-rows", str(tmp_path / "bad.jsonl")])
    assert bad.exit_code == 2 and "line 1 is not an arena result row" in bad.output
