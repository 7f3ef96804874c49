"""``core.shapes`` checks JSON-ready values against TypedDict declarations, as the harness uses it."""

from __future__ import annotations

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
