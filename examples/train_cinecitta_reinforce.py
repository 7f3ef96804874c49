"""Train a masked linear softmax policy with REINFORCE (numpy only) on 3-player Cinecitta 1937.

The learner sits at seat 0 of the Gymnasium env (``greenlight.rl.gym_env``)
against two random bots. Its policy scores every legal action code with a
linear function of the encoded observation, ``logits = W[codes] @ x + b[codes]``,
and samples from the softmax over the legal codes only (the mask from
``info["action_mask"]``). After each game every step is pushed towards its
action in proportion to (win share - running baseline): plain REINFORCE.

Every ``--eval-every`` episodes the greedy policy (the most likely legal
action) plays a fixed set of seeds and the script prints its win share; a
random player wins about a third of these games.

    python examples/train_cinecitta_reinforce.py
    python examples/train_cinecitta_reinforce.py --episodes 200 --eval-every 100 --eval-games 20
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from greenlight.rl import gym_env
from greenlight.rl.single_agent import GreenlightGymEnv

Vector = npt.NDArray[np.float64]


@dataclass
class MaskedLinearPolicy:
    """Softmax over the legal action codes of a linear score ``W[code] @ x + b[code]``."""

    weights: Vector
    bias: Vector

    @classmethod
    def zeros(cls, num_actions: int, size: int) -> MaskedLinearPolicy:
        """All scores 0: the uniform policy over legal actions."""
        return cls(np.zeros((num_actions, size)), np.zeros(num_actions))

    def probabilities(self, observation: Vector, legal: npt.NDArray[np.intp]) -> Vector:
        """The policy over ``legal`` codes (a numerically stable softmax)."""
        logits = self.weights[legal] @ observation + self.bias[legal]
        logits -= logits.max()
        exp = np.exp(logits)
        probabilities: Vector = exp / exp.sum()
        return probabilities

    def update(self, observation: Vector, legal: npt.NDArray[np.intp], chosen: int, step: float) -> None:
        """One REINFORCE step: ``step`` times the gradient of log pi(chosen) (only legal rows change)."""
        gradient = -self.probabilities(observation, legal)
        gradient[chosen] += 1.0
        self.weights[legal] += step * np.outer(gradient, observation)
        self.bias[legal] += step * gradient


@dataclass
class Episode:
    """What one game needs for the update: each decision's observation, legal codes and choice."""

    observations: list[Vector] = field(default_factory=list)
    legal: list[npt.NDArray[np.intp]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)


def play(env: GreenlightGymEnv, policy: MaskedLinearPolicy, seed: int, rng: np.random.Generator | None) -> tuple[float, Episode]:
    """Play one game; sample from the policy with ``rng``, or play greedily when ``rng`` is None."""
    observation, info = env.reset(seed=seed)
    episode = Episode()
    total = 0.0
    terminated = False
    while not terminated:
        x = observation.astype(np.float64)
        legal = np.flatnonzero(info["action_mask"])
        probabilities = policy.probabilities(x, legal)
        index = int(rng.choice(len(legal), p=probabilities)) if rng is not None else int(np.argmax(probabilities))
        episode.observations.append(x)
        episode.legal.append(legal)
        episode.chosen.append(index)
        observation, reward, terminated, _truncated, info = env.step(int(legal[index]))
        total += reward
    return total, episode


def evaluate(env: GreenlightGymEnv, policy: MaskedLinearPolicy, seeds: range) -> float:
    """Mean win share of the greedy policy over fixed seeds."""
    return float(np.mean([play(env, policy, seed, None)[0] for seed in seeds]))


def train(
    episodes: int, eval_every: int, eval_games: int, learning_rate: float = 0.02, seed: int = 0, log: bool = True
) -> list[tuple[int, float]]:
    """Train and return ``(episodes so far, greedy win share)`` at each evaluation, starting before training."""
    env = gym_env("cinecitta", seat=0, opponents=["random", "random"])
    policy = MaskedLinearPolicy.zeros(env.game.num_distinct_actions, env.encoding.size(env.num_players, env.options))
    rng = np.random.default_rng(seed)
    eval_seeds = range(1_000_000, 1_000_000 + eval_games)  # fixed, and disjoint from the training seeds
    baseline = 1 / 3
    history = [(0, evaluate(env, policy, eval_seeds))]
    started = time.perf_counter()
    if log:
        print(f"{'episodes':>8}  {'win share':>9}  {'seconds':>7}")
        print(f"{0:>8}  {history[0][1]:>9.3f}  {0.0:>7.1f}")
    for number in range(1, episodes + 1):
        win_share, episode = play(env, policy, seed * 1_000_003 + number, rng)
        advantage = win_share - baseline
        baseline += 0.01 * (win_share - baseline)
        for x, legal, chosen in zip(episode.observations, episode.legal, episode.chosen, strict=True):
            policy.update(x, legal, chosen, learning_rate * advantage)
        if number % eval_every == 0:
            history.append((number, evaluate(env, policy, eval_seeds)))
            if log:
                print(f"{number:>8}  {history[-1][1]:>9.3f}  {time.perf_counter() - started:>7.1f}")
    return history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--learning-rate", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    history = train(args.episodes, args.eval_every, args.eval_games, args.learning_rate, args.seed)
    first, last = history[0][1], history[-1][1]
    print(f"greedy win share against two random bots: {first:.3f} before training, {last:.3f} after {args.episodes} episodes")


if __name__ == "__main__":
    main()
