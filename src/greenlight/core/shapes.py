"""Checking a JSON-ready value against its declared type at run time.

Observations and event data are declared as ``TypedDict`` classes so mypy
checks the code that builds and reads them; :func:`shape_errors` checks the
values a running game actually produces against the same declarations, so the
types cannot drift from the data (the conformance harness calls it).

>>> from typing import TypedDict
>>> class Folder(TypedDict):
...     card: str
...     amount: int
>>> shape_errors({"card": "A9", "amount": 10}, Folder)
[]
>>> shape_errors({"card": "A9", "amount": "ten", "colour": 1}, Folder, "folder")
["folder.amount: expected int, got str 'ten'", "folder: key 'colour' is not declared in Folder"]
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from typing_extensions import is_typeddict

_MAX_ERRORS = 10


@cache
def _fields(typed_dict: type) -> tuple[dict[str, Any], frozenset[str]]:
    """The TypedDict's key types and its required keys.

    Required keys are read from the annotations too: under ``from __future__ import annotations`` Python 3.11
    cannot see ``NotRequired`` inside a string annotation, so ``__required_keys__`` alone would be wrong there.
    """
    hints = typing.get_type_hints(typed_dict, include_extras=True)
    required = set()
    types_of = {}
    for key, hint in hints.items():
        origin = get_origin(hint)
        if origin is NotRequired:
            optional = True
        elif origin is Required:
            optional = False
        else:
            optional = key in typed_dict.__optional_keys__  # type: ignore[attr-defined]
        while get_origin(hint) in (NotRequired, Required):
            hint = get_args(hint)[0]
        types_of[key] = hint
        if not optional:
            required.add(key)
    return types_of, frozenset(required)


def shape_errors(value: object, declared: Any, path: str = "value") -> list[str]:
    """Where ``value`` departs from ``declared`` (a TypedDict, ``list[...]``, ``dict[str, ...]``, union, Literal or scalar).

    A TypedDict must have every required key, no undeclared key, and each value of its declared type;
    ``bool`` does not count as ``int``, but an ``int`` counts as ``float``. Returns at most ten problems.
    """
    try:
        if _conforms(declared)(value):
            return []
    except TypeError:
        pass  # a declaration the full check below refuses, naming the path
    errors: list[str] = []
    _check(value, declared, path, errors)
    return errors[:_MAX_ERRORS]


@cache
def _conforms(declared: Any) -> Callable[[object], bool]:
    """Whether a value matches ``declared``, exactly as ``_check`` finds no problem, without building paths.

    The conformance harness checks every observation of every seat at every step of its deep games; values
    nearly always conform, so this test, built once per declared type, answers first, and only a value that
    fails is walked again by ``_check`` for the messages. Raises ``TypeError`` where ``_check`` would.
    """
    if declared is Any or declared is object:
        return _anything
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        options = tuple(_conforms(option) for option in get_args(declared))
        return lambda value: any(option(value) for option in options)
    if origin is Literal:
        allowed = get_args(declared)
        allowed_types = {type(option) for option in allowed}
        return lambda value: value in allowed and type(value) in allowed_types
    if is_typeddict(declared):
        return _typed_dict_conforms(declared)
    if origin in (list, Sequence, tuple):
        args = get_args(declared)
        if origin is tuple and args and args[-1] is not Ellipsis:
            items = tuple(_conforms(arg) for arg in args)

            def fixed(value: object) -> bool:
                if not isinstance(value, list | tuple) or len(value) != len(items):
                    return False
                return all(item(entry) for item, entry in zip(items, value, strict=True))

            return fixed
        item = _conforms(args[0] if args else Any)
        return lambda value: isinstance(value, list | tuple) and all(map(item, value))
    if origin in (dict, Mapping):
        key_type, item_type = get_args(declared) or (Any, Any)
        key, item = _conforms(key_type), _conforms(item_type)
        return lambda value: isinstance(value, dict) and all(key(k) and item(v) for k, v in value.items())
    if declared is None or declared is type(None):
        return lambda value: value is None
    if declared is float:
        return lambda value: type(value) in (int, float)
    if isinstance(declared, type):
        exact = declared is bool or declared is int
        return lambda value: type(value) is declared or (not exact and isinstance(value, declared))
    raise TypeError(f"cannot check against the declared type {declared!r}")


def _anything(value: object) -> bool:
    return True


def _typed_dict_conforms(declared: Any) -> Callable[[object], bool]:
    """``_conforms`` of a TypedDict; its keys' tests are built on first use, so a TypedDict may refer to itself."""
    hints, required = _fields(declared)
    tests: dict[str, Callable[[object], bool]] = {}

    def conforms(value: object) -> bool:
        if not tests:
            tests.update((key, _conforms(hint)) for key, hint in hints.items())
        if not isinstance(value, dict) or not required <= value.keys():
            return False
        for key, item in value.items():
            test = tests.get(key)
            if test is None or not test(item):
                return False
        return True

    return conforms


def _check(value: object, declared: Any, path: str, errors: list[str]) -> None:
    if len(errors) >= _MAX_ERRORS or declared is Any or declared is object:
        return
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        options = get_args(declared)
        if not any(not _fails(value, option, path) for option in options):
            _mismatch(value, declared, path, errors)
        return
    if origin is Literal:
        if value not in get_args(declared) or type(value) not in {type(option) for option in get_args(declared)}:
            _mismatch(value, declared, path, errors)
        return
    if is_typeddict(declared):
        _check_typed_dict(value, declared, path, errors)
        return
    if origin in (list, Sequence, tuple):
        if not isinstance(value, list | tuple):
            _mismatch(value, declared, path, errors)
            return
        args = get_args(declared)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(value):
                errors.append(f"{path}: expected {len(args)} items, got {len(value)}")
                return
            for index, (item, item_type) in enumerate(zip(value, args, strict=True)):
                _check(item, item_type, f"{path}[{index}]", errors)
            return
        item_type = args[0] if args else Any
        for index, item in enumerate(value):
            _check(item, item_type, f"{path}[{index}]", errors)
        return
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            _mismatch(value, declared, path, errors)
            return
        key_type, item_type = get_args(declared) or (Any, Any)
        for key, item in value.items():
            _check(key, key_type, f"{path} key", errors)
            _check(item, item_type, f"{path}[{key!r}]", errors)
        return
    if declared is None or declared is type(None):
        if value is not None:
            _mismatch(value, declared, path, errors)
        return
    if declared is float:
        if type(value) not in (int, float):
            _mismatch(value, declared, path, errors)
        return
    if isinstance(declared, type):
        if type(value) is not declared and not (declared is not bool and declared is not int and isinstance(value, declared)):
            _mismatch(value, declared, path, errors)
        return
    raise TypeError(f"{path}: cannot check against the declared type {declared!r}")


def _check_typed_dict(value: object, declared: Any, path: str, errors: list[str]) -> None:
    if not isinstance(value, dict):
        _mismatch(value, declared, path, errors)
        return
    hints, required = _fields(declared)
    for key in sorted(required):
        if key not in value:
            errors.append(f"{path}: missing key {key!r} of {declared.__name__}")
    for key, item in value.items():
        if key not in hints:
            errors.append(f"{path}: key {key!r} is not declared in {declared.__name__}")
            continue
        _check(item, hints[key], f"{path}.{key}", errors)


def _fails(value: object, declared: Any, path: str) -> bool:
    trial: list[str] = []
    _check(value, declared, path, trial)
    return bool(trial)


def _mismatch(value: object, declared: Any, path: str, errors: list[str]) -> None:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    errors.append(f"{path}: expected {_name(declared)}, got {type(value).__name__} {shown}")


def _name(declared: Any) -> str:
    if declared is None or declared is type(None):
        return "None"
    if get_origin(declared) in (Union, types.UnionType):
        return " | ".join(_name(option) for option in get_args(declared))
    if isinstance(declared, type) and get_origin(declared) is None:
        return declared.__name__
    return str(declared).replace("typing.", "")
