"""PettingZoo AEC environments: the official API and seed tests, rewards, hidden commitments."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")  # the rl extra

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from greenlight.core.errors import IllegalActionError
from greenlight.core.record import replay
from greenlight.rl import pettingzoo_env
from greenlight.rl.multi_agent import GreenlightAECEnv
from tests.rl.helpers import game_counts

# Warnings api_test gives for the Dict(observation, action_mask) layout the issue asks for
# (PettingZoo exempts its own classic games by name), and for the all-zero mask of a finished agent.
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
}


def _play_to_end(env: GreenlightAECEnv, seed: int) -> dict[str, float]:
    """Play masked random actions to the end; return each agent's total reward."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_pettingzoo_api_test(game_id: str, num_players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo_env(game_id, num_players, seed=num_players), num_cycles=300)
    assert {str(warning.message) for warning in caught} <= EXPECTED_WARNINGS


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_pettingzoo_seed_test(game_id: str, num_players: int) -> None:
    seed_test(lambda: pettingzoo_env(game_id, num_players, seed=11), num_cycles=300)


def test_env_ids_are_versioned() -> None:
    env = pettingzoo_env("cinecitta_v1", 3)
    assert env.metadata["name"] == "cinecitta_v1"
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_a_seat_never_sees_what_another_seat_committed() -> None:
    first, second = pettingzoo_env("cinecitta", 3, seed=5), pettingzoo_env("cinecitta", 3, seed=5)
    first.reset(seed=5)
    second.reset(seed=5)
    assert first.agent_selection == second.agent_selection == "player_0"
    legal = np.flatnonzero(first.observe("player_0")["action_mask"])
    # Two different offers (different card and amount) by player_0.
    first.step(int(legal[0]))
    second.step(int(legal[-1]))
    assert first.agent_selection == second.agent_selection == "player_1"
    one, two = first.observe("player_1"), second.observe("player_1")
    np.testing.assert_array_equal(one["observation"], two["observation"])
    np.testing.assert_array_equal(one["action_mask"], two["action_mask"])


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = pettingzoo_env("cinecitta", 4, seed=1)
    env.reset()
    masks = {agent: env.observe(agent)["action_mask"] for agent in env.agents}
    assert masks["player_0"].sum() > 0
    assert all(masks[agent].sum() == 0 for agent in ("player_1", "player_2", "player_3"))


def test_final_rewards_are_the_win_shares_and_the_record_replays() -> None:
    env = pettingzoo_env("cinecitta", 3, seed=2)
    env.reset(seed=21)
    totals = _play_to_end(env, seed=3)
    assert env.game_state is not None
    returns = env.game.outcome(env.game_state).returns()
    assert totals == {f"player_{seat}": returns[seat] for seat in range(3)}
    assert replay(env.record()) == env.game_state


def test_shaping_pays_along_the_way_and_telescopes_to_the_win_share() -> None:
    env = pettingzoo_env("cinecitta", 3, seed=2, shaping=True)
    env.reset(seed=21)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    paid_before_the_end = False
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        paid_before_the_end = paid_before_the_end or (reward != 0.0 and not terminated)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert paid_before_the_end
    assert env.game_state is not None
    returns = env.game.outcome(env.game_state).returns()
    # The potential is 0 before the deal and at the end, so shaping sums to 0 and the totals are the win shares.
    for seat in range(3):
        assert totals[f"player_{seat}"] == pytest.approx(returns[seat], abs=1e-9)


def test_unknown_shaping_categories_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown shaping categories"):
        pettingzoo_env("cinecitta", 3, shaping={"charisma": 1.0})


def test_illegal_codes_are_refused_with_the_reason() -> None:
    env = pettingzoo_env("cinecitta", 3, seed=4)
    env.reset()
    mask = env.observe("player_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal for seat 0"):
        env.step(illegal)


def test_render_is_the_spectator_text() -> None:
    env = pettingzoo_env("cinecitta", 3, seed=4, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text is not None
    assert text.startswith("Cinecitta 1937 · round 1 of 8 · Step 1 of 3: offer")
    assert "Your hand" not in text
