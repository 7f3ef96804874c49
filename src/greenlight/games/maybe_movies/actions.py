"""Maybe Movies actions: small steps, each a frozen value object with a text form that round-trips.

| Decision (§4.0) | Actions |
|---|---|
| PITCH | ``add M12`` (a market card), ``finish`` (once the row holds a card) |
| VOTE | ``vote Y05`` (a card from your hand, CHANGE cards included) |
| CHANGE_EDIT | ``remove M12`` or ``add Q`` (a personal card); after a removal ``add Q`` or ``finish``; with Blockbuster ``slot 2`` |
| COST_CHOICE | ``copy M03`` (which neighbour's cost a copycat takes), ``icon camera`` (a tied icon) |
| PROFIT_CHOICE | ``profit 2`` (the value of ``wildcard_profit`` or of a tied copycat) |
| MOVIE_PICK | ``pick M12`` (the card for Movies Made, or the stack's top card) |

>>> str(Vote("Y05")), str(Finish()), str(Slot(2))
('vote Y05', 'finish', 'slot 2')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action, shared


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Add a card to the row: a market card while pitching, a personal card in a CHANGE edit."""

    verb: ClassVar[str] = "add"
    card: str


@dataclass(frozen=True, slots=True)
class Finish(Action):
    """Lock the pitch (T2), or end a CHANGE edit after a removal without adding a card."""

    verb: ClassVar[str] = "finish"


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """Choose the secret vote: one card from your hand (§4.2)."""

    verb: ClassVar[str] = "vote"
    card: str


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """CHANGE edit: remove this row card (it goes to the discard pile at once, R27)."""

    verb: ClassVar[str] = "remove"
    card: str


@dataclass(frozen=True, slots=True)
class Slot(Action):
    """CHANGE edit with Blockbuster Budgets: where the added card goes, 0 = leftmost (R28)."""

    verb: ClassVar[str] = "slot"
    index: int


@dataclass(frozen=True, slots=True)
class Copy(Action):
    """COST_CHOICE: a copycat text takes this neighbour's cost (equal sizes, different costs)."""

    verb: ClassVar[str] = "copy"
    card: str


@dataclass(frozen=True, slots=True)
class Icon(Action):
    """COST_CHOICE: the tied icon a ``copycat_*_icon`` text takes."""

    verb: ClassVar[str] = "icon"
    icon: str


@dataclass(frozen=True, slots=True)
class Profit(Action):
    """PROFIT_CHOICE: the value of ``wildcard_profit`` (1-3) or of a tied ``copycat_most``/``copycat_least``."""

    verb: ClassVar[str] = "profit"
    amount: int


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """MOVIE_PICK: the row card that enters Movies Made (base) or tops the stack (Trendsetter)."""

    verb: ClassVar[str] = "pick"
    card: str


ACTION_TYPES: tuple[type[Action], ...] = (Add, Finish, Vote, Remove, Slot, Copy, Icon, Profit, Pick)
FINISH = Finish()


# -- shared action objects (legal-action lists are built on every step, so each action is made once) --------

add_card = shared(Add)
remove_card = shared(Remove)
pick_card = shared(Pick)
copy_card = shared(Copy)
slot_at = shared(Slot)
profit_of = shared(Profit)
icon_named = shared(Icon)
vote_with = shared(Vote)
