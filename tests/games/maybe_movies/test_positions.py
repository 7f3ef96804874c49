"""Maybe Movies positions: written by hand with defaults, read back exactly, and refused when no game can reach them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.positions import PositionError
from greenlight.core.registry import get_game
from greenlight.core.state import state_digest

GAME = get_game("maybe-movies")
EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "positions" / "maybe-movies.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def test_the_documented_example_loads_with_its_defaults_and_plays_to_the_end() -> None:
    state = GAME.from_position(example())
    assert (state.turn, state.active, state.phase) == (7, 2, "pitch")
    # Every movie nobody holds went back to the draw pile, every vote to the pool: 44 movies and 60 votes in all.
    assert len(state.draw_pile) + len(state.market) + sum(len(stack.cards) for stack in state.made) == 44
    assert len(state.pool) + sum(map(len, state.hands)) + sum(map(len, state.won)) == 60
    assert GAME.observe(state, 2)["scores"] == [0, 7, 2, 3]
    assert "Player 3 (you) pitches" in GAME.render_text(GAME.observe(state, 2))
    rng = random.Random(3)
    while not GAME.is_terminal(state):
        seat = min(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert len(GAME.outcome(state).scores) == 4


@pytest.mark.parametrize("options", [{}, {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}])
def test_a_position_read_back_is_the_same_state_and_plays_on_the_same(options: dict[str, bool]) -> None:
    state = GAME.new_state(4, 11, options)
    rng = random.Random(5)
    for _ in range(40):
        seat = rng.choice(sorted(GAME.decision(state).players))
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    position = GAME.to_position(state)
    assert position["seed"] == 11, "a generated catalogue is named by its seed"
    copy = GAME.from_position(json.loads(json.dumps(position)))
    assert state_digest(copy) == state_digest(state)
    for seat in (None, 0, 1, 2, 3):
        assert GAME.observe(copy, seat) == GAME.observe(state, seat)
    for _ in range(15):
        if GAME.is_terminal(state):
            break
        seat = min(GAME.decision(state).players)
        action = GAME.legal_actions(state, seat)[0]
        assert [e.to_json() for e in GAME.apply(state, seat, action)] == [e.to_json() for e in GAME.apply(copy, seat, action)]
    assert state_digest(copy) == state_digest(state)


def changed(**fields: Any) -> dict[str, Any]:
    return {**example(), **fields}


HANDS = example()["hands"]


def test_a_vote_without_voters_or_already_complete_is_refused() -> None:
    state = GAME.new_state(3, 2)
    while state.phase != "vote":
        seat = min(GAME.decision(state).players)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    position = GAME.to_position(state)
    with pytest.raises(PositionError, match="voters: are empty, but the position is at the vote"):
        GAME.from_position({**position, "voters": []})
    votes = [state.hands[seat][0] if seat in state.voters else None for seat in range(3)]
    with pytest.raises(PositionError, match="votes: every voter has chosen"):
        GAME.from_position({**position, "votes": votes})


@pytest.mark.parametrize(
    ("position", "field", "rule"),
    [
        (changed(hands=[["N21", "N13", "N25", "N09"], ["Y11", "Y27", "Y24", "N09"], *HANDS[2:]]), "hands[1]", "N09 is also in hands[0]"),
        (changed(hands=[["N21", "N13", "N25", "X99"], *HANDS[1:]]), "hands[0]", "X99 is not a card of this game's catalogue"),
        (changed(hands=[["N21", "N13", "N25", "M01"], *HANDS[1:]]), "hands[0]", "M01 is a movie card"),
        (changed(market=["M39", "M32", "M06", "M04", "M30", "Y01"]), "market", "Y01 is a vote card"),
        (changed(market=["M39", "M32", "M06", "M04", "M30", "M08", "M01"]), "market", "the market holds at most 6"),
        (changed(hands=[[*HANDS[0], "Y01", "Y02", "Y05", "Y06", "Y08", "Y09", "Y12"], *HANDS[1:]]), "hands[0]", "a hand holds at most 10"),
        (
            changed(won=[["C01"], *example()["won"][1:]], options={"breaking_changes": True}, personal=[[], [], [], []]),
            "won[0]",
            "C01 is a CHANGE card, which is never won",
        ),
        (changed(made=[{"cards": ["M15"], "top": "M43", "success": True}]), "made[0]", "the top card M43 is not one of the stack's cards"),
        (changed(draw_pile=["M01"]), "draw_pile", "are in no hand, pile, pool, won area or Movies Made"),
        (changed(active=4), "active", "a 4-player game has seats 0 to 3"),
        (changed(phase="intermission"), "phase", "the phases are pitch, vote"),
        (changed(known=[["Y01"], [], [], []]), "known[0]", "Y01 is known to be in that hand but is not in it"),
        (changed(made=[{"cards": ["M15"], "top": "M15"}]), "made[0].success", "is missing"),
    ],
)
def test_an_impossible_position_names_the_field_and_the_rule(position: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(PositionError) as caught:
        GAME.from_position(position)
    assert caught.value.field == field
    assert rule in str(caught.value)
