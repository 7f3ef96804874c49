"""What the PettingZoo AEC and Parallel environments share: seats as agents, spaces, seeds, records and text.

Nothing here imports PettingZoo; each environment class puts this mix-in in
front of its PettingZoo base class. It also holds what both do the same way:

* the **global state** (``state()`` and ``state_space``, for centralised
  critics): every seat's observation vector, seat 0 first;
* **illegal actions** (``illegal_action``): ``"raise"`` (the default) raises
  IllegalActionError; ``"lose"`` ends the game at once, the offending agent
  receiving ``illegal_reward`` and the others 0; ``"ignore"`` plays nothing
  for that agent, pays it ``illegal_reward`` and leaves it to act again;
* **truncation** (``max_cycles``): after that many cycles every agent is
  truncated. A cycle is one step of the Parallel env: every seat that acts in
  the current decision acts once (all committing seats of a simultaneous step,
  else the one seat to act);
* **pickling and copying**: an env pickles as its settings, its game state,
  its actions and its seed sequence; the arrays it hands out are made again,
  so a copy shares none with the original.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.spec import Options
from greenlight.core.state import GameState
from greenlight.rl.common import Shaping, env_id, plain_text, resolve_game, shaping_weights
from greenlight.rl.encoding import encoding_for
from greenlight.rl.observer import SeatObserver

#: What an environment does with an illegal action code (see the module docstring).
ILLEGAL_ACTIONS = ("raise", "lose", "ignore")


class SeatAgents:
    """One agent per seat (``player_0`` ...) of one game and player count, with their cached spaces."""

    metadata: dict[str, Any]
    render_mode: str | None

    def _set_up(
        self,
        game: Game[Any] | str,
        num_players: int,
        options: Options | None,
        seed: int | None,
        render_mode: str | None,
        shaping: Shaping,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        max_cycles: int | None = None,
    ) -> None:
        self.game = resolve_game(game)
        if num_players not in self.game.spec.player_counts:
            raise ValueError(f"{self.game.spec.title} is played by {self.game.spec.player_counts} players, not {num_players}")
        self.num_players = num_players
        self.options = self.game.spec.resolve_options(num_players, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1 (or None for no limit), not {max_cycles}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_cycles = max_cycles
        self.metadata = {**self.metadata, "name": env_id(self.game)}
        self.encoding = encoding_for(self.game)
        self.shaping = shaping
        self.weights = shaping_weights(self.encoding, shaping)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        #: Every seat's observation vector and action mask, written in place (see ``greenlight.rl.observer``).
        self.observer = SeatObserver(self.game, num_players, self.options)
        self._make_spaces()
        self._seeds = np.random.default_rng(seed)
        #: The Greenlight state of the current game (None before the first reset).
        self.game_state: GameState | None = None
        self.game_seed = -1
        self._actions: list[tuple[int, Action]] = []
        self._potentials = [0.0] * num_players
        self.cycles = 0

    def _make_spaces(self) -> None:
        observer = self.observer
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(observer.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(observer.num_codes,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(observer.num_codes) for agent in self.possible_agents}
        #: The global state's space: every seat's observation vector, seat 0 first.
        self.state_space = spaces.Box(0.0, 1.0, shape=(self.num_players * observer.size,), dtype=np.float32)

    def _deal(self, seed: int | None) -> None:
        """A new game: the next seed of the sequence (restarted by ``seed``), no actions, potentials at 0."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.game_state = self.game.new_state(self.num_players, self.game_seed, self.options)
        self.observer.new_game()
        self._actions = []
        self.cycles = 0
        # Potentials start at 0 (before the deal) and end at 0, so shaping sums to exactly 0 over an episode.
        self._potentials = [0.0] * self.num_players

    def _cycle_seats(self) -> list[int]:
        """The seats that act in the cycle starting now: every committing seat of a simultaneous step, else the first."""
        assert self.game_state is not None
        decision = self.game.decision(self.game_state)
        players = sorted(decision.players)
        return players if decision.simultaneous else players[:1]

    def _play(self, seat: int, code: int) -> bool:
        """Play ``seat``'s agent code; return whether it was legal (False only when illegal codes are not raised)."""
        state = self.game_state
        assert state is not None
        observer = self.observer
        if self.illegal_action == "raise":
            chosen = observer.action(state, seat, code)
        else:
            try:
                chosen = observer.action(state, seat, code)
            except IllegalActionError:
                return False
        if chosen is not None:
            self.game.apply_unchecked(state, seat, chosen)
            self._actions.append((seat, chosen))
        observer.changed()
        return True

    def state(self) -> npt.NDArray[np.float32]:
        """The global state for centralised training: every seat's observation vector, seat 0 first (a new array)."""
        assert self.game_state is not None, "call reset() first"
        observer = self.observer
        return np.concatenate([observer.observation(self.game_state, seat) for seat in range(self.num_players)])

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) observation space of ``agent``."""
        space: gymnasium.spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) action space of ``agent``: ``Discrete`` over the agent codes."""
        space: gymnasium.spaces.Space[Any] = self.action_spaces[agent]
        return space

    def record(self) -> Record:
        """The Greenlight record of the current episode (replay it with ``greenlight replay``)."""
        actions = [(seat, str(action)) for seat, action in self._actions]
        return Record(self.game.spec.id, self.game.spec.version, self.num_players, self.game_seed, dict(self.options), actions)

    def render(self) -> str | None:
        """The spectator's view as plain text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self.game_state is None:
            return None
        text = plain_text(self.game, self.game.observe(self.game_state, None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- pickling and copying -------------------------------------------------------------

    #: Attributes made again after unpickling instead of stored (views of the observer's buffers, bound methods).
    _REBUILT: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        return {name: value for name, value in self.__dict__.items() if name not in self._REBUILT}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self._make_spaces()
        self._rebuild()

    def _rebuild(self) -> None:
        """Make again what ``_REBUILT`` names (each environment class)."""
