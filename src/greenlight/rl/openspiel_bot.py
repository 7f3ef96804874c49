"""OpenSpiel's Python ``ISMCTSBot`` as a Greenlight bot, to measure Greenlight's levels against it in the arena.

``make_bot("openspiel-ismcts:0.5", game, seed)`` (and ``greenlight arena GAME
-b hard:0.05 -b openspiel-ismcts:0.5``) builds :class:`OpenSpielISMCTS`: at
every real decision it runs OpenSpiel's ISMCTS
(``open_spiel.python.algorithms.ismcts``) on the game's OpenSpiel adapter
(:mod:`greenlight.rl.openspiel`) with the adapter's defaults: random
rollouts, UCT constant 2, the most visited action, a fresh ``determinize``
world every simulation. The name reads ``openspiel-ismcts:BUDGET[/OPTION...]``:

* BUDGET is seconds per move (``0.5`` or ``0.5s``) or simulations
  (``sims=300``);
* options ``cpu`` (count the process's CPU seconds instead of wall-clock
  seconds: fairer on a shared machine), ``c=X`` (UCT constant),
  ``sims=N`` (also stop after N simulations), ``rollouts=N`` (random rollouts
  per leaf).

**Only the seat's information.** The bot never receives the real state: its
:class:`~greenlight.core.bot.SeatView` draws a world the seat cannot tell
from the real one (``view.determinize``), and that world, wrapped as an
adapter state, is what OpenSpiel's bot searches from; its resampler draws
every simulation's world again from the seat's information. At a
simultaneous step the adapter moves the lowest seat still to commit first; if
the bot's seat is not that seat, the lower seats commit random legal choices
in the drawn world first (hidden from the bot's seat, so the resampler draws
them again).

The module needs OpenSpiel (``pip install -e '.[rl]'``); ``make_bot`` says
so when it is missing. The bots layer names this module instead of importing
it (the rl layer imports bots), as games name their bots.

>>> from greenlight.core.bot import SeatView
>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> bot = make_openspiel_bot("openspiel-ismcts:sims=5", game, seed=1)
>>> state = game.new_state(3, seed=2)
>>> bot.choose(SeatView(game, state, 0)) in game.legal_actions(state, 0), bot.last_stats.iterations
(True, 5)
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from greenlight.bots.ismcts import SearchStats
from greenlight.bots.options import BotOption, flag, read_bot_options
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.errors import OptionError
from greenlight.core.game import Game
from greenlight.rl.actions import agent_options
from greenlight.rl.openspiel import GreenlightSpielState, World, make_resampler, openspiel_game

#: The name prefix of this bot in ``make_bot`` and the arena.
PREFIX = "openspiel-ismcts"
#: The adapter's UCT constant (``greenlight.rl.openspiel.ismcts_bot``).
DEFAULT_UCT_C = 2.0

Clock = Callable[[], float]


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``ISMCTSBot`` with a time budget as well as its simulation budget.

    ``run_search`` is OpenSpiel's (version 1.x/2.x), with the loop bounded by
    ``seconds`` on ``clock`` too (at least one simulation runs) and the number
    of simulations kept in ``simulations``.
    """

    def __init__(self, *args: Any, seconds: float | None = None, clock: Clock = time.perf_counter, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.clock = clock
        #: Simulations run by the last search.
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        """OpenSpiel's search, stopped by the simulation or the time budget, whichever ends first."""
        self.reset()
        self.simulations = 0
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        deadline = self.clock() + self.seconds if self.seconds is not None else math.inf
        self._root_node = self.create_new_node(state)
        root_infostate_key = self.get_state_key(state)
        while self.simulations < self._max_simulations:
            if self.simulations and self.clock() >= deadline:
                break
            sampled_root_state = self.sample_root_state(state)
            assert root_infostate_key == self.get_state_key(sampled_root_state)
            self.run_simulation(sampled_root_state)
            self.simulations += 1
        if self._allow_inconsistent_action_sets:
            temp_node = self.filter_illegals(self._root_node, state.legal_actions())
            return self.get_final_policy(state, temp_node)
        return self.get_final_policy(state, self._root_node)


class OpenSpielISMCTS(Bot):
    """OpenSpiel's ISMCTS through the adapter, searching from a world drawn from the seat's view (module docstring)."""

    name = PREFIX

    def __init__(
        self,
        seed: int = 0,
        seconds: float | None = None,
        simulations: int | None = None,
        uct_c: float = DEFAULT_UCT_C,
        rollouts: int = 1,
        cpu: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(seed)
        if seconds is None and simulations is None:
            raise ValueError("OpenSpiel's ISMCTS needs a time or a simulation budget")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"the time budget must be positive, not {seconds}")
        if simulations is not None and simulations < 1:
            raise ValueError(f"the simulation budget must be at least 1, not {simulations}")
        self.seconds = seconds
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.clock: Clock = time.process_time if cpu else time.perf_counter
        if name is not None:
            self.name = name
        #: Cost of the last searched move and of every search so far (iterations are OpenSpiel's simulations).
        self.last_stats = SearchStats()
        self.stats = SearchStats()
        #: The last search's root statistics: action code -> (visits, mean return of the seat).
        self.last_root: dict[int, tuple[int, float]] = {}
        self._games: dict[tuple[int, str], Any] = {}

    def _spiel_game(self, game: Game[Any], num_players: int, options: dict[str, Any]) -> Any:
        key = (num_players, json.dumps(options, sort_keys=True, default=str))
        if key not in self._games:
            self._games[key] = openspiel_game(game, num_players, options)
        return self._games[key]

    def spiel_state(self, view: SeatView, rng: random.Random) -> GreenlightSpielState:
        """An adapter state over a world drawn from ``view`` (only the seat's information), the seat to move."""
        game, seat = view.game, view.seat
        world = view.determinize(rng)
        # Lower seats that still owe a commitment at a simultaneous step move first in the adapter: let them commit
        # random choices in the drawn world (the seat cannot see them, and the resampler draws them again).
        while (decision := game.decision(world)).simultaneous and decision.players and min(decision.players) != seat:
            lower = min(decision.players)
            legal = game.legal_actions(world, lower)
            game.apply_unchecked(world, lower, legal[rng.randrange(len(legal))])
        options = dict(getattr(world, "options", None) or {})
        spiel_game = self._spiel_game(game, view.num_players, options)
        state = GreenlightSpielState(spiel_game)
        state.world = World.determinized(World(game, view.num_players, spiel_game.options), world, seat)
        return state

    def choose(self, view: SeatView) -> Action:
        """OpenSpiel's ISMCTS move for the seat."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        started = time.perf_counter()
        seed = self.rng.getrandbits(31)
        rng = random.Random(seed)
        state = self.spiel_state(view, rng)
        simulations = 0
        while True:
            # One search per agent code: a Keep or Give of several cards (Movie Empire) is searched card by card.
            random_state = np.random.RandomState(seed)
            bot = TimedISMCTSBot(
                game=state.get_game(),
                evaluator=mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=random_state),
                uct_c=self.uct_c,
                max_simulations=self.simulations if self.simulations is not None else 2**62,
                random_state=random_state,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                # Deeper in the tree, worlds drawn for one information-state key may differ in legal actions (a
                # KeyError in OpenSpiel's expand step otherwise, met once in a few arena games of Maybe Movies).
                allow_inconsistent_action_sets=True,
                seconds=self.seconds,
                clock=self.clock,
            )
            bot.set_resampler(make_resampler(seed + 1))
            code = int(bot.step(state))
            simulations += bot.simulations
            children = bot._root_node.child_info.items()
            self.last_root = {int(key): (int(child.visits), child.value() if child.visits else 0.0) for key, child in children}
            world = state.world
            assert world.state is not None
            codes, targets, actions = agent_options(view.game, world.state, view.seat, world.prefixes[view.seat])
            target = targets[codes.index(code)]
            if isinstance(target, int):
                action = actions[target]
                break
            state.apply_action(code)  # a card picked: search the next one from there
            seed += 1
        if action not in legal:  # pragma: no cover - the drawn world gives the seat the same legal actions
            raise AssertionError(f"OpenSpiel's ISMCTS chose {action}, not legal for seat {view.seat}")
        self.last_stats = SearchStats(1, simulations, time.perf_counter() - started, 0)
        self.stats.add(self.last_stats)
        return action


#: The options of ``openspiel-ismcts:...``, by the name written in the bot's name.
OPENSPIEL_OPTIONS: dict[str, BotOption] = {
    "cpu": flag("cpu", True),
    "sims": BotOption("simulations", int),
    "c": BotOption("uct_c", float),
    "rollouts": BotOption("rollouts", int),
}


def parse_openspiel_bot(text: str) -> dict[str, Any]:
    """The settings of ``openspiel-ismcts:BUDGET[/OPTION...]`` (see the module docstring) as keyword arguments.

    >>> parse_openspiel_bot("openspiel-ismcts:0.5/cpu")
    {'seconds': 0.5, 'cpu': True}
    >>> parse_openspiel_bot("openspiel-ismcts:sims=300/c=1.4")
    {'simulations': 300, 'uct_c': 1.4}
    """
    prefix, colon, body = text.partition(":")
    if prefix != PREFIX or not colon or not body:
        raise OptionError(f"cannot read bot {text!r}; write {PREFIX}:SECONDS or {PREFIX}:sims=N, e.g. {PREFIX}:0.5/cpu")
    try:
        budget, options = read_bot_options(body, OPENSPIEL_OPTIONS)
        settings: dict[str, Any] = ({"seconds": float(budget.removesuffix("s"))} if budget else {}) | options
        if settings.get("seconds") is None and settings.get("simulations") is None:
            raise ValueError("it needs seconds per move or sims=N")
        return settings
    except ValueError as error:
        raise OptionError(f"cannot read bot {text!r}: {error}; write {PREFIX}:SECONDS or {PREFIX}:sims=N, e.g. {PREFIX}:0.5/cpu") from None


def make_openspiel_bot(name: str, game: Game[Any], seed: int) -> OpenSpielISMCTS:
    """The bot ``name`` (``openspiel-ismcts:...``) for ``game`` with ``seed``; refused if the game has no OpenSpiel adapter."""
    from greenlight.rl.encoding import has_encoding

    if not has_encoding(game):
        raise OptionError(f"{game.spec.title} has no OpenSpiel adapter (it needs an RL encoding), so {PREFIX} cannot play it")
    try:
        return OpenSpielISMCTS(seed, name=name, **parse_openspiel_bot(name))
    except ValueError as error:
        raise OptionError(f"cannot read bot {name!r}: {error}") from None
