"""The `greenlight` command, run as a real subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from greenlight.core.record import Record, replay
from greenlight.core.registry import get_game

HOME = Path(tempfile.mkdtemp(prefix="greenlight-cli-home-"))


def greenlight(
    *args: str, stdin: str = "", timeout: float = 120, home: Path = HOME, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command as a person would, with its own save folder (``GREENLIGHT_HOME``), in ``cwd`` if given."""
    return subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb", "GREENLIGHT_HOME": str(home)},
    )


def test_bot_only_game_runs_without_input_and_prints_json(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    args = ["play", "cinecitta", "--players", "4", "--seed", "7", "--json", "--record", str(record_file)]
    args += ["--seat", "bot:heuristic", "--seat", "bot:heuristic", "--seat", "bot:random", "--seat", "bot:heuristic"]
    result = greenlight(*args)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "cinecitta" and data["seed"] == 7 and data["actions"] == 84
    assert len(data["scores"]) == 4 and len(data["breakdown"]) == 4
    assert set(data["winners"]) <= {0, 1, 2, 3} and data["winners"]
    record = Record.load(record_file)
    state = replay(record)
    assert get_game("cinecitta").outcome(state).to_json()["scores"] == data["scores"]


def test_same_seed_same_game() -> None:
    args = ["play", "cinecitta", "-n", "3", "--seed", "5", "--json", "--seat", "bot", "--seat", "bot", "--seat", "bot:random"]
    assert greenlight(*args).stdout == greenlight(*args).stdout


def test_without_a_seed_each_game_gets_a_fresh_secret_one_shown_only_at_the_end(tmp_path: Path) -> None:
    bots = ["--seat", "bot:random"] * 3
    first, second = (json.loads(greenlight("play", "cinecitta", "-n", "3", "--json", *bots).stdout) for _ in range(2))
    assert first["seed"] != second["seed"] and min(first["seed"], second["seed"]) >= 2**100
    assert bin(first["seed"] ^ second["seed"]).count("1") > 30, "two secret seeds share no structure"
    record = tmp_path / "game.json"
    shown = greenlight("play", "cinecitta", "-n", "3", "--record", str(record), *bots)
    seed = Record.load(record).seed
    opening, _, ending = shown.stdout.partition("Winner")
    assert str(seed) not in opening and f"Seed {seed}: play this deal again with --seed {seed}" in ending
    chosen = greenlight("play", "cinecitta", "-n", "3", "--seed", "11", *bots).stdout
    assert chosen.splitlines()[0].startswith("Cinecitta 1937, 3 players, seed 11:")


def test_the_seed_is_shown_during_play_only_on_request_and_confirmation() -> None:
    seats = ["--seat", "human", "--seat", "bot:random", "--seat", "bot:random"]
    declined = greenlight("play", "cinecitta", "-n", "3", "--seed", "123456789123", *seats, stdin="seed\nn\nquit\n").stdout
    assert "reveals every hidden card" in declined and "Seed 123456789123" not in declined
    shown = greenlight("play", "cinecitta", "-n", "3", "--seed", "123456789123", *seats, stdin="seed\ny\nquit\n").stdout
    assert "Seed 123456789123" in shown


def test_human_seat_plays_by_number_and_text_and_sees_refusals(tmp_path: Path) -> None:
    # Offer by number, respond by text, a refused action (explained), then always the first choice.
    answers = ["1", "respond headhunt", "offer Z9 0", "1"] + ["1"] * 40
    result = greenlight(
        "play",
        "cinecitta",
        "-n",
        "3",
        "--seed",
        "7",
        "--seat",
        "human",
        "--seat",
        "bot",
        "--seat",
        "bot:random",
        stdin="\n".join(answers) + "\n",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    out = result.stdout
    assert "Refused:" in out and "Z9" in out
    assert "Winner:" in out and out.count("final result") == 1, "the final scores are printed once"
    assert "Only one choice for Player 1:" in out, "a move with nothing to choose is played and announced"


def test_hot_seat_asks_to_pass_the_screen() -> None:
    answers = ["", "1", ""] * 3
    result = greenlight(
        "play", "cinecitta", "-n", "3", "--seat", "human", "--seat", "human", "--seat", "bot", stdin="\n".join(answers) + "\n"
    )
    assert "Pass the screen to Player 1" in result.stdout and "Pass the screen to Player 2" in result.stdout


def test_replay_steps_through_a_record_hiding_secret_choices(tmp_path: Path) -> None:
    record_file = tmp_path / "game.json"
    greenlight(
        "play",
        "cinecitta",
        "-n",
        "3",
        "--seed",
        "2",
        "--json",
        "--record",
        str(record_file),
        "--seat",
        "bot",
        "--seat",
        "bot",
        "--seat",
        "bot",
    )
    result = greenlight("replay", str(record_file), "--no-step")
    assert result.returncode == 0, result.stderr
    # The game is over: its record is public (as the web's replay shows it), so every action reads in words.
    assert "72 actions" in result.stdout and "1. Bot 1 (heuristic): Offer " in result.stdout
    assert "final result" in result.stdout
    # In an unfinished game another seat's simultaneous choice stays secret without --reveal: only what it caused
    # once revealed is shown.
    unfinished = json.loads(record_file.read_text())
    unfinished["actions"] = unfinished["actions"][:2]
    record_file.write_text(json.dumps(unfinished))
    early = greenlight("replay", str(record_file), "--no-step")
    assert "1. Bot 1 (heuristic): makes a secret choice" in early.stdout and "Offer" not in early.stdout
    assert not re.search(r"offer [A-Z]\d+ \d+", early.stdout), "a secret offer's text is hidden without --reveal"
    revealed = greenlight("replay", str(record_file), "--no-step", "--reveal")
    assert "1. Bot 1 (heuristic): Offer " in revealed.stdout


def test_bench_prints_one_json_line() -> None:
    result = greenlight("bench", "cinecitta", "--seconds", "0.5")
    row = json.loads(result.stdout)
    assert row["game"] == "cinecitta" and row["actions_per_s"] > 0 and row["clone_us"] > 0 and row["apply_us"] > 0


def test_bench_compares_with_openspiels_python_tic_tac_toe_in_the_same_run() -> None:
    pytest.importorskip("pyspiel")
    result = greenlight("bench", "cinecitta", "-n", "3", "--seconds", "0.6", "--compare-openspiel")
    assert result.returncode == 0, result.stderr
    row = json.loads(result.stdout)
    assert row["reference"] == "open_spiel python_tic_tac_toe" and len(row["actions_per_s"]) == len(row["reference_actions_per_s"]) == 3
    ratios = sorted(mine / theirs for mine, theirs in zip(row["actions_per_s"], row["reference_actions_per_s"], strict=True))
    assert row["ratio"] == pytest.approx(ratios[1], abs=0.01)


def test_bad_input_gets_a_clear_error() -> None:
    assert "unknown game 'chess'" in greenlight("play", "chess").stderr
    result = greenlight("play", "cinecitta", "-n", "3", "-o", "destination_change")
    assert result.returncode == 2 and "only for 4, 5 players" in result.stderr
    assert "a seat is 'human' or 'bot:LEVEL'" in greenlight("play", "cinecitta", "--seat", "robot").stderr
    assert (
        "unknown bot 'genius'"
        in greenlight("play", "cinecitta", "-n", "3", "--seat", "bot:genius", "--seat", "bot", "--seat", "bot").stderr
    )
    assert "cannot read record" in greenlight("replay", "/nonexistent.json").stderr


def test_a_quit_game_is_saved_after_every_move_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    seats = ["--seat", "human", "--seat", "bot:heuristic", "--seat", "bot:random"]
    # Two moves by number, then quit: the record holds those moves and the bots' replies, and who sat where.
    first = greenlight("play", "cinecitta", "-n", "3", "--seed", "4", "--record", str(saved), *seats, stdin="1\n1\nquit\n")
    assert first.returncode == 1 and f"greenlight play --resume {saved}" in first.stdout
    stopped = Record.load(saved)
    assert stopped.players == ["human", "bot:heuristic", "bot:random"]
    # Offer and response by number, then the placement (one choice) played for them.
    assert [seat for seat, _ in stopped.actions].count(0) == 3
    moves_before = len(stopped.actions)

    # Resume with no seats, players or seed: all come from the file; the human plays on to the end.
    resumed = greenlight("play", "cinecitta", "--resume", str(saved), stdin="1\n" * 60)
    assert resumed.returncode == 0, resumed.stderr + resumed.stdout
    assert f"resumed at move {moves_before}" in resumed.stdout and "Winner:" in resumed.stdout
    final = Record.load(saved)
    assert final.actions[:moves_before] == stopped.actions and len(final.actions) > moves_before
    assert get_game("cinecitta").is_terminal(replay(final))


def test_resume_refuses_settings_that_contradict_the_saved_game(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    four_seats = ["--seat", "human", "--seat", "bot", "--seat", "bot", "--seat", "bot"]
    refused = greenlight("play", "cinecitta", "-n", "3", "--seed", "4", "--record", str(saved), *four_seats, stdin="quit\n")
    # Too many --seat options for a 3-player game are refused before anything is saved.
    assert "a 3-player game has 3 seats, not 4" in refused.stderr and not saved.exists()
    greenlight("play", "cinecitta", "-n", "3", "--seed", "4", "--record", str(saved), "--seat", "human", stdin="quit\n")
    # Missing seats are bots.
    assert Record.load(saved).players == ["human", "bot:medium", "bot:medium"]
    three_seats = ["--seat", "human", "--seat", "bot", "--seat", "bot"]
    greenlight("play", "cinecitta", "-n", "3", "--seed", "4", "--record", str(saved), *three_seats, stdin="quit\n")
    assert Record.load(saved).actions == []
    assert "dealt with another seed" in greenlight("play", "cinecitta", "--resume", str(saved), "--seed", "5").stderr
    assert "3-player game" in greenlight("play", "cinecitta", "--resume", str(saved), "-n", "4").stderr
    assert "not maybe-movies" in greenlight("play", "maybe-movies", "--resume", str(saved)).stderr
    assert "keeps the options" in greenlight("play", "cinecitta", "--resume", str(saved), "-o", "movie_awards").stderr
    assert "cannot read record" in greenlight("play", "cinecitta", "--resume", str(tmp_path / "none.json")).stderr


def test_a_game_starts_from_a_position_file_and_any_move_of_its_record_is_a_position(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "positions" / "cinecitta.json"
    record_file = tmp_path / "game.json"
    bots = ["--seat", "bot:heuristic"] * 3
    played = greenlight("play", "--position", str(example), "--json", "--record", str(record_file), *bots)
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["actions"] == 3 * 3 * 2 and result["position"] == str(example)  # rounds 7 and 8: three steps, three seats
    record = Record.load(record_file)
    assert record.start is not None and record.start["round"] == 7
    assert get_game("cinecitta").outcome(replay(record)).to_json()["scores"] == result["scores"]
    written = tmp_path / "after-4.json"
    assert greenlight("position", str(record_file), "--at", "4", "--out", str(written)).returncode == 0
    after = json.loads(written.read_text())
    assert (after["round"], after["step"], after["game"]) == (7, "respond", "cinecitta")
    again = greenlight("play", "--position", str(written), "--json", *bots)
    assert again.returncode == 0 and json.loads(again.stdout)["actions"] == 18 - 4
    assert "--at must be from 0 to 18" in greenlight("position", str(record_file), "--at", "19").stderr


def test_an_impossible_position_file_is_refused_naming_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "cinecitta", "num_players": 3, "wallets": [100, -10, 100]}')
    result = greenlight("play", "--position", str(bad))
    assert result.returncode != 0
    assert f"{bad}: wallets[1]: is -10; money comes in tens and a wallet is never below 0" in " ".join(result.stderr.split())
    bad.write_text("[1, 2]")
    assert "a position is a JSON object" in greenlight("play", "--position", str(bad)).stderr


def test_hint_shows_the_three_best_moves_in_words_but_only_when_no_other_person_could_use_it() -> None:
    solo = greenlight("play", "cinecitta", "-n", "3", "--seed", "4", stdin="hint\nquit\n")
    text = " ".join(solo.stdout.split())
    assert "Thinking for 2 seconds about what you can see" in text
    assert [f"{rank}. Offer" in text for rank in (1, 2, 3)] == [True, True, True]
    assert text.count("wins about") == 3 and "in words" not in text
    shared = greenlight("play", "cinecitta", "-n", "3", "--seat", "human", "--seat", "human", "--seed", "4", stdin="\nhint\nquit\n")
    assert "Hints are off: several people share this game" in " ".join(shared.stdout.split())
    allowed = greenlight("play", "cinecitta", "--seat", "human", "--seat", "human", "--seat", "bot", "--hints", stdin="\nhint\nquit\n")
    assert " ".join(allowed.stdout.split()).count("wins about") == 3
