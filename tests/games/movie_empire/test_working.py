"""The working phase (§4.2-§4.5): spaces, payments, tasks, passing, and every dossier use (§4.4)."""

from __future__ import annotations

import pytest

from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.actions import Block, Place
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, legal, legal_of, line, play


def places(state: MovieEmpireState, seat: int = 0) -> set[str]:
    return legal_of(state, seat, Place)


def slot(state: MovieEmpireState, space: str) -> str | None:
    return state.slot_card[TABLE.space_by_id[space].index]


# -- spaces and payments ---------------------------------------------------------------------------------


def test_spaces_in_use_per_player_count_and_variant() -> None:
    for players, standard, clean in ((2, 17, 15), (3, 21, 19), (4, 22, 20)):
        assert len(TABLE.spaces_in_use(players, False)) == standard
        assert len(TABLE.spaces_in_use(players, True)) == clean
    assert {s.id for s in TABLE.spaces_in_use(4, False)} - {s.id for s in TABLE.spaces_in_use(3, False)} == {"CC2"}
    assert {s.id for s in TABLE.spaces_in_use(3, False)} - {s.id for s in TABLE.spaces_in_use(3, True)} == {"BN2", "RV1"}


def test_placements_with_no_money_and_an_empty_board() -> None:
    state = position(2, money=[0, 0])
    assert places(state) == {"place CC1", "place BN1", "place FP1"}


def test_all_paid_spaces_with_money() -> None:
    state = position(
        2,
        money=[9, 0],
        hands=[["PB01"], []],
        slots={"PS1": "PB02", "PS2": "PY07", "PS3": "PR06", "SS1": "SA01", "SR1": "ST24"},
    )
    # PR06 on PS3 costs 4+1 = 5, ST24 costs 7: both affordable with 9.
    assert places(state) == {
        "place PS1",
        "place PS2",
        "place PS3",
        "place SS1",
        "place SR1",
        "place CC1",
        "place OT1",
        "place SB1",
        "place DN1",
        "place BN1",
        "place RV1",
        "place FP1",
    }


def test_card_price_is_cost_plus_surcharge() -> None:
    state = position(3, money=[5, 0, 0], slots={"PS5": "PB05"})  # cost 3 + surcharge 3 = 6
    assert "place PS5" not in places(state)
    assert GAME.why_illegal(state, 0, Place("PS5")) == "On Location on Production slot 5 (PS5) costs 6 money; you have 5"
    state.money[0] = 6
    play(state, 0, "place PS5")
    assert state.money[0] == 0 and state.hands[0] == ["PB05"] and slot(state, "PS5") is None


def test_hire_fees_and_income_cannot_pay_them() -> None:
    # R10: the 3rd assistant costs 3 before CC1's +5 is received.
    state = position(2, money=[2, 0], placed=[2, 0])
    assert "place CC1" not in places(state)
    assert GAME.why_illegal(state, 0, Place("CC1")) == "your next assistant costs 3 money; you have 2"
    state.money[0] = 3
    play(state, 0, "place CC1")
    assert state.money[0] == 5
    state = position(2, money=[4, 0], placed=[3, 0])
    play(state, 0, "place FP1")
    assert state.money[0] == 2


def test_space_money_is_paid_after_the_fee() -> None:
    state = position(2, money=[4, 0], placed=[2, 0])
    assert "place OT1" not in places(state)  # fee 3 then 2 for overtime: 5 needed
    assert GAME.why_illegal(state, 0, Place("OT1")) == "Order overtime (OT1) costs 2 money after the hire fee; you have 1"


def test_one_assistant_per_space() -> None:
    state = position(2, money=[5, 5], assistants={"CC1": 1})
    assert "place CC1" not in places(state)
    assert GAME.why_illegal(state, 0, Place("CC1")) == "Charge credit card 1 (CC1) already holds an assistant"


def test_four_assistants_then_skipped() -> None:
    state = position(2, money=[20, 0], placed=[3, 0])
    play(state, 0, "place CC1")
    assert state.placed[0] == 4
    assert state.turn_seat == 1  # nothing else to do: the turn ends by itself
    play(state, 1, "pass")
    assert state.round == 2  # seat 0 had no assistant left, so the working phase ended


# -- passing (R67) --------------------------------------------------------------------------------------------


def test_a_player_who_cannot_place_passes_automatically() -> None:
    state = position(2, money=[0, 0], assistants={"CC1": 1, "BN1": 1, "FP1": 1}, seat=1, placed=[0, 3])
    # Seat 1 starts; seat 0 has no free space it can afford, no produce and no dossier: it passes by itself.
    events = play(state, 1, "pass")
    assert [e.data["seat"] for e in events if e.kind == "passed"] == [1, 0]
    assert state.round == 2


def test_pass_is_refused_after_producing() -> None:
    state = position(2, hands=[["PB01"], []], lines=[[line("SA01", ["PB02"])], []])
    play(state, 0, "produce 1", "lay PB01 right")
    assert "pass" not in legal(state, 0)
    assert (
        GAME.why_illegal(state, 0, GAME.parse_action("pass"))
        == "you produced or used your dossier this turn, so you must place an assistant"
    )


def test_pass_ends_the_working_phase_for_that_player() -> None:
    state = position(2, money=[5, 5])
    play(state, 0, "pass")
    assert state.passed == [True, False] and state.turn_seat == 1
    play(state, 1, "place CC1")
    assert GAME.decision(state).players == (1,)  # seat 0 passed for good: seat 1 plays on


# -- tasks ------------------------------------------------------------------------------------------------------


def test_overtime_draws_two_blind_and_is_allowed_with_an_empty_pile() -> None:
    state = position(2, money=[2, 0], production_pile=["PY01", "PJ01", "PB03"])
    play(state, 0, "place OT1")
    assert state.hands[0] == ["PY01", "PJ01"] and state.production_pile == ["PB03"]
    empty = position(2, money=[2, 0])
    play(empty, 0, "place OT1")  # R14: allowed even if it draws fewer than 2
    assert empty.hands[0] == [] and empty.money[0] == 0


def test_reshuffle_from_the_discard_pile_when_the_pile_runs_out() -> None:
    state = position(2, money=[2, 0], production_pile=["PY01"])
    state.production_discard = ["PB05"]
    play(state, 0, "place OT1")
    assert sorted(state.hands[0]) == ["PB05", "PY01"] and state.production_discard == [] and state.production_pile == []


def test_script_is_free_and_star_is_paid() -> None:
    state = position(2, money=[3, 0], slots={"SS1": "SA01", "SR1": "ST06"})
    play(state, 0, "place SS1")
    assert state.hands[0] == ["SA01"] and state.money[0] == 3
    state = position(2, money=[3, 0], slots={"SR1": "ST06"})
    play(state, 0, "place SR1")
    assert state.hands[0] == ["ST06"] and state.money[0] == 0


def test_denounce_costs_1_and_everyone_else_loses_1() -> None:
    state = position(3, money=[1, 0, 0], sympathy=[0, 5, -5])
    play(state, 0, "place DN1")
    assert state.money[0] == 0 and state.sympathy == [0, 4, -5]


def test_be_nice_plus_one_and_clamped() -> None:
    state = position(2, sympathy=[5, 0])
    play(state, 0, "place BN1")
    assert state.sympathy[0] == 5


def test_first_player_space_gives_2_and_the_marker() -> None:
    state = position(3, money=[0, 0, 0], first_player=1, seat=1)
    play(state, 1, "place FP1")
    assert state.money[1] == 2
    state = position(3, money=[0, 0, 0], first_player=1, seat=1)
    play(state, 1, "place FP1")
    for seat in (2, 0, 1):
        if state.turn_seat == seat and not state.passed[seat]:
            play(state, seat, "pass")
    # R61: the taker stays first player even if already first.
    assert state.first_player == 1 and state.round == 2


def test_first_player_marker_passes_left_without_fp1() -> None:
    state = position(3, first_player=2, seat=2)
    for seat in (2, 0, 1):
        play(state, seat, "pass")
    assert state.first_player == 0 and state.round == 2


# -- releases -------------------------------------------------------------------------------------------------


def test_release_needs_a_blue_card_and_locks_the_line() -> None:
    state = position(2, lines=[[line("SC04", ["PG01"])], []])
    assert not {"place RL1", "place RL2", "place RL3"} & places(state)
    state = position(2, lines=[[line("SC04", ["PG01", "PJ01:B"])], []])  # R35: a joker chosen B counts
    play(state, 0, "place RL2")
    movie = state.lines[0][0]
    assert movie is not None and movie.locked and state.release_line[TABLE.space_by_id["RL2"].index] == 0


def test_two_releases_for_two_lines_and_the_line_choice() -> None:
    state = position(2, sympathy=[2, 0], lines=[[line("SA01", ["PB01"]), line("SC02", ["PB02"])], []])
    play(state, 0, "place RL1")
    assert GAME.decision(state).kind == "release" and legal(state, 0) == {"release 1", "release 2"}
    play(state, 0, "release 2")
    play(state, 1, "pass")
    play(state, 0, "place RL2")  # only line 1 is left: designated at once
    assert state.release_line[TABLE.space_by_id["RL1"].index] == 1
    assert state.release_line[TABLE.space_by_id["RL2"].index] == 0


def test_produce_then_release_the_same_line_in_one_turn() -> None:
    state = position(2, hands=[["PB01"], []], lines=[[line("SA08", ["PG01"])], []])
    assert not {"place RL1"} & places(state)
    play(state, 0, "produce 1", "lay PB01 right", "place RL1")
    movie = state.lines[0][0]
    assert movie is not None and movie.locked


# -- the Sabotage swap ---------------------------------------------------------------------------------------


def test_sabotage_swap_card_then_slot() -> None:
    state = position(2, hands=[["PB01", "PB01", "SA01"], []], slots={"PS1": "PY07", "PS3": "PR06"})
    play(state, 0, "place SB1")
    assert GAME.decision(state).kind == "swap" and legal(state, 0) == {"swap PB01"}
    play(state, 0, "swap PB01")
    assert legal(state, 0) == {"take PS1", "take PS3"}
    play(state, 0, "take PS3")
    assert sorted(state.hands[0]) == ["PB01", "PR06", "SA01"] and slot(state, "PS3") == "PB01" and state.money[0] == 0


def test_sabotage_swap_needs_a_production_card_and_a_takeable_slot() -> None:
    state = position(2, hands=[["SA01"], []], slots={"PS1": "PY07"})
    assert "place SB1" not in places(state)
    assert GAME.why_illegal(state, 0, Place("SB1")) == "a swap needs a production card in your hand"
    state = position(2, hands=[["PB01"], []], slots={"PS1": "PB02"}, plan="AP04")
    assert GAME.why_illegal(state, 0, Place("SB1")) == "no production slot holds a card you may take"


# -- dossiers (§4.4) --------------------------------------------------------------------------------------------


def test_reveal_a_secret_gives_a_dossier_usable_next_round() -> None:
    state = position(2, money=[4, 0], round=3)
    play(state, 0, "place RV1")
    assert state.dossier[0] == 3 and state.money[0] == 0
    assert "purge" not in legal(state, 0)  # R51: not usable before the next round
    assert "place RV1" not in places(position(2, money=[9, 0], dossier=[2, None]))  # at most one dossier


def test_usable_dossier_options_in_the_turn_menu() -> None:
    state = position(2, money=[0, 0], round=3, dossier=[2, None], assistants={"RL1": 1}, lines=[[], [line("SA01", ["PB01"], locked=True)]])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    assert {"purge", "cut RL1", "place BN1 dossier", "place BN2 dossier", "place SB1 dossier"} <= legal(state, 0)
    assert not any(text.startswith("block") for text in legal(state, 0))  # R53: Block comes after the placement
    play(state, 0, "place CC1")
    blocks = {text for text in legal(state, 0) if text.startswith("block")}
    assert "block OT1" in blocks and "block CC1" not in blocks and "block RL1" not in blocks


def test_be_nice_with_a_dossier_gives_two_and_bn2_needs_one() -> None:
    state = position(2, round=2, dossier=[1, None])
    play(state, 0, "place BN1 dossier")
    assert state.sympathy[0] == 2 and state.dossier[0] == -1 and state.spent[0] == 1
    state = position(2, round=2)
    assert GAME.why_illegal(state, 0, Place("BN2")) == "Be nice to Grumpy with a dossier (BN2) is the dossier space: place BN2 dossier"
    assert GAME.why_illegal(state, 0, Place("BN2", True)) == (
        "you have no dossier you may use this round (it must be taken in an earlier round)"
    )
    state = position(2, round=2, dossier=[1, None])
    play(state, 0, "place BN2 dossier")
    assert state.sympathy[0] == 2


def test_block_covers_a_space_for_everyone() -> None:
    state = position(2, money=[0, 5], round=2, dossier=[1, None], slots={"PS1": "PB01"})
    play(state, 0, "place CC1", "block PS1")
    assert state.blocked[TABLE.space_by_id["PS1"].index] == 0 and slot(state, "PS1") == "PB01"
    assert "place PS1" not in places(state, 1)
    assert GAME.why_illegal(state, 1, Place("PS1")) == "Production slot 1 (PS1) is covered by a dossier this round"


def test_purge_discards_the_three_lowest_uncovered_slides_and_refills() -> None:
    # PS2 is covered by a block; PS4 holds an assistant (its card was taken).
    state = position(
        3,
        round=2,
        dossier=[1, None, None],
        slots={"PS1": "PB01", "PS2": "PB02", "PS3": "PB03", "PS4": None, "PS5": "PY07"},
        production_pile=["PR01", "PR02", "PR03"],
        assistants={"PS4": 1},
    )
    state.blocked[TABLE.space_by_id["PS2"].index] = 2
    state.placed = [0, 1, 0]
    play(state, 0, "purge")
    # Discard PS1, PS3, PS5 (the three lowest uncovered slots with a card). Nothing is left to slide.
    assert sorted(state.production_discard) == ["PB01", "PB03", "PY07"]
    assert [slot(state, s) for s in ("PS1", "PS2", "PS3", "PS4", "PS5")] == ["PR01", "PB02", "PR02", None, "PR03"]


def test_purge_slides_remaining_cards_down_below_covered_slots() -> None:
    state = position(
        3,
        round=2,
        dossier=[1, None, None],
        slots={"PS1": "PB01", "PS2": "PB02", "PS3": "PB03", "PS4": "PB04", "PS5": "PY07"},
        production_pile=["PR01", "PR02", "PR03"],
    )
    play(state, 0, "purge")
    # PB01-PB03 go; PB04 and PY07 slide to PS1 and PS2; PS3-PS5 are refilled in draw order.
    assert [slot(state, s) for s in ("PS1", "PS2", "PS3", "PS4", "PS5")] == ["PB04", "PY07", "PR01", "PR02", "PR03"]


def test_cut_costs_one_sympathy_now_and_the_release_does_not_premiere() -> None:
    victim_line = line("SA01", ["PB01"], locked=True)
    state = position(2, round=3, dossier=[2, None], lines=[[], [victim_line]], assistants={"RL1": 1}, placed=[0, 1])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    play(state, 0, "cut RL1")
    assert state.sympathy[0] == -1 and state.cut_by[TABLE.space_by_id["RL1"].index] == 0
    assert "cut RL1" not in legal(state, 0)
    play(state, 0, "place CC1")
    play(state, 1, "pass")
    play(state, 0, "pass")
    # Premieres: the cut release is skipped; 2 players have no Internet. Upkeep: the user loses 1 more (R56).
    assert state.round == 4 and state.released == [[], []] and state.sympathy[0] == -2
    kept = state.lines[1][0]
    assert kept is not None and kept.cards == ("PB01",) and not kept.locked


def test_cut_tells_the_table_who_cut_whose_release_and_what_it_cost() -> None:
    """R56: Cut! spends the dossier, covers another player's release assistant and costs its user 1 sympathy at once;
    the log says each, in that order."""
    victim_line = line("SA01", ["PB01"], locked=True)
    state = position(2, round=3, dossier=[2, None], lines=[[], [victim_line]], assistants={"RL1": 1}, placed=[0, 1])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    events = GAME.apply(state, 0, GAME.parse_action("cut RL1"))
    assert [(event.kind, event.data, event.audience) for event in events] == [
        ("dossier_spent", {"seat": 0, "use": "cut"}, None),
        ("cut", {"seat": 0, "space": "RL1", "victim": 1}, None),
        ("sympathy", {"seat": 0, "change": -1, "level": -1, "cause": "cut"}, None),
    ]
    assert [GAME.describe_event(event, state, ["Ann", "Bob"]) for event in events[1:]] == [
        "Ann says Cut! with a black dossier on Bob's release at Release space 1: it will not premiere in a market this round.",
        "Ann loses 1 sympathy (said Cut!): now -1.",
    ]


def test_dossier_refusals_name_the_rule() -> None:
    """R52-R56: a dossier is needed, usable from the round after it was taken (not in Clean Hands), Block comes after
    the placement and covers a free space, Cut! needs another player's release assistant."""

    def refusals(state: MovieEmpireState) -> list[str]:
        return [GAME.why_illegal(state, 0, GAME.parse_action(text)) for text in ("block CC1", "cut RL1", "purge")]

    assert refusals(position(2, round=3, options={"clean_hands": True})) == ["there are no dossiers in Clean Hands"] * 3
    assert refusals(position(2, round=3, dossier=[None, None])) == ["you have no dossier"] * 3
    taken_now = position(2, round=3, dossier=[3, None])
    assert refusals(taken_now) == ["a dossier is usable only from the round after you took it"] * 3
    usable = position(2, round=3, dossier=[2, None])
    assert "place BN1 dossier" in legal(usable, 0)  # taken in round 2, usable in round 3
    assert GAME.why_illegal(usable, 0, GAME.parse_action("block CC1")) == "Block comes after your placement"
    assert GAME.why_illegal(usable, 0, GAME.parse_action("cut RL1")) == (
        "Release space 1 (RL1) does not hold another player's release assistant that is not already cut"
    )
    placed = position(2, round=3, dossier=[2, None], placed=[1, 0], assistants={"CC1": 1})
    placed.turn_placed = True
    assert "block CC1" not in legal(placed, 0) and "block BN1" in legal(placed, 0)
    assert GAME.why_illegal(placed, 0, GAME.parse_action("block CC1")) == "block a free space, after your placement"


def test_sabotage_dossier_draws_five_keeps_two() -> None:
    state = position(
        2, round=2, dossier=[1, None], hands=[["SA01", "ST04", "PB01"], []], production_pile=["PY01", "PY02", "PY03", "PJ01", "PR01"]
    )
    play(state, 0, "place SB1 dossier")
    assert GAME.decision(state).kind == "sabotage_keep"
    assert len(GAME.legal_actions(state, 0)) == 10
    play(state, 0, "keep PJ01,PY01")
    assert sorted(state.production_discard) == ["PR01", "PY02", "PY03"]
    assert GAME.decision(state).kind == "discard"  # 5 cards in hand now
    play(state, 0, "discard SA01")
    assert "stop" in legal(state, 0)


def test_exemption_by_dossier_counts_for_the_upkeep_penalty() -> None:
    state = position(3, round=2, phase="grumpy", dossier=[1, None, None], plan_pile=["AP09", "AP13"], trend_row=["TR01", "TR02", "TR03"])
    from greenlight.games.movie_empire import rounds
    from greenlight.games.movie_empire.flow import advance

    rounds.begin_round(state, [])
    advance(state, [])
    play(state, 0, "exempt dossier")
    play(state, 1, "exempt decline")
    play(state, 2, "exempt decline")
    assert state.exempt == [True, False, False] and state.spent == [1, 0, 0]
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    assert state.sympathy == [0, -1, -1]  # 3 players: every other player loses 1


@pytest.mark.parametrize("players", [2, 3])
def test_clean_hands_has_no_dossier_options(players: int) -> None:
    state = position(players, money=[9] * players, round=3, dossier=[2] + [None] * (players - 1), options={"clean_hands": True})
    texts = legal(state, 0)
    assert not {"purge", "place RV1", "place BN2 dossier", "place BN1 dossier", "place SB1 dossier"} & texts
    assert GAME.why_illegal(state, 0, Block("OT1")) == "there are no dossiers in Clean Hands"


def test_fast_placement_list_agrees_with_the_rules_text() -> None:
    """``available_places`` (fast path) and ``place_problem`` (the refusal reasons) never disagree."""
    import random

    from greenlight.games.movie_empire.working import available_places, in_use, place_problem

    checked = 0
    for seed in range(12):
        state = GAME.new_state(2 + seed % 3, seed, {"clean_hands": seed % 4 == 3})
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            decision = GAME.decision(state)
            if decision.kind == "turn" and not state.turn_placed:
                seat = decision.players[0]
                expected = [
                    f"place {space.id}" + (" dossier" if dossier else "")
                    for space in in_use(state)
                    for dossier in (False, True)
                    if place_problem(state, seat, space, dossier) is None
                ]
                assert [str(a) for a in available_places(state, seat)] == expected
                checked += 1
            seat = rng.choice(decision.players)
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 300


def test_cut_needs_a_turn_with_a_placement() -> None:
    victim_line = line("SA01", ["PB01"], locked=True)
    busy = {"CC1": 1, "BN1": 1, "BN2": 1, "SB1": 1, "FP1": 1, "RL1": 1}
    state = position(2, money=[0, 0], round=3, dossier=[2, None], lines=[[], [victim_line]], assistants=busy, placed=[0, 4])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    # No space seat 0 can afford or use, and a Purge cannot change that (every production card costs at least 1):
    # neither Purge nor Cut! may come first (§4.4, R53, R67); the seat must pass.
    assert legal(state, 0) == {"pass"}
    state.money[0] = 2
    assert legal(state, 0) == {"pass", "purge", "place OT1", "place DN1", "cut RL1"}


def test_purge_before_the_placement_only_when_it_could_open_a_space() -> None:
    """§4.4: free actions only in a turn with a placement; R67: a seat that cannot place even after a Purge must pass."""
    busy = {"CC1": 1, "BN1": 1, "BN2": 1, "SB1": 1, "FP1": 1, "OT1": 1, "DN1": 1, "RL1": 1}
    expensive = {"PS1": "PB08", "PS2": "PY07", "PS3": "PR06"}  # 4, 4 and 4+1 money
    state = position(
        2,
        money=[1, 0],
        round=3,
        dossier=[2, None],
        slots=expensive,
        assistants=busy,
        placed=[0, 4],
        production_pile=["PB01", "PG01", "PY01"],
    )
    # Nothing is affordable now, but a Purge refills PS1-PS3 and a 1-money card on PS1 or PS2 could come up.
    assert legal(state, 0) == {"pass", "purge"}
    play(state, 0, "purge")
    assert legal(state, 0) == {"place PS1", "place PS2"}  # Catering and Casting Call (1 each); no pass now
    # PS1 holds an assistant and PS2 is covered: only PS3 (surcharge 1) could change, and no card there costs 1.
    state = position(2, money=[1, 0], round=3, dossier=[2, None], slots={"PS3": "PR06"}, assistants={**busy, "PS1": 1}, placed=[0, 4])
    state.blocked[TABLE.space_by_id["PS2"].index] = 1
    assert legal(state, 0) == {"pass"}
    assert GAME.why_illegal(state, 0, GAME.parse_action("purge")) == (
        "you cannot place an assistant this turn, even after a produce step or a Purge, so you must pass (free actions need a placement)"
    )
