"""The data of every Movie Empire event, by kind (``EVENT_TYPES``), as the rules modules make it and ``words`` reads it.

Seats are 0-based; lines are numbered from 1 (``line``); cards and board spaces by their codes.
The rules build the frequent kinds as annotated dict literals (``data: Placed = {...}``), which mypy checks
the same way: calling the TypedDict takes about three times as long, and events come at every step.
Events are immutable (``core.events.Event``), so the most frequent kinds, which follow from a few small
values, are made once per distinct value and shared (the ``*_event`` functions at the end).
"""

from __future__ import annotations

from functools import cache
from typing import TypedDict

from greenlight.core.events import Event


class Committed(TypedDict):
    """A seat has made its secret choice of a simultaneous step (``keep`` or ``give``)."""

    seat: int
    step: str


class SetupDone(TypedDict):
    """Everyone has kept their scripts; ``first_player`` starts."""

    first_player: int


class RoundStarted(TypedDict):
    """A round began, with its first player and the annual plan in force (None: no plan)."""

    round: int
    first_player: int
    plan: str | None


class Budget(TypedDict):
    """A seat received its budget for the round."""

    seat: int
    money: int


class Exemption(TypedDict):
    """A seat's answer to the annual plan: ``decline``, ``free``, ``dossier`` or ``pay``."""

    seat: int
    way: str


class PlanMoney(TypedDict):
    """The annual plan changed a seat's money by ``change``."""

    seat: int
    change: int


class Gift(TypedDict):
    """The cards a seat gave to its left neighbour (seen by the two of them)."""

    seat: int
    to: int
    cards: list[str]


class GiftCount(TypedDict):
    """How many cards a seat gave to its left neighbour (public)."""

    seat: int
    to: int
    count: int


class WorkingStarted(TypedDict):
    """The working phase of a round began."""

    round: int


class Placed(TypedDict):
    """A seat placed an assistant on a space, with a dossier or not, paying ``fee`` and receiving the space's ``money``."""

    seat: int
    space: str
    dossier: bool
    fee: int
    money: int


class CardTaken(TypedDict):
    """A seat took the card of a board slot for ``price`` money."""

    seat: int
    space: str
    card: str
    price: int


class Drew(TypedDict):
    """The production cards a seat drew blind (seen by that seat); ``source`` says why."""

    seat: int
    cards: list[str]
    source: str


class DrewCount(TypedDict):
    """How many production cards a seat drew blind (public)."""

    seat: int
    count: int
    source: str


class SabotageDiscarded(TypedDict):
    """The cards of a Sabotage draw the seat did not keep (discarded face up)."""

    seat: int
    cards: list[str]


class DossierTaken(TypedDict):
    """A seat took a black dossier in ``round``."""

    seat: int
    round: int


class DossierSpent(TypedDict):
    """A seat spent its black dossier, for ``use``."""

    seat: int
    use: str


class ReleaseDesignated(TypedDict):
    """A release space points at a seat's line, which premieres this round."""

    seat: int
    space: str
    line: int
    script: str


class Swapped(TypedDict):
    """A Sabotage swap: the ``given`` hand card went onto ``space`` and its card, ``taken``, into the hand."""

    seat: int
    space: str
    given: str
    taken: str


class ProduceStarted(TypedDict):
    """A seat began laying cards into a line (``new``: a line it starts now)."""

    seat: int
    line: int
    new: bool


class ProduceDone(TypedDict):
    """A seat ended its produce step."""

    seat: int


class LineStarted(TypedDict):
    """A seat started a line with a script."""

    seat: int
    line: int
    script: str


class Laid(TypedDict):
    """A seat laid a card into a line; ``action`` is the action's text (``lay PB01 right``, ``stack PB01*``, ``star ST03``)."""

    seat: int
    line: int
    action: str
    script: str


class Passed(TypedDict):
    """A seat passed for the rest of the round."""

    seat: int


class Purged(TypedDict):
    """A seat purged the production board: the cards discarded and every production slot's card after it (by space)."""

    seat: int
    discarded: list[str]
    slots: dict[str, str | None]


class Blocked(TypedDict):
    """A seat blocked a space with its black dossier."""

    seat: int
    space: str


class CutSaid(TypedDict):
    """A seat said Cut! on ``victim``'s release at ``space``."""

    seat: int
    space: str
    victim: int


class Sympathy(TypedDict):
    """A seat's sympathy changed by ``change`` to ``level``, for ``cause``."""

    seat: int
    change: int
    level: int
    cause: str


class LineShut(TypedDict):
    """A seat's line was shut down (too many open lines for its sympathy)."""

    seat: int
    line: int
    script: str


class LineReopened(TypedDict):
    """A seat's shut line opened again."""

    seat: int
    line: int


class Discarded(TypedDict):
    """A seat discarded a card to the hand limit."""

    seat: int
    card: str


class PremierePhase(TypedDict):
    """The premieres of a round began."""

    round: int


class Premiered(TypedDict):
    """One scored premiere: who, which movie, where, the points of each source (``parts``), and what it changed.

    ``trend`` is the active trend (None on the Internet); ``money`` and ``sympathy`` are the seat's changes.
    """

    round: int
    seat: int
    line: int
    script: str
    genre: str
    market: str
    trend: str | None
    hit: bool
    statue: bool
    parts: dict[str, int]
    total: int
    money: int
    sympathy: int


class InternetSkipped(TypedDict):
    """A seat did not premiere on the Internet."""

    seat: int


class UpkeepDone(TypedDict):
    """A round ended; the next first player, and the card of every board slot (by space; None: empty)."""

    round: int
    first_player: int
    slots: dict[str, str | None]


class GameOver(TypedDict):
    """The game ended."""

    scores: list[float]
    winners: list[int]


# -- shared events of the frequent kinds -------------------------------------------------------


@cache
def placed_event(seat: int, space: str, dossier: bool, fee: int, money: int) -> Event:
    """``placed``: ``seat`` put an assistant on ``space``."""
    data: Placed = {"seat": seat, "space": space, "dossier": dossier, "fee": fee, "money": money}
    return Event("placed", data)


@cache
def card_taken_event(seat: int, space: str, card: str, price: int) -> Event:
    """``card_taken``: ``seat`` took the card of a board slot."""
    data: CardTaken = {"seat": seat, "space": space, "card": card, "price": price}
    return Event("card_taken", data)


@cache
def budget_event(seat: int, money: int) -> Event:
    """``budget``: ``seat`` received its budget."""
    data: Budget = {"seat": seat, "money": money}
    return Event("budget", data)


@cache
def exemption_event(seat: int, way: str) -> Event:
    """``exemption``: ``seat``'s answer to the annual plan."""
    data: Exemption = {"seat": seat, "way": way}
    return Event("exemption", data)


@cache
def passed_event(seat: int) -> Event:
    """``passed``: ``seat`` passed for the rest of the round."""
    data: Passed = {"seat": seat}
    return Event("passed", data)


@cache
def produce_event(seat: int, line: int, new: bool) -> Event:
    """``produce``: ``seat`` began laying cards into ``line``."""
    data: ProduceStarted = {"seat": seat, "line": line, "new": new}
    return Event("produce", data)


@cache
def produce_done_event(seat: int) -> Event:
    """``produce_done``: ``seat`` ended its produce step."""
    data: ProduceDone = {"seat": seat}
    return Event("produce_done", data)


@cache
def sympathy_event(seat: int, change: int, level: int, cause: str) -> Event:
    """``sympathy``: ``seat``'s sympathy changed by ``change`` to ``level``."""
    data: Sympathy = {"seat": seat, "change": change, "level": level, "cause": cause}
    return Event("sympathy", data)


@cache
def discarded_event(seat: int, card: str) -> Event:
    """``discarded``: ``seat`` discarded ``card`` to the hand limit."""
    data: Discarded = {"seat": seat, "card": card}
    return Event("discarded", data)


EVENT_TYPES: dict[str, type] = {
    "committed": Committed,
    "setup_done": SetupDone,
    "round_started": RoundStarted,
    "budget": Budget,
    "exemption": Exemption,
    "plan_money": PlanMoney,
    "gift": Gift,
    "gift_count": GiftCount,
    "working_started": WorkingStarted,
    "placed": Placed,
    "card_taken": CardTaken,
    "drew": Drew,
    "drew_count": DrewCount,
    "sabotage_discarded": SabotageDiscarded,
    "dossier_taken": DossierTaken,
    "dossier_spent": DossierSpent,
    "release_designated": ReleaseDesignated,
    "swapped": Swapped,
    "produce": ProduceStarted,
    "produce_done": ProduceDone,
    "line_started": LineStarted,
    "laid": Laid,
    "passed": Passed,
    "purged": Purged,
    "blocked": Blocked,
    "cut": CutSaid,
    "sympathy": Sympathy,
    "line_shut": LineShut,
    "line_reopened": LineReopened,
    "discarded": Discarded,
    "premiere_phase": PremierePhase,
    "premiere": Premiered,
    "internet_skipped": InternetSkipped,
    "upkeep_done": UpkeepDone,
    "game_over": GameOver,
}
