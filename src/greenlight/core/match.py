"""A match: one game in progress with its record and event log.

The CLI, the web server, the arena and the simulator all drive games through
this one class, so recording and event logging happen in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.decision import Decision
from greenlight.core.events import Event, events_for
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome
from greenlight.core.record import Record, replay_steps
from greenlight.core.spec import Options
from greenlight.core.state import GameState


@dataclass(slots=True)
class StagedMove:
    """A checked move applied to a copy of the match's state, not yet part of the match (see :meth:`Match.stage`)."""

    seat: int
    action: Action
    state: GameState
    events: list[Event]
    #: The state it was staged on: committing is refused if the match has moved on since.
    base: GameState

    @property
    def text(self) -> str:
        """The action's canonical text."""
        return str(self.action)


class Match:
    """A game in progress: state, record and the full event log (``Match.start(game, 3, seed=1)``)."""

    def __init__(self, game: Game[Any], state: GameState, record: Record, events: list[Event] | None = None) -> None:
        self.game = game
        self.state = state
        self.record = record
        self.events: list[Event] = events or []

    @classmethod
    def start(cls, game: Game[Any], num_players: int, seed: int, options: Options | None = None) -> Match:
        """Begin a new game."""
        state = game.new_state(num_players, seed, options)
        resolved = game.spec.resolve_options(num_players, options)
        record = Record(game.spec.id, game.spec.version, num_players, seed, dict(resolved), [])
        return cls(game, state, record)

    @classmethod
    def from_position(cls, game: Game[Any], position: Mapping[str, Any]) -> Match:
        """Begin a game from a position (``Game.from_position``); the record keeps the position as its start."""
        state = game.from_position(position)
        start = game.to_position(state)
        seed = position.get("seed", 0)
        record = Record(game.spec.id, game.spec.version, game.num_players(state), seed, dict(start["options"]), [], start=start)
        return cls(game, state, record)

    @classmethod
    def from_record(cls, record: Record, game: Game[Any] | None = None) -> Match:
        """Rebuild a match (state and event log) from a record."""
        from greenlight.core.registry import get_game

        game = game or get_game(record.game)
        if record.start is not None:
            match = cls.from_position(game, record.start)
            match.record.seed = record.seed
        else:
            match = cls.start(game, record.num_players, record.seed, record.options)
        match.record.players = list(record.players)
        for state, seat, text, events in replay_steps(record, game):
            match.state = state
            match.record.actions.append((seat, text))
            match.events.extend(events)
        return match

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.record.num_players

    def decision(self) -> Decision:
        """What the game waits for."""
        return self.game.decision(self.state)

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.decision().is_terminal

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of ``seat`` now."""
        return self.game.legal_actions(self.state, seat)

    def play(self, seat: int, action: Action | str) -> list[Event]:
        """Check and apply an action (object or text) for ``seat``; record it; return its events."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        events = self.game.apply(self.state, seat, action)
        self.record.actions.append((seat, str(action)))
        self.events.extend(events)
        return events

    def stage(self, seat: int, action: Action | str, on: StagedMove | None = None) -> StagedMove:
        """Check and apply an action on a copy of the state; the match itself is unchanged until :meth:`commit`.

        A server stages a move, stores it, and only then commits it, so nothing
        it shows ever reflects a move that is not stored. ``on`` stages it after
        another staged move (moves being stored one after another). Raises like
        :meth:`play`.
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        base = self.state if on is None else on.state
        state = base.clone()
        events = self.game.apply(state, seat, action)
        return StagedMove(seat, action, state, events, base)

    def commit(self, staged: StagedMove) -> None:
        """Make a staged move part of the match (state, record, events)."""
        if staged.base is not self.state:
            raise RuntimeError("the match has moved on since this move was staged")
        self.state = staged.state
        self.record.actions.append((staged.seat, staged.text))
        self.events.extend(staged.events)

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see now."""
        return self.game.observe(self.state, seat)

    def log(self, seat: int | None, names: Sequence[str] | None = None) -> list[str]:
        """The event log in words, as ``seat`` may see it, seats called by ``names`` (events without words are left out)."""
        return [text for event in events_for(self.events, seat) if (text := self.game.describe_event(event, self.state, names))]

    def outcome(self) -> Outcome:
        """Final result (only once the game is over)."""
        return self.game.outcome(self.state)
