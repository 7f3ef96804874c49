"""The terminal as a person meets it: a real pseudo-terminal (pexpect) and a real terminal multiplexer (tmux)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


# -- one screen at a time: a 120x40 window ------------------------------------------------------------------------


class Window:
    """A 120x40 tmux window running one command (a real terminal: line wrapping, paging, the screen as shown)."""

    def __init__(self, home: Path, command: str) -> None:
        self.session = f"greenlight-window-{os.getpid()}-{time.monotonic_ns()}"
        env = f"GREENLIGHT_HOME={home} LINES=40 COLUMNS=120 PAGER=less"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.session, "-x", "120", "-y", "40", f"{env} {command}"], check=True)

    def screen(self, joined: bool = False) -> list[str]:
        """The rows on the screen; ``joined``: rows the terminal wrapped are joined again (the lines as written)."""
        args = ["tmux", "capture-pane", "-p", "-t", self.session] + (["-J"] if joined else [])
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        return text.rstrip("\n").split("\n")

    def settled(self, accept: Any, timeout: float = 30) -> list[str]:
        """Wait until one capture of the screen is one ``accept`` takes (judged whole: a row from one capture and
        the rest from a later one could mix an old prompt with a new screen); return it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.screen()
            if accept(rows):
                return rows
            time.sleep(0.1)
        raise AssertionError("the screen did not settle:\n" + "\n".join(self.screen()))

    def last_row(self, accept: Any, timeout: float = 30) -> str:
        """Wait until the screen's last row is one ``accept`` takes; return it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            row = self.screen()[-1]
            if accept(row):
                return row
            time.sleep(0.1)
        raise AssertionError("the screen did not settle:\n" + "\n".join(self.screen()))

    def wait_for(self, *texts: str, timeout: float = 60) -> tuple[str, list[str]]:
        """The first of ``texts`` to appear on the screen, and the screen then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.screen()
            for text in texts:
                if any(text in row for row in rows):
                    return text, rows
            time.sleep(0.1)
        raise AssertionError(f"none of {texts} appeared:\n" + "\n".join(self.screen()))

    def keys(self, *typed: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, *typed], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.session], check=False)


#: The last row of a screen that waits for the person: the prompt, or a confirmation.
ASKED = (PROMPT.strip(), r"Play it anyway? [y/N]")
ALL_MAYBE_MOVIES_OPTIONS = ["-o", "trendsetter_tricks", "-o", "breaking_changes", "-o", "blockbuster_budgets"]
#: Each game at a busy moment: its title line starts every screen of the table.
BUSY_GAMES = {
    "cinecitta": ("Cinecitta 1937 · round", ["--position", "docs/positions/cinecitta.json", "--seat", "human"]),
    "maybe-movies": (
        "Maybe Movies · turn",
        ["maybe-movies", "-n", "6", "--seed", "4", "--seat", "human", *ALL_MAYBE_MOVIES_OPTIONS],
    ),
    "movie-empire": ("Movie Empire · round", ["movie-empire", "-n", "4", "--seed", "4", "--seat", "human", "-o", "shoot_a_short"]),
}


def cut_in_a_path(row: str) -> bool:
    """Whether a row wider than the window is cut only inside a file's path (a command to copy, a path longer
    than any window): the words before the window's edge all fit."""
    return " " not in row[120:] and "/" in row[:120].rsplit(" ", 1)[-1]


#: Turns looked at per game: past the opening, into the later steps of a round (votes, placements, production).
TURNS_LOOKED_AT = 12
#: What the window shows once the game's program has ended.
GAME_ENDED = "-- the game program ended --"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/test")
@pytest.mark.parametrize("game_id", sorted(BUSY_GAMES))
def test_every_turn_fits_a_120_by_40_window(tmp_path: Path, game_id: str) -> None:
    """At each prompt the whole turn is on the screen: the table from its title line (its middle left out with a note
    when it is too long), the question, the choices and the prompt, with no word cut at the window's edge; the whole
    table is a 'board' away, through a pager."""
    title, args = BUSY_GAMES[game_id]
    root = Path(__file__).resolve().parents[2]
    # The window stays open once the game is over, so its last screen is looked at too. (The settings Window puts
    # before the command reach its first program only: the game's, run from here with the position's full path.)
    given = [str(root / arg) if arg.startswith("docs/") else arg for arg in args]
    play = f"{sys.executable} -m greenlight.cli.main play {' '.join(given)} --seat bot:random"
    window = Window(tmp_path, f"{play}; echo {GAME_ENDED}; sleep 600")
    try:
        before: list[str] = []
        for turn in range(TURNS_LOOKED_AT):
            # A fresh prompt on the last row of a screen that changed since the last answer.
            rows = window.settled(lambda shown, old=before: shown[-1].rstrip() in (*ASKED, GAME_ENDED) and shown != old)
            last = rows[-1]
            if last == GAME_ENDED:
                long = [row for row in window.screen(joined=True) if len(row) > 120 and not cut_in_a_path(row)]
                assert not long, long[:3]
                assert turn >= 3, f"the game ended after {turn} turns: choose a busier moment"
                break
            if last.startswith("Play it anyway"):
                before = rows
                window.keys("y", "Enter")
                continue
            assert any(row.startswith(title) for row in rows), f"turn {turn}: the table's first line is off the screen:\n" + "\n".join(rows)
            # Every line is written to fit the window (wrapped at spaces by the program): the terminal wraps none
            # (it would cut a word anywhere).
            long = [row for row in window.screen(joined=True) if len(row) > 120]
            assert not long, long[:3]
            if turn == 0:
                # The whole table, through a pager when it is taller than the window. (Enter only once the word is on
                # the screen: until then the last row is still the old prompt, which is no answer yet.)
                window.keys("board")
                window.last_row(lambda row: row.rstrip().endswith("> board"))
                window.keys("Enter")
                shown = window.last_row(lambda row: row in (":", "(END)") or row.rstrip() == PROMPT.strip())
                for attempt in range(5):  # a q typed while the pager starts may be lost: type it again
                    if shown not in (":", "(END)"):
                        break
                    window.keys("q")
                    try:
                        shown = window.last_row(lambda row: row.rstrip() == PROMPT.strip(), timeout=5)
                    except AssertionError:
                        assert attempt < 4, "the pager does not close with q"
            before = window.screen()
            window.keys("1", "Enter")
    finally:
        window.close()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/test")
def test_replay_shows_each_action_in_words_with_the_table(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    bots = ["--seat", "bot:medium", "--seat", "bot:random", "--seat", "bot:random"]
    played = greenlight("play", "cinecitta", "-n", "3", "--seed", "9", *bots, "--json", "--record", str(record), home=tmp_path)
    assert played.returncode == 0, played.stderr
    # Without a terminal: every action in its player's words (the game is over, nothing is secret), then the table.
    out = greenlight("replay", str(record), "--no-step", home=tmp_path).stdout
    steps = [line for line in out.splitlines() if re.match(r"\d+\. ", line)]
    assert len(steps) == len(Record.load(record).actions)
    assert all(": " in line and not line.endswith(" acts") for line in steps), steps[:5]
    assert steps[0].startswith("1. Bot 1 (medium): Offer "), steps[0]
    assert "Final scores" in out or "Winner" in out or "Rank" in out
    # At a terminal, one action at a time with the table after it, on one 120x40 screen.
    window = Window(tmp_path, f"{sys.executable} -m greenlight.cli.main replay {record}")
    try:
        _, rows = window.wait_for("Enter: next")
        assert any(row.startswith("Cinecitta 1937 · round 1") for row in rows) and any(row.startswith("1. Bot 1") for row in rows)
        window.keys("Enter")
        _, rows = window.wait_for("Action 2 of")
        assert any(row.startswith("2. Bot 2") for row in rows) and rows[-1].startswith(">")
        window.keys("q", "Enter")
    finally:
        window.close()
