"""The OpenSpiel adapter: random_sim_test, chance nodes, perfect recall, observers, serialisation, resampling, bots."""

from __future__ import annotations

import pickle
import random

import pytest

np = pytest.importorskip("numpy")  # the rl extra

pyspiel = pytest.importorskip("pyspiel")

from greenlight.core.record import replay
from greenlight.core.registry import get_game
from greenlight.rl import openspiel_game
from greenlight.rl.actions import agent_codes_for
from greenlight.rl.encoding import encode, encoding_for
from greenlight.rl.openspiel import GreenlightSpielState, ismcts_bot, make_resampler, max_own_actions, register_openspiel_games, short_name
from tests.rl.helpers import encoded_games, game_counts


def _dealt(game: object, deal: int, moves: int, seed: int) -> GreenlightSpielState:
    """A state after the deal and ``moves`` random legal actions (chance nodes on the way applied too)."""
    state: GreenlightSpielState = game.new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(deal)
    rng = random.Random(seed)
    for _ in range(moves):
        while state.is_chance_node():
            state.apply_action(0)
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(0)
    return state


def test_every_encoded_game_is_registered() -> None:
    names = register_openspiel_games()
    assert names == [short_name(game) for game in encoded_games()]
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_random_sim_test(game_id: str, num_players: int) -> None:
    # Sampled chance: OpenSpiel cannot store a Python game's RNG, so game-and-state serialisation is tested in the
    # seeded mode below; states pickle in both.
    game = openspiel_game(game_id, num_players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", ["cinecitta", "maybe-movies", "movie-empire"])
def test_random_sim_test_with_seeded_chance_serialises(game_id: str) -> None:
    game = openspiel_game(game_id, get_game(game_id).spec.min_players, chance="seeded", deals=3)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_with_options_and_a_fixed_deal() -> None:
    game = openspiel_game("cinecitta", 4, {"destination_change": True, "movie_awards": True}, seed=40, chance="seeded")
    assert game.new_initial_state().chance_outcomes() == [(0, 1.0)]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_sizes() -> None:
    game = openspiel_game("cinecitta", 5)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    greenlight = get_game("cinecitta")
    assert game.num_distinct_actions() == greenlight.num_distinct_actions
    assert game.num_players() == 5
    size = encoding_for(greenlight).size(5, {})
    history = max_own_actions(greenlight) * (1 + (greenlight.num_distinct_actions - 1).bit_length())
    assert game.information_state_tensor_shape() == [size + history]
    assert game.observation_tensor_shape() == [size]
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    movie_empire = openspiel_game("movie-empire", 2)
    assert movie_empire.num_distinct_actions() == agent_codes_for(get_game("movie-empire")).num_codes == 1784


def test_chance_outcomes_are_cheap_and_chance_nodes_stand_where_the_game_draws() -> None:
    # Maybe Movies draws at every vote's collect and share (§4.9); each such move is followed by a chance node.
    game = openspiel_game("maybe-movies", 3, seed=5)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    rng = random.Random(1)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_nodes += 1
            assert state.chance_outcomes() == [(0, 1.0)]
            before = str(state)
            state.apply_action(0)
            assert str(state) != before, "the pending move takes effect at its chance node"
            continue
        state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes >= 5
    # Cinecitta draws only at the deal: the root is its one chance node.
    state = openspiel_game("cinecitta", 3).new_initial_state()
    chance_nodes = 0
    while not state.is_terminal():
        chance_nodes += state.is_chance_node()
        state.apply_action(0 if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert chance_nodes == 1


def test_sampled_chance_draws_afresh_and_seeded_chance_replays_the_record() -> None:
    # Two copies of a state before a chance node go on differently in the sampled mode: the draw is made when the
    # chance node is applied, not fixed by the deal.
    game = openspiel_game("maybe-movies", 3, seed=5)
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(1)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    outcomes = set()
    for _ in range(6):
        copy = state.clone()
        copy.apply_action(0)
        outcomes.add(str(copy))
    assert len(outcomes) > 1
    with pytest.raises(ValueError, match="chance='seeded'"):
        copy.greenlight_record()
    seeded = openspiel_game("maybe-movies", 3, seed=5, chance="seeded")
    state = _dealt(seeded, deal=0, moves=30, seed=1)
    assert replay(state.greenlight_record()) == state.greenlight_state


def test_listed_deals_pick_the_greenlight_seed_and_tensors_are_the_encoding() -> None:
    game = openspiel_game("cinecitta", 3, seed=100, deals=16)
    assert len(game.new_initial_state().chance_outcomes()) == 16
    state = _dealt(game, deal=7, moves=4, seed=1)
    greenlight = get_game("cinecitta")
    assert state.greenlight_record().seed == 107
    expected_state = replay(state.greenlight_record())
    assert expected_state == state.greenlight_state
    for seat in range(3):
        observation = encode(greenlight, greenlight.observe(expected_state, seat))
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), np.float32), observation)
        np.testing.assert_array_equal(np.asarray(state.information_state_tensor(seat), np.float32)[: len(observation)], observation)


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


def test_serialisation_replays_the_steps_and_round_trips() -> None:
    seeded = openspiel_game("cinecitta", 4, chance="seeded", deals=20)
    state = _dealt(seeded, deal=12, moves=9, seed=3)
    text = pyspiel.serialize_game_and_state(seeded, state)
    _game, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.history() == state.history()
    assert restored.greenlight_record() == state.greenlight_record()
    # Sampled chance (Movie Empire picks its kept scripts card by card): a state pickles as its deal and steps.
    sampled = openspiel_game("movie-empire", 3, seed=8)
    state = _dealt(sampled, deal=0, moves=25, seed=3)
    assert pickle.loads(pickle.dumps(sampled)).get_parameters() == sampled.get_parameters()
    for copy in (pickle.loads(pickle.dumps(state)), sampled.deserialize_state(state.serialize())):
        assert str(copy) == str(state)
        assert copy.greenlight_state == state.greenlight_state
        assert [copy.information_state_string(seat) for seat in range(3)] == [state.information_state_string(seat) for seat in range(3)]


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


def _own_histories(game_id: str, num_players: int, games: int) -> tuple[int, int]:
    """Random games: check that an information state (string, tensor) never stands for two own histories.

    A seat's own history is what it saw at each of its turns (its observation) and what it did, in order.
    Returns (information states met, own actions taken).
    """
    game = openspiel_game(game_id, num_players)
    by_string: dict[str, tuple[object, ...]] = {}
    by_tensor: dict[tuple[float, ...], tuple[object, ...]] = {}
    actions = 0
    for seed in range(games):
        state = game.new_initial_state()
        rng = random.Random(seed)
        histories: list[list[object]] = [[] for _ in range(num_players)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(0)
                continue
            seat = state.current_player()
            histories[seat].append(state.observation_string(seat))
            own = tuple(histories[seat])
            assert by_string.setdefault(state.information_state_string(seat), own) == own, "two own histories, one string"
            assert by_tensor.setdefault(tuple(state.information_state_tensor(seat)), own) == own, "two own histories, one tensor"
            action = rng.choice(state.legal_actions())
            histories[seat].append(action)
            state.apply_action(action)
            actions += 1
    return len(by_string), actions


@pytest.mark.parametrize(("game_id", "num_players", "games"), [("cinecitta", 3, 12), ("maybe-movies", 4, 10), ("movie-empire", 2, 6)])
def test_information_states_have_perfect_recall(game_id: str, num_players: int, games: int) -> None:
    infostates, actions = _own_histories(game_id, num_players, games)
    assert infostates == actions  # every own turn of these random games is a distinct information state


def test_the_observation_forgets_what_the_information_state_remembers() -> None:
    # The case: a Maybe Movies seat holding two vote cards alike. Voting either gives the same observation
    # (the encoding sees cards by their faces); the information states differ by the seat's own action.
    game = openspiel_game("maybe-movies", 3, seed=3)
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
            continue
        seat = state.current_player()
        after = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            while child.is_chance_node():
                child.apply_action(0)
            after[action] = (child.observation_string(seat), child.information_state_string(seat))
        alike = [(a, b) for a in after for b in after if a < b and after[a][0] == after[b][0]]
        if alike:
            first, second = alike[0]
            assert after[first][1] != after[second][1]
            return
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no two actions with the same observation in this game")


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "num_players", "games"), [("cinecitta", 5, 60), ("maybe-movies", 3, 60), ("movie-empire", 4, 30)])
def test_information_states_have_perfect_recall_over_more_games(game_id: str, num_players: int, games: int) -> None:
    infostates, actions = _own_histories(game_id, num_players, games)
    assert infostates == actions
