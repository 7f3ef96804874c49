"""Maybe Movies state: plain data, no rules.

Cards are referred to by their catalogue id (``Y05``, ``N13``, ``C02``,
``M12``, ``B03``); the :class:`~greenlight.games.maybe_movies.cards.Catalogue`
is shared static data. The state owns the play stream (§2.6) and consumes it
only through the primitives of :mod:`greenlight.games.maybe_movies.chance`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from greenlight.core.rng import Stream
from greenlight.core.state import DICT, LIST, LISTS, STREAM, GameState, StaticData
from greenlight.games.maybe_movies.budget import CheckResult, ChoicePoint, Evaluation
from greenlight.games.maybe_movies.cards import Catalogue

# Phases = the decision points of §4.0, plus the end.
PITCH = "pitch"
VOTE = "vote"
CHANGE_EDIT = "change_edit"
COST_CHOICE = "cost_choice"
PROFIT_CHOICE = "profit_choice"
MOVIE_PICK = "movie_pick"
OVER = "over"

# Sub-steps of one CHANGE_EDIT (R27): remove or add, then add or finish after a removal, then the slot (R28).
EDIT_START = "start"
EDIT_ADD = "add"
EDIT_SLOT = "slot"


class Stack(NamedTuple):
    """One entry of Movies Made: the base game's single card, or a Trendsetter stack (§6.1)."""

    cards: tuple[str, ...]
    top: str
    success: bool


class ChangeRecord(NamedTuple):
    """How one revealed CHANGE card was resolved (§6.2): the edit, the personal refill and the replacement draw."""

    seat: int
    card: str
    number: int
    removed: str | None = None
    added: str | None = None
    slot: int | None = None
    refills: tuple[str, ...] = ()
    replacement: str | None = None

    @property
    def had_effect(self) -> bool:
        """Whether an edit happened (it adds 1 to K)."""
        return self.removed is not None or self.added is not None


class Settlement(NamedTuple):
    """Where the final vote's cards went (§4.5, §4.6): collected and shared out, won back, or pooled."""

    success: bool
    profit: int | None
    collected: tuple[str, ...]
    won: tuple[tuple[str, ...], ...]
    to_pool: tuple[str, ...]
    all_no: bool = False


@dataclass(slots=True)
class TurnRecord(StaticData):
    """A finished turn, public in full (§8): pitch, every reveal, edits, the check worked out, payout and movie.

    Records never change once written, so states share them like static data;
    the digest identifies one by the text of its whole content. Treat one as immutable.

    (Not a frozen dataclass: every turn writes one, and a frozen dataclass of 14 fields takes three times as
    long to build; see ``core.events.Event`` for the same choice.)
    """

    turn: int
    active: int
    pitched: tuple[str, ...]
    rounds: tuple[tuple[str | None, ...], ...]
    changes: tuple[ChangeRecord, ...]
    row: tuple[str, ...]
    edits: int
    cost_choices: tuple[Any, ...]
    profit_choices: tuple[Any, ...]
    evaluation: Evaluation
    check: CheckResult
    settlement: Settlement
    movie: str | None
    #: The text of the whole content, written when first asked for (a digest needs it; a playout does not).
    key: str | None = field(default=None, init=False, repr=False, compare=False)

    def static_key(self) -> str:
        """The full content as text."""
        key = self.key
        if key is None:
            key = self.key = repr(self)
        return key


class MaybeMoviesState(GameState):
    """A Maybe Movies position.

    Committed votes (``votes``) stay hidden until every voter has chosen; the
    committed card stays in its owner's hand until the reveal. ``known`` lists,
    per seat, the hand cards everyone knows that seat holds (cards returned
    after a CHANGE round and replacement draws from the face-up pool, §8).
    """

    __slots__ = (
        "active",
        "blockbuster",
        "breaking",
        "change_queue",
        "change_records",
        "choice_point",
        "cost_choices",
        "discard",
        "draw_pile",
        "edit_added",
        "edit_refills",
        "edit_removed",
        "edit_step",
        "edits",
        "evaluation",
        "hands",
        "history",
        "known",
        "made",
        "market",
        "num_players",
        "options",
        "out_of_play",
        "personal",
        "phase",
        "pitch_from",
        "pitched",
        "pool",
        "profit_choices",
        "result",
        "rng",
        "rounds",
        "row",
        "settlement",
        "table",
        "trendsetter",
        "turn",
        "voters",
        "votes",
        "won",
    )
    # The slots' types are the position format (``greenlight.core.positions``), in the order a position lists
    # them; the catalogue and the expansion flags follow from the options and the seed (``derived``).
    table: Catalogue
    num_players: int
    options: dict[str, Any]
    trendsetter: bool
    breaking: bool
    blockbuster: bool
    # The game: whose turn, the decision point, and where every card lies.
    turn: int
    active: int
    phase: str
    hands: list[list[str]]
    known: list[list[str]]
    won: list[list[str]]
    pool: list[str]
    market: list[str]
    personal: list[list[str]]
    made: list[Stack]
    draw_pile: list[str]
    discard: list[str]
    out_of_play: list[str]
    # The current turn.
    row: list[str]
    #: Without Blockbuster the pitch adds cards in market order (R16): market cards before this index are out of reach.
    pitch_from: int
    pitched: tuple[str, ...]
    votes: list[str | None]
    voters: tuple[int, ...]
    rounds: list[tuple[str | None, ...]]
    #: CHANGE-voters still to edit, lowest number first: (seat, CHANGE card).
    change_queue: list[tuple[int, str]]
    change_records: list[ChangeRecord]
    edit_step: str
    edit_removed: str | None
    edit_added: str | None
    edit_refills: tuple[str, ...]
    #: K: edits applied to this pitch during this turn.
    edits: int
    #: The active player's text-card choices so far: a card id to copy or an icon index (costs), a number (profits).
    cost_choices: list[str | int]
    profit_choices: list[int]
    choice_point: ChoicePoint | None
    evaluation: Evaluation | None
    result: CheckResult | None
    settlement: Settlement | None
    history: list[TurnRecord]
    #: The play stream (§2.6).
    rng: Stream

    derived = ("table", "trendsetter", "breaking", "blockbuster")
    #: What clone() copies (every other slot holds immutable values and is shared).
    copied = {
        "options": DICT,
        "rng": STREAM,
        "hands": LISTS,
        "known": LISTS,
        "pool": LIST,
        "draw_pile": LIST,
        "discard": LIST,
        "market": LIST,
        "personal": LISTS,
        "won": LISTS,
        "made": LIST,
        "out_of_play": LIST,
        "row": LIST,
        "votes": LIST,
        "rounds": LIST,
        "change_queue": LIST,
        "change_records": LIST,
        "cost_choices": LIST,
        "profit_choices": LIST,
        "history": LIST,
    }

    def __init__(self, table: Catalogue, num_players: int, options: dict[str, Any], rng: Stream) -> None:
        self.table = table
        self.num_players = num_players
        self.options = options
        self.trendsetter = bool(options.get("trendsetter_tricks"))
        self.breaking = bool(options.get("breaking_changes"))
        self.blockbuster = bool(options.get("blockbuster_budgets"))
        if self.blockbuster:
            table.blockbusters  # noqa: B018 - a catalogue may leave them to be drawn when needed; this game needs them
        self.rng = rng
        n = num_players
        self.hands = [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.pool = []
        self.draw_pile = []
        self.discard = []
        self.market = []
        self.personal = [[] for _ in range(n)]
        self.won = [[] for _ in range(n)]
        self.made = []
        self.out_of_play = []
        self.turn = 1
        self.active = 0
        self.phase = PITCH
        self.row = []
        self.pitch_from = 0
        self.pitched = ()
        self.votes = [None] * n
        self.voters = ()
        self.rounds = []
        self.change_queue = []
        self.change_records = []
        self.edit_step = EDIT_START
        self.edit_removed = None
        self.edit_added = None
        self.edit_refills = ()
        self.edits = 0
        self.cost_choices = []
        self.profit_choices = []
        self.choice_point = None
        self.evaluation = None
        self.result = None
        self.settlement = None
        self.history = []

    @property
    def editor(self) -> int | None:
        """The CHANGE-voter whose edit is being made (None outside CHANGE_EDIT)."""
        return self.change_queue[0][0] if self.phase == CHANGE_EDIT and self.change_queue else None
