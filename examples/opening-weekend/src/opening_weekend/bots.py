"""The ``heuristic`` bot: spend loud cards on valuable weekends, quiet ones on the rest."""

from __future__ import annotations

from typing import cast

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from opening_weekend.actions import Release
from opening_weekend.cards import WEEKENDS, buzz
from opening_weekend.observation import OpeningWeekendObservation


class HeuristicBot(Bot):
    """Plays the card whose rank in its hand matches the weekend's rank among all weekends."""

    name = "heuristic"

    def choose(self, view: SeatView) -> Action:
        """The card of matching strength for this weekend (ties in value broken by the seed)."""
        observation = cast(OpeningWeekendObservation, view.observation())
        legal = sorted((action for action in view.legal_actions() if isinstance(action, Release)), key=lambda action: buzz(action.card))
        weekend = observation["weekend"]
        assert weekend is not None, "a bot is asked to choose only while a weekend is being played"
        value = weekend["value"]
        strength = (value - 1) / (len(WEEKENDS) - 1)  # 0 for the poorest weekend, 1 for the best
        index = round(strength * (len(legal) - 1))
        if self.rng.random() < 0.2:
            index = self.rng.randrange(len(legal))
        return legal[index]
