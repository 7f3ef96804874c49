"""Search hooks for Maybe Movies: a position evaluation for the generic ISMCTS bot.

The search bot (``greenlight.bots``) looks this module up as an optional
companion of the game (proposed contract method: ``Game.evaluate``). It runs
on determinized states, so reading every seat here is fine.

A seat's final score is the sum, over its won cards, of how often the card's
icon appears on Movies Made (§5.2). The estimate adds to today's counts the
growth expected over the turns left, and counts each hand card as a part of a
card that may still be won. Win shares come from a softmax of the estimates
whose temperature shrinks as the game nears its end. The coefficients were
fitted by likelihood on 300 heuristic self-play games (3-6 players).
"""

from __future__ import annotations

import math

from greenlight.games.maybe_movies import rules
from greenlight.games.maybe_movies.state import MaybeMoviesState

#: The ``hard`` level's search, tuned with the arena (steps calibrated to about 1 s of CPU a move): random
#: rollouts cut after 8 moves by :func:`evaluate` (chosen when the heuristic sampled 8 worlds a move, too slow to roll out).
HARD_SEARCH = {"steps": 45_000, "iteration_cost": 4, "rollout": "random", "rollout_depth": 8}

#: The ``strong`` level: ``hard``'s search with these changes, about 24 times cheaper in CPU (docs/bots.md):
#: progressive widening that tries the heuristic's move first, random rollouts cut after 2 moves.
STRONG_SEARCH = {"steps": 750, "rollout_depth": 2, "widening": 1.0, "prior": "heuristic"}

#: Expected Movies Made icons added, per icon and per turn left.
GROWTH_PER_TURN = 0.2
#: Weight of a hand card (a vote that may still be won) relative to a won card.
HAND_WEIGHT = 0.2
#: Softmax temperature in points: base plus a share per turn left.
TEMPERATURE_BASE = 2.0
TEMPERATURE_PER_TURN = 0.25
#: Turns in a game without Breaking Changes (§5.1); later turns count as 0 left.
TURNS = 10


def estimates(state: MaybeMoviesState) -> list[float]:
    """Each seat's expected final score."""
    counts = rules.icon_counts(state)
    turns_left = max(0, TURNS + 1 - state.turn)
    expected = [count + GROWTH_PER_TURN * turns_left for count in counts]
    mean_icon = sum(expected) / len(expected)
    table = state.table
    values = []
    for seat in range(state.num_players):
        won = sum(expected[table.vote(card).icon] for card in state.won[seat])
        values.append(won + HAND_WEIGHT * len(state.hands[seat]) * mean_icon)
    return values


def evaluate(state: MaybeMoviesState) -> list[float]:
    """Estimated win share per seat (softmax of the score estimates)."""
    values = estimates(state)
    temperature = TEMPERATURE_BASE + TEMPERATURE_PER_TURN * max(0, TURNS + 1 - state.turn)
    top = max(values)
    weights = [math.exp((value - top) / temperature) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]
