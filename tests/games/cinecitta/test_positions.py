"""Cinecitta positions: written by hand with defaults, read back exactly, and refused when no game can reach them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.positions import PositionError
from greenlight.core.registry import get_game
from greenlight.core.state import state_digest

GAME = get_game("cinecitta")
EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "positions" / "cinecitta.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def test_the_documented_example_loads_with_its_defaults_and_plays_to_the_end() -> None:
    state = GAME.from_position(example())
    assert (state.round, state.step, state.undealt) == (7, "offer", ["D5"])  # the one card left over, computed
    assert state.round_start_wallets == [150, 90, 60] and state.opening_wallets is None
    assert "Director 9 (D9), Actor 8 (A8) · 2 of 3 cards" in GAME.render_text(GAME.observe(state, 0))
    rng = random.Random(3)
    while not GAME.is_terminal(state):
        seat = min(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert len(GAME.outcome(state).scores) == 3


def test_a_position_read_back_is_the_same_state_and_plays_on_the_same() -> None:
    state = GAME.new_state(4, 11, {"destination_change": True})
    rng = random.Random(5)
    for _ in range(17):
        seat = rng.choice(sorted(GAME.decision(state).players))
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    copy = GAME.from_position(json.loads(json.dumps(GAME.to_position(state))))
    assert state_digest(copy) == state_digest(state)
    for viewer in (None, 0, 1, 2, 3):
        assert GAME.observe(copy, viewer) == GAME.observe(state, viewer)
    for _ in range(10):
        seat = min(GAME.decision(state).players)
        action = GAME.legal_actions(state, seat)[0]
        assert [e.to_json() for e in GAME.apply(state, seat, action)] == [e.to_json() for e in GAME.apply(copy, seat, action)]
    assert state_digest(copy) == state_digest(state)


def test_a_full_position_names_every_part_and_its_rules_version() -> None:
    position = GAME.to_position(GAME.new_state(3, 1))
    assert {key: position[key] for key in ("format", "game", "version", "num_players")} == {
        "format": 1,
        "game": "cinecitta",
        "version": GAME.spec.version,
        "num_players": 3,
    }
    assert list(position)[5:9] == ["hand_size", "round", "step", "hands"]
    assert len(position["undealt"]) == 1 and sum(map(len, position["hands"])) == 24


def changed(**fields: Any) -> dict[str, Any]:
    return {**example(), **fields}


@pytest.mark.parametrize(
    ("position", "field", "rule"),
    [
        (changed(hands=[["C9", "S5"], ["A3", "C9"], ["D3", "A5"]]), "hands[1]", "C9 is also in hands[0]"),
        (changed(hands=[["C9", "X7"], ["A3", "C3"], ["D3", "A5"]]), "hands[0]", "X7 is not a card of a 3-player game"),
        (changed(hands=[["C9"], ["A3", "C3"], ["D3", "A5"]], undealt=["D5"]), "undealt", "S5 is nowhere"),
        (changed(hands=[["C9", "S5", "D5"], ["A3", "C3"], ["D3", "A5"]]), "undealt", "holds 0 cards"),
        (changed(round=6), "hands[0]", "holds 2 cards; at the offer step of round 6 every hand holds 3"),
        (
            changed(
                studios=[["D9", "A8", "A2"], ["D8", "A9", "C8"], ["C6", "A6", "D6"]],
                offices=[["S2", "S3", "C2", "C5"], ["S6", "D2"], ["S8", "S9", "P9"]],
            ),
            "studios[0]",
            "holds two Actors",
        ),
        (changed(wallets=[150, 95, 60]), "wallets[1]", "money comes in tens"),
        (changed(round_start_wallets=[100, 100, 90]), "wallets", "add up to 300 with the money in folders, but the round began with 290"),
        (changed(plans=[[["C9", None]], None, None]), "plans", "at the offer step, not the place step"),
        (changed(offers=[["A3", 10], None, None]), "offers[0]", "offers A3, which is not in that seat's hand"),
        (changed(round=10), "round", "a 3-player game has rounds 1 to 8"),
        (changed(hands="C9 S5"), "hands", "expected a list, got 'C9 S5'"),
        (changed(hands=[["C9", 5], ["A3", "C3"], ["D3", "A5"]]), "hands[0][1]", "expected a text, got 5"),
        (changed(colour="red"), "colour", "is not part of a Cinecitta 1937 position"),
        (changed(version="0"), "version", "saved under rules version 0"),
        (changed(game="maybe-movies"), "game", "not of 'cinecitta'"),
        (changed(num_players=6), "num_players", "players"),
    ],
)
def test_an_impossible_position_names_the_field_and_the_rule(position: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(PositionError) as caught:
        GAME.from_position(position)
    assert caught.value.field == field
    assert rule in str(caught.value)
