"""Movie Empire: metadata and options (rules §1, §6)."""

from __future__ import annotations

from greenlight.core.spec import GameSpec, OptionSpec

SPEC = GameSpec(
    id="movie-empire",
    title="Movie Empire",
    version="3",
    min_players=2,
    max_players=4,
    summary=(
        "Send production assistants to gather scripts, production cards and stars, lay them out in production "
        "lines by the colour rule, keep Grumpy happy, and premiere your movies in the best market over 10 rounds."
    ),
    options=(
        OptionSpec(
            "shoot_a_short",
            "bool",
            False,
            "Shoot a Short: 7 rounds, 2 production cards and 2 scripts to start, no annual plans.",
        ),
        OptionSpec(
            "clean_hands",
            "bool",
            False,
            "Clean Hands: no black dossiers (no Reveal a secret, no BN2, no Block, Purge or Cut!).",
        ),
        OptionSpec(
            "data",
            "path",
            None,
            "A folder of TOML data files replacing the bundled ones (a file missing there falls back to the bundled one).",
            variant=False,
            aliases=("data_dir",),
        ),
    ),
    # 10 rounds x 4 seats x 4 turns, each turn at most ~25 small decisions, plus interrupts.
    max_game_length=10 * 4 * 4 * 40,
)
