"""Observation vectors and action masks of every seat, written into buffers allocated once.

The PettingZoo, Gymnasium and OpenSpiel layers all ask the same two questions
at every step: what does this seat see (its encoded observation) and what may
it do (its action mask). :class:`SeatObserver` answers both without allocating:

* each seat has one float32 vector and one int8 mask, made when the
  environment is built; every answer overwrites that seat's arrays in place
  and returns them, so **an array stays valid until the same seat is observed
  again** (copy it to keep it);
* the vector comes from the encoding's fast path when it has one
  (:class:`~greenlight.rl.encoding.StateEncoding`, checked against the
  observation-based reference by :func:`~greenlight.rl.encoding.check_state_writer`),
  else from the reference ``encode(observe(state, seat))``;
* the mask is set from ``legal_actions`` (the single source of truth) through
  a cache of action codes, and the legal actions are kept so that the code the
  agent picks is turned back into its action without asking the rules again;
  an encoding may instead give the legal codes as runs of consecutive codes
  (:data:`~greenlight.rl.encoding.LegalRuns`, checked equal to
  ``legal_action_codes`` by :func:`~greenlight.rl.encoding.check_legal_runs`),
  set a slice at a time, the code picked being the position in ``legal_actions``;
* both are written once per seat and state: the environment calls
  :meth:`SeatObserver.changed` whenever the state changes, and asking again
  before that returns the arrays as they are.

The vector lives in an ``array.array`` that a NumPy array views: the encoders
write plain Python floats into it (no NumPy in the game packages), NumPy
readers see them at once.

Masks and codes are **agent codes** (:mod:`greenlight.rl.actions`): the game's
codes, except that a game may have some actions chosen one card at a time.
The cards a seat picked so far are kept here (a new game clears them) and
shown in a block after the game's encoding; :meth:`SeatObserver.action`
returns None for a pick that leaves the choice open.

An observer pickles and copies as its game, player count, options and picks:
the buffers and caches are made again (so a copy shares no array with the
original) and every seat is written afresh when next asked.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.spec import OptionValue
from greenlight.rl.actions import AgentPicks, Target, agent_codes_for
from greenlight.rl.encoding import StateWriter, encoding_for, legal_runs_for, state_writer_for

#: Distinct actions whose codes are remembered before the cache starts again (games that share their action
#: objects have far fewer; games that build new ones every step would otherwise grow it without end).
CODE_CACHE_LIMIT = 200_000
#: Up to this many legal codes a mask is set and cleared byte by byte; above, with one NumPy call.
MASK_CLEAR_ONE_BY_ONE = 16


class SeatObserver:
    """Encoded observations and action masks of the seats of one game, player count and options.

    ``fast=False`` uses the observation-based reference encoding even when the
    game has a fast path (for comparisons and benchmarks).
    """

    def __init__(self, game: Game[Any], num_players: int, options: Mapping[str, OptionValue], *, fast: bool = True) -> None:
        self.game = game
        self.num_players = num_players
        self.options = dict(options)
        self.fast_requested = fast
        self._legal = game.legal_actions
        self.encoding = encoding_for(game)
        #: The agent layout (``greenlight.rl.actions``): the codes of the masks and of ``action``.
        self.agent_codes = agent_codes_for(game)
        #: Agent codes (the length of every mask).
        self.num_codes = self.agent_codes.num_codes
        #: Length of the game's encoding; the block of picked cards (if any) follows it.
        self.encoded_size = self.encoding.size(num_players, options)
        self.size = self.encoded_size + self.agent_codes.block_size
        #: The cards each seat has picked so far (games with actions chosen card by card).
        self.picks = AgentPicks(self.agent_codes, num_players)
        writer = state_writer_for(game, num_players, options) if fast else None
        #: Whether the vectors come from the encoding's fast path (else from ``encode(observe(...))``).
        self.fast = writer is not None
        self._write: StateWriter = writer if writer is not None else self._write_reference
        self._zeros = array("f", bytes(4 * self.size))
        self._vectors = [array("f", self._zeros) for _ in range(num_players)]
        #: Each seat's observation vector: a float32 view of the buffer the encoder writes.
        self.vectors = [np.frombuffer(vector, dtype=np.float32) for vector in self._vectors]
        self._no_codes = bytes(self.num_codes)
        self._mask_bytes = [bytearray(self._no_codes) for _ in range(num_players)]
        #: Each seat's action mask (int8, 1 at the legal codes): a view of the bytes the codes are set in.
        self.masks = [np.frombuffer(mask, dtype=np.int8) for mask in self._mask_bytes]
        self._masked: list[list[int]] = [[] for _ in range(num_players)]
        # What each masked code does when it is not simply the action at its position (games with picks).
        self._targets: list[list[Target] | None] = [None] * num_players
        #: The encoding's legal code runs, if it has them (see ``greenlight.rl.encoding.LegalRuns``).
        self._legal_runs = legal_runs_for(game, num_players, options) if fast and self.agent_codes.identity else None
        self._runs: list[list[tuple[int, int]] | None] = [None] * num_players  # the runs each mask was set from
        self._ones = memoryview(b"\x01" * self.num_codes)
        self._no_codes_view = memoryview(self._no_codes)
        self._code_of_id: dict[int, int] = {}
        self._kept: list[Action] = []  # holds every cached action, so no other object can reuse its id
        self._version = 0
        self._written = [-1] * num_players  # the version each seat's vector was written at
        self._masked_at = [-1] * num_players  # the version each seat's mask and legal actions were set at
        self._legal_actions: list[list[Action]] = [[] for _ in range(num_players)]

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "num_players": self.num_players,
            "options": self.options,
            "fast": self.fast_requested,
            "prefixes": list(self.picks.prefixes),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["game"], data["num_players"], data["options"], fast=data["fast"])  # type: ignore[misc]
        self.picks.prefixes = list(data["prefixes"])

    def new_game(self) -> None:
        """A new game: nothing picked, every vector and mask out of date."""
        self.picks.clear()
        self.changed()

    def changed(self) -> None:
        """The state changed (an action, a new game): every vector, mask and remembered legal action is out of date."""
        self._version += 1

    # -- observations -----------------------------------------------------------------

    def observation(self, state: Any, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s encoded observation of ``state``, written into its vector unless it is already current."""
        if self._written[seat] != self._version:
            vector = self._vectors[seat]
            vector[:] = self._zeros
            self._write(state, seat, vector)
            prefix = self.picks.prefixes[seat]
            if prefix is not None:
                base, scale = self.encoded_size, 1.0 / self.agent_codes.max_picks
                for card, count in self.agent_codes.picked_counts(prefix).items():
                    vector[base + card] = min(count * scale, 1.0)
            self._written[seat] = self._version
        return self.vectors[seat]

    def _write_reference(self, state: Any, seat: int, out: Any) -> None:
        out[: self.encoded_size] = array("f", self.encoding.encode(self.game.observe(state, seat)))

    # -- masks and actions --------------------------------------------------------------

    def mask(self, state: Any, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s mask set to its legal agent codes now (unless already current); its legal actions are kept."""
        if self._masked_at[seat] == self._version:
            return self.masks[seat]
        self._clear(seat)
        mask = self._mask_bytes[seat]
        runs = self._legal_runs(state, seat) if self._legal_runs is not None else None
        if runs is not None:
            # Long runs of consecutive codes (Cinecitta's offers: a card at every amount up to the wallet): a slice
            # each, and the legal actions are asked for only when a code has to be turned back into its action.
            ones = self._ones
            for start, stop in runs:
                mask[start:stop] = ones[: stop - start]
            self._runs[seat] = runs
        else:
            actions = self._legal(state, seat)
            codes: list[int] = list(map(self._code_of_id.get, map(id, actions)))  # type: ignore[arg-type]  # None: not cached
            if None in codes:
                codes = self.codes(state, actions)
            prefix = self.picks.prefixes[seat]
            if prefix is None and (self.agent_codes.identity or not codes or max(codes) < self.agent_codes.plain_below):
                self._targets[seat] = None  # agent codes are the game codes, each the action at its position
            else:
                codes, self._targets[seat] = self.agent_codes.options(codes, prefix)
            # One byte at a time is cheaper than NumPy's fancy indexing for the few codes a seat usually has.
            if len(codes) > MASK_CLEAR_ONE_BY_ONE:
                self.masks[seat][codes] = 1
            else:
                for code in codes:
                    mask[code] = 1
            self._masked[seat] = codes
            self._legal_actions[seat] = actions
        self._masked_at[seat] = self._version
        return self.masks[seat]

    def no_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """Clear ``seat``'s mask (it does not act now) and return it."""
        self._clear(seat)
        self._masked_at[seat] = -1
        return self.masks[seat]

    def _clear(self, seat: int) -> None:
        """Zero the bytes of ``seat``'s mask set last (all of the mask at once when there were many codes)."""
        mask = self._mask_bytes[seat]
        runs = self._runs[seat]
        if runs is not None:
            zeros = self._no_codes_view
            for start, stop in runs:
                mask[start:stop] = zeros[: stop - start]
            self._runs[seat] = None
        codes = self._masked[seat]
        if len(codes) > MASK_CLEAR_ONE_BY_ONE:
            mask[:] = self._no_codes
        else:
            for code in codes:
                mask[code] = 0
        self._masked[seat] = []

    def codes(self, state: Any, actions: list[Action]) -> list[int]:
        """The action codes of ``actions``, in order (each code computed once per distinct action object)."""
        codes: list[int | None] = list(map(self._code_of_id.get, map(id, actions)))
        if None in codes:
            code_of = self.game.action_code
            if len(self._kept) > CODE_CACHE_LIMIT:
                self._code_of_id.clear()
                self._kept.clear()
            for index, action in enumerate(actions):
                if codes[index] is None:
                    codes[index] = self._code_of_id[id(action)] = code_of(state, action)
                    self._kept.append(action)
        return codes  # type: ignore[return-value]  # every None was just replaced

    def action(self, state: Any, seat: int, code: int) -> Action | None:
        """The legal action of ``seat`` that agent code ``code`` plays, or None for a pick that leaves the choice open.

        Uses the seat's current mask if it has one, else asks the rules. A pick
        is remembered (call :meth:`changed` before observing again, as after
        any action). Raises IllegalActionError when ``code`` is not legal for
        ``seat`` now.
        """
        if self._masked_at[seat] != self._version:
            self.mask(state, seat)  # the seat's options now (its mask is set as a side effect)
        runs = self._runs[seat]
        if runs is not None:
            offset = 0
            for start, stop in runs:
                if start <= code < stop:
                    return self._legal(state, seat)[offset + code - start]
                offset += stop - start
            return self.game.action_from_code(state, seat, code)  # not legal: the rules word the refusal
        try:
            position = self._masked[seat].index(code)
        except ValueError:
            raise IllegalActionError(self._refusal(state, seat, code)) from None
        targets = self._targets[seat]
        if targets is None:
            return self._legal_actions[seat][position]
        target = targets[position]
        if isinstance(target, tuple):
            self.picks.prefixes[seat] = target
            return None
        self.picks.prefixes[seat] = None
        return self._legal_actions[seat][target]

    def _refusal(self, state: Any, seat: int, code: int) -> str:
        """Why ``code`` is refused, in the rules' words where it is one of the game's own codes."""
        if not 0 <= code < self.num_codes:
            return f"action code {code} is not in 0..{self.num_codes - 1}"
        picked = self.agent_codes.describe(code)
        if picked is not None:
            kind, card = picked
            what = f"finishing a '{kind.verb}'" if card is None else f"picking card {card} for a '{kind.verb}'"
            return f"action code {code} ({what}) is not legal for seat {seat} now"
        if self.picks.prefixes[seat] is not None:
            return f"action code {code} is not legal for seat {seat} now: it must go on picking the cards it started to pick"
        try:
            self.game.action_from_code(state, seat, code)
        except IllegalActionError as error:
            return str(error)
        return f"action code {code} is not legal for seat {seat} now"
