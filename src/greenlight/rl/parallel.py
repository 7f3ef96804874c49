"""PettingZoo Parallel environments for every Greenlight game: all seats that commit in a step act at once.

The agents, spaces, observations and rewards are those of the AEC
environments (:mod:`greenlight.rl.multi_agent`): one agent per seat,
``Dict(observation, action_mask)`` observations, action codes, win shares at
the end, optional potential-based shaping. What differs is the step:

* at a **simultaneous** step (Cinecitta's offers, responses and placements;
  Maybe Movies' votes; Movie Empire's kept scripts and gifts) every seat that
  still owes its commitment acts in the same ``step``, each from its own
  observation (which never shows another seat's pending commitment);
* at a **turn-based** step only the seat to act does.

Each agent's ``action_mask`` says whether it acts now (all zeros: it does
not, and whatever it sends is ignored). One ``step`` is one decision of the
game, so ``step`` may be called with actions for every live agent, as
PettingZoo's ``parallel_api_test`` does.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from greenlight.core.actions import Action
from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.spec import Options
from greenlight.core.state import GameState
from greenlight.rl.common import (
    Shaping,
    action_mask,
    agent_observation_space,
    env_id,
    plain_text,
    potential,
    resolve_game,
    shaping_weights,
)
from greenlight.rl.encoding import encoding_for

AgentObservation = dict[str, npt.NDArray[Any]]


class GreenlightParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo Parallel environment over one Greenlight game and player count."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "greenlight_v0"}

    def __init__(
        self,
        game: Game[Any] | str,
        num_players: int,
        options: Options | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        shaping: Shaping = False,
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
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: agent_observation_space(self.encoding, self.game, num_players, self.options) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.game.num_distinct_actions) for agent in self.possible_agents}
        self._seeds = np.random.default_rng(seed)
        self._no_action = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        self.state: GameState | None = None
        self.game_seed = -1
        self._actions: list[tuple[int, Action]] = []
        self._potentials = [0.0] * num_players

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared, cached) action space of ``agent``."""
        return self.action_spaces[agent]

    def acting(self) -> list[str]:
        """The agents that act in the next ``step``: every committing seat of a simultaneous step, else the seat to act."""
        assert self.state is not None, "call reset() first"
        decision = self.game.decision(self.state)
        seats = decision.players if decision.simultaneous else decision.players[:1]
        return [self.possible_agents[seat] for seat in seats]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, AgentObservation], dict[str, Any]]:
        """Start a new game: every agent's observation and an empty info each. Game options are fixed at construction."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.state = self.game.new_state(self.num_players, self.game_seed, self.options)
        self._actions = []
        self._potentials = [0.0] * self.num_players
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int | np.integer[Any]]
    ) -> tuple[dict[str, AgentObservation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the action codes of the agents that act now (others' entries are ignored); raise if one is missing or illegal."""
        assert self.state is not None, "call reset() first"
        if not self.agents:
            raise ValueError("the game is over: call reset() to start another")
        movers = self.acting()
        missing = [agent for agent in movers if agent not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act in this step")
        # Every commitment is read before any is applied: nobody's choice depends on another's in the same step.
        chosen = [(self.possible_agents.index(agent), int(actions[agent])) for agent in movers]
        moves = [(seat, self.game.action_from_code(self.state, seat, code)) for seat, code in chosen]
        for seat, action in moves:
            self.game.apply_unchecked(self.state, seat, action)
            self._actions.append((seat, action))
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, Any] = {agent: {} for agent in self.agents}
        over = self.game.is_terminal(self.state)
        if over:
            outcome = self.game.outcome(self.state)
            returns = outcome.returns()
            for seat, agent in enumerate(self.possible_agents):
                rewards[agent] = returns[seat] - self._potentials[seat]  # the potential is 0 at the end
                infos[agent] = {"score": outcome.scores[seat], "rank": outcome.ranks[seat], "win_share": returns[seat]}
        elif self.weights:
            for seat, agent in enumerate(self.possible_agents):
                now = potential(self.encoding, self.weights, self.game.observe(self.state, seat))
                rewards[agent] = now - self._potentials[seat]
                self._potentials[seat] = now
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, AgentObservation]:
        assert self.state is not None
        acting = set(self.acting()) if not self.game.is_terminal(self.state) else set()
        observations: dict[str, AgentObservation] = {}
        for seat, agent in enumerate(self.possible_agents):
            vector = np.asarray(self.encoding.encode(self.game.observe(self.state, seat)), dtype=np.float32)
            mask = action_mask(self.game, self.state, seat) if agent in acting else self._no_action.copy()
            observations[agent] = {"observation": vector, "action_mask": mask}
        return observations

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


def pettingzoo_parallel_env(
    game: Game[Any] | str,
    num_players: int,
    options: Options | None = None,
    seed: int | None = None,
    *,
    render_mode: str | None = None,
    shaping: Shaping = False,
) -> GreenlightParallelEnv:
    """The PettingZoo Parallel environment of ``game`` (a game, its id, or its env id such as ``cinecitta_v0``).

    >>> env = pettingzoo_parallel_env("cinecitta", 3, seed=7)
    >>> observations, infos = env.reset()
    >>> env.acting()  # Cinecitta's offers are simultaneous: every seat acts in the first step
    ['player_0', 'player_1', 'player_2']
    """
    return GreenlightParallelEnv(game, num_players, options, seed, render_mode=render_mode, shaping=shaping)
