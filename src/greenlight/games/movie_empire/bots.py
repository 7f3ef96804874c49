"""Movie Empire bots (placeholder until the heuristic is written)."""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView


class HeuristicBot(Bot):
    """Temporary."""

    name = "heuristic"

    def choose(self, view: SeatView) -> Action:
        """Random for now."""
        return self.rng.choice(view.legal_actions())
