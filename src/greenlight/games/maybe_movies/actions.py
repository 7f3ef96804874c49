"""Maybe Movies actions: small steps, each a frozen value object with a text form that round-trips.

| Decision (§4.0) | Actions |
|---|---|
| PITCH | ``add M12`` (a market card), ``finish`` (once the row holds a card) |
| VOTE | ``vote Y05`` (a card from your hand, CHANGE cards included) |
| CHANGE_EDIT | ``remove M12`` or ``add Q`` (a personal card); after a removal ``add Q`` or ``finish``; with Blockbuster ``slot 2`` |
| COST_CHOICE | ``copy M03`` (which neighbour's cost a copycat takes), ``icon camera`` (a tied icon) |
| PROFIT_CHOICE | ``profit 2`` (the value of ``wildcard_profit`` or of a tied copycat) |
| MOVIE_PICK | ``pick M12`` (the card for Movies Made, or the stack's top card) |

Legal-action lists are built, hashed and printed on every step, so the
one-field actions hash their value (equality still compares the class) and
format and parse themselves without the generic field machinery.

>>> str(Vote("Y05")), str(Finish()), str(Slot(2))
('vote Y05', 'finish', 'slot 2')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action
from greenlight.core.errors import ActionParseError


def _one_token(verb: str, what: str, tokens: Sequence[str]) -> str:
    """The single value after a verb (these actions are on every step, so they skip the generic parser)."""
    if len(tokens) != 1:
        raise ActionParseError(f"'{verb}' takes 1 value: {verb} <{what}>")
    return tokens[0]


def _number(verb: str, what: str, tokens: Sequence[str]) -> int:
    token = _one_token(verb, what, tokens)
    try:
        return int(token)
    except ValueError:
        raise ActionParseError(f"{what} must be a whole number, not {token!r}") from None


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Add a card to the row: a market card while pitching, a personal card in a CHANGE edit."""

    verb: ClassVar[str] = "add"
    card: str

    def __hash__(self) -> int:
        return hash(self.card)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.card == self.card)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "add " + self.card

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Add:
        """Read ``add <card>``."""
        return cls(_one_token(cls.verb, "card", tokens))


@dataclass(frozen=True, slots=True)
class Finish(Action):
    """Lock the pitch (T2), or end a CHANGE edit after a removal without adding a card."""

    verb: ClassVar[str] = "finish"

    def __str__(self) -> str:
        return "finish"

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Finish:
        """Read ``finish``."""
        if tokens:
            raise ActionParseError("'finish' takes no value")
        return cls()


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """Choose the secret vote: one card from your hand (§4.2)."""

    verb: ClassVar[str] = "vote"
    card: str

    def __hash__(self) -> int:
        return hash(self.card)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.card == self.card)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "vote " + self.card

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Vote:
        """Read ``vote <card>``."""
        return cls(_one_token(cls.verb, "card", tokens))


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """CHANGE edit: remove this row card (it goes to the discard pile at once, R27)."""

    verb: ClassVar[str] = "remove"
    card: str

    def __hash__(self) -> int:
        return hash(self.card)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.card == self.card)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "remove " + self.card

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Remove:
        """Read ``remove <card>``."""
        return cls(_one_token(cls.verb, "card", tokens))


@dataclass(frozen=True, slots=True)
class Slot(Action):
    """CHANGE edit with Blockbuster Budgets: where the added card goes, 0 = leftmost (R28)."""

    verb: ClassVar[str] = "slot"
    index: int

    def __hash__(self) -> int:
        return hash(self.index)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.index == self.index)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "slot " + str(self.index)

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Slot:
        """Read ``slot <index>``."""
        return cls(_number(cls.verb, "index", tokens))


@dataclass(frozen=True, slots=True)
class Copy(Action):
    """COST_CHOICE: a copycat text takes this neighbour's cost (equal sizes, different costs)."""

    verb: ClassVar[str] = "copy"
    card: str

    def __hash__(self) -> int:
        return hash(self.card)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.card == self.card)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "copy " + self.card

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Copy:
        """Read ``copy <card>``."""
        return cls(_one_token(cls.verb, "card", tokens))


@dataclass(frozen=True, slots=True)
class Icon(Action):
    """COST_CHOICE: the tied icon a ``copycat_*_icon`` text takes."""

    verb: ClassVar[str] = "icon"
    icon: str

    def __hash__(self) -> int:
        return hash(self.icon)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.icon == self.icon)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "icon " + self.icon

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Icon:
        """Read ``icon <icon>``."""
        return cls(_one_token(cls.verb, "icon", tokens))


@dataclass(frozen=True, slots=True)
class Profit(Action):
    """PROFIT_CHOICE: the value of ``wildcard_profit`` (1-3) or of a tied ``copycat_most``/``copycat_least``."""

    verb: ClassVar[str] = "profit"
    amount: int

    def __hash__(self) -> int:
        return hash(self.amount)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.amount == self.amount)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "profit " + str(self.amount)

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Profit:
        """Read ``profit <amount>``."""
        return cls(_number(cls.verb, "amount", tokens))


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """MOVIE_PICK: the row card that enters Movies Made (base) or tops the stack (Trendsetter)."""

    verb: ClassVar[str] = "pick"
    card: str

    def __hash__(self) -> int:
        return hash(self.card)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.card == self.card)  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return "pick " + self.card

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Pick:
        """Read ``pick <card>``."""
        return cls(_one_token(cls.verb, "card", tokens))


ACTION_TYPES: tuple[type[Action], ...] = (Add, Finish, Vote, Remove, Slot, Copy, Icon, Profit, Pick)
FINISH = Finish()
