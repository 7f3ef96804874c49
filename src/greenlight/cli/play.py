"""``greenlight play``: a game in the terminal against bots or friends (hot-seat)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from greenlight.bots import bot_names, make_bot
from greenlight.cli.common import SeatSpec, console, fail, load_game, outcome_table, parse_options, result_json
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.errors import GreenlightError, IllegalActionError
from greenlight.core.events import Event
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.rng import make_rng

#: Bits of a game's seed when the terminal draws it.
SEED_BITS = 128

#: Legal actions listed one per line up to this many; longer lists are shown in columns.
LIST_LIMIT = 40


class QuitGame(Exception):
    """The human asked to stop."""


def _default_seats(game: Game[Any], players: int) -> list[SeatSpec]:
    level = "heuristic" if "heuristic" in bot_names(game) else "random"
    return [SeatSpec(human=True), *[SeatSpec(human=False, bot=level) for _ in range(players - 1)]]


def _read_choice(seat: int, actions: list[Action], game: Game[Any]) -> Action | str:
    """Ask the human for an action by number or text; return it or a command word."""
    while True:
        try:
            answer = console.input(f"[bold]P{seat}>[/bold] ").strip()
        except EOFError:
            raise QuitGame from None
        if not answer:
            continue
        if answer.lower() in ("quit", "exit"):
            raise QuitGame
        if answer.lower() in ("help", "?", "list", "log", "board", "seed"):
            return answer.lower()
        if answer.isdigit():
            index = int(answer)
            if 1 <= index <= len(actions):
                return actions[index - 1]
            console.print(f"[red]Refused:[/red] choose a number from 1 to {len(actions)}, or type the action.")
            continue
        try:
            return game.parse_action(answer)
        except GreenlightError as error:
            console.print(f"[red]Refused:[/red] {error}")


def _show_actions(actions: list[Action]) -> None:
    """List the actions; long lists are folded into groups that differ only in their last word."""
    if len(actions) <= LIST_LIMIT:
        console.print("\n".join(f"{index:>3}. {action}" for index, action in enumerate(actions, 1)))
    else:
        console.print("\n".join(_grouped(actions)))
    console.print("[dim]Type a number or the action text; 'log' shows the log, 'quit' stops.[/dim]")


def _grouped(actions: list[Action]) -> list[str]:
    """``  1-11  offer A9 0|10|...|100`` lines for runs of actions sharing all but their last word."""
    lines: list[str] = []
    start = 0
    while start < len(actions):
        prefix, _, _ = str(actions[start]).rpartition(" ")
        end = start
        while end + 1 < len(actions) and str(actions[end + 1]).rpartition(" ")[0] == prefix:
            end += 1
        if prefix and end > start:
            lasts = "|".join(str(action).rpartition(" ")[2] for action in actions[start : end + 1])
            lines.append(f"{start + 1:>3}-{end + 1:<3} {prefix} {lasts}")
        else:
            lines.extend(f"{index + 1:>3}. {actions[index]}" for index in range(start, end + 1))
        start = end + 1
    return lines


def _human_turn(match: Match, seat: int, hot_seat: bool) -> None:
    game = match.game
    if hot_seat:
        console.rule(f"Pass the screen to P{seat}")
        try:
            console.input(f"P{seat}: press Enter when the others cannot see the screen ")
        except EOFError:
            raise QuitGame from None
        console.clear()
    console.print(game.render_text(match.observe(seat)))
    actions = match.legal_actions(seat)
    console.print(f"[bold]{match.decision().prompt}[/bold]")
    _show_actions(actions)
    while True:
        choice = _read_choice(seat, actions, game)
        if choice == "log":
            console.print("\n".join(match.log(seat)[-30:]) or "(nothing yet)")
            continue
        if choice == "seed":
            _reveal_seed(match)
            continue
        if isinstance(choice, str):
            console.print(game.render_text(match.observe(seat)))
            _show_actions(actions)
            continue
        try:
            events = match.play(seat, choice)
        except IllegalActionError as error:
            console.print(f"[red]Refused:[/red] {error}")
            continue
        _print_events(match, events, None if hot_seat else seat)
        if hot_seat:
            console.input("Done. Press Enter and pass the screen on ")
            console.clear()
        return


def _reveal_seed(match: Match) -> None:
    """Show the game's seed on request, after a warning: whoever knows it can work out every hidden card."""
    try:
        answer = console.input("The seed reveals every hidden card to whoever sees it. Show it? [y/N] ")
    except EOFError:
        return
    if answer.strip().lower() in ("y", "yes"):
        console.print(f"Seed {match.record.seed}")


def _print_events(match: Match, events: list[Event], viewer: int | None) -> None:
    for event in events:
        if event.kind == "committed" or not event.visible_to(viewer):
            continue
        console.print(f"[dim]•[/dim] {match.game.describe_event(event)}")


def run_game(match: Match, seats: list[SeatSpec], bots: dict[int, Bot], quiet: bool, autosave: Path | None = None) -> None:
    """Drive ``match`` to the end: bots act by themselves, humans are prompted.

    With ``autosave`` the record is written after every action, so a game cut
    short by ``quit``, Ctrl-C or a crash resumes from its last move.
    """
    humans = [seat for seat, spec in enumerate(seats) if spec.human]
    hot_seat = len(humans) > 1
    viewer = humans[0] if len(humans) == 1 else None
    while not match.is_over():
        decision = match.decision()
        for seat in decision.players:
            if match.is_over() or seat not in match.decision().players:
                continue
            if seats[seat].human:
                _human_turn(match, seat, hot_seat)
            else:
                events = match.play(seat, bots[seat].choose(SeatView(match.game, match.state, seat)))
                if not quiet:
                    _print_events(match, events, viewer)
            if autosave:
                match.record.save(autosave)


def _resumed_match(game: Game[Any], path: Path, players: int, seed: int | None, options: list[str]) -> Match:
    """The match saved in ``path``, replayed to its last move; command-line settings must agree with it."""
    try:
        record = Record.load(path)
    except GreenlightError as error:
        raise fail(f"{path}: {error}") from None
    if record.game != game.spec.id:
        raise fail(f"{path} is a {record.game} game, not {game.spec.id}")
    if players and players != record.num_players:
        raise fail(f"{path} is a {record.num_players}-player game; leave out --players or give {record.num_players}")
    if seed is not None and seed != record.seed:
        raise fail(f"{path} was dealt with seed {record.seed}; leave out --seed to resume it")
    if options:
        raise fail("a resumed game keeps the options it was started with; leave out --option")
    try:
        return Match.from_record(record, game)
    except GreenlightError as error:
        raise fail(f"{path}: {error}") from None


def register(app: typer.Typer) -> None:
    """Add the ``play`` command."""

    @app.command()
    def play(
        game_name: Annotated[str, typer.Argument(metavar="GAME", help="cinecitta, maybe-movies or movie-empire")],
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players")] = 0,
        seat: Annotated[list[str] | None, typer.Option("--seat", help="human or bot:LEVEL, once per seat in order")] = None,
        seed: Annotated[
            int | None, typer.Option(help="Game seed: the same seed deals the same cards (default: a secret one, shown at the end)")
        ] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE (repeatable)")] = None,
        record: Annotated[Path | None, typer.Option(help="Save the game record (JSON) to this file after every move")] = None,
        resume: Annotated[Path | None, typer.Option(help="Continue the game saved in this record file (and keep saving to it)")] = None,
        json_output: Annotated[bool, typer.Option("--json", help="Print the final result as JSON only")] = False,
    ) -> None:
        """Play a game in the terminal against bots, or hot-seat with friends; resume it later."""
        game = load_game(game_name)
        try:
            seats = [SeatSpec.parse(text) for text in seat] if seat else []
        except GreenlightError as error:
            raise fail(str(error)) from None
        if resume:
            match = _resumed_match(game, resume, players, seed, option or [])
            count, seed = match.num_players, match.record.seed
            record = record or resume
            if not seats and match.record.players:
                # Bots come back as the same level; any other label (a name from the web lobby) is a person here.
                seats = [SeatSpec.parse(label) if label.startswith("bot:") else SeatSpec(human=True) for label in match.record.players]
        else:
            chosen = seed is not None
            seed = secrets.randbits(SEED_BITS) if seed is None else seed
            count = players or len(seats) or game.spec.min_players
        if not seats:
            seats = _default_seats(game, count)
        if len(seats) != count:
            raise fail(f"{count} players need {count} --seat options, got {len(seats)}")
        try:
            if not resume:
                match = Match.start(game, count, seed, parse_options(game, option or []))
            # A resumed bot is seeded from the move it resumes at, so resuming twice from one file repeats itself;
            # through a hash, so a bot's seed says nothing about the game's.
            moves = len(match.record.actions)
            bots = {
                index: make_bot(spec.bot, game, make_rng("greenlight-cli-bot", seed, moves, index).getrandbits(64))
                for index, spec in enumerate(seats)
                if not spec.human
            }
        except GreenlightError as error:
            raise fail(str(error)) from None
        labels = [str(spec) for spec in seats]
        match.record.players = labels
        quiet = json_output
        if not quiet:
            resumed = f", resumed at move {len(match.record.actions)}" if resume else ""
            # A secret seed is shown only at the end: it would reveal every hidden card.
            dealt = f", seed {seed}" if not resume and chosen else ""
            console.print(
                f"[bold]{game.spec.title}[/bold], {count} players{dealt}{resumed}: "
                + ", ".join(f"P{i} {escape(label)}" for i, label in enumerate(labels))
            )
        if record:
            match.record.save(record)
        try:
            run_game(match, seats, bots, quiet, autosave=record)
        except (QuitGame, KeyboardInterrupt):
            console.print("Game stopped.")
            if record:
                match.record.save(record)
                console.print(f"Saved to {record}; continue with: greenlight play {game.spec.id} --resume {record}", soft_wrap=True)
            raise typer.Exit(code=1) from None
        if record:
            match.record.save(record)
        outcome = match.outcome()
        if json_output:
            print(result_json(game, outcome, labels, {"seed": seed, "options": match.record.options, "actions": len(match.record.actions)}))
            return
        console.print(game.render_text(match.observe(None)))
        console.print(outcome_table(game, outcome, labels))
        winners = ", ".join(f"P{seat}" for seat in outcome.winners) or "nobody"
        console.print(f"[bold green]Winner: {winners}[/bold green]")
        console.print(f"Seed {seed}: play this deal again with --seed {seed}", soft_wrap=True)
        if record:
            console.print(f"Record saved to {record}; replay it with: greenlight replay {record}")
