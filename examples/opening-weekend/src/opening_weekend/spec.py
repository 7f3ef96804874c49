"""What Opening Weekend declares about itself: id, player counts, options, rules version."""

from __future__ import annotations

from collections.abc import Mapping

from greenlight.core.spec import GameSpec, OptionSpec, OptionValue
from opening_weekend.cards import WEEKENDS

#: Rounds in a game: one weekend each.
ROUNDS = 5


def score_bounds(num_players: int, options: Mapping[str, OptionValue]) -> tuple[float, float]:
    """At worst a seat flops every weekend (1 point each, with Flops); at best it wins the five most valuable weekends."""
    best = sum(sorted((weekend.value for weekend in WEEKENDS), reverse=True)[:ROUNDS])
    return (-float(ROUNDS) if options.get("flops") else 0.0), float(best)


SPEC = GameSpec(
    id="opening-weekend",
    title="Opening Weekend",
    version="1",
    min_players=2,
    max_players=4,
    options=(
        OptionSpec("flops", "bool", False, "Flops: the lowest buzz card of each weekend loses 1 point"),
        OptionSpec("sneak_previews", "bool", False, "Sneak previews: next weekend's card is shown one round early"),
    ),
    summary="Release your films into five weekends with sealed buzz cards; the loudest buzz takes the weekend.",
    max_game_length=4 * ROUNDS,
    score_bounds=score_bounds,
)
