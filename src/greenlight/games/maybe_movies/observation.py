"""The shape of a Maybe Movies observation and its parts, as ``view`` builds them and ``text``, ``describe``,
``encoding`` and ``stats`` read them.

The conformance harness checks every observation against :class:`MaybeMoviesObservation`
(``greenlight.core.shapes``), so these declarations are the data's true shape. Card details come in four
kinds (vote, CHANGE, movie, blockbuster); each kind is ``@final`` so that mypy narrows a union of them on
``"type" in card`` or ``card["type"] == "CHANGE"``.
"""

# No ``from __future__ import annotations`` here: TypedDict must see ``NotRequired`` itself to know the optional keys.
from typing import Literal, NotRequired, final

# typing_extensions for PEP 728 ``closed``: the seat's and the end's parts are spread into the observation literal.
from typing_extensions import TypedDict

from greenlight.core.views import ObservationHeader

#: The six icons, as observations name them (in icon order: ``cards.ICONS``).
IconName = Literal["money", "actors", "script", "setting", "camera", "microphone"]


class IconCounts(TypedDict):
    """A count per icon, in icon order (§2.1)."""

    money: int
    actors: int
    script: int
    setting: int
    camera: int
    microphone: int


# -- card details ------------------------------------------------------------------------------------------


class _VoteFields(TypedDict):
    type: Literal["YES", "NO"]
    icon: str
    value: int


class _ChangeFields(TypedDict):
    type: Literal["CHANGE"]
    number: int


class _MovieFields(TypedDict):
    cost: list[str]
    profit: int
    title: str


class _BlockbusterFields(TypedDict):
    cost_key: str
    x: str | None
    n: int | None
    profit_key: str
    title: str


class _CardWords(TypedDict):
    name: str
    face: str


@final
class VoteFace(_VoteFields):
    """What a YES or NO vote card shows: its icon and value (``Catalogue.details``)."""


@final
class ChangeFace(_ChangeFields):
    """What a CHANGE card shows: its number."""


@final
class MovieFace(_MovieFields):
    """What a movie card shows: its cost icons and profit, and its cosmetic title."""


@final
class BlockbusterFace(_BlockbusterFields):
    """What a blockbuster shows: its cost and profit keys with their icon X or number N, and its title."""


#: Any card's printed details, as the catalogue gives them.
CardFace = VoteFace | ChangeFace | MovieFace | BlockbusterFace


@final
class VoteDetails(_VoteFields, _CardWords):
    """A vote card in the observation's ``cards`` table: its face with its name and short face in words."""


@final
class ChangeDetails(_ChangeFields, _CardWords):
    """A CHANGE card in the ``cards`` table."""


@final
class MovieDetails(_MovieFields, _CardWords):
    """A movie card in the ``cards`` table."""


@final
class BlockbusterDetails(_BlockbusterFields, _CardWords):
    """A blockbuster in the ``cards`` table, with its printed cost and profit texts, long and short."""

    cost_words: str
    profit_words: str
    cost_short: str
    profit_short: str


#: Any card of the observation's ``cards`` table.
CardDetails = VoteDetails | ChangeDetails | MovieDetails | BlockbusterDetails


@final
class UnseenVote(_VoteFields):
    """Vote cards of one kind hidden in other hands, and how many."""

    count: int


@final
class UnseenChange(_ChangeFields):
    """A CHANGE card hidden in another hand (``count`` 1)."""

    count: int


# -- the pitch ----------------------------------------------------------------------------------------------


class CostView(TypedDict):
    """A cost: the named icons that occur (icon -> count) and the icons of any kind."""

    icons: dict[str, int]
    any: int


class PitchCard(TypedDict):
    """A row card before the vote: whether it doubles (Trendsetter), and its cost and profit (None for a text)."""

    card: str
    cost_doubles: bool
    profit_doubles: bool
    cost: CostView | None
    profit: int | None


class PitchPreview(TypedDict):
    """The row's Budget per icon and Profit as far as known before the vote; blockbuster texts stay open."""

    cards: list[PitchCard]
    budget: IconCounts
    profit: int
    open_texts: list[str]


class Share(TypedDict):
    """How collected cards are shared when ``yes_voters`` voted YES."""

    yes_voters: int
    each: int
    to_pitcher: int


class Preview(TypedDict):
    """The numbers and sentences of the pitch preview, as the viewer knows them."""

    need: IconCounts
    profit: int
    open_texts: list[str]
    voters: list[int]
    reach: int
    can_succeed: bool
    collected: int | None
    shares: list[Share] | None
    words: list[str]


class DecisionView(TypedDict):
    """What the game waits for (``core.decision.Decision.to_json``)."""

    players: list[int]
    kind: str
    simultaneous: bool
    committed: list[int]
    prompt: str


class StackView(TypedDict):
    """One entry of Movies Made: its cards, its top and SUCCESS or FAIL."""

    cards: list[str]
    top: str
    result: str


class ChangeView(TypedDict):
    """How one revealed CHANGE card was resolved: the edit, the personal cards drawn and the replacement."""

    seat: int
    change: str
    number: int
    removed: str | None
    added: str | None
    slot: int | None
    personal_drawn: list[str]
    replacement: str | None
    effect: bool


class EditView(TypedDict):
    """The CHANGE edit under way: who, with which card, its step and what it removed and added so far."""

    seat: int
    change: str
    step: str
    removed: str | None
    added: str | None


class ChoiceView(TypedDict):
    """A tie the active player decides: the card, and the cards to copy, icons or profits to choose from."""

    kind: str
    card: str
    options: list[str] | list[int]


class EvaluationCard(TypedDict):
    """One row card worked out: its base and final cost, and once the profit step ran its base and final profit."""

    card: str
    base_cost: CostView
    cost: CostView
    base_profit: NotRequired[int]
    profit: NotRequired[int]


class EvaluationView(TypedDict):
    """The final row worked out: per card, then the Budget per icon, the icons of any kind and the Profit (None before)."""

    cards: list[EvaluationCard]
    budget: IconCounts
    any: int
    profit: int | None


class Check(TypedDict):
    """The success check worked out (§4.4): per-icon lists in icon order, A, D, S, W and SUCCESS or FAIL."""

    need: list[int]
    net: list[int]
    shortfall: list[int]
    surplus: list[int]
    A: int
    D: int
    S: int
    W: int
    result: str


class SettlementView(TypedDict):
    """Where the final vote's cards went: collected and won per seat, pooled; the Profit on a success."""

    result: str
    profit: int | None
    collected: list[str]
    won: list[list[str]]
    to_pool: list[str]
    all_no: bool


class TurnView(TypedDict):
    """A finished turn, public in full."""

    turn: int
    active: int
    pitched: list[str]
    reveals: list[list[str | None]]
    changes: list[ChangeView]
    row: list[str]
    K: int
    cost_choices: list[str]
    profit_choices: list[int]
    profits: list[int] | None
    check: Check
    check_words: list[str]
    settlement: SettlementView
    movie: str | None


class Breakdown(IconCounts):
    """One seat's score: its won cards and the points per icon (their sum is the score)."""

    won_cards: int


class Final(TypedDict):
    """The end of the game: scores, ranks, winners, each seat's breakdown and how its score adds up in words."""

    scores: list[float]
    ranks: list[int]
    winners: list[int]
    breakdown: list[Breakdown]
    words: list[str]


# -- the observation ----------------------------------------------------------------------------------------


class MaybeMoviesObservation(ObservationHeader):
    """What one seat (or a spectator) sees; ``hand`` and ``my_vote`` for a seat only, ``final`` once the game is over."""

    icons: list[str]
    turn: int
    active: int
    phase: str
    decision: DecisionView
    hand_sizes: list[int]
    known_in_hand: list[list[str]]
    market: list[str]
    row: list[str]
    pitch: PitchPreview
    preview: Preview | None
    pool: list[str]
    won: list[list[str]]
    movies_made: list[StackView]
    movies_made_icons: IconCounts
    personal: list[list[str]]
    draw_pile_size: int
    draw_pile_cards: list[str]
    unseen_in_hands: list[UnseenVote | UnseenChange]
    discard: list[str]
    out_of_play: list[str]
    voters: list[int]
    committed: list[int]
    reveals: list[list[str | None]]
    changes: list[ChangeView]
    change_queue: list[list[int | str]]
    edit: EditView | None
    K: int
    choice: ChoiceView | None
    cost_choices: list[str]
    profit_choices: list[int]
    evaluation: EvaluationView | None
    check: Check | None
    check_words: list[str] | None
    settlement: SettlementView | None
    history: list[TurnView]
    scores: list[int]
    # The seat's own part.
    hand: NotRequired[list[str]]
    my_vote: NotRequired[str | None]
    # Once the game is over.
    final: NotRequired[Final]
    cards: dict[str, CardDetails]


class SeatPart(TypedDict, closed=True):
    """The keys only a seat sees (none for a spectator), spread into the observation."""

    hand: NotRequired[list[str]]
    my_vote: NotRequired[str | None]


class FinalPart(TypedDict, closed=True):
    """The key of a finished game (none before), spread into the observation."""

    final: NotRequired[Final]
