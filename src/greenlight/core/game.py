"""The engine contract every game implements.

A game answers the same few questions (OpenSpiel): who acts now, what is legal,
apply an action, what does this seat see, how could the hidden part look, and
how did it end. Bots, the server, the simulator and the RL layer use only this
contract and never a game's internals.

A game is declarations only: its spec, its action types and code layout, and
the three modules that answer the questions (``rules``, ``view`` and
``words``, see :class:`GameRules`, :class:`GameView` and :class:`GameWords`).
A game package registers its ``Game`` object as a plugin (see
``greenlight.core.registry``) and proves it keeps the contract by passing
``greenlight.testing.check_game``; ``CONTRIBUTING.md`` walks through a whole
small game, ``examples/opening-weekend``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from greenlight.core.actions import Action, ActionCodec, ActionLayout
from greenlight.core.data import DataSet
from greenlight.core.decision import Decision
from greenlight.core.errors import IllegalActionError, OptionError
from greenlight.core.events import Event
from greenlight.core.outcome import Outcome
from greenlight.core.positions import HEADER_KEYS as POSITION_HEADER_KEYS
from greenlight.core.positions import POSITION_FORMAT, PositionError, state_fields
from greenlight.core.positions import decode as decode_position_value
from greenlight.core.positions import encode as encode_position_value
from greenlight.core.spec import GameSpec, Options, OptionValue
from greenlight.core.state import GameState
from greenlight.core.words import Component

if TYPE_CHECKING:
    from greenlight.core.bot import Bot

S = TypeVar("S", bound=GameState)
S_in = TypeVar("S_in", bound=GameState, contravariant=True)
#: A game's observation type (a TypedDict extending ``core.views.ObservationHeader``), as its view makes it ...
O_co = TypeVar("O_co", covariant=True)
#: ... and as its words read it.
O_in = TypeVar("O_in", contravariant=True)

#: An observation as the game-independent layers see it: JSON-ready, read-only. Each game declares its own
#: TypedDict (``Game.observation_type``) which its view, words and encoding use, so mypy checks them.
Observation = Mapping[str, Any]


class GameRules(Protocol[S]):
    """The rules of a game (usually its ``rules`` module): setup, the turn and the end."""

    def setup(self, num_players: int, seed: int, options: dict[str, OptionValue], /) -> S:
        """The start position from validated options; all randomness from ``core.rng.Stream`` of the seed."""

    def decision(self, state: S, /) -> Decision:
        """What the game waits for now (empty ``players`` when it is over)."""

    def legal_actions(self, state: S, player: int, /) -> list[Action]:
        """Every action ``player`` may take now; empty if ``player`` does not owe one."""

    def apply(self, state: S, player: int, action: Action, /) -> list[Event]:
        """Apply an action already known to be legal; return the events it caused."""

    def outcome(self, state: S, /) -> Outcome:
        """Final scores, ranks, winners and breakdown, once the game is over."""


class GameView(Protocol[S, O_co]):
    """What each seat may know (usually the game's ``view`` module); ``O_co`` is the game's observation type."""

    def observe(self, state: S, player: int | None, /) -> O_co:
        """The JSON-ready view of ``player`` (``None`` = spectator): only what that seat may see."""

    def determinize(self, state: S, player: int | None, rng: random.Random, /) -> S:
        """A full state that ``player`` cannot tell apart from ``state``; hidden parts resampled with ``rng``."""

    def secrets(self, state: S, player: int | None, /) -> frozenset[str]:
        """Values (such as card ids) hidden from ``player`` that must never appear in its observation."""


class GameWords(Protocol[S_in, O_in]):
    """Everything a person reads (usually the game's ``words`` module); see ``greenlight.core.words``.

    The terminal and the web render these words, never data-file fields or
    bare card codes. None may reveal what the seat or audience may not know.
    """

    def why_illegal(self, state: S_in, player: int, action: Action, /) -> str:
        """Why ``action`` is not legal for ``player`` now, in the game's words."""

    def components(self, state: S_in | None, /) -> list[Component]:
        """Every printed component in words: of ``state``'s game if given, else of the bundled data."""

    def describe_action(self, state: S_in, player: int, action: Action, /) -> str:
        """A short sentence saying what ``action`` does for ``player`` now, with what it costs or scores."""

    def action_warning(self, state: S_in, player: int, action: Action, /) -> str | None:
        """Why ``player`` should confirm ``action`` first (it cannot be undone and scores nothing), or None."""

    def describe_event(self, event: Event, state: S_in | None, names: Sequence[str] | None, /) -> str:
        """One line of log text for ``event``, seats called by ``names`` and cards by name ("" to show nothing)."""

    def render_text(self, observation: O_in, names: Sequence[str] | None, /) -> str:
        """A plain-text (rich markup allowed) rendering of an observation for the terminal, in words."""

    def help_text(self, observation: O_in, /) -> str:
        """The legend of the symbols the game's text uses and the rules of the step the observation is at."""


class GamePositions(Protocol[S_in]):
    """What makes a position possible (usually the game's ``positions`` module); see ``Game.from_position``."""

    def complete(self, state: S_in, given: frozenset[str], /) -> None:
        """Fill in what a hand-written position left out but follows from what it gave (the undealt cards, say)."""

    def check(self, state: S_in, /) -> None:
        """Raise ``PositionError`` naming the field and the rule if ``state`` cannot arise in a game.

        A positions module may also define ``header(state) -> dict``: header keys (such as the ``seed`` a generated
        deck comes from) that ``to_position`` adds so the position reads back into the same state.
        """


class PlainWords:
    """The words of a game that declares none: action texts, event kinds and the observation as JSON."""

    def why_illegal(self, state: Any, player: int, action: Action, /) -> str:
        """A refusal that names the action."""
        return f"'{action}' is not one of your legal actions now"

    def components(self, state: Any, /) -> list[Component]:
        """No printed components."""
        return []

    def describe_action(self, state: Any, player: int, action: Action, /) -> str:
        """The action's text."""
        return str(action)

    def action_warning(self, state: Any, player: int, action: Action, /) -> str | None:
        """No warnings."""
        return None

    def describe_event(self, event: Event, state: Any, names: Sequence[str] | None, /) -> str:
        """The event's kind and data."""
        details = ", ".join(f"{key} {value}" for key, value in event.data.items())
        return f"{event.kind.replace('_', ' ')}: {details}" if details else event.kind.replace("_", " ")

    def render_text(self, observation: Observation, names: Sequence[str] | None, /) -> str:
        """The observation as indented JSON."""
        import json

        return json.dumps(observation, indent=2)

    def help_text(self, observation: Observation, /) -> str:
        """No help."""
        return ""


PLAIN_WORDS = PlainWords()


class Game(Generic[S]):
    """One registered game: declarations only, the questions answered by its ``rules``, ``view`` and ``words``.

    ``apply`` mutates the state in place and returns the events it caused;
    callers that need an earlier state keep a ``clone()``. A game may also
    override any method instead (the tiny games of the tests do).
    """

    spec: GameSpec
    #: The action classes of this game (their verbs must be unique).
    action_types: tuple[type[Action], ...] = ()
    #: How actions become integer codes (``action_code`` is in ``range(num_distinct_actions)``).
    action_layout: ActionLayout | None = None
    #: Number of distinct integer action codes (from ``action_layout`` when there is one).
    num_distinct_actions: int = 0
    #: Whether any information is hidden from some seat (the harness then insists determinize resamples).
    has_hidden_information: bool = True
    #: The game's own bot levels (for example ``heuristic``): a class taking a seed, or "module:Class" to import late.
    bot_levels: Mapping[str, str | Callable[[int], Bot]] = {}
    rules: GameRules[S]
    view: GameView[S, Any]
    words: GameWords[S, Any] = PLAIN_WORDS
    #: The TypedDict every observation of this game matches (checked by the conformance harness), if declared.
    observation_type: type | None = None
    #: How positions are completed and checked (``from_position``); without it a position is read but not checked.
    positions: GamePositions[S] | None = None
    #: For each event kind, the TypedDict its data matches (checked by the harness); kinds not listed are unchecked
    #: unless the game declares any, in which case an undeclared kind is a defect.
    event_types: Mapping[str, type] = {}

    @property
    def data(self) -> DataSet | None:
        """The game's data files (cards, board) as tables with validated fields, if it has any (``spec.data``): what the
        simulator snapshots, exports to spreadsheets and sweeps over."""
        return self.spec.data

    def __init__(self) -> None:
        self._codec = ActionCodec(self.action_types)
        if self.action_layout is not None:
            self.num_distinct_actions = self.action_layout.num_codes
        self._bind_rules()

    #: The turn's questions a game answers with its rules' function of the same name (``apply_unchecked`` by ``apply``).
    _RULES_FUNCTIONS = (("decision", "decision"), ("legal_actions", "legal_actions"), ("apply_unchecked", "apply"))

    def _bind_rules(self) -> None:
        """Answer the turn's questions with the rules' own functions, one call instead of two.

        Random playouts and search rollouts ask them for every move, and the
        forwarding method cost a tenth of a fast game's move. Only methods the
        game class leaves to ``Game`` are bound, so an override still wins;
        the class methods stay, for callers that go through the class.
        """
        rules = getattr(self, "rules", None)
        if rules is None:
            return
        for method, function in self._RULES_FUNCTIONS:
            answer = getattr(rules, function, None)
            if callable(answer) and getattr(type(self), method) is getattr(Game, method):
                setattr(self, method, answer)

    # -- starting -------------------------------------------------------------

    def new_state(self, num_players: int, seed: int, options: Options | None = None) -> S:
        """Start a game: the only way to make a fresh state."""
        resolved = self.spec.resolve_options(num_players, options)
        if not isinstance(seed, int) or seed < 0:
            raise OptionError(f"the seed must be a whole number >= 0, not {seed!r}")
        return self.initial_state(num_players, seed, resolved)

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> S:
        """Build the start position from validated options (the rules' ``setup``)."""
        return self.rules.setup(num_players, seed, options)

    # -- positions ------------------------------------------------------------

    def to_position(self, state: S) -> dict[str, Any]:
        """The whole of ``state`` as JSON-ready data: every hidden part, pending sub-decision and random stream.

        ``from_position`` reads it back into a state with the same digest; the format is the state's annotated
        slots under a header of game id, rules version, seats and options (``core.positions``).
        """
        header: dict[str, Any] = {
            "format": POSITION_FORMAT,
            "game": self.spec.id,
            "version": self.spec.version,
            "num_players": self.num_players(state),
            "options": dict(state.options),  # type: ignore[attr-defined]
        }
        extra = getattr(self.positions, "header", None)
        if extra is not None:
            header.update(extra(state))
        fields = state_fields(type(state))
        return {**header, **{name: encode_position_value(getattr(state, name)) for name in fields}}

    def from_position(self, data: Mapping[str, Any]) -> S:
        """The state a position describes; what it leaves out takes the value a normal setup (of ``seed``, default 0) gives.

        Raises PositionError naming the field and the rule when the data cannot be read or the position cannot arise.
        """
        if not isinstance(data, Mapping):
            raise PositionError("position", f"must be a JSON object, not {type(data).__name__}")
        if data.get("game", self.spec.id) != self.spec.id:
            raise PositionError("game", f"this is a position of {data.get('game')!r}, not of {self.spec.id!r}")
        if "format" in data and data["format"] != POSITION_FORMAT:
            raise PositionError("format", f"position format {data['format']!r} is not known; this version reads format {POSITION_FORMAT}")
        if "version" in data and str(data["version"]) != self.spec.version:
            raise PositionError(
                "version",
                f"the position was saved under rules version {data['version']}; {self.spec.title} is at version {self.spec.version}",
            )
        num_players = data.get("num_players")
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise PositionError("num_players", f"the number of seats is required (from {self.spec.min_players} to {self.spec.max_players})")
        seed = data.get("seed", 0)
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise PositionError("options", "must be an object of option names and values")
        try:
            state = self.new_state(num_players, seed, dict(options))
        except OptionError as error:
            text = str(error)
            raise PositionError("seed" if "seed" in text else "num_players" if "player" in text else "options", text) from None
        fields = state_fields(type(state))
        given = [key for key in data if key not in POSITION_HEADER_KEYS]
        for key in given:
            if key not in fields:
                raise PositionError(key, f"is not part of a {self.spec.title} position (its fields: {', '.join(fields)})")
            setattr(state, key, decode_position_value(data[key], fields[key], key))
        if self.positions is not None:
            self.positions.complete(state, frozenset(given))
            self.positions.check(state)
        return state

    # -- the turn -------------------------------------------------------------

    def decision(self, state: S) -> Decision:
        """What the game waits for now (empty ``players`` when it is over)."""
        return self.rules.decision(state)

    def legal_actions(self, state: S, player: int) -> list[Action]:
        """Every action ``player`` may take now; empty if ``player`` does not owe one."""
        return self.rules.legal_actions(state, player)

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
        """Explain, in the game's words, why ``action`` is not legal now."""
        return self.words.why_illegal(state, player, action)

    def apply_unchecked(self, state: S, player: int, action: Action) -> list[Event]:
        """Apply an action already known to be legal; return the events it caused."""
        return self.rules.apply(state, player, action)

    # -- information ----------------------------------------------------------

    def observe(self, state: S, player: int | None) -> Observation:
        """The JSON-ready view of ``player`` (``None`` = spectator): only what that seat may see."""
        observation: Observation = self.view.observe(state, player)
        return observation

    def determinize(self, state: S, player: int | None, rng: random.Random) -> S:
        """A full state that ``player`` cannot tell apart from ``state``; hidden parts resampled with ``rng``."""
        return self.view.determinize(state, player, rng)

    def secrets(self, state: S, player: int | None) -> frozenset[str]:
        """Values (such as card ids) hidden from ``player`` that must never appear in its observation.

        The conformance harness checks this on top of the determinization test. A game that overrides
        ``observe`` instead of declaring a ``view`` names no secrets unless it overrides this too.
        """
        view: GameView[S, Any] | None = getattr(self, "view", None)
        return frozenset() if view is None else view.secrets(state, player)

    # -- player words -------------------------------------------------------------

    def components(self, state: S | None = None) -> list[Component]:
        """Every printed component (cards, trends, plans, spaces...) in words; of ``state``'s game if given, else the bundled data."""
        return self.words.components(state)

    def describe_action(self, state: S, player: int, action: Action) -> str:
        """A short sentence saying what ``action`` does for ``player`` now, with what it costs or scores.

        For example "Lay Colour Grading to the right of line 1, as post-production".
        """
        return self.words.describe_action(state, player, action)

    def action_warning(self, state: S, player: int, action: Action) -> str | None:
        """Why ``player`` should confirm ``action`` first (it cannot be undone and scores nothing, or drops them out), or None."""
        return self.words.action_warning(state, player, action)

    def describe_event(self, event: Event, state: S | None = None, names: Sequence[str] | None = None) -> str:
        """One line of log text for ``event``, with seats called by ``names`` and cards by name (from ``state``'s game)."""
        return self.words.describe_event(event, state, names)

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """A plain-text (rich markup allowed) rendering of an observation for the terminal, in words."""
        return self.words.render_text(observation, names)

    def help_text(self, observation: Observation) -> str:
        """The legend of the symbols the game's text uses and the rules of the step the observation is at, in words."""
        return self.words.help_text(observation)

    # -- ending ---------------------------------------------------------------

    def outcome(self, state: S) -> Outcome:
        """Final scores, ranks, winners and breakdown. Only valid once the game is over."""
        return self.rules.outcome(state)

    def num_players(self, state: S) -> int:
        """Number of seats in ``state``."""
        return int(state.num_players)  # type: ignore[attr-defined]

    # -- text and integer forms of actions --------------------------------------

    def parse_action(self, text: str) -> Action:
        """Read an action from its text form (``parse_action(str(a)) == a``)."""
        return self._codec.parse(text)

    def action_code(self, state: S, action: Action) -> int:
        """A stable integer in ``range(num_distinct_actions)`` for ``action``.

        It depends only on the action and the game's static data (the state
        gives access to that data), so the same action always has the same
        code; distinct actions that are legal together get distinct codes.
        """
        if self.action_layout is None:
            raise NotImplementedError(f"{type(self).__name__} declares no action_layout and does not override action_code")
        return self.action_layout.code(state, action)

    def action_from_code(self, state: S, player: int, code: int) -> Action:
        """The legal action of ``player`` whose code is ``code``.

        The code's block names the action type at once; the action is then the
        legal one of that type with that code (the legal list is what a move
        is checked against anyway).
        """
        if self.action_layout is None:
            for action in self.legal_actions(state, player):
                if self.action_code(state, action) == code:
                    return action
            raise IllegalActionError(f"action code {code} is not legal for seat {player} now")
        try:
            kind, _ = self.action_layout.block_of(code)
        except ValueError as error:
            raise IllegalActionError(str(error)) from None
        code_of = self.action_layout.code
        for action in self.legal_actions(state, player):
            if type(action) is kind and code_of(state, action) == code:
                return action
        raise IllegalActionError(f"action code {code} (a '{kind.verb}') is not legal for seat {player} now")

    def legal_action_codes(self, state: S, player: int) -> list[int]:
        """Codes of ``legal_actions(state, player)``, in the same order."""
        code_of = self.action_code if self.action_layout is None else self.action_layout.code
        return [code_of(state, action) for action in self.legal_actions(state, player)]

    # -- bots --------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """This game's own bots by level name (for example ``heuristic``), each built from a seed."""
        return {name: _load(maker) if isinstance(maker, str) else maker for name, maker in self.bot_levels.items()}

    # -- helpers for interfaces -----------------------------------------------------

    def seat_label(self, seat: int) -> str:
        """How a seat is called in text."""
        return f"P{seat}"


def _load(reference: str) -> Callable[[int], Bot]:
    """Import ``"package.module:Name"`` (bots import their game, so games name them instead of importing them)."""
    module, _, name = reference.partition(":")
    found: Callable[[int], Bot] = getattr(importlib.import_module(module), name)
    return found
