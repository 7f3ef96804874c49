"""PettingZoo's remaining checks, the global state, illegal-action modes, truncation, pickling and Gymnasium ids.

PettingZoo ships ``api_test``, ``parallel_api_test`` and ``seed_test`` (in
``test_pettingzoo.py`` and ``test_parallel.py``), and the checks below:
``parallel_seed_test``, ``max_cycles_test``, ``state_test`` and
``render_test``, each for every game and player count. The others do not
apply: ``test_save_obs`` is for image observations, ``manual_control_test``
for keyboard games, ``bombardment_test`` reads ``.shape`` of the first
observation and so takes only array observations (not the
``Dict(observation, action_mask)`` of PettingZoo's own card and board games),
and ``performance_benchmark`` measures rather than checks
(``bench/bench_rl.py`` does that).
"""

from __future__ import annotations

import copy
import pickle
import types
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")  # the rl extra
pytest.importorskip("pettingzoo")

import gymnasium
from pettingzoo.test import max_cycles_test, parallel_seed_test, render_test, state_test
from pettingzoo.utils.conversions import parallel_to_aec

from greenlight.core.errors import IllegalActionError
from greenlight.core.record import replay
from greenlight.rl import gym_env, pettingzoo_env, pettingzoo_parallel_env
from greenlight.rl.multi_agent import GreenlightAECEnv
from greenlight.rl.parallel import GreenlightParallelEnv
from tests.rl.helpers import game_counts


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_parallel_seed_test_with_unmasked_actions_ignored(game_id: str, num_players: int) -> None:
    # parallel_seed_test samples codes without the mask: with illegal_action="ignore" an illegal code costs a penalty
    # and changes nothing, so two envs with the same seed must still agree step for step.
    parallel_seed_test(lambda: pettingzoo_parallel_env(game_id, num_players, seed=7, illegal_action="ignore"), num_cycles=60)


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_max_cycles_test(game_id: str, num_players: int) -> None:
    # PettingZoo's test counts one step per agent per cycle: the AEC form of the Parallel env (parallel_to_aec) steps
    # that way. Greenlight's own AEC env steps only the seats that act; its truncation is checked below.
    def parallel(max_cycles: int) -> GreenlightParallelEnv:
        return pettingzoo_parallel_env(game_id, num_players, seed=3, illegal_action="ignore", max_cycles=max_cycles)

    max_cycles_test(types.SimpleNamespace(parallel_env=parallel, env=lambda max_cycles: parallel_to_aec(parallel(max_cycles))))


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_state_and_render_tests(game_id: str, num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observations and all-zero masks of waiting seats (see test_pettingzoo)
        state_test(
            pettingzoo_env(game_id, num_players, seed=1, illegal_action="ignore"), pettingzoo_parallel_env(game_id, num_players, seed=1)
        )
        render_test(lambda render_mode=None: pettingzoo_env(game_id, num_players, seed=2, render_mode=render_mode))


def _masked_step(env: GreenlightAECEnv, rng: Any) -> None:
    _observation, _reward, terminated, truncated, _info = env.last()
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize(("game_id", "num_players"), [("cinecitta", 4), ("maybe-movies", 3), ("movie-empire", 2)])
def test_the_aec_env_truncates_after_the_cycles_of_the_parallel_env(game_id: str, num_players: int) -> None:
    # The same masked random choices in both envs: truncated after the same actions, every agent at once.
    aec = pettingzoo_env(game_id, num_players, seed=5, max_cycles=12)
    parallel = pettingzoo_parallel_env(game_id, num_players, seed=5, max_cycles=12)
    aec.reset(seed=5)
    observations, _ = parallel.reset(seed=5)
    rng = np.random.default_rng(0)
    steps = 0
    while parallel.agents:
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in parallel.acting()}
        for agent in parallel.acting():
            assert aec.agent_selection == agent
            aec.step(actions[agent])
        observations, _rewards, _terminations, truncations, _infos = parallel.step(actions)
        steps += 1
    assert steps == 12 and all(truncations.values())
    assert aec.record() == parallel.record()
    assert all(aec.truncations.values()) and not any(aec.terminations.values())
    for _ in aec.agent_iter():  # the truncated agents leave with a None step each
        aec.step(None)
    assert aec.agents == []


def test_global_state_is_every_seats_observation() -> None:
    env = pettingzoo_env("maybe-movies", 4, seed=2)
    env.reset()
    state = env.state()
    assert env.state_space.shape == state.shape == (4 * env.observer.size,)
    assert env.state_space.contains(state)
    for seat, agent in enumerate(env.possible_agents):
        np.testing.assert_array_equal(state[seat * env.observer.size : (seat + 1) * env.observer.size], env.observe(agent)["observation"])
    state[:] = 0.5
    assert not np.array_equal(env.state(), state), "state() hands out a new array"
    parallel = pettingzoo_parallel_env("movie-empire", 3, seed=2)
    parallel.reset()
    assert parallel.state().shape == parallel.state_space.shape


@pytest.mark.parametrize("mode", ["lose", "ignore"])
def test_illegal_codes_lose_or_are_ignored(mode: str) -> None:
    env = pettingzoo_env("cinecitta", 3, seed=4, illegal_action=mode, illegal_reward=-2.0)
    env.reset()
    mask = env.observe("player_0")["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.record().actions == []
    if mode == "lose":
        assert all(env.terminations.values())
        assert env._cumulative_rewards == {"player_0": -2.0, "player_1": 0.0, "player_2": 0.0}
        assert env.infos["player_0"] == {"illegal_action": True}
    else:
        assert not any(env.terminations.values())
        assert env._cumulative_rewards["player_0"] == -2.0
        # The cycle goes on (player_1, player_2), then player_0 is asked again; legal codes are played as usual.
        assert env.agent_selection == "player_1"
        for _ in range(3):
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        assert [seat for seat, _action in env.record().actions] == [1, 2, 0]
    parallel = pettingzoo_parallel_env("cinecitta", 3, seed=4, illegal_action=mode)
    observations, _ = parallel.reset()
    actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in parallel.agents}
    actions["player_1"] = int(np.flatnonzero(observations["player_1"]["action_mask"] == 0)[0])
    _observations, rewards, terminations, _truncations, infos = parallel.step(actions)
    assert rewards["player_1"] == -1.0 and infos["player_1"]["illegal_action"]
    if mode == "lose":
        assert all(terminations.values()) and parallel.agents == [] and parallel.record().actions == []
    else:
        assert [seat for seat, _action in parallel.record().actions] == [0, 2] and parallel.acting() == ["player_1"]
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        pettingzoo_env("cinecitta", 3, illegal_action="shrug")


def test_an_illegal_code_in_a_parallel_step_changes_nothing_by_default() -> None:
    env = pettingzoo_parallel_env("movie-empire", 3, seed=1, options={"shoot_a_short": True})
    observations, _ = env.reset()
    # Shoot a Short: each seat keeps 2 scripts, picked one card at a time. A legal pick by player_0 and an illegal
    # code by player_1 in one step: the step raises and player_0's pick is forgotten too.
    actions = {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in env.agents}
    actions["player_1"] = 0
    with pytest.raises(IllegalActionError):
        env.step(actions)
    assert env.observer.picks.prefixes == [None, None, None]


def _play_some(env: Any, steps: int, rng: Any) -> None:
    for _ in range(steps):
        _masked_step(env, rng)


@pytest.mark.parametrize(("game_id", "num_players"), [("cinecitta", 3), ("maybe-movies", 4), ("movie-empire", 3)])
def test_aec_envs_pickle_and_copy_mid_game(game_id: str, num_players: int) -> None:
    env = pettingzoo_env(game_id, num_players, seed=9, options={"shoot_a_short": True} if game_id == "movie-empire" else None)
    env.reset(seed=9)
    _play_some(env, 7, np.random.default_rng(1))
    for how in ("pickle", "deepcopy"):
        twin: GreenlightAECEnv = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)
        assert twin.observe(twin.agent_selection)["observation"] is not env.observe(env.agent_selection)["observation"]
        np.testing.assert_array_equal(twin.state(), env.state())
        # Both go on alike, and neither touches the other's arrays.
        first, second = np.random.default_rng(2), np.random.default_rng(2)
        for _ in range(30):
            if not env.agents:
                break
            _masked_step(env, first)
            _masked_step(twin, second)
            np.testing.assert_array_equal(
                twin.observe(twin.agent_selection)["observation"], env.observe(env.agent_selection)["observation"]
            )
        assert twin.record() == env.record()
        env = twin


def test_parallel_and_gym_envs_pickle_mid_game() -> None:
    parallel = pettingzoo_parallel_env("maybe-movies", 3, seed=3)
    observations, _ = parallel.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        observations, *_ = parallel.step({a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in parallel.acting()})
    twin = pickle.loads(pickle.dumps(parallel))
    assert twin.record() == parallel.record() and twin.acting() == parallel.acting()
    np.testing.assert_array_equal(twin.state(), parallel.state())
    gym = gym_env("movie-empire", seat=1, opponents=["heuristic", "random"])
    _observation, info = gym.reset(seed=4)
    for _ in range(6):
        _observation, _reward, _terminated, _truncated, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    again = pickle.loads(pickle.dumps(gym))
    assert again.game_state == gym.game_state
    code = int(np.flatnonzero(info["action_mask"])[-1])
    one, two = gym.step(code), again.step(code)
    np.testing.assert_array_equal(one[0], two[0])
    assert again.record() == gym.record()
    assert replay(gym.record()) == gym.game_state


def test_gymnasium_ids_are_registered_on_import() -> None:
    ids = [name for name in gymnasium.registry if name.startswith("greenlight/")]
    assert {"greenlight/cinecitta-v1", "greenlight/maybe-movies-v1", "greenlight/movie-empire-v1"} <= set(ids)
    env = gymnasium.make("greenlight/maybe-movies-v1", opponents=["heuristic", "random", "random"], max_episode_steps=5)
    _observation, info = env.reset(seed=1)
    truncated = terminated = False
    steps = 0
    while not (terminated or truncated):
        _observation, _reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    assert steps == 5 and truncated
    with pytest.raises(ValueError, match="earlier version of this interface"):
        pettingzoo_env("cinecitta_v0", 3)
