"""Movie Empire actions: small decisions, each a frozen value with a text form that round-trips.

Compound moves are split (rules §4.13, R70): ``place SB1`` then ``swap PB01``
then ``take PS2``; ``produce 1`` then ``lay PB01 right`` / ``lay PJ01 left B`` /
``stack PY05`` / ``star ST06`` … then ``done``; hand-limit ``discard`` one card
at a time then ``stop``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action
from greenlight.core.errors import ActionParseError

LEFT = "left"
RIGHT = "right"
NEW_LINE = "new"
SKIP = "skip"
EXEMPT_WAYS = ("decline", "free", "dossier", "pay")


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep these cards: the script(s) kept at setup (§3 step 6) or the 2 cards kept from a Sabotage draw (§4.3 b)."""

    verb: ClassVar[str] = "keep"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Exempt(Action):
    """Grumpy phase step 3: ``decline``, or ignore the plan ``free`` (level +3 or more), by ``dossier`` or by ``pay`` 4."""

    verb: ClassVar[str] = "exempt"
    way: str


@dataclass(frozen=True, slots=True)
class Give(Action):
    """AP12: the cards given to your left neighbour (secret and simultaneous, R50).

    The cards are a set: they are kept in sorted order, so ``give ST08,PB05`` is ``give PB05,ST08``.

    >>> Give(("ST08", "PB05")) == Give(("PB05", "ST08")), str(Give(("ST08", "PB05")))
    (True, 'give PB05,ST08')
    """

    verb: ClassVar[str] = "give"
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass for the rest of the working phase (§4.2)."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place an assistant on a space; ``dossier`` spends a usable dossier there (BN1 +2, BN2, SB1 option b).

    Text: ``place PS3`` or ``place BN1 dossier``.
    """

    verb: ClassVar[str] = "place"
    space: str
    dossier: bool = False

    def __str__(self) -> str:
        return f"place {self.space} dossier" if self.dossier else f"place {self.space}"

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Place:
        """Read ``SPACE`` or ``SPACE dossier``."""
        if len(tokens) == 1:
            return cls(tokens[0].upper())
        if len(tokens) == 2 and tokens[1].lower() == "dossier":
            return cls(tokens[0].upper(), True)
        raise ActionParseError("'place' takes a space and optionally 'dossier': place <space> [dossier]")


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Sabotage swap, first part: the production card from your hand that goes to the board."""

    verb: ClassVar[str] = "swap"
    card: str


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Sabotage swap, second part: the production slot whose card you take."""

    verb: ClassVar[str] = "take"
    slot: str


@dataclass(frozen=True, slots=True)
class Release(Action):
    """Designate line 1 or 2 for the release space just taken (§4.3)."""

    verb: ClassVar[str] = "release"
    line: int


@dataclass(frozen=True, slots=True)
class Produce(Action):
    """Start this turn's produce step into line ``1`` or ``2``, or start a ``new`` line (§4.6)."""

    verb: ClassVar[str] = "produce"
    line: str


@dataclass(frozen=True, slots=True)
class Script(Action):
    """Lay the script of the new line being started."""

    verb: ClassVar[str] = "script"
    card: str


@dataclass(frozen=True, slots=True)
class Lay(Action):
    """Lay a production card at the ``left`` or ``right`` end; a joker names its stage.

    Text: ``lay PB01 right`` or ``lay PJ01 left B``.
    """

    verb: ClassVar[str] = "lay"
    card: str
    end: str
    stage: str | None = None

    def __str__(self) -> str:
        return f"lay {self.card} {self.end} {self.stage}" if self.stage else f"lay {self.card} {self.end}"

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Lay:
        """Read ``CARD END`` or ``CARD END STAGE``."""
        if len(tokens) not in (2, 3):
            raise ActionParseError("'lay' takes a card, an end and for a joker a stage: lay <card> left|right [G|B|Y|R]")
        end = tokens[1].lower()
        if end not in (LEFT, RIGHT):
            raise ActionParseError(f"the end must be left or right, not {tokens[1]!r}")
        stage = tokens[2].upper() if len(tokens) == 3 else None
        if stage is not None and stage not in ("G", "B", "Y", "R"):
            raise ActionParseError(f"a joker's stage is G, B, Y or R, not {tokens[2]!r}")
        return cls(tokens[0].upper(), end, stage)


@dataclass(frozen=True, slots=True)
class Stack(Action):
    """Stack an upgrade X* on the base card X in the line (§4.6.4)."""

    verb: ClassVar[str] = "stack"
    card: str


@dataclass(frozen=True, slots=True)
class Star(Action):
    """Lay a star into the line (no position, R21)."""

    verb: ClassVar[str] = "star"
    card: str


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End this turn's produce step."""

    verb: ClassVar[str] = "done"


@dataclass(frozen=True, slots=True)
class Purge(Action):
    """Dossier: discard the three lowest production slots' cards, slide and refill (§4.4)."""

    verb: ClassVar[str] = "purge"


@dataclass(frozen=True, slots=True)
class Block(Action):
    """Dossier, after your placement: cover an unoccupied space for the rest of the round (§4.4, R54)."""

    verb: ClassVar[str] = "block"
    space: str


@dataclass(frozen=True, slots=True)
class Cut(Action):
    """Dossier: cover another player's assistant on a release space (§4.4, R56)."""

    verb: ClassVar[str] = "cut"
    space: str


@dataclass(frozen=True, slots=True)
class End(Action):
    """End your turn (after your placement)."""

    verb: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Hand limit: discard one card (§4.5)."""

    verb: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Hand limit: keep the rest once you hold 4 cards or fewer (§4.5)."""

    verb: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Shut(Action):
    """Shut down line 1 or 2 (§4.7)."""

    verb: ClassVar[str] = "shut"
    line: int


@dataclass(frozen=True, slots=True)
class Market(Action):
    """Choose the market of a release: USA, EUR or CHN (§4.8)."""

    verb: ClassVar[str] = "market"
    market: str

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Market:
        """Read the market name in any case."""
        if len(tokens) != 1:
            raise ActionParseError("'market' takes one market: market USA|EUR|CHN")
        return cls(tokens[0].upper())


@dataclass(frozen=True, slots=True)
class Net(Action):
    """Premiere line 1 or 2 on the Internet for 2 money, or ``skip`` (§4.8 step 2)."""

    verb: ClassVar[str] = "net"
    line: str


ACTION_TYPES: tuple[type[Action], ...] = (
    Keep,
    Exempt,
    Give,
    Pass,
    Place,
    Swap,
    Take,
    Release,
    Produce,
    Script,
    Lay,
    Stack,
    Star,
    Done,
    Purge,
    Block,
    Cut,
    End,
    Discard,
    Stop,
    Shut,
    Market,
    Net,
)

# Shared instances of the actions without fields (legal lists reuse them).
PASS, DONE, PURGE, END, STOP = Pass(), Done(), Purge(), End(), Stop()
