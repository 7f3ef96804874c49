"""When even one line per group of choices is taller than the room left for them, the terminal lists the first
choices that fit, with their words, and says how many more there are and how to read them."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console

from greenlight.cli import play
from greenlight.cli.common import SeatSpec
from greenlight.cli.play import Table, first_choices
from greenlight.cli.screen import height
from greenlight.cli.terminal import Prompt
from greenlight.core.match import Match
from greenlight.core.registry import get_game


def test_the_first_choices_that_fit_and_how_many_more(tmp_path: Path) -> None:
    game = get_game("movie-empire")
    match = Match.start(game, 2, seed=4)
    # Past the setup, to the working phase's many places for an assistant.
    while len(game.legal_actions(match.state, seat := sorted(match.decision().players)[0])) <= 8:
        match.play(seat, game.legal_actions(match.state, seat)[0])
    table = Table(match, [SeatSpec(True), SeatSpec(True)], {}, tmp_path / "game.json", prompt=Prompt(tmp_path / "history"))
    actions = game.legal_actions(match.state, seat)
    wide = Console(width=120, record=True)
    setattr(play, "console", wide)  # noqa: B010  (the module's console, at the window's width)
    try:
        shown = first_choices(table, seat, actions, 8)
        assert height(wide, shown) <= 8
        wide.print(shown)
    finally:
        setattr(play, "console", Console())  # noqa: B010
    text = wide.export_text()
    lines = [line.rstrip() for line in text.splitlines()]
    numbers = [int(found.group(1)) for line in lines if (found := re.match(r"\s*(\d+)\. ", line))]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers
    more = len(actions) - len(numbers)
    assert lines[-1] == f"… {more} more choices: type list to read them all (Tab completes any) …"
    assert str(actions[0]) in lines[0] and game.describe_action(match.state, seat, actions[0])[:30] in text
