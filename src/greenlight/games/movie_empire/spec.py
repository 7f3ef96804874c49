"""Movie Empire: metadata and options (rules §1, §6)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from greenlight.core.spec import GameSpec, OptionSpec, OptionValue
from greenlight.games.movie_empire.cards import DATA, load_tables
from greenlight.games.movie_empire.parameters import PARAMETERS, rounds_rule


def score_bounds(num_players: int, options: Mapping[str, OptionValue]) -> tuple[float, float]:
    """The lowest final score is the sympathy bar's lowest end-of-game PP: premieres only add PP, money is never
    negative, and the dossier and the awards add or give nothing (§4.9, §5). No simple upper bound holds (money
    gains depend on the whole game), so the high end is unbounded."""
    data = options.get("data")
    tables = load_tables(str(data) if data else None)
    return float(min(level.end_pp for level in tables.sympathy.values())), math.inf


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
        *PARAMETERS,
    ),
    constraints=(rounds_rule,),
    # 12 rounds (the most the rounds parameter allows) x 4 seats x 4 turns, each turn at most ~25 small decisions, plus interrupts.
    max_game_length=12 * 4 * 4 * 40,
    score_bounds=score_bounds,
    data=DATA,
)
