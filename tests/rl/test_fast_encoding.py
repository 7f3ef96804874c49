"""The fast path: each game's state writer equals the observation-based reference, at every step, for every seat.

The environments encode observations with ``state_writer`` (straight from the
state, into buffers allocated once). ``encode(observe(state, seat))`` stays the
reference; these tests hold the fast path to it exactly, on every step of
seeded games of every player count and variant, and again after
``determinize`` has redrawn everything hidden from the seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")  # the rl extra
pytest.importorskip("pettingzoo")

from greenlight.core.registry import get_game
from greenlight.rl import gym_env, pettingzoo_env, pettingzoo_parallel_env
from greenlight.rl.actions import Prefix, agent_codes_for, agent_options
from greenlight.rl.encoding import (
    EncodingMismatch,
    LegalRuns,
    check_legal_runs,
    check_state_writer,
    encode,
    encoding_for,
    fast_encode,
    field_slices,
    legal_runs_for,
    state_writer_for,
)
from greenlight.rl.observer import SeatObserver
from tests.rl.helpers import encoded_games, game_counts


def _states(game_id: str, num_players: int, seeds: range, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every state of seeded random games (one object, mutated between yields)."""
    game = get_game(game_id)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_state(num_players, seed, options)
        while True:
            yield state
            players = game.decision(state).players
            if not players:
                break
            seat = rng.choice(players)
            game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))


def _variants() -> list[tuple[str, int, dict[str, Any]]]:
    """Every game, player count and combination of boolean variants."""
    return [
        (game.spec.id, n, options)
        for game in encoded_games()
        for n in game.spec.player_counts
        for options in game.spec.variant_combinations(n)
    ]


def test_every_game_has_a_fast_path_and_the_environments_use_it() -> None:
    for game in encoded_games():
        n = game.spec.min_players
        assert state_writer_for(game, n, game.spec.resolve_options(n, None)) is not None, game.spec.id
        assert pettingzoo_env(game.spec.id, n).observer.fast


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_fast_path_equals_the_reference_at_every_step_for_every_seat(game_id: str, num_players: int) -> None:
    compared = check_state_writer(get_game(game_id), _states(game_id, num_players, range(4)), resamples=1, seed=num_players)
    assert compared > 100


@pytest.mark.parametrize(("game_id", "num_players", "options"), _variants(), ids=lambda value: str(value))
def test_fast_path_equals_the_reference_with_every_variant(game_id: str, num_players: int, options: dict[str, Any]) -> None:
    check_state_writer(get_game(game_id), _states(game_id, num_players, range(100, 102), options), resamples=1)


@pytest.mark.parametrize("game_id", [game.spec.id for game in encoded_games()])
def test_fast_path_sees_nothing_more_when_hidden_information_is_redrawn_often(game_id: str) -> None:
    """The no-leak test of the fast path: several worlds per state, each written equal to the real state's reference."""
    game = get_game(game_id)
    n = game.spec.max_players
    check_state_writer(game, _states(game_id, n, range(300, 302)), resamples=4, seed=7)


def test_a_wrong_fast_path_is_caught_and_the_field_named() -> None:
    game = get_game("cinecitta")
    writer = state_writer_for(game, 3, game.spec.resolve_options(3, None))
    assert writer is not None
    wallet = field_slices(encoding_for(game).fields(3, {}))["wallet"].start

    def leaky(state: Any, seat: int, out: Any) -> None:
        writer(state, seat, out)
        out[wallet] = state.wallets[(seat + 1) % 3] / 300  # the neighbour's wallet: hidden from the seat

    with pytest.raises(EncodingMismatch, match=r"\['wallet'\]"):
        check_state_writer(game, _states("cinecitta", 3, range(1)), writer=leaky)


def test_fast_encode_returns_the_reference_vector() -> None:
    game = get_game("movie-empire")
    state = game.new_state(3, 5)
    for seat in range(3):
        np.testing.assert_array_equal(fast_encode(game, state, seat), encode(game, game.observe(state, seat)))


def _expected_vector(game: Any, state: Any, seat: int, prefix: Prefix) -> Any:
    """The reference encoding of the seat's observation, then the block of the cards it picked so far (if any)."""
    codes = agent_codes_for(game)
    block = np.zeros(codes.block_size, dtype=np.float32)
    for card, count in codes.picked_counts(prefix).items():
        block[card] = min(count / codes.max_picks, 1.0)
    return np.concatenate([encode(game, game.observe(state, seat)), block])


@pytest.mark.parametrize(("game_id", "num_players"), [("cinecitta", 4), ("maybe-movies", 3), ("movie-empire", 2)])
def test_aec_observations_are_the_reference_encoding_in_each_agents_own_arrays(game_id: str, num_players: int) -> None:
    env = pettingzoo_env(game_id, num_players, seed=2)
    env.reset(seed=2)
    game = env.game
    rng = np.random.default_rng(2)
    arrays = {agent: env.observe(agent) for agent in env.possible_agents}
    steps = picks = 0
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        seat = env.agent_name_mapping[agent]
        prefix = env.observer.picks.prefixes[seat]
        assert observation["observation"] is arrays[agent]["observation"], "an agent's vector is written in place"
        np.testing.assert_array_equal(observation["observation"], _expected_vector(game, env.game_state, seat, prefix))
        legal, targets, actions = agent_options(game, env.game_state, seat, prefix) if not (terminated or truncated) else ([], [], [])
        assert sorted(np.flatnonzero(observation["action_mask"]).tolist()) == sorted(legal)
        code = None if terminated or truncated else int(rng.choice(legal))
        played_before = len(env.record().actions)
        env.step(code)
        if code is not None:
            target = targets[legal.index(code)]
            picks += agent_codes_for(game).describe(code) is not None
            if isinstance(target, tuple):  # a pick that leaves the choice open: nothing is played, the seat's picks grow
                assert len(env.record().actions) == played_before and env.observer.picks.prefixes[seat] == target
            else:
                played_seat, played = env.record().actions[-1]
                assert (played_seat, game.parse_action(played)) == (seat, actions[target]), "the code picked is played"
                assert env.observer.picks.prefixes[seat] is None
        steps += 1
    assert steps > 20
    assert (picks > 0) == (game_id == "movie-empire"), "Movie Empire's kept scripts are picked card by card"


@pytest.mark.parametrize("num_players", get_game("cinecitta").spec.player_counts)
def test_legal_code_runs_are_the_legal_codes_at_every_step(num_players: int) -> None:
    # Cinecitta's offers come as runs of codes (a card at every amount up to the wallet); other steps map code by code.
    game = get_game("cinecitta")
    states = _states("cinecitta", num_players, range(6))
    assert check_legal_runs(game, states) > 50


def test_wrong_legal_code_runs_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from greenlight.games.cinecitta import encoding as cinecitta_encoding

    game = get_game("cinecitta")
    found = legal_runs_for(game, 3, game.spec.resolve_options(3, None))
    assert found is not None
    runs: LegalRuns = found
    encoding = encoding_for(game)

    class OneTooMany:
        def __getattr__(self, name: str) -> Any:
            return getattr(encoding, name)

        def legal_runs(self, num_players: int, options: Any) -> Any:
            def longer(state: Any, seat: int) -> Any:
                given = runs(state, seat)
                return None if given is None else [(start, stop + 1) for start, stop in given]  # one amount past the wallet

            return longer

    monkeypatch.setattr(cinecitta_encoding, "ENCODING", OneTooMany())
    with pytest.raises(AssertionError, match="legal code runs"):
        check_legal_runs(game, _states("cinecitta", 3, range(1)))


def test_parallel_observations_are_the_reference_encoding() -> None:
    env = pettingzoo_parallel_env("maybe-movies", 4, seed=4)
    observations, _ = env.reset(seed=4)
    game = env.game
    rng = np.random.default_rng(4)
    while env.agents:
        for seat, agent in enumerate(env.possible_agents):
            expected = _expected_vector(game, env.game_state, seat, env.observer.picks.prefixes[seat])
            np.testing.assert_array_equal(observations[agent]["observation"], expected)
        acting = env.acting()
        actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"]))) for agent in acting}
        observations, *_ = env.step(actions)


def test_gymnasium_hands_out_copies_of_the_reference_encoding() -> None:
    env = gym_env("cinecitta", seat=1, opponents=["random", "random"])
    observation, info = env.reset(seed=3)
    game = env.game
    kept = []
    terminated = False
    while not terminated:
        assert env.game_state is not None
        np.testing.assert_array_equal(observation, encode(game, game.observe(env.game_state, 1)))
        kept.append((observation, observation.copy()))
        observation, _reward, terminated, _truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for given, copy in kept:
        np.testing.assert_array_equal(given, copy)  # later steps never wrote into what was handed out


def test_reference_observer_gives_the_same_vectors_as_the_fast_one() -> None:
    game = get_game("cinecitta")
    options = game.spec.resolve_options(3, None)
    fast, reference = SeatObserver(game, 3, options), SeatObserver(game, 3, options, fast=False)
    assert fast.fast and not reference.fast
    for state in _states("cinecitta", 3, range(2)):
        fast.changed()
        reference.changed()
        for seat in range(3):
            np.testing.assert_array_equal(fast.observation(state, seat), reference.observation(state, seat))
            np.testing.assert_array_equal(fast.mask(state, seat), reference.mask(state, seat))


def test_openspiel_tensors_are_the_reference_encoding() -> None:
    pytest.importorskip("pyspiel")
    from greenlight.rl.openspiel import openspiel_game

    spiel = openspiel_game("movie-empire", 2, deals=8)
    game = get_game("movie-empire")
    state = spiel.new_initial_state()
    state.apply_action(3)
    rng = random.Random(3)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(0)
            continue
        engine_state = state.greenlight_state
        for seat in range(2):
            expected = _expected_vector(game, engine_state, seat, state.world.prefixes[seat])
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32), expected)
            infostate = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
            np.testing.assert_array_equal(infostate[: len(expected)], expected)
        state.apply_action(rng.choice(state.legal_actions()))
