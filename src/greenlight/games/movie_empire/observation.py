"""The shape of a Movie Empire observation and its parts, as ``view`` builds them and ``words``, ``text`` and ``encoding`` read them.

The conformance harness checks every observation against :class:`MovieEmpireObservation`
(``greenlight.core.shapes``), so these declarations are the data's true shape. Seats are
0-based, line slots numbered from 1; cards, board spaces, stages (G, B, Y, R) and markets by their codes.
"""

# No ``from __future__ import annotations`` here: TypedDict must see ``NotRequired`` itself to know the optional keys.
from typing import Literal, NotRequired, TypedDict

from greenlight.core.views import ObservationHeader
from greenlight.games.movie_empire.events import Premiered


class DecisionView(TypedDict):
    """What the game waits for: the kind of choice, the seats that owe it, those that already chose (simultaneous steps)."""

    kind: str
    players: list[int]
    committed: list[int]


class PlanView(TypedDict):
    """Grumpy's annual plans: the one in force, the next one (face up on its pile), those revealed so far, the pile's size."""

    active: str | None
    next: str | None
    revealed: list[str]
    pile: int


class TrendsView(TypedDict):
    """The trend row TS1-TS3 (None: empty; TS3 holds the active trend), whether it was hit this round, pile and removed counts."""

    row: list[str | None]
    active: str | None
    hit: bool
    pile: int
    removed: int


class SpaceView(TypedDict):
    """A board space in use: its assistant or blocker, and by task its card and price, or its release.

    ``card`` is there for production, script and star slots; ``surcharge`` for production slots; ``price`` for
    production and star slots (None when empty); ``cut_by`` and ``line`` for release spaces.
    """

    id: str
    task: str
    money: int
    assistant: int | None
    blocked_by: int | None
    card: NotRequired[str | None]
    surcharge: NotRequired[int]
    price: NotRequired[int | None]
    cut_by: NotRequired[int | None]
    line: NotRequired[int | None]


class Piles(TypedDict):
    """The cards left in each draw pile."""

    production: int
    star: int
    script: int


class Discards(TypedDict):
    """The face-up discard pile of each deck."""

    production: list[str]
    star: list[str]
    script: list[str]


class HandCounts(TypedDict):
    """How many cards of each kind a hand holds (the decks have different backs)."""

    production: int
    star: int
    script: int


class LineCard(TypedDict):
    """A position of a line: its card, effective stage (a joker's chosen one) and the upgrade stacked on it, if any."""

    card: str
    stage: str
    stage_words: str
    stacked: str | None


class LineView(TypedDict):
    """A production line's public form: its slot, script, genre, cards, stars, flags and metrics (``counts`` by stage)."""

    slot: int
    script: str
    genre: str
    cards: list[LineCard]
    stars: list[str]
    shut: bool
    locked: bool
    period: int
    counts: dict[str, int]
    script_met: bool


class MarketPreview(TypedDict):
    """What a line would score in one market now, and the money the market pays (negative: the Internet fee)."""

    points: int
    money: int
    hit: bool


class ScriptPreview(TypedDict):
    """Whether the line meets its script, the points it gives, and what it still lacks in words (None: nothing)."""

    met: bool
    points: int
    missing: str | None


class StarPreview(TypedDict):
    """Whether a star's need is met, its points, and what the movie still lacks in words (None: nothing)."""

    card: str
    met: bool
    points: int
    missing: str | None


class TrendPreview(TypedDict):
    """Whether the line hits the active trend, and whether a hit would still win the round's golden statue."""

    card: str
    hit: bool
    statue: bool


class PreviewWord(TypedDict):
    """One sentence of a preview, marked ``met``, ``missing`` or ``""`` (neither)."""

    text: str
    mark: str


class PreviewFigures(TypedDict):
    """What a line would score if it premiered now (public facts only): the best market, each market, each source.

    ``market`` is None (and ``parts`` too) when no market is open; ``release`` says why it cannot be released, if so.
    """

    market: str | None
    points: int
    markets: dict[str, MarketPreview]
    parts: dict[str, int] | None
    script: ScriptPreview
    stars: list[StarPreview]
    trend: TrendPreview | None
    long_production: bool
    release: str | None


class Preview(PreviewFigures):
    """A premiere preview with its sentences."""

    words: list[PreviewWord]


class LineWithPreview(LineView):
    """A line of a player's tableau, with its premiere preview (None once the game is over)."""

    preview: Preview | None


class PlayerView(TypedDict):
    """A player's public figures, hand counts, known cards, released movies (script, genre, market) and lines."""

    seat: int
    money: int
    pp: int
    sympathy: int
    budget: int
    lines_allowed: int
    hand_size: int
    hand_counts: HandCounts
    known_cards: list[str]
    assistants_placed: int
    passed: bool
    dossier_round: int | None
    dossier_usable: bool
    dossiers_spent: int
    exempt: bool
    statues: int
    released: list[list[str]]
    lines: list[LineWithPreview | None]
    drawn_count: int
    dealt_count: int


class PremiereWithWords(Premiered):
    """A premiere of this round, with its summary in words."""

    words: str


class TurnView(TypedDict):
    """The turn in progress (working phase): who, what it did, the target line (from 1), lays, the Sabotage swap card, the release space."""

    seat: int
    placed: bool
    produced: bool
    target: int | None
    lays: int
    swap_card: str | None
    release_space: str | None


class InternetView(TypedDict):
    """Who may premiere on the Internet now, and for the release space it was cut at (None: the last-round case)."""

    seat: int
    release_space: str | None


class Breakdown(TypedDict):
    """One seat's final scoring (§5), category by category, and the tie-breaks."""

    premieres: int
    sympathy: int
    money: int
    dossier: int
    hardworking: int
    exploitation_action: int
    exploitation_comedy: int
    exploitation_drama: int
    patriot_USA: int
    patriot_EUR: int
    patriot_CHN: int
    king_of_the_world: int
    jack_of_all_trades: int
    trendsetter: int
    released: int
    statues: int
    awards: int
    total: int


#: The breakdown keys of the awards (§5 step 3), one number each, so tables and averages can read them.
AwardKey = Literal[
    "hardworking",
    "exploitation_action",
    "exploitation_comedy",
    "exploitation_drama",
    "patriot_USA",
    "patriot_EUR",
    "patriot_CHN",
    "king_of_the_world",
    "jack_of_all_trades",
    "trendsetter",
]
#: A key of :class:`Breakdown`, for readers that take the categories one by one.
BreakdownKey = Literal["premieres", "sympathy", "money", "dossier", AwardKey, "released", "statues", "awards", "total"]


class Final(TypedDict):
    """The end of the game: scores, ranks, winners and each seat's breakdown."""

    scores: list[float]
    ranks: list[int]
    winners: list[int]
    breakdown: list[Breakdown]


class FinalRow(TypedDict):
    """A row of the final score table: its label and one value per seat."""

    label: str
    values: list[int]


class MovieEmpireObservation(ObservationHeader):
    """What one seat (or a spectator) sees (§8); the private keys are there for a seat only, ``turn`` in the working
    phase, ``internet`` while an Internet premiere is pending, ``final`` and ``final_rows`` once the game is over."""

    round: int
    last_round: int
    phase: str
    phase_words: str
    first_player: int
    decision: DecisionView
    plan: PlanView
    trends: TrendsView
    spaces: list[SpaceView]
    markets_used: list[str]
    piles: Piles
    discards: Discards
    players: list[PlayerView]
    premieres: list[PremiereWithWords]
    turn: NotRequired[TurnView]
    internet: NotRequired[InternetView]
    # The seat's own part.
    hand: NotRequired[list[str]]
    drawn: NotRequired[list[str]]
    dealt: NotRequired[list[str]]
    my_commitment: NotRequired[list[str] | None]
    gifted: NotRequired[list[str]]
    final: NotRequired[Final]
    final_rows: NotRequired[list[FinalRow]]
