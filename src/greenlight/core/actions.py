"""Actions: frozen value objects with a text form that round-trips.

A game declares its actions as frozen, slotted dataclasses that derive from
:class:`Action` and name a ``verb``. The text form is the verb followed by the
fields in declaration order, so a player can read and type it::

    @dataclass(frozen=True, slots=True)
    class Offer(Action):
        verb: ClassVar[str] = "offer"
        card: str
        amount: int

    str(Offer("D6", 30)) == "offer D6 30"

Field types understood by the text form: ``int``, ``str``, ``bool``
(``yes``/``no``), enums (by value), ``X | None`` (``-`` for None) and
``tuple[str, ...]`` / ``tuple[int, ...]`` (comma separated, ``-`` for empty).
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, ClassVar, ParamSpec, TypeVar, cast

from greenlight.core.errors import ActionParseError

A = TypeVar("A", bound="Action")
P = ParamSpec("P")
NONE_TOKEN = "-"
#: Texts of actions already printed (legal-action lists print the same actions over and over);
#: emptied when it reaches this size, so a game with an unbounded action space cannot grow it forever.
TEXT_CACHE_SIZE = 200_000
_texts: dict[object, str] = {}


class Action:
    """Base class of every game action. Subclasses are frozen slotted dataclasses."""

    __slots__ = ()
    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        try:
            return _texts[self]
        except KeyError:
            pass
        except TypeError:  # an unhashable field: print it every time
            return self._text()
        text = self._text()
        if len(_texts) >= TEXT_CACHE_SIZE:
            _texts.clear()
        _texts[self] = text
        return text

    def _text(self) -> str:
        names = _field_names(type(self))  # type: ignore[arg-type]
        if not names:
            return self.verb
        return " ".join([self.verb, *(_format_token(getattr(self, name)) for name in names)])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    @classmethod
    def from_tokens(cls, tokens: Sequence[str]) -> Action:
        """Build this action from the tokens after its verb."""
        fields = _field_types(cls)  # type: ignore[arg-type]
        if len(tokens) != len(fields):
            names = " ".join(f"<{name}>" for name, _ in fields)
            raise ActionParseError(f"'{cls.verb}' takes {len(fields)} value(s): {cls.verb} {names}".rstrip())
        values = [_parse_token(token, kind, name) for token, (name, kind) in zip(tokens, fields, strict=True)]
        return cls(*values)


def _format_token(value: object) -> str:
    if type(value) is str:
        return value  # type: ignore[return-value]
    if value is None:
        return NONE_TOKEN
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(_format_token(item) for item in value) if value else NONE_TOKEN
    return str(value)


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(spec.name for spec in dataclasses.fields(cls))


@cache
def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((spec.name, hints[spec.name]) for spec in dataclasses.fields(cls))  # type: ignore[arg-type]


def _parse_token(token: str, kind: Any, name: str) -> object:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        members = [member for member in typing.get_args(kind) if member is not type(None)]
        if token == NONE_TOKEN:
            return None
        return _parse_token(token, members[0], name)
    if origin is tuple:
        item_kind = typing.get_args(kind)[0]
        if token == NONE_TOKEN:
            return ()
        return tuple(_parse_token(part, item_kind, name) for part in token.split(","))
    if kind is bool:
        if token in ("yes", "no"):
            return token == "yes"
        raise ActionParseError(f"{name} must be yes or no, not {token!r}")
    if kind is int:
        try:
            return int(token)
        except ValueError:
            raise ActionParseError(f"{name} must be a whole number, not {token!r}") from None
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        for member in kind:
            if str(member.value) == token or member.name.lower() == token.lower():
                return member
        choices = ", ".join(str(member.value) for member in kind)
        raise ActionParseError(f"{name} must be one of {choices}, not {token!r}")
    return token


class ActionCodec:
    """Reads action text for one game's set of action classes.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Pass(Action):
    ...     verb: ClassVar[str] = "pass"
    >>> codec = ActionCodec([Pass])
    >>> codec.parse("pass") == Pass()
    True
    """

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self.by_verb: dict[str, type[Action]] = {}
        for action_type in action_types:
            if action_type.verb in self.by_verb:
                raise ValueError(f"two action types use the verb {action_type.verb!r}")
            self.by_verb[action_type.verb] = action_type

    def parse(self, text: str) -> Action:
        """Parse ``text`` into an action, or raise :class:`ActionParseError` saying why."""
        tokens = text.split()
        if not tokens:
            raise ActionParseError("empty action; type one of the listed actions")
        action_type = self.by_verb.get(tokens[0].lower())
        if action_type is None:
            verbs = ", ".join(sorted(self.by_verb))
            raise ActionParseError(f"unknown action {tokens[0]!r}; actions start with one of: {verbs}")
        return action_type.from_tokens(tokens[1:])


def shared(kind: Callable[P, A]) -> Callable[P, A]:
    """A factory that makes each distinct action once and then hands out that one object.

    Legal-action lists are built at every step, so games build them from
    shared actions instead of allocating new ones (equal actions are also
    identical, which makes membership tests cheap).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Pick(Action):
    ...     verb: ClassVar[str] = "pick"
    ...     card: str
    >>> pick = shared(Pick)
    >>> pick("A1") is pick("A1") and pick("A1") == Pick("A1")
    True
    """
    return cast(Callable[P, A], cache(kind))


#: How one action type is coded inside its block: from the state (for its static data) and the action to
#: an index in ``range(size)``; None for a type with a single code.
LocalCode = Callable[[Any, Any], int] | None


class ActionLayout:
    """Integer action codes (OpenSpiel's distinct actions): one fixed block of codes per action type.

    Each block is ``(action type, size, local)``: the type's codes are the
    block's offset plus ``local(state, action)``, an index in ``range(size)``
    that depends only on the action and the game's static data. Coding is one
    dictionary lookup and a call; finding the block of a code is a binary
    search over the blocks.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Pass(Action):
    ...     verb: ClassVar[str] = "pass"
    >>> @dataclass(frozen=True, slots=True)
    ... class Bid(Action):
    ...     verb: ClassVar[str] = "bid"
    ...     amount: int
    >>> layout = ActionLayout([(Pass, 1, None), (Bid, 10, lambda state, action: action.amount)])
    >>> layout.num_codes, layout.code(None, Bid(3)), layout.block_of(4)
    (11, 4, (<class 'greenlight.core.actions.Bid'>, 3))
    """

    def __init__(self, blocks: Sequence[tuple[type[Action], int, LocalCode]]) -> None:
        self.blocks = tuple(blocks)
        self._coders: dict[type[Action], tuple[int, LocalCode]] = {}
        self._starts: list[int] = []
        total = 0
        for kind, size, local in self.blocks:
            if kind in self._coders:
                raise ValueError(f"the action type {kind.__name__} has two blocks of codes")
            if size < 1:
                raise ValueError(f"the block of {kind.__name__} must hold at least one code, not {size}")
            self._coders[kind] = (total, local)
            self._starts.append(total)
            total += size
        #: Number of distinct codes (``Game.num_distinct_actions``).
        self.num_codes = total

    def code(self, state: object, action: Action) -> int:
        """The code of ``action`` (``state`` gives the local coders the game's static data)."""
        try:
            offset, local = self._coders[type(action)]
        except KeyError:
            raise ValueError(f"{action!r} is not an action of this layout") from None
        return offset if local is None else offset + local(state, action)

    def block_of(self, code: int) -> tuple[type[Action], int]:
        """The action type whose block holds ``code``, and the index inside that block."""
        if not isinstance(code, int) or not 0 <= code < self.num_codes:
            raise ValueError(f"action code {code!r} is not in 0..{self.num_codes - 1}")
        index = bisect.bisect_right(self._starts, code) - 1
        return self.blocks[index][0], code - self._starts[index]
