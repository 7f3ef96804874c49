"""Movie Empire state: plain data with ``__slots__`` and a cheap ``clone()``; no rules here.

Piles are lists with the top card at the end (``pop()`` draws). Production
card copies are represented by their card id (copies are interchangeable).
Per-space arrays are indexed by ``Space.index`` of the board table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from greenlight.core.state import DICT, LIST, LISTS, GameState
from greenlight.games.movie_empire.cards import SHORT_ROUNDS, Tables
from greenlight.games.movie_empire.lines import Line
from greenlight.games.movie_empire.parameters import ROUNDS, STARTING_MONEY

# Phases (the Grumpy phase's AP12 gifts and the premiere's Internet step are their own phases).
SETUP, GRUMPY, GIFT, WORKING, PREMIERE, INTERNET, UPKEEP, OVER = (
    "setup",
    "grumpy",
    "gift",
    "working",
    "premiere",
    "internet",
    "upkeep",
    "over",
)

# Working-phase sub-decisions of a placement.
SUB_NONE, SUB_SWAP_CARD, SUB_SWAP_SLOT, SUB_RELEASE, SUB_SABOTAGE_KEEP = range(5)

# Interrupts: decisions that must be taken at once, before play goes on (§4.5, §4.7).
Q_DISCARD, Q_CHECK, Q_SHUT = range(3)

# Upkeep sub-steps.
UP_DOSSIERS, UP_BOARD = range(2)

NO_SEAT = -1


def shuffle_in_place(rng: random.Random, items: list[str]) -> None:
    """``rng.shuffle(items)``, written out: the same draws in the same order, so the same result (and stream after).

    ``random.Random.shuffle`` calls ``_randbelow`` (two Python calls) for every card; here each swap asks
    ``getrandbits`` directly, as ``_randbelow_with_getrandbits`` does. Only for generators whose ``_randbelow`` is
    that one (``random.Random`` and ``Stream``, which override neither ``random`` nor ``getrandbits``).
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


#: ``turn_order`` by number of players and first player (read, not rebuilt, at every step).
_TURN_ORDERS = {n: tuple(tuple((first + offset) % n for offset in range(n)) for first in range(n)) for n in range(1, 9)}


@dataclass(frozen=True, slots=True)
class Premiere:
    """One scored premiere (public): who, which movie, where, and the PP of each source (§4.9)."""

    round: int
    seat: int
    line: int
    script: str
    genre: str
    market: str
    trend: str | None
    hit: bool
    statue: bool
    parts: tuple[tuple[str, int], ...]
    total: int
    money: int
    sympathy: int


class MovieEmpireState(GameState):
    """A Movie Empire position (rules §4.0)."""

    __slots__ = (
        "assistant",
        "blocked",
        "commit",
        "cut_by",
        "dealt",
        "dossier",
        "drawn",
        "exempt",
        "exempt_pos",
        "first_player",
        "gifted",
        "hands",
        "known",
        "last_round",
        "lays",
        "lines",
        "markets_used",
        "money",
        "net_items",
        "net_pos",
        "num_players",
        "options",
        "passed",
        "phase",
        "placed",
        "plan",
        "plan_pile",
        "plans_done",
        "pp",
        "prem_pos",
        "premieres",
        "production_discard",
        "production_pile",
        "queue",
        "release_line",
        "released",
        "rng_seed",
        "rng_uses",
        "round",
        "script_discard",
        "script_pile",
        "seed",
        "slot_card",
        "spent",
        "star_discard",
        "star_pile",
        "statues",
        "step",
        "sub",
        "sub_card",
        "sub_space",
        "sympathy",
        "table",
        "target",
        "trend_hit",
        "trend_pile",
        "trend_removed",
        "trend_row",
        "turn_acted",
        "turn_placed",
        "turn_produced",
        "turn_seat",
    )
    # The slots' types are the position format (``greenlight.core.positions``); ``table`` and ``last_round``
    # follow from the options.
    table: Tables
    num_players: int
    options: dict[str, OptionValue]
    #: The seed of the deal (a position's header ``seed``).
    seed: int
    #: The last round: 10, or 7 in Shoot a Short.
    last_round: int
    #: The state's random stream: each shuffle draws from ``random.Random`` seeded by (seed, uses so far).
    #: Two ints clone for free, where a ``random.Random`` copies 625 words.
    rng_seed: int
    rng_uses: int
    round: int
    phase: str
    #: The working turn's step (``flow.TURN_ACTIVE``/``TURN_OVER``) or the Upkeep step (``UP_DOSSIERS``/``UP_BOARD``).
    step: int
    first_player: int
    # -- board
    production_pile: list[str]
    production_discard: list[str]
    star_pile: list[str]
    star_discard: list[str]
    script_pile: list[str]
    script_discard: list[str]
    trend_pile: list[str]
    trend_removed: list[str]
    #: TS1, TS2, TS3 (TS3 holds the active trend).
    trend_row: list[str | None]
    trend_hit: bool
    plan_pile: list[str]
    plans_done: list[str]
    #: The plan in force this round (None in round 1 and in Shoot a Short).
    plan: str | None
    #: Per space (``Space.index``): the card on a card slot, the seat of the assistant, of the blocking dossier,
    #: of the Cut! dossier, and the line a release space designates (-1 for none).
    slot_card: list[str | None]
    assistant: list[int]
    blocked: list[int]
    cut_by: list[int]
    release_line: list[int]
    # -- players
    money: list[int]
    pp: list[int]
    sympathy: list[int]
    hands: list[list[str]]
    lines: list[list[Line | None]]
    placed: list[int]
    passed: list[bool]
    #: Round in which the dossier on the tableau was taken, or -1 (§4.0).
    dossier: list[int]
    #: Dossiers spent this round (for the Upkeep penalty).
    spent: list[int]
    exempt: list[bool]
    statues: list[int]
    #: Released movies: (script, genre, market).
    released: list[list[tuple[str, str, str]]]
    #: Hand cards everyone knows about (taken face up from a slot).
    known: list[list[str]]
    #: Cards a seat gave under AP12 that are still in its left neighbour's hand (known to the giver only).
    gifted: list[list[str]]
    #: Cards drawn by the Sabotage dossier option, waiting for the keep choice (private).
    drawn: list[list[str]]
    #: Scripts dealt at setup, waiting for the keep choice (private).
    dealt: list[list[str]]
    #: Secret commitments of a simultaneous step (setup keep, AP12 gifts).
    commit: list[tuple[str, ...] | None]
    # -- sequencing
    exempt_pos: int
    turn_seat: int
    turn_placed: bool
    turn_produced: bool
    turn_acted: bool
    sub: int
    sub_card: str | None
    sub_space: int
    #: Line slot of the produce step in progress (-1 for none) and cards laid in it.
    target: int
    lays: int
    #: Interrupts in order: (``Q_DISCARD``/``Q_CHECK``/``Q_SHUT``, seat).
    queue: list[tuple[int, int]]
    prem_pos: int
    markets_used: list[str]
    #: The Internet step's items: (seat, release space index or -1 for a last-round premiere without a release).
    net_items: list[tuple[int, int]]
    net_pos: int
    #: This round's premieres, in order (public; the event log keeps the whole game).
    premieres: list[Premiere]

    derived = ("table", "last_round")
    #: What clone() copies (every other slot holds immutable values and is shared).
    copied = {
        "options": DICT,
        "production_pile": LIST,
        "production_discard": LIST,
        "star_pile": LIST,
        "star_discard": LIST,
        "script_pile": LIST,
        "script_discard": LIST,
        "trend_pile": LIST,
        "trend_removed": LIST,
        "trend_row": LIST,
        "plan_pile": LIST,
        "plans_done": LIST,
        "slot_card": LIST,
        "assistant": LIST,
        "blocked": LIST,
        "cut_by": LIST,
        "release_line": LIST,
        "money": LIST,
        "pp": LIST,
        "sympathy": LIST,
        "hands": LISTS,
        "lines": LISTS,
        "placed": LIST,
        "passed": LIST,
        "dossier": LIST,
        "spent": LIST,
        "exempt": LIST,
        "statues": LIST,
        "released": LISTS,
        "known": LISTS,
        "gifted": LISTS,
        "drawn": LISTS,
        "dealt": LISTS,
        "commit": LIST,
        "queue": LIST,
        "markets_used": LIST,
        "net_items": LIST,
        "premieres": LIST,
    }

    def __init__(self, table: Tables, num_players: int, seed: int, options: dict[str, OptionValue]) -> None:
        n = num_players
        spaces = len(table.spaces)
        self.table = table
        self.num_players = n
        self.seed = seed
        self.options = options
        self.last_round = SHORT_ROUNDS if options.get("shoot_a_short") else ROUNDS.number(options)
        self.rng_seed = seed
        self.rng_uses = 0
        self.round = 1
        self.phase = SETUP
        self.step = 0
        self.first_player = 0
        # -- board
        self.production_pile = []
        self.production_discard = []
        self.star_pile = []
        self.star_discard = []
        self.script_pile = []
        self.script_discard = []
        self.trend_pile = []
        self.trend_removed = []
        self.trend_row = [None, None, None]
        self.trend_hit = False
        self.plan_pile = []
        self.plans_done = []
        self.plan = None
        self.slot_card = [None] * spaces
        self.assistant = [NO_SEAT] * spaces
        self.blocked = [NO_SEAT] * spaces
        self.cut_by = [NO_SEAT] * spaces
        self.release_line = [NO_SEAT] * spaces
        # -- players
        self.money = [STARTING_MONEY.number(options)] * n
        self.pp = [0] * n
        self.sympathy = [0] * n
        self.hands = [[] for _ in range(n)]
        self.lines = [[None, None] for _ in range(n)]
        self.placed = [0] * n
        self.passed = [False] * n
        self.dossier = [NO_SEAT] * n
        self.spent = [0] * n
        self.exempt = [False] * n
        self.statues = [0] * n
        self.released = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.gifted = [[] for _ in range(n)]
        self.drawn = [[] for _ in range(n)]
        self.dealt = [[] for _ in range(n)]
        self.commit = [None] * n
        # -- sequencing
        self.exempt_pos = 0
        self.turn_seat = NO_SEAT
        self.turn_placed = False
        self.turn_produced = False
        self.turn_acted = False
        self.sub = SUB_NONE
        self.sub_card = None
        self.sub_space = NO_SEAT
        self.target = NO_SEAT
        self.lays = 0
        self.queue = []
        self.prem_pos = 0
        self.markets_used = []
        self.net_items = []
        self.net_pos = 0
        self.premieres = []

    # -- small derived facts (no rules) ---------------------------------------------------

    @property
    def short(self) -> bool:
        """Shoot a Short is on (§6)."""
        return bool(self.options.get("shoot_a_short"))

    @property
    def clean(self) -> bool:
        """Clean Hands is on (§6)."""
        return bool(self.options.get("clean_hands"))

    def shuffle(self, items: list[str]) -> None:
        """Shuffle ``items`` in place with the state's own random stream (never the global RNG)."""
        self.rng_uses += 1
        shuffle_in_place(Stream("movie-empire", "shuffle", self.rng_seed, self.rng_uses), items)

    def turn_order(self) -> tuple[int, ...]:
        """Seats from the first player, clockwise."""
        n = self.num_players
        try:
            return _TURN_ORDERS[n][self.first_player]
        except (IndexError, KeyError):  # not a seat (a position being checked): the same rule, worked out
            return tuple((self.first_player + offset) % n for offset in range(n))

    def left_of(self, seat: int) -> int:
        """The left neighbour (the next seat clockwise)."""
        return (seat + 1) % self.num_players
