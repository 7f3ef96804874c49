"""Cinecitta 1937: metadata and options."""

from __future__ import annotations

from greenlight.core.spec import GameSpec, OptionSpec

SPEC = GameSpec(
    id="cinecitta",
    title="Cinecitta 1937",
    version="1",
    min_players=3,
    max_players=5,
    summary=(
        "Each round every studio secretly offers a staff card and money to a partner, "
        "who secures the funds or headhunts the card. Build a Studio of three for quality "
        "and an Office for box office."
    ),
    options=(
        OptionSpec(
            "destination_change",
            "bool",
            False,
            "Destination Change coaster (4-5 players): the partner turns each round, so you deal with a different studio.",
            allowed_players=(4, 5),
        ),
        OptionSpec(
            "movie_awards",
            "bool",
            False,
            "Movie Awards: +200 for the highest quality, -100 for the lowest, among finished studios.",
        ),
        OptionSpec(
            "data",
            "path",
            None,
            "A custom card file (TOML, same fields as the bundled one) instead of the bundled cards.",
            variant=False,
            aliases=("cards",),
        ),
    ),
    # 3 steps a round, one action per seat per step, at most 8 rounds.
    max_game_length=3 * 5 * 8,
)
