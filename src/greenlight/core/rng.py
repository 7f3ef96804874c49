"""Seeded randomness. Every random choice of a game comes from its state's own RNG."""

from __future__ import annotations

import hashlib
import random


def make_rng(*parts: object) -> random.Random:
    """A ``random.Random`` seeded from ``parts`` through SHA-256, stable across runs and platforms.

    The whole 256-bit digest seeds the stream, so a stream holds as much of
    a secret seed as the seed has (a 128-bit seed stays 128 bits).

    >>> make_rng("demo", 7).random() == make_rng("demo", 7).random()
    True
    """
    text = "/".join(str(part) for part in parts)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest(), "big"))
