"""Search hooks for Movie Empire: a rollout policy and a position evaluation for the generic ISMCTS bot.

The search bot (``greenlight.bots``) looks this module up as an optional
companion of the game (proposed contract methods: ``Game.rollout_action`` and
``Game.evaluate``). It runs on determinized states, so reading every seat
here is fine.

The rollout policy is the heuristic's own choice, made on the rollout's
state directly: the heuristic bot reads only what its seat knows from a
determinized world, and a rollout state already is one, so this skips the
determinization that ``HeuristicBot.choose`` would draw at every move (most
of its cost).

The evaluation turns the heuristic's score estimate (``bots.evaluate``, in PP) into win
shares with a softmax whose temperature shrinks as the last round nears: the
estimate says little in the first rounds and much in the last ones. The
temperatures were fitted by likelihood on 150 heuristic self-play games
(2-4 players): about 30 PP in rounds 1-2, 15 in rounds 3-4, 8 in 5-6 and
6 from round 7 on.
"""

from __future__ import annotations

import math
import random

from greenlight.core.actions import Action
from greenlight.games.movie_empire import rules
from greenlight.games.movie_empire.bots import HeuristicBot
from greenlight.games.movie_empire.bots import evaluate as estimate
from greenlight.games.movie_empire.state import MovieEmpireState

#: The ``hard`` level's search, tuned with the arena (steps calibrated to about 1 s of CPU a move):
#: heuristic rollouts cut after 10 moves by :func:`evaluate`.
HARD_SEARCH = {"steps": 8_000, "iteration_cost": 2, "rollout_depth": 10}

#: The ``strong`` level: ``hard``'s search with these changes, about 24 times cheaper in CPU (docs/bots.md):
#: progressive widening, heuristic rollouts cut after 4 moves, less exploration.
STRONG_SEARCH = {"steps": 300, "rollout_depth": 4, "widening": 1.0, "exploration": 0.4}

#: The heuristic's decision handlers are deterministic functions of (world, seat, legal actions); one instance serves all.
_HEURISTIC = HeuristicBot(0)

#: Softmax temperature (PP) at the last round, and the extra at the first.
LATE_TEMPERATURE = 6.0
EARLY_EXTRA = 24.0


def temperature(state: MovieEmpireState) -> float:
    """How uncertain the estimate still is, in PP."""
    span = max(1, state.last_round - 1)
    left = min(1.0, max(0.0, (state.last_round - state.round) / span))
    return LATE_TEMPERATURE + EARLY_EXTRA * left * left


def evaluate(state: MovieEmpireState) -> list[float]:
    """Estimated win share per seat (softmax of the heuristic's final-score estimates)."""
    values = [estimate(state, seat) for seat in range(state.num_players)]
    scale = temperature(state)
    top = max(values)
    weights = [math.exp((value - top) / scale) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def rollout_action(state: MovieEmpireState, seat: int, rng: random.Random) -> Action:
    """The heuristic's move for ``seat`` on this (determinized) state."""
    actions = rules.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    handler = getattr(_HEURISTIC, f"_on_{rules.decision(state).kind}", None)
    choice = handler(state, seat, actions) if handler is not None else None
    return choice if choice is not None and choice in actions else actions[rng.randrange(len(actions))]
