"""Game state base class and a generic, structural digest of any state.

States are plain data with ``__slots__``; rules are functions over them. A
state class declares how each mutable slot is copied (``copied``) and gets a
``clone()`` generated from that declaration, as fast as a hand-written one
(it is compiled once, like a dataclass's ``__init__``). The digest lets the
conformance harness compare states without any per-game code.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Self

from greenlight.core.rng import copy_stream

#: How ``clone()`` copies a slot (the values of :attr:`GameState.copied`).
LIST: Final = "list"  # a list of immutable values: ``list(value)``
LISTS: Final = "lists"  # a list of such lists (one per seat, say): ``[list(item) for item in value]``
DICT: Final = "dict"  # a dict of immutable values: ``dict(value)``
STREAM: Final = "stream"  # a random stream (``random.Random``): a copy in the same state
_COPY_EXPRESSIONS = {
    LIST: "list(self.{name})",
    LISTS: "[list(item) for item in self.{name}]",
    DICT: "dict(self.{name})",
    STREAM: "_copy_stream(self.{name})",
}


class GameState:
    """Base class of every game state.

    Subclasses declare ``__slots__`` and, in ``copied``, how ``clone()`` copies
    each mutable slot; every other slot is shared by the clone, so it must hold
    immutable values (numbers, strings, tuples, frozen records) or
    :class:`StaticData`. The conformance harness checks that a clone shares no
    mutable container.

    >>> class Tally(GameState):
    ...     __slots__ = ("round", "scores")
    ...     copied = {"scores": LIST}
    ...     def __init__(self) -> None:
    ...         self.round, self.scores = 1, [0, 0]
    >>> first = Tally()
    >>> second = first.clone()
    >>> second.scores[0] = 5
    >>> first.scores, second.scores, second.round
    ([0, 0], [5, 0], 1)
    """

    __slots__ = ()
    #: How ``clone()`` copies each mutable slot: ``LIST``, ``LISTS``, ``DICT`` or ``STREAM`` by slot name.
    copied: ClassVar[Mapping[str, str]] = {}
    #: Slots that follow from the options (card tables, flags) and so are not written into positions.
    derived: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__:
            cls.clone = _compile_clone(cls)  # type: ignore[method-assign]

    def clone(self) -> Self:
        """An independent copy that shares no mutable container with ``self``."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and state_digest(self) == state_digest(other)

    __hash__ = None  # type: ignore[assignment]


class StaticData:
    """Immutable data that states share instead of copying (card tables, boards).

    The digest identifies it by ``static_key()``; clones may share it.
    """

    __slots__ = ()

    def static_key(self) -> str:
        """A text that identifies this data (for example its file path)."""
        raise NotImplementedError


def _compile_clone(cls: type[GameState]) -> Any:
    """The ``clone`` method of ``cls``, written out slot by slot from ``cls.copied`` and compiled once."""
    slots = _all_slots(cls)
    for name, kind in cls.copied.items():
        if name not in slots:
            raise TypeError(f"{cls.__name__}.copied names {name!r}, which is not one of its __slots__")
        if kind not in _COPY_EXPRESSIONS:
            raise TypeError(f"{cls.__name__}.copied[{name!r}] is {kind!r}; use one of {', '.join(_COPY_EXPRESSIONS)}")
    lines = ["def clone(self):", "    copy = _new(_cls)"]
    for name in slots:
        expression = _COPY_EXPRESSIONS[cls.copied[name]].format(name=name) if name in cls.copied else f"self.{name}"
        lines.append(f"    copy.{name} = {expression}")
    lines.append("    return copy")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_copy_stream": copy_stream}
    exec("\n".join(lines), namespace)  # generated from slot names only, as dataclasses write __init__
    clone = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = f"An independent copy: {', '.join(sorted(cls.copied)) or 'no slot'} copied, every other slot shared."
    return clone


def _all_slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        names.extend(name for name in slots if name not in ("__weakref__", "__dict__"))
    return names


def state_digest(value: Any) -> Any:
    """A nested tuple that is equal for two values exactly when their contents are equal.

    Works on slotted objects, dataclasses, containers, enums and ``random.Random``.

    >>> state_digest({"b": [1, 2], "a": {3}}) == state_digest({"a": {3}, "b": [1, 2]})
    True
    """
    digest = _DIGESTS.get(type(value))
    if digest is None:
        digest = _DIGESTS[type(value)] = _digest_for(type(value))
    return digest(value)


#: How ``state_digest`` reads a value of each type met so far: decided once per type, as the conformance
#: harness digests whole states several times a step.
_DIGESTS: dict[type, Callable[[Any], Any]] = {}


#: Types whose values are their own digest, checked by exact type (a subclass goes through ``_digest_for``).
_PLAIN = frozenset({type(None), bool, int, float, str, bytes})


def _same(value: Any) -> Any:
    return value


def _digest_for(cls: type) -> Callable[[Any], Any]:
    """The digest of a value of class ``cls`` (raises ``TypeError`` for a class it cannot read)."""
    name = cls.__name__
    if cls is type(None) or issubclass(cls, (bool, int, float, str, bytes, enum.Enum)):
        return _same
    if issubclass(cls, StaticData):
        return lambda value: ("static", name, value.static_key())
    if issubclass(cls, (list, tuple)):
        # A sequence of plain values (a deck of card ids, a row of counts) is its own digest: one pass in C.
        return lambda value: (name, tuple(value) if _PLAIN.issuperset(map(type, value)) else tuple(map(state_digest, value)))
    if issubclass(cls, dict):
        return lambda value: ("dict", tuple(sorted([(state_digest(key), state_digest(item)) for key, item in value.items()], key=repr)))
    if issubclass(cls, (set, frozenset)):
        return lambda value: ("set", tuple(sorted(map(state_digest, value), key=repr)))
    if issubclass(cls, random.Random):
        return lambda value: ("rng", value.getstate())
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        fields = tuple(spec.name for spec in dataclasses.fields(cls))
        return lambda value: (name, tuple((field, state_digest(getattr(value, field))) for field in fields))
    slots = tuple(_all_slots(cls))
    if slots and not issubclass(cls, type):
        return lambda value: (name, tuple((slot, state_digest(getattr(value, slot, None))) for slot in slots))

    def unreadable(value: Any) -> Any:
        raise TypeError(f"state_digest cannot read a {name}")

    return unreadable


def shared_containers(first: Any, second: Any) -> list[str]:
    """Paths of mutable containers that two states share (a clone must share none)."""
    found: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if isinstance(a, StaticData):
            return
        if isinstance(a, (list, dict, set, random.Random)) and a is b:
            found.append(path)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            for index, (x, y) in enumerate(zip(a, b, strict=False)):
                walk(x, y, f"{path}[{index}]")
        elif isinstance(a, dict) and isinstance(b, dict):
            for key in a.keys() & b.keys():
                walk(a[key], b[key], f"{path}[{key!r}]")
        elif hasattr(type(a), "__slots__") and type(a) is type(b) and not isinstance(a, (str, bytes, int, tuple, enum.Enum)):
            for name in _all_slots(type(a)):
                walk(getattr(a, name, None), getattr(b, name, None), f"{path}.{name}")

    walk(first, second, "state")
    return found
