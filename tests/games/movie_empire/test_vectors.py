"""The worked test vectors V1-V10 of rules §9, each with its exact numbers."""

from __future__ import annotations

import pytest

from greenlight.core.events import Event
from greenlight.games.movie_empire import GAME, rounds
from greenlight.games.movie_empire.actions import Lay, Star
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.lines import apply_lay, lay_actions, metrics, production_pp
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.scoring import final_breakdown, rank
from greenlight.games.movie_empire.state import GRUMPY, PREMIERE, WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import releasable, release_problem
from tests.games.movie_empire.helpers import TABLE, legal, legal_of, line, play

# V1's line: Script Doctor, Rehearsals, Stunts, Catering, Soundtrack + Soundtrack*, Director chosen R; one star.
V1_CARDS = ["PG04", "PG05", "PB03", "PB01", "PY04", "+PY05", "PJ01:R"]


# -- V1: the 10-point production line ---------------------------------------------------------


def test_v1_production_line_scores_10_with_period_6() -> None:
    movie = line("SA09", V1_CARDS, ["ST04"])
    m = metrics(TABLE, movie)
    assert production_pp(TABLE, movie) == 10
    assert m.period == 6
    assert m.counts == (2, 2, 1, 1)


# -- V2: the 9-point script ----------------------------------------------------------------------


def test_v2_alien_huntress_met_scores_9() -> None:
    m = metrics(TABLE, line("SA09", V1_CARDS, ["ST04"]))
    assert m.script_met
    assert TABLE.scripts["SA09"].pp == 9


def test_v2_director_as_yellow_breaks_the_script() -> None:
    yellow = line("SA09", [*V1_CARDS[:-1], "PJ01:Y"], ["ST04"])
    m = metrics(TABLE, yellow)
    assert m.counts == (2, 2, 2, 0)
    assert not m.script_met
    # Right of Y the Director may be Y or R: both are legal lays.
    assert {str(a) for a in lay_actions(TABLE, line("SA09", V1_CARDS[:-1]), ["PJ01"]) if isinstance(a, Lay) and a.end == "right"} == {
        "lay PJ01 right Y",
        "lay PJ01 right R",
    }


# -- V3: laying legality ----------------------------------------------------------------------------

V3_BASE = ["PG01", "PB02"]  # Casting Call (G), Extras (B); script SA03 (A, 1/2/0/0)


@pytest.mark.parametrize(
    ("case", "hand", "action", "legal_lay"),
    [
        ("a soundtrack right", ["PY04"], Lay("PY04", "right"), True),
        ("b poster right skips Y", ["PR01"], Lay("PR01", "right"), False),
        ("c storyboard left", ["PG03"], Lay("PG03", "left"), True),
        ("d catering left of G", ["PB01"], Lay("PB01", "left"), False),
        ("e second Extras", ["PB02"], Lay("PB02", "right"), False),
        ("h editor left as G", ["PJ03"], Lay("PJ03", "left", "G"), True),
        ("i Pippa Moss bans A", ["ST02"], Star("ST02"), False),
        ("j Sid Lark bans C", ["ST03"], Star("ST03"), True),
        ("k Pyrotechnics* standalone", ["PB09"], Lay("PB09", "right"), True),
    ],
)
def test_v3_part1_single_lays(case: str, hand: list[str], action: Lay | Star, legal_lay: bool) -> None:
    base = line("SA03", V3_BASE)
    assert (action in lay_actions(TABLE, base, hand)) is legal_lay, case


def test_v3_f_no_insertion_between_positions() -> None:
    # Crane Shot (B) can only go at an end: right of Extras, never between Casting Call and Extras.
    assert {str(a) for a in lay_actions(TABLE, line("SA03", V3_BASE), ["PB06"])} == {"lay PB06 right"}


def test_v3_g_director_right_as_b_or_y_only() -> None:
    assert {str(a) for a in lay_actions(TABLE, line("SA03", V3_BASE), ["PJ01"]) if isinstance(a, Lay) and a.end == "right"} == {
        "lay PJ01 right B",
        "lay PJ01 right Y",
    }


def test_v3_h_editor_left_as_g_only() -> None:
    assert {str(a) for a in lay_actions(TABLE, line("SA03", V3_BASE), ["PJ03"]) if isinstance(a, Lay) and a.end == "left"} == {
        "lay PJ03 left G"
    }


def test_v3_k_standalone_upgrade_then_base_illegal_and_scores_1() -> None:
    base = line("SA03", V3_BASE)
    after = apply_lay(TABLE, base, Lay("PB09", "right"))
    assert lay_actions(TABLE, after, ["PB08"]) == []
    assert production_pp(TABLE, after) == 1 + 1 + 1  # Casting Call 1, Extras 1, standalone upgrade 1


def test_v3_l_locked_line_takes_nothing() -> None:
    locked = line("SA03", V3_BASE, locked=True)
    state = position(2, money=[10, 0], hands=[["PY04", "PB06", "ST03", "PJ01"], []], lines=[[locked], []])
    assert legal_of(state, 0, GAME.parse_action("produce 1").__class__) == set()
    state.target, state.turn_produced = 0, True  # even forced into a produce step, nothing could be laid
    assert GAME.why_illegal(state, 0, Lay("PY04", "right")) != ""


def test_v3_l_designated_by_release_then_locked() -> None:
    state = position(2, hands=[["PY04", "PB06", "ST03"], []], lines=[[line("SA03", V3_BASE)], []])
    play(state, 0, "place RL1")
    assert state.lines[0][0] is not None and state.lines[0][0].locked
    assert "produce 1" not in legal(state, 0)


def test_v3_part2_exact_legal_set_is_six() -> None:
    state = position(2, hands=[["PB09", "PJ01", "PY01"], []], lines=[[line("SA01", ["PB08"])], []], placed=[1, 0])
    state.turn_placed = True
    play(state, 0, "produce 1")
    assert legal(state, 0) == {
        "stack PB09",
        "lay PJ01 right B",
        "lay PJ01 right Y",
        "lay PJ01 left G",
        "lay PJ01 left B",
        "lay PY01 right",
    }
    play(state, 0, "stack PB09")
    movie = state.lines[0][0]
    assert movie is not None and movie.period == 1 and movie.stacked == ("PB09",)


# -- V4: scoring a premiere --------------------------------------------------------------------------


def _v4_state() -> MovieEmpireState:
    movie = line("SA09", V1_CARDS, ["ST06"], locked=True)
    # P2's release on RL2 keeps the premiere phase open after P1's premiere.
    waiting = line("SD01", ["PB02"], locked=True)
    state = position(
        3,
        round=4,
        phase=PREMIERE,
        sympathy=[1, 0, -5],
        lines=[[movie], [waiting], []],
        assistants={"RL1": 0, "RL2": 1},
        trend_row=["TR05", "TR06", "TR03"],
    )
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    state.release_line[TABLE.space_by_id["RL2"].index] = 0
    return state


def test_v4_premiere_in_europe_scores_26() -> None:
    state = _v4_state()
    assert legal(state, 0) == {"market USA", "market EUR", "market CHN"}
    events = play(state, 0, "market EUR")
    premiere = next(e for e in events if e.kind == "premiere").data
    assert premiere["parts"] == {"market": 2, "trend": 1, "script": 9, "stars": 2, "period": 2, "production": 10}
    assert premiere["total"] == 26
    assert state.pp == [26, 0, 0]
    assert state.sympathy == [1, -1, -5]
    assert state.statues == [1, 0, 0]
    assert len(state.production_discard) == 7 and state.star_discard == ["ST06"]
    assert state.released[0] == [("SA09", "A", "EUR")]
    assert state.lines[0][0] is None
    assert GAME.decision(state).kind == "market" and legal(state, 1) == {"market USA", "market CHN"}


def test_v4_premiere_in_usa_scores_26_and_3_money() -> None:
    state = _v4_state()
    events = play(state, 0, "market USA")
    premiere = next(e for e in events if e.kind == "premiere").data
    assert premiere["parts"] == {"market": 0, "trend": 3, "script": 9, "stars": 2, "period": 2, "production": 10}
    assert premiere["total"] == 26
    assert state.money[0] == 3


# -- V5: sympathy and line shutdown -------------------------------------------------------------------


def test_v5_denounce_forces_a_shutdown_and_be_nice_reopens() -> None:
    l1, l2 = line("SA01", ["PB01"]), line("SC02", ["PB02"])
    state = position(4, money=[5, 5, 5, 5], sympathy=[0, 2, 0, 0], lines=[[], [l1, l2], [], []], hands=[[], ["PB03", "SD01"], [], []])
    play(state, 0, "place DN1")
    assert state.money[0] == 4
    assert state.sympathy == [0, 1, -1, -1]
    assert GAME.decision(state).kind == "shut" and GAME.decision(state).players == (1,)
    assert legal(state, 1) == {"shut 1", "shut 2"}
    play(state, 1, "shut 2")
    shut = state.lines[1][1]
    assert shut is not None and shut.shut
    # P1 has nothing more to do this turn, so the turn passes to P2 by itself.
    assert GAME.decision(state).kind == "turn" and GAME.decision(state).players == (1,)
    # P2 may not lay into or release the shut line, nor start a new line (both slots are used).
    assert "produce 2" not in legal(state, 1) and "produce new" not in legal(state, 1)
    assert release_problem(state, 1, 1) == "line 2 is shut down; it cannot be released"
    play(state, 1, "place BN1")
    assert state.sympathy[1] == 2
    reopened = state.lines[1][1]
    assert reopened is not None and not reopened.shut
    assert "produce 2" in legal(state, 1)


def test_v5_variant_premiere_frees_a_slot_and_reopens_but_no_new_line_at_plus_1() -> None:
    l1 = line("SA01", ["PB01", "PB02"], locked=True)
    l2 = line("SC02", ["PB03"], shut=True)
    state = position(2, phase=PREMIERE, sympathy=[0, 1], lines=[[], [l1, l2]], assistants={"RL1": 1}, hands=[[], ["SD01", "PB04"]])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    play(state, 1, "market EUR")
    reopened = state.lines[1][1]
    assert state.lines[1][0] is None and reopened is not None and not reopened.shut
    assert state.sympathy[1] == 1
    from greenlight.games.movie_empire.working import new_line_slot

    assert new_line_slot(state, 1) == -1  # open 1 = allowed 1: no new line at +1
    state.sympathy[1] = 2
    assert new_line_slot(state, 1) == 0  # at +2 it may


# -- V6: production board Upkeep ---------------------------------------------------------------------


def test_v6_three_player_slide_and_refill_and_prices() -> None:
    state = position(
        3,
        slots={"PS1": "PB02", "PS2": None, "PS3": "PR03", "PS4": None, "PS5": "PY07"},
        production_pile=["PY01", "PB03", "PJ01"],
    )
    state.phase = PREMIERE
    rounds.begin_upkeep(state)
    advance(state, [])
    slots = {space: state.slot_card[TABLE.space_by_id[space].index] for space in ("PS1", "PS2", "PS3", "PS4", "PS5")}
    assert slots == {"PS1": "PR03", "PS2": "PY07", "PS3": "PY01", "PS4": "PB03", "PS5": "PJ01"}
    assert state.production_discard == ["PB02"]
    prices = {s["id"]: s["price"] for s in GAME.observe(state, None)["spaces"] if s["task"] == "production"}
    assert prices == {"PS1": 3, "PS2": 4, "PS3": 2, "PS4": 4, "PS5": 5}


def test_v6_two_player_version() -> None:
    state = position(2, slots={"PS1": "PB01", "PS2": None, "PS3": "PB06"}, production_pile=["PY01", "PB03"])
    state.phase = PREMIERE
    rounds.begin_upkeep(state)
    advance(state, [])
    slots = {space: state.slot_card[TABLE.space_by_id[space].index] for space in ("PS1", "PS2", "PS3")}
    assert slots == {"PS1": "PB06", "PS2": "PY01", "PS3": "PB03"}
    assert state.production_discard == ["PB01"]


# -- V7: end-game scoring with award ties ------------------------------------------------------------


def test_v7_awards_and_shared_victory() -> None:
    released = [
        [("SA01", "A", "USA"), ("SA02", "A", "EUR"), ("SC01", "C", "CHN")],
        [("SD01", "D", "USA"), ("SA03", "A", "CHN"), ("SC02", "C", "EUR")],
        [("SD02", "D", "EUR"), ("SD03", "D", "NET")],
    ]
    breakdown = final_breakdown(TABLE, [60, 58, 80], [3, 0, -2], [8, 9, 2], [False, True, False], released, [2, 2, 0])
    assert [item["awards"] for item in breakdown] == [30, 32, 6]
    assert [(i["exploitation_action"], i["exploitation_comedy"], i["exploitation_drama"]) for i in breakdown] == [
        (3, 3, 0),
        (0, 3, 0),
        (0, 0, 3),
    ]
    assert [(i["patriot_USA"], i["patriot_EUR"], i["patriot_CHN"]) for i in breakdown] == [(3, 3, 3), (3, 3, 3), (0, 3, 0)]
    assert [item["king_of_the_world"] for item in breakdown] == [5, 5, 0]
    assert [item["jack_of_all_trades"] for item in breakdown] == [0, 5, 0]
    assert [item["trendsetter"] for item in breakdown] == [7, 7, 0]
    assert [item["hardworking"] for item in breakdown] == [3, 3, 0]
    assert [(item["sympathy"], item["money"], item["dossier"]) for item in breakdown] == [(4, 2, 0), (0, 3, 3), (-2, 0, 0)]
    assert [item["total"] for item in breakdown] == [96, 96, 84]
    result = rank(breakdown)
    assert result.winners == (0, 1)
    assert result.ranks == (1, 1, 3)


# -- V8: hand limit -------------------------------------------------------------------------------------

V8_HAND = ["SC04", "PB01", "PB02", "ST04"]


def test_v8a_overtime_over_the_limit_forces_two_discards() -> None:
    state = position(2, money=[2, 0], hands=[list(V8_HAND), []], production_pile=["PY01", "PJ01"])
    play(state, 0, "place OT1")
    assert state.money[0] == 0
    assert sorted(state.hands[0]) == sorted([*V8_HAND, "PY01", "PJ01"])
    assert GAME.decision(state).kind == "discard"
    assert legal(state, 0) == {f"discard {card}" for card in [*V8_HAND, "PY01", "PJ01"]}  # no stop at 6 cards
    play(state, 0, "discard PJ01")
    assert "stop" not in legal(state, 0)
    play(state, 0, "discard SC04")
    assert "stop" in legal(state, 0)  # may discard more, or stop
    play(state, 0, "stop")
    assert len(state.hands[0]) == 4 and state.production_discard == ["PJ01"] and state.script_discard == ["SC04"]


def test_v8b_produce_first_avoids_the_discard() -> None:
    movie = line("SA01", ["PB03"])  # right end B, holds neither Catering nor Extras
    state = position(2, money=[2, 0], hands=[list(V8_HAND), []], lines=[[movie], []], production_pile=["PY01", "PJ01"])
    play(state, 0, "produce 1", "lay PB01 right", "lay PB02 right", "done")
    assert len(state.hands[0]) == 2
    play(state, 0, "place OT1")
    assert len(state.hands[0]) == 4
    assert GAME.decision(state).kind != "discard"


def test_v8c_no_voluntary_discard() -> None:
    state = position(2, money=[2, 0], hands=[list(V8_HAND), []])
    assert not any(text.startswith("discard") for text in legal(state, 0))


# -- V9: release legality under AP07 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "cards", "under_ap07", "without_plan"),
    [
        ("SA02", ["PB03", "PY01"], True, True),
        ("SC01", ["PG01", "PJ01:B"], False, True),
        ("SD01", ["PB02", "PY02", "PJ02:R"], False, True),
        ("SC04", ["PG01", "PG02"], False, False),
    ],
)
def test_v9_release_ok_under_ap07(script: str, cards: list[str], under_ap07: bool, without_plan: bool) -> None:
    movie = line(script, cards)
    state = position(2, plan="AP07", lines=[[movie], []])
    assert (release_problem(state, 0, 0) is None) is under_ap07
    state.exempt[0] = True
    assert (release_problem(state, 0, 0) is None) is without_plan
    state.exempt[0], state.plan = False, None
    assert (releasable(state, 0) == [0]) is without_plan


# -- V10: Grumpy phase with AP10 -----------------------------------------------------------------------------


def test_v10_grumpy_phase_exemptions_ap10_and_upkeep_penalty() -> None:
    state = position(
        4,
        round=5,
        phase=GRUMPY,
        sympathy=[3, 0, -5, -1],
        money=[1, 6, 0, 3],
        dossier=[None, None, None, 3],
        plan_pile=["AP10", "AP13"],
        trend_row=["TR01", "TR02", "TR03"],
    )
    events: list[Event] = []
    rounds.begin_round(state, events)
    advance(state, events)
    assert state.plan == "AP10"
    assert state.money == [8, 11, 1, 7]
    assert GAME.decision(state).players == (0,)
    assert legal(state, 0) == {"exempt decline", "exempt free", "exempt pay"}
    play(state, 0, "exempt free")
    assert legal(state, 1) == {"exempt decline", "exempt pay"}
    play(state, 1, "exempt decline")
    # P3 cannot pay 4 and has no dossier: no decision for P3.
    assert GAME.decision(state).players == (3,)
    assert legal(state, 3) == {"exempt decline", "exempt dossier", "exempt pay"}
    play(state, 3, "exempt dossier")
    assert state.phase == WORKING
    assert state.money == [8, 9, 0, 7]
    assert state.exempt == [True, False, False, True]
    # Everybody passes; round 5 ends; Upkeep step 3 costs every other player 1 sympathy.
    for seat in (0, 1, 2, 3):
        play(state, seat, "pass")
    assert state.round == 6
    assert state.sympathy == [2, -1, -5, -1]


def test_v10_event_log_reads_well() -> None:
    state = position(2, phase=GRUMPY, round=2, plan_pile=["AP11"], trend_row=["TR01", "TR02", "TR03"])
    events: list[Event] = []
    rounds.begin_round(state, events)
    advance(state, events)
    texts = [GAME.describe_event(event) for event in events]
    assert texts[0] == "Round 2 begins; Player 1 is first player. Annual plan: “Gain 3 money”."
    assert state.money == [5, 5]  # both may pay 4 to be exempt: they decide first (R47)
    play(state, 0, "exempt decline")
    play(state, 1, "exempt decline")
    assert state.money == [8, 8]
