"""PettingZoo Parallel environments: the official parallel API test, simultaneous steps at once, records."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")  # the rl extra
pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test

from greenlight.core.record import replay
from greenlight.core.registry import get_game
from greenlight.rl import pettingzoo_parallel_env
from greenlight.rl.parallel import GreenlightParallelEnv
from tests.rl.helpers import game_counts


def _play(env: GreenlightParallelEnv, seed: int) -> tuple[dict[str, float], int, int]:
    """Masked random codes for the acting agents to the end: (reward totals, steps, steps with several actors)."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = together = 0
    while env.agents:
        acting = [agent for agent in env.agents if observations[agent]["action_mask"].any()]
        assert acting == env.acting()
        together += len(acting) > 1
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in acting}
        observations, rewards, _terminations, _truncations, _ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        steps += 1
    return totals, steps, together


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_parallel_api_test(game_id: str, num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(pettingzoo_parallel_env(game_id, num_players, seed=num_players), num_cycles=400)


@pytest.mark.parametrize(("game_id", "num_players"), [("cinecitta", 3), ("maybe-movies", 4), ("movie-empire", 2)])
def test_every_committing_seat_acts_in_one_step_and_the_game_replays(game_id: str, num_players: int) -> None:
    # Every game has simultaneous steps: offers, votes, the scripts kept at setup.
    env = pettingzoo_parallel_env(game_id, num_players, seed=3)
    totals, steps, together = _play(env, 3)
    assert together > 0
    assert sum(totals.values()) == pytest.approx(1.0), "the win shares of a finished game add up to one"
    record = env.record()
    assert len(record.actions) >= steps + together
    game = get_game(game_id)
    assert game.outcome(replay(record)).returns() == tuple(totals[agent] for agent in env.possible_agents)


def test_a_seat_that_does_not_act_is_ignored_and_a_missing_actor_is_refused() -> None:
    env = pettingzoo_parallel_env("movie-empire", 2, seed=1)
    observations, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    while len(env.acting()) != 1:  # reach a turn of one seat
        acting = env.acting()
        observations, *_ = env.step({agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in acting})
    [mover] = env.acting()
    idle = next(agent for agent in env.possible_agents if agent != mover)
    assert not observations[idle]["action_mask"].any()
    with pytest.raises(ValueError, match=f"{mover} must act in this step"):
        env.step({idle: 0})
    before = len(env.record().actions)
    env.step({mover: int(np.flatnonzero(observations[mover]["action_mask"])[0]), idle: 12345})
    assert len(env.record().actions) == before + 1
