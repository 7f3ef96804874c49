"""Maybe Movies positions: written by hand with defaults, read back exactly, and refused when no game can reach them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.positions import PositionError
from greenlight.core.registry import get_game
from greenlight.core.state import state_digest
from greenlight.games.maybe_movies.budget import ChoicePoint
from greenlight.games.maybe_movies.cards import EXAMPLE_CATALOGUE
from greenlight.games.maybe_movies.state import MaybeMoviesState

GAME = get_game("maybe-movies")
EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "positions" / "maybe-movies.json"
EVERYTHING = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}
CHANGES = {"breaking_changes": True, "blockbuster_budgets": True}


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def play_out(state: MaybeMoviesState, seed: int) -> None:
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        seat = min(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_the_documented_example_loads_with_its_defaults_and_plays_to_the_end() -> None:
    state = GAME.from_position(example())
    # Turn 10 is seat 1's; a row means the pitch is locked and the vote is on, with every seat holding cards voting.
    assert (state.active, state.phase, state.pitched, state.voters) == (1, "vote", ("M25", "B11"), (0, 1, 2, 3))
    # The CHANGE cards nobody holds were played (out of play, by number); the other votes lie in the pool, the movies in the pile.
    assert state.out_of_play == ["C01", "C02", "C04", "C06", "C07", "C08"]
    assert len(state.pool) + sum(map(len, state.hands)) - 2 + sum(map(len, state.won)) == 60
    assert len(state.draw_pile) == 60 - 6 - 2 - 8 - 3 - 3
    ann, cleo = GAME.observe(state, 0), GAME.observe(state, 2)
    assert (ann["my_vote"], cleo["my_vote"], cleo["committed"]) == ("Y04", None, [0])
    assert cleo["scores"] == [2, 6, 8, 4]
    text = GAME.render_text(cleo)
    assert "Friendship (B11): blockbuster, cost: 1 of any icon per change" in text
    assert "Your hand:[/bold] CHANGE 5 (C05), YES actors 3 (Y13), NO money 2 (N29)" in text
    play_out(state, 3)
    assert len(GAME.outcome(state).scores) == 4


def reach(options: dict[str, bool], until: Callable[[MaybeMoviesState], bool], players: int = 4) -> MaybeMoviesState:
    """The first state of seeded random games that meets ``until``."""
    for seed in range(40):
        state: MaybeMoviesState = GAME.new_state(players, seed, options)
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            if until(state):
                return state
            seat = rng.choice(sorted(GAME.decision(state).players))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    raise AssertionError("no game reached the state wanted")


MIDGAME = {
    "base game, turn 4": ({}, lambda state: state.turn == 4 and state.phase == "vote"),
    "trendsetter, the movie pick": ({"trendsetter_tricks": True}, lambda state: state.phase == "movie_pick" and state.turn > 2),
    "a CHANGE edit after a removal": (CHANGES, lambda state: state.phase == "change_edit" and state.edit_step == "add"),
    "the slot of a CHANGE edit": (EVERYTHING, lambda state: state.edit_step == "slot"),
    "a cost choice": (EVERYTHING, lambda state: state.phase == "cost_choice"),
}


@pytest.mark.parametrize("case", list(MIDGAME))
def test_a_position_read_back_is_the_same_state_and_plays_on_the_same(case: str) -> None:
    options, until = MIDGAME[case]
    state = reach(options, until)
    position = GAME.to_position(state)
    copy = GAME.from_position(json.loads(json.dumps(position)))
    assert state_digest(copy) == state_digest(state)
    for seat in (None, 0, 1, 2, 3):
        assert GAME.observe(copy, seat) == GAME.observe(state, seat)
    for _ in range(30):
        if GAME.is_terminal(state):
            break
        seat = min(GAME.decision(state).players)
        action = GAME.legal_actions(state, seat)[-1]
        assert [e.to_json() for e in GAME.apply(state, seat, action)] == [e.to_json() for e in GAME.apply(copy, seat, action)]
    assert state_digest(copy) == state_digest(state)


def test_a_full_position_names_its_seed_and_lists_the_game_before_the_turn() -> None:
    position = GAME.to_position(GAME.new_state(3, 7, {"breaking_changes": True}))
    assert {key: position[key] for key in ("format", "game", "version", "num_players", "seed")} == {
        "format": 1,
        "game": "maybe-movies",
        "version": GAME.spec.version,
        "num_players": 3,
        "seed": 7,  # the catalogue is generated from it: without it the card ids would name other cards
    }
    assert list(position)[6:10] == ["turn", "active", "phase", "hands"]
    assert list(position)[-1] == "rng" and len(position["rng"]["stream"][1]) == 625
    assert sum(map(len, position["hands"])) == 36 and len(position["out_of_play"]) == 0


def test_a_data_file_catalogue_needs_no_seed_and_reads_back() -> None:
    state = GAME.new_state(3, 5, {"data": str(EXAMPLE_CATALOGUE)})
    position = GAME.to_position(state)
    assert "seed" not in position
    assert state_digest(GAME.from_position(json.loads(json.dumps(position)))) == state_digest(state)
    with pytest.raises(PositionError, match=r"X01 is not a card of the catalogue of .*seed0_catalogue\.json"):
        GAME.from_position({**position, "market": ["X01", *position["market"][1:]]})


def test_a_hand_written_cost_choice_gets_its_open_choice_from_the_final_vote() -> None:
    deal = GAME.new_state(3, 0, {"blockbuster_budgets": True})
    final = [hand[0] for hand in deal.hands]
    position = {
        "game": "maybe-movies",
        "num_players": 3,
        "options": {"blockbuster_budgets": True},
        "phase": "cost_choice",
        "hands": [hand[1:] for hand in deal.hands],
        "row": ["M10", "B01", "M08"],  # B01 copies the cost of its bigger neighbour: both have two icons
        "rounds": [final],
    }
    state = GAME.from_position(position)
    assert state.pitched == ("M10", "B01", "M08")
    assert state.choice_point == ChoicePoint("copy", "B01", ("M10", "M08"))
    assert [str(action) for action in GAME.legal_actions(state, 0)] == ["copy M10", "copy M08"]
    play_out(state, 1)


def changed(**fields: Any) -> dict[str, Any]:
    return {**example(), **fields}


HANDS = example()["hands"]
WON = example()["won"]
START = {"game": "maybe-movies", "num_players": 4}


@pytest.mark.parametrize(
    ("position", "field", "rule"),
    [
        # Every card in exactly one place, of a kind that place holds, in play with these options and seats.
        (changed(hands=[HANDS[0], ["Y14", "Y04"], *HANDS[2:]]), "hands[1]", "Y04 is also in hands[0]"),
        (changed(hands=[["Y04", "X99"], *HANDS[1:]]), "hands[0]", "X99 is not a card of the catalogue generated from seed 0"),
        (changed(market=["M39", "M32", "M06", "M04", "M30", "Y01"]), "market", "Y01 is a vote card"),
        (changed(won=[[*WON[0], "C01"], *WON[1:]]), "won[0]", "a played CHANGE card leaves the game, never won nor pooled"),
        (changed(hands=[*HANDS[:3], ["N02", "C09"]]), "hands[3]", "C09 is CHANGE 9; at 4 players only CHANGE 1 to 8 are dealt"),
        (changed(options={"breaking_changes": True}), "row", "blockbusters join the movie deck only with Blockbuster Budgets"),
        (changed(pool=[]), "pool", "are nowhere; every vote card is in a hand, the pool or a won area"),
        (changed(draw_pile=["M03"]), "draw_pile", "are nowhere; every movie card is in the draw pile, the market"),
        # Hands, the market, personal cards and Movies Made.
        ({**START, "turn": 3}, "hands[0]", "holds 10 cards; at the pitch in turn 3 every hand holds 8"),
        (changed(hands=[["Y04", "N20", "C03", "N30"], *HANDS[1:]]), "hands[0]", "after 9 final votes a hand holds at most 3"),
        (changed(turn=2, hands=[[*HANDS[0], "C01", "C02"], *HANDS[1:]]), "hands[0]", "holds 3 CHANGE cards; each seat is dealt exactly 2"),
        (changed(turn=13), "turn", "a seat casts at most 12 final votes"),
        (changed(known=[[], ["Y01"], [], []]), "known[1]", "Y01 is known to be in that hand but is not in it"),
        (changed(market=["M39", "M32", "M06", "M04", "M30", "M17", "M18"]), "market", "the market holds at most 6"),
        (changed(market=["M39", "M32", "M06", "M04", "M30"]), "market", "it is refilled to 6 as soon as the pitch is locked"),
        (changed(personal=[["M07", "M16", "M18"], *example()["personal"][1:]]), "personal[0]", "a seat has at most 2"),
        (
            changed(made=[{"cards": ["M01", "M02"], "top": "M01", "success": True}], discard=["M20", "M43"]),
            "made[0]",
            "without Trendsetter Tricks one card of a successful pitch enters Movies Made",
        ),
        (changed(made=[{"cards": ["M01"], "top": "M02", "success": True}]), "made[0].top", "M02 is not one of the stack's cards"),
        (changed(made=[{"cards": ["M01"], "top": "M01"}]), "made[0].success", "is missing"),
        # The turn, the decision point and who owes it.
        (changed(active=0), "active", "turn 10 is seat 1's: P0 starts and the turn passes clockwise"),
        (changed(phase="intermission"), "phase", "the decision points are pitch, vote, change_edit"),
        (changed(phase="pitch"), "row", "holds 2 cards with 6 left in the market"),
        ({**START, "phase": "over"}, "phase", "the game ends when every hand is empty"),
        (changed(votes=["Y14", None, None, None]), "votes[0]", "Y14 is not in that seat's hand"),
        (changed(votes=["Y04", "Y14", "C05", "Y09"]), "votes", "are all chosen, so they would already have been revealed"),
        (changed(voters=[0, 1, 2]), "voters", "every seat with cards in hand votes, and only those"),
        (changed(hands=[*HANDS[:3], ["N02"]]), "votes[3]", "holds a single card, which is voted at once"),
        (changed(pitched=["M25"]), "row", "differs from the pitch as locked, but no CHANGE edit has been made"),
        (changed(rounds=[["Y04", "Y14", "Y13", "Y09"]], votes=[None] * 4), "rounds[0]", "reveals no CHANGE card, so it was the final vote"),
        (changed(cost_choices=["M25"]), "cost_choices", "cost choices are made after the final vote"),
        # What the decoder refuses.
        (changed(hands="Y04"), "hands", "expected a list, got 'Y04'"),
        (changed(colour="red"), "colour", "is not part of a Maybe Movies position"),
    ],
)
def test_an_impossible_position_names_the_field_and_the_rule(position: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(PositionError) as caught:
        GAME.from_position(position)
    assert caught.value.field == field
    assert rule in str(caught.value)


def edit_in_progress() -> dict[str, Any]:
    return GAME.to_position(
        reach(CHANGES, lambda state: state.phase == "change_edit" and state.edit_step == "start" and len(state.change_queue) > 1)
    )


def cost_choice() -> dict[str, Any]:
    return GAME.to_position(reach(EVERYTHING, lambda state: state.phase == "cost_choice"))


def movie_pick() -> dict[str, Any]:
    return GAME.to_position(reach({}, lambda state: state.phase == "movie_pick" and state.turn > 1))


def swap_queue(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "change_queue": position["change_queue"][::-1]}


def other_choice(position: dict[str, Any]) -> dict[str, Any]:
    point = position["choice_point"]
    return {**position, "choice_point": {**point, "options": point["options"][::-1]}}


def failed_check(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "result": {**position["result"], "success": False}}


def lost_payout(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "settlement": None}


def extra_edit(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "edits": position["edits"] + 1}


@pytest.mark.parametrize(
    ("reached", "change", "field", "rule"),
    [
        (edit_in_progress, swap_queue, "change_queue", "every CHANGE-voter edits once, lowest number first"),
        (edit_in_progress, extra_edit, "edits", "K counts them"),
        (edit_in_progress, lambda position: {**position, "edit_step": "add"}, "edit_step", "the edit has removed a card and not yet added"),
        (cost_choice, other_choice, "choice_point", "is not the choice open now"),
        (
            cost_choice,
            lambda position: {**position, "cost_choices": [position["choice_point"]["options"][0]]},
            "phase",
            "every cost choice",
        ),
        (movie_pick, failed_check, "result", "is not the success check of the evaluation and the final vote"),
        (movie_pick, lost_payout, "settlement", "at the movie pick the payout or failure has been settled"),
    ],
)
def test_an_impossible_turn_in_progress_names_the_field_and_the_rule(
    reached: Callable[[], dict[str, Any]], change: Callable[[dict[str, Any]], dict[str, Any]], field: str, rule: str
) -> None:
    position = reached()
    GAME.from_position(position)  # as reached, it is possible
    with pytest.raises(PositionError) as caught:
        GAME.from_position(json.loads(json.dumps(change(position))))
    assert caught.value.field == field
    assert rule in str(caught.value)
