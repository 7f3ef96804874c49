"""What the PettingZoo AEC and Parallel environments share: seats as agents, spaces, seeds, records and text.

Nothing here imports PettingZoo; each environment class puts this mix-in in
front of its PettingZoo base class.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from greenlight.core.actions import Action
from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.spec import Options
from greenlight.core.state import GameState
from greenlight.rl.common import Shaping, agent_observation_space, env_id, plain_text, resolve_game, shaping_weights
from greenlight.rl.encoding import encoding_for
from greenlight.rl.observer import SeatObserver


class SeatAgents:
    """One agent per seat (``player_0`` ...) of one game and player count, with their cached spaces."""

    metadata: dict[str, Any]
    render_mode: str | None

    def _set_up(
        self, game: Game[Any] | str, num_players: int, options: Options | None, seed: int | None, render_mode: str | None, shaping: Shaping
    ) -> None:
        self.game = resolve_game(game)
        self.num_players = num_players
        self.options = self.game.spec.resolve_options(num_players, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": env_id(self.game)}
        self.encoding = encoding_for(self.game)
        self.weights = shaping_weights(self.encoding, shaping)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: agent_observation_space(self.encoding, self.game, num_players, self.options) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.game.num_distinct_actions) for agent in self.possible_agents}
        #: Every seat's observation vector and action mask, written in place (see ``greenlight.rl.observer``).
        self.observer = SeatObserver(self.game, num_players, self.options)
        self._seeds = np.random.default_rng(seed)
        self.state: GameState | None = None
        self.game_seed = -1
        self._actions: list[tuple[int, Action]] = []
        self._potentials = [0.0] * num_players

    def _deal(self, seed: int | None) -> None:
        """A new game: the next seed of the sequence (restarted by ``seed``), no actions, potentials at 0."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.state = self.game.new_state(self.num_players, self.game_seed, self.options)
        self.observer.changed()
        self._actions = []
        # Potentials start at 0 (before the deal) and end at 0, so shaping sums to exactly 0 over an episode.
        self._potentials = [0.0] * self.num_players

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) observation space of ``agent``."""
        space: gymnasium.spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) action space of ``agent``."""
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
        if self.state is None:
            return None
        text = plain_text(self.game, self.game.observe(self.state, None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
