"""The observation-encoding protocol, and how ``greenlight.rl`` finds each game's encoder.

Every game ships ``greenlight/games/<package>/encoding.py`` with a module-level
``ENCODING`` object that turns ``observe(state, seat)`` into a fixed-size list
of floats in ``[0, 1]``. The encoder sees the observation only, never the
state, so it cannot leak what the seat may not see. Game packages do not
import this module (a game depends on ``core`` only); ``ENCODING`` matches the
protocol structurally.

>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> encoding = encoding_for(game)
>>> state = game.new_state(3, seed=1)
>>> vector = encode(game, game.observe(state, 0))
>>> vector.shape == (encoding.size(3, state.options),), str(vector.dtype)
(True, 'float32')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from greenlight.core.game import Game, Observation
from greenlight.core.registry import companion_module, game_package
from greenlight.core.spec import OptionValue


@runtime_checkable
class ObservationEncoding(Protocol):
    """What a game's ``encoding.ENCODING`` provides.

    ``fields`` names every slice of the vector (documented in ``docs/rl.md``);
    ``encode`` fills it from an observation; ``potentials`` gives the seat's
    provisional standing per scoring category, read from its own observation,
    for optional reward shaping.
    """

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """``(name, length)`` of each slice of the vector, in order."""
        ...

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector for this player count and options."""
        ...

    def encode(self, observation: Observation) -> list[float]:
        """The vector for one observation; every value is in ``[0, 1]``."""
        ...

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's provisional value per scoring category (raw game units)."""
        ...

    #: Default per-category weights used when shaping is switched on with ``True``.
    shaping_weights: Mapping[str, float]


def encoding_for(game: Game[Any]) -> ObservationEncoding:
    """The encoder of ``game`` (``ENCODING`` in the ``encoding`` module of the game's package)."""
    module = companion_module(game, "encoding")
    if module is None:
        raise LookupError(f"{game.spec.title} has no module {game_package(game)}.encoding yet, so greenlight.rl cannot encode it")
    encoding = getattr(module, "ENCODING", None)
    if not isinstance(encoding, ObservationEncoding):
        raise LookupError(f"{module.__name__} must define ENCODING with fields/size/encode/potentials")
    return encoding


def has_encoding(game: Game[Any]) -> bool:
    """Whether ``game`` ships an encoder (games still being written may not yet)."""
    try:
        encoding_for(game)
    except LookupError:
        return False
    return True


def encode(game: Game[Any], observation: Observation) -> npt.NDArray[np.float32]:
    """The encoded observation as a float32 vector."""
    return np.asarray(encoding_for(game).encode(observation), dtype=np.float32)


def field_slices(fields: Sequence[tuple[str, int]]) -> dict[str, slice]:
    """Where each named field sits in the vector.

    >>> field_slices([("a", 2), ("b", 3)])
    {'a': slice(0, 2, None), 'b': slice(2, 5, None)}
    """
    slices: dict[str, slice] = {}
    start = 0
    for name, length in fields:
        slices[name] = slice(start, start + length)
        start += length
    return slices
