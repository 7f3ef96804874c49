"""The random primitives of rules §2.6, built on ``rng.random()`` only.

The library's ``shuffle``, ``choice``, ``randint`` and ``randrange`` consume
the stream differently, so the generator, setup and every chance event of
§4.9 use these instead; that is what makes games replay draw for draw.

>>> import random
>>> rng = random.Random("maybe-movies/deck/0")
>>> int_in(rng, 2, 4), int_in(rng, 1, 2)
(4, 1)
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from math import floor
from typing import TypeVar

from greenlight.core.rng import Stream

T = TypeVar("T")


def deck_stream(seed: int) -> Stream:
    """The stream that generates the catalogue (G1-G4)."""
    return Stream("maybe-movies", "deck", seed)


def play_stream(seed: int) -> Stream:
    """The stream used by setup (§3) and every chance event in play (§4.9)."""
    return Stream("maybe-movies", "play", seed)


def flavour_stream(seed: int) -> Stream:
    """The stream used for cosmetic titles only."""
    return Stream("maybe-movies", "flavour", seed)


def int_in(rng: random.Random, a: int, b: int) -> int:
    """``a + floor(U() * (b - a + 1))``: a whole number from a to b, both included."""
    return a + floor(rng.random() * (b - a + 1))


def pick(rng: random.Random, seq: Sequence[T]) -> T:
    """``seq[floor(U() * len(seq))]``."""
    return seq[floor(rng.random() * len(seq))]


def shuffle(rng: random.Random, seq: MutableSequence[T]) -> None:
    """In place, from the last index down to 1: ``j = floor(U() * (i + 1))``, swap ``seq[i]`` and ``seq[j]``."""
    draw = rng.random
    for i in range(len(seq) - 1, 0, -1):
        j = floor(draw() * (i + 1))
        seq[i], seq[j] = seq[j], seq[i]


def real_in(rng: random.Random, a: float, b: float) -> float:
    """``a + (b - a) * U()`` with ``b - a`` computed first."""
    width = b - a
    return a + width * rng.random()


def round_half_up(x: float) -> int:
    """``floor(x + 0.5)``."""
    return floor(x + 0.5)


def random_index(rng: random.Random, size: int) -> int:
    """``floor(U() * size)``: the CHANGE replacement draw of §4.9."""
    return floor(rng.random() * size)
