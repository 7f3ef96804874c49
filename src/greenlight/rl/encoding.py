"""The observation-encoding protocol, and how ``greenlight.rl`` finds each game's encoder.

Every game ships ``greenlight/games/<package>/encoding.py`` with a module-level
``ENCODING`` object that turns ``observe(state, seat)`` into a fixed-size list
of floats in ``[0, 1]``. That encoder sees the observation only, never the
state, so it cannot leak what the seat may not see: it is the **reference**.
Game packages do not import this module (a game depends on ``core`` only);
``ENCODING`` matches the protocol structurally.

An encoding may also offer a **fast path** (:class:`StateEncoding`): a writer
that reads the state directly, skipping the observation dict and its words,
and writes the same vector into a buffer the environments allocate once. It
must equal the reference on every state and seat: :func:`check_state_writer`
compares the two on every step of seeded games, for every seat, and again
after ``determinize`` has redrawn everything hidden from the seat
(``tests/rl/test_fast_encoding.py`` runs it for every game, player count and
variant).

>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> encoding = encoding_for(game)
>>> state = game.new_state(3, seed=1)
>>> vector = encode(game, game.observe(state, 0))
>>> vector.shape == (encoding.size(3, state.options),), str(vector.dtype)
(True, 'float32')
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
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


#: The fast path for one player count and options: ``write(state, seat, out)`` sets the non-zero entries of the
#: encoding of ``observe(state, seat)`` in ``out``, which is all zeros on entry.
StateWriter = Callable[[Any, int, MutableSequence[float]], None]


@runtime_checkable
class StateEncoding(Protocol):
    """An encoding with a fast path: it writes a seat's vector straight from the state.

    The writer must give exactly ``encode(observe(state, seat))``; it may read
    hidden parts of the state only where the observation shows what follows
    from them (who has committed, not what), which :func:`check_state_writer`
    verifies against the reference and under ``determinize``.
    """

    def state_writer(self, num_players: int, options: Mapping[str, OptionValue]) -> StateWriter:
        """The writer for this player count and options (built once, then called at every step)."""
        ...


#: Legal action codes as runs: ``runs(state, seat)`` gives ``[(start, stop), ...]`` whose ranges, one after the other,
#: are exactly ``legal_action_codes(state, seat)`` in order, or None when it has no runs for this state (the
#: environments then map ``legal_actions`` code by code). For steps with hundreds of consecutive codes.
LegalRuns = Callable[[Any, int], "list[tuple[int, int]] | None"]


@runtime_checkable
class RunsEncoding(Protocol):
    """An encoding that also gives a seat's legal codes as runs of consecutive codes (see :data:`LegalRuns`)."""

    def legal_runs(self, num_players: int, options: Mapping[str, OptionValue]) -> LegalRuns:
        """The runs function for this player count and options."""
        ...


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


def state_writer_for(game: Game[Any], num_players: int, options: Mapping[str, OptionValue]) -> StateWriter | None:
    """The fast path of ``game``'s encoding for this player count and options, or None if it has none."""
    encoding = encoding_for(game)
    return encoding.state_writer(num_players, options) if isinstance(encoding, StateEncoding) else None


def legal_runs_for(game: Game[Any], num_players: int, options: Mapping[str, OptionValue]) -> LegalRuns | None:
    """The legal code runs of ``game``'s encoding for this player count and options, or None if it has none."""
    encoding = encoding_for(game)
    return encoding.legal_runs(num_players, options) if isinstance(encoding, RunsEncoding) else None


def check_legal_runs(game: Game[Any], states: Iterable[Any]) -> int:
    """Check the encoding's legal code runs against ``legal_action_codes`` on ``states``, for every seat.

    Returns how many (state, seat) pairs had runs (the others fall back to the code-by-code path). Raises
    AssertionError at the first difference.
    """
    checked = 0
    runs_of: dict[tuple[int, str], LegalRuns] = {}
    for state in states:
        num_players = game.num_players(state)
        key = (num_players, repr(sorted(state.options.items())))
        if key not in runs_of:
            found = legal_runs_for(game, num_players, state.options)
            if found is None:
                raise LookupError(f"{game.spec.title} has no legal code runs")
            runs_of[key] = found
        for seat in range(num_players):
            runs = runs_of[key](state, seat)
            if runs is None:
                continue
            codes = [code for start, stop in runs for code in range(start, stop)]
            expected = game.legal_action_codes(state, seat)
            if codes != expected:
                raise AssertionError(f"{game.spec.id}: the legal code runs of seat {seat} are {runs}, not the codes {expected}")
            checked += 1
    return checked


def fast_encode(game: Game[Any], state: Any, seat: int) -> npt.NDArray[np.float32]:
    """The vector of ``seat`` written by the fast path (raises LookupError if the game has none)."""
    num_players = game.num_players(state)
    writer = state_writer_for(game, num_players, state.options)
    if writer is None:
        raise LookupError(f"{game.spec.title} has no fast encoding path")
    vector = array("f", bytes(4 * encoding_for(game).size(num_players, state.options)))
    writer(state, seat, vector)
    return np.frombuffer(vector, dtype=np.float32)


class EncodingMismatch(AssertionError):
    """The fast path and the reference encoding disagree."""


def check_state_writer(
    game: Game[Any], states: Iterable[Any], *, resamples: int = 1, seed: int = 0, writer: StateWriter | None = None
) -> int:
    """Check the fast path against the reference on ``states``, for every seat; return the vectors compared.

    At each state and seat: ``writer(state, seat)`` must equal
    ``encode(observe(state, seat))`` exactly (float32), and ``resamples``
    times the writer must give the same vector on ``determinize(state, seat,
    rng)``, a world where everything hidden from the seat is drawn again (so
    the fast path, which reads the state, provably sees no more than the
    observation). The states may be one object mutated between yields.
    ``writer`` checks that writer instead of the game's own (for one player
    count and options). Raises :class:`EncodingMismatch` naming the fields
    that differ.
    """
    encoding = encoding_for(game)
    writers: dict[tuple[int, str], tuple[StateWriter, int]] = {}
    rng = random.Random(seed)
    compared = 0
    for state in states:
        num_players = game.num_players(state)
        key = (num_players, repr(sorted(state.options.items())))
        if key not in writers:
            found = writer or state_writer_for(game, num_players, state.options)
            if found is None:
                raise LookupError(f"{game.spec.title} has no fast encoding path")
            writers[key] = (found, encoding.size(num_players, state.options))
        write, size = writers[key]
        for seat in range(num_players):
            expected = np.asarray(encoding.encode(game.observe(state, seat)), dtype=np.float32)
            fast = array("f", bytes(4 * size))
            write(state, seat, fast)
            _compare(game, encoding, state, seat, fast, expected, "the reference encoding of its observation")
            for _ in range(resamples):
                world = game.determinize(state, seat, rng)
                again = array("f", bytes(4 * size))
                write(world, seat, again)
                _compare(game, encoding, state, seat, again, expected, "its vector after determinize redrew what it cannot see")
            compared += 1
    return compared


def _compare(
    game: Game[Any],
    encoding: ObservationEncoding,
    state: Any,
    seat: int,
    written: array[float],
    expected: npt.NDArray[np.float32],
    what: str,
) -> None:
    got = np.frombuffer(written, dtype=np.float32)
    if np.array_equal(got, expected):
        return
    slices = field_slices(encoding.fields(game.num_players(state), state.options))
    wrong = [name for name, where in slices.items() if not np.array_equal(got[where], expected[where])]
    raise EncodingMismatch(f"{game.spec.id}: the fast path for seat {seat} differs from {what} in fields {wrong}")


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
