"""``greenlight play``: a game in the terminal against bots or friends (hot-seat), saved after every move.

Each legal action is listed with its words ("3. offer D6 30  Offer Director 6
with 30"), so a person can choose by number, by typing (Tab completes) or by
pasting. Moves with only one legal action are played for the person and
announced; a move the game warns about (it cannot be undone and scores
nothing, or drops the player out) is confirmed first.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.text import Text

from greenlight.bots import analyse, bot_names, make_bot
from greenlight.cli.common import SeatSpec, console, fail, load_game, outcome_table, parse_options, result_json
from greenlight.cli.screen import choice_list, fit_table, height, markup_lines, numbered, show, window_rows
from greenlight.cli.terminal import (
    Prompt,
    age_in_words,
    clear_screen_and_scrollback,
    data_home,
    latest_save,
    new_save_path,
    save_folder,
    save_record,
)
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.errors import ActionParseError, GreenlightError, IllegalActionError
from greenlight.core.events import Event
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.record import Record, replay
from greenlight.core.registry import all_games, get_game
from greenlight.core.rng import derive_seed

#: Bits of a game's seed when the terminal draws it.
SEED_BITS = 128
#: Legal actions listed one per line up to this many; longer lists are folded into groups.
LIST_LIMIT = 40
#: Rows of the table that stay in view beside a long list of choices (a longer list is folded into groups).
MIN_TABLE_ROWS = 12
#: Words a person may type instead of an action.
COMMANDS = ("help", "hint", "list", "board", "log", "seed", "quit")
#: Seconds the search thinks for a hint, and how many moves it shows.
HINT_SECONDS = 2.0
HINT_MOVES = 3
#: The value ``--resume`` gets when no file follows it (see ``greenlight.cli.main``).
LATEST = "latest"


class QuitGame(Exception):
    """The human asked to stop."""


@dataclass
class Table:
    """One terminal game: the match, who sits where, and where it is saved."""

    match: Match
    seats: list[SeatSpec]
    bots: dict[int, Bot]
    save_to: Path
    quiet: bool = False
    #: Whether ``hint`` is allowed: always with one person at the terminal, with several only if asked for (--hints).
    hints: bool = False
    prompt: Prompt = field(default_factory=lambda: Prompt(data_home() / "history"))

    @property
    def game(self) -> Game[Any]:
        """The game played."""
        return self.match.game

    @property
    def humans(self) -> list[int]:
        """The seats played at this terminal."""
        return [seat for seat, spec in enumerate(self.seats) if spec.human]

    @property
    def hot_seat(self) -> bool:
        """Whether several people share the screen."""
        return len(self.humans) > 1

    @property
    def viewer(self) -> int | None:
        """Whose eyes the shared log is for: the one person at a solo table, else nobody's secrets."""
        return self.humans[0] if len(self.humans) == 1 else None

    @property
    def names(self) -> list[str]:
        """How the seats are called in every text."""
        return seat_names(self.seats)

    def save(self) -> None:
        """Write the record (after every move, and on quit)."""
        save_record(self.match.record, self.save_to)


def seat_names(seats: list[SeatSpec]) -> list[str]:
    """``Player 1`` for people, ``Bot 2 (hard)`` for bots.

    >>> seat_names([SeatSpec(human=True), SeatSpec(human=False, bot="hard")])
    ['Player 1', 'Bot 2 (hard)']
    """
    return [f"Player {seat + 1}" if spec.human else f"Bot {seat + 1} ({spec.bot})" for seat, spec in enumerate(seats)]


# -- a person's turn ---------------------------------------------------------------------------


def human_turn(table: Table, seat: int) -> None:
    """Show the seat its view and legal actions, and play what it chooses."""
    match, game = table.match, table.game
    name = table.names[seat]
    if table.hot_seat:
        console.rule(f"Pass the screen to {escape(name)}")
        try:
            table.prompt.ask(f"{name}: press Enter when the others cannot see the screen ")
        except EOFError:
            raise QuitGame from None
        clear_screen_and_scrollback()
    actions = match.legal_actions(seat)
    if len(actions) == 1 and game.action_warning(match.state, seat, actions[0]) is None:
        # Nothing to choose: play it and say so.
        words = game.describe_action(match.state, seat, actions[0])
        console.print(f"[dim]Only one choice for {escape(name)}:[/dim] {escape(words)}")
        play_and_report(table, seat, actions[0])
        return
    show_view(table, seat, actions)
    while True:
        choice = read_choice(table, seat, actions)
        if choice is None:
            continue
        try:
            events = match.play(seat, choice)
        except (IllegalActionError, ActionParseError) as error:
            console.print(f"[red]Refused:[/red] {escape(str(error))}")
            continue
        print_events(table, events, None if table.hot_seat else seat)
        table.save()
        if table.hot_seat:
            try:
                table.prompt.ask("Done. Press Enter and pass the screen on ")
            except EOFError:
                raise QuitGame from None
            clear_screen_and_scrollback()
        return


def show_view(table: Table, seat: int, actions: list[Action]) -> None:
    """The seat's board, the question and its choices in words, on one screen: the table gives way (its middle left
    out, ``board`` shows it all) when the three are taller than the window."""
    match, game = table.match, table.game
    rows = window_rows()
    question = Text.from_markup(f"[bold]{escape(match.decision().prompt)}[/bold]")
    # The choices take what they need, as long as at least a few rows of the table stay in view; else one line a group;
    # else as many as fit, and how to read the rest.
    room_for_choices = rows - MIN_TABLE_ROWS - 4
    choices = choice_lines(table, seat, actions, detailed=True)
    if height(console, choices) > room_for_choices:
        choices = choice_lines(table, seat, actions, detailed=False)
    if height(console, choices) > room_for_choices:
        choices = first_choices(table, seat, actions, room_for_choices)
    hint = " 'hint' asks the search," if table.hints else ""
    closing = Text.from_markup(
        f"[dim]Type a number or an action (Tab completes); 'help' explains this step,{hint} 'board' shows the whole table, "
        "'list' every choice with its words, 'log', 'quit'.[/dim]"
    )
    decision = [question, choices, closing]
    room = rows - sum(height(console, part) for part in decision) - 1  # and the row of the prompt
    fitted = fit_table(console, game.render_text(match.observe(seat), table.names), room)
    for line in fitted.lines:
        console.print(line)
    for part in decision:
        console.print(part)


def show_board(table: Table, seat: int) -> None:
    """The whole table (through a pager when it is taller than the window)."""
    show(console, Group(*markup_lines(table.game.render_text(table.match.observe(seat), table.names))))


def show_actions(table: Table, seat: int, actions: list[Action]) -> None:
    """Every choice with its words (through a pager when the list is taller than the window)."""
    show(console, choice_lines(table, seat, actions, detailed=True))


def choice_lines(table: Table, seat: int, actions: list[Action], *, detailed: bool) -> RenderableType:
    """The choices: numbered with their text and words (wrapped at spaces), or (not ``detailed``, or too many to list)
    one line per group of actions that differ only in their last word. Tab completes them all."""
    texts = [str(action) for action in actions]
    table.prompt.offer([*texts, *COMMANDS])
    if not detailed or len(actions) > LIST_LIMIT:
        return Text("\n".join(grouped(texts)))
    return choice_list(choice_rows(table, seat, actions))


def choice_rows(table: Table, seat: int, actions: list[Action]) -> list[tuple[str, str, str]]:
    """Each choice as (its number, the text to type, its words in markup)."""
    game, state = table.game, table.match.state
    rows = []
    for index, action in enumerate(actions, 1):
        words = escape(game.describe_action(state, seat, action))
        warning = " [yellow](asks first)[/yellow]" if game.action_warning(state, seat, action) else ""
        rows.append((f"{index}.", str(action), f"[cyan]{words}[/cyan]{warning}"))
    return rows


def first_choices(table: Table, seat: int, actions: list[Action], rows: int) -> RenderableType:
    """The first choices that fit in ``rows`` rows with their words, and a line saying how many more there are and how
    to read them (every number and text can still be typed)."""
    listed = choice_rows(table, seat, actions)
    shown = len(listed)
    while shown > 1 and height(console, choice_list(listed[:shown])) > rows - 1:
        shown -= 1
    more = len(listed) - shown
    note = Text(f"… {more} more choice{'s' if more != 1 else ''}: type list to read them all (Tab completes any) …", style="dim")
    return Group(choice_list(listed[:shown]), note)


def grouped(texts: list[str]) -> list[str]:
    """``  1-11  offer A9 0|10|...|100`` lines for runs of actions sharing all but their last word.

    >>> grouped(["offer A9 0", "offer A9 10", "respond secure"])
    ['  1-2   offer A9 0|10', '  3. respond secure']
    """
    lines: list[str] = []
    start = 0
    while start < len(texts):
        prefix, _, _ = texts[start].rpartition(" ")
        end = start
        while end + 1 < len(texts) and texts[end + 1].rpartition(" ")[0] == prefix:
            end += 1
        if prefix and end > start:
            lasts = "|".join(text.rpartition(" ")[2] for text in texts[start : end + 1])
            lines.append(f"{start + 1:>3}-{end + 1:<3} {prefix} {lasts}")
        else:
            lines.extend(f"{index + 1:>3}. {texts[index]}" for index in range(start, end + 1))
        start = end + 1
    return lines


def read_choice(table: Table, seat: int, actions: list[Action]) -> Action | None:
    """One answer: an action (confirmed if the game warns about it), or None after a command."""
    match, game = table.match, table.game
    try:
        answer = table.prompt.ask(f"{table.names[seat]}> ").strip()
    except EOFError:
        raise QuitGame from None
    command = answer.lower()
    if not answer:
        return None
    if command in ("quit", "exit"):
        raise QuitGame
    if command in ("help", "?"):
        help_text = game.help_text(match.observe(seat))
        console.print(escape(help_text) if help_text else "No help for this step.")
        console.print(f"[dim]The whole rules: greenlight rules {game.spec.id}[/dim]")
        return None
    if command == "board":
        show_board(table, seat)
        return None
    if command == "list":
        show_actions(table, seat, actions)
        return None
    if command == "log":
        console.print(escape("\n".join(match.log(seat, table.names)[-30:]) or "(nothing yet)"))
        return None
    if command == "seed":
        reveal_seed(table)
        return None
    if command == "hint":
        show_hint(table, seat)
        return None
    if answer.isdigit():
        index = int(answer)
        if not 1 <= index <= len(actions):
            console.print(f"[red]Refused:[/red] choose a number from 1 to {len(actions)}, or type the action.")
            return None
        action = actions[index - 1]
    else:
        try:
            action = game.parse_action(answer)
        except GreenlightError as error:
            console.print(f"[red]Refused:[/red] {escape(str(error))}")
            return None
    warning = game.action_warning(match.state, seat, action) if action in actions else None
    if warning is not None:
        console.print(f"[yellow]Careful:[/yellow] {escape(warning)}")
        try:
            sure = table.prompt.ask("Play it anyway? [y/N] ").strip().lower()
        except EOFError:
            raise QuitGame from None
        if sure not in ("y", "yes"):
            return None
    return action


def show_hint(table: Table, seat: int) -> None:
    """The search's three best moves for ``seat``, in words, with their estimated win shares (from the seat's view only)."""
    if not table.hints:
        console.print("Hints are off: several people share this game (start it with --hints to allow them for everyone).")
        return
    console.print(f"[dim]Thinking for {HINT_SECONDS:g} seconds about what you can see...[/dim]")
    moves = analyse(table.game, table.match.state, seat, seconds=HINT_SECONDS, seed=len(table.match.record.actions))
    rows = [
        (f"{rank}.", f"[cyan]{escape(move.words)}[/cyan] ({escape(move.text)}): wins about {move.win_share:.0%} in {move.visits} tries")
        for rank, move in enumerate(moves[:HINT_MOVES], 1)
    ]
    console.print(numbered(rows))


def reveal_seed(table: Table) -> None:
    """Show the game's seed on request, after a warning: whoever knows it can work out every hidden card."""
    try:
        answer = table.prompt.ask("The seed reveals every hidden card to whoever sees it. Show it? [y/N] ")
    except EOFError:
        return
    if answer.strip().lower() in ("y", "yes"):
        console.print(f"Seed {table.match.record.seed}")


def play_and_report(table: Table, seat: int, action: Action) -> None:
    """Play an action and show what it caused."""
    events = table.match.play(seat, action)
    print_events(table, events, None if table.hot_seat else seat)
    table.save()


def print_events(table: Table, events: list[Event], viewer: int | None) -> None:
    """The log lines of ``events`` that ``viewer`` may see."""
    if table.quiet:
        return
    for event in events:
        if not event.visible_to(viewer):
            continue
        text = table.game.describe_event(event, table.match.state, table.names)
        if text:
            console.print(f"[dim]•[/dim] {escape(text)}")


def run_game(table: Table) -> None:
    """Drive the match to the end: bots act by themselves, people are asked. Saved after every action."""
    match = table.match
    while not match.is_over():
        for seat in match.decision().players:
            if match.is_over() or seat not in match.decision().players:
                continue
            if table.seats[seat].human:
                human_turn(table, seat)
            else:
                events = match.play(seat, table.bots[seat].choose(SeatView(match.game, match.state, seat)))
                print_events(table, events, table.viewer)
                table.save()


# -- starting and resuming ----------------------------------------------------------------------


def resumed_match(game: Game[Any], record: Record, path: Path, players: int, seed: int | None, options: list[str]) -> Match:
    """The match saved in ``path``, replayed to its last move; command-line settings must agree with it."""
    if record.game != game.spec.id:
        raise fail(f"{path} is a {record.game} game, not {game.spec.id}")
    if players and players != record.num_players:
        raise fail(f"{path} is a {record.num_players}-player game; leave out --players or give {record.num_players}")
    if seed is not None and seed != record.seed:
        raise fail(f"{path} was dealt with another seed; leave out --seed to resume it")
    if options:
        raise fail("a resumed game keeps the options it was started with; leave out --option")
    try:
        return Match.from_record(record, game)
    except GreenlightError as error:
        raise fail(f"{path}: {error}") from None


def find_resume(game_name: str | None, resume: str) -> tuple[Game[Any], Path, Record]:
    """The game and file that ``--resume`` means: a file, or (without one) the latest unfinished save."""
    latest_of: str | None = None
    if resume == LATEST:
        latest_of = game_name or ""
    elif not Path(resume).exists() and game_name is None and resume in all_games():
        latest_of = resume  # ``greenlight play --resume cinecitta``: the game, not a file
    if latest_of is None:
        path = Path(resume)
        try:
            saved = Record.load(path)
        except GreenlightError as error:
            raise fail(f"{path}: {error}") from None
        return load_game(game_name or saved.game), path, saved
    wanted = latest_of or None
    found = latest_save(wanted, lambda record: get_game(record.game).is_terminal(replay(record)))
    if found is None:
        what = f"{load_game(wanted).spec.title} game" if wanted else "game"
        raise fail(f"there is no unfinished {what} saved in {save_folder()}; start one with greenlight play GAME")
    game = get_game(found.record.game)
    console.print(
        f"Resuming the latest unfinished game: {escape(game.spec.title)}, {found.record.num_players} players, "
        f"move {len(found.record.actions)}, saved {age_in_words(time.time() - found.modified)} ({escape(str(found.path))})."
    )
    return game, found.path, found.record


def read_position(path: Path) -> dict[str, Any]:
    """The position in a JSON file, or a clear error naming the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise fail(f"cannot read the position {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise fail(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise fail(f"{path}: a position is a JSON object (docs/positions.md)")
    return data


def fill_seats(game: Game[Any], seats: list[SeatSpec], count: int) -> list[SeatSpec]:
    """``count`` seats: the given ones, then bots (the level of the last bot given, else the game's medium level)."""
    if len(seats) >= count:
        return seats
    given_bots = [spec for spec in seats if not spec.human]
    levels = bot_names(game)
    filler = given_bots[-1] if given_bots else SeatSpec(human=False, bot="medium" if "medium" in levels else levels[0])
    if not seats:
        seats = [SeatSpec(human=True)]
    return [*seats, *([filler] * (count - len(seats)))]


def register(app: typer.Typer) -> None:
    """Add the ``play`` command."""

    @app.command()
    def play(
        game_name: Annotated[
            str | None, typer.Argument(metavar="GAME", help="A game id, as `greenlight games` lists them (optional with --resume)")
        ] = None,
        players: Annotated[int, typer.Option("--players", "-n", help="Number of players")] = 0,
        seat: Annotated[
            list[str] | None,
            typer.Option("--seat", help="human or bot:LEVEL, once per seat in order; missing seats are bots"),
        ] = None,
        seed: Annotated[
            int | None, typer.Option(help="Game seed: the same seed deals the same cards (default: a secret one, shown at the end)")
        ] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE (repeatable)")] = None,
        record: Annotated[
            Path | None, typer.Option(help="Save the game to this file after every move (default: a new file in the save folder)")
        ] = None,
        resume: Annotated[
            str | None,
            typer.Option(metavar="[FILE]", help="Continue a saved game: this file, or without one the latest unfinished save"),
        ] = None,
        position: Annotated[
            Path | None,
            typer.Option(help="Start from this position file (docs/positions.md; greenlight position RECORD --at N writes one)"),
        ] = None,
        hints: Annotated[
            bool, typer.Option("--hints", help="Allow 'hint' at a hot-seat table too (it is always allowed with one person)")
        ] = False,
        json_output: Annotated[bool, typer.Option("--json", help="Print the final result as JSON only")] = False,
    ) -> None:
        """Play a game in the terminal against bots, or hot-seat with friends; every game is saved and can be resumed."""
        try:
            seats = [SeatSpec.parse(text) for text in seat] if seat else []
        except GreenlightError as error:
            raise fail(str(error)) from None
        chosen_seed = seed is not None
        start = None
        if position is not None:
            if resume is not None:
                raise fail("--position starts a new game and --resume continues a saved one; give only one of them")
            start = read_position(position)
            game_name = game_name or str(start.get("game", ""))
            if players and players != start.get("num_players"):
                raise fail(f"{position} is a position for {start.get('num_players')} players; leave out --players")
            players = players or start.get("num_players", 0)
        if resume is not None:
            game, path, saved = find_resume(game_name, resume)
            match = resumed_match(game, saved, path, players, seed, option or [])
            count, seed = match.num_players, match.record.seed
            save_to = record or path
            if not seats and match.record.players:
                # Bots come back as the same level; any other label (a name from the web lobby) is a person here.
                seats = [SeatSpec.parse(label) if label.startswith("bot:") else SeatSpec(human=True) for label in match.record.players]
        else:
            if game_name is None:
                raise fail("name a game to play (greenlight games lists them), or --resume a saved one")
            game = load_game(game_name)
            seed = secrets.randbits(SEED_BITS) if seed is None else seed
            count = players or len(seats) or game.spec.min_players
            seats = fill_seats(game, seats, count)
            save_to = record or new_save_path(game.spec.id)
        if len(seats) != count:
            raise fail(f"a {count}-player game has {count} seats, not {len(seats)} (--seat is given once per seat)")
        try:
            if start is not None:
                if option:
                    raise fail("a position names its own options; leave out --option")
                match = Match.from_position(game, start)
            elif resume is None:
                match = Match.start(game, count, seed, parse_options(game, option or []))
            # A resumed bot is seeded from the move it resumes at, so resuming twice from one file repeats itself;
            # through a hash, so a bot's seed says nothing about the game's.
            moves = len(match.record.actions)
            bots = {
                index: make_bot(spec.bot, game, derive_seed("greenlight-cli-bot", seed, moves, index))
                for index, spec in enumerate(seats)
                if not spec.human
            }
        except GreenlightError as error:
            raise fail(f"{position}: {error}" if start is not None else str(error)) from None
        match.record.players = [str(spec) for spec in seats]
        table = Table(match, seats, bots, save_to, quiet=json_output)
        table.hints = hints or len(table.humans) <= 1
        if not json_output:
            resumed = f", resumed at move {len(match.record.actions)}" if resume is not None else ""
            if start is not None:
                resumed = f", from the position in {position}"
            # A secret seed is shown only at the end: it would reveal every hidden card.
            dealt = f", seed {seed}" if resume is None and chosen_seed else ""
            console.print(
                f"[bold]{escape(game.spec.title)}[/bold], {count} players{dealt}{resumed}: " + ", ".join(escape(n) for n in table.names)
            )
            # The path on a line of its own: a long one is cut at the window's edge, never a word of the sentence.
            console.print("[dim]Saved after every move to:[/dim]")
            console.print(f"[dim]{escape(str(save_to))}[/dim]", soft_wrap=True)
        table.save()
        try:
            run_game(table)
        except (QuitGame, KeyboardInterrupt):
            table.save()
            console.print("Game stopped and saved.")
            console.print(f"Continue it with: greenlight play --resume {save_to}", soft_wrap=True)
            raise typer.Exit(code=1) from None
        table.save()
        outcome = match.outcome()
        if json_output:
            extra: dict[str, Any] = {"seed": seed, "options": match.record.options, "actions": len(match.record.actions)}
            if match.record.start is not None:
                extra = {"position": str(position or save_to), "options": match.record.options, "actions": len(match.record.actions)}
            print(result_json(game, outcome, match.record.players, extra))
            return
        console.print(outcome_table(game, outcome, table.names))
        winners = ", ".join(table.names[seat] for seat in outcome.winners) or "nobody"
        console.print(f"[bold green]Winner: {escape(winners)}[/bold green]")
        if match.record.start is not None and position is not None:
            console.print(f"Play this position again with --position {position}", soft_wrap=True)
        elif match.record.start is not None:
            console.print("This game began from a position; write it out with:")
            console.print(f"  greenlight position {escape(str(save_to))} --at 0", soft_wrap=True)
        else:
            console.print(f"Seed {seed}: play this deal again with --seed {seed}", soft_wrap=True)
        # Commands with a path on lines of their own: a long path is cut at the window's edge, never a sentence.
        console.print("The game is saved; replay it with:")
        console.print(f"  greenlight replay {escape(str(save_to))}", soft_wrap=True)
