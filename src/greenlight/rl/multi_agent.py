"""PettingZoo AEC environments for every Greenlight game (``cinecitta_v1``, ...).

One agent per seat (``player_0`` ...). Each agent observes
``Dict(observation=Box(float32, [0, 1]), action_mask=Box(int8, {0, 1}))`` and
acts with ``Discrete(N)``: agent codes (:mod:`greenlight.rl.actions`), the
game's stable action codes with Movie Empire's kept and given cards picked
one card at a time.

Simultaneous steps (Cinecitta offers, Maybe Movies votes) are taken one seat
at a time, in seat order: each cycle, every seat that acts in the current
decision acts once (one step of the Parallel env), and its observation is the
game's own ``observe``, which never shows another seat's pending commitment
(only *that* it committed). ``state()`` (the global state), ``illegal_action``,
``max_cycles`` and pickling are described in :mod:`greenlight.rl.seats`.

Observations are written into arrays made once per agent (see
:mod:`greenlight.rl.observer`): ``observe(agent)`` and ``last()`` return the
same two arrays for an agent every time, overwritten when that agent is next
observed after a step. Copy them to keep them.

Rewards: 0 during play; at the end each agent gets its win share from
``outcome(state).returns()`` (1/k for each of k winners, 0 otherwise). With
``shaping`` on, every step also pays the change of a potential built from the
seat's own observation (weights per scoring category, see
``ObservationEncoding.potentials``); the potential is taken as 0 before the
deal and at the end, so shaping sums to exactly 0 over an episode and never
changes which policy is best (potential-based shaping, Ng, Harada and Russell
1999).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from greenlight.core.game import Game
from greenlight.core.spec import Options
from greenlight.rl.common import Shaping, potential
from greenlight.rl.seats import SeatAgents

AgentObservation = dict[str, npt.NDArray[Any]]


class GreenlightAECEnv(SeatAgents, AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over one Greenlight game and player count."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "greenlight_v1", "is_parallelizable": False}
    _REBUILT = ("_observed", "_decision")

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
        super().__init__()
        self._set_up(game, num_players, options, seed, render_mode, shaping, illegal_action, illegal_reward, max_cycles)
        self._queue: list[int] = []
        self._rebuild()

    def _rebuild(self) -> None:
        # The rule's own function, asked once per action; each agent's dict around its two arrays.
        self._decision = self.game.decision
        self._observed: list[AgentObservation] = [
            {"observation": self.observer.vectors[seat], "action_mask": self.observer.masks[seat]} for seat in range(self.num_players)
        ]

    # -- episode -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` restarts the seed sequence; game options are fixed at construction."""
        self._deal(seed)
        self._rebuild()  # cheap; picks up an observer set after construction (the benchmarks swap it)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._paid = False  # whether ``rewards`` holds anything but zeros
        self._queue = self._cycle_seats()
        self.agent_selection = self.possible_agents[self._queue[0]]

    def _potential(self, seat: int) -> float:
        if not self.weights:
            return 0.0
        assert self.game_state is not None
        return potential(self.encoding, self.weights, self.game.observe(self.game_state, seat))

    def observe(self, agent: str) -> AgentObservation:
        """What ``agent`` sees: its encoded observation, and its legal codes when it is the agent to act.

        The two arrays are ``agent``'s own, rewritten in place when it is next observed after a step.
        """
        state = self.game_state
        assert state is not None, "call reset() first"
        seat = self.agent_name_mapping[agent]
        observer = self.observer
        observer.observation(state, seat)
        if agent == self.agent_selection and not (self.terminations.get(agent, True) or self.truncations.get(agent, True)):
            observer.mask(state, seat)
        else:
            observer.no_mask(seat)
        return self._observed[seat]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation (if ``observe``), cumulative reward, termination, truncation and info."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """The agent to act, until every agent is done (or ``max_iter`` agents); ``step`` each one in between."""
        return _AgentIterable(self, max_iter)

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply ``action`` (an agent code) for the agent to act; an illegal code is handled as ``illegal_action`` says."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        assert state is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        seat = self.agent_name_mapping[agent]
        legal = self._play(seat, int(action))
        self._cumulative_rewards[agent] = 0.0
        if self._paid:
            self._clear_rewards()
            self._paid = False
        decision = self._decision(state)
        players = decision.players
        if not legal:
            if self.illegal_action == "lose":
                self._lose(seat)
                players = ()
            else:
                self.rewards[agent] = self.illegal_reward
            self._paid = True
        elif not players:
            self._finish()
            self._paid = True
        elif self.weights:
            for other, name in enumerate(self.possible_agents):
                now = self._potential(other)
                self.rewards[name] = now - self._potentials[other]
                self._potentials[other] = now
            self._paid = True
        if self._paid:
            self._accumulate_rewards()
        if players:
            # The seats of this cycle act in seat order, each once; then the next cycle starts (see SeatAgents).
            queue = [other for other in self._queue if other != seat and other in players]
            if not queue:
                self.cycles += 1
                if self.max_cycles is not None and self.cycles >= self.max_cycles:
                    self._truncate()
                    queue = [seat]
                else:
                    queue = sorted(players) if decision.simultaneous else [min(players)]
            self._queue = queue
            self.agent_selection = self.possible_agents[queue[0]]
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        assert self.game_state is not None
        outcome = self.game.outcome(self.game_state)
        returns = outcome.returns()
        for seat, agent in enumerate(self.possible_agents):
            # The shaping potential is 0 at the end, so the last shaping term takes back what was paid.
            self.rewards[agent] = returns[seat] - self._potentials[seat]
            self._potentials[seat] = 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"score": outcome.scores[seat], "rank": outcome.ranks[seat], "win_share": returns[seat]}

    def _lose(self, offender: int) -> None:
        """``illegal_action="lose"``: the game ends at once; the offender gets ``illegal_reward``, the others 0."""
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = (self.illegal_reward if seat == offender else 0.0) - self._potentials[seat]
            self._potentials[seat] = 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"illegal_action": seat == offender}

    def _truncate(self) -> None:
        """``max_cycles`` reached: every agent is truncated (no reward beyond what was paid)."""
        for agent in self.possible_agents:
            self.truncations[agent] = True
            self.infos[agent] = {"truncated_after_cycles": self.cycles}


class _AgentIterable:
    """``env.agent_iter()``: what PettingZoo's ``AECIterable`` yields, from a generator (one resume per agent)."""

    def __init__(self, env: GreenlightAECEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        remaining = self.max_iter
        while env.agents and remaining > 0:
            remaining -= 1
            yield env.agent_selection


def pettingzoo_env(
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
) -> GreenlightAECEnv:
    """The PettingZoo AEC environment of ``game`` (a game, its id, or its env id such as ``cinecitta_v1``).

    >>> env = pettingzoo_env("cinecitta", 3, seed=7)
    >>> env.reset()
    >>> env.agent_selection, env.metadata["name"]
    ('player_0', 'cinecitta_v1')
    """
    return GreenlightAECEnv(
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
