"""Cinecitta 1937 rule tests: every vector of rules §9 with its exact expected result."""

from __future__ import annotations

import random

import pytest

from greenlight.core.errors import IllegalActionError, OptionError
from greenlight.games.cinecitta import GAME, rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import load_cards
from greenlight.games.cinecitta.observation import Breakdown
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState

TABLE = load_cards()


def score(studio: list[str], office: list[str], wallet: int) -> Breakdown:
    return rules.score_seat(TABLE, studio, office, wallet)


# -- setup (§3) ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deck", "hand", "undealt"), [(5, 35, 7, 0), (4, 30, 7, 2), (3, 25, 8, 1)])
def test_setup_deck_hand_and_undealt_sizes(players: int, deck: int, hand: int, undealt: int) -> None:
    state = GAME.new_state(players, seed=11)
    assert len(TABLE.deck_for(players)) == deck
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.undealt) == undealt
    assert state.wallets == [100] * players
    assert state.rounds == hand


def test_setup_removes_fours_and_sevens_at_three_players() -> None:
    removed = {card.id for card in TABLE.cards} - set(TABLE.deck_for(3))
    assert removed == {"D4", "A4", "C4", "S4", "P4", "D7", "A7", "C7", "S7", "P7"}
    assert {card.id for card in TABLE.cards} - set(TABLE.deck_for(4)) == {"D4", "A4", "C4", "S4", "P4"}


def test_destination_change_is_refused_at_three_players() -> None:
    with pytest.raises(OptionError, match="only for 4, 5 players"):
        GAME.new_state(3, 0, {"destination_change": True})


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    assert GAME.new_state(4, 5).hands == GAME.new_state(4, 5).hands
    assert GAME.new_state(4, 5).hands != GAME.new_state(4, 6).hands


# -- 9.1-9.3 seed examples -----------------------------------------------------------------


def test_9_1_promotion_plus_40() -> None:
    result = score(["D2", "A4", "C4"], ["A5", "C8", "A3", "C2", "S6"], 0)
    assert result["promotion"] == 40


def test_9_2_value_559() -> None:
    result = score(["D6", "P4", "A9"], ["C3", "A5", "C7", "S2", "S8"], 60)
    assert result == {
        "status": "FINISHED",
        "quality": 469,
        "promotion": 30,
        "wages_due": 80,
        "money": 10,
        "reels": 9,
        "box_office": 90,
        "award": 0,
        "value": 559,
    }


def test_9_3_value_1069_pen_waives_wages() -> None:
    result = score(["C3", "P4", "A9"], ["D6", "A5", "C7", "S2", "S8"], 60)
    assert (result["quality"], result["promotion"], result["wages_due"], result["reels"], result["box_office"], result["value"]) == (
        349,
        30,
        0,
        8,
        720,
        1069,
    )
    assert (result["status"], result["money"], result["award"]) == ("FINISHED", 90, 0)


# -- 9.4 one base-game round, 3 players --------------------------------------------------


def play_round_9_4() -> CinecittaState:
    state = rules.position(3, hands=[["A2", "D2"], ["C9", "D3"], ["S5", "D5"]])
    for seat, offer in enumerate([Offer("A2", 30), Offer("C9", 0), Offer("S5", 50)]):
        GAME.apply(state, seat, offer)
    assert state.step == RESPOND
    assert state.wallets == [70, 100, 50]
    assert GAME.legal_actions(state, 0) == [Respond(SECURE), Respond(HEADHUNT)]
    assert GAME.legal_actions(state, 1) == [Respond(SECURE), Respond(HEADHUNT)]
    assert GAME.legal_actions(state, 2) == [Respond(SECURE), Respond(HEADHUNT)]
    for seat, choice in enumerate([HEADHUNT, HEADHUNT, SECURE]):
        GAME.apply(state, seat, Respond(choice))
    return state


def test_9_4_wallets_pending_and_plans_after_responses() -> None:
    state = play_round_9_4()
    assert state.step == PLACE
    assert state.wallets == [80, 70, 150]
    assert sum(state.wallets) == 300
    assert state.pending == [["S5"], ["A2", "C9"], []]
    assert GAME.legal_actions(state, 0) == [Place((("S5", None),))]
    assert GAME.legal_actions(state, 1) == [Place((("A2", None), ("C9", None))), Place((("C9", None), ("A2", None)))]
    assert GAME.legal_actions(state, 2) == [Place(())]


def test_9_4_studios_after_the_round() -> None:
    state = play_round_9_4()
    for seat in range(3):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.step == OFFER and state.round == 2
    assert [sorted(s) for s in state.studios] == [["S5"], ["A2", "C9"], []]
    assert state.offices == [[], [], []]


def test_9_4_folder_contents_stay_between_the_two_seats() -> None:
    state = play_round_9_4()
    seat2 = GAME.observe(state, 2)
    assert (seat2["folder_sent"]["card"], seat2["folder_sent"]["amount"], seat2["folder_sent"]["recipient"]) == ("S5", 50, 0)
    assert (seat2["folder_received"]["card"], seat2["folder_received"]["amount"], seat2["folder_received"]["sender"]) == ("C9", 0, 1)
    seat0 = GAME.observe(state, 0)
    assert (seat0["folder_sent"]["card"], seat0["folder_sent"]["amount"]) == ("A2", 30)
    assert (seat0["folder_received"]["card"], seat0["folder_received"]["amount"]) == ("S5", 50)
    spectator = GAME.observe(state, None)
    assert "folder_sent" not in spectator and "wallet" not in spectator
    for seat in range(3):
        view = GAME.observe(state, seat)
        assert view["wallet"] == state.wallets[seat]
        assert "final" not in view  # every wallet stays hidden until scoring (R26)
    # Seat 2 never learns seat 0's folder (A2, 30); seat 0 never learns seat 1's (C9, 0).
    assert not any(f["sender"] == 0 and f["recipient"] == 1 for f in seat2["folder_history"])
    assert "C9" not in str(seat0)


def test_9_4_each_sender_learns_what_came_back_in_its_folder() -> None:
    state = play_round_9_4()
    sent = [GAME.observe(state, seat)["folder_sent"] for seat in range(3)]
    # Seat 0's folder came back with 60 (headhunted), seat 1's with C9 (secured), seat 2's with 100 (headhunted).
    assert [(f["card"], f["amount"], f["response"]) for f in sent] == [("A2", 30, HEADHUNT), ("C9", 0, SECURE), ("S5", 50, HEADHUNT)]
    assert state.wallets == [70 - 50 + 60, 100 - 30, 50 + 0 + 100]


def test_9_4_seat_1_two_plans_give_the_same_studio() -> None:
    state = play_round_9_4()
    results = []
    for plan in GAME.legal_actions(state, 1):
        world = state.clone()
        for seat in range(3):
            GAME.apply(world, seat, plan if seat == 1 else GAME.legal_actions(world, seat)[0])
        results.append((sorted(world.studios[1]), world.offices[1]))
    assert results == [(["A2", "C9"], []), (["A2", "C9"], [])]


def test_9_4_responses_are_never_shown_to_a_third_seat() -> None:
    state = play_round_9_4()
    # Seat 2 did not take part in the folder seat 0 sent to seat 1 (A2, 30, headhunted).
    view = GAME.observe(state, 2)
    folders = [view["folder_sent"], view["folder_received"], *view["folder_history"]]
    assert all({f["sender"], f["recipient"]} != {0, 1} for f in folders)
    assert "A2" not in str(view)
    for seat in range(3):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    # After the reveal seat 2 sees where A2 went, never the folder nor its answer (R36, R38).
    view = GAME.observe(state, 2)
    assert [f for f in view["folder_history"] if {f["sender"], f["recipient"]} == {0, 1}] == []
    assert view["last_placements"] == [
        {"seat": 0, "card": "S5", "moved_out": None},
        {"seat": 1, "card": "A2", "moved_out": None},
        {"seat": 1, "card": "C9", "moved_out": None},
    ]


def test_cards_in_folders_a_seat_did_not_see_are_secrets() -> None:
    state = play_round_9_4()
    # Step 3: seat 2 has seen S5 (sent) and C9 (received); A2 went from seat 0 to seat 1, out of its sight.
    assert "A2" in GAME.secrets(state, 2)
    assert "C9" in GAME.secrets(state, 0) and "S5" not in GAME.secrets(state, 0)
    assert {"A2", "C9", "S5"} <= GAME.secrets(state, None)
    for seat in range(3):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    # Once placed, the cards are public.
    assert not {"A2", "C9", "S5"} & GAME.secrets(state, 2)


def test_every_seat_commits_even_a_single_option_r37() -> None:
    state = play_round_9_4()
    assert GAME.decision(state).players == (0, 1, 2)
    GAME.apply(state, 0, Place((("S5", None),)))
    GAME.apply(state, 1, Place((("A2", None), ("C9", None))))
    assert state.step == PLACE and GAME.decision(state).players == (2,)  # seat 2 owes its empty plan
    GAME.apply(state, 2, Place(()))
    assert state.step == OFFER and state.round == 2


def test_a_plan_outside_the_legal_list_is_refused_r42() -> None:
    state = play_round_9_4()
    before = state.clone()
    with pytest.raises(IllegalActionError, match="exactly your pending cards"):
        GAME.apply(state, 1, Place((("A2", None),)))
    with pytest.raises(IllegalActionError, match="breaks the placement rules"):
        GAME.apply(state, 0, Place((("S5", "D2"),)))
    assert state == before


# -- 9.5 legal actions -----------------------------------------------------------------------


def test_9_5_a_seven_cards_and_100_give_77_offers() -> None:
    state = rules.position(5, hands=[["D2", "D3", "D5", "D6", "D8", "D9", "A2"], *[["A3"]] * 4])
    assert len(GAME.legal_actions(state, 0)) == 77


def respond_position(wallet: int, own_offer: int, incoming: int) -> CinecittaState:
    state = rules.position(3, hands=[["D2", "D3"], ["A2", "A3"], ["C2", "C3"]], wallets=[wallet, 100, 100])
    GAME.apply(state, 0, Offer("D2", own_offer))
    GAME.apply(state, 1, Offer("A2", 0))
    GAME.apply(state, 2, Offer("C2", incoming))
    return state


def test_9_5_b_headhunt_needs_money_after_own_offer() -> None:
    assert GAME.legal_actions(respond_position(40, 20, 30), 0) == [Respond(SECURE)]
    assert GAME.legal_actions(respond_position(40, 20, 20), 0) == [Respond(SECURE), Respond(HEADHUNT)]


def test_9_5_c_empty_wallet_offers_each_card_with_zero() -> None:
    state = rules.position(3, hands=[["D2", "D3", "D5"], ["A2"], ["C2"]], wallets=[0, 150, 150])
    assert GAME.legal_actions(state, 0) == [Offer("D2", 0), Offer("D3", 0), Offer("D5", 0)]
    assert GAME.legal_actions(respond_position(0, 0, 0), 0) == [Respond(SECURE), Respond(HEADHUNT)]
    assert GAME.legal_actions(respond_position(0, 0, 10), 0) == [Respond(SECURE)]


def test_headhunt_refusal_explains_the_money_needed() -> None:
    state = respond_position(40, 20, 30)
    with pytest.raises(IllegalActionError, match="headhunting needs 30 in your wallet to match the folder; you have 20"):
        GAME.apply(state, 0, Respond(HEADHUNT))
    assert state.responses == [None, None, None]


@pytest.mark.parametrize(
    ("offer", "reason"),
    [
        (Offer("D9", 0), r"Director 9 \(D9\) is not in your hand"),
        (Offer("D2", 15), "multiple of 10"),
        (Offer("D2", 110), "only 100 in your wallet"),
        (Offer("D2", -10), "multiple of 10"),
    ],
)
def test_illegal_offers_are_refused_with_a_reason_and_change_nothing(offer: Offer, reason: str) -> None:
    state = rules.position(3, hands=[["D2", "D3"], ["A2"], ["C2"]])
    before = state.clone()
    with pytest.raises(IllegalActionError, match=reason):
        GAME.apply(state, 0, offer)
    assert state == before


def test_a_seat_cannot_commit_twice() -> None:
    state = rules.position(3, hands=[["D2", "D3"], ["A2"], ["C2"]])
    GAME.apply(state, 0, Offer("D2", 0))
    with pytest.raises(IllegalActionError, match="already made its choice"):
        GAME.apply(state, 0, Offer("D3", 0))


# -- 9.6-9.8 placement ----------------------------------------------------------------------


def place_outcomes(studio: list[str], pending: list[str]) -> list[tuple[Place, list[str], list[str], int | None]]:
    results = []
    for plan in rules.legal_plans(TABLE, studio, pending):
        assert isinstance(plan, Place)
        new_studio, office = list(studio), list[str]()
        for card, out in plan.placements:
            rules.place_card(TABLE, new_studio, office, card, out)
        results.append((plan, sorted(new_studio), office, rules.quality_of(TABLE, new_studio)))
    return results


def test_9_6_two_pending_cards_order_matters() -> None:
    outcomes = place_outcomes(["D5", "A7"], ["C3", "C8"])
    assert [(str(p), s, o, q) for p, s, o, q in outcomes] == [
        ("place C3 C8", ["A7", "C8", "D5"], ["C3"], 578),
        ("place C8 C3", ["A7", "C3", "D5"], ["C8"], 357),
    ]


def test_9_7_match_beats_free_slot() -> None:
    outcomes = place_outcomes(["D5", "A7"], ["D2"])
    assert [(str(p), s, o) for p, s, o, _ in outcomes] == [("place D2", ["A7", "D2"], ["D5"])]


def test_9_8_full_studio_no_match_three_plans() -> None:
    outcomes = place_outcomes(["D5", "A7", "C3"], ["S9"])
    assert [(str(p), o, q) for p, _, o, q in outcomes] == [
        ("place S9:D5", ["D5"], 379),
        ("place S9:A7", ["A7"], 359),
        ("place S9:C3", ["C3"], 579),
    ]


def test_two_pending_of_one_occupation_first_ends_in_office_r29() -> None:
    outcomes = place_outcomes(["D5", "A7", "C3"], ["S2", "S9"])
    # S2 first under rule (c): 3 choices, then S9 matches S2 and pushes it out.
    plans = [str(p) for p, *_ in outcomes]
    assert plans == ["place S2:D5 S9", "place S2:A7 S9", "place S2:C3 S9", "place S9:D5 S2", "place S9:A7 S2", "place S9:C3 S2"]
    assert outcomes[0][2] == ["D5", "S2"]


def test_full_plan_may_push_out_a_card_placed_earlier_r29() -> None:
    plans = [str(p) for p in rules.legal_plans(TABLE, ["D5", "A7"], ["C3", "S9"])]
    assert "place C3 S9:C3" in plans and "place S9 C3:S9" in plans
    assert len(plans) == 6


# -- 9.9 wages and incomplete studios ----------------------------------------------------


def test_9_9_a_exact_wages_finishes_with_zero() -> None:
    result = score(["A2", "C3", "S4"], ["A8", "C9", "S9"], 40)
    assert (result["status"], result["quality"], result["promotion"], result["wages_due"], result["money"], result["reels"]) == (
        "FINISHED",
        234,
        20,
        60,
        0,
        1,
    )
    assert (result["box_office"], result["value"]) == (0, 234)


def test_9_9_b_short_of_wages_drops_out() -> None:
    result = score(["A2", "C3", "S4"], ["A8", "C9", "S9"], 30)
    assert result["status"] == "DROPPED_WAGES" and result["value"] is None
    # Promotion +20 brings 50, short of the 60 due: nothing is paid, no money, box office or value.
    assert result == {
        "status": "DROPPED_WAGES",
        "quality": 234,
        "promotion": 20,
        "wages_due": 60,
        "money": None,
        "reels": None,
        "box_office": None,
        "award": None,  # R43: S6 is skipped too
        "value": None,
    }


def test_9_9_c_incomplete_studio_drops_out_despite_pen_and_money() -> None:
    result = score(["D5", "A7"], ["D3", "A3"], 120)
    assert result["status"] == "DROPPED_INCOMPLETE" and result["quality"] is None and result["value"] is None


def test_9_9_c_incomplete_studio_takes_no_award() -> None:
    # With awards, next to two finishers (9.2's 469 and 9.3's 349): the incomplete seat gets nothing.
    breakdowns = rules.score_all(
        TABLE,
        [["D5", "A7"], ["D6", "P4", "A9"], ["C3", "P4", "A9"]],
        [["D3", "A3"], ["C3", "A5", "C7", "S2", "S8"], ["D6", "A5", "C7", "S2", "S8"]],
        [120, 60, 60],
        movie_awards=True,
    )
    assert [b["status"] for b in breakdowns] == ["DROPPED_INCOMPLETE", "FINISHED", "FINISHED"]
    assert [b["award"] for b in breakdowns] == [None, 200, -100]  # R43: no figure for the skipped S6
    assert [b["value"] for b in breakdowns] == [None, 759, 969]
    assert rules.rank_breakdowns(breakdowns).scores == (0, 759, 969)


def test_9_9_c_incomplete_studio_reports_no_figure_for_the_skipped_steps() -> None:
    # R43: the Office's two promotion icons (D3, A3) are not counted, since S2-S7 are skipped: no promotion figure either.
    assert sum(TABLE[card].promotion for card in ["D3", "A3"]) == 2
    assert score(["D5", "A7"], ["D3", "A3"], 120) == {
        "status": "DROPPED_INCOMPLETE",
        "quality": None,
        "promotion": None,
        "wages_due": None,
        "money": None,
        "reels": None,
        "box_office": None,
        "award": None,
        "value": None,
    }


def no_finisher_position() -> CinecittaState:
    """The end of a 3-player game (8 rounds) in which no seat finished: 9.9(c), 9.9(b), and a one-card Studio."""
    state = rules.position(
        3,
        hands=[[], [], []],
        wallets=[120, 30, 0],
        studios=[["D5", "A7"], ["A2", "C3", "S4"], ["D2"]],
        offices=[["D3", "A3"], ["A8", "C9", "S9"], ["A4", "C8"]],
        round=9,
        options={"movie_awards": True},
    )
    assert GAME.is_terminal(state)
    return state


def test_when_no_seat_finishes_every_seat_shares_place_1_and_nobody_wins() -> None:
    result = GAME.outcome(no_finisher_position())
    assert [b["status"] for b in result.breakdown] == ["DROPPED_INCOMPLETE", "DROPPED_WAGES", "DROPPED_INCOMPLETE"]
    assert [b["promotion"] for b in result.breakdown] == [None, 20, None]  # R43: only the wage drop-out ran S2
    assert [b["award"] for b in result.breakdown] == [None, None, None]  # awards only among FINISHED seats (R15, R25)
    assert result.scores == (0.0, 0.0, 0.0)
    assert result.ranks == (1, 1, 1)  # R43: the drop-outs share the place after the (no) FINISHED seats
    assert result.winners == ()  # R19
    assert result.returns() == (0.0, 0.0, 0.0)


def test_final_board_text_says_why_each_seat_dropped_out_and_shows_no_skipped_figure() -> None:
    text = GAME.render_text(GAME.observe(no_finisher_position(), None), ["Ann", "Bea", "Cleo"])
    assert "Ann: dropped out: the Studio did not have three cards (wallet 120)." in text.splitlines()
    assert "Bea: dropped out: quality 234, but 30 + 20 promotion = 50 could not pay wages of 60." in text.splitlines()
    assert "Cleo: dropped out: the Studio did not have three cards (wallet 0)." in text.splitlines()


# -- 9.10 awards -------------------------------------------------------------------------------

STUDIOS_9_10 = [["D8", "S4"], ["D2", "S2", "C4"], ["C2", "S3", "A5"], ["A2", "C3", "S5"], ["C6", "S7", "D9"]]
OFFICES_9_10 = [
    ["D3", "S6"],
    ["A4", "C8"],
    ["D4", "A7", "S8", "C9"],
    ["D5", "A3", "A6", "A8", "C7", "S9", "P9"],
    ["D6", "D7", "A9", "C5", "P4", "P7"],
]
WALLETS_9_10 = [270, 20, 50, 140, 20]


def test_9_10_position_uses_all_35_cards_and_500_money() -> None:
    cards = [c for group in (*STUDIOS_9_10, *OFFICES_9_10) for c in group]
    assert sorted(cards) == sorted(c.id for c in TABLE.cards)
    assert sum(WALLETS_9_10) == 500


def test_9_10_without_awards() -> None:
    breakdowns = rules.score_all(TABLE, STUDIOS_9_10, OFFICES_9_10, WALLETS_9_10, movie_awards=False)
    assert [b["status"] for b in breakdowns] == ["DROPPED_INCOMPLETE", "DROPPED_WAGES", "FINISHED", "FINISHED", "FINISHED"]
    assert [b["quality"] for b in breakdowns] == [None, 224, 235, 235, 679]
    assert [b["wages_due"] for b in breakdowns[1:]] == [50, 0, 0, 0]
    assert [b["money"] for b in breakdowns[2:]] == [80, 200, 80]
    assert [b["reels"] for b in breakdowns[2:]] == [4, 6, 6]
    assert [b["box_office"] for b in breakdowns[2:]] == [320, 1200, 480]
    assert [b["value"] for b in breakdowns] == [None, None, 555, 1435, 1159]
    result = rules.rank_breakdowns(breakdowns)
    assert result.winners == (3,)
    assert result.scores == (0, 0, 555, 1435, 1159)
    assert result.ranks == (4, 4, 3, 1, 2)


def test_9_10_with_awards_gray_to_both_tied_lowest_golden_to_highest() -> None:
    breakdowns = rules.score_all(TABLE, STUDIOS_9_10, OFFICES_9_10, WALLETS_9_10, movie_awards=True)
    assert [b["award"] for b in breakdowns] == [None, None, -100, -100, 200]  # the drop-outs skip S6 (R43)
    assert [b["value"] for b in breakdowns] == [None, None, 455, 1335, 1359]
    assert rules.rank_breakdowns(breakdowns).winners == (4,)


def test_awards_need_two_finishers_with_different_qualities() -> None:
    same = rules.score_all(TABLE, [["D2", "A3", "C4"], ["D3", "A2", "C4"]], [["D5"], ["D6"]], [50, 50], movie_awards=True)
    assert [b["award"] for b in same] == [0, 0]


# -- 9.11 destination change ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "offsets"), [(4, [1, 2, 3, 1, 2, 3, 1]), (5, [1, 2, 3, 4, 1, 2, 3])])
def test_9_11_offsets(players: int, offsets: list[int]) -> None:
    state = GAME.new_state(players, 0, {"destination_change": True})
    seen = []
    for round_number in range(1, 8):
        state.round = round_number
        seen.append(rules.partner_offset(state))
    assert seen == offsets


def test_9_11_five_players_round_two_targets() -> None:
    state = GAME.new_state(5, 0, {"destination_change": True})
    state.round = 2
    assert [rules.target_of(state, seat) for seat in range(5)] == [2, 3, 4, 0, 1]
    assert rules.source_of(state, 0) == 3


def test_9_11_four_players_round_three_is_right_neighbour() -> None:
    state = GAME.new_state(4, 0, {"destination_change": True})
    state.round = 3
    assert [rules.target_of(state, seat) for seat in range(4)] == [(seat - 1) % 4 for seat in range(4)]
    assert [rules.source_of(state, seat) for seat in range(4)] == [(seat + 1) % 4 for seat in range(4)]


def test_folder_returns_to_sender_with_destination_change() -> None:
    state = GAME.new_state(5, 0, {"destination_change": True})
    chooser = random.Random(1)
    for _ in range(3 * 5 + 5):  # round 1 and the offers of round 2
        seat = GAME.decision(state).players[0]
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    assert state.round == 2 and state.step == RESPOND
    folders = rules.round_folders(state)
    assert [(f.sender, f.recipient) for f in folders] == [(0, 2), (1, 3), (2, 4), (3, 0), (4, 1)]


# -- 9.12 winner and ties ---------------------------------------------------------------------


def breakdown(status: str, value: int | None, quality: int | None = None) -> Breakdown:
    """A seat's scoring with what the ranking reads (status, value, quality); the other steps are None."""
    return {
        "status": status,
        "quality": quality,
        "promotion": None,
        "wages_due": None,
        "money": None,
        "reels": None,
        "box_office": None,
        "award": None,
        "value": value,
    }


def finished(value: int, quality: int) -> Breakdown:
    return breakdown("FINISHED", value, quality)


def test_9_12_quality_breaks_a_value_tie() -> None:
    result = rules.rank_breakdowns([finished(1069, 349), finished(1069, 469), finished(559, 469), breakdown("DROPPED_WAGES", None)])
    assert result.winners == (1,)
    assert result.scores[3] == 0 and result.ranks[3] == 4


def test_9_12_equal_value_and_quality_share_the_win() -> None:
    result = rules.rank_breakdowns([finished(1069, 349), finished(1069, 349), finished(559, 469), breakdown("DROPPED_WAGES", None)])
    assert result.winners == (0, 1)
    assert result.returns() == (0.5, 0.5, 0.0, 0.0)


def test_nobody_finished_means_no_winner() -> None:
    result = rules.rank_breakdowns([breakdown("DROPPED_WAGES", None), breakdown("DROPPED_INCOMPLETE", None)])
    assert result.winners == () and result.ranks == (1, 1)


# -- invariants (§4.2) ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_money_and_cards_per_round(players: int) -> None:
    state = GAME.new_state(players, 3)
    chooser = random.Random(players)
    while state.step != OVER:
        if state.step == OFFER:
            placed = sum(len(s) + len(o) for s, o in zip(state.studios, state.offices, strict=True))
            assert placed == players * (state.round - 1)
            assert all(len(hand) == state.rounds - state.round + 1 for hand in state.hands)
        folders = sum(f.amount for f in rules.round_folders(state)) if state.step == RESPOND else 0
        assert sum(state.wallets) + folders == 100 * players
        assert min(state.wallets) >= 0
        seat = GAME.decision(state).players[0]
        GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
