"""The generic conformance harness on Movie Empire: every player count and combination of the two modes."""

from __future__ import annotations

import pytest

from greenlight.games.movie_empire import GAME
from greenlight.testing import check_game, option_matrix

COMBINATIONS = list(option_matrix(GAME))
IDS = [f"{n}p-" + "-".join(k for k, v in o.items() if v is True) for n, o in COMBINATIONS]


def test_option_matrix_has_the_twelve_combinations() -> None:
    assert len(COMBINATIONS) == 12


@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_sample(num_players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, num_players, options, range(24), deep_every=12)
    assert report.games == 24 and report.deep_games == 2
    assert report.leak_checks_resampled > 0


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "options"), COMBINATIONS, ids=IDS)
def test_conformance_1000_games(num_players: int, options: dict[str, object]) -> None:
    # deep_every=40: 25 games per combination get every per-step check (300 in all); the whole
    # slow run takes about 9 minutes of one core (docs/movie_empire.md).
    report = check_game(GAME, num_players, options, range(10_000, 11_000), deep_every=40)
    assert report.games == 1000 and report.deep_games == 25
    assert set(report.winners) == set(range(num_players))
