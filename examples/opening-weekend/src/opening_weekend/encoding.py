"""Observation encoding for RL (``greenlight.rl`` finds ``ENCODING`` here): a fixed-size vector in [0, 1].

Seats are relative to the viewer (slot 0 is the viewer). Built from the
observation only, so it shows exactly what the seat may see.

>>> from opening_weekend import GAME
>>> vector = ENCODING.encode(GAME.observe(GAME.new_state(3, seed=1), 0))
>>> len(vector) == ENCODING.size(3, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from greenlight.core.game import Observation
from greenlight.core.spec import OptionValue
from opening_weekend.cards import BUZZ, HAND_SIZE, WEEKENDS, buzz
from opening_weekend.observation import OpeningWeekendObservation
from opening_weekend.spec import ROUNDS, SPEC

MAX_SEATS = SPEC.max_players
#: Largest score a seat can reach (the five best weekends), for scaling.
SCORE_SCALE = float(sum(sorted(weekend.value for weekend in WEEKENDS)[-ROUNDS:]))


class OpeningWeekendEncoding:
    """Encoder of Opening Weekend observations."""

    shaping_weights: Mapping[str, float] = {"points": 1.0}

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """The slices of the vector, in order."""
        return [
            ("round", 1),
            ("weekend_value", len(WEEKENDS)),
            ("hand", len(BUZZ)),
            ("my_release", len(BUZZ)),
            ("played", len(BUZZ)),
            ("committed", MAX_SEATS),
            ("scores", MAX_SEATS),
            ("hand_sizes", MAX_SEATS),
        ]

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector."""
        return sum(length for _, length in self.fields(num_players, options))

    def encode(self, observation: Observation) -> list[float]:
        """The vector of one observation."""
        observation = cast(OpeningWeekendObservation, observation)
        n = observation["num_players"]
        viewer = observation["viewer"] or 0
        relative = [(viewer + offset) % n for offset in range(n)]
        vector = [observation["round"] / ROUNDS]
        value = [0.0] * len(WEEKENDS)
        weekend = observation["weekend"]
        if weekend is not None:
            value[weekend["value"] - 1] = 1.0
        vector += value
        hand = [0.0] * len(BUZZ)
        for card in observation.get("hand", []):
            hand[buzz(card) - 1] = 1.0
        mine = [0.0] * len(BUZZ)
        release = observation.get("my_release")
        if release:
            mine[buzz(release) - 1] = 1.0
        played = [0.0] * len(BUZZ)
        for cards in observation["played"]:
            for number in cards:
                played[number - 1] = 1.0
        vector += hand + mine + played
        pad = [0.0] * (MAX_SEATS - n)
        vector += [1.0 if seat in observation["committed"] else 0.0 for seat in relative] + pad
        vector += [min(1.0, max(0.0, observation["scores"][seat] / SCORE_SCALE)) for seat in relative] + pad
        vector += [observation["hand_sizes"][seat] / HAND_SIZE for seat in relative] + pad
        return vector

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's points so far."""
        observation = cast(OpeningWeekendObservation, observation)
        return {"points": float(observation["scores"][observation["viewer"] or 0])}


ENCODING = OpeningWeekendEncoding()
