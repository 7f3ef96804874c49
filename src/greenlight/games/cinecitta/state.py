"""Cinecitta 1937 state: plain data, no rules."""

from __future__ import annotations

from dataclasses import dataclass

from greenlight.core.spec import OptionValue
from greenlight.core.state import DICT, LIST, LISTS, GameState
from greenlight.games.cinecitta.cards import CardTable
from greenlight.games.cinecitta.parameters import STARTING_MONEY

OFFER, RESPOND, PLACE, OVER = "offer", "respond", "place", "over"


@dataclass(frozen=True, slots=True)
class Folder:
    """One folder of one round: who sent it to whom, what was in it, and the answer.

    Seen only by its sender and its recipient (R36); the sender learns the
    response at step 3a.
    """

    round: int
    sender: int
    recipient: int
    card: str
    amount: int
    response: str | None = None


@dataclass(frozen=True, slots=True)
class Placement:
    """One card placed in a Studio, and the card it moved to the Office (if any)."""

    seat: int
    card: str
    moved_out: str | None


class CinecittaState(GameState):
    """A Cinecitta 1937 position.

    Commitments (``offers``, ``responses``, ``plans``) stay hidden until every
    seat has committed; then the step resolves all at once.
    """

    __slots__ = (
        "folders",
        "hand_size",
        "hands",
        "num_players",
        "offers",
        "offices",
        "opening_wallets",
        "options",
        "pending",
        "placements",
        "plans",
        "responses",
        "round",
        "round_start_wallets",
        "step",
        "studios",
        "table",
        "undealt",
        "wallets",
    )
    # The slots' types are the position format (``greenlight.core.positions``); ``table`` follows from the options.
    table: CardTable
    num_players: int
    options: dict[str, OptionValue]
    hand_size: int
    round: int
    step: str
    hands: list[list[str]]
    wallets: list[int]
    #: Wallets when the current round began (lets determinize replay the round).
    round_start_wallets: list[int]
    #: Wallets when play began, if everyone knows them (a dealt game: 100 each, §3 step 5);
    #: None for an explicit position, where each seat knows only its own and the total.
    opening_wallets: tuple[int, ...] | None
    studios: list[list[str]]
    offices: list[list[str]]
    undealt: list[str]
    offers: list[tuple[str, int] | None]
    responses: list[str | None]
    pending: list[list[str]]
    plans: list[tuple[tuple[str, str | None], ...] | None]
    #: Every folder of the game, in order (private to sender and recipient).
    folders: list[Folder]
    #: Every placement of the game, in order (public).
    placements: list[list[Placement]]

    derived = ("table",)
    #: What clone() copies (every other slot holds immutable values and is shared).
    copied = {
        "options": DICT,
        "hands": LISTS,
        "wallets": LIST,
        "round_start_wallets": LIST,
        "studios": LISTS,
        "offices": LISTS,
        "undealt": LIST,
        "offers": LIST,
        "responses": LIST,
        "pending": LISTS,
        "plans": LIST,
        "folders": LIST,
        "placements": LISTS,
    }

    def __init__(self, table: CardTable, num_players: int, options: dict[str, OptionValue], hand_size: int) -> None:
        self.table = table
        self.num_players = num_players
        self.options = options
        self.hand_size = hand_size
        self.round = 1
        self.step = OFFER
        self.hands = [[] for _ in range(num_players)]
        money = STARTING_MONEY.number(options)
        self.wallets = [money] * num_players
        self.round_start_wallets = [money] * num_players
        self.opening_wallets = (money,) * num_players
        self.studios = [[] for _ in range(num_players)]
        self.offices = [[] for _ in range(num_players)]
        self.undealt = []
        self.offers = [None] * num_players
        self.responses = [None] * num_players
        self.pending = [[] for _ in range(num_players)]
        self.plans = [None] * num_players
        self.folders = []
        self.placements = []

    @property
    def rounds(self) -> int:
        """Number of rounds H (= the hand size at the start)."""
        return self.hand_size
