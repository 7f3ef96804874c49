"""Movie Empire's rule parameters: the numbers a designer tunes first, each the rulebook's value by default.

A game played with every parameter at its default is the game of the rules
file (its records and states are the same as before parameters existed); a
changed one is an option (``-o rounds=8``, a data folder's ``parameters.toml``,
a sweep's ``--vary rounds=8..12``). The rules read them with ``SPEC.read``.

=================  =======  ==========  ==================================================
parameter          default  range       rules file
=================  =======  ==========  ==================================================
``rounds``         10       4 to 12     §1 Length ("10 rounds"); Shoot a Short keeps its 7
``hand_limit``     4        2 to 8      §2.2 Hand limit, §4.5 (R2)
``starting_money`` 0        0 to 30     §2.2 Starting money
=================  =======  ==========  ==================================================

With other rounds, the trends set aside at setup are the trends left over
(17 - rounds; 7 in the rulebook, §3 step 7), so one trend is still on the
board in the last round (§2.10); annual plans come one a round from round 2
while the pile lasts.
"""

from __future__ import annotations

from collections.abc import Mapping

from greenlight.core.spec import OptionSpec, OptionValue
from greenlight.games.movie_empire.cards import FULL_REMOVED_TRENDS, FULL_ROUNDS, SHORT_REMOVED_TRENDS

ROUNDS = OptionSpec(
    "rounds",
    "int",
    FULL_ROUNDS,
    "Rounds in a full game (the rulebook's 10; Shoot a Short keeps its 7).",
    minimum=4,
    maximum=12,
    variant=False,
    parameter=True,
    rule="§1 Length",
)
HAND_LIMIT = OptionSpec(
    "hand_limit",
    "int",
    4,
    "Cards a hand may hold (the rulebook's 4); a gain above it is discarded at once.",
    minimum=2,
    maximum=8,
    variant=False,
    parameter=True,
    rule="§2.2 Hand limit (R2)",
)
STARTING_MONEY = OptionSpec(
    "starting_money",
    "int",
    0,
    "Money each player starts with (the rulebook's 0).",
    minimum=0,
    maximum=30,
    variant=False,
    parameter=True,
    rule="§2.2 Starting money",
)
PARAMETERS = (ROUNDS, HAND_LIMIT, STARTING_MONEY)


def removed_trends(options: Mapping[str, OptionValue]) -> int:
    """Trends set aside at setup (§3 step 7): 10 in Shoot a Short, else the 17 trends less the rounds (7 in the rulebook)."""
    if options.get("shoot_a_short"):
        return SHORT_REMOVED_TRENDS
    return FULL_REMOVED_TRENDS + FULL_ROUNDS - ROUNDS.number(options)


def rounds_rule(num_players: int, options: Mapping[str, OptionValue]) -> str | None:
    """A changed number of rounds is for the full game: Shoot a Short plays its own 7 (§6)."""
    if options.get("shoot_a_short") and ROUNDS.name in options:
        return "rounds sets the length of a full game; Shoot a Short always plays 7 rounds"
    return None
