"""Tiny games with known answers, to test search behaviour exactly.

* **Pennies** (2 seats, one simultaneous step): each seat secretly picks 0 or
  1; seat 0 wins when the picks match, seat 1 when they differ, except that
  half the time a hidden coin decides instead (the noise keeps the searches'
  statistics from moving in lockstep). If seat 1 could see seat 0's pick it
  would always answer it, and seat 0's actions would be worth 1/4; if not,
  about 1/2. ``Pennies(sequential=True)`` is that control: seat 1 moves
  second and sees the pick.
* **Prize** (N seats, sequential): each seat in turn takes one of the cards
  left face up; the highest card wins. The first seat must take the 9.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from greenlight.core.actions import Action
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.core.spec import GameSpec, OptionValue
from greenlight.core.state import GameState


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Pick a side (Pennies) or a card (Prize)."""

    verb: ClassVar[str] = "pick"
    value: int


class PenniesState(GameState):
    """The two picks (hidden from the other seat until both are in) and the hidden coin."""

    __slots__ = ("coin", "noisy", "num_players", "picks")

    def __init__(self, seed: int) -> None:
        self.num_players = 2
        self.picks: list[int | None] = [None, None]
        chance = random.Random(seed)
        self.noisy = chance.random() < 0.5
        self.coin = chance.randrange(2)

    def clone(self) -> PenniesState:
        """Copy the picks."""
        copy = PenniesState.__new__(PenniesState)
        copy.num_players = 2
        copy.picks = list(self.picks)
        copy.noisy = self.noisy
        copy.coin = self.coin
        return copy


class Pennies(Game[PenniesState]):
    """Noisy matching pennies as one simultaneous step (or, as a control, seat 1 moving second)."""

    spec = GameSpec("pennies", "Pennies", "1", 2, 2)
    action_types = (Pick,)
    num_distinct_actions = 2

    def __init__(self, sequential: bool = False) -> None:
        super().__init__()
        self.sequential = sequential

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> PenniesState:
        return PenniesState(seed)

    def decision(self, state: PenniesState) -> Decision:
        waiting = tuple(seat for seat in range(2) if state.picks[seat] is None)
        if not waiting:
            return GAME_OVER
        if self.sequential:
            return Decision(waiting[:1], "pick")
        return Decision(waiting, "pick", simultaneous=True, committed=tuple(seat for seat in range(2) if seat not in waiting))

    def legal_actions(self, state: PenniesState, player: int) -> list[Action]:
        return [Pick(0), Pick(1)] if player in self.decision(state).players else []

    def apply_unchecked(self, state: PenniesState, player: int, action: Action) -> list[Event]:
        assert isinstance(action, Pick)
        state.picks[player] = action.value
        return []

    def observe(self, state: PenniesState, player: int | None) -> Observation:
        public = self.sequential or None not in state.picks
        return {"mine": state.picks[player] if player is not None else None, "picks": list(state.picks) if public else None}

    def determinize(self, state: PenniesState, player: int | None, rng: random.Random) -> PenniesState:
        world = state.clone()
        world.noisy = rng.random() < 0.5
        world.coin = rng.randrange(2)
        if not self.sequential:
            for seat in range(2):
                if seat != player and world.picks[seat] is not None and None in state.picks:
                    world.picks[seat] = rng.randrange(2)
        return world

    def outcome(self, state: PenniesState) -> Outcome:
        winner = 0 if state.picks[0] == state.picks[1] else 1
        if state.noisy:
            winner = state.coin
        return outcome_from_keys([1 - winner, winner], [(1 - winner,), (winner,)], [{}, {}])

    def action_code(self, state: PenniesState, action: Action) -> int:
        assert isinstance(action, Pick)
        return action.value


class PrizeState(GameState):
    """Cards still face up, cards taken per seat, whose turn it is."""

    __slots__ = ("num_players", "open_cards", "taken", "turn")

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.open_cards = [1, 4, 9, 2, 7][: num_players + 2]
        self.taken: list[int | None] = [None] * num_players
        self.turn = 0

    def clone(self) -> PrizeState:
        """Copy the lists."""
        copy = PrizeState(self.num_players)
        copy.open_cards = list(self.open_cards)
        copy.taken = list(self.taken)
        copy.turn = self.turn
        return copy


class Prize(Game[PrizeState]):
    """Take the highest card while you can (perfect information)."""

    spec = GameSpec("prize", "Prize", "1", 2, 3)
    action_types = (Pick,)
    num_distinct_actions = 10
    has_hidden_information = False

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> PrizeState:
        return PrizeState(num_players)

    def decision(self, state: PrizeState) -> Decision:
        if state.turn >= state.num_players:
            return GAME_OVER
        return Decision((state.turn,), "take")

    def legal_actions(self, state: PrizeState, player: int) -> list[Action]:
        return [Pick(card) for card in state.open_cards] if player == state.turn else []

    def apply_unchecked(self, state: PrizeState, player: int, action: Action) -> list[Event]:
        assert isinstance(action, Pick)
        state.open_cards.remove(action.value)
        state.taken[player] = action.value
        state.turn += 1
        return []

    def observe(self, state: PrizeState, player: int | None) -> Observation:
        return {"open": list(state.open_cards), "taken": list(state.taken)}

    def determinize(self, state: PrizeState, player: int | None, rng: random.Random) -> PrizeState:
        return state.clone()

    def outcome(self, state: PrizeState) -> Outcome:
        cards = [card or 0 for card in state.taken]
        return outcome_from_keys(cards, [(card,) for card in cards], [{} for _ in cards])

    def action_code(self, state: PrizeState, action: Action) -> int:
        assert isinstance(action, Pick)
        return action.value
