"""Maybe Movies: metadata and options."""

from __future__ import annotations

from collections.abc import Mapping

from greenlight.core.spec import GameSpec, OptionSpec, OptionValue
from greenlight.games.maybe_movies.cards import DATA, NUM_BLOCKBUSTERS, NUM_MOVIES, NUM_VOTES, load_catalogue
from greenlight.games.maybe_movies.parameters import PARAMETERS

#: Longest possible game, in actions. A seat casts at most 12 final votes (10 dealt + 2 CHANGE replacements,
#: R25), so a game has at most 12 turns. Per turn: at most 6 adds + finish, 6 votes, one cost and one profit
#: choice per text card (a row holds at most 6 + 2N = 18 cards), one pick: 50. Over the game at most 2N = 12
#: CHANGE rounds, each with 6 re-votes and 3 edit steps. 12 * 50 + 12 * 9 = 708, rounded up.
MAX_GAME_LENGTH = 1000

#: G3 draws one to three icons for each movie card; G4 gives a blockbuster at most one icon, its X.
MAX_ICONS_PER_MOVIE = 3


def score_bounds(num_players: int, options: Mapping[str, OptionValue]) -> tuple[float, float]:
    """A score is the sum, over a seat's won vote cards, of how often their icon appears on Movies Made (§5.2).

    So it is at least 0, and at most every vote card of the catalogue won by one seat, each counting every
    printed icon of every movie card: votes x printed icons, read from the data file, or for a generated
    catalogue from its composition (60 votes, 44 movies of at most 3 icons, 16 blockbusters of at most 1).
    """
    data = options.get("data")
    if not data:
        return 0.0, float(NUM_VOTES * (MAX_ICONS_PER_MOVIE * NUM_MOVIES + NUM_BLOCKBUSTERS))
    catalogue = load_catalogue(str(data))
    icons = sum(len(card.printed_icons) for card in (*catalogue.movies, *catalogue.blockbusters))
    return 0.0, float(len(catalogue.votes) * icons)


SPEC = GameSpec(
    id="maybe-movies",
    title="Maybe Movies",
    version="1",
    min_players=3,
    max_players=6,
    summary=(
        "Pitch movies built from market cards; everyone votes with secret YES/NO cards that carry icons. "
        "Win vote cards, then make sure their icons appear on the movies that get made."
    ),
    options=(
        OptionSpec(
            "trendsetter_tricks",
            "bool",
            False,
            "Trendsetter Tricks: a card matching a failed movie costs double, one matching a successful movie pays double; "
            "every pitch becomes a stack.",
        ),
        OptionSpec(
            "breaking_changes",
            "bool",
            False,
            "Breaking Changes: 2 CHANGE cards and 2 personal movie cards per player; a CHANGE vote edits the pitch and forces a re-vote.",
        ),
        OptionSpec(
            "blockbuster_budgets",
            "bool",
            False,
            "Blockbuster Budgets: 16 blockbuster cards whose cost and profit are texts, read left to right.",
        ),
        OptionSpec(
            "data",
            "path",
            None,
            "A fixed catalogue (JSON, rules §2.7) instead of the one generated from the game seed.",
            variant=False,
            aliases=("deck",),
        ),
        *PARAMETERS,
    ),
    data=DATA,
    max_game_length=MAX_GAME_LENGTH,
    score_bounds=score_bounds,
)
