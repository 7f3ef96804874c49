"""Positions as data: any state as JSON and back, with every hidden part and the random streams included.

A state class annotates its slots at class level (``hands: list[list[str]]``);
those annotations are the position format. :func:`encode` turns a state's
values into JSON (dataclasses as objects, tuples as lists, random streams as
their internal state) and :func:`decode` reads them back by the declared
types, so ``decode(encode(x))`` has the same digest as ``x``. Anything that
does not fit its declared type raises :class:`PositionError` naming the field,
down to the list index. ``Game.to_position`` and ``Game.from_position`` wrap
this with a header (game, rules version, seats, options, seed) and the
game's own completion and checks (``positions`` module of the game).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Folder:
...     card: str
...     amount: int = 0
>>> encode([Folder("A9", 10), None])
[{'card': 'A9', 'amount': 10}, None]
>>> decode([{"card": "A9", "amount": 10}, None], list[Folder | None], "folders")
[Folder(card='A9', amount=10), None]
>>> decode([{"card": "A9", "amount": "ten"}], list[Folder | None], "folders")
Traceback (most recent call last):
...
greenlight.core.positions.PositionError: folders[0].amount: expected a whole number, got 'ten'
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Union, get_args, get_origin

from greenlight.core.errors import GreenlightError
from greenlight.core.state import GameState, StaticData, _all_slots

#: Version of the position header format (``"format"`` in every position).
POSITION_FORMAT = 1
#: The header keys of a position; every other key is a state field.
HEADER_KEYS = ("format", "game", "version", "num_players", "options", "seed")
#: Slots every state has that the header carries instead.
_HEADER_SLOTS = frozenset({"num_players", "options"})


class PositionError(GreenlightError):
    """A position cannot be read or cannot arise; ``field`` names where (``hands[1]``), the message says which rule it breaks.

    >>> str(PositionError("hands[1]", "holds 8 cards; a hand holds at most 7"))
    'hands[1]: holds 8 cards; a hand holds at most 7'
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


def state_fields(cls: type[GameState]) -> dict[str, Any]:
    """The position fields of a state class and their types: its annotated slots in the order of the annotations,
    less the header's and the ``derived`` ones."""
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = _read_state_fields(cls)
    return fields


_FIELDS: dict[type, dict[str, Any]] = {}


def _read_state_fields(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    slots = set(_all_slots(cls)) - _HEADER_SLOTS - set(getattr(cls, "derived", ()))
    missing = sorted(slots - set(hints))
    if missing:
        raise TypeError(f"{cls.__name__}.{missing[0]} has no class-level type annotation, so it cannot be part of a position")
    return {name: hint for name, hint in hints.items() if name in slots}


def dumps(position: Mapping[str, Any]) -> str:
    """A position as JSON text with one field a line, easy to read and to edit by hand.

    >>> print(dumps({"game": "demo", "hands": [["A9"], []]}))
    {
     "game": "demo",
     "hands": [["A9"], []]
    }
    """
    return "{\n" + ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in position.items()) + "\n}"


def encode(value: Any) -> Any:
    """The JSON form of a state value (see the module docstring)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple: an object with its field names
        return {name: encode(item) for name, item in zip(value._fields, value, strict=True)}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    if isinstance(value, random.Random):
        version, internal, gauss = value.getstate()
        return {"stream": [version, list(internal), gauss]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # Fields the class computes itself (init=False) follow from the others.
        return {spec.name: encode(getattr(value, spec.name)) for spec in dataclasses.fields(value) if spec.init}
    if isinstance(value, StaticData):
        raise TypeError("static data is not part of a position; list its slot in the state's `derived`")
    raise TypeError(f"a position cannot hold a {type(value).__name__}")


def decode(value: Any, declared: Any, path: str) -> Any:
    """Read ``value`` (JSON) as the declared type; raise PositionError naming ``path`` where it does not fit."""
    if declared is Any or declared is object:
        return value
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        options = get_args(declared)
        if value is None and type(None) in options:
            return None
        problems = []
        for option in options:
            if option is type(None):
                continue
            try:
                return decode(value, option, path)
            except PositionError as error:
                problems.append(error)
        if len(problems) == 1:
            raise problems[0]
        raise PositionError(path, f"expected {_type_words(declared)}, got {_shown(value)}")
    if origin is Literal:
        if value not in get_args(declared):
            choices = ", ".join(repr(option) for option in get_args(declared))
            raise PositionError(path, f"must be one of {choices}, got {_shown(value)}")
        return value
    if declared is None or declared is type(None):
        if value is not None:
            raise PositionError(path, f"must be null, got {_shown(value)}")
        return None
    if declared is bool:
        if not isinstance(value, bool):
            raise PositionError(path, f"expected true or false, got {_shown(value)}")
        return value
    if declared is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise PositionError(path, f"expected a whole number, got {_shown(value)}")
        return value
    if declared is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise PositionError(path, f"expected a number, got {_shown(value)}")
        return float(value)
    if declared is str:
        if not isinstance(value, str):
            raise PositionError(path, f"expected a text, got {_shown(value)}")
        return value
    if origin in (list, tuple, Sequence):
        if not isinstance(value, list):
            raise PositionError(path, f"expected a list, got {_shown(value)}")
        args = get_args(declared)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(value) != len(args):
                raise PositionError(path, f"expected {len(args)} items, got {len(value)}")
            return tuple(decode(item, kind, f"{path}[{index}]") for index, (item, kind) in enumerate(zip(value, args, strict=True)))
        item_type = args[0] if args else Any
        items = [decode(item, item_type, f"{path}[{index}]") for index, item in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise PositionError(path, f"expected an object, got {_shown(value)}")
        key_type, item_type = get_args(declared) or (Any, Any)
        result = {}
        for key, item in value.items():
            real_key: Any = key
            if key_type is int:
                try:
                    real_key = int(key)
                except ValueError:
                    raise PositionError(f"{path}[{key!r}]", "the key must be a whole number") from None
            result[real_key] = decode(item, item_type, f"{path}[{key!r}]")
        return result
    if isinstance(declared, type) and issubclass(declared, random.Random):
        return _decode_stream(value, declared, path)
    if isinstance(declared, type) and issubclass(declared, tuple) and hasattr(declared, "_fields"):
        return _decode_named_tuple(value, declared, path)
    if isinstance(declared, type) and dataclasses.is_dataclass(declared):
        return _decode_dataclass(value, declared, path)
    raise TypeError(f"{path}: a position cannot hold the declared type {declared!r}")


def _decode_dataclass(value: Any, declared: type, path: str) -> Any:
    if not isinstance(value, dict):
        raise PositionError(path, f"expected an object with {', '.join(_field_names(declared))}, got {_shown(value)}")
    hints = typing.get_type_hints(declared)
    specs = {spec.name: spec for spec in dataclasses.fields(declared) if spec.init}
    unknown = sorted(set(value) - set(specs))
    if unknown:
        raise PositionError(f"{path}.{unknown[0]}", f"is not a field of {declared.__name__} (fields: {', '.join(specs)})")
    arguments = {}
    for name, spec in specs.items():
        if name in value:
            arguments[name] = decode(value[name], hints[name], f"{path}.{name}")
        elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            raise PositionError(f"{path}.{name}", "is missing")
    return declared(**arguments)


def _decode_named_tuple(value: Any, declared: Any, path: str) -> Any:
    names: tuple[str, ...] = declared._fields
    if not isinstance(value, dict):
        raise PositionError(path, f"expected an object with {', '.join(names)}, got {_shown(value)}")
    unknown = sorted(set(value) - set(names))
    if unknown:
        raise PositionError(f"{path}.{unknown[0]}", f"is not a field of {declared.__name__} (fields: {', '.join(names)})")
    hints = typing.get_type_hints(declared)
    defaults: dict[str, Any] = declared._field_defaults
    arguments = {}
    for name in names:
        if name in value:
            arguments[name] = decode(value[name], hints[name], f"{path}.{name}")
        elif name not in defaults:
            raise PositionError(f"{path}.{name}", "is missing")
    return declared(**arguments)


def _decode_stream(value: Any, declared: type[random.Random], path: str) -> random.Random:
    state = value.get("stream") if isinstance(value, dict) else None
    if (
        not isinstance(state, list)
        or len(state) != 3
        or not isinstance(state[1], list)
        or len(state[1]) != 625
        or not all(isinstance(word, int) and 0 <= word < 2**32 for word in state[1])
    ):
        raise PositionError(path, 'expected a random stream as saved by a position ({"stream": [version, 625 numbers, gauss]})')
    stream = declared.__new__(declared)
    try:
        stream.setstate((state[0], tuple(state[1]), state[2]))
    except (TypeError, ValueError) as error:
        raise PositionError(path, f"is not a valid random stream state ({error})") from None
    return stream


def _field_names(declared: type) -> list[str]:
    return [spec.name for spec in dataclasses.fields(declared)]  # type: ignore[arg-type]


def _type_words(declared: Any) -> str:
    if declared is type(None):
        return "null"
    if get_origin(declared) in (Union, types.UnionType):
        return " or ".join(_type_words(option) for option in get_args(declared))
    return getattr(declared, "__name__", str(declared))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
