"""Maybe Movies: metadata and options."""

from __future__ import annotations

from greenlight.core.spec import GameSpec, OptionSpec

#: Longest possible game, in actions. A seat casts at most 12 final votes (10 dealt + 2 CHANGE replacements,
#: R25), so a game has at most 12 turns. Per turn: at most 6 adds + finish, 6 votes, one cost and one profit
#: choice per text card (a row holds at most 6 + 2N = 18 cards), one pick: 50. Over the game at most 2N = 12
#: CHANGE rounds, each with 6 re-votes and 3 edit steps. 12 * 50 + 12 * 9 = 708, rounded up.
MAX_GAME_LENGTH = 1000

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
    ),
    max_game_length=MAX_GAME_LENGTH,
)
