"""A two-generation cache of vector blocks, for the encodings' fast paths.

An encoding's fast path writes a seat's vector in blocks (a header, a seat, a
card slot...), each a function of a few small facts; a block is made once per
key and copied in afterwards. The cache keeps two generations of at most
``BLOCK_CACHE_LIMIT`` blocks each: when the newer one is full it becomes the
older and a fresh one starts, so blocks still in use survive the turnover
(looked up in the older generation, they move to the newer), and memory stays
bounded over millions of games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

#: Entries one generation keeps before it starts again (each holds at most a few hundred floats).
BLOCK_CACHE_LIMIT = 20_000

V = TypeVar("V")


class BlockCache:
    """Blocks under hashable keys, made once; subclasses read ``_blocks`` directly on their hottest lookups.

    >>> cache = BlockCache()
    >>> made = []
    >>> cache._cached(("header", 1), lambda: made.append(1) or [0.5])
    [0.5]
    >>> cache._cached(("header", 1), lambda: made.append(1) or [0.5]), len(made)
    ([0.5], 1)
    """

    def __init__(self) -> None:
        self._blocks: dict[tuple[Any, ...], Any] = {}
        self._old: dict[tuple[Any, ...], Any] = {}

    def _cached(self, key: tuple[Any, ...], make: Callable[[], V]) -> V:
        """The block under ``key``, made by ``make`` the first time (see the module docstring for the generations)."""
        found: V | None = self._blocks.get(key)
        if found is None:
            found = self._old.get(key)
            if found is None:
                found = make()
            if len(self._blocks) >= BLOCK_CACHE_LIMIT:
                self._old, self._blocks = self._blocks, {}
            self._blocks[key] = found
        return found
