"""The data of every Maybe Movies event, by kind (``EVENT_TYPES``), as the rules make it and ``describe`` reads it.

The ``checked`` event carries the success check in the form observations show it (``observation.Check``).
"""

from __future__ import annotations

from typing import TypedDict

from greenlight.games.maybe_movies.observation import Check, CostView


class TurnStarted(TypedDict):
    """A turn began: ``active`` pitches."""

    turn: int
    active: int


class MarketRefilled(TypedDict):
    """Cards drawn into the market, in order."""

    cards: list[str]


class Reshuffled(TypedDict):
    """The discards became a new draw pile of ``cards`` cards."""

    cards: int


class PitchAdded(TypedDict):
    """The active player added a market card to the pitch."""

    seat: int
    card: str


class Pitched(TypedDict):
    """The pitch is locked."""

    seat: int
    row: list[str]


class VoteStarted(TypedDict):
    """A vote round began (``round`` 1, then one more after each CHANGE round)."""

    voters: list[int]
    round: int


class VoteCommitted(TypedDict):
    """A seat chose its secret vote (``automatic``: its last card)."""

    seat: int
    automatic: bool


class VoteChosen(TypedDict):
    """The card a seat voted (seen by that seat only)."""

    seat: int
    card: str


class VotesRevealed(TypedDict):
    """Every vote of the round at once, per seat (None: no vote)."""

    votes: list[str | None]
    round: int


class ChangeRound(TypedDict):
    """The CHANGE-voters change the pitch in this order: ``[seat, CHANGE card]`` pairs."""

    order: list[list[int | str]]


class ChangeNoEffect(TypedDict):
    """A CHANGE card that could change nothing."""

    seat: int
    change: str


class RowCardRemoved(TypedDict):
    """A CHANGE-voter removed a card from the pitch."""

    seat: int
    card: str
    row: list[str]


class RowEdited(TypedDict):
    """A CHANGE-voter's edit is done: what it removed and added, where, the pitch now and K."""

    seat: int
    change: str
    removed: str | None
    added: str | None
    slot: int | None
    row: list[str]
    K: int


class PersonalDrawn(TypedDict):
    """A seat drew new personal movie cards."""

    seat: int
    cards: list[str]


class CardsBack(TypedDict):
    """The votes that went back to their owners' hands: ``[seat, card]`` pairs."""

    returned: list[list[int | str]]


class ReplacementDrawn(TypedDict):
    """A CHANGE-voter's replacement draw from the pool (None: the pool was empty)."""

    seat: int
    card: str | None


class Budget(TypedDict):
    """The final pitch's costs worked out: per card, the need per icon and the icons of any kind."""

    row: list[str]
    costs: list[CostView]
    need: list[int]
    any: int


class CostChoice(TypedDict):
    """The active player settled a tied blockbuster cost: the card copied (``copy``) or the icon (``icon``)."""

    seat: int
    card: str
    kind: str
    choice: str


class ProfitChoice(TypedDict):
    """The active player chose a blockbuster's profit."""

    seat: int
    card: str
    kind: str
    choice: int


class Profits(TypedDict):
    """The final profits of the row, left to right, and their sum."""

    profits: list[int]
    total: int


class Payout(TypedDict):
    """A success paid out: the cards collected, what each seat won, what went to the pool."""

    profit: int
    collected: list[str]
    won: list[list[str]]
    to_pool: list[str]


class Failed(TypedDict):
    """A failure settled: the cards NO-voters won back, what went to the pool."""

    all_no: bool
    won: list[list[str]]
    to_pool: list[str]


class Discarded(TypedDict):
    """The row of a failed pitch was discarded."""

    cards: list[str]


class MovieMade(TypedDict):
    """A card went into the movies made, the rest of the row was discarded."""

    seat: int
    card: str
    discarded: list[str]


class StackMade(TypedDict):
    """Trendsetter Tricks: the row became a stack with ``top`` on top."""

    seat: int
    top: str
    cards: list[str]
    success: bool


class GameOver(TypedDict):
    """The game ended."""

    scores: list[float]
    winners: list[int]


EVENT_TYPES: dict[str, type] = {
    "turn_started": TurnStarted,
    "market_refilled": MarketRefilled,
    "reshuffled": Reshuffled,
    "pitch_added": PitchAdded,
    "pitched": Pitched,
    "vote_started": VoteStarted,
    "vote_committed": VoteCommitted,
    "vote_chosen": VoteChosen,
    "votes_revealed": VotesRevealed,
    "change_round": ChangeRound,
    "change_no_effect": ChangeNoEffect,
    "row_card_removed": RowCardRemoved,
    "row_edited": RowEdited,
    "personal_drawn": PersonalDrawn,
    "cards_back": CardsBack,
    "replacement_drawn": ReplacementDrawn,
    "budget": Budget,
    "checked": Check,  # the success check of the final vote, as observations show it
    "cost_choice": CostChoice,
    "profit_choice": ProfitChoice,
    "profit": Profits,
    "payout": Payout,
    "failed": Failed,
    "discarded": Discarded,
    "movie_made": MovieMade,
    "stack_made": StackMade,
    "game_over": GameOver,
}
