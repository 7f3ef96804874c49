"""The OpenSpiel adapter: random_sim_test, observers, serialisation, resampling, OpenSpiel's own bots."""

from __future__ import annotations

import pickle
import random

import pytest

np = pytest.importorskip("numpy")  # the rl extra

pyspiel = pytest.importorskip("pyspiel")

from greenlight.core.record import replay
from greenlight.core.registry import get_game
from greenlight.rl import openspiel_game
from greenlight.rl.encoding import encode, encoding_for
from greenlight.rl.openspiel import GreenlightSpielState, ismcts_bot, make_resampler, register_openspiel_games, short_name
from tests.rl.helpers import encoded_games, game_counts


def _dealt(game: object, deal: int, moves: int, seed: int) -> GreenlightSpielState:
    """A state after the deal and ``moves`` random legal actions."""
    state: GreenlightSpielState = game.new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(deal)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_encoded_game_is_registered() -> None:
    names = register_openspiel_games()
    assert names == [short_name(game) for game in encoded_games()]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_random_sim_test(game_id: str, num_players: int) -> None:
    game = openspiel_game(game_id, num_players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_with_options_and_a_fixed_deal() -> None:
    game = openspiel_game("cinecitta", 4, {"destination_change": True, "movie_awards": True}, seed=40, deals=1)
    assert game.new_initial_state().chance_outcomes() == [(0, 1.0)]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_sizes() -> None:
    game = openspiel_game("cinecitta", 5)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    greenlight = get_game("cinecitta")
    assert game.num_distinct_actions() == greenlight.num_distinct_actions
    assert game.num_players() == 5
    size = encoding_for(greenlight).size(5, {})
    assert game.information_state_tensor_shape() == [size]
    assert game.observation_tensor_shape() == [size]
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)


def test_deal_outcome_picks_the_greenlight_seed_and_tensors_are_the_encoding() -> None:
    game = openspiel_game("cinecitta", 3, seed=100)
    state = _dealt(game, deal=7, moves=4, seed=1)
    greenlight = get_game("cinecitta")
    assert state.greenlight_record().seed == 107
    expected_state = replay(state.greenlight_record())
    assert expected_state == state.greenlight_state
    for seat in range(3):
        observation = greenlight.observe(expected_state, seat)
        np.testing.assert_array_equal(np.asarray(state.information_state_tensor(seat), np.float32), encode(greenlight, observation))
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), np.float32), encode(greenlight, observation))


def test_legal_actions_are_the_sorted_action_codes_and_strings_are_action_text() -> None:
    game = openspiel_game("cinecitta", 3)
    state = _dealt(game, deal=0, moves=0, seed=0)
    greenlight = get_game("cinecitta")
    codes = state.legal_actions()
    assert codes == sorted(greenlight.legal_action_codes(state.greenlight_state, 0))
    action = greenlight.action_from_code(state.greenlight_state, 0, codes[0])
    assert state.action_to_string(0, codes[0]) == str(action)


def test_resampled_states_keep_the_information_state_and_change_hidden_cards() -> None:
    game = openspiel_game("cinecitta", 3)
    state = _dealt(game, deal=3, moves=5, seed=2)
    player = state.current_player()
    resample = make_resampler(seed=9)
    worlds = [resample(state, player) for _ in range(5)]
    for world in worlds:
        assert world.current_player() == player
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
    others = [seat for seat in range(3) if seat != player]
    assert any(world.information_state_string(seat) != state.information_state_string(seat) for world in worlds for seat in others)
    assert state.resample_from_infostate(player, None).information_state_string(player) == state.information_state_string(player)


def test_serialisation_uses_the_record_and_round_trips() -> None:
    game = openspiel_game("cinecitta", 4)
    state = _dealt(game, deal=12, moves=9, seed=3)
    text = pyspiel.serialize_game_and_state(game, state)
    _game, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.history() == state.history()
    assert restored.greenlight_record() == state.greenlight_record()
    unpickled = pickle.loads(pickle.dumps(state))
    assert str(unpickled) == str(state)


def test_openspiel_random_bots_play_whole_games() -> None:
    game = openspiel_game("cinecitta", 3)
    bots = [pyspiel.make_uniform_random_bot(seat, 30 + seat) for seat in range(3)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert len(returns) == 3
    assert sum(returns) in (0.0, 1.0)


def test_python_ismcts_with_the_determinize_resampler_picks_a_legal_action() -> None:
    game = openspiel_game("cinecitta", 3)
    state = _dealt(game, deal=1, moves=0, seed=0)
    bot = ismcts_bot(game, simulations=30, seed=4)
    action = bot.step(state)
    assert action in state.legal_actions()


def test_python_mcts_bot_runs_on_the_adapter() -> None:
    from open_spiel.python.algorithms import mcts

    game = openspiel_game("cinecitta", 3)
    state = _dealt(game, deal=2, moves=0, seed=0)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=10,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        random_state=np.random.RandomState(1),
    )
    assert bot.step(state) in state.legal_actions()
