"""Information-set Monte Carlo tree search (ISMCTS) for any game on the core contract.

Every iteration draws a fresh **determinization** from the bot's own seat view
(a full state consistent with what the seat has seen; the bot never sees the
real hidden state), walks a single tree shared by all determinizations
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012), plays a rollout
and backs up **one value per seat** (win share, ties split).

* **Subset-armed bandits.** Different determinizations allow different
  actions; each arm keeps how often it was *available*, and UCB uses that count
  instead of the parent's visits.
* **Simultaneous steps** use decoupled selection: at a node where several seats
  owe a secret commitment, each seat picks from its *own* statistics at that
  node, so no seat's choice depends on another seat's commitment in the same
  step. The child is keyed by the joint commitment.
* **Any number of players**: every arm belongs to one seat and learns that
  seat's value (max^n).
* **Rollouts** follow the game's fast rollout policy, else its heuristic
  level, else random moves, and may stop after a number of moves, scored by
  the game's evaluation (see :mod:`greenlight.bots.hooks`).
* **Progressive widening** (optional) limits how many distinct actions a seat
  tries at a node by how often it chose there, trying the heuristic's choice
  first: useful when a seat has dozens of legal actions (Cinecitta offers).
* **Budgets**: iterations, simulated steps (actions applied in the tree and
  in rollouts; both deterministic for a seed) and wall-clock seconds, in any
  combination (whichever ends first). A step budget costs about the same time
  at every stage of a game, and lets late, short positions search more
  iterations than early ones.

>>> from greenlight.core.bot import SeatView
>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> bot = ISMCTSBot(seed=1, config=SearchConfig(iterations=20))
>>> view = SeatView(game, game.new_state(3, seed=4), seat=0)
>>> bot.choose(view) in view.legal_actions(), bot.last_stats.iterations
(True, 20)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from greenlight.bots.hooks import Evaluator, Policy, find_evaluator, game_policy, heuristic_policy, random_policy
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.game import Game
from greenlight.core.state import GameState

ROLLOUT_KINDS = ("game", "heuristic", "random")
#: Who suggests the first action a widening seat tries at a node: the heuristic level, or the game's rollout policy.
PRIOR_KINDS = ("auto", "heuristic", "game")
#: The clocks a time budget can count: wall-clock seconds, or the process's CPU seconds (steadier on a shared machine).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How a search bot spends its budget.

    ``iterations``, ``steps`` and ``seconds`` bound one move (whichever ends
    first; at least one must be set, and at least one iteration always runs).
    ``steps`` counts the actions simulated in the tree and in rollouts, plus
    ``iteration_cost`` per iteration for the determinization and the
    evaluation, so that a step costs about the same time at every stage of
    the game (late iterations are short but still pay the determinization).
    ``rollout`` is ``game`` (the game's fast rollout policy, else its heuristic
    level, else random), ``heuristic`` (the heuristic level, else random) or
    ``random``; ``rollout_epsilon`` mixes in random moves.
    ``rollout_depth`` is the number of moves a rollout plays before the
    game's evaluation scores it (None: play to the end; ignored when the game
    has no evaluation). ``widening`` > 0 turns on progressive widening: a seat
    tries at most ``widening * n ** widening_power`` distinct actions at a node
    it has chosen at ``n`` times, the ``prior``'s choice first: ``auto`` (the
    heuristic level, but none with random rollouts: a random untried action),
    ``heuristic`` (the game's heuristic level, without random moves, whatever
    the rollouts) or ``game`` (the game's fast rollout policy without random
    moves, else the heuristic level).
    ``clock`` is what ``seconds`` counts: ``wall`` (wall-clock) or ``cpu``
    (the process's CPU time, which a busy neighbour on a shared machine does
    not eat into).
    """

    iterations: int | None = 1000
    seconds: float | None = None
    steps: int | None = None
    iteration_cost: float = 1.0
    exploration: float = 0.7
    rollout: str = "game"
    rollout_epsilon: float = 0.1
    rollout_depth: int | None = None
    widening: float = 0.0
    widening_power: float = 0.5
    prior: str = "auto"
    clock: str = "wall"

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None and self.steps is None:
            raise ValueError("a search needs an iteration, step or time budget")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"the iteration budget must be at least 1, not {self.iterations}")
        if self.steps is not None and self.steps < 1:
            raise ValueError(f"the step budget must be at least 1, not {self.steps}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time budget must be positive, not {self.seconds}")
        if self.rollout not in ROLLOUT_KINDS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUT_KINDS)}, not {self.rollout!r}")
        if self.prior not in PRIOR_KINDS:
            raise ValueError(f"prior must be one of {', '.join(PRIOR_KINDS)}, not {self.prior!r}")
        if self.clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {self.clock!r}")


@dataclass(slots=True)
class SearchStats:
    """What searching cost: moves searched, iterations run, actions simulated, seconds spent (cumulative or for one move)."""

    searches: int = 0
    iterations: int = 0
    seconds: float = 0.0
    steps: int = 0

    def add(self, other: SearchStats) -> None:
        """Add another record's counts to this one."""
        self.searches += other.searches
        self.iterations += other.iterations
        self.seconds += other.seconds
        self.steps += other.steps

    @property
    def iterations_per_second(self) -> float:
        """Iterations per second of search (0 before any search)."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class _Arm:
    """One seat's statistics for one action at one node."""

    __slots__ = ("available", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.available = 0


class _Node:
    """A tree node: per seat, the arms tried here and how often that seat chose here; children by joint move."""

    __slots__ = ("arms", "children", "choices")

    def __init__(self) -> None:
        self.arms: dict[int, dict[Action, _Arm]] = {}
        self.choices: dict[int, int] = {}
        self.children: dict[tuple[tuple[int, Action], ...], _Node] = {}


class _Search:
    """One move's search for ``seat``: the tree, the policies, and the per-move random stream."""

    def __init__(
        self, game: Game[Any], seat: int, config: SearchConfig, rng: random.Random, among: frozenset[Action] | None = None
    ) -> None:
        self.game = game
        self.seat = seat
        #: If given, the only root actions our seat considers (to compare a few moves with the whole budget).
        self.among = among
        self.config = config
        self.rng = rng
        policy: Policy | None = None
        if config.rollout == "game":
            policy = game_policy(game, rng, config.rollout_epsilon)
        if config.rollout in ("game", "heuristic") and policy is None:
            policy = heuristic_policy(game, rng, config.rollout_epsilon)
        self.policy: Policy = policy or random_policy(game, rng)
        #: Whether rollouts pick uniformly among the legal actions (``_rollout`` then does it inline, drawing alike).
        self.random_rollout = policy is None
        # Widening asks the prior (without random moves) which new action to try first.
        self.prior: Policy | None = None
        if config.widening > 0 and (config.rollout != "random" or config.prior != "auto"):
            if config.prior == "game":
                self.prior = game_policy(game, rng)
            if self.prior is None:
                self.prior = heuristic_policy(game, rng)
        self.evaluator: Evaluator | None = find_evaluator(game) if config.rollout_depth is not None else None
        self.root = _Node()
        #: Actions applied so far in this search (tree and rollouts).
        self.steps = 0

    def root_statistics(self) -> dict[Action, tuple[int, float]]:
        """Our seat's root arms: action -> (visits, mean value)."""
        arms = self.root.arms.get(self.seat, {})
        return {action: (arm.visits, arm.value / arm.visits if arm.visits else 0.0) for action, arm in arms.items()}

    def run(self, view: SeatView, legal: list[Action]) -> tuple[Action, SearchStats]:
        """Search within the budget and return the most visited root action of our seat."""
        config = self.config
        start = time.perf_counter()
        clock = CLOCKS[config.clock]
        deadline = clock() + config.seconds if config.seconds is not None else math.inf
        max_iterations = config.iterations if config.iterations is not None else math.inf
        max_steps = config.steps if config.steps is not None else math.inf
        overhead = config.iteration_cost
        done = 0
        while done < max_iterations and self.steps + overhead * done < max_steps:
            if done and clock() >= deadline:
                break
            self._iterate(view.determinize(self.rng))
            done += 1
        arms = self.root.arms.get(self.seat, {})

        def rank(action: Action) -> tuple[int, float]:
            arm = arms.get(action)
            return (arm.visits, arm.value / arm.visits) if arm is not None and arm.visits else (-1, 0.0)

        # max() keeps the first of equal ranks, so ties go to the earliest legal action.
        best = max(legal, key=rank)
        return best, SearchStats(1, done, time.perf_counter() - start, self.steps + math.ceil(overhead * done))

    # -- one iteration ----------------------------------------------------------------------------

    def _iterate(self, world: GameState) -> None:
        game = self.game
        node = self.root
        path: list[tuple[_Arm, int]] = []
        while True:
            decision = game.decision(world)
            if not decision.players:  # the game is over
                self._backup(path, game.outcome(world).returns())
                return
            movers = decision.players if decision.simultaneous else decision.players[:1]
            joint: list[tuple[int, Action]] = []
            chose = False
            # Every mover picks before anyone's commitment is applied: nobody sees another's choice.
            for mover in movers:
                legal = game.legal_actions(world, mover)
                if self.among is not None and node is self.root and mover == self.seat:
                    legal = [action for action in legal if action in self.among] or legal
                if len(legal) == 1:
                    joint.append((mover, legal[0]))
                    continue
                action, arm = self._select(node, mover, legal, world)
                path.append((arm, mover))
                joint.append((mover, action))
                chose = True
            for mover, action in joint:
                game.apply_unchecked(world, mover, action)
            self.steps += len(joint)
            key = tuple(joint)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                if chose:
                    break  # expanded one node with a real choice: roll out from here
            node = child
        self._backup(path, self._rollout(world))

    def _select(self, node: _Node, seat: int, legal: list[Action], world: GameState) -> tuple[Action, _Arm]:
        """UCB over the tried actions available now; try a new one first while the widening limit allows."""
        arms = node.arms.get(seat)
        if arms is None:
            arms = node.arms[seat] = {}
        count = node.choices.get(seat, 0)
        node.choices[seat] = count + 1
        # One lookup per legal action, in one pass: hashing actions is most of a selection among dozens of them.
        tried: list[tuple[Action, _Arm]] = []
        untried: list[Action] = []
        arm_of = arms.get
        for action in legal:
            found = arm_of(action)
            if found is None:
                untried.append(action)
            else:
                found.available += 1
                tried.append((action, found))
        limit = len(legal)
        if self.config.widening > 0:
            limit = min(limit, max(1, math.ceil(self.config.widening * (count + 1) ** self.config.widening_power)))
        if len(tried) < limit:
            action = self._new_action(arms, untried, world, seat)
            arm = arms[action] = _Arm()
            arm.available = 1
            return action, arm
        exploration = self.config.exploration
        sqrt, log = math.sqrt, math.log
        best_action, best_arm = tried[0]
        best_score = -math.inf
        for action, arm in tried:
            score = arm.value / arm.visits + exploration * sqrt(log(arm.available) / arm.visits)
            if score > best_score:
                best_action, best_arm, best_score = action, arm, score
        return best_action, best_arm

    def _new_action(self, arms: dict[Action, _Arm], untried: list[Action], world: GameState, seat: int) -> Action:
        """The rollout policy's suggestion if untried here, else a random untried legal action (in legal order)."""
        if self.prior is not None:
            suggestion = self.prior(world, seat)
            if suggestion not in arms:
                return suggestion
        return untried[self.rng.randrange(len(untried))]

    def _rollout(self, world: GameState) -> tuple[float, ...]:
        game = self.game
        depth = self.config.rollout_depth if self.evaluator is not None else None
        if depth is None and self.random_rollout:
            return self._random_rollout(world)
        decision_of, apply = game.decision, game.apply_unchecked
        policy = self.policy
        moves = 0
        try:
            while True:
                players = decision_of(world).players
                if not players:  # the game is over
                    return game.outcome(world).returns()
                if depth is not None and moves >= depth and self.evaluator is not None:
                    return tuple(self.evaluator(world))
                seat = players[0]
                apply(world, seat, policy(world, seat))
                moves += 1
        finally:
            self.steps += moves

    def _random_rollout(self, world: GameState) -> tuple[float, ...]:
        """A rollout to the end with uniformly random moves: ``random_policy`` inlined, the same draws from ``rng``."""
        game = self.game
        decision_of, legal_actions, apply = game.decision, game.legal_actions, game.apply_unchecked
        randrange = self.rng.randrange
        moves = 0
        try:
            while True:
                players = decision_of(world).players
                if not players:  # the game is over
                    return game.outcome(world).returns()
                seat = players[0]
                legal = legal_actions(world, seat)
                apply(world, seat, legal[randrange(len(legal))])
                moves += 1
        finally:
            self.steps += moves

    @staticmethod
    def _backup(path: list[tuple[_Arm, int]], values: tuple[float, ...]) -> None:
        for arm, seat in path:
            arm.visits += 1
            arm.value += values[seat]


def root_estimates(
    view: SeatView, config: SearchConfig, rng: random.Random, among: frozenset[Action] | None = None
) -> dict[Action, tuple[int, float]]:
    """Search ``view``'s seat's move within ``config``'s budget (only the root actions ``among``, if given);
    its root arms: action -> (visits, mean win share)."""
    search = _Search(view.game, view.seat, config, rng, among)
    legal = view.legal_actions()
    search.run(view, [action for action in legal if among is None or action in among] or legal)
    return search.root_statistics()


class ISMCTSBot(Bot):
    """Determinized information-set MCTS; see the module docstring. Reproducible for a seed with an iteration budget."""

    name = "ismcts"

    def __init__(self, seed: int = 0, config: SearchConfig | None = None, name: str | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()
        if name is not None:
            self.name = name
        #: Cost of the last searched move (moves with a single legal action are not searched).
        self.last_stats = SearchStats()
        #: Cost of every search so far.
        self.stats = SearchStats()
        #: The last search's root statistics of our seat: action -> (visits, mean win share).
        self.last_root: dict[Action, tuple[int, float]] = {}

    def choose(self, view: SeatView) -> Action:
        """Search from determinizations of ``view`` and return the most visited action."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        # A fresh stream per move, drawn from the bot's own generator: moves stay reproducible.
        rng = random.Random(self.rng.getrandbits(64))
        search = _Search(view.game, view.seat, self.config, rng)
        action, stats = search.run(view, legal)
        self.last_root = search.root_statistics()
        self.last_stats = stats
        self.stats.add(stats)
        return action
