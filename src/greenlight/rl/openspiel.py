"""OpenSpiel adapter: every Greenlight game registered as an OpenSpiel Python game.

Importing this module registers ``greenlight_<id>`` (``greenlight_cinecitta``,
...) for every game that has an encoder. The games are **sequential**,
**imperfect-information**, **general-sum** (win shares; nobody wins when
every seat drops out), **terminal-reward**, with **sampled chance**
(OpenSpiel's ``SAMPLED_STOCHASTIC``):

* **Chance nodes stand where the game draws.** The root deals. After that, a
  move whose rules draw randomness (a pile shuffled again in Movie Empire, the
  vote cards collected, shared or drawn in Maybe Movies; Cinecitta draws
  nothing after the deal) is followed by a chance node before it takes effect:
  the state shows the move's effects only once the chance node is applied.
  Each chance node has one listed outcome (``chance_outcomes() == [(0, 1.0)]``,
  cheap) and draws when it is applied: the deal seed from the game's own RNG
  (seeded by ``seed``), then a fresh seed for the move's draws, so two
  copies of a state before a chance node go on differently, as in the real
  game. ``deals=N`` lists the root's deals instead (outcome ``i`` deals seed
  ``seed + i``); ``chance="seeded"`` keeps every later draw in the engine's
  own stream, seeded by the deal, so that ``greenlight_record()`` replays the
  game exactly (the sampled mode draws outside it, which no record holds).
* **Actions** are agent codes (:mod:`greenlight.rl.actions`): the game's own
  codes, except that Movie Empire's kept and given cards are picked one card
  per action (1,784 codes instead of 52,182).
* **Simultaneous steps** are taken one seat at a time, lowest seat first; a
  seat's information state shows that others committed, never what.
* **Observations** (``perfect_recall=False``) are the game's RL encoding of
  ``observe(state, seat)`` (``docs/rl.md``) with the cards picked so far;
  ``observer.dict`` names each field. The string lists the non-zero entries
  of that tensor field by field.
* **Information states** (``perfect_recall=True``) are the observation plus
  the seat's own actions since the deal, in order: two different own histories
  never give the same information state (``tests/rl/test_openspiel.py``
  checks it along random games). The tensor holds them as a ``history`` block
  of binary codes (one slot per own action, up to the game's
  ``MAX_OWN_ACTIONS``). ``private_info=NONE`` gives the spectator's view;
  ``ALL_PLAYERS`` is refused.
* **Serialisation** stores the deal seed and every step since (actions and
  the seeds drawn at chance nodes) and replays them.
* **Resampling** for ISMCTS is ``determinize``: ``resample_from_infostate`` or
  :func:`make_resampler` return a state the seat cannot tell from the real
  one (its own history kept). Such a world is a fresh OpenSpiel state (empty
  ``history()``) and, not being the result of a record, serialises by
  pickling the world itself.

>>> import pyspiel
>>> game = pyspiel.load_game("greenlight_cinecitta", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 1.0)])
>>> state.apply_action(0)
>>> state.current_player(), state.information_state_tensor(0)[:388] == state.observation_tensor(0)
(0, True)
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pyspiel

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game, Observation
from greenlight.core.record import Record
from greenlight.core.registry import all_games, companion_module, get_game
from greenlight.core.spec import OptionValue
from greenlight.core.state import GameState
from greenlight.rl.actions import AgentCodes, Prefix, agent_codes_for, agent_options
from greenlight.rl.common import resolve_game
from greenlight.rl.encoding import ObservationEncoding, encoding_for, field_slices, has_encoding, state_writer_for

#: How chance after the deal is drawn: fresh at each chance node, or from the engine's stream seeded by the deal.
CHANCE_MODES = ("sampled", "seeded")
#: The ``chance`` parameter's default.
DEFAULT_CHANCE = "sampled"
#: Marks a chance step of the trail drawn in the seeded mode (no seed of its own).
SEEDED = -1


def short_name(game: Game[Any]) -> str:
    """The OpenSpiel name of ``game``.

    >>> short_name(get_game("cinecitta"))
    'greenlight_cinecitta'
    """
    return "greenlight_" + game.spec.id.replace("-", "_")


def _parameter_default(value: OptionValue) -> bool | int | str:
    """OpenSpiel parameters are bool, int, float or str: a missing path option becomes ""."""
    return "" if value is None else value


def parameter_specification(game: Game[Any]) -> dict[str, bool | int | str]:
    """OpenSpiel parameters: ``players``, ``seed``, ``deals``, ``chance`` and every game option with its default."""
    params: dict[str, bool | int | str] = {"players": game.spec.min_players, "seed": 0, "deals": 0, "chance": DEFAULT_CHANCE}
    for option in game.spec.options:
        params[option.name] = _parameter_default(option.default)
    return params


@dataclass(frozen=True)
class ChanceHooks:
    """How the adapter sees a game's draws: a mark that changes exactly when the rules draw, and a reseed."""

    mark: Callable[[Any], object]
    reseed: Callable[[Any, int], None]


def chance_hooks(game: Game[Any]) -> ChanceHooks | None:
    """The game's ``chance_mark`` and ``reseed`` (in its ``encoding`` module), or None if it draws only at the deal."""
    module = companion_module(game, "encoding")
    mark, reseed = getattr(module, "chance_mark", None), getattr(module, "reseed", None)
    return ChanceHooks(mark, reseed) if mark is not None and reseed is not None else None


def max_own_actions(game: Game[Any]) -> int:
    """The most actions one seat takes in a game (agent codes, picks included): the slots of the history tensor."""
    module = companion_module(game, "codes")
    return int(getattr(module, "MAX_OWN_ACTIONS", game.spec.max_game_length))


class World:
    """The Greenlight side of one OpenSpiel state: the game state and everything that led to it.

    ``trail`` holds every step since the deal (agent codes, and at chance
    nodes the seed drawn, or ``SEEDED``); replaying it from the deal seed gives
    the state again, which is how a world pickles. A world drawn by
    ``determinize`` has no trail and pickles its state itself.
    """

    __slots__ = (
        "actions",
        "game",
        "histories",
        "hooks",
        "num_players",
        "options",
        "pending",
        "prefixes",
        "reseeded",
        "seed",
        "state",
        "trail",
    )

    def __init__(self, game: Game[Any], num_players: int, options: dict[str, OptionValue], seed: int | None = None) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.hooks = chance_hooks(game)
        self.seed = seed
        self.state: GameState | None = None if seed is None else game.new_state(num_players, seed, options)
        #: Complete actions since the deal; None for a determinized world, which no record describes.
        self.actions: list[tuple[int, Action]] | None = []
        #: Steps since the deal (see the class docstring); None for a determinized world.
        self.trail: list[int] | None = []
        #: Each seat's own agent codes since the deal (its perfect-recall history).
        self.histories: list[list[int]] = [[] for _ in range(num_players)]
        #: Cards each seat picked so far (games with actions chosen card by card).
        self.prefixes: list[Prefix] = [None] * num_players
        #: A move that draws, waiting for its chance node: (seat, action, the state after it drawn from the engine's stream).
        self.pending: tuple[int, Action, GameState] | None = None
        #: Whether a chance node drew outside the engine's stream (then no Greenlight record describes the game).
        self.reseeded = False

    @classmethod
    def determinized(cls, source: World, state: GameState, player: int) -> World:
        """A world holding a determinized state: no record; ``player`` keeps its own history and picks."""
        world = cls(source.game, source.num_players, source.options)
        world.state = state
        world.actions = None
        world.trail = None
        world.histories[player] = list(source.histories[player])
        world.prefixes[player] = source.prefixes[player]
        return world

    def __deepcopy__(self, memo: dict[int, Any]) -> World:
        copy = World(self.game, self.num_players, self.options)
        copy.seed = self.seed
        copy.state = self.state.clone() if self.state is not None else None
        copy.actions = list(self.actions) if self.actions is not None else None
        copy.trail = list(self.trail) if self.trail is not None else None
        copy.histories = [list(history) for history in self.histories]
        copy.prefixes = list(self.prefixes)
        copy.pending = (self.pending[0], self.pending[1], self.pending[2].clone()) if self.pending is not None else None
        copy.reseeded = self.reseeded
        return copy

    # -- play ----------------------------------------------------------------------------

    def current_player(self) -> int:
        """CHANCE before the deal and at a pending draw, TERMINAL at the end, else the lowest seat that owes an action."""
        state = self.state
        if state is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        players = self.game.decision(state).players
        if not players:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(players)

    def deal(self, seed: int) -> None:
        """The root's chance outcome: the Greenlight game with ``seed``."""
        self.seed = seed
        self.state = self.game.new_state(self.num_players, seed, self.options)

    def play(self, seat: int, code: int) -> None:
        """Apply ``seat``'s agent code: a pick, a move, or a move that draws (then a chance node comes first)."""
        state = self.state
        assert state is not None
        codes, targets, actions = agent_options(self.game, state, seat, self.prefixes[seat])
        try:
            target = targets[codes.index(code)]
        except ValueError:
            raise IllegalActionError(f"action code {code} is not legal for seat {seat} now") from None
        self.histories[seat].append(code)
        if self.trail is not None:
            self.trail.append(code)
        if isinstance(target, tuple):
            self.prefixes[seat] = target
            return
        self.prefixes[seat] = None
        action = actions[target]
        hooks = self.hooks
        if hooks is None:
            self._apply(seat, action, state)
            return
        after = state.clone()
        self.game.apply_unchecked(after, seat, action)
        if hooks.mark(after) == hooks.mark(state):
            self._record(seat, action)
            self.state = after
        else:
            self.pending = (seat, action, after)

    def _apply(self, seat: int, action: Action, state: GameState) -> None:
        self.game.apply_unchecked(state, seat, action)
        self._record(seat, action)

    def _record(self, seat: int, action: Action) -> None:
        if self.actions is not None:
            self.actions.append((seat, action))

    def draw(self, seed: int) -> None:
        """The pending move's chance node: its draws come from ``seed`` (``SEEDED``: from the engine's own stream)."""
        assert self.pending is not None and self.state is not None and self.hooks is not None
        seat, action, after = self.pending
        self.pending = None
        if self.trail is not None:
            self.trail.append(seed)
        if seed == SEEDED:
            self._record(seat, action)
            self.state = after
            return
        self.reseeded = True
        self.hooks.reseed(self.state, seed)
        self._apply(seat, action, self.state)

    def record(self) -> Record:
        """The Greenlight record of this world (only for worlds reached by play with the engine's own draws)."""
        if self.actions is None or self.seed is None:
            raise ValueError("this world was drawn by determinize (or is not dealt yet); no record describes it")
        if self.reseeded:
            raise ValueError(
                "chance nodes drew outside the engine's stream (chance='sampled'); load the game with chance='seeded' for records"
            )
        actions = [(seat, str(action)) for seat, action in self.actions]
        return Record(self.game.spec.id, self.game.spec.version, self.num_players, self.seed, dict(self.options), actions)

    # -- pickling ------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        base = {"game": self.game.spec.id, "num_players": self.num_players, "options": self.options}
        if self.state is None:
            return base
        if self.trail is None:
            return {**base, "seed": self.seed, "world": self.state, "histories": self.histories, "prefixes": self.prefixes}
        return {**base, "seed": self.seed, "trail": self.trail}

    def __setstate__(self, data: dict[str, Any]) -> None:
        World.__init__(self, get_game(data["game"]), data["num_players"], data["options"])
        if "trail" in data:
            self.deal(data["seed"])
            for step in data["trail"]:
                if self.pending is not None:
                    self.draw(step)
                else:
                    self.play(self.current_player(), step)
        elif "world" in data:
            self.seed = data.get("seed")
            self.state = data["world"]
            self.actions = None
            self.trail = None
            self.histories = data["histories"]
            self.prefixes = data["prefixes"]


class GreenlightSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered OpenSpiel games; one subclass per Greenlight game sets ``greenlight``."""

    greenlight: ClassVar[Game[Any]]
    #: The registered type (sampled chance) and the type of games loaded with ``chance="seeded"`` (explicit chance).
    game_type: ClassVar[Any]
    seeded_type: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.greenlight
        merged: dict[str, Any] = {**parameter_specification(game), **(params or {})}
        self.num_seats = int(merged["players"])
        options = {
            option.name: (merged[option.name] or None) if option.kind == "path" else merged[option.name] for option in game.spec.options
        }
        self.options = game.spec.resolve_options(self.num_seats, options)
        self.base_seed = int(merged["seed"])
        self.deals = int(merged["deals"])
        self.chance = str(merged["chance"])
        if self.base_seed < 0 or self.deals < 0:
            raise ValueError("seed and deals must be >= 0 (deals=0 samples the deal)")
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {CHANCE_MODES}, not {self.chance!r}")
        if self.chance == "seeded" and not self.deals:
            self.deals = 1  # explicit chance lists the root's deals: by default the one deal of ``seed``
        #: The game's own RNG: sampled deals and chance seeds (OpenSpiel's sampled-chance convention).
        self.rng = random.Random(self.base_seed)
        self.encoding: ObservationEncoding = encoding_for(game)
        self.agent_codes: AgentCodes = agent_codes_for(game)
        self.max_own_actions = max_own_actions(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.agent_codes.num_codes,
            max_chance_outcomes=max(self.deals, 1),
            num_players=self.num_seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=game.spec.max_game_length * (1 + self.agent_codes.max_picks),
        )
        super().__init__(self.seeded_type if self.chance == "seeded" else self.game_type, info, merged)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # OpenSpiel pickles a game with its RNG state, which a Python game cannot give: pickle its parameters instead.
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> GreenlightSpielState:
        """The root: a chance node that deals."""
        return GreenlightSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GreenlightObserver:
        """An observer for information-state (perfect recall) or observation strings and tensors."""
        return GreenlightObserver(self, iig_obs_type, params)

    def debug_observer(self) -> GreenlightObserver:
        """The observation observer ``str(state)`` uses (made once per game)."""
        observer: GreenlightObserver | None = getattr(self, "_debug_observer", None)
        if observer is None:
            observer = self._debug_observer = GreenlightObserver(self, None, None)
        return observer


class GreenlightSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a Greenlight state (see the module docstring for the conventions)."""

    def __init__(self, game: GreenlightSpielGame) -> None:
        super().__init__(game)
        self.world = World(game.greenlight, game.num_seats, game.options)

    def _spiel_game(self) -> GreenlightSpielGame:
        game: GreenlightSpielGame = self.get_game()
        return game

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # As the game: its parameters and this state's own serialisation (the deal and every step since).
        return _restore_state, (str(self.get_game()), self.serialize())

    # -- the turn --------------------------------------------------------------------------

    def current_player(self) -> int:
        """CHANCE before the deal and before a move's draws, TERMINAL at the end, else the lowest seat that owes an action."""
        return self.world.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The seat's legal agent codes, ascending."""
        world = self.world
        assert world.state is not None
        codes, _targets, _actions = agent_options(world.game, world.state, player, world.prefixes[player])
        return sorted(codes)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """One sampled outcome (drawn when applied), or the root's ``deals`` listed deals."""
        deals = self._spiel_game().deals
        if self.world.state is None and deals:
            return [(outcome, 1.0 / deals) for outcome in range(deals)]
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        """Deal or draw (at a chance node), or apply the current seat's agent code."""
        world = self.world
        game = self._spiel_game()
        if world.state is None:
            world.deal(game.base_seed + int(action) if game.deals else game.rng.getrandbits(31))
            return
        if world.pending is not None:
            world.draw(SEEDED if game.chance == "seeded" else game.rng.getrandbits(63))
            return
        world.play(self.current_player(), int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's Greenlight text (``offer C3 20``), a pick, a deal or a draw."""
        world = self.world
        if player == pyspiel.PlayerId.CHANCE or world.state is None:
            game = self._spiel_game()
            if world.state is None:
                return f"deal seed {game.base_seed + int(action)}" if game.deals else "deal (sampled)"
            return "draw (sampled)" if game.chance == "sampled" else "draw (seeded)"
        codes, targets, actions = agent_options(world.game, world.state, player, world.prefixes[player])
        if action in codes:
            target = targets[codes.index(action)]
            if isinstance(target, int):
                return str(actions[target])
        described = self._spiel_game().agent_codes.describe(int(action))
        if described is not None:
            kind, card = described
            return f"{kind.verb}: finish" if card is None else f"{kind.verb}: pick card {card}"
        try:
            return str(world.game.action_from_code(world.state, player, int(action)))
        except IllegalActionError:
            return f"action code {action} (not legal for seat {player} now)"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        world = self.world
        return world.state is not None and world.pending is None and world.game.is_terminal(world.state)

    def returns(self) -> list[float]:
        """Win shares at the end (ties split), zeros before."""
        if not self.is_terminal():
            return [0.0] * self.world.num_players
        assert self.world.state is not None
        return list(self.world.game.outcome(self.world.state).returns())

    def __str__(self) -> str:
        """Every seat's observation string (debug text: it shows all private information)."""
        world = self.world
        if world.state is None:
            return "deal pending"
        observer = self._spiel_game().debug_observer()
        lines = [f"seat {seat}: {observer.string_from(self, seat)}" for seat in range(world.num_players)]
        if world.pending is not None:
            lines.append(f"pending draw after seat {world.pending[0]}'s {world.pending[1]}")
        return "\n".join(lines)

    # -- Greenlight extras ---------------------------------------------------------------

    @property
    def greenlight_state(self) -> GameState | None:
        """The underlying Greenlight state (None before the deal)."""
        return self.world.state

    def greenlight_record(self) -> Record:
        """The Greenlight record of this state (replays in ``greenlight replay``; ``chance="seeded"`` games only)."""
        return self.world.record()

    def determinized(self, player: int, rng: random.Random) -> GreenlightSpielState:
        """A state ``player`` cannot tell from this one: ``determinize`` draws everything hidden from it."""
        world = self.world
        if world.state is None or world.pending is not None:
            raise ValueError("there is nothing to resample at a chance node")
        resampled = GreenlightSpielState(self._spiel_game())
        resampled.world = World.determinized(world, world.game.determinize(world.state, player, rng), player)
        return resampled

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> GreenlightSpielState:
        """OpenSpiel's resampling hook, built on ``determinize``.

        A callable ``probability_sampler`` (returning floats in [0, 1)) seeds
        the draw; otherwise a fresh OS-seeded RNG does. Use
        :func:`make_resampler` for reproducible search.
        """
        rng = random.Random(int(probability_sampler() * 2**53)) if callable(probability_sampler) else random.Random()
        return self.determinized(player_id, rng)


def _restore_state(game_string: str, serialized: str) -> Any:
    """A state unpickled: the game loaded from its parameters, the state from its serialisation."""
    return pyspiel.load_game(game_string).deserialize_state(serialized)


def _number(value: float) -> str:
    """A float32 value in few characters (``0.25``, ``1``, ``0.333333``)."""
    return f"{value:.6g}"


class GreenlightObserver:
    """OpenSpiel observer (PyObserver protocol): ``tensor``/``dict`` and ``set_from``/``string_from``.

    ``dict`` holds one view of ``tensor`` per field of the game's encoding
    (``docs/rl.md``), then ``picked`` (games with card-by-card picks) and, for
    information states, ``history``: per own action since the deal, a
    presence bit and the agent code in binary (most significant bit first).
    """

    def __init__(self, game: GreenlightSpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Greenlight observers take no parameters; got {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Greenlight observers show one seat's view or the spectator's, never every seat's private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        #: Whether the seat's own history is part of it (OpenSpiel's information state).
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        self.game = game
        self.encoding = game.encoding
        codes = game.agent_codes
        self.encoded_size = self.encoding.size(game.num_seats, game.options)
        self.picked_size = 0 if self.public_only else codes.block_size
        self.code_bits = max(1, (codes.num_codes - 1).bit_length())
        self.history_slots = game.max_own_actions if self.perfect_recall and not self.public_only else 0
        self.history_size = self.history_slots * (1 + self.code_bits)
        size = self.encoded_size + self.picked_size + self.history_size
        # A seat's tensor comes from the encoding's fast path (written into ``_vector``, which ``tensor`` views);
        # the spectator's, which has none, from the reference.
        self._writer = None if self.public_only else state_writer_for(game.greenlight, game.num_seats, game.options)
        self._vector = array("f", bytes(4 * size))
        self._zeros = array("f", bytes(4 * size))
        self.tensor = np.frombuffer(self._vector, dtype=np.float32)
        self._fields = list(self.encoding.fields(game.num_seats, game.options))
        if self.picked_size:
            self._fields.append(("picked", self.picked_size))
        if self.history_size:
            self._fields.append(("history", self.history_size))
        slices = field_slices(self._fields)
        self.dict = {name: self.tensor[where] for name, where in slices.items()}
        # For strings: every field but the history, by start.
        self._names = [name for name in slices if name != "history"]
        self._starts = np.array([slices[name].start for name in self._names])
        self._string_end = self.encoded_size + self.picked_size
        self._numbers: dict[float, str] = {}

    def _observation(self, state: GreenlightSpielState, player: int) -> Observation | None:
        world = state.world
        if world.state is None or player < 0:
            return None
        return world.game.observe(world.state, None if self.public_only else player)

    def set_from(self, state: GreenlightSpielState, player: int) -> None:
        """Fill ``tensor`` with the seat's encoded observation, its picks and (information states) its history."""
        self._write(state, player, history=True)

    def _write(self, state: GreenlightSpielState, player: int, *, history: bool) -> None:
        vector = self._vector
        vector[:] = self._zeros
        world = state.world
        if world.state is None or player < 0:
            return
        if self._writer is not None:
            self._writer(world.state, player, vector)
        else:
            observation = self._observation(state, player)
            assert observation is not None
            vector[: self.encoded_size] = array("f", self.encoding.encode(observation))
        if self.picked_size:
            codes = self.game.agent_codes
            for card, count in codes.picked_counts(world.prefixes[player]).items():
                vector[self.encoded_size + card] = min(count / codes.max_picks, 1.0)
        if history and self.history_size:
            self._write_history(world, player)

    def _write_history(self, world: World, player: int) -> None:
        history = world.histories[player]
        if len(history) > self.history_slots:
            raise ValueError(
                f"seat {player} took {len(history)} actions, more than the {self.history_slots} slots of the history tensor "
                f"(MAX_OWN_ACTIONS of {world.game.spec.id})"
            )
        vector, bits = self._vector, self.code_bits
        base = self.encoded_size + self.picked_size
        for slot, code in enumerate(history):
            at = base + slot * (1 + bits)
            vector[at] = 1.0
            for bit in range(bits):
                if code >> (bits - 1 - bit) & 1:
                    vector[at + 1 + bit] = 1.0

    def string_from(self, state: GreenlightSpielState, player: int) -> str:
        """The non-zero entries of the tensor, field by field, then (information states) the own agent codes ("" before the deal).

        A value of 1 is written as its index alone, any other as ``index=value``.
        """
        world = state.world
        if world.state is None or player < 0:
            return ""
        self._write(state, player, history=False)
        vector = self.tensor[: self._string_end]
        nonzero = np.flatnonzero(vector)
        values = vector[nonzero].tolist()
        # Group the non-zero entries by field: the field of each is found by its start (fields are in order).
        fields = np.searchsorted(self._starts, nonzero, side="right") - 1
        parts: list[str] = []
        current = -1
        entries: list[str] = []
        number = self._numbers
        for index, field, value in zip(nonzero.tolist(), fields.tolist(), values, strict=True):
            if field != current:
                if entries:
                    parts.append(self._names[current] + ":" + ",".join(entries))
                current, entries = field, []
            local = index - self._starts[field]
            if value == 1.0:
                entries.append(str(local))
            else:
                text = number.get(value)
                if text is None:
                    text = number[value] = _number(value)
                entries.append(f"{local}={text}")
        if entries:
            parts.append(self._names[current] + ":" + ",".join(entries))
        text = " ".join(parts)
        if self.perfect_recall and not self.public_only:
            text += " | mine:" + ",".join(map(str, world.histories[player]))
        return text


Resampler = Callable[[GreenlightSpielState, int], GreenlightSpielState]


def make_resampler(seed: int) -> Resampler:
    """A seeded resampler for ``ISMCTSBot.set_resampler``: ``determinize`` with its own RNG."""
    rng = random.Random(seed)

    def resample(state: GreenlightSpielState, player: int) -> GreenlightSpielState:
        return state.determinized(player, rng)

    return resample


def register_openspiel_games() -> list[str]:
    """Register every Greenlight game that has an encoder with OpenSpiel (idempotent); return their names."""
    names: list[str] = []
    registered = set(pyspiel.registered_names())
    for game in all_games().values():
        if not has_encoding(game):
            continue
        name = short_name(game)
        names.append(name)
        if name in registered:
            continue
        game_types = [
            pyspiel.GameType(
                short_name=name,
                long_name=f"Greenlight {game.spec.title}",
                dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
                chance_mode=mode,
                information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                utility=pyspiel.GameType.Utility.GENERAL_SUM,
                reward_model=pyspiel.GameType.RewardModel.TERMINAL,
                max_num_players=game.spec.max_players,
                min_num_players=game.spec.min_players,
                provides_information_state_string=True,
                provides_information_state_tensor=True,
                provides_observation_string=True,
                provides_observation_tensor=True,
                parameter_specification=parameter_specification(game),
            )
            for mode in (pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
        ]
        game_type, seeded_type = game_types
        cls = type(
            f"Greenlight{game.spec.id.title().replace('-', '')}Game",
            (GreenlightSpielGame,),
            {"greenlight": game, "game_type": game_type, "seeded_type": seeded_type},
        )
        pyspiel.register_game(game_type, cls)
    return names


def openspiel_game(
    game: Game[Any] | str,
    num_players: int,
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
    deals: int = 0,
    chance: str = DEFAULT_CHANCE,
) -> Any:
    """Load the OpenSpiel game of ``game`` for ``num_players`` (registering it if needed)."""
    resolved = resolve_game(game)
    register_openspiel_games()
    params: dict[str, Any] = {"players": num_players, "seed": seed, "deals": deals, "chance": chance}
    for name, value in (options or {}).items():
        params[name] = _parameter_default(value)
    return pyspiel.load_game(short_name(resolved), params)


def ismcts_bot(spiel_game: Any, simulations: int, seed: int, uct_c: float = 2.0, rollouts: int = 1) -> Any:
    """OpenSpiel's Python ISMCTS bot on a Greenlight game, with random rollouts and a ``determinize`` resampler."""
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game=spiel_game,
        evaluator=evaluator,
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(make_resampler(seed))
    return bot


register_openspiel_games()
