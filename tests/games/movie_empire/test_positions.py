"""Movie Empire positions: written by hand with defaults, read back exactly, and refused when no game can reach them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from greenlight.core.positions import PositionError
from greenlight.core.registry import get_game
from greenlight.core.state import state_digest
from greenlight.games.movie_empire.positions import line_problem
from greenlight.games.movie_empire.premiere import premiere_score
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, line

GAME = get_game("movie-empire")
EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "positions" / "movie-empire.json"
SPACES = [space.id for space in TABLE.spaces]


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def load(data: dict[str, Any]) -> MovieEmpireState:
    state = GAME.from_position(data)
    assert isinstance(state, MovieEmpireState)
    return state


def play_to_the_end(state: MovieEmpireState, seed: int) -> None:
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        seat = min(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_the_documented_example_loads_with_its_defaults_and_plays_to_the_end() -> None:
    state = load(example())
    # Completed from what it gives: the working phase at the first player's turn, the plans and trends of round 10.
    assert (state.phase, state.turn_seat, state.exempt_pos) == ("working", 0, 3)
    assert len(state.plans_done) == 9 and state.plans_done[-1] == "AP08" and len(state.plan_pile) == 4
    assert state.trend_pile == [] and len(state.trend_removed) == 7
    assert state.lines[0][0] is not None and state.lines[0][0].stages == (0, 0, 1, 1, 2)  # printed stages filled in
    placed = [card for hand in state.hands for card in hand] + [card for card in state.slot_card if card is not None]
    placed += [card for lines in state.lines for held in lines if held is not None for card in held.all_cards()]
    assert len(state.production_pile) == 68 - sum(card in TABLE.production for card in placed)  # every other card, computed
    assert all(card is not None for card in state.slot_card[5:8])  # the script slots, filled once setup is over
    text = GAME.render_text(GAME.observe(state, 0))
    plain = Text.from_markup(text).plain  # as the terminal shows it (the codes are dimmed)
    assert "Alien Huntress (SA09)" in plain and "No movies without a star (AP08)" in plain and "black dossier, usable" in plain
    assert "produce 1" in {str(action) for action in GAME.legal_actions(state, 0)}
    for seed in range(3):
        copy = state.clone()
        play_to_the_end(copy, seed)
        assert len(GAME.outcome(copy).scores) == 3


def test_the_example_scenario_lay_then_release() -> None:
    state = load(example())
    for text in ("produce 1", "lay PJ01 right R", "star ST06", "done", "place RL1"):
        GAME.apply(state, 0, GAME.parse_action(text))
    released = state.lines[0][0]
    assert released is not None and released.locked and released.period == 6 and released.stars == ("ST06",)
    assert state.release_line[SPACES.index("RL1")] == 0 and state.turn_seat == 1  # the turn passed on after the placement
    score = premiere_score(TABLE, released, "EUR", state.trend_row[2])
    assert score.hit and dict(score.parts)["script"] == 9 and score.total == 28  # Complete Package and Alien Huntress
    GAME.apply(state, 1, GAME.parse_action("pass"))
    assert "cut RL1" in {str(action) for action in GAME.legal_actions(state, 2)}  # Player 3's dossier, from round 8


@pytest.mark.parametrize(
    ("num_players", "options", "steps"), [(3, {}, 140), (4, {"clean_hands": True}, 260), (2, {"shoot_a_short": True}, 90)]
)
def test_a_position_read_back_is_the_same_state_and_plays_on_the_same(num_players: int, options: dict[str, Any], steps: int) -> None:
    state = GAME.new_state(num_players, 11, options)
    rng = random.Random(5)
    for _ in range(steps):
        if GAME.is_terminal(state):
            break
        seat = rng.choice(sorted(GAME.decision(state).players))
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    copy = GAME.from_position(json.loads(json.dumps(GAME.to_position(state))))
    assert state_digest(copy) == state_digest(state)
    for seat in (None, *range(num_players)):
        assert GAME.observe(copy, seat) == GAME.observe(state, seat)
    for _ in range(40):
        if GAME.is_terminal(state):
            break
        seat = min(GAME.decision(state).players)
        action = rng.choice(GAME.legal_actions(state, seat))
        assert [e.to_json() for e in GAME.apply(state, seat, action)] == [e.to_json() for e in GAME.apply(copy, seat, action)]
    assert state_digest(copy) == state_digest(state)


def test_a_full_position_names_every_part_and_its_rules_version() -> None:
    position = GAME.to_position(GAME.new_state(3, 1))
    assert {key: position[key] for key in ("format", "game", "version", "num_players", "seed")} == {
        "format": 1,
        "game": "movie-empire",
        "version": GAME.spec.version,
        "num_players": 3,
        "seed": 1,
    }
    assert list(position)[5:10] == ["seed", "rng_seed", "rng_uses", "round", "phase"]
    assert "table" not in position and "last_round" not in position  # they follow from the options
    assert position["phase"] == "setup" and all(len(dealt) == 3 for dealt in position["dealt"])


def test_a_position_giving_nothing_but_the_seats_is_the_setup_of_its_seed() -> None:
    assert state_digest(GAME.from_position({"num_players": 4, "seed": 9})) == state_digest(GAME.new_state(4, 9))


def test_line_problem_rebuilds_lines_with_the_laying_rules() -> None:
    assert line_problem(TABLE, line("SA09", ["PG04", "PG05", "PB03", "PB01", "PY04", "+PY05", "PJ01:R"], ["ST06"])) is None
    assert line_problem(TABLE, line("SA01", ["PB08", "+PB09", "PJ01:Y", "PJ02:R"])) is None
    skipping = line_problem(TABLE, line("SA03", ["PG01", "PB02", "PR01"]))
    assert skipping is not None and "colour rule" in skipping


def changed(**fields: Any) -> dict[str, Any]:
    return {**example(), **fields}


def per_space(**values: Any) -> list[Any]:
    """A per-space list (NO_SEAT everywhere) with the given spaces set."""
    return [values.get(space, -1) for space in SPACES]


HANDS = example()["hands"]
LINES = example()["lines"]


def with_hand(seat: int, cards: list[str]) -> list[list[str]]:
    return [cards if index == seat else hand for index, hand in enumerate(HANDS)]


def with_line(seat: int, slot: int, value: Any) -> list[list[Any]]:
    lines: list[list[Any]] = json.loads(json.dumps(LINES))
    lines[seat][slot] = value
    return lines


@pytest.mark.parametrize(
    ("position", "field", "rule"),
    [
        # Card conservation (§2.5-§2.7).
        (changed(hands=with_hand(1, ["PR02", "ST06", "SC05"])), "hands[1]", "ST06 is also in hands[0]"),
        (changed(hands=with_hand(2, ["PJ01", "PJ01"])), "hands[2]", "PJ01 is in 3 places, but the deck has 2 copies"),
        (changed(hands=with_hand(2, ["PY03", "XX99"])), "hands[2]", "XX99 is not a production card, star or script"),
        (changed(production_pile=[]), "production_pile", "are nowhere: every production card is in a hand"),
        (changed(star_discard=["SA04"]), "star_discard", "SA04 is a script; this field holds only stars"),
        (changed(trend_row=["TR01", None, "TR15"]), "trend_pile", "with the trend row holds 2 trends; in round 10 it holds 1"),
        (changed(plan=None), "plan", "the plan in force is the one revealed last"),
        # Hand limit (§4.5).
        (changed(hands=with_hand(1, ["PR02", "ST04", "SC05", "PG01", "PG02"])), "hands[1]", "holds 5 cards; a hand holds at most 4"),
        # The line rules, checked by rebuilding each line lay by lay (§4.6).
        (
            changed(lines=with_line(1, 0, {"script": "SC06", "cards": ["PG01", "PY01"]})),
            "lines[1][0]",
            "the colour rule allows only pre-production (G) or shooting (B) at the right end",
        ),
        (
            changed(lines=with_line(1, 0, {"script": "SC06", "cards": ["PG01", "PB02", "PB02"]})),
            "lines[1][0]",
            "each production card may appear once per line",
        ),
        (
            changed(lines=with_line(1, 0, {"script": "SC06", "cards": ["PG01", "PB02"], "stars": ["ST03"]})),
            "lines[1][0]",
            "Sid Lark refuses to play in a comedy movie",
        ),
        (
            changed(lines=with_line(2, 0, {"script": "SD01", "cards": ["PB04", "PJ01"]})),
            "lines[2][0]",
            "has 2 positions, 0 stages",
        ),
        (
            changed(lines=with_line(2, 0, {"script": "SD01", "cards": ["PB04", "PY02"], "stages": [1, 3], "stacked": [None, None]})),
            "lines[2][0]",
            "only a joker chooses its stage",
        ),
        (
            changed(lines=with_line(2, 0, {"script": "SD01", "cards": ["PB04", "PY02"], "stacked": ["PR04", None]})),
            "lines[2][0]",
            "an upgrade is stacked only on its own base card",
        ),
        (changed(lines=with_line(2, 0, {"script": "SD01"})), "lines[2][0]", "has no production card"),
        (
            changed(lines=with_line(1, 1, {"script": "SC05", "cards": ["PB06"]}), hands=with_hand(1, ["PR02", "ST04"])),
            "lines[1]",
            "has 2 open lines at sympathy +0, which allows 1",
        ),
        (
            changed(lines=with_line(0, 1, {"script": "SC07", "cards": ["PB06"], "shut": True})),
            "lines[0][1]",
            "it would have reopened at once",
        ),
        (
            changed(lines=with_line(2, 0, {"script": "SD01", "cards": ["PB04", "PY02"], "locked": True})),
            "lines[2][0]",
            "only a release locks a line",
        ),
        # Money, PP, sympathy, statues, dossiers (§2.2, §2.3, R11, R12, R52, §6).
        (changed(money=[6, 9, -1]), "money[2]", "money is never below 0"),
        (changed(pp=[58, -2, 49]), "pp[1]", "PP go below 0 only through the end-game sympathy"),
        (changed(sympathy=[6, 0, -1]), "sympathy[0]", "the sympathy bar runs from -5 to +5"),
        (changed(statues=[4, 1, 1]), "statues[0]", "is 4 with 3 movies released"),
        (changed(released=[[["SA03", "C", "USA"]], [], []], statues=[0, 0, 0]), "released[0][0]", "whose genre is 'A'"),
        (changed(dossier=[-1, -1, 11]), "dossier[2]", "a dossier comes from rounds 1 to 10"),
        (changed(options={"clean_hands": True}), "dossier[2]", "Clean Hands has no dossiers"),
        (changed(spent=[0, 0, 2]), "spent[2]", "a player spends at most one dossier a round"),
        (changed(round=11), "round", "a game has rounds 1 to 10"),
        (changed(round=9, options={"shoot_a_short": True}, plan=None), "round", "rounds 1 to 7 in Shoot a Short"),
        # The board (§2.4, §4.2-§4.4).
        (changed(assistant=per_space(RL1=0), placed=[1, 0, 0]), "release_line[19]", "RL1 holds seat 0's assistant but designates no line"),
        (changed(assistant=per_space(CC1=1), placed=[0, 0, 0]), "placed[1]", "is 0, but 1 of that seat's assistants are on the board"),
        (changed(assistant=per_space(PS2=2), placed=[0, 0, 1]), "slot_card[1]", "PS2 holds an assistant, so its card was taken"),
        (changed(blocked=per_space(CC1=2)), "spent[2]", "that seat's dossier covers a space this round"),
        (changed(cut_by=per_space(RL1=2)), "cut_by[19]", "Cut! covers another player's assistant on a release space"),
        (changed(slot_card=["ST01", *[None] * 21]), "slot_card[0]", "PS1 holds ST01; a production slot holds production cards"),
        # Whose decision it is (§4.2, §4.7, §4.13).
        (changed(turn_seat=5), "turn_seat", "a 3-player game has seats 0 to 2"),
        (changed(passed=[True, False, False]), "turn_seat", "is seat 0, which has passed"),
        (changed(queue=[[0, 7]]), "queue[0]", "is for seat 7"),
        (changed(queue=[[2, 1]]), "queue[0]", "its 1 open lines are within the 1 allowed"),
        (changed(queue=[[1, 0]]), "queue[0]", "is a line-limit check, which the game makes at once"),
        (changed(sub=3), "sub", "follows a placement, but no assistant was placed this turn"),
        (changed(target=0), "turn_produced", "a produce step is in progress"),
        (changed(drawn=[["PB01"], [], []]), "drawn[0]", "only a Sabotage draw waiting for its keep choice"),
        (changed(phase="gift"), "phase", "not one that gives cards"),
        (changed(phase="grumpy", money=[0, 0, 0]), "exempt_pos", "points at seat 0, who can only decline"),
        (changed(phase="working", exempt_pos=1), "exempt_pos", "after the exemption step every seat (3) has declared"),
        (changed(phase="premiere"), "prem_pos", "points at the release space whose movie premieres now"),
        (changed(phase="premiere", turn_seat=0), "turn_seat", "turns are taken only in the working phase"),
        (changed(phase="upkeep"), "phase", "Upkeep, which waits only for a line shut-down"),
        (changed(phase="setup"), "phase", "setup comes before round 1"),
        (changed(phase="over", round=9), "phase", "the game ends after the premiere phase of round 10"),
        (changed(commit=[["PJ01"], None, None]), "commit[0]", "only the setup keep step and AP12 gifts have one"),
        # Reading the data.
        (changed(hands="PJ01"), "hands", "expected a list, got 'PJ01'"),
        (changed(lines=[[{"script": "SA09", "cards": "PG04"}, None], [None, None], [None, None]]), "lines[0][0].cards", "expected a list"),
        (
            changed(lines=[[{"script": "SA09", "colour": "red"}, None], [None, None], [None, None]]),
            "lines[0][0].colour",
            "is not a field of Line",
        ),
        (changed(colour="red"), "colour", "is not part of a Movie Empire position"),
        (changed(version="0"), "version", "saved under rules version 0"),
        (changed(num_players=5), "num_players", "players"),
    ],
)
def test_an_impossible_position_names_the_field_and_the_rule(position: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(PositionError) as caught:
        GAME.from_position(position)
    assert caught.value.field == field, str(caught.value)
    assert rule in str(caught.value)


def test_a_setup_position_checks_the_keep_step() -> None:
    state = GAME.new_state(2, 3)
    data = GAME.to_position(state)
    dealt = data["dealt"]
    with pytest.raises(PositionError, match=r"commit\[0\]: keeps \['SZ99'\]"):
        GAME.from_position({**data, "commit": [["SZ99"], None]})
    with pytest.raises(PositionError, match="every seat has kept its scripts"):
        GAME.from_position({**data, "commit": [[dealt[0][0]], [dealt[1][0]]]})
    assert state_digest(GAME.from_position({**data, "commit": [[dealt[0][0]], None]})) != state_digest(state)
