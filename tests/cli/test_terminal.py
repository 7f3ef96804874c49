"""The terminal as a person meets it: a real pseudo-terminal (pexpect) and a real terminal multiplexer (tmux)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from greenlight.cli.terminal import completions
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from tests.cli.test_cli import greenlight

PROMPT = r"Player 1> "
ONE_PERSON = ["--seat", "human", "--seat", "bot:random", "--seat", "bot:random"]


def spawn(home: Path, *args: str) -> pexpect.spawn[str]:
    env = {**os.environ, "GREENLIGHT_HOME": str(home), "COLUMNS": "120", "TERM": "xterm"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "greenlight.cli.main", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 120),
        preexec_fn=as_in_a_terminal,
    )
    return child


def as_in_a_terminal() -> None:
    """Start the game as a shell starts a foreground job: Ctrl-C interrupts it.

    A test run launched in the background (``cmd &`` in a script, nohup) ignores
    SIGINT, and a child would inherit that; a person's terminal never does.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def saves(home: Path) -> list[Path]:
    return sorted((home / "saves").glob("*.json"))


def test_ctrl_c_loses_nothing_and_resume_without_a_file_offers_the_latest(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "cinecitta", "-n", "3", "--seat", "human", "--seat", "bot:random", "--seat", "bot:random")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C mid-game, with no --record given
    child.expect("Game stopped and saved")
    child.expect(pexpect.EOF)
    [saved] = saves(tmp_path)
    moves = len(Record.load(saved).actions)
    assert [seat for seat, _ in Record.load(saved).actions].count(0) == 1 and moves >= 3

    resumed = spawn(tmp_path, "play", "--resume")
    resumed.expect("Resuming the latest unfinished game: Cinecitta 1937")
    resumed.expect(f"resumed at move {moves}")
    for _ in range(120):
        # The deal is secret, so a move may be one the game warns about: play it anyway.
        index = resumed.expect([PROMPT, "Winner:", r"Play it anyway\? \[y/N\] "])
        if index == 1:
            break
        resumed.sendline("y" if index == 2 else "1")
    else:
        pytest.fail("the resumed game did not end")
    resumed.expect(pexpect.EOF)
    finished = Record.load(saved)
    assert finished.actions[:moves] == Record.load(saved).actions[:moves] and len(finished.actions) > moves
    # Nothing unfinished is left to resume.
    assert "there is no unfinished game saved" in greenlight("play", "--resume", home=tmp_path).stderr


def test_tab_completes_the_legal_actions(tmp_path: Path) -> None:
    child = spawn(
        tmp_path, "play", "cinecitta", "-n", "3", "--seed", "3", "--seat", "human", "--seat", "bot:random", "--seat", "bot:random"
    )
    child.expect(PROMPT)
    child.sendline("1")  # an offer
    child.expect(PROMPT)
    child.send("respond h\t")  # Tab completes the only legal action starting so
    child.expect("respond headhunt")
    child.sendline("")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    [saved] = saves(tmp_path)
    assert (0, "respond headhunt") in Record.load(saved).actions
    assert completions(["offer D6 30", "offer D6 40", "respond secure", "help"], "offer D6") == ["offer D6 30", "offer D6 40"]


def test_arrow_keys_edit_the_line_instead_of_printing_codes(tmp_path: Path) -> None:
    child = spawn(
        tmp_path, "play", "cinecitta", "-n", "3", "--seed", "3", "--seat", "human", "--seat", "bot:random", "--seat", "bot:random"
    )
    child.expect(PROMPT)
    child.send("2\x1b[D1")  # type 2, Left arrow, 1: the line reads "12"
    child.sendline("")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "^[[D" not in (child.before or "")
    [saved] = saves(tmp_path)
    first_offer = next(text for seat, text in Record.load(saved).actions if seat == 0)
    assert first_offer == str(get_game("cinecitta").legal_actions(get_game("cinecitta").new_state(3, 3), 0)[11])


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/test")
def test_a_hot_seat_hand_over_leaves_no_previous_hand_in_the_scrollback(tmp_path: Path) -> None:
    session = f"greenlight-test-{os.getpid()}"
    env = f"GREENLIGHT_HOME={tmp_path} COLUMNS=120"
    command = f"{env} {sys.executable} -m greenlight.cli.main play cinecitta -n 3 --seed 5 --seat human --seat human --seat bot:random"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True)

    def pane(history: bool = False) -> str:
        args = ["tmux", "capture-pane", "-p", "-t", session] + (["-S", "-"] if history else [])
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout

    def wait_for(text: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            screen = pane()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{pane()}")

    def keys(*typed: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", session, *typed], check=True)

    try:
        wait_for("Pass the screen to Player 1")
        keys("Enter")
        first_view = wait_for("Player 1>")
        keys("1", "Enter")
        wait_for("Done. Press Enter")
        keys("Enter")
        wait_for("Pass the screen to Player 2")
        keys("Enter")
        wait_for("Player 2>")
        everything = pane(history=True)
        # The first player's view (their hand and choices) is gone from the screen and the scrollback.
        private = [line for line in first_view.splitlines() if line.strip() and "Pass the screen" not in line and "Player 1>" not in line]
        hand_lines = [line for line in private if line not in everything]
        assert len(hand_lines) >= len(private) // 2, "most of the first player's screen must be gone"
        assert "Player 1> 1" not in everything
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


def test_bracketed_text_survives_in_errors_and_help(tmp_path: Path) -> None:
    error = greenlight("play", "cinecitta", "-n", "3", "-o", "[speed]=3", home=tmp_path).stderr
    assert "'[speed]'" in error
    help_text = greenlight("play", "--help", home=tmp_path).stdout
    assert "[default: 0]" in help_text and "[FILE]" in help_text


def test_games_is_readable_at_80_columns(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "80", "GREENLIGHT_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "greenlight.cli.main", "games"], capture_output=True, text=True, env=env, check=True).stdout
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    for name in ("destination_change", "movie_awards", "trendsetter_tricks", "breaking_changes", "blockbuster_budgets", "data"):
        assert any(line.strip().startswith(name) for line in out.splitlines()), f"{name} is not printed whole"


#: The first words of each game's help at its first decision, and words of the rules of that step.
HELP_STARTS = {
    ("cinecitta", 3): ("Reading a card:", "Step 1 of 3, offer"),
    ("maybe-movies", 3): ("Icons: money, actors", "Pitching: add market cards"),
    ("movie-empire", 2): ("Setup: you were dealt 3 scripts", "A round: Grumpy's phase"),
}


@pytest.mark.parametrize(("game_id", "players"), sorted(HELP_STARTS))
def test_help_during_play_shows_the_legend_and_the_rules_of_the_step(tmp_path: Path, game_id: str, players: int) -> None:
    bots = ["--seat", "bot:random"] * (players - 1)
    child = spawn(tmp_path, "play", game_id, "-n", str(players), "--seat", "human", *bots)
    child.expect(PROMPT)
    child.sendline("help")
    legend, step = HELP_STARTS[(game_id, players)]
    child.expect_exact(legend)
    child.expect_exact(step)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
