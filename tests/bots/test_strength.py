"""Seeded strength checks (slow): each level beats the one below it over a fixed set of arena games.

The games are seeded, so these results are exact for the code as it stands;
a failure means a change made a bot weaker (or the game changed a lot).
The measured numbers with confidence intervals are in docs/bots.md.
"""

from __future__ import annotations

import pytest

from greenlight.sim.arena import run_arena

pytestmark = pytest.mark.slow

#: (game, players, games, minimum win share of heuristic against random fillers)
HEURISTIC_OVER_RANDOM = [
    ("cinecitta", 3, 90, 0.45),
    ("maybe-movies", 3, 90, 0.7),
    ("movie-empire", 2, 90, 0.9),
]


@pytest.mark.parametrize(("game", "players", "games", "minimum"), HEURISTIC_OVER_RANDOM)
def test_heuristic_beats_random(game: str, players: int, games: int, minimum: float) -> None:
    report = run_arena(game, players, ["heuristic", "random"], games=games, seed=7, workers=2)
    assert report.summary("heuristic").win_share >= minimum


@pytest.mark.parametrize(("game", "players"), [("cinecitta", 3), ("maybe-movies", 3), ("movie-empire", 2)])
def test_easy_sits_between_random_and_medium(game: str, players: int) -> None:
    over_random = run_arena(game, players, ["easy", "random"], games=90, seed=8, workers=2).summary("easy")
    under_medium = run_arena(game, players, ["medium", "easy"], games=90, seed=9, workers=2).summary("medium")
    assert over_random.win_share > over_random.parity
    assert under_medium.win_share > under_medium.parity
