"""Maybe Movies' rule parameters: the numbers a designer tunes first, each the rulebook's value by default.

A game played with every parameter at its default is the game of the rules
file (its records and states are the same as before parameters existed); a
changed one is an option (``-o hand_size=8``, a catalogue's ``parameters``
table, a sweep's ``--vary market_size=4..6``).

===============  =======  =======  ==================================================
parameter        default  range    rules file
===============  =======  =======  ==================================================
``hand_size``    10       4 to 10  §3 steps 2-4 (5 YES and 5 NO per player), §5.1
``market_size``  6        3 to 6   §3, §4.8 (the market is refilled to 6)
===============  =======  =======  ==================================================

A hand of *h* cards is dealt from *h*/2 YES (rounded down) and the rest NO
per player, so the game lasts *h* turns without Breaking Changes.
"""

from __future__ import annotations

from greenlight.core.spec import OptionSpec
from greenlight.games.maybe_movies.state import MaybeMoviesState

HAND_SIZE = OptionSpec(
    "hand_size",
    "int",
    10,
    "Vote cards dealt to each player, half YES and half NO (the rulebook's 10), so the number of turns.",
    minimum=4,
    maximum=10,
    variant=False,
    parameter=True,
    rule="§3 steps 2-4",
)
MARKET_SIZE = OptionSpec(
    "market_size",
    "int",
    6,
    "Movie cards in the market, refilled after every pitch (the rulebook's 6).",
    minimum=3,
    maximum=6,
    variant=False,
    parameter=True,
    rule="§3, §4.8",
)
PARAMETERS = (HAND_SIZE, MARKET_SIZE)


def hand_size(state: MaybeMoviesState) -> int:
    """Vote cards dealt to each hand (§3)."""
    return HAND_SIZE.number(state.options)


def market_size(state: MaybeMoviesState) -> int:
    """Movie cards the market is refilled to (§4.8)."""
    return MARKET_SIZE.number(state.options)
