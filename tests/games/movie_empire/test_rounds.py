"""Setup (§3), the Grumpy phase and every annual plan (§4.1, §2.9), Upkeep (§4.10), the end (§5) and the variants (§6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from greenlight.core.errors import IllegalActionError
from greenlight.games.movie_empire import GAME, rounds
from greenlight.games.movie_empire.actions import Place
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import GIFT, GRUMPY, OVER, SETUP, WORKING, MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, legal, line, play

# -- setup ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "production_slots", "scripts", "stars"), [(2, 3, 2, 1), (3, 5, 3, 2), (4, 5, 3, 2)])
def test_setup_fills_the_slots_of_the_player_count(players: int, production_slots: int, scripts: int, stars: int) -> None:
    state = GAME.new_state(players, seed=5)
    filled = Counter(space.task_name for space in TABLE.spaces if state.slot_card[space.index] is not None)
    assert filled == {"production": production_slots, "star": stars}  # scripts come after the keep step
    assert state.phase == SETUP and all(len(dealt) == 3 for dealt in state.dealt)
    assert len(state.production_pile) == 68 - production_slots
    assert len(state.trend_removed) == 7 and len(state.trend_pile) == 7 and None not in state.trend_row
    assert len(state.plan_pile) == 13 and state.plan is None
    assert state.money == [0] * players and state.sympathy == [0] * players
    for seat, dealt in enumerate(state.dealt):
        play(state, seat, f"keep {dealt[0]}")
    assert sum(1 for s in TABLE.spaces if s.task_name == "script" and state.slot_card[s.index] is not None) == scripts


def test_setup_split_puts_ten_blue_cards_in_each_half_of_the_pile() -> None:
    for seed in range(5):
        state = GAME.new_state(2, seed=seed)
        deck = state.production_pile + [c for c in state.slot_card if c is not None and c in TABLE.production]
        # The slots were drawn from the top: reassemble the pile with the top at the end.
        slots = [state.slot_card[s.index] for s in reversed(TABLE.spaces) if s.task_name == "production" and s.min_players == 2]
        drawn = [card for card in slots if card is not None]
        assert len(drawn) == len(slots)  # every such slot holds the card drawn for it
        order = state.production_pile + drawn
        top, bottom = order[34:], order[:34]
        blue = TABLE.production["PB01"].stage
        assert len(deck) == 68
        assert sum(TABLE.production[c].stage == blue for c in top) == 10
        assert sum(TABLE.production[c].stage == blue for c in bottom) == 10


def test_keep_is_simultaneous_and_secret_then_round_one_budgets() -> None:
    state = GAME.new_state(3, seed=2)
    dealt = [list(cards) for cards in state.dealt]
    decision = GAME.decision(state)
    assert decision.simultaneous and decision.players == (0, 1, 2)
    play(state, 1, f"keep {dealt[1][0]}")
    assert GAME.decision(state).committed == (1,) and GAME.decision(state).players == (0, 2)
    with pytest.raises(IllegalActionError, match="already made its choice"):
        play(state, 1, f"keep {dealt[1][1]}")
    assert GAME.observe(state, 0)["my_commitment"] is None and GAME.observe(state, 1)["my_commitment"] == [dealt[1][0]]
    play(state, 0, f"keep {dealt[0][2]}")
    play(state, 2, f"keep {dealt[2][1]}")
    assert state.hands == [[dealt[0][2]], [dealt[1][0]], [dealt[2][1]]]
    assert state.phase == WORKING and state.money == [5, 5, 5] and state.round == 1
    assert sum(1 for s in TABLE.spaces if s.task_name == "script" and state.slot_card[s.index] is not None) == 3


def test_first_player_is_random_but_seeded() -> None:
    firsts = {GAME.new_state(4, seed=seed).first_player for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.new_state(4, seed=9).first_player == GAME.new_state(4, seed=9).first_player


# -- the Grumpy phase and the annual plans --------------------------------------------------------------------


def grumpy(players: int, plan: str, **kwargs: object) -> MovieEmpireState:
    """Round 2 begins with ``plan`` revealed; exemptions still to be declared."""
    state = position(players, round=2, phase=GRUMPY, plan_pile=[plan, "AP13"], trend_row=["TR01", "TR02", "TR03"], **kwargs)  # type: ignore[arg-type]
    rounds.begin_round(state, [])
    advance(state, [])
    return state


def decline_all(state: MovieEmpireState) -> None:
    while GAME.decision(state).kind == "exemption":
        play(state, GAME.decision(state).players[0], "exempt decline")


def test_no_plan_in_round_one_and_a_plan_each_round_from_round_two() -> None:
    state = GAME.new_state(2, seed=3)
    for seat, dealt in enumerate(state.dealt):
        play(state, seat, f"keep {dealt[0]}")
    assert state.plan is None
    top = state.plan_pile[-1]
    assert GAME.observe(state, None)["plan"]["next"] == top  # the next plan is visible
    while state.round == 1:
        seat = GAME.decision(state).players[0]
        play(state, seat, "pass")
    assert state.plan == top and state.plans_done == [top]


def test_pay_four_to_ignore_the_plan_with_budget_money() -> None:
    state = grumpy(2, "AP09", money=[0, 0])  # budget 5 each, both may pay
    play(state, 0, "exempt pay")
    play(state, 1, "exempt decline")
    assert state.money == [1, 5] and state.exempt == [True, False]
    assert "place CC1" in legal(state, 0)
    state.turn_seat = 1
    assert "place CC1" not in legal(state, 1)


@pytest.mark.parametrize(
    ("plan", "genre_ok", "genre_blocked"), [("AP01", "SD01", "SA02"), ("AP02", "SA02", "SD01"), ("AP03", "SC01", "SA02")]
)
def test_genre_plans_restrict_releases(plan: str, genre_ok: str, genre_blocked: str) -> None:
    from greenlight.games.movie_empire.working import release_problem

    state = position(2, plan=plan, lines=[[line(genre_ok, ["PB01"]), line(genre_blocked, ["PB02"])], []], sympathy=[2, 0])
    assert release_problem(state, 0, 0) is None
    assert release_problem(state, 0, 1) == f"the annual plan “{TABLE.plans[plan].text}” forbids releasing this movie"


def test_ap04_forbids_taking_blue_cards_from_slots_only() -> None:
    state = position(2, money=[9, 0], plan="AP04", slots={"PS1": "PB01", "PS2": "PJ01", "PS3": "PY01"}, production_pile=["PB02", "PB03"])
    assert {"place PS2", "place PS3", "place OT1"} <= legal(state, 0) and "place PS1" not in legal(state, 0)
    assert GAME.why_illegal(state, 0, Place("PS1")) == "the annual plan forbids taking Catering (a shooting card)"
    play(state, 0, "place OT1")  # blind draws are not affected (R49)
    assert state.hands[0] == ["PB02", "PB03"]


SPACE_NAMES = {"SS1": "Script slot 1", "SR1": "Star slot 1", "CC1": "Charge credit card 1"}


@pytest.mark.parametrize(("plan", "space", "slot_card"), [("AP05", "SS1", "SA01"), ("AP06", "SR1", "ST01"), ("AP09", "CC1", None)])
def test_plans_that_close_spaces(plan: str, space: str, slot_card: str | None) -> None:
    slots = {space: slot_card} if slot_card else {}
    state = position(2, money=[9, 0], plan=plan, slots=slots)
    assert f"place {space}" not in legal(state, 0)
    assert GAME.why_illegal(state, 0, Place(space)) == f"the annual plan “{TABLE.plans[plan].text}” forbids {SPACE_NAMES[space]} ({space})"
    state.exempt[0] = True
    assert f"place {space}" in legal(state, 0)


def test_ap07_and_ap08_restrictions() -> None:
    from greenlight.games.movie_empire.working import release_problem

    state = position(2, plan="AP08", lines=[[line("SA01", ["PB01"]), line("SA02", ["PB02"], ["ST04"])], []], sympathy=[2, 0])
    assert release_problem(state, 0, 0) is not None and release_problem(state, 0, 1) is None


def test_ap10_loses_two_stopping_at_zero_and_ap11_gains_three() -> None:
    state = grumpy(2, "AP10", sympathy=[-5, 0], money=[0, 0])  # budgets 1 and 5
    decline_all(state)
    assert state.money == [0, 3]
    state = grumpy(2, "AP11", sympathy=[-5, 3], money=[0, 0])  # budgets 1 and 7; seat 1 could be exempt for free
    decline_all(state)
    assert state.money == [4, 10]


def test_ap11_exempt_player_gets_nothing() -> None:
    state = grumpy(2, "AP11", sympathy=[3, 0], money=[0, 0])
    play(state, 0, "exempt free")
    play(state, 1, "exempt decline")
    assert state.money == [7, 8]


def test_ap12_gifts_are_secret_and_simultaneous_then_the_hand_limit() -> None:
    hands = [["PB01", "PB02", "SA01", "ST04"], ["PY01", "PY02", "PY03"], ["SC01"]]
    state = grumpy(3, "AP12", hands=hands, sympathy=[0, 3, 0], money=[0, 0, 0])
    play(state, 0, "exempt decline")
    play(state, 1, "exempt free")  # exempt: gives nothing, still receives
    play(state, 2, "exempt decline")
    assert state.phase == GIFT
    decision = GAME.decision(state)
    assert decision.simultaneous and decision.players == (0,)  # seat 2 has one card: it gives it without a choice
    assert len(legal(state, 0)) == 6
    assert str(GAME.parse_action("give ST04,PB02")) in legal(state, 0)  # the cards are a set: either order is the same gift
    play(state, 0, "give ST04,PB02")
    assert sorted(state.hands[0]) == ["PB01", "SA01", "SC01"]
    assert sorted(state.hands[1]) == ["PB02", "PY01", "PY02", "PY03", "ST04"]
    assert state.hands[2] == []
    assert GAME.decision(state).kind == "discard" and GAME.decision(state).players == (1,)
    assert state.gifted[0] == ["PB02", "ST04"]


# -- upkeep ---------------------------------------------------------------------------------------------------------


def test_upkeep_refreshes_scripts_stars_and_moves_the_trends() -> None:
    state = position(
        3,
        slots={"SS1": "SA01", "SS2": None, "SS3": "SA03", "SR1": "ST01", "SR2": None},
        script_pile=["SC01", "SC02", "SC03"],
        star_pile=["ST10", "ST11"],
        trend_row=["TR01", "TR02", "TR03"],
        trend_pile=["TR04"],
        production_pile=["PY02"] * 5,
    )
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    slots = {s: state.slot_card[TABLE.space_by_id[s].index] for s in ("SS1", "SS2", "SS3", "SR1", "SR2")}
    assert slots == {"SS1": "SC01", "SS2": "SC02", "SS3": "SC03", "SR1": "ST10", "SR2": "ST11"}
    assert state.script_discard == ["SA01", "SA03"] and state.star_discard == ["ST01"]
    assert state.trend_row == ["TR04", "TR01", "TR02"] and state.trend_pile == []


def test_trend_row_empties_towards_the_last_round() -> None:
    state = position(2, trend_row=["TR01", "TR02", "TR03"])
    while state.round < 3:
        play(state, GAME.decision(state).players[0], "pass")
    assert state.trend_row == [None, None, "TR01"]


def test_upkeep_dossier_penalty_two_players_hits_the_user() -> None:
    state = position(2, round=2, dossier=[1, None], sympathy=[1, 1])
    play(state, 0, "place BN1 dossier")
    play(state, 1, "pass")
    play(state, 0, "pass")
    assert state.sympathy == [2, 1]  # +2, then -1 at Upkeep


def test_game_ends_after_round_ten_without_upkeep() -> None:
    state = position(2, round=10, money=[7, 2], dossier=[10, None], trend_row=[None, None, "TR01"])
    play(state, 0, "pass")
    play(state, 1, "pass")
    assert state.phase == OVER and GAME.is_terminal(state) and state.round == 10
    result = GAME.outcome(state)
    assert result.breakdown[0]["dossier"] == 3 and result.breakdown[0]["money"] == 2 and result.scores == (5.0, 0.0)


# -- variants ------------------------------------------------------------------------------------------------------


def test_shoot_a_short_setup_and_length() -> None:
    state = GAME.new_state(3, seed=4, options={"shoot_a_short": True})
    assert state.last_round == 7 and state.plan_pile == []
    assert [len(hand) for hand in state.hands] == [2, 2, 2]
    assert len(state.trend_removed) == 10 and len(state.trend_pile) == 4
    keeps = GAME.legal_actions(state, 0)
    assert len(keeps) == 3 and all(len(action.cards) == 2 for action in keeps)  # type: ignore[attr-defined]


def test_both_variants_together_play_to_round_seven() -> None:
    state = GAME.new_state(2, seed=8, options={"shoot_a_short": True, "clean_hands": True})
    rng = random.Random(1)
    rounds_seen = set()
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        actions = GAME.legal_actions(state, seat)
        assert not any(str(a).startswith(("purge", "cut", "block", "place RV1", "place BN2")) for a in actions)
        GAME.apply(state, seat, rng.choice(actions))
        rounds_seen.add(state.round)
        assert state.plan is None
    assert max(rounds_seen) == 7 and GAME.outcome(state).breakdown[0]["dossier"] == 0


def test_ap13_nothing_happens_but_exemptions_are_still_declared() -> None:
    state = grumpy(2, "AP13", money=[0, 0])
    assert legal(state, 0) == {"exempt decline", "exempt pay"}
    decline_all(state)
    assert state.phase == WORKING and state.money == [5, 5] and state.exempt == [False, False]


def test_determinism_same_seed_same_game() -> None:
    def run(seed: int) -> list[str]:
        state = GAME.new_state(3, seed)
        rng = random.Random(99)
        trail = []
        while not GAME.is_terminal(state):
            seat = rng.choice(GAME.decision(state).players)
            action = rng.choice(GAME.legal_actions(state, seat))
            trail.append(str(action))
            GAME.apply(state, seat, action)
        return trail

    assert run(12) == run(12)
    assert run(12) != run(13)
