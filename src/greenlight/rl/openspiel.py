"""OpenSpiel adapter: every Greenlight game registered as an OpenSpiel Python game.

Importing this module registers ``greenlight_<id>`` (``greenlight_cinecitta``,
...) for every game that has an encoder. The games are **sequential**,
**imperfect-information**, **general-sum** (win shares; nobody wins when
every seat drops out) and **terminal-reward**:

* **Chance.** The root is an explicit chance node that picks the deal: outcome
  ``i`` of ``deals`` (uniform) starts the Greenlight game with seed
  ``seed + i``. Every later random event comes from the engine's own RNG,
  seeded by that deal seed, so a history (deal, actions...) fixes the game
  exactly. ``deals=1`` fixes one deal.
* **Simultaneous steps** are taken one seat at a time, lowest seat first; a
  seat's information state shows that others committed, never what.
* **Information state and observation** strings are the canonical JSON of
  ``observe(state, seat)``; tensors are the game's RL encoding of the same
  observation (``docs/rl.md``). Greenlight observations carry what a seat
  remembers (its own folders, the public placements), so the same observer
  serves both; ``private_info=NONE`` gives the spectator's view.
* **Serialisation** stores the Greenlight record (game, version, options,
  seed, actions) and rebuilds the state by replaying it.
* **Resampling** for ISMCTS is ``determinize``: ``resample_from_infostate`` or
  :func:`make_resampler` return a state the seat cannot tell from the real
  one. Such a world is a fresh OpenSpiel state (empty ``history()``) and, not
  being the result of a record, serialises by pickling the world itself.

>>> import pyspiel
>>> game = pyspiel.load_game("greenlight_cinecitta", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 65536)
>>> state.apply_action(7)
>>> state.current_player(), state.information_state_tensor(0) == state.observation_tensor(0)
(0, True)
"""

from __future__ import annotations

import json
import random
from array import array
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pyspiel

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game, Observation
from greenlight.core.record import Record, replay
from greenlight.core.registry import all_games, get_game
from greenlight.core.spec import OptionValue
from greenlight.core.state import GameState
from greenlight.rl.common import resolve_game
from greenlight.rl.encoding import ObservationEncoding, encoding_for, has_encoding, state_writer_for

#: Default number of distinct deals at the root chance node.
DEFAULT_DEALS = 1 << 16


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
    """OpenSpiel parameters: ``players``, ``seed``, ``deals`` and every game option with its default."""
    params: dict[str, bool | int | str] = {"players": game.spec.min_players, "seed": 0, "deals": DEFAULT_DEALS}
    for option in game.spec.options:
        params[option.name] = _parameter_default(option.default)
    return params


def canonical(observation: Observation) -> str:
    """The observation as compact JSON with sorted keys (equal observations give equal strings)."""
    return json.dumps(observation, sort_keys=True, separators=(",", ":"))


class World:
    """The Greenlight side of one OpenSpiel state: the game state and the actions that led to it.

    OpenSpiel clones a Python state by deep-copying its attributes and
    serialises it by pickling them; this holder makes the first a cheap
    ``GameState.clone()`` and the second a Greenlight record.
    """

    __slots__ = ("actions", "game", "num_players", "options", "seed", "state")

    def __init__(self, game: Game[Any], num_players: int, options: dict[str, OptionValue], seed: int | None = None) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.state: GameState | None = None if seed is None else game.new_state(num_players, seed, options)
        #: Actions since the deal; None for a determinized world, which no record describes.
        self.actions: list[tuple[int, Action]] | None = []

    @classmethod
    def determinized(cls, source: World, state: GameState) -> World:
        """A world holding a determinized state (no record)."""
        world = cls(source.game, source.num_players, source.options)
        world.state = state
        world.actions = None
        return world

    def __deepcopy__(self, memo: dict[int, Any]) -> World:
        copy = World(self.game, self.num_players, self.options)
        copy.seed = self.seed
        copy.state = self.state.clone() if self.state is not None else None
        copy.actions = list(self.actions) if self.actions is not None else None
        return copy

    def record(self) -> Record:
        """The Greenlight record of this world (only for worlds reached by play)."""
        if self.actions is None or self.seed is None:
            raise ValueError("this world was drawn by determinize (or is not dealt yet); no record describes it")
        actions = [(seat, str(action)) for seat, action in self.actions]
        return Record(self.game.spec.id, self.game.spec.version, self.num_players, self.seed, dict(self.options), actions)

    def __getstate__(self) -> dict[str, Any]:
        if self.state is None:
            return {"game": self.game.spec.id, "num_players": self.num_players, "options": self.options}
        if self.actions is None:
            return {
                "game": self.game.spec.id,
                "num_players": self.num_players,
                "options": self.options,
                "seed": self.seed,
                "world": self.state,
            }
        return {"record": self.record().dumps()}

    def __setstate__(self, data: dict[str, Any]) -> None:
        if "record" in data:
            record = Record.loads(data["record"])
            self.game = get_game(record.game)
            self.num_players = record.num_players
            self.options = self.game.spec.resolve_options(record.num_players, record.options)
            self.seed = record.seed
            self.state = replay(record, self.game)
            self.actions = [(seat, self.game.parse_action(text)) for seat, text in record.actions]
            return
        self.game = get_game(data["game"])
        self.num_players = data["num_players"]
        self.options = data["options"]
        self.seed = data.get("seed")
        self.state = data.get("world")
        self.actions = None if "world" in data else []


class GreenlightSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered OpenSpiel games; one subclass per Greenlight game sets ``greenlight``."""

    greenlight: ClassVar[Game[Any]]
    game_type: ClassVar[Any]

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
        if self.base_seed < 0 or self.deals < 1:
            raise ValueError("seed must be >= 0 and deals >= 1")
        self.encoding: ObservationEncoding = encoding_for(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions,
            max_chance_outcomes=self.deals,
            num_players=self.num_seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=game.spec.max_game_length,
        )
        super().__init__(self.game_type, info, merged)

    def new_initial_state(self) -> GreenlightSpielState:
        """The root: a chance node that picks the deal."""
        return GreenlightSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GreenlightObserver:
        """An observer for information-state or observation strings and tensors."""
        return GreenlightObserver(self, iig_obs_type, params)


class GreenlightSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a Greenlight state (see the module docstring for the conventions)."""

    def __init__(self, game: GreenlightSpielGame) -> None:
        super().__init__(game)
        self.world = World(game.greenlight, game.num_seats, game.options)

    def _spiel_game(self) -> GreenlightSpielGame:
        game: GreenlightSpielGame = self.get_game()
        return game

    # -- the turn --------------------------------------------------------------------------

    def current_player(self) -> int:
        """CHANCE before the deal, TERMINAL at the end, else the lowest seat that owes an action."""
        state = self.world.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        players = self.world.game.decision(state).players
        if not players:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(players)

    def _legal_actions(self, player: int) -> list[int]:
        """The seat's legal action codes, ascending."""
        assert self.world.state is not None
        return sorted(self.world.game.legal_action_codes(self.world.state, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deal ``i`` of ``deals``, uniformly."""
        deals = self._spiel_game().deals
        return [(outcome, 1.0 / deals) for outcome in range(deals)]

    def _apply_action(self, action: int) -> None:
        """Deal (at the root) or apply the current seat's action code."""
        world = self.world
        if world.state is None:
            world.seed = self._spiel_game().base_seed + int(action)
            world.state = world.game.new_state(world.num_players, world.seed, world.options)
            return
        seat = self.current_player()
        chosen = world.game.action_from_code(world.state, seat, int(action))
        world.game.apply_unchecked(world.state, seat, chosen)
        if world.actions is not None:
            world.actions.append((seat, chosen))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's Greenlight text (``offer C3 20``), or the deal seed."""
        world = self.world
        if player == pyspiel.PlayerId.CHANCE or world.state is None:
            return f"deal seed {self._spiel_game().base_seed + int(action)}"
        try:
            return str(world.game.action_from_code(world.state, player, int(action)))
        except IllegalActionError:
            return f"action code {action} (not legal for seat {player} now)"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.world.state is not None and self.world.game.is_terminal(self.world.state)

    def returns(self) -> list[float]:
        """Win shares at the end (ties split), zeros before."""
        if not self.is_terminal():
            return [0.0] * self.world.num_players
        assert self.world.state is not None
        return list(self.world.game.outcome(self.world.state).returns())

    def __str__(self) -> str:
        """Every seat's view (debug text: it shows all private information)."""
        state = self.world.state
        if state is None:
            return "deal pending"
        return "\n".join(canonical(self.world.game.observe(state, seat)) for seat in range(self.world.num_players))

    # -- Greenlight extras ---------------------------------------------------------------

    @property
    def greenlight_state(self) -> GameState | None:
        """The underlying Greenlight state (None before the deal)."""
        return self.world.state

    def greenlight_record(self) -> Record:
        """The Greenlight record of this state (replays in ``greenlight replay``)."""
        return self.world.record()

    def determinized(self, player: int, rng: random.Random) -> GreenlightSpielState:
        """A state ``player`` cannot tell from this one: ``determinize`` draws everything hidden from it."""
        world = self.world
        if world.state is None:
            raise ValueError("there is nothing to resample before the deal")
        resampled = GreenlightSpielState(self._spiel_game())
        resampled.world = World.determinized(world, world.game.determinize(world.state, player, rng))
        return resampled

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> GreenlightSpielState:
        """OpenSpiel's resampling hook, built on ``determinize``.

        A callable ``probability_sampler`` (returning floats in [0, 1)) seeds
        the draw; otherwise a fresh OS-seeded RNG does. Use
        :func:`make_resampler` for reproducible search.
        """
        rng = random.Random(int(probability_sampler() * 2**53)) if callable(probability_sampler) else random.Random()
        return self.determinized(player_id, rng)


class GreenlightObserver:
    """OpenSpiel observer (PyObserver protocol): ``tensor``/``dict`` and ``set_from``/``string_from``."""

    def __init__(self, game: GreenlightSpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Greenlight observers take no parameters; got {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Greenlight observers show one seat's view or the spectator's, never every seat's private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.encoding = game.encoding
        size = self.encoding.size(game.num_seats, game.options)
        # A seat's tensor comes from the encoding's fast path (written into ``_vector``, which ``tensor`` views);
        # the spectator's, which has none, from the reference.
        self._writer = None if self.public_only else state_writer_for(game.greenlight, game.num_seats, game.options)
        self._vector = array("f", bytes(4 * size))
        self._zeros = array("f", bytes(4 * size))
        self.tensor = np.frombuffer(self._vector, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def _observation(self, state: GreenlightSpielState, player: int) -> Observation | None:
        world = state.world
        if world.state is None or player < 0:
            return None
        return world.game.observe(world.state, None if self.public_only else player)

    def set_from(self, state: GreenlightSpielState, player: int) -> None:
        """Fill ``tensor`` with the encoding of the seat's observation (zeros before the deal)."""
        world = state.world
        if self._writer is not None and world.state is not None and player >= 0:
            self._vector[:] = self._zeros
            self._writer(world.state, player, self._vector)
            return
        observation = self._observation(state, player)
        if observation is None:
            self._vector[:] = self._zeros
        else:
            self._vector[:] = array("f", self.encoding.encode(observation))

    def string_from(self, state: GreenlightSpielState, player: int) -> str:
        """The seat's observation as canonical JSON ("" before the deal)."""
        observation = self._observation(state, player)
        return "" if observation is None else canonical(observation)


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
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"Greenlight {game.spec.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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
        cls = type(
            f"Greenlight{game.spec.id.title().replace('-', '')}Game", (GreenlightSpielGame,), {"greenlight": game, "game_type": game_type}
        )
        pyspiel.register_game(game_type, cls)
    return names


def openspiel_game(
    game: Game[Any] | str, num_players: int, options: dict[str, OptionValue] | None = None, seed: int = 0, deals: int = DEFAULT_DEALS
) -> Any:
    """Load the OpenSpiel game of ``game`` for ``num_players`` (registering it if needed)."""
    resolved = resolve_game(game)
    register_openspiel_games()
    params: dict[str, Any] = {"players": num_players, "seed": seed, "deals": deals}
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
