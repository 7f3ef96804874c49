"""Records: the save format, the replay format and the test fixture format.

A record is the game id and version, the number of players, the seed, the
options, and every action as ``[seat, text]``; a game that began from a
position (``Game.from_position``) also keeps that position as ``start``.
Replaying re-applies the actions to a fresh state (or to the start
position) and must reproduce the game exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlight.core.errors import GreenlightError, RecordError
from greenlight.core.events import Event
from greenlight.core.game import Game
from greenlight.core.state import GameState

RECORD_FORMAT = 1


@dataclass(slots=True)
class Record:
    """A complete description of one game, from which it can be rebuilt."""

    game: str
    version: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)
    #: Who sat at each seat (``human``, ``bot:hard``, a name); optional, never needed to replay.
    players: list[str] = field(default_factory=list)
    #: The position the game began from, if not the seed's deal (``Game.to_position`` of the first state).
    start: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``players`` only when known, so older records read back unchanged)."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [[seat, text] for seat, text in self.actions],
        }
        if self.players:
            data["players"] = list(self.players)
        if self.start is not None:
            data["start"] = self.start
        return data

    def seat_names(self) -> list[str]:
        """How to call the seats in text: the saved names, ``Bot N (level)`` for bots, else ``Player N``.

        >>> Record("demo", "1", 3, 0, players=["Ann", "bot:hard", "human"]).seat_names()
        ['Ann', 'Bot 2 (hard)', 'Player 3']
        """
        labels = self.players or ["human"] * self.num_players
        names = []
        for seat, label in enumerate(labels):
            if label.startswith("bot:"):
                names.append(f"Bot {seat + 1} ({label[4:]})")
            elif label in ("human", ""):
                names.append(f"Player {seat + 1}")
            else:
                names.append(label)
        return names

    def dumps(self) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record from its JSON form, checking every field."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        for name, kind in (("game", str), ("version", str), ("num_players", int), ("seed", int), ("actions", list)):
            if not isinstance(data.get(name), kind):
                raise RecordError(f"record field {name!r} is missing or is not a {kind.__name__}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record field 'options' must be an object")
        actions: list[tuple[int, str]] = []
        for index, entry in enumerate(data["actions"]):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and isinstance(entry[1], str)):
                raise RecordError(f"record action {index} must be [seat, text], got {entry!r}")
            if not 0 <= entry[0] < data["num_players"]:
                raise RecordError(
                    f"record action {index} is played by seat {entry[0]}, but a {data['num_players']}-player game"
                    f" has seats 0 to {data['num_players'] - 1}"
                )
            actions.append((entry[0], entry[1]))
        players = data.get("players", [])
        if not (isinstance(players, list) and all(isinstance(name, str) for name in players)):
            raise RecordError("record field 'players' must be a list of strings")
        if players and len(players) != data["num_players"]:
            raise RecordError(f"record field 'players' names {len(players)} seats for a {data['num_players']}-player game")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise RecordError("record field 'start' must be a position (an object)")
        return cls(data["game"], data["version"], data["num_players"], data["seed"], dict(options), actions, list(players), start)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from a JSON string."""
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as error:
            raise RecordError(f"a record must be JSON: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read record {path}: {error.strerror}") from None
        return cls.loads(text)


def replay_steps(record: Record, game: Game[Any] | None = None) -> Iterator[tuple[GameState, int, str, list[Event]]]:
    """Yield ``(state, seat, action_text, events)`` after each action of ``record``.

    The same state object is mutated and yielded each time; clone it to keep it.
    """
    from greenlight.core.registry import get_game

    game = game or get_game(record.game)
    state = start_state(record, game)
    for index, (seat, text) in enumerate(record.actions):
        try:
            events = game.apply(state, seat, game.parse_action(text))
        except GreenlightError as error:
            raise RecordError(f"record action {index} ({seat}: {text}) does not replay: {error}") from None
        yield state, seat, text, events


def start_state(record: Record, game: Game[Any]) -> GameState:
    """The state ``record``'s game began in: its start position, else the deal of its seed and options."""
    if record.version != game.spec.version:
        raise RecordError(f"record is for {game.spec.title} version {record.version}, this engine has {game.spec.version}")
    if record.start is None:
        dealt: GameState = game.new_state(record.num_players, record.seed, record.options)
        return dealt
    try:
        state: GameState = game.from_position(record.start)
    except GreenlightError as error:
        raise RecordError(f"the record's start position cannot be read: {error}") from None
    return state


def replay(record: Record, game: Game[Any] | None = None) -> GameState:
    """Rebuild the state a record describes."""
    from greenlight.core.registry import get_game

    game = game or get_game(record.game)
    final: GameState = start_state(record, game)
    for step in replay_steps(record, game):
        final = step[0]
    return final
