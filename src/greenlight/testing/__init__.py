"""Reusable test machinery: the conformance harness every game runs."""

from greenlight.testing.conformance import (
    ConformanceFailure,
    ConformanceReport,
    check_determinism,
    check_game,
    option_matrix,
    play_random_game,
)

__all__ = [
    "ConformanceFailure",
    "ConformanceReport",
    "check_determinism",
    "check_game",
    "option_matrix",
    "play_random_game",
]
