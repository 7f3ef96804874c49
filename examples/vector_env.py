"""Greenlight in Gymnasium's vector environments: several games at once, each step choosing from its action mask.

Each sub-environment is ``greenlight.rl.gym_env`` (one learning seat against
bots). The vector environment stacks what they return: observations into a
``(envs, size)`` array and ``info["action_mask"]`` into an ``(envs, codes)``
int8 array, one row per game. A masked policy picks, for each row, one of the
codes set to 1 (here: uniformly at random).

``autoreset_mode=SAME_STEP`` makes a finished game deal the next one within the
same ``step``: the returned observation and mask are already those of the new
game, so every row always has legal codes, and the finished game's last info
(its ``win_share``) is in ``info["final_info"]``.

    python examples/vector_env.py                           # 4 games side by side, in this process
    python examples/vector_env.py --async --envs 8 --steps 5000 --game movie-empire
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from greenlight.rl import gym_env


def make_env(game: str, seat: int, opponents: list[str]) -> Callable[[], gymnasium.Env[Any, Any]]:
    """A constructor of one sub-environment (vector envs build each in its own place: this process or a worker)."""

    def build() -> gymnasium.Env[Any, Any]:
        return gym_env(game, seat=seat, opponents=opponents)

    return build


def masked_random_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One legal code per row of ``masks``, uniformly among the row's 1s."""
    actions = np.zeros(len(masks), dtype=np.int64)
    for row, mask in enumerate(masks):
        legal = mask.view(np.bool_).nonzero()[0]
        actions[row] = legal[rng.integers(len(legal))]
    return actions


@dataclass
class Run:
    """What a run did: steps of every sub-environment together, finished games, the learner's mean win share,
    and how many games ended on an illegal action (none, when the masks are followed)."""

    steps: int
    games: int
    win_share: float
    illegal: int
    seconds: float


def get_players(game: str) -> int:
    """The smallest player count of ``game``."""
    from greenlight.rl.common import resolve_game

    return resolve_game(game).spec.min_players


def run(game: str = "cinecitta", envs: int = 4, steps: int = 1000, asynchronous: bool = False, seed: int = 0) -> Run:
    """Play ``steps`` vector steps of masked random actions; seat 0 of each game against random bots."""
    players = get_players(game)
    fns = [make_env(game, 0, ["random"] * (players - 1)) for _ in range(envs)]
    vector: gymnasium.vector.VectorEnv[Any, Any, Any]
    if asynchronous:
        vector = AsyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    else:
        vector = SyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    rng = np.random.default_rng(seed)
    shares: list[float] = []
    illegal = 0
    try:
        _observations, info = vector.reset(seed=seed)
        started = time.perf_counter()
        for _ in range(steps):
            actions = masked_random_actions(info["action_mask"], rng)
            _observations, _rewards, terminated, _truncated, info = vector.step(actions)
            if terminated.any():
                final = info["final_info"]
                shares += [float(share) for share, done in zip(final["win_share"], final["_win_share"], strict=True) if done]
                if "illegal_action" in final:
                    illegal += int(final["_illegal_action"].sum())
        seconds = time.perf_counter() - started
    finally:
        vector.close()
    return Run(steps * envs, len(shares), float(np.mean(shares)) if shares else 0.0, illegal, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cinecitta")
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=1000, help="vector steps (each steps every sub-environment)")
    parser.add_argument("--async", dest="asynchronous", action="store_true", help="one worker process per sub-environment")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = run(args.game, args.envs, args.steps, args.asynchronous, args.seed)
    kind = "AsyncVectorEnv" if args.asynchronous else "SyncVectorEnv"
    print(
        f"{kind} of {args.envs} x {args.game}: {result.steps:,} learner steps in {result.seconds:.1f} s "
        f"({result.steps / result.seconds:,.0f}/s), {result.games} games finished, "
        f"random learner's mean win share {result.win_share:.3f}"
    )


if __name__ == "__main__":
    main()
