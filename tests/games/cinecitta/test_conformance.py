"""The generic conformance harness on Cinecitta 1937, every player count and option combination."""

from __future__ import annotations

import pytest

from greenlight.games.cinecitta import GAME
from greenlight.testing import check_game, option_matrix

COMBINATIONS = list(option_matrix(GAME))
IDS = [f"{n}p-" + "-".join(k for k, v in o.items() if v is True) for n, o in COMBINATIONS]


@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_sample(num_players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, num_players, options, range(40), deep_every=8)
    assert report.games == 40
    assert report.leak_checks_resampled > 0


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_2000_games(num_players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, num_players, options, range(1000, 3000), deep_every=100)
    assert report.games == 2000
    assert set(report.winners) == set(range(num_players))
