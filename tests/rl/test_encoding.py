"""Observation encodings: fixed size, bounded, documented, built only from what the seat sees."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")  # the rl extra

from greenlight.core.registry import get_game
from greenlight.games.cinecitta import GAME as CINECITTA
from greenlight.games.cinecitta.cards import load_cards
from greenlight.games.cinecitta.encoding import ENCODING as CINECITTA_ENCODING
from greenlight.games.cinecitta.rules import position
from greenlight.rl.encoding import encode, encoding_for, field_slices, has_encoding
from tests.rl.helpers import encoded_games, game_counts

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _random_states(game_id: str, num_players: int, seeds: range, options: dict[str, Any] | None = None) -> Any:
    """Yield every state of seeded random games (the same object, mutated: callers use it at once)."""
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


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_vectors_have_the_declared_size_and_stay_in_unit_range(game_id: str, num_players: int) -> None:
    game = get_game(game_id)
    encoding = encoding_for(game)
    for state in _random_states(game_id, num_players, range(3)):
        expected = encoding.size(num_players, state.options)
        assert expected == sum(length for _, length in encoding.fields(num_players, state.options))
        for seat in [None, *range(num_players)]:
            vector = encode(game, game.observe(state, seat))
            assert vector.shape == (expected,)
            assert vector.dtype == np.float32
            assert float(vector.min()) >= 0.0
            assert float(vector.max()) <= 1.0


@pytest.mark.parametrize(("game_id", "num_players"), game_counts())
def test_encoding_does_not_change_when_hidden_information_is_resampled(game_id: str, num_players: int) -> None:
    """The no-leak test: encode(observe(state, s)) == encode(observe(determinize(state, s, rng), s))."""
    game = get_game(game_id)
    resampled_something = False
    for state in _random_states(game_id, num_players, range(100, 104)):
        for seat in range(num_players):
            expected = encode(game, game.observe(state, seat))
            for draw in range(2):
                world = game.determinize(state, seat, random.Random(draw))
                resampled_something = resampled_something or world != state
                np.testing.assert_array_equal(encode(game, game.observe(world, seat)), expected)
    # The check is only meaningful if determinize really redrew hidden information.
    assert resampled_something


@pytest.mark.parametrize("game_id", [game.spec.id for game in encoded_games()])
def test_encoding_does_not_leak_with_every_variant_on(game_id: str) -> None:
    """The no-leak test again with every bool option on (expansions add hidden and public information)."""
    game = get_game(game_id)
    options: dict[str, Any] = {option.name: True for option in game.spec.options if option.kind == "bool"}
    num_players = game.spec.max_players
    for state in _random_states(game_id, num_players, range(200, 202), options):
        size = encoding_for(game).size(num_players, state.options)
        for seat in range(num_players):
            expected = encode(game, game.observe(state, seat))
            assert expected.shape == (size,) and float(expected.min()) >= 0.0 and float(expected.max()) <= 1.0
            world = game.determinize(state, seat, random.Random(seat))
            np.testing.assert_array_equal(encode(game, game.observe(world, seat)), expected)


def test_cinecitta_fields_of_a_known_position() -> None:
    table = load_cards()
    state = position(
        3,
        hands=[["D2", "A3"], ["C5", "S6"], ["P9", "D3"]],
        wallets=[100, 70, 130],
        studios=[["D5"], ["A9", "C2"], []],
        offices=[[], ["S9"], []],
        round=2,
    )
    CINECITTA.apply(state, 2, CINECITTA.parse_action("offer P9 30"))
    vector = CINECITTA_ENCODING.encode(CINECITTA.observe(state, 1))
    fields = field_slices(CINECITTA_ENCODING.fields(3, state.options))

    def field(name: str) -> list[float]:
        return vector[fields[name]]

    assert field("num_players") == [1.0, 0.0, 0.0]
    assert field("round") == [2 / 8]
    assert field("step") == [1.0, 0.0, 0.0, 0.0]
    assert field("partner_offset") == [1.0, 0.0, 0.0, 0.0]
    # Seats are relative to the viewer (seat 1): slot 0 = seat 1, slot 1 = seat 2, slot 2 = seat 0.
    assert field("committed") == [0.0, 1.0, 0.0]
    assert field("waiting") == [1.0, 0.0, 1.0]
    studios = field("studios")
    actor, cameraman, director = (
        2 * ("Director", "Actor", "Cameraman", "Scriptwriter", "Producer").index(o) for o in ("Actor", "Cameraman", "Director")
    )
    assert studios[actor : actor + 2] == [1.0, 1.0]  # A9 in my Studio
    assert studios[cameraman : cameraman + 2] == [1.0, 2 / 9]  # C2 in my Studio
    assert studios[20 + director : 20 + director + 2] == [1.0, 5 / 9]  # D5 in seat 0's Studio (slot 2)
    assert field("wallet") == [70 / 300]
    hand = field("hand")
    assert [index for index, value in enumerate(hand) if value] == sorted([table.index("C5"), table.index("S6")])
    assert field("folder_sent") == [0.0] * len(field("folder_sent"))


def test_cinecitta_spectator_vector_has_no_private_fields() -> None:
    state = CINECITTA.new_state(4, seed=9)
    vector = CINECITTA_ENCODING.encode(CINECITTA.observe(state, None))
    fields = field_slices(CINECITTA_ENCODING.fields(4, state.options))
    assert vector[fields["spectator"]] == [1.0]
    for name in ("wallet", "hand", "folder_sent", "folder_received", "pending", "folder_history"):
        assert not any(vector[fields[name]]), name


def test_cinecitta_potentials_read_the_viewers_studio_office_and_wallet() -> None:
    state = position(
        3, hands=[["D2"], ["C5"], ["P9"]], wallets=[90, 70, 140], studios=[["D5", "A9", "C2"], [], []], offices=[["S9", "P9"], [], []]
    )
    table = load_cards()
    potentials = CINECITTA_ENCODING.potentials(CINECITTA.observe(state, 0))
    assert potentials == {
        "quality": 259.0,
        "promotion": 10.0 * (table["S9"].promotion + table["P9"].promotion),
        "money": 90.0,
        "reels": float(table["S9"].reels + table["P9"].reels),
    }


def test_every_encoded_field_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for game in encoded_games():
        encoding = encoding_for(game)
        section = text.split(f"<!-- encoding: {game.spec.id} -->", 1)
        assert len(section) == 2, f"docs/rl.md has no section for {game.spec.id}"
        body = section[1].split("<!-- encoding:", 1)[0]
        documented = re.findall(r"^\| `([a-z_]+)` \|", body, flags=re.MULTILINE)
        names = [name for name, _ in encoding.fields(game.spec.min_players, {})]
        assert documented == names


class _GameOutsideTheGamesPackage(type(CINECITTA)):  # type: ignore[misc]
    """A game defined in this test module: its package (tests.rl) has no encoding module."""


def test_games_without_an_encoding_module_are_reported_not_guessed() -> None:
    assert has_encoding(CINECITTA)
    assert encoding_for(CINECITTA) is CINECITTA_ENCODING
    stranger = _GameOutsideTheGamesPackage()
    assert not has_encoding(stranger)
    with pytest.raises(LookupError, match=r"has no module tests\.rl\.encoding yet"):
        encoding_for(stranger)
