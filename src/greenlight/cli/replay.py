"""``greenlight replay``: step through a saved game record, each action in words with the table after it."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

from greenlight.cli.common import console, fail, outcome_table
from greenlight.cli.screen import fit_table, height, window_rows
from greenlight.core.errors import GreenlightError
from greenlight.core.game import Game
from greenlight.core.record import Record, start_state
from greenlight.core.registry import get_game
from greenlight.core.state import GameState


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a record as a reader sees it: who, in words, what it caused, and the game after it."""

    index: int
    seat: int
    words: str
    log: list[str]
    state: GameState


def replay_steps_in_words(record: Record, game: Game[Any], viewer: int | None, reveal: bool) -> list[Step]:
    """Every action of ``record`` in words, as ``viewer`` (None: a spectator) may read it.

    Once the game is over nothing is secret (the record is public), so every action reads in its player's words. In
    an unfinished game another seat's choice in a simultaneous step stays hidden ("makes a secret choice") unless
    ``reveal``; a choice made in turn is public.
    """
    names = record.seat_names()
    state = start_state(record, game)
    finished = _finishes(record, game)
    steps: list[Step] = []
    for index, (seat, text) in enumerate(record.actions, 1):
        try:
            action = game.parse_action(text)
            secret = game.decision(state).simultaneous and seat != viewer and not (reveal or finished)
            words = "makes a secret choice" if secret else game.describe_action(state, seat, action)
            events = game.apply(state, seat, action)
        except GreenlightError as error:
            raise fail(f"record action {index - 1} ({seat}: {text}) does not replay: {error}") from None
        audience = None if (reveal or finished) else viewer
        log = [
            said
            for event in events
            if (reveal or finished or event.visible_to(audience)) and (said := game.describe_event(event, state, names))
        ]
        steps.append(Step(index, seat, words, log, state.clone()))
    return steps


def _finishes(record: Record, game: Game[Any]) -> bool:
    """Whether the record's game is over at its last action."""
    state = start_state(record, game)
    for seat, text in record.actions:
        game.apply(state, seat, game.parse_action(text))
    return bool(game.decision(state).is_terminal)


def step_lines(step: Step, names: list[str]) -> list[Text]:
    """A step as the lines a reader sees: ``12. Bot 2 (hard): Offer Director 6 with 30 ...`` and its log below."""
    head = Text.from_markup(f"[bold]{step.index}.[/bold] {escape(names[step.seat])}: {escape(step.words)}")
    return [head, *(Text(f"    {line}") for line in step.log)]


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command."""

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="A record saved with --record or downloaded from the server")],
        seat: Annotated[int | None, typer.Option(help="Watch as this seat (default: spectator, public information only)")] = None,
        reveal: Annotated[bool, typer.Option(help="Show every action, secret ones included, in an unfinished game")] = False,
        step: Annotated[
            bool, typer.Option("--step/--no-step", help="Wait for Enter after each action (default when interactive)")
        ] = sys.stdin.isatty(),
        board: Annotated[bool, typer.Option(help="Without --step: show the table after every action, not only at the end")] = False,
    ) -> None:
        """Replay a saved game action by action: each action in words, what it caused, and the table after it.

        Step by step (the default at a terminal): Enter shows the next action, b goes back one, a number goes to that
        action, q stops. Once the game is over every action reads in words (the record is public); in an unfinished
        game another seat's simultaneous choice stays hidden unless --reveal.
        """
        try:
            record = Record.load(file)
            game = get_game(record.game)
        except GreenlightError as error:
            raise fail(str(error)) from None
        if seat is not None and not 0 <= seat < record.num_players:
            raise fail(f"seat must be 0 to {record.num_players - 1}")
        try:
            steps = replay_steps_in_words(record, game, seat, reveal)
        except GreenlightError as error:
            raise fail(str(error)) from None
        names = record.seat_names()
        console.print(
            f"[bold]{escape(game.spec.title)}[/bold], {record.num_players} players, {len(record.actions)} actions, seed {record.seed}"
        )
        if step and steps:
            walk(game, steps, names, seat)
        else:
            for item in steps:
                for line in step_lines(item, names):
                    console.print(line)
                if board:
                    console.print(Text.from_markup(game.render_text(game.observe(item.state, seat), names)))
            if steps and not board:
                console.print(Text.from_markup(game.render_text(game.observe(steps[-1].state, seat), names)))
        last = steps[-1].state if steps else None
        if last is not None and game.is_terminal(last):
            console.print(outcome_table(game, game.outcome(last), names))


def walk(game: Game[Any], steps: list[Step], names: list[str], seat: int | None) -> None:
    """Show one action at a time with the table after it, on one screen; the reader moves with Enter, b, a number, q."""
    at = 0
    while True:
        item = steps[at]
        lines = step_lines(item, names)
        question = Text.from_markup(f"[dim]Action {item.index} of {len(steps)}. Enter: next · b: back · a number: go there · q: stop[/dim]")
        room = window_rows() - sum(height(console, line) for line in [*lines, question]) - 1
        table = fit_table(console, game.render_text(game.observe(item.state, seat), names), room)
        for line in [*table.lines, *lines, question]:
            console.print(line)
        try:
            answer = console.input("> ").strip().lower()
        except EOFError:
            console.print()
            return
        if answer == "q":
            return
        if answer == "b":
            at = max(0, at - 1)
        elif answer.isdigit() and 1 <= int(answer) <= len(steps):
            at = int(answer) - 1
        elif at + 1 < len(steps):
            at += 1
        else:
            return
