"""RL-layer benchmark: env steps per second, and search iterations per second of two ISMCTS bots.

Everything runs in one process on one game and player count, so the figures
are comparable with each other:

* **engine**: random playouts straight on the engine (apply + legal actions), for reference;
* **pettingzoo**: AEC env, masked random actions (every step encodes an observation and builds a mask);
* **gymnasium**: single-agent env against random bots (learner steps; bot moves counted separately);
* **openspiel**: the adapter's ``apply_action`` with random legal codes (no observation);
* **search**: iterations per second at the first decision of several deals, seat 0, for
  OpenSpiel's Python ``ISMCTSBot`` through the adapter (random rollouts to the end, ``determinize``
  resampler) and Greenlight's own ``greenlight.bots.ismcts.ISMCTSBot`` with the same kind of
  rollouts, then with the settings of its ``hard`` level.

    python bench/bench_rl.py --game cinecitta --players 3
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from greenlight.core.bot import SeatView
from greenlight.core.registry import get_game
from greenlight.rl import gym_env, openspiel_game, pettingzoo_env
from greenlight.rl.openspiel import ismcts_bot


def _timed(work: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Repeat ``work`` (returning a count) until ``seconds`` have passed; return (count, elapsed)."""
    count = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        count += work()
    return count, time.perf_counter() - started


def bench_engine(game_id: str, players: int, seconds: float) -> dict[str, float]:
    game = get_game(game_id)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def playout() -> int:
        state = game.new_state(players, next(seeds))
        actions = 0
        while players_to_act := game.decision(state).players:
            seat = players_to_act[0]
            game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
            actions += 1
        return actions

    actions, elapsed = _timed(playout, seconds)
    return {"actions/s": actions / elapsed}


def bench_pettingzoo(game_id: str, players: int, seconds: float) -> dict[str, float]:
    env = pettingzoo_env(game_id, players, seed=0)
    rng = np.random.default_rng(0)
    games = 0

    def episode() -> int:
        nonlocal games
        env.reset()
        steps = 0
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        games += 1
        return steps

    steps, elapsed = _timed(episode, seconds)
    return {"steps/s": steps / elapsed, "games/s": games / elapsed}


def bench_gymnasium(game_id: str, players: int, seconds: float) -> dict[str, float]:
    env = gym_env(game_id, seat=0, opponents=["random"] * (players - 1))
    rng = np.random.default_rng(0)
    games = 0
    seeds = iter(range(10**9))

    def episode() -> int:
        nonlocal games
        _observation, info = env.reset(seed=next(seeds))
        steps = 0
        terminated = False
        while not terminated:
            _observation, _reward, terminated, _truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        games += 1
        return steps

    steps, elapsed = _timed(episode, seconds)
    return {"learner steps/s": steps / elapsed, "games/s": games / elapsed}


def bench_openspiel(game_id: str, players: int, seconds: float) -> dict[str, float]:
    game = openspiel_game(game_id, players)
    rng = random.Random(0)
    games = 0
    deals = iter(range(10**9))

    def episode() -> int:
        nonlocal games
        state = game.new_initial_state()
        state.apply_action(next(deals) % game.max_chance_outcomes())
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
        return steps

    steps, elapsed = _timed(episode, seconds)
    return {"steps/s": steps / elapsed, "games/s": games / elapsed}


def bench_search(game_id: str, players: int, iterations: int, positions: int) -> dict[str, dict[str, float]]:
    """Iterations per second of each search bot at the first decision of ``positions`` deals."""
    results: dict[str, dict[str, float]] = {}
    spiel = openspiel_game(game_id, players)
    elapsed = 0.0
    for deal in range(positions):
        state = spiel.new_initial_state()
        state.apply_action(deal)
        bot = ismcts_bot(spiel, simulations=iterations, seed=deal)
        started = time.perf_counter()
        bot.step(state)
        elapsed += time.perf_counter() - started
    results["openspiel ISMCTSBot (python, random rollouts)"] = {"iterations/s": iterations * positions / elapsed}

    try:
        from greenlight.bots.ismcts import ISMCTSBot, SearchConfig
        from greenlight.bots.levels import hard_search
    except ImportError:  # the search bot is not in this checkout
        return results
    game = get_game(game_id)
    configs: dict[str, Any] = {
        "greenlight ISMCTSBot (random rollouts)": SearchConfig(iterations=iterations, rollout="random", rollout_epsilon=0.0)
    }
    hard = hard_search(game)
    if hard is not None:
        configs["greenlight hard level (heuristic rollouts, its settings)"] = SearchConfig(
            iterations=iterations,
            rollout=hard.rollout,
            rollout_epsilon=hard.rollout_epsilon,
            rollout_depth=hard.rollout_depth,
            exploration=hard.exploration,
            widening=hard.widening,
            widening_power=hard.widening_power,
        )
    for label, config in configs.items():
        done = 0
        seconds = 0.0
        for deal in range(positions):
            state = game.new_state(players, deal)
            bot = ISMCTSBot(seed=deal, config=config)
            bot.choose(SeatView(game, state, 0))
            done += bot.last_stats.iterations
            seconds += bot.last_stats.seconds
        results[label] = {"iterations/s": done / seconds}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cinecitta")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0, help="time per env measurement")
    parser.add_argument("--iterations", type=int, default=300, help="search iterations per position")
    parser.add_argument("--positions", type=int, default=5, help="deals searched per bot")
    args = parser.parse_args()
    print(f"# bench_rl: {args.game}, {args.players} players; Python {platform.python_version()} on {platform.machine()}")
    rows: list[tuple[str, str, float]] = []
    for label, bench in (
        ("engine", bench_engine),
        ("pettingzoo", bench_pettingzoo),
        ("gymnasium", bench_gymnasium),
        ("openspiel", bench_openspiel),
    ):
        for unit, value in bench(args.game, args.players, args.seconds).items():
            rows.append((label, unit, value))
    for label, figures in bench_search(args.game, args.players, args.iterations, args.positions).items():
        for unit, value in figures.items():
            rows.append((label, unit, value))
    print("| measurement | unit | value |")
    print("|---|---|---|")
    for label, unit, value in rows:
        print(f"| {label} | {unit} | {value:,.0f} |" if value >= 100 else f"| {label} | {unit} | {value:,.1f} |")


if __name__ == "__main__":
    main()
