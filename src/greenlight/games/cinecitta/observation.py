"""The shape of a Cinecitta observation and its parts, as ``view`` builds them and ``words``, ``encoding`` and the bots read them.

The conformance harness checks every observation against :class:`CinecittaObservation`
(``greenlight.core.shapes``), so these declarations are the data's true shape.
"""

# No ``from __future__ import annotations`` here: TypedDict must see ``NotRequired`` itself to know the optional keys.
from typing import NotRequired, TypedDict

from greenlight.core.views import ObservationHeader


class Tableau(TypedDict):
    """A seat's public figures: Studio quality (None until 3 cards), promotion money, reels, pen, wages due now."""

    quality: int | None
    studio_cards: int
    staff: int
    promotion: int
    reels: int
    pen: bool
    wages_due: int


class Forecast(Tableau):
    """The seat's own score if the game ended now, each scoring step's figure; ``status`` finished, short or incomplete."""

    wallet: int
    money_after_promotion: int
    short_by: int
    money_after_wages: int | None
    box_office: int | None
    value: int | None
    status: str


class ForecastWithWords(Forecast):
    """A forecast with its sentence."""

    words: str


class Breakdown(TypedDict):
    """One seat's scoring (rules §5): a step the seat skipped reports None."""

    status: str
    quality: int | None
    promotion: int | None
    wages_due: int | None
    money: int | None
    reels: int | None
    box_office: int | None
    award: int | None
    value: int | None


class Placement(TypedDict):
    """A card placed at step 3b and the card it moved to the Office, if any."""

    seat: int
    card: str
    moved_out: str | None


class Back(TypedDict):
    """What came back to a folder's sender: twice the amount (headhunted) or its card (secured)."""

    money: int
    card: str | None


class FolderView(TypedDict):
    """One of the viewer's folders; ``response`` and ``back`` once the answer is known to it."""

    round: int
    sender: int
    recipient: int
    card: str
    amount: int
    response: str | None
    back: Back | None
    role: str


class Final(TypedDict):
    """The end of the game: wallets, each seat's breakdown and its words, scores, ranks and winners."""

    wallets: list[int]
    breakdown: list[Breakdown]
    scores: list[float]
    ranks: list[int]
    winners: list[int]
    words: list[str]


class CinecittaObservation(ObservationHeader):
    """What one seat (or a spectator) sees; the private keys are there for a seat only, ``final`` once the game is over."""

    round: int
    rounds: int
    step: str
    partner_offset: int | None
    committed: list[int]
    waiting: list[int]
    hand_sizes: list[int]
    money_total: int
    studios: list[list[str]]
    offices: list[list[str]]
    last_placements: list[Placement]
    tableaus: list[Tableau]
    sends_to: list[int] | None
    direction: str | None
    # The seat's own part.
    hand: NotRequired[list[str]]
    wallet: NotRequired[int]
    target: NotRequired[int | None]
    source: NotRequired[int | None]
    folder_sent: NotRequired[FolderView | None]
    folder_received: NotRequired[FolderView | None]
    pending: NotRequired[list[str]]
    my_commitment: NotRequired[str | None]
    my_commitment_words: NotRequired[str | None]
    folder_history: NotRequired[list[FolderView]]
    forecast: NotRequired[ForecastWithWords | None]
    final: NotRequired[Final]
