"""The Gymnasium single-agent environment: check_env, masks, bots, rewards, illegal actions."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")  # the rl extra

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from greenlight.core.bot import RandomBot
from greenlight.core.errors import IllegalActionError
from greenlight.core.record import replay
from greenlight.core.registry import get_game
from greenlight.rl import gym_env
from greenlight.rl.single_agent import GreenlightGymEnv, gym_id, register_gym_envs
from tests.rl.helpers import encoded_games


def _messages(caught: list[warnings.WarningMessage]) -> set[str]:
    return {str(warning.message) for warning in caught}


@pytest.mark.parametrize("game_id", [game.spec.id for game in encoded_games()])
def test_check_env_on_the_registered_env(game_id: str) -> None:
    register_gym_envs()
    env = gymnasium.make(gym_id(get_game(game_id)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert _messages(caught) == set()


def test_check_env_on_a_directly_built_env() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym_env("cinecitta", seat=2, opponents=["random", "heuristic", "random"]))
    # Without a registry spec, check_env cannot build the other render modes and says so; nothing else.
    assert len(caught) == 1
    assert "Not able to test alternative render modes" in str(caught[0].message)


def _play(env: GreenlightGymEnv, seed: int, policy_seed: int) -> tuple[float, dict[str, object]]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    total = 0.0
    while True:
        mask = info["action_mask"]
        assert isinstance(mask, np.ndarray)
        np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
        assert env.observation_space.contains(observation)
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        assert truncated is False
        if terminated:
            return total, info


def test_mask_is_the_learners_legal_codes() -> None:
    env = gym_env("cinecitta", seat=1, opponents=["random", "random"])
    _observation, info = env.reset(seed=8)
    assert env.game_state is not None
    codes = env.game.legal_action_codes(env.game_state, 1)
    assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(codes)
    assert info["action_mask"].dtype == np.int8


def test_episode_reward_is_the_learners_win_share_and_the_record_replays() -> None:
    env = gym_env("cinecitta", seat=0, opponents=["heuristic", "random"])
    total, info = _play(env, seed=3, policy_seed=4)
    assert env.game_state is not None
    outcome = env.game.outcome(env.game_state)
    assert total == outcome.returns()[0]
    assert info["win_share"] == outcome.returns()[0]
    assert info["rank"] == outcome.ranks[0]
    assert replay(env.record()) == env.game_state


def test_shaped_episode_sums_to_the_win_share() -> None:
    env = gym_env("cinecitta", seat=0, opponents=["random", "random"], shaping=True)
    total, info = _play(env, seed=3, policy_seed=4)
    assert total == pytest.approx(info["win_share"], abs=1e-9)


def test_reset_with_a_seed_replays_the_same_game_with_the_same_bots() -> None:
    env = gym_env("cinecitta", seat=1, opponents=["heuristic", "random", "random"])
    _play(env, seed=17, policy_seed=1)
    first = env.record()
    _play(env, seed=17, policy_seed=1)
    assert env.record() == first
    _play(env, seed=18, policy_seed=1)
    assert env.record() != first


def test_bot_objects_can_be_given_directly() -> None:
    first, second = RandomBot(1), RandomBot(2)
    env = gym_env("cinecitta", seat=1, opponents=[first, second])
    total, _info = _play(env, seed=5, policy_seed=5)
    assert env._bots == {0: first, 2: second}
    assert total in (0.0, 1.0, 0.5, 1 / 3)


def test_illegal_action_loses_by_default_and_raises_on_request() -> None:
    env = gym_env("cinecitta", seat=0, opponents=["random", "random"])
    _observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(illegal)
    strict = gym_env("cinecitta", seat=0, opponents=["random", "random"], illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_seat_must_exist() -> None:
    with pytest.raises(ValueError, match="seat must be between 0 and 2"):
        gym_env("cinecitta", seat=3, opponents=["random", "random"])
