"""What a bot may touch: a seat handle, and the Bot base class.

A bot never receives the real state. It gets a :class:`SeatView` that exposes
only the seat's observation, its legal actions, and determinizations (full
states consistent with what the seat has seen, hidden parts resampled). Search
bots simulate on those determinized states with the game's rules.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.decision import Decision
from greenlight.core.game import Game, Observation
from greenlight.core.state import GameState


class SeatView:
    """A read-only window on a game for one seat: its observation, its legal actions, the public decision."""

    __slots__ = ("_state", "game", "seat")

    def __init__(self, game: Game[Any], state: GameState, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._state = state

    @property
    def num_players(self) -> int:
        """Number of seats at the table."""
        return self.game.num_players(self._state)

    def observation(self) -> Observation:
        """What this seat may see."""
        return self.game.observe(self._state, self.seat)

    def decision(self) -> Decision:
        """The public decision: who must act, and who has committed."""
        return self.game.decision(self._state)

    def legal_actions(self) -> list[Action]:
        """This seat's legal actions now."""
        return self.game.legal_actions(self._state, self.seat)

    def determinize(self, rng: random.Random) -> GameState:
        """A full state this seat cannot tell apart from the real one, hidden parts drawn with ``rng``."""
        world: GameState = self.game.determinize(self._state, self.seat, rng)
        return world


class Bot(ABC):
    """A seeded player. ``choose`` must return one of ``view.legal_actions()``."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> Action:
        """Pick an action for the seat behind ``view``."""


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, view: SeatView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(view.legal_actions())
