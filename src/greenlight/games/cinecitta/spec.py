"""Cinecitta 1937: metadata and options."""

from __future__ import annotations

from collections.abc import Mapping

from greenlight.core.spec import GameSpec, OptionSpec, OptionValue
from greenlight.games.cinecitta.cards import DATA, load_cards
from greenlight.games.cinecitta.parameters import PARAMETERS, parameters_rule, starting_money


def score_bounds(num_players: int, options: Mapping[str, OptionValue]) -> tuple[float, float]:
    """A drop-out scores 0; a finisher's value is at most quality 999 + box office + the Golden Doggy's 200 (S1-S7).

    Box office is the wallet times the Office's reels, so it is at most all
    the table's money (every studio's start plus every promotion icon of the
    card file, at 10 each) times every reel of the card file. A finisher's
    value is at least 111 - 100 = 11 (S1, R16), so 0 is the lowest score.
    """
    data = options.get("data")
    cards = load_cards(str(data) if data else None).cards
    money = num_players * starting_money(options) + 10 * sum(card.promotion for card in cards)
    return 0.0, float(999 + money * sum(card.reels for card in cards) + 200)


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
        *PARAMETERS,
    ),
    constraints=(parameters_rule,),
    data=DATA,
    # 3 steps a round, one action per seat per step, at most 8 rounds.
    max_game_length=3 * 5 * 8,
    score_bounds=score_bounds,
)
