"""The generic conformance harness on Maybe Movies: every player count and every combination of the three expansions."""

from __future__ import annotations

import pytest

from greenlight.games.maybe_movies import GAME
from greenlight.testing import check_game, option_matrix

COMBINATIONS = list(option_matrix(GAME))
IDS = [f"{n}p-" + ("-".join(k for k, v in o.items() if v is True) or "base") for n, o in COMBINATIONS]


def test_every_combination_of_the_expansions_is_covered() -> None:
    assert len(COMBINATIONS) == 4 * 8
    assert {n for n, _ in COMBINATIONS} == {3, 4, 5, 6}


@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_sample(num_players: int, options: dict[str, object]) -> None:
    # One game with every per-step check (one determinization per seat and step) and 11 with the cheap checks.
    report = check_game(GAME, num_players, options, range(12), deep_every=12, leak_samples=1)
    assert report.games == 12 and report.deep_games == 1
    assert report.leak_checks_resampled > 0


#: Every 1000th game gets the costly per-step checks (2 per combination, 64 in all, on top of the 32 of the
#: default run): that keeps the whole slow run well under 10 minutes on one core (timings in docs/maybe_movies.md).
SLOW_DEEP_EVERY = 1000


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_2000_games(num_players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, num_players, options, range(1000, 3000), deep_every=SLOW_DEEP_EVERY)
    assert report.games == 2000 and report.deep_games == 2000 // SLOW_DEEP_EVERY
    assert set(report.winners) == set(range(num_players))
    if options.get("breaking_changes"):
        assert report.decision_kinds["change_edit"] > 0
    if options.get("blockbuster_budgets"):
        assert report.decision_kinds["cost_choice"] > 0 and report.decision_kinds["profit_choice"] > 0
