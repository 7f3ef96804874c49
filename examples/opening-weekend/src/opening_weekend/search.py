"""Search tuning for the generic ISMCTS bots (``hard``, ``expert``), found by ``greenlight.bots`` in this module.

A game may also define ``rollout_action(state, seat, rng)`` and ``evaluate(state)``
here; this one needs neither: games are five moves long, so random rollouts
to the end are cheap and exact.
"""

from __future__ import annotations

#: The ``hard`` level: a step budget of about one second of CPU a move; random rollouts to the end.
HARD_SEARCH = {"steps": 60_000, "rollout": "random", "iteration_cost": 2}
