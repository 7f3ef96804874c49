"""``state_digest``: equal exactly when contents are equal, whatever the types inside (decided once per type)."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable
from typing import Any

import pytest

from greenlight.core.state import state_digest


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


class Hand(list[str]):
    """A list subclass: digested as a sequence under its own name."""


@dataclasses.dataclass(frozen=True)
class Card:
    id: str
    cost: int


class Slotted:
    __slots__ = ("cards", "rng", "unset")

    def __init__(self, cards: list[object], seed: int) -> None:
        self.cards = cards
        self.rng = random.Random(seed)


def test_equal_contents_give_equal_digests_and_any_difference_shows() -> None:
    first = Slotted(["A9", 3, None, 2.5, True, Colour.RED, Card("P1", 2), Hand(["x"]), {"k": {1, 2}}], seed=1)
    second = Slotted(["A9", 3, None, 2.5, True, Colour.RED, Card("P1", 2), Hand(["x"]), {"k": {2, 1}}], seed=1)
    assert state_digest(first) == state_digest(second)
    # The items are of many types: each change reaches into the one it knows.
    changes: list[Callable[[Any], object]] = [
        lambda s: s.cards.__setitem__(0, "A8"),
        lambda s: s.cards.__setitem__(5, Colour.BLUE),
        lambda s: s.cards.__setitem__(6, Card("P1", 3)),
        lambda s: s.cards[7].append("y"),
        lambda s: s.cards[8]["k"].add(3),
        lambda s: s.rng.random(),
    ]
    for index, change in enumerate(changes):
        other = Slotted([*first.cards[:7], Hand(["x"]), {"k": {1, 2}}], seed=1)
        change(other)
        assert state_digest(other) != state_digest(first), index


def test_a_plain_sequence_digests_as_its_items_do() -> None:
    deck = ["A1", "B2", None, 3, 4.5, b"x"]
    assert state_digest(deck) == ("list", tuple(deck))
    assert state_digest(tuple(deck)) == ("tuple", tuple(deck))
    assert state_digest(Hand(["a"])) == ("Hand", ("a",))
    assert state_digest([Colour.RED, "a"]) == ("list", (Colour.RED, "a"))
    assert state_digest([["a"], "b"]) == ("list", (("list", ("a",)), "b"))


def test_an_unreadable_value_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="cannot read a object"):
        state_digest([object()])
    with pytest.raises(TypeError, match="cannot read a type"):
        state_digest(Card)
