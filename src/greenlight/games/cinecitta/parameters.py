"""Cinecitta 1937's rule parameters: the numbers a designer tunes first, each the rulebook's value by default.

A game played with every parameter at its default is the game of the rules
file (its records and states are the same as before parameters existed); a
changed one is an option (``-o starting_money=120``, a card file's
``[parameters]`` table, a sweep's ``--vary extra_rounds=-2..0``).

==================  =======  =======  ==================================================
parameter           default  range    rules file
==================  =======  =======  ==================================================
``starting_money``  100      50-160   §3 step 5 (ten notes of 10); a multiple of 10, and
                                      the table's money at most 500 (offers are coded
                                      up to 500, the rulebook's 5 x 100)
``extra_rounds``    0        -4 to 1  §3 table "Hand size H = number of rounds" (8 at 3
                                      players, 7 at 4 and 5); at most 8 rounds
==================  =======  =======  ==================================================

Each round uses one card of every hand, so a changed number of rounds deals
that many cards; the cards in play at the table's player count must cover
every hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from greenlight.core.spec import OptionSpec, OptionValue
from greenlight.games.cinecitta.cards import HAND_SIZE, load_cards

STARTING_MONEY = OptionSpec(
    "starting_money",
    "int",
    100,
    "Money in each studio's wallet at the start (the rulebook's 100: ten notes of 10); the table's money stays at most 500.",
    minimum=50,
    maximum=160,
    variant=False,
    parameter=True,
    rule="§3 step 5",
)
EXTRA_ROUNDS = OptionSpec(
    "extra_rounds",
    "int",
    0,
    "Rounds added to the rulebook's (8 at 3 players, 7 at 4 and 5), each with one more card in every hand; "
    "negative plays fewer. At most 8 rounds.",
    minimum=-4,
    maximum=1,
    variant=False,
    parameter=True,
    rule="§3 Hand size H = number of rounds",
)
PARAMETERS = (STARTING_MONEY, EXTRA_ROUNDS)
#: The most money a table may hold (offers are coded up to it: the rulebook's 5 players x 100).
MAX_TABLE_MONEY = 500
#: The most rounds a game may have (the action codes, the encodings and the longest game are sized for it).
MAX_ROUNDS = max(HAND_SIZE.values())


def starting_money(options: Mapping[str, OptionValue]) -> int:
    """Each wallet at the start (§3 step 5)."""
    return STARTING_MONEY.number(options)


def hand_size(num_players: int, options: Mapping[str, OptionValue]) -> int:
    """Cards dealt to each studio and rounds played: the rulebook's H for the player count plus ``extra_rounds`` (§3)."""
    return HAND_SIZE[num_players] + EXTRA_ROUNDS.number(options)


def parameters_rule(num_players: int, options: Mapping[str, OptionValue]) -> str | None:
    """Money is notes of 10; the cards in play must cover every hand of a changed hand size."""
    money = starting_money(options)
    if money % 10:
        return f"starting_money must be a multiple of 10 (money is notes of 10), got {money}"
    if money * num_players > MAX_TABLE_MONEY:
        most = MAX_TABLE_MONEY // num_players // 10 * 10
        return f"starting_money may be at most {most} at {num_players} players (the table's money is at most {MAX_TABLE_MONEY})"
    if EXTRA_ROUNDS.name in options:
        if hand_size(num_players, options) > MAX_ROUNDS:
            most = MAX_ROUNDS - HAND_SIZE[num_players]
            return f"at {num_players} players extra_rounds may add at most {most} (a game has at most {MAX_ROUNDS} rounds)"
        data = options.get("data")
        in_play = len(load_cards(str(data) if data else None).deck_for(num_players))
        needed = num_players * hand_size(num_players, options)
        if in_play < needed:
            size = hand_size(num_players, options)
            return f"a hand of {size} at {num_players} players needs {needed} cards in play, the cards give {in_play}"
    return None
