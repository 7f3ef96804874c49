"""The conformance harness must fail on broken games; a toy game with switchable defects shows it does."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NotRequired, TypedDict

import pytest

from greenlight.core.actions import Action
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.core.spec import GameSpec, OptionSpec, OptionValue
from greenlight.core.state import GameState
from greenlight.testing import ConformanceFailure, check_game


@dataclass(frozen=True, slots=True)
class Bid(Action):
    verb: ClassVar[str] = "bid"
    amount: int


DEFECTS = (
    "none",
    "leak",
    "duplicate",
    "shared_clone",
    "global_rng",
    "bad_code",
    "peeking_determinize",
    "dirty_refusal",
    "accepts_illegal",
    "score_out_of_bounds",
    "mistyped_observation",
    "mistyped_event",
    "undeclared_event",
)


class HighCardObservation(TypedDict):
    round: int
    committed: list[int]
    card: NotRequired[int]
    all_cards: NotRequired[list[int]]  # declared, so only the resampling check can catch the "leak" defect


class RoundEnded(TypedDict):
    round: int
    draw: int


class HighCardState(GameState):
    __slots__ = ("bids", "cards", "defect", "num_players", "rng", "round")

    def __init__(self, num_players: int, seed: int, defect: str) -> None:
        self.num_players = num_players
        self.defect = defect
        self.rng = random.Random(seed)
        self.cards = [self.rng.randint(1, 9) for _ in range(num_players)]
        self.bids: list[int | None] = [None] * num_players
        self.round = 0

    def clone(self) -> HighCardState:
        copy = HighCardState.__new__(HighCardState)
        copy.num_players = self.num_players
        copy.defect = self.defect
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.cards = self.cards if self.defect == "shared_clone" else list(self.cards)
        copy.bids = list(self.bids)
        copy.round = self.round
        return copy


class HighCard(Game[HighCardState]):
    """Each round every seat secretly bids 0-2 on its hidden card; three rounds."""

    spec = GameSpec(
        "high-card",
        "High Card",
        "1",
        2,
        3,
        (OptionSpec("defect", "choice", "none", "defect", choices=DEFECTS, variant=False),),
        score_bounds=lambda num_players, options: (1, 9),  # a card's number
    )
    action_types = (Bid,)
    num_distinct_actions = 3
    observation_type = HighCardObservation
    event_types = {"round_ended": RoundEnded}

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> HighCardState:
        return HighCardState(num_players, seed, str(options["defect"]))

    def decision(self, state: HighCardState) -> Decision:
        if state.round >= 3:
            return GAME_OVER
        waiting = tuple(seat for seat, bid in enumerate(state.bids) if bid is None)
        return Decision(waiting, "bid", simultaneous=True, committed=tuple(s for s in range(state.num_players) if s not in waiting))

    def legal_actions(self, state: HighCardState, player: int) -> list[Action]:
        if state.round >= 3 or state.bids[player] is not None:
            return []
        actions: list[Action] = [Bid(amount) for amount in range(3)]
        return [*actions, Bid(0)] if state.defect == "duplicate" else actions

    def apply(self, state: HighCardState, player: int, action: Action) -> list[Event]:
        if state.defect == "dirty_refusal":
            state.rng.random()  # spends randomness before the check, so even a refused bid changes the state
        return super().apply(state, player, action)

    def check(self, state: HighCardState, player: int, action: Action) -> None:
        if state.defect != "accepts_illegal":
            super().check(state, player, action)

    def apply_unchecked(self, state: HighCardState, player: int, action: Action) -> list[Event]:
        assert isinstance(action, Bid)
        state.bids[player] = action.amount
        if all(bid is not None for bid in state.bids):
            draw = random.randint(1, 9) if state.defect == "global_rng" else state.rng.randint(1, 9)
            state.cards = [draw for _ in state.cards]
            state.bids = [None] * state.num_players
            state.round += 1
            kind = "round_over" if state.defect == "undeclared_event" else "round_ended"
            round_number: Any = str(state.round) if state.defect == "mistyped_event" else state.round
            return [Event(kind, {"round": round_number, "draw": draw})]
        return []

    def observe(self, state: HighCardState, player: int | None) -> Observation:
        view: dict[str, Any] = {"round": state.round, "committed": list(self.decision(state).committed)}
        if player is not None:
            view["card"] = str(state.cards[player]) if state.defect == "mistyped_observation" else state.cards[player]
        if state.defect == "leak":
            view["all_cards"] = list(state.cards)
        return view

    def determinize(self, state: HighCardState, player: int | None, rng: random.Random) -> HighCardState:
        world = state.clone()
        world.cards = list(state.cards)
        for seat in range(state.num_players):
            if seat != player:
                # The defect keeps the real hidden card half of the time: the observation cannot show it, a bot could.
                peek = state.defect == "peeking_determinize" and rng.random() < 0.5
                world.cards[seat] = state.cards[seat] if peek else rng.randint(1, 9)
        world.rng = random.Random(rng.random())
        return world

    def outcome(self, state: HighCardState) -> Outcome:
        scores = [card + 10 if state.defect == "score_out_of_bounds" else card for card in state.cards]
        return outcome_from_keys(scores, state.cards, [{"card": card} for card in state.cards])

    def action_code(self, state: HighCardState, action: Action) -> int:
        assert isinstance(action, Bid)
        return 0 if state.defect == "bad_code" else action.amount


GAME = HighCard()


def test_a_correct_game_passes() -> None:
    report = check_game(GAME, 3, {"defect": "none"}, range(30), deep_every=3)
    assert report.games == 30 and report.leak_checks_resampled > 0


@pytest.mark.parametrize(
    ("defect", "message"),
    [
        ("leak", "changes when hidden information is resampled"),
        ("duplicate", "duplicate legal actions"),
        ("shared_clone", "shares mutable containers"),
        ("global_rng", "does not reproduce|depends on the global RNG"),
        ("bad_code", "share an action code"),
        ("peeking_determinize", "determinize for seat 0 depends on hidden information"),
        ("dirty_refusal", "changed the state"),
        ("accepts_illegal", "was allowed"),
        ("score_out_of_bounds", r"outside the declared score bounds \[1, 9\]"),
        ("mistyped_observation", r"does not match HighCardObservation: observation.card: expected int, got str"),
        ("mistyped_event", r"event round_ended does not match its declared type: round_ended.round: expected int, got str"),
        ("undeclared_event", r"event kind 'round_over' is not among the game's declared event_types"),
    ],
)
def test_a_broken_game_fails(defect: str, message: str) -> None:
    with pytest.raises(ConformanceFailure, match=message):
        check_game(GAME, 2, {"defect": defect}, range(10), deep_every=1)
