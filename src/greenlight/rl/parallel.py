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
not, and whatever it sends is ignored). One ``step`` is one **cycle**: every
seat that acts in the current decision acts once (for Movie Empire's kept and
given cards, one card picked each, see :mod:`greenlight.rl.actions`), so
``step`` may be called with actions for every live agent, as PettingZoo's
``parallel_api_test`` does. ``max_cycles`` truncates after that many steps;
``illegal_action`` says what an illegal code does (see :mod:`greenlight.rl.seats`).

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

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.spec import Options
from greenlight.rl.common import Shaping, potential
from greenlight.rl.seats import SeatAgents

AgentObservation = dict[str, npt.NDArray[Any]]


class GreenlightParallelEnv(SeatAgents, ParallelEnv):  # type: ignore[misc]
    """A PettingZoo Parallel environment over one Greenlight game and player count."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "greenlight_v1"}
    _REBUILT = ("_observed",)

    def __init__(
        self,
        game: Game[Any] | str,
        num_players: int,
        options: Options | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        shaping: Shaping = False,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        max_cycles: int | None = None,
    ) -> None:
        self._set_up(game, num_players, options, seed, render_mode, shaping, illegal_action, illegal_reward, max_cycles)
        self.agents: list[str] = []
        self._rebuild()

    def _rebuild(self) -> None:
        self._observed: dict[str, AgentObservation] = {
            agent: {"observation": self.observer.vectors[seat], "action_mask": self.observer.masks[seat]}
            for seat, agent in enumerate(self.possible_agents)
        }

    def acting(self) -> list[str]:
        """The agents that act in the next ``step``: every committing seat of a simultaneous step, else the seat to act."""
        return [self.possible_agents[seat] for seat in self._acting_seats()]

    def _acting_seats(self) -> list[int]:
        assert self.game_state is not None, "call reset() first"
        return self._cycle_seats()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, AgentObservation], dict[str, Any]]:
        """Start a new game: every agent's observation and an empty info each. Game options are fixed at construction."""
        self._deal(seed)
        self._rebuild()  # cheap; picks up an observer set after construction (the benchmarks swap it)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: Mapping[str, int | np.integer[Any]]
    ) -> tuple[dict[str, AgentObservation], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the agent codes of the agents that act now (others' entries are ignored).

        A missing actor is a ValueError; an illegal code is handled as ``illegal_action`` says.
        """
        state = self.game_state
        assert state is not None, "call reset() first"
        if not self.agents:
            raise ValueError("the game is over: call reset() to start another")
        agents = self.possible_agents
        movers = self._acting_seats()
        missing = [agents[seat] for seat in movers if agents[seat] not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act in this step")
        # Every commitment is read before any is applied: nobody's choice depends on another's in the same step.
        observer = self.observer
        prefixes = list(observer.picks.prefixes)
        moves: list[tuple[int, Action]] = []
        offenders: list[int] = []
        for seat in movers:
            try:
                chosen = observer.action(state, seat, int(actions[agents[seat]]))
            except IllegalActionError:
                if self.illegal_action == "raise":
                    observer.picks.prefixes = prefixes  # nothing of this step happened
                    raise
                offenders.append(seat)
                continue
            if chosen is not None:
                moves.append((seat, chosen))
        lost = bool(offenders) and self.illegal_action == "lose"
        if not lost:
            for seat, action in moves:
                self.game.apply_unchecked(state, seat, action)
                self._actions.append((seat, action))
        observer.changed()
        self.cycles += 1
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, Any] = {agent: {} for agent in self.agents}
        over = lost or self.game.is_terminal(state)
        if lost:
            for seat, agent in enumerate(agents):
                rewards[agent] = (self.illegal_reward if seat in offenders else 0.0) - self._potentials[seat]
                infos[agent] = {"illegal_action": seat in offenders}
        elif over:
            outcome = self.game.outcome(state)
            returns = outcome.returns()
            for seat, agent in enumerate(agents):
                rewards[agent] = returns[seat] - self._potentials[seat]  # the potential is 0 at the end
                infos[agent] = {"score": outcome.scores[seat], "rank": outcome.ranks[seat], "win_share": returns[seat]}
        else:
            if self.weights:
                for seat, agent in enumerate(agents):
                    now = potential(self.encoding, self.weights, self.game.observe(state, seat))
                    rewards[agent] = now - self._potentials[seat]
                    self._potentials[seat] = now
            for seat in offenders:  # illegal_action="ignore": a penalty, and the seat acts again
                rewards[agents[seat]] += self.illegal_reward
                infos[agents[seat]]["illegal_action"] = True
        truncated = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        observations = self._observations()
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, AgentObservation]:
        """Every agent's observation, written into its own arrays (the dict is new; the arrays are the agent's)."""
        state = self.game_state
        assert state is not None
        observer = self.observer
        acting = self._acting_seats() if self.agents and not self.game.is_terminal(state) else []
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
    illegal_action: str = "raise",
    illegal_reward: float = -1.0,
    max_cycles: int | None = None,
) -> GreenlightParallelEnv:
    """The PettingZoo Parallel environment of ``game`` (a game, its id, or its env id such as ``cinecitta_v1``).

    >>> env = pettingzoo_parallel_env("cinecitta", 3, seed=7)
    >>> observations, infos = env.reset()
    >>> env.acting()  # Cinecitta's offers are simultaneous: every seat acts in the first step
    ['player_0', 'player_1', 'player_2']
    """
    return GreenlightParallelEnv(
        game,
        num_players,
        options,
        seed,
        render_mode=render_mode,
        shaping=shaping,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        max_cycles=max_cycles,
    )
