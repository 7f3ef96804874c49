"""The conformance harness on every registered game, every player count and every combination of variants.

One file for all games (a plugin game installed next to Greenlight is checked
too, with the default budget). The budgets differ only because the games
differ in cost per game; the timings are in each game's docs page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from greenlight.core.registry import all_games
from greenlight.core.spec import OptionValue
from greenlight.testing import check_game, option_matrix


@dataclass(frozen=True)
class Budget:
    """Seeds of the default sample and of the slow run, and how often a game gets every per-step check."""

    sample: int = 40
    sample_deep_every: int = 8
    # 800 games: in Cinecitta and Maybe Movies every branch of src/greenlight the random games reach at 2,000 games
    # is reached by 800 (arc coverage, docs/maybe_movies.md); every 40th deep keeps the 20 deep games of the old budget.
    slow_seeds: range = range(1000, 1800)
    slow_deep_every: int = 40
    leak_samples: int = 2


BUDGETS = {
    # One deep game per combination in the default run (a determinization per seat and step is costly here); in the
    # slow run every 400th game is deep: 64 in all, as before (docs/maybe_movies.md).
    "maybe-movies": Budget(sample=12, sample_deep_every=12, slow_deep_every=400, leak_samples=1),
    # 25 deep games per combination in the slow run, about 9 minutes of one core (docs/movie_empire.md).
    "movie-empire": Budget(sample=24, sample_deep_every=12, slow_seeds=range(10_000, 11_000), slow_deep_every=40),
}
#: Decision kinds each variant must reach in the slow run (so the harness really played the expansion).
REACHED = {
    ("maybe-movies", "breaking_changes"): ("change_edit",),
    ("maybe-movies", "blockbuster_budgets"): ("cost_choice", "profit_choice"),
}

CASES = [
    pytest.param(game_id, n, options, id=f"{game_id}-{n}p-" + ("-".join(k for k, v in options.items() if v is True) or "base"))
    for game_id, game in all_games().items()
    for n, options in option_matrix(game)
]


def budget(game_id: str) -> Budget:
    return BUDGETS.get(game_id, Budget())


def test_every_game_has_cases_and_the_expected_combinations() -> None:
    counts = {game_id: sum(1 for case in CASES if case.values[0] == game_id) for game_id in all_games()}
    assert all(counts.values()), counts
    assert counts.get("maybe-movies", 32) == 4 * 8  # 3-6 players, each with every combination of the three expansions
    assert counts.get("movie-empire", 12) == 12


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_conformance_sample(game_id: str, num_players: int, options: dict[str, OptionValue]) -> None:
    plan = budget(game_id)
    report = check_game(
        all_games()[game_id], num_players, options, range(plan.sample), deep_every=plan.sample_deep_every, leak_samples=plan.leak_samples
    )
    assert report.games == plan.sample and report.deep_games == len(range(0, plan.sample, plan.sample_deep_every))
    assert report.leak_checks_resampled > 0


def slow_cost(case: Any) -> int:
    """A rough cost of a slow case (a ``pytest.param`` of ``CASES``): its deep games (most of its time) times its players."""
    game_id, num_players, _ = case.values
    plan = budget(game_id)
    deep_games = len(range(0, len(plan.slow_seeds), plan.slow_deep_every))
    return deep_games * int(num_players)


@pytest.mark.slow
@pytest.mark.first  # the costliest cases start first, so pytest-xdist's workers finish together (tests/conftest.py)
@pytest.mark.parametrize(("game_id", "num_players", "options"), sorted(CASES, key=slow_cost, reverse=True))
def test_conformance_slow(game_id: str, num_players: int, options: dict[str, OptionValue]) -> None:
    plan = budget(game_id)
    report = check_game(all_games()[game_id], num_players, options, plan.slow_seeds, deep_every=plan.slow_deep_every)
    assert report.games == len(plan.slow_seeds)
    assert set(report.winners) == set(range(num_players))
    for (reached_game, option), kinds in REACHED.items():
        if reached_game == game_id and options.get(option):
            assert all(report.decision_kinds[kind] > 0 for kind in kinds), (option, dict(report.decision_kinds))
