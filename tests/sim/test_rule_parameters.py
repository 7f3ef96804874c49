"""Rule parameters as data: each is declared with the rulebook's value as default (a default changes nothing: the same
resolved options, records and states), a changed value takes effect and keeps every contract (conformance), and a bad
value is refused naming the parameter (or the data file that set it)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.errors import DataError, OptionError
from greenlight.core.game import Game
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.core.state import state_digest
from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.testing import check_game

#: Every rule parameter: game, a player count, a changed value, values refused with the words of their refusal.
PARAMETERS: list[tuple[str, str, int, int, list[tuple[OptionValue, str]]]] = [
    ("movie-empire", "rounds", 2, 6, [(3, "at least 4"), (13, "at most 12")]),
    ("movie-empire", "hand_limit", 3, 2, [(1, "at least 2"), ("four", "a whole number")]),
    ("movie-empire", "starting_money", 2, 7, [(-1, "at least 0"), (31, "at most 30")]),
    ("cinecitta", "starting_money", 3, 150, [(40, "at least 50"), (155, "a multiple of 10"), (170, "at most 160")]),
    ("cinecitta", "extra_rounds", 4, -2, [(-5, "at least -4"), (1, "needs 32 cards in play")]),
    ("maybe-movies", "hand_size", 3, 6, [(3, "at least 4"), (11, "at most 10")]),
    ("maybe-movies", "market_size", 4, 4, [(2, "at least 3"), (7, "at most 6")]),
]


def playout(game: Game[Any], players: int, seed: int, options: dict[str, OptionValue]) -> tuple[Any, list[str]]:
    """A seeded random game to the end: its final state and the actions played."""
    state = game.new_state(players, seed, options)
    chooser = random.Random(seed)
    actions = []
    while not (decision := game.decision(state)).is_terminal:
        seat = min(decision.players)
        action = chooser.choice(game.legal_actions(state, seat))
        actions.append(f"{seat} {action}")
        game.apply(state, seat, action)
    return state, actions


def test_every_game_declares_its_parameters_with_the_rulebook_value() -> None:
    declared = {(game, spec.name) for game in ("cinecitta", "maybe-movies", "movie-empire") for spec in get_game(game).spec.parameters}
    assert declared == {(game, name) for game, name, *_ in PARAMETERS}
    for game_id in ("cinecitta", "maybe-movies", "movie-empire"):
        for spec in get_game(game_id).spec.parameters:
            assert spec.kind == "int" and spec.rule and spec.help and not spec.variant and isinstance(spec.default, int)


@pytest.mark.parametrize(("game_id", "name", "players", "changed", "refused"), PARAMETERS, ids=lambda value: str(value))
def test_a_parameter_at_its_default_changes_nothing_and_a_changed_one_is_validated(
    game_id: str, name: str, players: int, changed: int, refused: list[tuple[OptionValue, str]]
) -> None:
    game = get_game(game_id)
    spec = game.spec.option(name)
    assert game.spec.resolve_options(players, {name: spec.default}) == game.spec.resolve_options(players, {})
    assert game.spec.changed_parameters(game.spec.resolve_options(players, {name: spec.default})) == {}
    plain, plain_actions = playout(game, players, 3, {})
    explicit, explicit_actions = playout(game, players, 3, {name: spec.default})
    assert explicit_actions == plain_actions and state_digest(explicit) == state_digest(plain)
    resolved = game.spec.resolve_options(players, {name: changed})
    assert resolved[name] == changed and game.spec.changed_parameters(resolved) == {name: changed}
    for value, words in refused:
        with pytest.raises(OptionError, match=words):
            game.spec.resolve_options(players, {name: value})


def test_movie_empire_rounds_hand_limit_and_starting_money_take_effect() -> None:
    game = get_game("movie-empire")
    short, _ = playout(game, 2, 5, {"rounds": 6})
    assert short.round == short.last_round == 6 and len(short.trend_removed) == 11  # 17 trends less 6 rounds
    assert game.new_state(2, 5, {"starting_money": 7}).money == [7, 7]
    with pytest.raises(OptionError, match="Shoot a Short always plays 7 rounds"):
        game.spec.resolve_options(2, {"rounds": 8, "shoot_a_short": True})
    state = game.new_state(2, 5, {"hand_limit": 2})
    chooser = random.Random(5)
    discards = 0
    while not (decision := game.decision(state)).is_terminal:
        seat = min(decision.players)
        legal = game.legal_actions(state, seat)
        if any(str(action).startswith("discard") for action in legal):
            discards += 1
            assert len(state.hands[seat]) > 2 or any(str(action) == "stop" for action in legal)
        elif not state.queue:
            assert all(len(hand) <= 2 for hand in state.hands)
        game.apply(state, seat, chooser.choice(legal))
    assert discards > 0


def test_cinecitta_starting_money_and_extra_rounds_take_effect() -> None:
    game = get_game("cinecitta")
    richer = game.new_state(3, 2, {"starting_money": 150})
    assert richer.wallets == [150] * 3 and game.observe(richer, 0)["money_total"] == 450
    with pytest.raises(OptionError, match="at most 100 at 5 players"):
        game.spec.resolve_options(5, {"starting_money": 110})
    shorter, actions = playout(game, 4, 2, {"extra_rounds": -2})
    assert shorter.hand_size == 5 and shorter.rounds == 5 and len(actions) == 5 * 3 * 4  # three steps a round, every seat
    assert playout(game, 4, 2, {})[0].rounds == 7


def test_maybe_movies_hand_and_market_sizes_take_effect() -> None:
    game = get_game("maybe-movies")
    state = game.new_state(3, 9, {"hand_size": 6, "market_size": 4})
    assert [len(hand) for hand in state.hands] == [6, 6, 6] and len(state.market) == 4
    final, _ = playout(game, 3, 9, {"hand_size": 6, "market_size": 4})
    assert len(final.history) == 6  # one turn per card of a hand


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("movie-empire", 2, {"rounds": 5, "hand_limit": 3, "starting_money": 4}),
        ("cinecitta", 3, {"extra_rounds": -3, "starting_money": 160}),
        ("maybe-movies", 4, {"hand_size": 5, "market_size": 3, "breaking_changes": True}),
    ],
)
def test_changed_parameters_keep_every_contract(game_id: str, players: int, options: dict[str, OptionValue]) -> None:
    report = check_game(get_game(game_id), players, options, seeds=range(3), deep_every=3, leak_samples=1)
    assert report.games == 3 and report.deep_games == 1


def test_a_data_file_sets_parameters_and_an_explicit_option_wins(tmp_path: Path) -> None:
    game = get_game("movie-empire")
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "parameters.toml").write_text("rounds = 8\nhand_limit = 5\n", encoding="utf-8")
    assert game.spec.changed_parameters(game.spec.resolve_options(2, {"data": str(folder)})) == {"rounds": 8, "hand_limit": 5}
    assert game.spec.resolve_options(2, {"data": str(folder), "rounds": 9})["rounds"] == 9
    assert game.new_state(2, 1, {"data": str(folder)}).last_round == 8
    (folder / "parameters.toml").write_text("rounds = 20\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"parameters\.toml: field rounds: must be at most 12, got 20"):
        game.spec.resolve_options(2, {"data": str(folder)})
    (folder / "parameters.toml").write_text("round = 8\n", encoding="utf-8")
    with pytest.raises(DataError, match="Movie Empire has no rule parameter called round"):
        game.spec.resolve_options(2, {"data": str(folder)})
    cards = tmp_path / "cards.toml"
    shutil.copy(BUNDLED_CARDS, cards)
    cards.write_text("[parameters]\nstarting_money = 120\n\n" + cards.read_text(encoding="utf-8"), encoding="utf-8")
    assert get_game("cinecitta").new_state(3, 1, {"data": str(cards)}).wallets == [120] * 3
