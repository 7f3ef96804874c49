"""Game state base class and a generic, structural digest of any state.

States are plain data with ``__slots__``; rules are functions over them. Each
game writes an explicit ``clone()`` that copies only its mutable containers.
The digest lets the conformance harness compare states without any per-game
code.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any


class GameState:
    """Base class of every game state. Subclasses declare ``__slots__`` and ``clone()``."""

    __slots__ = ()

    def clone(self) -> GameState:
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
    if value is None or isinstance(value, (bool, int, float, str, bytes, enum.Enum)):
        return value
    if isinstance(value, StaticData):
        return ("static", type(value).__name__, value.static_key())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(state_digest(item) for item in value))
    if isinstance(value, dict):
        items = [(state_digest(key), state_digest(item)) for key, item in value.items()]
        return ("dict", tuple(sorted(items, key=repr)))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((state_digest(item) for item in value), key=repr)))
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((spec.name, state_digest(getattr(value, spec.name))) for spec in dataclasses.fields(value)))
    slots = _all_slots(type(value))
    if slots:
        return (type(value).__name__, tuple((name, state_digest(getattr(value, name, None))) for name in slots))
    raise TypeError(f"state_digest cannot read a {type(value).__name__}")


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
