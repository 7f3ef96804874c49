"""The engine contract every game implements.

A game answers the same few questions (OpenSpiel): who acts now, what is legal,
apply an action, what does this seat see, how could the hidden part look, and
how did it end. Bots, the server, the simulator and the RL layer use only this
contract and never a game's internals.

A game package registers its ``Game`` object as a plugin (see
``greenlight.core.registry``) and proves it keeps the contract by passing
``greenlight.testing.check_game``; ``CONTRIBUTING.md`` walks through a whole
small game, ``examples/opening-weekend``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from greenlight.core.actions import Action, ActionCodec
from greenlight.core.decision import Decision
from greenlight.core.errors import IllegalActionError, OptionError
from greenlight.core.events import Event
from greenlight.core.outcome import Outcome
from greenlight.core.spec import GameSpec, Options, OptionValue
from greenlight.core.state import GameState
from greenlight.core.words import Component

if TYPE_CHECKING:
    from greenlight.core.bot import Bot

S = TypeVar("S", bound=GameState)

Observation = dict[str, Any]


class Game(ABC, Generic[S]):
    """One registered game. Subclasses fill in the abstract methods.

    ``apply`` mutates the state in place and returns the events it caused;
    callers that need an earlier state keep a ``clone()``.
    """

    spec: GameSpec
    #: The action classes of this game (their verbs must be unique).
    action_types: tuple[type[Action], ...] = ()
    #: Whether any information is hidden from some seat (the harness then insists determinize resamples).
    has_hidden_information: bool = True
    #: Number of distinct integer action codes (``action_code`` is in ``range(num_distinct_actions)``).
    num_distinct_actions: int = 0

    def __init__(self) -> None:
        self._codec = ActionCodec(self.action_types)

    # -- starting -------------------------------------------------------------

    def new_state(self, num_players: int, seed: int, options: Options | None = None) -> S:
        """Start a game: the only way to make a fresh state."""
        resolved = self.spec.resolve_options(num_players, options)
        if not isinstance(seed, int) or seed < 0:
            raise OptionError(f"the seed must be a whole number >= 0, not {seed!r}")
        return self.initial_state(num_players, seed, resolved)

    @abstractmethod
    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> S:
        """Build the start position from validated options."""

    # -- the turn -------------------------------------------------------------

    @abstractmethod
    def decision(self, state: S) -> Decision:
        """What the game waits for now (empty ``players`` when it is over)."""

    @abstractmethod
    def legal_actions(self, state: S, player: int) -> list[Action]:
        """Every action ``player`` may take now; empty if ``player`` does not owe one."""

    def is_terminal(self, state: S) -> bool:
        """True once the game is over."""
        return self.decision(state).is_terminal

    def apply(self, state: S, player: int, action: Action) -> list[Event]:
        """Check ``action`` for ``player`` and apply it; raise IllegalActionError saying why if refused.

        A refused action changes nothing.
        """
        self.check(state, player, action)
        return self.apply_unchecked(state, player, action)

    def check(self, state: S, player: int, action: Action) -> None:
        """Raise IllegalActionError (with a reason in player language) unless ``action`` is legal."""
        decision = self.decision(state)
        if decision.is_terminal:
            raise IllegalActionError("the game is over; no more actions are taken")
        if not isinstance(player, int) or not 0 <= player < self.num_players(state):
            raise IllegalActionError(f"there is no seat {player} at this table")
        if player not in decision.players:
            if player in decision.committed:
                raise IllegalActionError(f"seat {player} has already made its choice in this step; waiting for the others")
            waiting = ", ".join(f"seat {seat}" for seat in decision.players)
            raise IllegalActionError(f"it is not seat {player}'s turn; waiting for {waiting}")
        if action not in self.legal_actions(state, player):
            raise IllegalActionError(self.why_illegal(state, player, action))

    def why_illegal(self, state: S, player: int, action: Action) -> str:
        """Explain, in the game's words, why ``action`` is not legal now. Games override this."""
        return f"'{action}' is not one of your legal actions now"

    @abstractmethod
    def apply_unchecked(self, state: S, player: int, action: Action) -> list[Event]:
        """Apply an action already known to be legal; return the events it caused."""

    # -- information ----------------------------------------------------------

    @abstractmethod
    def observe(self, state: S, player: int | None) -> Observation:
        """The JSON-ready view of ``player`` (``None`` = spectator): only what that seat may see."""

    @abstractmethod
    def determinize(self, state: S, player: int | None, rng: random.Random) -> S:
        """A full state that ``player`` cannot tell apart from ``state``; hidden parts resampled with ``rng``."""

    def secrets(self, state: S, player: int | None) -> frozenset[str]:
        """Values (such as card ids) hidden from ``player`` that must never appear in its observation.

        The conformance harness checks this on top of the determinization test.
        """
        return frozenset()

    # -- player words -------------------------------------------------------------
    #
    # The view layer of a game is the one source of everything a person reads:
    # the terminal and the web render these words, never data-file fields or bare
    # card codes (see greenlight.core.words). Each takes what it needs to word
    # things in context; none may reveal what the seat or audience may not know.

    def components(self, state: S | None = None) -> list[Component]:
        """Every printed component (cards, trends, plans, spaces...) in words; of ``state``'s game if given, else the bundled data."""
        return []

    def describe_action(self, state: S, player: int, action: Action) -> str:
        """A short sentence saying what ``action`` does for ``player`` now, with what it costs or scores.

        For example "Lay Colour Grading to the right of line 1, as post-production".
        Games override this; the default is the action's text.
        """
        return str(action)

    def action_warning(self, state: S, player: int, action: Action) -> str | None:
        """Why ``player`` should confirm ``action`` first (it cannot be undone and scores nothing, or drops them out), or None."""
        return None

    def describe_event(self, event: Event, state: S | None = None, names: Sequence[str] | None = None) -> str:
        """One line of log text for ``event``, with seats called by ``names`` and cards by name (from ``state``'s game).

        Games override this.
        """
        details = ", ".join(f"{key} {value}" for key, value in event.data.items())
        return f"{event.kind.replace('_', ' ')}: {details}" if details else event.kind.replace("_", " ")

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """A plain-text (rich markup allowed) rendering of an observation for the terminal, in words."""
        import json

        return json.dumps(observation, indent=2)

    def help_text(self, observation: Observation) -> str:
        """The legend of the symbols the game's text uses and the rules of the step the observation is at, in words."""
        return ""

    # -- ending ---------------------------------------------------------------

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Final scores, ranks, winners and breakdown. Only valid once the game is over."""

    def num_players(self, state: S) -> int:
        """Number of seats in ``state``."""
        return int(state.num_players)  # type: ignore[attr-defined]

    # -- text and integer forms of actions --------------------------------------

    def parse_action(self, text: str) -> Action:
        """Read an action from its text form (``parse_action(str(a)) == a``)."""
        return self._codec.parse(text)

    @abstractmethod
    def action_code(self, state: S, action: Action) -> int:
        """A stable integer in ``range(num_distinct_actions)`` for ``action``.

        It depends only on the action and the game's static data (the state
        gives access to that data), so the same action always has the same
        code; distinct actions that are legal together get distinct codes.
        """

    def action_from_code(self, state: S, player: int, code: int) -> Action:
        """The legal action of ``player`` whose code is ``code``."""
        for action in self.legal_actions(state, player):
            if self.action_code(state, action) == code:
                return action
        raise IllegalActionError(f"action code {code} is not legal for seat {player} now")

    def legal_action_codes(self, state: S, player: int) -> list[int]:
        """Codes of ``legal_actions(state, player)``, in the same order."""
        return [self.action_code(state, action) for action in self.legal_actions(state, player)]

    # -- bots --------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """This game's own bots by level name (for example ``heuristic``), each built from a seed."""
        return {}

    # -- helpers for interfaces -----------------------------------------------------

    def seat_label(self, seat: int) -> str:
        """How a seat is called in text."""
        return f"P{seat}"
