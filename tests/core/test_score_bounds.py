"""Declared score bounds: what each game says a final score can be, and that real games stay inside them."""

from __future__ import annotations

import random
from pathlib import Path

from greenlight.core.registry import get_game
from greenlight.games.maybe_movies.cards import generate_catalogue

EXAMPLE_CATALOGUE = Path(__file__).resolve().parents[2] / "src" / "greenlight" / "games" / "maybe_movies" / "data" / "seed0_catalogue.json"


def test_maybe_movies_bounds_are_votes_times_printed_icons() -> None:
    spec = get_game("maybe-movies").spec
    assert spec.score_bounds is not None
    assert spec.score_bounds(4, {}) == (0.0, 60.0 * (3 * 44 + 16))
    catalogue = generate_catalogue(0)  # the example file is the seed 0 catalogue
    icons = sum(len(card.printed_icons) for card in (*catalogue.movies, *catalogue.blockbusters))
    assert spec.score_bounds(4, {"data": str(EXAMPLE_CATALOGUE)}) == (0.0, 60.0 * icons)
    assert 60 * icons < 60 * (3 * 44 + 16), "a real catalogue prints fewer icons than the composition allows"


def test_every_score_of_random_games_is_inside_the_declared_bounds() -> None:
    for game_id, players in (("cinecitta", 4), ("maybe-movies", 5)):
        game = get_game(game_id)
        assert game.spec.score_bounds is not None
        low, high = game.spec.score_bounds(players, game.spec.resolve_options(players, {}))
        for seed in range(5):
            state = game.new_state(players, seed)
            rng = random.Random(seed)
            while not game.is_terminal(state):
                seat = min(game.decision(state).players)
                game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            assert all(low <= score <= high for score in game.outcome(state).scores)


def test_movie_empire_bounds_start_at_the_lowest_sympathy_and_have_no_top() -> None:
    from greenlight.games.movie_empire.cards import load_tables

    spec = get_game("movie-empire").spec
    assert spec.score_bounds is not None
    low, high = spec.score_bounds(3, {})
    assert low == min(level.end_pp for level in load_tables().sympathy.values()) < 0 and high == float("inf")
