"""What a bot may touch: a seat handle, and the Bot base class.

A bot never receives the real state. It gets a :class:`SeatView` that exposes
only the seat's observation, its legal actions, and determinizations (full
states consistent with what the seat has seen, hidden parts resampled). Search
bots simulate on those determinized states with the game's rules.

A bot that plays a policy trained in the RL environments asks the view in
their terms: the seat's observation vector (:meth:`SeatView.observation_vector`,
the reference encoding of the seat's own observation) and its legal agent
codes (:meth:`SeatView.legal_action_codes`, the environments' action mask),
then turns the chosen code back into an action
(:meth:`SeatView.action_for_code`). A choice of several cards may take several
codes, one card at a time (:mod:`greenlight.core.agent_codes`): the view
remembers the cards picked so far, and shows them in the vector, until a code
completes the action. A policy bot's whole move::

    while (action := view.action_for_code(pick(view.observation_vector(), view.legal_action_codes()))) is None:
        pass
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from array import array
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.agent_codes import Prefix, agent_codes_for, agent_options, reference_encoding
from greenlight.core.decision import Decision
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game, Observation
from greenlight.core.state import GameState


class SeatView:
    """A read-only window on a game for one seat: its observation, its legal actions, the public decision."""

    __slots__ = ("_picked", "_state", "game", "seat")

    def __init__(self, game: Game[Any], state: GameState, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._state = state
        self._picked: Prefix = None  # the cards picked so far by agent codes (see action_for_code)

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

    # -- the RL environments' terms: agent codes and the observation vector ------------------

    @property
    def num_action_codes(self) -> int:
        """How many agent codes the game has (the length of the environments' action masks)."""
        return agent_codes_for(self.game).num_codes

    def legal_action_codes(self) -> list[int]:
        """This seat's legal agent codes now, in the order of their first legal action (the set bits of its action mask).

        While the seat is picking cards one at a time, only the picks and the
        finish that go on from the cards picked so far.
        """
        codes, _, _ = agent_options(self.game, self._state, self.seat, self._picked)
        return codes

    def action_for_code(self, code: int) -> Action | None:
        """The legal action that agent code ``code`` plays, or None for a card picked that leaves the choice open.

        After None the view remembers the pick: :meth:`legal_action_codes` and
        :meth:`observation_vector` go on from it. Raises IllegalActionError if
        ``code`` is not among :meth:`legal_action_codes`.
        """
        codes, targets, actions = agent_options(self.game, self._state, self.seat, self._picked)
        try:
            target = targets[codes.index(code)]
        except ValueError:
            raise IllegalActionError(f"action code {code} is not legal for seat {self.seat} now") from None
        if isinstance(target, tuple):
            self._picked = target
            return None
        self._picked = None
        return actions[target]

    def observation_vector(self) -> array[float]:
        """The seat's observation as the environments' float32 vector, built from :meth:`observation` alone.

        It is the game's reference encoding of the seat's own observation (so
        it holds nothing the seat may not see), followed, for a game with cards
        picked one at a time, by the block of the cards picked so far. An
        ``array('f')``: ``numpy.asarray`` or ``torch.frombuffer`` read it as is.
        """
        vector = array("f", reference_encoding(self.game).encode(self.observation()))
        codes = agent_codes_for(self.game)
        if codes.block_size:
            block = [0.0] * codes.block_size
            for card, count in codes.picked_counts(self._picked).items():
                block[card] = min(count / codes.max_picks, 1.0)
            vector.extend(block)
        return vector

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
