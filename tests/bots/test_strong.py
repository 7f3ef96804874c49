"""The ``strong`` level: built with its documented settings, plays legal whole games, blind to hidden information.

Also the two tools it was tuned with: the widening ``prior`` option of the
search and ``compare_speed`` (CPU time per move of several bots on the same
positions). How strong and how fast it is is measured with the arena in
docs/bots.md, not here.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from greenlight.bots import make_bot
from greenlight.bots.hooks import find_strong_search
from greenlight.bots.ismcts import ISMCTSBot, SearchConfig, _Search
from greenlight.bots.levels import hard_config, parse_search, strong_config
from greenlight.bots.speed import compare_speed
from greenlight.core.bot import SeatView
from greenlight.core.errors import OptionError
from greenlight.core.game import Game
from greenlight.core.registry import all_games, get_game
from greenlight.core.state import state_digest
from greenlight.sim.runner import GameTask, play_game
from tests.bots.test_every_game import checkpoints, choice_and_trace

GAMES = list(all_games().values())
GAME_IDS = [game.spec.id for game in GAMES]

#: The settings docs/bots.md gives for ``strong`` (everything else is the game's ``hard`` search).
DOCUMENTED: dict[str, dict[str, Any]] = {
    "cinecitta": {"steps": 900},
    "maybe-movies": {"steps": 750, "rollout_depth": 2, "widening": 1.0, "prior": "heuristic"},
    "movie-empire": {"steps": 300, "rollout_depth": 4, "widening": 1.0, "exploration": 0.4},
}


@pytest.mark.parametrize("game_id", sorted(DOCUMENTED))
def test_strong_is_the_hard_search_with_its_documented_changes(game_id: str) -> None:
    game = get_game(game_id)
    expected = dataclasses.replace(hard_config(game), iterations=None, seconds=0.5, **DOCUMENTED[game_id])
    assert strong_config(game) == expected
    bot = make_bot("strong", game, seed=3)
    assert isinstance(bot, ISMCTSBot)
    assert bot.name == "strong"
    assert bot.config == expected


def test_every_game_with_a_strong_tuning_is_documented() -> None:
    tunings = {game.spec.id: find_strong_search(game) for game in GAMES}
    assert {game_id: tuning for game_id, tuning in tunings.items() if tuning is not None} == DOCUMENTED


def test_strong_of_a_game_without_a_tuning_is_a_twentieth_of_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("cinecitta")
    from greenlight.games.cinecitta import search

    monkeypatch.delattr(search, "STRONG_SEARCH")
    config = strong_config(game)
    hard = hard_config(game)
    assert config == dataclasses.replace(hard, steps=1050, seconds=0.5)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_strong_plays_a_whole_game_with_legal_moves_only(game: Game[Any]) -> None:
    num_players = game.spec.min_players
    names = ("strong", *(["medium"] * (num_players - 1)))
    task = GameTask(game.spec.id, num_players, 5, names, tuple(range(5, 5 + num_players)), keep_record=True)
    # The runner plays through Match.play, which raises IllegalActionError for an illegal move.
    result = play_game(task)
    assert result.length == len(result.record["actions"]) > 0  # type: ignore[index]
    assert len(result.scores) == num_players


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_strong_never_reads_hidden_information(game: Game[Any]) -> None:
    """Two real states that look the same to the seat give ``strong`` the same move and root statistics."""
    num_players = game.spec.min_players
    resampled = 0
    for position, (state, seat) in enumerate(checkpoints(game, num_players, seed=num_players, count=3)):
        other = game.determinize(state, seat, random.Random(f"other/{position}"))
        assert game.observe(other, seat) == game.observe(state, seat)
        resampled += state_digest(other) != state_digest(state)
        assert choice_and_trace("strong", game, state, seat) == choice_and_trace("strong", game, other, seat), position
    assert resampled >= 1  # the test compared genuinely different states


def test_a_heuristic_prior_tries_the_heuristics_move_first_even_with_random_rollouts() -> None:
    game = get_game("cinecitta")
    state = game.new_state(3, seed=4)
    view = SeatView(game, state, seat=0)
    heuristic_move = make_bot("heuristic", game, seed=0).choose(view)
    config = SearchConfig(iterations=1, rollout="random", widening=1.0, prior="heuristic")
    bot = ISMCTSBot(seed=1, config=config)
    assert bot.choose(view) == heuristic_move
    assert bot.last_root == {heuristic_move: (1, bot.last_root[heuristic_move][1])}


def test_the_auto_prior_has_no_heuristic_with_random_rollouts() -> None:
    game = get_game("cinecitta")
    auto = SearchConfig(iterations=1, rollout="random", widening=1.0)
    assert _Search(game, 0, auto, random.Random(1)).prior is None
    assert _Search(game, 0, dataclasses.replace(auto, prior="heuristic"), random.Random(1)).prior is not None
    assert _Search(game, 0, dataclasses.replace(auto, rollout="game"), random.Random(1)).prior is not None


def test_the_prior_is_read_from_a_bot_name_and_checked() -> None:
    game = get_game("movie-empire")
    assert parse_search("search:300/widen=1/prior=game", game).prior == "game"
    assert parse_search("search:300", game).prior == "auto"
    with pytest.raises(OptionError, match="prior must be one of auto, heuristic, game, not 'best'"):
        parse_search("search:300/prior=best", game)


def test_compare_speed_times_every_bot_at_every_decision_of_the_seat() -> None:
    game = get_game("cinecitta")
    row = compare_speed(game, 3, ("search:4", "search:40"), seed=2, games=1)
    assert row["game"] == "cinecitta" and row["games"] == 1 and row["moves"] > 5
    assert set(row["cpu_seconds_per_move"]) == {"search:4", "search:40"}
    assert row["times_faster"]["search:40"] == 1.0
    # Ten times the iterations on the same positions: the small search is several times faster in CPU time.
    assert row["times_faster"]["search:4"] > 2.0


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_the_bot_levels_benchmark_times_strong_with_all_its_settings(game: Game[Any]) -> None:
    """bench/bench_bot_levels.py plays ``strong`` by a ``search:`` name without the wall-clock guard: every other
    setting (widening, prior, rollout depth, exploration) must be strong's, not hard's."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "bench_bot_levels.py"
    spec = importlib.util.spec_from_file_location("bench_bot_levels", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    named = parse_search(bench.bot_name(game.spec.id, "strong"), game)
    strong = strong_config(game)
    assert named.clock == "cpu"
    assert dataclasses.replace(named, seconds=None, clock=strong.clock) == dataclasses.replace(strong, seconds=None)
