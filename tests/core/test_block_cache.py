"""The encodings' two-generation block cache: blocks in use survive a turnover, others are dropped."""

from __future__ import annotations

import pytest

from greenlight.core import block_cache
from greenlight.core.block_cache import BlockCache


def test_a_block_still_in_use_survives_the_turnover_and_an_unused_one_is_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(block_cache, "BLOCK_CACHE_LIMIT", 2)
    cache = BlockCache()
    made: list[str] = []

    def block(name: str) -> list[float]:
        def make() -> list[float]:
            made.append(name)
            return [float(len(made))]

        return cache._cached((name,), make)

    first = block("a")
    block("b")  # the newer generation is full: the next new block starts a fresh one
    block("c")
    assert block("a") is first  # found in the older generation, moved to the newer
    block("d")  # full again: {c, a} becomes the older generation, {b} is dropped
    block("e")
    assert block("a") is first and made == ["a", "b", "c", "d", "e"]
    block("b")
    assert made[-1] == "b" and len(made) == 6
