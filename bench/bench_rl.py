"""RL-layer benchmark: environment steps per second against the engine's own random playouts, in one run.

For every game and player count asked for (default: every count of every
game), in the same process and interleaved round by round so that a change in
the machine's load touches every figure alike:

* **engine**: random playouts straight on the engine, actions/s (a new deal per
  game, then ``decision``, ``legal_actions``, a uniform choice and
  ``apply_unchecked`` until the end), the reference every ratio is taken
  against;
* **aec**: the standard PettingZoo AEC loop, steps/s (one step = one action)::

      for agent in env.agent_iter():
          obs, reward, terminated, truncated, info = env.last()
          action = None if terminated or truncated else <uniform among obs["action_mask"]'s legal codes>
          env.step(action)

  The observation is encoded in every step (``last()`` returns it written),
  as a learner that reads ``obs["observation"]`` needs; the loop reads it too,
  so an environment that encoded lazily would be timed with its encoding;

  The legal codes are read with ``mask.view(bool).nonzero()[0]``: the same
  codes as ``np.flatnonzero(mask)``, which NumPy computes about ten times
  slower on an int8 array;
* **parallel**: the PettingZoo Parallel loop (every acting agent picks from its
  mask, then ``env.step(actions)``), steps/s and actions/s;
* **gymnasium** (``--all``): one learner against random bots, learner steps/s;
* **openspiel** (``--all``): the adapter's ``apply_action`` with random legal
  codes, steps/s (no observation);
* **connect_four** (``--pettingzoo``): the same AEC loop on PettingZoo's own
  ``connect_four_v3`` (classic envs, same process, same rounds), and each
  game's AEC steps/s as a ratio to it: the yardstick a PettingZoo user knows;
* **vector** (``--vector``): Gymnasium's ``SyncVectorEnv`` and
  ``AsyncVectorEnv`` of 4 Greenlight envs (one learner against random bots,
  as in ``examples/vector_env.py``), learner steps/s of both, wall clock
  (the async workers' CPU time is not this process's).

Each measurement runs whole games for ``--seconds`` of CPU time of this
process (``time.process_time``, less disturbed by other work on the machine
than the wall clock); the figures are medians over ``--rounds`` rounds, and each
ratio is the median of the rounds' ratios. ``--reference`` also measures the
AEC loop with the observation-based reference encoding instead of the fast
path. ``--bound`` also measures the AEC loop with the observation **not
written** (the vector stays as it was; everything else, the mask included,
runs as usual): the ceiling an encoder, however fast, cannot pass, which
shows how much of the gap to the engine is the encoder's and how much is the
AEC step itself. ISMCTS search speed is in ``bench/bench_search.py``.

    python bench/bench_rl.py                                   # every game and player count
    python bench/bench_rl.py cinecitta:3 maybe-movies:4 --rounds 5 --seconds 3
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from greenlight.core.registry import get_game
from greenlight.rl import gym_env, openspiel_game, pettingzoo_env, pettingzoo_parallel_env
from greenlight.rl.encoding import has_encoding
from greenlight.rl.observer import SeatObserver


def _timed(work: Callable[[], int], seconds: float) -> float:
    """Repeat ``work`` (returning a count) for ``seconds`` of CPU time; return the count per CPU second."""
    count = 0
    started = time.process_time()
    while (elapsed := time.process_time() - started) < seconds:
        count += work()
    return count / elapsed


def _legal(mask: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The legal codes of an int8 action mask."""
    return mask.view(np.bool_).nonzero()[0]


class _UnwrittenObserver(SeatObserver):
    """A seat observer that hands out each seat's vector without writing it (masks as usual): ``--bound``."""

    def observation(self, state: Any, seat: int) -> np.ndarray[Any, Any]:
        return self.vectors[seat]


class Bench:
    """The measurements of one game and player count; every method runs whole games for ``seconds``."""

    def __init__(self, game_id: str, players: int, seconds: float) -> None:
        self.game = get_game(game_id)
        self.game_id = game_id
        self.players = players
        self.seconds = seconds
        self.rng = random.Random(0)
        self.seeds = iter(range(10**9))
        self.aec = pettingzoo_env(game_id, players, seed=0)
        self.reference = pettingzoo_env(game_id, players, seed=0)
        self.reference.observer = SeatObserver(self.reference.game, players, self.reference.options, fast=False)
        self.parallel = pettingzoo_parallel_env(game_id, players, seed=0)
        self.unwritten = pettingzoo_env(game_id, players, seed=0)
        self.unwritten.observer = _UnwrittenObserver(self.unwritten.game, players, self.unwritten.options)

    def engine(self) -> dict[str, float]:
        game, players, rng = self.game, self.players, self.rng

        def playout() -> int:
            state = game.new_state(players, next(self.seeds))
            actions = 0
            while to_act := game.decision(state).players:
                seat = to_act[0]
                game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
                actions += 1
            return actions

        return {"actions/s": _timed(playout, self.seconds)}

    def _aec(self, env: Any) -> float:
        rng = self.rng

        def episode() -> int:
            env.reset()
            steps = 0
            for _agent in env.agent_iter():
                observation, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                _vector = observation["observation"]  # what a policy reads (free here: the envs encode before they return)
                legal = _legal(observation["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            return steps

        return _timed(episode, self.seconds)

    def pettingzoo_aec(self) -> dict[str, float]:
        return {"steps/s": self._aec(self.aec)}

    def pettingzoo_aec_reference(self) -> dict[str, float]:
        return {"steps/s": self._aec(self.reference)}

    def pettingzoo_aec_unwritten(self) -> dict[str, float]:
        return {"steps/s": self._aec(self.unwritten)}

    def pettingzoo_parallel(self) -> dict[str, float]:
        env, rng = self.parallel, self.rng
        steps = 0

        def episode() -> int:
            nonlocal steps
            observations, _ = env.reset()
            actions = 0
            while env.agents:
                chosen = {}
                for agent, observation in observations.items():
                    legal = _legal(observation["action_mask"])
                    if len(legal):
                        chosen[agent] = int(legal[rng.randrange(len(legal))])
                observations, *_ = env.step(chosen)
                actions += len(chosen)
                steps += 1
            return actions

        started_steps = steps
        started = time.process_time()
        actions_per_second = _timed(episode, self.seconds)
        steps_per_second = (steps - started_steps) / (time.process_time() - started)
        return {"steps/s": steps_per_second, "actions/s": actions_per_second}

    def gymnasium(self) -> dict[str, float]:
        env = gym_env(self.game_id, seat=0, opponents=["random"] * (self.players - 1))
        rng = self.rng

        def episode() -> int:
            _observation, info = env.reset(seed=next(self.seeds))
            steps = 0
            terminated = False
            while not terminated:
                legal = _legal(info["action_mask"])
                _observation, _reward, terminated, _truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            return steps

        return {"learner steps/s": _timed(episode, self.seconds)}

    def openspiel(self) -> dict[str, float]:
        game = openspiel_game(self.game_id, self.players)
        rng = self.rng

        def episode() -> int:
            state = game.new_initial_state()
            state.apply_action(next(self.seeds) % game.max_chance_outcomes())
            steps = 0
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            return steps

        return {"steps/s": _timed(episode, self.seconds)}

    def connect_four(self) -> dict[str, float]:
        from pettingzoo.classic import connect_four_v3

        if not hasattr(self, "_connect_four"):
            self._connect_four = connect_four_v3.env()
        return {"steps/s": self._aec(self._connect_four)}

    def vector(self) -> dict[str, float]:
        return {f"{kind} learner steps/s": _vector_steps(self.game_id, self.players, kind, self.seconds) for kind in ("sync", "async")}


def _vector_steps(game_id: str, players: int, kind: str, seconds: float, envs: int = 4) -> float:
    """Learner steps/s (wall clock) of a Gymnasium vector env of ``envs`` learners against random bots."""
    import gymnasium
    from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

    def build() -> gymnasium.Env[Any, Any]:
        return gym_env(game_id, seat=0, opponents=["random"] * (players - 1))

    maker = SyncVectorEnv if kind == "sync" else AsyncVectorEnv
    vector = maker([build] * envs, autoreset_mode=AutoresetMode.SAME_STEP)
    rng = np.random.default_rng(0)
    try:
        _observations, infos = vector.reset(seed=0)
        steps = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            masks = infos["action_mask"]
            actions = np.array([rng.choice(_legal(mask)) for mask in masks])
            _observations, _rewards, _terminated, _truncated, infos = vector.step(actions)
            steps += envs
        return steps / elapsed
    finally:
        vector.close()


Rounds = list[dict[str, dict[str, float]]]


def _median(rounds: Rounds, label: str, unit: str) -> float:
    """The median over rounds of one figure."""
    return statistics.median(figures[label][unit] for figures in rounds)


def _ratio(rounds: Rounds, label: str, unit: str) -> float:
    """The median over rounds of one figure divided by that round's engine actions/s."""
    return statistics.median(figures[label][unit] / figures["engine"]["actions/s"] for figures in rounds)


def _targets(specs: list[str]) -> list[tuple[str, int]]:
    """``game:players`` specs (a bare game id means every player count); none means every game with an encoder."""
    from greenlight.core.registry import all_games

    if not specs:
        return [(game.spec.id, n) for game in all_games().values() if has_encoding(game) for n in game.spec.player_counts]
    targets: list[tuple[str, int]] = []
    for spec in specs:
        game_id, _, count = spec.partition(":")
        game = get_game(game_id)
        targets += [(game.spec.id, int(count))] if count else [(game.spec.id, n) for n in game.spec.player_counts]
    return targets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="game:players (a bare game id: every player count); default: all")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians are reported)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement and round")
    parser.add_argument("--all", action="store_true", help="also measure the Gymnasium env and the OpenSpiel adapter")
    parser.add_argument("--reference", action="store_true", help="also measure the AEC loop with the reference encoding")
    parser.add_argument("--bound", action="store_true", help="also measure the AEC loop with the observation not written")
    parser.add_argument("--pettingzoo", action="store_true", help="also measure PettingZoo's connect_four_v3 with the same AEC loop")
    parser.add_argument("--vector", action="store_true", help="also measure Gymnasium's sync and async vector envs (4 envs)")
    args = parser.parse_args()
    print(f"# bench_rl: Python {platform.python_version()} on {platform.machine()}, {args.rounds} rounds of {args.seconds} CPU s")
    print(
        "| game | players | engine actions/s | AEC steps/s | AEC / engine | Parallel steps/s | Parallel actions/s | Parallel / engine |"
        + (" AEC, reference encoding, steps/s |" if args.reference else "")
        + (" AEC, observation not written, steps/s | its share of engine |" if args.bound else "")
        + (" Gymnasium learner steps/s | OpenSpiel steps/s |" if args.all else "")
        + (" connect_four_v3 AEC steps/s | AEC / connect_four |" if args.pettingzoo else "")
        + (" sync vector learner steps/s | async vector learner steps/s | async / sync |" if args.vector else "")
    )
    print(
        "|---|---|---|---|---|---|---|---|"
        + ("---|" if args.reference else "")
        + ("---|---|" if args.bound else "")
        + ("---|---|" if args.all else "")
        + ("---|---|" if args.pettingzoo else "")
        + ("---|---|---|" if args.vector else "")
    )
    for game_id, players in _targets(args.targets):
        bench = Bench(game_id, players, args.seconds)
        measurements: list[tuple[str, Callable[[], dict[str, float]]]] = [
            ("engine", bench.engine),
            ("aec", bench.pettingzoo_aec),
            ("parallel", bench.pettingzoo_parallel),
        ]
        if args.reference:
            measurements.append(("reference", bench.pettingzoo_aec_reference))
        if args.bound:
            measurements.append(("unwritten", bench.pettingzoo_aec_unwritten))
        if args.all:
            measurements += [("gymnasium", bench.gymnasium), ("openspiel", bench.openspiel)]
        if args.pettingzoo:
            measurements.append(("connect_four", bench.connect_four))
        if args.vector:
            measurements.append(("vector", bench.vector))
        rounds: Rounds = []
        for _ in range(args.rounds):
            rounds.append({label: measure() for label, measure in measurements})

        median = partial(_median, rounds)
        ratio = partial(_ratio, rounds)
        row = [
            game_id,
            str(players),
            f"{median('engine', 'actions/s'):,.0f}",
            f"{median('aec', 'steps/s'):,.0f}",
            f"{ratio('aec', 'steps/s'):.0%}",
            f"{median('parallel', 'steps/s'):,.0f}",
            f"{median('parallel', 'actions/s'):,.0f}",
            f"{ratio('parallel', 'actions/s'):.0%}",
        ]
        if args.reference:
            row.append(f"{median('reference', 'steps/s'):,.0f}")
        if args.bound:
            row += [f"{median('unwritten', 'steps/s'):,.0f}", f"{ratio('unwritten', 'steps/s'):.0%}"]
        if args.all:
            row += [f"{median('gymnasium', 'learner steps/s'):,.0f}", f"{median('openspiel', 'steps/s'):,.0f}"]
        if args.pettingzoo:
            to_connect_four = statistics.median(figures["aec"]["steps/s"] / figures["connect_four"]["steps/s"] for figures in rounds)
            row += [f"{median('connect_four', 'steps/s'):,.0f}", f"{to_connect_four:.2f}"]
        if args.vector:
            speedup = statistics.median(
                figures["vector"]["async learner steps/s"] / figures["vector"]["sync learner steps/s"] for figures in rounds
            )
            row += [f"{median('vector', 'sync learner steps/s'):,.0f}", f"{median('vector', 'async learner steps/s'):,.0f}"]
            row.append(f"{speedup:.2f}")
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
