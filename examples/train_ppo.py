"""Train seat 0 of 3-player Cinecitta 1937 with PPO (PyTorch): against random bots, then against ``medium``.

A CleanRL-style single file. The learner plays through Gymnasium's
``SyncVectorEnv`` over ``greenlight.rl.gym_env`` (several games at once,
``autoreset_mode=SAME_STEP`` so every row of ``info["action_mask"]`` always
belongs to a live game). The policy is a masked categorical: an MLP scores
all 3,135 action codes, the codes the mask rules out get a logit of -1e9, and
actions are sampled from the softmax over the rest. PPO as in CleanRL:
rollouts of ``--rollout`` steps per game, generalised advantage estimation,
``--epochs`` passes of clipped policy and value updates over minibatches.

Reward: the learner's win share at the end of each game (1/k for each of k
tied winners), plus the game's default potential-based shaping (Studio
quality, Office promotion and reels, money; it sums to zero over a game, so
the best policy does not change) to make the sparse reward easier to learn.

Phase 1 trains against two ``random`` bots, phase 2 continues against two
``medium`` bots (Cinecitta's heuristic). Before training and after each
phase the script prints the win share of the greedy policy (the most likely
legal action) over a fixed set of evaluation deals, disjoint from the
training deals; a random player wins about a third against two random bots.
Everything is seeded: a run repeats exactly.

    pip install -e '.[rl,train]'
    python examples/train_cinecitta_ppo.py                                  # the run docs/rl.md reports (0.28 -> 0.84 -> 0.72)
    python examples/train_cinecitta_ppo.py --random-updates 20 --medium-updates 0 --eval-games 120
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from torch import nn
from torch.distributions import Categorical

from greenlight.rl import gym_env

GAME = "cinecitta"
PLAYERS = 3
#: Evaluation deals start here, far from the training deals (which start at the seed).
EVAL_SEED = 1_000_000


@dataclass
class Config:
    """Hyper-parameters (CleanRL's PPO defaults, sized for a CPU)."""

    envs: int = 8
    rollout: int = 128
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    minibatches: int = 4
    epochs: int = 4
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 256
    seed: int = 0


class Agent(nn.Module):
    """A shared MLP body, a policy head over every action code and a value head."""

    def __init__(self, observation_size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(observation_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def distribution(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[Categorical, torch.Tensor]:
        """The masked policy and the value of each observation."""
        hidden = self.body(observations)
        logits = self.policy(hidden).masked_fill(~masks, -1e9)
        return Categorical(logits=logits), self.value(hidden).squeeze(-1)


def make_envs(opponent: str, count: int) -> SyncVectorEnv:
    """``count`` games of seat 0 against two ``opponent`` bots, with the game's default reward shaping."""

    def build() -> gymnasium.Env[Any, Any]:
        return gym_env(GAME, seat=0, opponents=[opponent] * (PLAYERS - 1), shaping=True)

    return SyncVectorEnv([build for _ in range(count)], autoreset_mode=AutoresetMode.SAME_STEP)


def _sizes() -> tuple[int, int]:
    """The observation size and the number of action codes of the game."""
    probe = gym_env(GAME, seat=0, opponents=["random"] * (PLAYERS - 1))
    return int(probe.observation_space.shape[0]), int(probe.action_space.n)


def _tensors(observations: np.ndarray[Any, Any], masks: np.ndarray[Any, Any]) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.as_tensor(observations), torch.as_tensor(masks.astype(bool))


def evaluate(agent: Agent, opponent: str, games: int, envs: int = 8) -> float:
    """Mean win share of the greedy policy over ``games`` evaluation deals against two ``opponent`` bots."""
    vector = make_envs(opponent, envs)
    shares: list[float] = []
    observations, info = vector.reset(seed=EVAL_SEED)
    with torch.no_grad():
        while len(shares) < games:
            policy, _ = agent.distribution(*_tensors(observations, info["action_mask"]))
            actions = policy.probs.argmax(dim=-1).numpy()
            observations, _rewards, terminated, _truncated, info = vector.step(actions)
            if terminated.any():
                final = info["final_info"]
                shares += [float(share) for share, done in zip(final["win_share"], final["_win_share"], strict=True) if done]
    vector.close()
    return float(np.mean(shares[:games]))


def train_phase(agent: Agent, optimizer: torch.optim.Optimizer, config: Config, opponent: str, updates: int, seed: int) -> int:
    """PPO against two ``opponent`` bots for ``updates`` rollouts; return the learner steps taken."""
    vector = make_envs(opponent, config.envs)
    size, codes = _sizes()
    steps, envs = config.rollout, config.envs
    observations_buffer = torch.zeros((steps, envs, size))
    masks_buffer = torch.zeros((steps, envs, codes), dtype=torch.bool)
    actions_buffer = torch.zeros((steps, envs), dtype=torch.long)
    log_probs = torch.zeros((steps, envs))
    rewards = torch.zeros((steps, envs))
    dones = torch.zeros((steps, envs))
    values = torch.zeros((steps, envs))
    observations, info = vector.reset(seed=seed)
    observation, mask = _tensors(observations, info["action_mask"])
    for _ in range(updates):
        for step in range(steps):
            observations_buffer[step], masks_buffer[step] = observation, mask
            with torch.no_grad():
                policy, value = agent.distribution(observation, mask)
                action = policy.sample()  # type: ignore[no-untyped-call]
            actions_buffer[step], log_probs[step], values[step] = action, policy.log_prob(action), value  # type: ignore[no-untyped-call]
            observations, reward, terminated, truncated, info = vector.step(action.numpy())
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            dones[step] = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            observation, mask = _tensors(observations, info["action_mask"])
        with torch.no_grad():
            _, next_value = agent.distribution(observation, mask)
        advantages = torch.zeros((steps, envs))
        running = torch.zeros(envs)
        for step in reversed(range(steps)):
            # ``dones[step]``: the game ended with this step (the next observation is a new deal's).
            following = next_value if step == steps - 1 else values[step + 1]
            alive = 1.0 - dones[step]
            delta = rewards[step] + config.gamma * following * alive - values[step]
            running = delta + config.gamma * config.gae_lambda * alive * running
            advantages[step] = running
        returns = advantages + values
        _update(agent, optimizer, config, observations_buffer, masks_buffer, actions_buffer, log_probs, advantages, returns)
    vector.close()
    return updates * steps * envs


def _update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    config: Config,
    observations: torch.Tensor,
    masks: torch.Tensor,
    actions: torch.Tensor,
    old_log_probs: torch.Tensor,
    advantages: torch.Tensor,
    returns: torch.Tensor,
) -> None:
    """``config.epochs`` passes of clipped PPO over shuffled minibatches of one rollout."""
    batch = observations.shape[0] * observations.shape[1]
    flat = (
        observations.reshape(batch, -1),
        masks.reshape(batch, -1),
        actions.reshape(batch),
        old_log_probs.reshape(batch),
        advantages.reshape(batch),
        returns.reshape(batch),
    )
    size = batch // config.minibatches
    for _ in range(config.epochs):
        order = torch.randperm(batch)
        for start in range(0, batch, size):
            index = order[start : start + size]
            observation, mask, action, old_log_prob, advantage, target = (part[index] for part in flat)
            policy, value = agent.distribution(observation, mask)
            ratio = (policy.log_prob(action) - old_log_prob).exp()  # type: ignore[no-untyped-call]
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
            policy_loss = torch.max(-advantage * ratio, -advantage * ratio.clamp(1 - config.clip, 1 + config.clip)).mean()
            value_loss = 0.5 * ((value - target) ** 2).mean()
            entropy = policy.entropy().mean()  # type: ignore[no-untyped-call]
            loss = policy_loss + config.value_coef * value_loss - config.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), config.max_grad_norm)
            optimizer.step()


@dataclass
class Result:
    """Greedy win shares before training and after each phase (NaN against medium without a medium phase),
    the learner steps of each phase and the time taken."""

    before_random: float
    after_random: float
    before_medium: float
    after_medium: float
    random_steps: int
    medium_steps: int
    seconds: float


def run(random_updates: int, medium_updates: int, eval_games: int, config: Config | None = None, log: bool = True) -> Result:
    """Evaluate, train against random bots, evaluate, train against ``medium`` bots, evaluate."""
    config = config or Config()
    torch.manual_seed(config.seed)
    torch.use_deterministic_algorithms(True)
    agent = Agent(*_sizes(), config.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)
    started = time.perf_counter()

    def say(text: str) -> None:
        if log:
            print(f"[{time.perf_counter() - started:7.1f} s] {text}", flush=True)

    before_random = evaluate(agent, "random", eval_games)
    # Heuristic bots cost far more than random ones: evaluate against them only when a phase trains against them.
    before_medium = evaluate(agent, "medium", eval_games) if medium_updates else float("nan")
    say(f"before training: win share {before_random:.3f} against random, {before_medium:.3f} against medium")
    random_steps = train_phase(agent, optimizer, config, "random", random_updates, config.seed)
    after_random = evaluate(agent, "random", eval_games)
    say(f"after {random_steps:,} learner steps against random: win share {after_random:.3f} against random")
    medium_steps = train_phase(agent, optimizer, config, "medium", medium_updates, config.seed + 1)
    after_medium = evaluate(agent, "medium", eval_games) if medium_updates else float("nan")
    if medium_updates:
        say(
            f"after {medium_steps:,} more against medium: win share {after_medium:.3f} against medium (before training {before_medium:.3f})"
        )
    return Result(before_random, after_random, before_medium, after_medium, random_steps, medium_steps, time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random-updates", type=int, default=40, help="PPO updates against random bots")
    parser.add_argument("--medium-updates", type=int, default=30, help="PPO updates against medium bots, after")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--envs", type=int, default=Config.envs)
    parser.add_argument("--rollout", type=int, default=Config.rollout, help="steps per game and update")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    config = Config(envs=args.envs, rollout=args.rollout, seed=args.seed)
    result = run(args.random_updates, args.medium_updates, args.eval_games, config)
    print(
        f"greedy win share against random: {result.before_random:.3f} -> {result.after_random:.3f}; "
        f"against medium: {result.before_medium:.3f} -> {result.after_medium:.3f}; {result.seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
