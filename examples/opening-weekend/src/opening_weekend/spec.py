"""What Opening Weekend declares about itself: id, player counts, options, rules version."""

from __future__ import annotations

from greenlight.core.spec import GameSpec, OptionSpec

#: Rounds in a game: one weekend each.
ROUNDS = 5

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
)
