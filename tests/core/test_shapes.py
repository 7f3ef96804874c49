"""``core.shapes`` checks JSON-ready values against TypedDict declarations, as the harness uses it."""

from __future__ import annotations

import random
from typing import Literal, NotRequired, TypedDict

import pytest

from greenlight.core.shapes import shape_errors


class Back(TypedDict):
    money: int
    card: str | None


class Folder(TypedDict):
    card: str
    amount: int
    back: Back | None
    role: Literal["sent", "received"]
    history: NotRequired[list[Back]]
    share: NotRequired[float]


GOOD: Folder = {"card": "A9", "amount": 10, "back": {"money": 20, "card": None}, "role": "sent"}


def test_a_value_of_the_declared_shape_has_no_errors() -> None:
    assert shape_errors(GOOD, Folder) == []
    assert shape_errors({**GOOD, "history": [{"money": 0, "card": "B2"}], "share": 3}, Folder) == []


def test_not_required_keys_are_optional_even_under_postponed_annotations() -> None:
    # This module uses ``from __future__ import annotations``, where Python 3.11 marks every key required.
    assert "history" in Folder.__required_keys__
    assert shape_errors(GOOD, Folder) == []


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"amount": "10"}, "folder.amount: expected int, got str '10'"),
        ({"amount": True}, "folder.amount: expected int, got bool True"),
        ({"back": {"money": 20}}, "folder.back: expected Back | None, got dict {'money': 20}"),
        ({"role": "kept"}, "folder.role: expected Literal['sent', 'received'], got str 'kept'"),
        ({"history": [{"money": 1, "card": 7}]}, "folder.history[0].card: expected str | None, got int 7"),
        ({"share": "half"}, "folder.share: expected float, got str 'half'"),
        ({"colour": "red"}, "folder: key 'colour' is not declared in Folder"),
    ],
)
def test_each_departure_is_named_with_its_path(change: dict[str, object], error: str) -> None:
    assert shape_errors({**GOOD, **change}, Folder, "folder") == [error]


def test_a_missing_key_is_named() -> None:
    value = {key: item for key, item in GOOD.items() if key != "amount"}
    assert shape_errors(value, Folder, "folder") == ["folder: missing key 'amount' of Folder"]


def test_containers_and_at_most_ten_errors() -> None:
    assert shape_errors({"a": [1, 2]}, dict[str, list[int]]) == []
    assert shape_errors((1, "x"), tuple[int, str]) == []
    assert shape_errors((1,), tuple[int, str]) == ["value: expected 2 items, got 1"]
    assert len(shape_errors(["x"] * 50, list[int])) == 10


class Node(TypedDict):
    name: str
    children: list[Node]


#: Declarations covering every kind ``shape_errors`` reads, for the fast test against the full walk.
DECLARED: list[object] = [
    Folder,
    Node,
    int,
    float,
    bool,
    str,
    None,
    list[int],
    tuple[int, str],
    tuple[int, ...],
    dict[str, float],
    list[Back] | None,
    Literal[1, "one", True],
    dict[str, list[tuple[bool, float | None]]],
]


def _random_value(rng: random.Random, depth: int = 0) -> object:
    """JSON-like values (and a few that are not): what an observation could hold, right or wrong."""
    scalars: list[object] = [0, 1, -3, 2.5, True, False, None, "", "one", "A9", "sent", 10]
    if depth >= 3 or rng.random() < 0.4:
        return rng.choice(scalars)
    kind = rng.randrange(4)
    if kind == 0:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 1:
        return tuple(_random_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    keys = ["card", "amount", "back", "role", "history", "share", "money", "name", "children", "x"]
    value = {key: _random_value(rng, depth + 1) for key in rng.sample(keys, rng.randrange(5))}
    if kind == 3:  # often nearly right: start from a good folder or node and change one part
        value = {**rng.choice([GOOD, {"name": "a", "children": [{"name": "b", "children": []}]}]), **dict(list(value.items())[:1])}
    return value


def test_the_fast_test_agrees_with_the_full_walk_on_random_values() -> None:
    from greenlight.core.shapes import _check

    rng = random.Random(7)
    agreed = {True: 0, False: 0}
    for _ in range(4000):
        value = _random_value(rng)
        for declared in DECLARED:
            errors: list[str] = []
            _check(value, declared, "value", errors)
            assert (shape_errors(value, declared) == []) == (not errors), (value, declared)
            agreed[not errors] += 1
    assert agreed[True] > 500 and agreed[False] > 500  # both answers were exercised


def test_an_unreadable_declaration_is_still_refused_with_its_path() -> None:
    with pytest.raises(TypeError, match=r"value\['x'\]: cannot check"):
        shape_errors({"x": 1}, dict[str, set[int]])
