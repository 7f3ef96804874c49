"""Cinecitta 1937: every tie, tie-break, defined term and option switch of the rules, from constructed positions.

One test per row of the table "Ties, tie-breaks and defined terms" in
docs/cinecitta.md; each docstring names the rule (rules file §, S-steps of §5
and rulings R). Scoring positions give only what scoring reads (Studio, Office,
wallet: rules §9), as the §9 vectors do; every expected figure is worked out
by hand in a comment from the card table of rules §2.3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from greenlight.core.errors import OptionError
from greenlight.core.outcome import Outcome
from greenlight.core.spec import OptionValue
from greenlight.games.cinecitta import GAME, parameters, rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.games.cinecitta.state import PLACE, RESPOND
from tests.games.cinecitta.test_rules import TABLE, place_outcomes, respond_position, score

FINISHED, INCOMPLETE, WAGES = rules.FINISHED, rules.DROPPED_INCOMPLETE, rules.DROPPED_WAGES


def final(studios: list[list[str]], offices: list[list[str]], wallets: list[int], **options: OptionValue) -> Outcome:
    """The outcome of a game that ended with these Studios, Offices and wallets (one seat per entry)."""
    players = len(studios)
    state = rules.position(
        players,
        hands=[[] for _ in range(players)],
        wallets=wallets,
        studios=studios,
        offices=offices,
        round=parameters.hand_size(players, options) + 1,
        options=options,
    )
    assert GAME.is_terminal(state)
    return GAME.outcome(state)


def column(result: Outcome, step: str) -> list[object]:
    """One figure of every seat's breakdown."""
    return [breakdown[step] for breakdown in result.breakdown]


def folders_of_round(players: int, round_number: int, **options: OptionValue) -> list[tuple[int, int]]:
    """(sender, recipient) of every folder when each seat offers its one card at 0 in ``round_number``."""
    cards = ["D2", "A2", "C2", "S2", "D3"][:players]
    state = rules.position(players, hands=[[card] for card in cards], round=round_number, options=options)
    for seat, card in enumerate(cards):
        GAME.apply(state, seat, Offer(card, 0))
    assert state.step == RESPOND
    return [(folder.sender, folder.recipient) for folder in rules.round_folders(state)]


# -- S8 winner and the full ranking (R19, R34, R43) ---------------------------------------


def test_higher_value_wins_even_with_the_lower_quality() -> None:
    """§5 S8 first key: value decides before quality."""
    # Seat 0: 235 + (210 + 10 promotion) x 3 reels of D2 = 895. Seat 1: 889, D8 has no reels. Seat 2: 556.
    result = final(
        [["A2", "C3", "S5"], ["A8", "C8", "S9"], ["A5", "C5", "S6"]],
        [["D2"], ["D8"], ["D9"]],
        [210, 0, 90],
    )
    assert column(result, "quality") == [235, 889, 556]
    assert result.scores == (895, 889, 556)
    assert result.ranks == (1, 2, 3)
    assert result.winners == (0,)


def test_equal_value_goes_to_the_higher_quality() -> None:
    """§5 S8 second key (R19): only when values are equal does the higher quality win."""
    # Seat 0: 559 + (100 + 10) x 1 reel = 669. Seat 1: 669 with no reels. Seat 2: 222.
    result = final(
        [["A5", "C5", "S9"], ["A9", "C6", "S6"], ["A2", "C2", "S2"]],
        [["D5"], ["D8"], ["D9"]],
        [100, 100, 100],
    )
    assert column(result, "quality") == [559, 669, 222]
    assert result.scores == (669, 669, 222)
    assert result.ranks == (2, 1, 3)
    assert result.winners == (1,)


def test_equal_value_and_quality_share_the_win() -> None:
    """§5 S8 third level (R19): seats equal on value and quality share the win."""
    # Seats 0 and 1: quality 669, no reels, value 669. Seat 2: 222 + (100 + 10) x 2 reels of D3 = 442.
    result = final(
        [["A9", "C6", "S6"], ["A6", "C9", "D6"], ["A2", "C2", "S2"]],
        [["D8"], ["D9"], ["D3"]],
        [100, 100, 100],
    )
    assert result.scores == (669, 669, 442)
    assert result.ranks == (1, 1, 3)
    assert result.winners == (0, 1)
    assert result.returns() == (0.5, 0.5, 0.0)


def test_quality_orders_equal_values_below_the_winner() -> None:
    """R43: the full ranking uses the winner's keys at every place, quality after value."""
    # Seat 0: 999. Seat 1: 558 + (100 + 10) x 1 = 668. Seat 2: 668 with no reels, higher quality.
    result = final(
        [["A9", "C9", "S9"], ["A5", "C5", "S8"], ["A6", "C8", "D6"]],
        [["D8"], ["D5"], ["D9"]],
        [100, 100, 100],
    )
    assert column(result, "quality") == [999, 558, 668]
    assert result.scores == (999, 668, 668)
    assert result.ranks == (1, 3, 2)
    assert result.winners == (0,)


def test_equal_value_and_quality_share_a_place_below_the_winner() -> None:
    """R43: seats equal on value and quality share a place, and the next place is skipped."""
    # 4 players. Seat 0: 999. Seats 1 and 2: quality 668, no reels. Seat 3: two Studio cards.
    result = final(
        [["A9", "C9", "S9"], ["A6", "C8", "S6"], ["C6", "A8", "D6"], ["D2", "S2"]],
        [["D8"], ["D9"], ["P9"], []],
        [100, 100, 100, 100],
    )
    assert result.scores == (999, 668, 668, 0)
    assert result.ranks == (1, 2, 2, 4)
    assert result.winners == (0,)


def test_a_drop_out_scores_0_below_the_lowest_finisher_whatever_its_money() -> None:
    """R34: a dropped-out seat has no value, scores 0 and ranks below every FINISHED seat."""
    # Seat 0: two Studio cards and 280 money. Seat 1: 222 (no reels). Seat 2: 335 + (0 + 10) x 3 = 365.
    result = final(
        [["A9", "C9"], ["A2", "C2", "S2"], ["A3", "C3", "S5"]],
        [["D8"], ["D9"], ["D2"]],
        [280, 0, 0],
    )
    assert column(result, "status") == [INCOMPLETE, FINISHED, FINISHED]
    assert column(result, "value") == [None, 222, 365]
    assert result.scores == (0, 222, 365)
    assert result.ranks == (3, 2, 1)
    assert result.winners == (2,)


def test_both_kinds_of_drop_out_share_the_place_after_the_last_finisher() -> None:
    """R43 (R34): DROPPED_INCOMPLETE and DROPPED_WAGES seats tie among themselves, after every finisher."""
    # Seat 0: incomplete. Seat 1: 999. Seat 2: 222. Seat 3: quality 333, but wages 5 x 10 = 50 > 20 + 10 promotion.
    result = final(
        [["A9", "C9"], ["D9", "C8", "S9"], ["A2", "C2", "S2"], ["A3", "C3", "S3"]],
        [["D8"], ["D6"], ["D5"], ["A5", "S5"]],
        [100, 0, 0, 20],
    )
    assert column(result, "status") == [INCOMPLETE, FINISHED, FINISHED, WAGES]
    # Seat 1: 899 + (0 + 10) x 1 = 909; seat 2: 222 + (0 + 10) x 1 = 232.
    assert result.scores == (0, 909, 232, 0)
    assert result.ranks == (3, 1, 2, 3)
    assert result.winners == (1,)


def test_no_finisher_means_every_seat_shares_place_1_and_nobody_wins() -> None:
    """R19, R43: if no seat finished, every seat shares place 1 and there is no winner."""
    result = final(
        [["A9", "C9"], ["A3", "C3", "S3"], []],
        [["D8"], ["A5", "S5"], []],
        [200, 20, 80],
        movie_awards=True,
    )
    assert column(result, "status") == [INCOMPLETE, WAGES, INCOMPLETE]
    assert result.scores == (0, 0, 0)
    assert result.ranks == (1, 1, 1)
    assert result.winners == ()


# -- S6 Movie Awards (§6.2, R15-R17, R25) -------------------------------------------------

#: Three finishers of distinct qualities 235, 889, 556 whose values (565, 889, 556) order them differently.
THREE_STUDIOS = [["A2", "C3", "S5"], ["A8", "C8", "S9"], ["A5", "C5", "S6"]]
THREE_OFFICES = [["D2"], ["D8"], ["D9"]]


def test_without_movie_awards_every_award_is_0() -> None:
    """§5 S6 option off: without ``movie_awards`` every award is 0, whatever the qualities."""
    # Seat 0: 235 + (100 + 10) x 3 = 565; seat 1: 889; seat 2: 556.
    result = final(THREE_STUDIOS, THREE_OFFICES, [100, 100, 100])
    assert column(result, "award") == [0, 0, 0]
    assert result.scores == (565, 889, 556)


def test_awards_go_by_quality_golden_to_the_highest_gray_to_the_lowest() -> None:
    """§5 S6 option on (§6.2): +200 to the highest quality, -100 to the lowest, 0 between; quality, not value."""
    result = final(THREE_STUDIOS, THREE_OFFICES, [100, 100, 100], movie_awards=True)
    # The lowest value is seat 2's 556, but the lowest quality is seat 0's 235.
    assert column(result, "award") == [-100, 200, 0]
    assert result.scores == (465, 1089, 556)
    assert result.ranks == (3, 1, 2)


def test_every_seat_tied_for_the_highest_quality_gets_the_golden_doggy() -> None:
    """§6.2, R15: several seats share the Golden Doggy, each getting the full +200."""
    # As in the shared win above: 669, 669 and 222 + 220 = 442.
    result = final(
        [["A9", "C6", "S6"], ["A6", "C9", "D6"], ["A2", "C2", "S2"]],
        [["D8"], ["D9"], ["D3"]],
        [100, 100, 100],
        movie_awards=True,
    )
    assert column(result, "award") == [200, 200, -100]
    assert result.scores == (869, 869, 342)
    assert result.winners == (0, 1)


def test_every_seat_tied_for_the_lowest_quality_gets_the_gray_doggy() -> None:
    """§6.2, R15: several seats share the Gray Doggy, each getting the full -100."""
    # Seat 0: 235 + 110 x 3 = 565. Seat 1: 235 + 110 x 2 (D3) = 455. Seat 2: 889.
    result = final(
        [["A2", "C3", "S5"], ["C2", "A3", "D5"], ["A8", "C8", "S9"]],
        [["D2"], ["D3"], ["D8"]],
        [100, 100, 100],
        movie_awards=True,
    )
    assert column(result, "quality") == [235, 235, 889]
    assert column(result, "award") == [-100, -100, 200]
    assert result.scores == (465, 355, 1089)


def test_two_finishers_of_different_quality_are_enough_for_the_awards() -> None:
    """§5 S6, R15 edge: exactly 2 eligible seats with different qualities get Golden and Gray."""
    result = final(
        [["A9", "C9"], ["A2", "C3", "S5"], ["A8", "C8", "S9"]],
        [["D8"], ["D2"], ["D9"]],
        [100, 100, 100],
        movie_awards=True,
    )
    assert column(result, "status") == [INCOMPLETE, FINISHED, FINISHED]
    assert column(result, "award") == [None, -100, 200]
    assert result.scores == (0, 465, 1089)


def test_a_lone_finisher_gets_no_award() -> None:
    """§5 S6, R15 edge: with fewer than 2 eligible seats every award is 0."""
    # Seat 2: quality 339, wages 50 > 20 + 10 promotion. Seat 1 alone finishes: 235 + 110 x 3 = 565.
    result = final(
        [["A9", "C8"], ["A2", "C3", "S5"], ["A3", "C9", "S3"]],
        [["D8"], ["D2"], ["A5", "S6"]],
        [100, 100, 20],
        movie_awards=True,
    )
    assert column(result, "status") == [INCOMPLETE, FINISHED, WAGES]
    assert column(result, "award") == [None, 0, None]
    assert result.scores == (0, 565, 0)
    assert result.winners == (1,)


def test_no_award_when_every_finisher_has_the_same_quality() -> None:
    """§5 S6, R15 edge: if all eligible qualities are equal, every award is 0."""
    # Quality 359 each; seat 2's D6 has 1 reel: 359 + 110 = 469.
    result = final(
        [["A3", "C5", "S9"], ["C3", "S5", "A9"], ["S3", "A5", "C9"]],
        [["D8"], ["D9"], ["D6"]],
        [100, 100, 100],
        movie_awards=True,
    )
    assert column(result, "quality") == [359, 359, 359]
    assert column(result, "award") == [0, 0, 0]
    assert result.scores == (359, 359, 469)


def test_drop_outs_with_the_highest_or_lowest_quality_take_no_award() -> None:
    """R25 (R15): only FINISHED seats are eligible, even when a drop-out has the best or worst quality."""
    # 5 players. Seat 0: quality 999, wages 50 > 20 + 20. Seat 1: quality 222, wages 40 > 0.
    # Finishers: seat 2 556, seat 3 335, seat 4 668 + 110 x 1 (D5) = 778.
    result = final(
        [["A9", "C9", "S9"], ["A2", "C2", "S2"], ["A5", "C5", "S6"], ["A3", "C3", "S5"], ["A6", "C6", "S8"]],
        [["A8", "C8"], ["S3"], ["D9"], ["D8"], ["D5"]],
        [20, 0, 100, 100, 100],
        movie_awards=True,
    )
    assert column(result, "status") == [WAGES, WAGES, FINISHED, FINISHED, FINISHED]
    assert column(result, "quality") == [999, 222, 556, 335, 668]
    assert column(result, "award") == [None, None, 0, -100, 200]
    assert result.scores == (0, 0, 556, 235, 978)


def test_an_award_is_outside_the_wallet_the_wages_and_the_reels() -> None:
    """R16, R17 (§6.2): the award is a flat term of the value only; the Gray can bring a value to 122."""
    # Seat 0: 222, no Pen: wages 6 x 10 = 60 = 30 + 30 promotion, money 0, no reels: 222 - 100 = 122.
    # Seat 1: 999 + (100 + 10) x 3 = 1329, + 200 = 1529 (not (110 + 200) x 3). Seat 2: 668, no award.
    result = final(
        [["A2", "C2", "S2"], ["D9", "C9", "S9"], ["A6", "C6", "S8"]],
        [["A8", "C8", "A9"], ["D2"], ["D8"]],
        [30, 100, 170],
        movie_awards=True,
    )
    assert column(result, "status") == [FINISHED, FINISHED, FINISHED]
    assert column(result, "money") == [0, 110, 180]
    assert column(result, "box_office") == [0, 330, 0]
    assert column(result, "award") == [-100, 200, 0]
    assert result.scores == (122, 1529, 668)


def test_the_award_is_part_of_the_value_that_decides_the_winner() -> None:
    """§5 S7-S8 with and without ``movie_awards``: the award can change the winner."""
    # Seat 0: 999, no reels. Seat 1: 235 + (290 + 10) x 3 = 1135. Seat 2: incomplete.
    studios = [["A9", "C9", "S9"], ["A2", "C3", "S5"], ["A5", "C5"]]
    offices = [["D8"], ["D2"], ["D9"]]
    without = final(studios, offices, [10, 290, 0])
    assert without.scores == (999, 1135, 0) and without.winners == (1,)
    awarded = final(studios, offices, [10, 290, 0], movie_awards=True)
    assert awarded.scores == (1199, 1035, 0) and awarded.winners == (0,)


# -- S1-S5: defined terms at their edges -----------------------------------------------------


def test_a_movie_needs_exactly_three_studio_cards() -> None:
    """§5 S1, R14: 3 Studio cards give a quality; 2 cards drop the seat out despite its Office Pen and money."""
    # Studio D5 A7 C3: quality 357, promotion +20, Pen (D3) so no wages, reels 2 + 2 = 4: 140 x 4 = 560, value 917.
    three = score(["D5", "A7", "C3"], ["D3", "A3"], 120)
    assert (three["status"], three["quality"], three["money"], three["box_office"], three["value"]) == (FINISHED, 357, 140, 560, 917)
    two = score(["D5", "A7"], ["D3", "A3"], 120)
    assert (two["status"], two["quality"], two["promotion"], two["value"]) == (INCOMPLETE, None, None, None)


def test_quality_reads_the_studio_numbers_in_ascending_order_repeats_allowed() -> None:
    """R40, R14: quality = 100a + 10b + c with a <= b <= c, whatever the occupations; repeated digits are fine."""
    assert score(["P9", "D5", "A5"], ["D8"], 0)["quality"] == 559
    assert score(["S9", "C2", "A5"], ["D8"], 0)["quality"] == 259
    assert score(["C2", "A2", "S2"], ["D8"], 0)["quality"] == 222


def test_promotion_counts_only_the_office_icons() -> None:
    """§5 S2, R27: +10 per promotion icon on the Office cards; Studio icons never count."""
    # Studio A2 C3 D5 carries 3 icons; Office S6 (0) + A5 (1) = 10. No Office Pen: wages 5 x 10 = 50.
    # 100 + 10 - 50 = 60, reels 2 + 1 = 3, box office 180, value 235 + 180.
    result = score(["A2", "C3", "D5"], ["S6", "A5"], 100)
    assert (result["promotion"], result["wages_due"], result["money"], result["value"]) == (10, 50, 60, 415)


def test_a_pen_waives_every_wage_only_from_the_office() -> None:
    """§5 S3, R27, R18: a Pen in the Studio does nothing; one in the Office waives the Studio staff's wages too."""
    # D6 in the Studio: wages 5 x 10 = 50; 60 + 10 - 50 = 20, reels 1 + 4 = 5: 100, value 369 + 100.
    in_studio = score(["D6", "A9", "C3"], ["A5", "S2"], 60)
    assert (in_studio["wages_due"], in_studio["money"], in_studio["value"]) == (50, 20, 469)
    # D6 in the Office: no wages; 60 + 20 = 80, reels 1 + 1 = 2: 160, value 239 + 160.
    in_office = score(["S2", "A9", "C3"], ["A5", "D6"], 60)
    assert (in_office["wages_due"], in_office["money"], in_office["value"]) == (0, 80, 399)


def test_one_office_pen_is_enough_and_more_pens_change_nothing() -> None:
    """R28: the wage waiver is all or nothing."""
    one = score(["A2", "C3", "S5"], ["D5"], 0)
    assert (one["wages_due"], one["money"], one["value"]) == (0, 10, 245)  # 235 + 10 x 1 reel
    three = score(["A2", "C3", "S5"], ["D5", "D6", "P9"], 0)
    assert (three["wages_due"], three["money"], three["value"]) == (0, 30, 295)  # 235 + 30 x 2 reels


def test_wages_are_10_for_every_studio_and_office_card() -> None:
    """§5 S3 (R18): without an Office Pen, wages due = 10 x (Studio cards + Office cards)."""
    # 3 + 4 cards: 70. 100 + 20 promotion - 70 = 50, reels 0 + 0 + 1 + 1 = 2: 100, value 235 + 100.
    result = score(["A2", "C3", "S5"], ["A8", "C8", "S8", "S9"], 100)
    assert (result["wages_due"], result["money"], result["value"]) == (70, 50, 335)


def test_exactly_enough_for_the_wages_finishes_with_0_and_10_short_drops_out() -> None:
    """§5 S4, R18 edge: wallet equal to the wages pays and finishes with 0; 10 less is DROPPED_WAGES and pays nothing."""
    # Wages 6 x 10 = 60; promotion +20.
    exact = score(["A2", "C3", "S5"], ["A8", "C9", "S9"], 40)
    assert (exact["status"], exact["wages_due"], exact["money"], exact["value"]) == (FINISHED, 60, 0, 235)
    short = score(["A2", "C3", "S5"], ["A8", "C9", "S9"], 30)
    assert (short["status"], short["quality"], short["wages_due"], short["money"], short["value"]) == (WAGES, 235, 60, None, None)


def test_promotion_money_counts_toward_the_wages() -> None:
    """§5 S2 before S4: the wallet after promotion is compared with the wages."""
    # 50 alone is short of 60, but 50 + 20 = 70 pays them: 10 left, 1 reel, value 235 + 10.
    result = score(["A2", "C3", "S5"], ["A8", "C9", "S9"], 50)
    assert (result["status"], result["money"], result["box_office"], result["value"]) == (FINISHED, 10, 10, 245)


def test_box_office_counts_only_the_office_reels() -> None:
    """§5 S5 (R27): box office = money x the Office reels; Studio reels never count."""
    # Studio S2 A2 C2 carries 10 reels; Office D8 (0) + S8 (1) = 1. 100 + 10 promotion = 110.
    result = score(["S2", "A2", "C2"], ["D8", "S8"], 100)
    assert (result["reels"], result["box_office"], result["value"]) == (1, 110, 332)


# -- legal offers and responses (§4 steps 1-2) ----------------------------------------------


def test_offers_run_from_0_to_the_whole_wallet_in_tens() -> None:
    """§4 step 1, R20: every card with every multiple of 10 from 0 up to the wallet, and no more."""
    state = rules.position(3, hands=[["D2", "D3"], ["A2"], ["C2"]], wallets=[30, 100, 170])
    assert GAME.legal_actions(state, 0) == [Offer(card, amount) for card in ("D2", "D3") for amount in (0, 10, 20, 30)]
    empty = rules.position(3, hands=[["D2", "D3"], ["A2"], ["C2"]], wallets=[0, 150, 150])
    assert GAME.legal_actions(empty, 0) == [Offer("D2", 0), Offer("D3", 0)]


def test_headhunting_needs_the_wallet_after_the_own_offer_to_cover_the_amount() -> None:
    """R6 edge: HEADHUNT is legal when the wallet left after the own offer equals the amount, not when 10 short."""
    assert GAME.legal_actions(respond_position(50, 20, 30), 0) == [Respond(SECURE), Respond(HEADHUNT)]
    assert GAME.legal_actions(respond_position(50, 20, 40), 0) == [Respond(SECURE)]


def test_money_coming_back_in_the_own_folder_cannot_pay_a_headhunt() -> None:
    """R6, R21: money still travelling in the seat's own folder does not count; SECURE is always legal."""
    # Seat 0 offered all its 40: its folder may come back with 80, but it holds 0 now.
    assert GAME.legal_actions(respond_position(40, 40, 10), 0) == [Respond(SECURE)]


def test_a_folder_of_0_can_be_headhunted_from_an_empty_wallet_and_comes_back_empty() -> None:
    """R7, R21: with m = 0 both answers are legal even with 0; HEADHUNT takes the card free, SECURE gains nothing."""
    state = respond_position(0, 0, 0)
    assert GAME.legal_actions(state, 0) == [Respond(SECURE), Respond(HEADHUNT)]
    for seat, choice in enumerate([HEADHUNT, SECURE, SECURE]):
        GAME.apply(state, seat, Respond(choice))
    # Seat 0 took C2 for nothing and got its D2 back; seat 2's folder came back empty.
    assert state.step == PLACE
    assert state.wallets == [0, 100, 100]
    assert state.pending == [["D2", "C2"], ["A2"], []]


def test_a_headhunted_folder_comes_back_with_exactly_twice_the_amount() -> None:
    """R22 (§4 step 2): the headhunter adds exactly m, so the sender gets 2m back."""
    state = respond_position(100, 20, 30)  # seat 0 holds 80, seat 1 100, seat 2 70
    for seat, choice in enumerate([HEADHUNT, SECURE, SECURE]):
        GAME.apply(state, seat, Respond(choice))
    # Seat 0 pays 30; seat 1 keeps seat 0's 20; seat 2 gets 60 back.
    assert state.wallets == [50, 120, 130]
    assert state.pending == [["D2", "C2"], ["A2"], []]


# -- placement (§4 step 3c) ---------------------------------------------------------------


def test_a_match_replaces_its_occupation_even_when_a_slot_is_free() -> None:
    """§4 step 3c rule (a): a card of the same occupation moves out, with 1 card in the Studio or 3; no choice."""
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes(["D5"], ["D2"])] == [("place D2", ["D2"], ["D5"])]
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes(["D5", "A7", "C3"], ["A2"])] == [
        ("place A2", ["A2", "C3", "D5"], ["A7"]),
    ]


def test_a_free_slot_must_be_used_when_nothing_matches() -> None:
    """§4 step 3c rule (b): below 3 cards with no match the card enters; nothing moves out and there is no choice."""
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes([], ["S9"])] == [("place S9", ["S9"], [])]
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes(["D5", "A7"], ["S9"])] == [("place S9", ["A7", "D5", "S9"], [])]


def test_a_full_studio_without_a_match_offers_each_of_its_three_cards() -> None:
    """§4 step 3c rule (c): 3 cards, none of the occupation: 3 plans, one per card moved to the Office."""
    assert [(str(p), o, q) for p, _, o, q in place_outcomes(["D5", "A7", "P9"], ["S2"])] == [
        ("place S2:D5", ["D5"], 279),
        ("place S2:A7", ["A7"], 259),
        ("place S2:P9", ["P9"], 257),
    ]


def test_the_producer_is_a_fifth_occupation() -> None:
    """R11: a Director and a Producer share a Studio; a second Producer replaces the first."""
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes(["D5", "A7"], ["P9"])] == [("place P9", ["A7", "D5", "P9"], [])]
    assert [(str(p), s, o) for p, s, o, _ in place_outcomes(["P4", "A7"], ["P9"])] == [("place P9", ["A7", "P9"], ["P4"])]


def test_no_pending_card_leaves_only_the_empty_plan() -> None:
    """§4 step 3c, R37: with 0 pending cards the one legal plan is the empty plan, and it is still owed."""
    assert rules.legal_plans(TABLE, ["D5", "A7", "C3"], []) == [Place(())]
    state = respond_position(100, 0, 0)
    for seat, choice in enumerate([SECURE, HEADHUNT, SECURE]):  # seat 1 takes seat 0's D2: seat 0 has nothing to place
        GAME.apply(state, seat, Respond(choice))
    assert state.pending[0] == []
    assert GAME.legal_actions(state, 0) == [Place(())]
    assert 0 in GAME.decision(state).players


def test_both_orders_are_offered_even_when_they_give_the_same_studio() -> None:
    """R10: with two pending cards, both orders are always legal plans."""
    outcomes = place_outcomes([], ["A2", "C9"])
    assert [(str(p), s, o) for p, s, o, _ in outcomes] == [
        ("place A2 C9", ["A2", "C9"], []),
        ("place C9 A2", ["A2", "C9"], []),
    ]


def test_of_two_pending_cards_of_one_occupation_the_first_ends_in_the_office() -> None:
    """R29: the second card matches the first and pushes it out."""
    outcomes = place_outcomes([], ["S2", "S9"])
    assert [(str(p), s, o) for p, s, o, _ in outcomes] == [("place S2 S9", ["S9"], ["S2"]), ("place S9 S2", ["S2"], ["S9"])]


def test_rule_c_may_move_out_a_card_placed_earlier_in_the_plan() -> None:
    """R29: under rule (c) any of the 3 Studio cards may move out, including the plan's first card."""
    outcomes = place_outcomes(["D5", "A7"], ["C3", "S9"])
    assert [(str(p), o) for p, _, o, _ in outcomes] == [
        ("place C3 S9:D5", ["D5"]),
        ("place C3 S9:A7", ["A7"]),
        ("place C3 S9:C3", ["C3"]),
        ("place S9 C3:D5", ["D5"]),
        ("place S9 C3:A7", ["A7"]),
        ("place S9 C3:S9", ["S9"]),
    ]


def test_the_second_cards_rule_is_judged_on_the_studio_the_first_left() -> None:
    """§4 step 3c: the second card's options depend on the first choice: (c) if its match left, else (a)."""
    outcomes = place_outcomes(["D5", "A7", "C3"], ["S2", "D9"])
    assert [str(p) for p, *_ in outcomes] == [
        "place S2:D5 D9:S2",
        "place S2:D5 D9:A7",
        "place S2:D5 D9:C3",
        "place S2:A7 D9",
        "place S2:C3 D9",
        "place D9 S2:D9",
        "place D9 S2:A7",
        "place D9 S2:C3",
    ]
    assert outcomes[3][1:3] == (["C3", "D9", "S2"], ["A7", "D5"])


# -- partners (§4 step 0, §6.1) --------------------------------------------------------------


def test_without_the_coaster_every_folder_goes_to_the_left_neighbour_every_round() -> None:
    """§4 step 0, R1 (``destination_change`` off): k = 1 in every round; the last seat's left is seat 0."""
    assert folders_of_round(5, 3) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]
    assert folders_of_round(4, 4) == [(0, 1), (1, 2), (2, 3), (3, 0)]


def test_the_coaster_offset_turns_each_round_and_skips_the_own_colour() -> None:
    """§6.1 step 2, R3, R4 (``destination_change`` on): k(r) = ((r - 1) mod (N - 1)) + 1, never 0."""
    four = [folders_of_round(4, r, destination_change=True)[0][1] for r in range(1, 8)]
    assert four == [1, 2, 3, 1, 2, 3, 1]
    five = [folders_of_round(5, r, destination_change=True)[0][1] for r in range(1, 8)]
    assert five == [1, 2, 3, 4, 1, 2, 3]


def test_with_the_coaster_at_4_players_k_2_swaps_folders_across_the_table() -> None:
    """§6.1 step 2, R39: at N = 4 with k = 2 opposite seats exchange folders, and each folder returns to its sender."""
    state = rules.position(4, hands=[["D2"], ["A2"], ["C2"], ["S2"]], round=2, options={"destination_change": True})
    for seat, card in enumerate(["D2", "A2", "C2", "S2"]):
        GAME.apply(state, seat, Offer(card, 0))
    assert [(f.sender, f.recipient) for f in rules.round_folders(state)] == [(0, 2), (1, 3), (2, 0), (3, 1)]
    for seat in range(4):
        GAME.apply(state, seat, Respond(SECURE))
    assert state.pending == [["D2"], ["A2"], ["C2"], ["S2"]]


def test_with_the_coaster_k_n_minus_1_is_the_right_neighbour() -> None:
    """§6.1 step 2: k = N - 1 sends every folder to the right neighbour, (i - 1) mod N."""
    assert folders_of_round(5, 4, destination_change=True) == [(0, 4), (1, 0), (2, 1), (3, 2), (4, 3)]


def test_the_coaster_needs_4_or_5_players_the_awards_any_count() -> None:
    """R32, §3 step 1, §6.1 step 4: ``destination_change`` only at N = 4 or 5; ``movie_awards`` at any N."""
    with pytest.raises(OptionError, match="only for 4, 5 players"):
        GAME.new_state(3, 0, {"destination_change": True})
    for players in (4, 5):
        assert GAME.new_state(players, 0, {"destination_change": True}).options["destination_change"] is True
    for players in (3, 4, 5):
        assert GAME.new_state(players, 0, {"movie_awards": True}).options["movie_awards"] is True


def test_the_two_options_combine() -> None:
    """§6, R32: the coaster and the awards are independent; both on, each does its part."""
    assert folders_of_round(4, 2, destination_change=True, movie_awards=True) == [(0, 2), (1, 3), (2, 0), (3, 1)]
    # 4 players; seat 3 has two Studio cards. Awards as in test_awards_go_by_quality_golden_to_the_highest_gray_to_the_lowest.
    result = final([*THREE_STUDIOS, ["D5", "A6"]], [*THREE_OFFICES, []], [100, 100, 100, 100], destination_change=True, movie_awards=True)
    assert column(result, "award") == [-100, 200, 0, None]
    assert result.scores == (465, 1089, 556, 0)


# -- setup terms and parameters (§2.3, §3) -------------------------------------------------------


def test_removed_at_takes_the_4s_out_at_3_and_4_players_and_the_7s_at_3() -> None:
    """§2.3 "Removed at", §3 step 3: the deck for N, and the Producers in play (3, 2, 1)."""
    every = {card.id for card in TABLE.cards}
    assert every - set(TABLE.deck_for(5)) == set()
    assert every - set(TABLE.deck_for(4)) == {"D4", "A4", "C4", "S4", "P4"}
    assert every - set(TABLE.deck_for(3)) == {"D4", "A4", "C4", "S4", "P4", "D7", "A7", "C7", "S7", "P7"}
    producers = {n: [card for card in TABLE.deck_for(n) if TABLE[card].occupation == "Producer"] for n in (3, 4, 5)}
    assert producers == {3: ["P9"], 4: ["P7", "P9"], 5: ["P4", "P7", "P9"]}


def test_starting_money_is_100_unless_the_parameter_changes_it() -> None:
    """§3 step 5 (parameter ``starting_money``): every wallet starts at 100; set to 120, at 120."""
    assert GAME.new_state(3, 0).wallets == [100, 100, 100]
    assert GAME.new_state(4, 0, {"starting_money": 120}).wallets == [120, 120, 120, 120]


def test_rounds_equal_the_hand_size_unless_extra_rounds_changes_it() -> None:
    """§3 step 3, H = number of rounds (parameter ``extra_rounds``): 8 at 3 players; -1 deals 7 and plays 7."""
    plain = GAME.new_state(3, 0)
    assert ([len(hand) for hand in plain.hands], plain.rounds, len(plain.undealt)) == ([8, 8, 8], 8, 1)
    shorter = GAME.new_state(3, 0, {"extra_rounds": -1})
    assert ([len(hand) for hand in shorter.hands], shorter.rounds, len(shorter.undealt)) == ([7, 7, 7], 7, 4)


def test_card_icons_are_read_from_the_card_file(tmp_path: Path) -> None:
    """R35 (option ``data``): promotion, reels and Pen come from the card file, never from occupation or number."""
    text = BUNDLED_CARDS.read_text()
    d8 = 'id = "D8"\noccupation = "Director"\nnumber = 8\npromotion = 1\nreels = 0\npen = true\n'
    assert d8 in text
    custom = tmp_path / "cards.toml"
    custom.write_text(text.replace(d8, d8.replace("reels = 0", "reels = 5").replace("pen = true", "pen = false")))
    studios, offices = [["A2", "C3", "S5"], ["A9", "C9"], ["A8", "C8"]], [["D8"], [], []]
    # Bundled: D8 has a Pen and no reels: 235. Custom: no Pen, wages 40; 100 + 10 - 40 = 70, x 5 reels = 350; 585.
    assert final(studios, offices, [100, 100, 100]).scores == (235, 0, 0)
    assert final(studios, offices, [100, 100, 100], data=str(custom)).scores == (585, 0, 0)
