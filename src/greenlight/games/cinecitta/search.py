"""Search hooks for Cinecitta 1937: a fast rollout policy for the generic ISMCTS bot.

The search bot (``greenlight.bots``) looks this module up as an optional
companion of the game (proposed contract method: ``Game.rollout_action``).
Rollouts run on determinized states, so reading any seat's state here is
fine: the search bot itself never sees the real hidden state.

Offers are cheap guesses (a random card with a small amount: pricing offers
well costs a millisecond, too slow for thousands of rollouts); responses and
placements follow the heuristic's value estimate, which is cheap for them.
"""

from __future__ import annotations

import random

from greenlight.core.actions import Action
from greenlight.games.cinecitta import rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Respond
from greenlight.games.cinecitta.bots import best_placement, estimate_value
from greenlight.games.cinecitta.state import OFFER, RESPOND, CinecittaState

#: The ``hard`` level's search, tuned with the arena (steps calibrated to about 1 s of CPU a move): rollouts
#: to the end with this module's policy; progressive widening tries the heuristic's offer first.
HARD_SEARCH = {"steps": 21_000, "iteration_cost": 3, "exploration": 0.5, "widening": 2.0}

#: The ``strong`` level: ``hard``'s search with these changes, about 23 times cheaper in CPU (docs/bots.md): only
#: a smaller step budget (nothing else tried beat ``hard``'s own settings at this budget).
STRONG_SEARCH = {"steps": 900}

#: Amounts a rollout offers, by how often (small amounts are the common case between sensible players).
ROLLOUT_AMOUNTS = (0, 0, 10, 10, 20, 20, 30, 40, 50)


def rollout_action(state: CinecittaState, seat: int, rng: random.Random) -> Action:
    """A quick, sensible legal move for ``seat`` in a determinized state (``seat`` must owe a move)."""
    rounds_left = state.rounds - state.round
    if state.step == OFFER:
        card = state.hands[seat][rng.randrange(len(state.hands[seat]))]
        amount = min(rng.choice(ROLLOUT_AMOUNTS), state.wallets[seat])
        return Offer(card, amount)
    studio, office, wallet = state.studios[seat], state.offices[seat], state.wallets[seat]
    if state.step == RESPOND:
        folder = rules.folder_received(state, seat)
        assert folder is not None
        if wallet < folder.amount:
            return Respond(SECURE)
        keep_money = estimate_value(state.table, studio, office, wallet + folder.amount, rounds_left)
        hunt, _ = best_placement(state.table, studio, office, [folder.card], wallet - folder.amount, rounds_left)
        return Respond(HEADHUNT if hunt > keep_money else SECURE)
    _, plan = best_placement(state.table, studio, office, state.pending[seat], wallet, rounds_left)
    return plan
