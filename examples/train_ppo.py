"""Train a masked PPO policy (PyTorch) for any Greenlight game: against fixed bots, by self-play, or both.

A CleanRL-style single file. The learner plays through Gymnasium's
``SyncVectorEnv`` over ``greenlight.rl.gym_env`` (several games at once,
``autoreset_mode=SAME_STEP`` so every row of ``info["action_mask"]`` always
belongs to a live game). Game ``i`` of the vector puts the learner in seat
``i mod players``, so one policy learns every seat. The policy is a masked
categorical: an MLP scores every action code of the game, the codes the mask
rules out get a logit of -1e9, and actions are sampled from the softmax over
the rest. PPO as in CleanRL: rollouts of ``--rollout`` steps per game,
generalised advantage estimation, ``--epochs`` passes of clipped policy and
value updates over minibatches. The policy sees only what the Gym env gives
its seat (the observation vector and the action mask).

Reward: the learner's win share at the end of each game (1/k for each of k
tied winners), plus the game's default potential-based shaping (it sums to
zero over a game, so the best policy does not change) to make the sparse
reward easier to learn.

Phases, in order, each skipped when its count is 0:

* ``--random-updates`` against ``random`` bots;
* ``--medium-updates`` against ``medium`` bots (the game's heuristic);
* ``--selfplay-updates`` against snapshots of the learner itself: the
  opponents of each game are drawn from a pool of the last ``--pool``
  snapshots (one is taken every ``--snapshot-every`` updates; the pool starts
  with the policy as the phase begins), fictitious-play style. Opponent
  snapshots play greedily from the same observation and mask their seat
  would get from the Gym env (:class:`PolicyBot`).

Before training and after each phase the script prints the win share of the
greedy policy (the most likely legal action) over a fixed set of evaluation
deals, disjoint from the training deals; a random player wins about
1/players against random bots. Everything is seeded: a run on the CPU repeats
exactly. ``--device auto`` (the default) trains on CUDA when
``torch.cuda.is_available()``, else on the CPU. ``--save PATH`` writes the
greedy policy as a TorchScript file (``greenlight.rl.policy_file``'s
contract: ``forward(observation [B, obs], mask [B, A]) -> logits [B, A]``).

    pip install -e '.[rl,train]'
    python examples/train_ppo.py                                   # Cinecitta, 3 players: 40 updates against random, 30 against medium
    python examples/train_ppo.py --random-updates 20 --medium-updates 0 --eval-games 120
    python examples/train_ppo.py --game movie-empire --random-updates 0 --medium-updates 0 --selfplay-updates 40 --save me.pt
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from torch import nn
from torch.distributions import Categorical

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.registry import get_game
from greenlight.rl import gym_env
from greenlight.rl.observer import SeatObserver

#: Evaluation deals start here, far from the training deals (which start at the seed).
EVAL_SEED = 1_000_000


@dataclass
class Config:
    """Hyper-parameters (CleanRL's PPO defaults, sized for a CPU) and the game."""

    game: str = "cinecitta"
    players: int = 3
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
    device: str = "auto"
    #: Self-play: snapshots kept in the opponent pool, and updates between snapshots.
    pool: int = 5
    snapshot_every: int = 5


def pick_device(name: str) -> torch.device:
    """``auto``: CUDA when available, else the CPU; any other name as torch reads it."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


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


class PolicyNet(nn.Module):
    """The policy alone, as saved: ``forward(observation float32 [B, obs], mask [B, A]) -> logits [B, A]``
    (illegal codes at -1e9; the greedy move is the argmax)."""

    def __init__(self, agent: Agent) -> None:
        super().__init__()
        self.body = copy.deepcopy(agent.body).cpu()
        self.policy = copy.deepcopy(agent.policy).cpu()

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Masked logits (any nonzero mask entry is legal)."""
        return self.policy(self.body(observation)).masked_fill(mask == 0, -1e9)


class PolicyBot(Bot):
    """A policy network as a Greenlight bot: it picks the greedy legal code from its seat's observation and mask.

    The vector and the mask come from :class:`SeatObserver`, exactly what the
    Gym env hands the learner for that seat (no hidden state). A game whose
    actions are picked a card at a time (Movie Empire) is played through to a
    whole action within one ``choose``. ``pool`` (a list that may grow) gives
    the snapshots: a new one is drawn from it at every new game.
    """

    def __init__(self, pool: Sequence[nn.Module], seed: int, name: str = "policy") -> None:
        super().__init__(seed)
        self.pool = pool
        self.name = name
        self._net: nn.Module | None = None
        self._game_state: object = None
        self._observer: SeatObserver | None = None

    def choose(self, view: SeatView) -> Action:
        """The policy's greedy move (a whole action, however many picks it takes)."""
        state = view._state  # the observer encodes the seat's own observation of it, as the Gym env does
        if state is not self._game_state or self._net is None or self._observer is None:
            self._game_state = state
            self._net = self.pool[self.rng.randrange(len(self.pool))]
            players = view.num_players
            self._observer = SeatObserver(view.game, players, view.game.spec.resolve_options(players, None))
            self._observer.new_game()
        observer, net = self._observer, self._net
        observer.changed()
        with torch.no_grad():
            while True:
                observation = torch.as_tensor(observer.observation(state, view.seat)).unsqueeze(0)
                mask = torch.as_tensor(observer.mask(state, view.seat).astype(bool)).unsqueeze(0)
                code = int(net(observation, mask).argmax(dim=-1).item())
                chosen = observer.action(state, view.seat, code)
                observer.changed()
                if chosen is not None:
                    return chosen


Opponents = Callable[[int], list[Any]]


def make_envs(config: Config, opponents: Opponents, count: int) -> SyncVectorEnv:
    """``count`` games, game ``i`` with the learner in seat ``i mod players`` against ``opponents(i)``."""

    def builder(index: int) -> Callable[[], gymnasium.Env[Any, Any]]:
        return lambda: gym_env(config.game, seat=index % config.players, opponents=opponents(index), shaping=True)

    return SyncVectorEnv([builder(index) for index in range(count)], autoreset_mode=AutoresetMode.SAME_STEP)


def named(opponent: str, players: int) -> Opponents:
    """Every opponent seat a ``opponent`` bot."""
    return lambda _index: [opponent] * (players - 1)


def sizes(game: str, players: int) -> tuple[int, int]:
    """The observation size and the number of action codes of the game."""
    probe = gym_env(game, seat=0, opponents=["random"] * (players - 1))
    return int(probe.observation_space.shape[0]), int(probe.action_space.n)


def _tensors(observations: np.ndarray[Any, Any], masks: np.ndarray[Any, Any], device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.as_tensor(observations, device=device), torch.as_tensor(masks.astype(bool), device=device)


def evaluate(agent: Agent, config: Config, opponent: str, games: int, envs: int | None = None) -> float:
    """Mean win share of the greedy policy over ``games`` evaluation deals against ``opponent`` bots (seats rotating)."""
    device = next(agent.parameters()).device
    vector = make_envs(config, named(opponent, config.players), envs or config.players * 3)
    shares: list[float] = []
    observations, info = vector.reset(seed=EVAL_SEED)
    with torch.no_grad():
        while len(shares) < games:
            policy, _ = agent.distribution(*_tensors(observations, info["action_mask"], device))
            actions = policy.probs.argmax(dim=-1).cpu().numpy()
            observations, _rewards, terminated, _truncated, info = vector.step(actions)
            if terminated.any():
                final = info["final_info"]
                shares += [float(share) for share, done in zip(final["win_share"], final["_win_share"], strict=True) if done]
    vector.close()
    return float(np.mean(shares[:games]))


def train_phase(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    config: Config,
    opponents: Opponents,
    updates: int,
    seed: int,
    after_update: Callable[[int], None] | None = None,
) -> int:
    """PPO against ``opponents`` for ``updates`` rollouts (``after_update(n)`` after the n-th); return the learner steps."""
    device = next(agent.parameters()).device
    vector = make_envs(config, opponents, config.envs)
    size, codes = sizes(config.game, config.players)
    steps, envs = config.rollout, config.envs
    observations_buffer = torch.zeros((steps, envs, size), device=device)
    masks_buffer = torch.zeros((steps, envs, codes), dtype=torch.bool, device=device)
    actions_buffer = torch.zeros((steps, envs), dtype=torch.long, device=device)
    log_probs = torch.zeros((steps, envs), device=device)
    rewards = torch.zeros((steps, envs), device=device)
    dones = torch.zeros((steps, envs), device=device)
    values = torch.zeros((steps, envs), device=device)
    observations, info = vector.reset(seed=seed)
    observation, mask = _tensors(observations, info["action_mask"], device)
    for update in range(updates):
        for step in range(steps):
            observations_buffer[step], masks_buffer[step] = observation, mask
            with torch.no_grad():
                policy, value = agent.distribution(observation, mask)
                action = policy.sample()  # type: ignore[no-untyped-call]
            actions_buffer[step], log_probs[step], values[step] = action, policy.log_prob(action), value  # type: ignore[no-untyped-call]
            observations, reward, terminated, truncated, info = vector.step(action.cpu().numpy())
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
            dones[step] = torch.as_tensor(terminated | truncated, dtype=torch.float32, device=device)
            observation, mask = _tensors(observations, info["action_mask"], device)
        with torch.no_grad():
            _, next_value = agent.distribution(observation, mask)
        advantages = torch.zeros((steps, envs), device=device)
        running = torch.zeros(envs, device=device)
        for step in reversed(range(steps)):
            # ``dones[step]``: the game ended with this step (the next observation is a new deal's).
            following = next_value if step == steps - 1 else values[step + 1]
            alive = 1.0 - dones[step]
            delta = rewards[step] + config.gamma * following * alive - values[step]
            running = delta + config.gamma * config.gae_lambda * alive * running
            advantages[step] = running
        returns = advantages + values
        _update(agent, optimizer, config, observations_buffer, masks_buffer, actions_buffer, log_probs, advantages, returns)
        if after_update is not None:
            after_update(update + 1)
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
        order = torch.randperm(batch).to(observations.device)
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


def selfplay_phase(agent: Agent, optimizer: torch.optim.Optimizer, config: Config, updates: int, seed: int) -> int:
    """PPO against a pool of the learner's own past snapshots (see the module docstring); return the learner steps."""
    pool: list[nn.Module] = [PolicyNet(agent).eval()]

    def snapshot(done: int) -> None:
        if done % config.snapshot_every == 0:
            pool.append(PolicyNet(agent).eval())
            del pool[: -config.pool]

    # One bot per opponent seat of each game, all drawing from the same (growing) pool; seeded for a repeatable run.
    bots = [[PolicyBot(pool, seed=seed * 1000 + index * 10 + seat) for seat in range(config.players - 1)] for index in range(config.envs)]
    return train_phase(agent, optimizer, config, lambda index: list(bots[index]), updates, seed, after_update=snapshot)


@dataclass
class Result:
    """Greedy win shares before training and after each phase (NaN where not measured), the learner steps of each
    phase, the time taken (wall and CPU seconds of this process) and the trained agent."""

    before_random: float
    after_random: float
    before_medium: float
    after_medium: float
    random_steps: int
    medium_steps: int
    seconds: float
    selfplay_steps: int = 0
    cpu_seconds: float = 0.0
    agent: Agent | None = field(default=None, repr=False)


def run(
    random_updates: int,
    medium_updates: int,
    eval_games: int,
    config: Config | None = None,
    log: bool = True,
    selfplay_updates: int = 0,
) -> Result:
    """Evaluate, train against random bots, against ``medium`` bots, by self-play, evaluating after each phase."""
    config = config or Config()
    device = pick_device(config.device)
    torch.manual_seed(config.seed)
    random.seed(config.seed)
    if device.type == "cpu":
        torch.use_deterministic_algorithms(True)
    agent = Agent(*sizes(config.game, config.players), config.hidden).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)
    started, cpu_started = time.perf_counter(), time.process_time()

    def say(text: str) -> None:
        if log:
            print(f"[{time.perf_counter() - started:7.1f} s] {text}", flush=True)

    nan = float("nan")
    before_random = evaluate(agent, config, "random", eval_games) if eval_games else nan
    # Heuristic bots cost far more than random ones: evaluate against them only when a phase trains against them.
    before_medium = evaluate(agent, config, "medium", eval_games) if medium_updates and eval_games else nan
    say(
        f"{config.game}, {config.players} players on {device}: "
        f"win share {before_random:.3f} against random, {before_medium:.3f} against medium"
    )
    random_steps = train_phase(agent, optimizer, config, named("random", config.players), random_updates, config.seed)
    after_random = evaluate(agent, config, "random", eval_games) if eval_games else nan
    say(f"after {random_steps:,} learner steps against random: win share {after_random:.3f} against random")
    medium_steps = train_phase(agent, optimizer, config, named("medium", config.players), medium_updates, config.seed + 1)
    after_medium = evaluate(agent, config, "medium", eval_games) if medium_updates and eval_games else nan
    if medium_updates:
        say(f"after {medium_steps:,} more against medium: win share {after_medium:.3f} against medium (before {before_medium:.3f})")
    selfplay_steps = selfplay_phase(agent, optimizer, config, selfplay_updates, config.seed + 2) if selfplay_updates else 0
    if selfplay_updates:
        after_random = evaluate(agent, config, "random", eval_games) if eval_games else nan
        say(f"after {selfplay_steps:,} more by self-play: win share {after_random:.3f} against random")
    return Result(
        before_random,
        after_random,
        before_medium,
        after_medium,
        random_steps,
        medium_steps,
        time.perf_counter() - started,
        selfplay_steps=selfplay_steps,
        cpu_seconds=time.process_time() - cpu_started,
        agent=agent,
    )


def save(agent: Agent, path: str, config: Config, note: str = "") -> None:
    """Write the greedy policy as TorchScript: through ``greenlight.rl.policy_file.save_policy`` when installed."""
    net = PolicyNet(agent).eval()
    try:
        from greenlight.rl.policy_file import save_policy  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        torch.jit.script(net).save(path)  # the same module contract, without the file's game metadata
        return
    save_policy(net, path, game=config.game, players=config.players, note=note)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=Config.game, help="cinecitta, maybe-movies or movie-empire")
    parser.add_argument("--players", type=int, default=0, help="player count (default: the game's smallest)")
    parser.add_argument("--random-updates", type=int, default=40, help="PPO updates against random bots")
    parser.add_argument("--medium-updates", type=int, default=30, help="PPO updates against medium bots, after")
    parser.add_argument("--selfplay-updates", type=int, default=0, help="PPO updates by self-play, after")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--envs", type=int, default=Config.envs)
    parser.add_argument("--rollout", type=int, default=Config.rollout, help="steps per game and update")
    parser.add_argument("--hidden", type=int, default=Config.hidden, help="width of the two hidden layers")
    parser.add_argument("--pool", type=int, default=Config.pool, help="self-play: snapshots in the opponent pool")
    parser.add_argument("--snapshot-every", type=int, default=Config.snapshot_every, help="self-play: updates between snapshots")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto (CUDA when available, else CPU), cpu, cuda, cuda:1, ...")
    parser.add_argument("--save", default="", metavar="PATH", help="write the trained greedy policy (TorchScript) here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    players = args.players or get_game(args.game).spec.min_players
    config = Config(
        game=args.game,
        players=players,
        envs=args.envs,
        rollout=args.rollout,
        hidden=args.hidden,
        seed=args.seed,
        device=args.device,
        pool=args.pool,
        snapshot_every=args.snapshot_every,
    )
    result = run(args.random_updates, args.medium_updates, args.eval_games, config, selfplay_updates=args.selfplay_updates)
    # A phase that did not run (no medium updates, no evaluation games) has no figure to show: it is left out.
    shares = [
        f"against {opponent}: {before:.3f} -> {after:.3f}"
        for opponent, before, after in (
            ("random", result.before_random, result.after_random),
            ("medium", result.before_medium, result.after_medium),
        )
        if not math.isnan(after)
    ]
    evaluated = "; ".join(shares) or "not evaluated (--eval-games 0)"
    print(f"greedy win share {evaluated}; {result.seconds:.0f} s wall, {result.cpu_seconds:.0f} s CPU")
    if args.save and result.agent is not None:
        save(result.agent, args.save, config, note=f"examples/train_ppo.py seed {args.seed}")
        print(f"policy saved to {args.save}")


if __name__ == "__main__":
    main()
