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

Observations use the same arrays as the AEC environment: one vector and one
mask per agent, allocated once (:mod:`greenlight.rl.observer`) and rewritten
by every ``reset`` and ``step``; copy them to keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import ParallelEnv

from greenlight.core.game import Game
from greenlight.core.spec import Options
from greenlight.rl.common import Shaping, potential
from greenlight.rl.seats import SeatAgents

AgentObservation = dict[str, npt.NDArray[Any]]


class GreenlightParallelEnv(SeatAgents, ParallelEnv):  # type: ignore[misc]
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
        self._set_up(game, num_players, options, seed, render_mode, shaping)
        self.agents: list[str] = []
        self._observed: dict[str, AgentObservation] = {
            agent: {"observation": self.observer.vectors[seat], "action_mask": self.observer.masks[seat]}
            for seat, agent in enumerate(self.possible_agents)
        }

    def acting(self) -> list[str]:
        """The agents that act in the next ``step``: every committing seat of a simultaneous step, else the seat to act."""
        return [self.possible_agents[seat] for seat in self._acting_seats()]

    def _acting_seats(self) -> tuple[int, ...]:
        assert self.state is not None, "call reset() first"
        decision = self.game.decision(self.state)
        return decision.players if decision.simultaneous else decision.players[:1]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, AgentObservation], dict[str, Any]]:
        """Start a new game: every agent's observation and an empty info each. Game options are fixed at construction."""
        self._deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, int | np.integer[Any]]
    ) -> tuple[dict[str, AgentObservation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the action codes of the agents that act now (others' entries are ignored); raise if one is missing or illegal."""
        assert self.state is not None, "call reset() first"
        if not self.agents:
            raise ValueError("the game is over: call reset() to start another")
        agents = self.possible_agents
        movers = self._acting_seats()
        missing = [agents[seat] for seat in movers if agents[seat] not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act in this step")
        # Every commitment is read before any is applied: nobody's choice depends on another's in the same step.
        moves = [(seat, self.observer.action(self.state, seat, int(actions[agents[seat]]))) for seat in movers]
        for seat, action in moves:
            self.game.apply_unchecked(self.state, seat, action)
            self._actions.append((seat, action))
        self.observer.changed()
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
        """Every agent's observation, written into its own arrays (the dict is new; the arrays are the agent's)."""
        assert self.state is not None
        observer = self.observer
        state = self.state
        acting = self._acting_seats()
        for seat in range(self.num_players):
            observer.observation(state, seat)
            if seat in acting:
                observer.mask(state, seat)
            else:
                observer.no_mask(seat)
        return dict(self._observed)


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
