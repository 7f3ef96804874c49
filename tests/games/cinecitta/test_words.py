"""Cinecitta 1937 player words: exact texts of components, actions, warnings, events, previews and help."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from greenlight.core.events import Event
from greenlight.core.words import bare_codes, jargon
from greenlight.games.cinecitta import GAME, rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState

COMPONENTS = {component.id: component for component in GAME.components()}
NAMES = ["Ann", "Bea", "Cleo"]


# -- components -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "kind", "name", "text"),
    [
        (
            "D2",
            "staff card",
            "Director 2",
            "Promotion 1, 3 reels, pen. In the Studio its number 2 is one digit of the movie's quality. In the Office it adds "
            "10 money at scoring, counts 3 film reels toward the box office and waives all wages with its pen. Used at every "
            "player count.",
        ),
        (
            "S2",
            "staff card",
            "Scriptwriter 2",
            "No promotion, 4 reels, no pen. In the Studio its number 2 is one digit of the movie's quality. In the Office it "
            "counts 4 film reels toward the box office. Used at every player count.",
        ),
        (
            "D8",
            "staff card",
            "Director 8",
            "Promotion 1, no reels, pen. In the Studio its number 8 is one digit of the movie's quality. In the Office it adds "
            "10 money at scoring and waives all wages with its pen. Used at every player count.",
        ),
        (
            "A4",
            "staff card",
            "Actor 4",
            "Promotion 1, 2 reels, no pen. In the Studio its number 4 is one digit of the movie's quality. In the Office it "
            "adds 10 money at scoring and counts 2 film reels toward the box office. Left out with 3 or 4 players.",
        ),
        (
            "P7",
            "staff card",
            "Producer 7",
            "Promotion 1, 1 reel, pen. In the Studio its number 7 is one digit of the movie's quality. In the Office it adds 10 "
            "money at scoring, counts 1 film reel toward the box office and waives all wages with its pen. Left out with 3 "
            "players.",
        ),
        (
            "golden-doggy",
            "Movie Award card",
            "Golden Doggy",
            "Movie Awards variant: adds 200 to the value of every finished studio tied for the highest quality.",
        ),
        (
            "gray-doggy",
            "Movie Award card",
            "Gray Doggy",
            "Movie Awards variant: takes 100 off the value of every finished studio tied for the lowest quality.",
        ),
        (
            "destination-change-coaster",
            "coaster",
            "Destination Change coaster",
            "Destination Change variant, 4 or 5 players: turned one step before each round, it shows how many seats to the "
            "left your folder travels (never to yourself); one side for 4 players, one for 5.",
        ),
        (
            "money-note",
            "money",
            "10 Money note",
            "The only money in the game, so every amount is a multiple of 10. Each studio starts with ten notes; the bank never runs out.",
        ),
        (
            "screen-folder",
            "screen folder",
            "Screen folder",
            "Carries one staff card and some money, unseen by the others, to your partner of the round, and always comes back to you.",
        ),
        ("seat-wallet", "wallet", "Wallet", "Holds your money, hidden from the other players until scoring."),
    ],
)
def test_component_words(code: str, kind: str, name: str, text: str) -> None:
    component = COMPONENTS[code]
    assert (component.kind, component.name, component.text) == (kind, name, text)


def test_every_card_is_a_component_named_by_occupation_and_number_with_its_code_as_title() -> None:
    cards = [component for component in GAME.components() if component.kind == "staff card"]
    assert len(cards) == 35
    assert COMPONENTS["P4"].title == "Producer 4 (P4)"
    assert len({card.name for card in cards}) == 35


def test_a_custom_file_with_two_look_alike_cards_keeps_them_apart(tmp_path: Path) -> None:
    text = (
        Path(BUNDLED_CARDS)
        .read_text(encoding="utf-8")
        .replace('id = "D3"\noccupation = "Director"\nnumber = 3', 'id = "X3"\noccupation = "Director"\nnumber = 2')
    )
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    state = GAME.new_state(3, 1, {"data": str(path)})
    names = {component.id: component.name for component in GAME.components(state)}
    assert (names["D2"], names["X3"]) == ("Director 2 (D2)", "Director 2 (X3)")


# -- positions --------------------------------------------------------------------------------


def first_round_offers() -> CinecittaState:
    """Rules §9.4: Ann offers Actor 2 with 30, Bea Cameraman 9 with nothing, Cleo Scriptwriter 5 with 50."""
    state = rules.position(3, hands=[["A2", "D2"], ["C9", "D3"], ["S5", "D5"]])
    for seat, offer in enumerate([Offer("A2", 30), Offer("C9", 0), Offer("S5", 50)]):
        GAME.apply(state, seat, offer)
    assert state.step == RESPOND
    return state


def placing(studio: list[str], office: list[str], pending: list[str], wallet: int, round: int = 1) -> CinecittaState:
    """Seat 0 at step 3 of ``round`` (of 8) with ``pending`` to place."""
    state = rules.position(
        3, hands=[[], [], []], wallets=[wallet, 100, 100], studios=[studio, [], []], offices=[office, [], []], round=round
    )
    state.step = PLACE
    state.pending[0] = list(pending)
    return state


def last_round_folders(round: int = 8) -> CinecittaState:
    """Round ``round`` of 8, step 2. Ann (Studio Director 5, Actor 6; a pen in the Office) offered Actor 5 with 10 and holds
    Cleo's Cameraman 3 with 20; Bea (full Studio, no pen) offered Scriptwriter 6 with nothing and holds Actor 5 with 10."""
    extra = [["D6"], ["S8"], ["C8"]] if round < 8 else [[], [], []]
    state = rules.position(
        3,
        hands=[["A5", *extra[0]], ["S6", *extra[1]], ["C3", *extra[2]]],
        wallets=[50, 30, 100],
        studios=[["D5", "A6"], ["A2", "C5", "S3"], ["D9"]],
        offices=[["D3"], ["A8", "C9"], []],
        round=round,
    )
    for seat, offer in enumerate([Offer("A5", 10), Offer("S6", 0), Offer("C3", 20)]):
        GAME.apply(state, seat, offer)
    return state


# -- describe_action ----------------------------------------------------------------------------


def test_offer_words_say_what_stays_in_the_wallet_and_what_each_answer_brings() -> None:
    state = rules.position(3, hands=[["A2", "D2"], ["C9", "D3"], ["S5", "D5"]])
    assert GAME.describe_action(state, 0, Offer("A2", 30)) == (
        "Offer Actor 2 with 30 to your partner (70 stays in your wallet). If they secure the funds, they keep the 30 and "
        "Actor 2 comes back to your Studio; if they headhunt, they take Actor 2 and you get back 60, your 30 and their 30."
    )
    assert GAME.describe_action(state, 1, Offer("C9", 0)) == (
        "Offer Cameraman 9 with no money to your partner (100 stays in your wallet). If they secure, Cameraman 9 comes back "
        "to your Studio; if they headhunt, they take Cameraman 9 for nothing."
    )


def test_response_words_say_who_pays_what_to_whom() -> None:
    state = first_round_offers()
    words = {
        (seat, str(action)): GAME.describe_action(state, seat, action) for seat in range(3) for action in GAME.legal_actions(state, seat)
    }
    assert words == {
        (
            0,
            "respond secure",
        ): "Secure the funds: keep the 50 (your wallet goes from 70 to 120) and send Scriptwriter 5 back to its sender.",
        (0, "respond headhunt"): (
            "Headhunt Scriptwriter 5: add 50 of your own (your wallet goes from 70 to 20); the sender gets back 100, their 50 "
            "and yours. Scriptwriter 5 joins your Studio this round."
        ),
        (1, "respond secure"): "Secure the funds: keep the 30 (your wallet goes from 100 to 130) and send Actor 2 back to its sender.",
        (1, "respond headhunt"): (
            "Headhunt Actor 2: add 30 of your own (your wallet goes from 100 to 70); the sender gets back 60, their 30 and "
            "yours. Actor 2 joins your Studio this round."
        ),
        (2, "respond secure"): "Secure: send Cameraman 9 back to its sender; the folder holds no money, so your wallet stays at 50.",
        (2, "respond headhunt"): (
            "Headhunt Cameraman 9 for free: the folder holds no money and goes back empty. Cameraman 9 joins your Studio this round."
        ),
    }


def test_a_headhunt_into_a_matching_occupation_says_which_card_moves_out() -> None:
    state = last_round_folders()
    assert GAME.describe_action(state, 1, Respond(HEADHUNT)) == (
        "Headhunt Actor 5: add 10 of your own (your wallet goes from 30 to 20); the sender gets back 20, their 10 and yours. "
        "Actor 5 joins your Studio this round, in place of your Actor 2 (to the Office)."
    )


def test_plan_words_for_the_rulebook_placements() -> None:
    two = placing(["D5", "A7"], [], ["C3", "C8"], 100)  # §9.6: the order matters
    assert [GAME.describe_action(two, 0, plan) for plan in GAME.legal_actions(two, 0)] == [
        "Place Cameraman 3 in a free place, then Cameraman 8 in place of Cameraman 3 (to the Office). Studio quality 578; "
        "wages due 40 (4 staff at 10).",
        "Place Cameraman 8 in a free place, then Cameraman 3 in place of Cameraman 8 (to the Office). Studio quality 357; "
        "wages due 40 (4 staff at 10).",
    ]
    match = placing(["D5", "A7"], [], ["D2"], 100)  # §9.7: a match beats a free place
    assert GAME.describe_action(match, 0, Place((("D2", None),))) == (
        "Place Director 2 in place of Director 5 (to the Office). Studio 2 of 3 cards; no wages (a pen in the Office)."
    )
    full = placing(["D5", "A7", "C3"], [], ["S9"], 100)  # §9.8: a full Studio, no match
    assert [GAME.describe_action(full, 0, plan) for plan in GAME.legal_actions(full, 0)] == [
        "Place Scriptwriter 9 in place of Director 5 (to the Office). Studio quality 379; no wages (a pen in the Office).",
        "Place Scriptwriter 9 in place of Actor 7 (to the Office). Studio quality 359; wages due 40 (4 staff at 10).",
        "Place Scriptwriter 9 in place of Cameraman 3 (to the Office). Studio quality 579; wages due 40 (4 staff at 10).",
    ]
    nothing = placing([], [], [], 100)
    assert GAME.describe_action(nothing, 0, Place(())) == "Nothing to place this round. Studio 0 of 3 cards; no staff yet, so no wages."


def test_last_round_plan_words_give_the_final_value_or_the_drop_out() -> None:
    state = placing(["D5", "A7", "C3"], ["A8"], ["S9"], 20, round=8)
    assert [GAME.describe_action(state, 0, plan) for plan in GAME.legal_actions(state, 0)] == [
        "Place Scriptwriter 9 in place of Director 5 (to the Office). Final value 419: quality 379 + box office 40 (40 money x 1 reel).",
        "Place Scriptwriter 9 in place of Actor 7 (to the Office). You drop out at scoring: 40 after promotion cannot pay wages of 50.",
        "Place Scriptwriter 9 in place of Cameraman 3 (to the Office). You drop out at scoring: 40 after promotion cannot pay wages of 50.",
    ]
    state.options["movie_awards"] = True
    assert GAME.describe_action(state, 0, Place((("S9", "D5"),))).endswith(
        "Final value before the Movie Awards 419: quality 379 + box office 40 (40 money x 1 reel)."
    )
    incomplete = placing(["D5"], ["A8"], ["D2"], 20, round=8)
    assert GAME.describe_action(incomplete, 0, Place((("D2", None),))) == (
        "Place Director 2 in place of Director 5 (to the Office). Your Studio ends with 1 of 3 cards: you drop out at scoring."
    )


# -- warnings --------------------------------------------------------------------------------------


def warnings(state: CinecittaState) -> dict[tuple[int, str], str]:
    return {
        (seat, str(action)): warning
        for seat in range(state.num_players)
        for action in GAME.legal_actions(state, seat)
        if (warning := GAME.action_warning(state, seat, action)) is not None
    }


def test_a_last_round_plan_that_cannot_pay_the_wages_warns_and_names_the_plan_that_finishes() -> None:
    state = placing(["D5", "A7", "C3"], ["A8"], ["S9"], 20, round=8)
    way_out = "Placing Scriptwriter 9 in place of Director 5 finishes your movie with a value of 419."
    assert warnings(state) == {
        (0, "place S9:A7"): f"This plan leaves you 40 after promotion, short of your wages of 50, so you drop out at scoring. {way_out}",
        (0, "place S9:C3"): f"This plan leaves you 40 after promotion, short of your wages of 50, so you drop out at scoring. {way_out}",
    }


def test_last_round_responses_warn_when_dropping_out_becomes_certain() -> None:
    state = last_round_folders()
    assert warnings(state) == {
        # Ann's own Actor 5 cannot complete her Studio (she has an Actor): only Cleo's Cameraman 3 can.
        (0, "respond secure"): (
            "This is the last round: if you secure the funds, your Studio stays short of three cards whichever way your own "
            "folder comes back, so you drop out at scoring. Headhunting could still let you finish."
        ),
        # Bea has no pen to move to her Office: paying 10 for Actor 5 leaves her short of the wages either way.
        (1, "respond headhunt"): (
            "This is the last round: if you headhunt, you cannot pay your wages whichever way your own folder comes back (at "
            "best 50 after promotion against 60 due), so you drop out at scoring. Securing the funds could still let you finish."
        ),
        # Cleo has one Studio card: only headhunting Scriptwriter 6 (and her own card coming back) can make three.
        (2, "respond secure"): (
            "This is the last round: if you secure the funds, your Studio stays short of three cards whichever way your own "
            "folder comes back, so you drop out at scoring. Headhunting could still let you finish."
        ),
    }


def test_nothing_warns_before_the_last_round_nor_any_offer_nor_a_move_without_alternative() -> None:
    assert warnings(last_round_folders(round=7)) == {}
    assert warnings(placing(["D5", "A7", "C3"], ["A8"], ["S9"], 20, round=7)) == {}
    last_offers = rules.position(3, hands=[["A5"], ["S6"], ["C3"]], wallets=[0, 0, 0], studios=[["D5"], [], []], round=8)
    assert warnings(last_offers) == {}
    # Every plan drops out (one Studio card in the last round): nothing to choose between, so nothing warns.
    assert warnings(placing(["D5"], ["A8"], ["D2"], 20, round=8)) == {}


# -- events ------------------------------------------------------------------------------------------


def test_event_texts_name_the_seats_and_the_cards_and_say_who_paid_whom() -> None:
    state = rules.position(3, hands=[["A2", "D2"], ["C9", "D3"], ["S5", "D5"]])
    lines = []
    for seat, offer in enumerate([Offer("A2", 30), Offer("C9", 0), Offer("S5", 50)]):
        lines += [GAME.describe_event(event, state, NAMES) for event in GAME.apply(state, seat, offer)]
    for seat, choice in enumerate([HEADHUNT, HEADHUNT, SECURE]):
        lines += [GAME.describe_event(event, state, NAMES) for event in GAME.apply(state, seat, Respond(choice))]
    for seat in range(3):
        lines += [GAME.describe_event(event, state, NAMES) for event in GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])]
    assert [line for line in lines if line] == [
        "Ann passed a folder to Bea: Actor 2 with 30.",
        "Bea passed a folder to Cleo: Cameraman 9 with no money.",
        "Cleo passed a folder to Ann: Scriptwriter 5 with 50.",
        "Ann headhunted Scriptwriter 5 from Cleo: Ann paid 50, and Cleo got back 100 (Cleo's own 50 and Ann's 50).",
        "Bea headhunted Actor 2 from Ann: Bea paid 30, and Ann got back 60 (Ann's own 30 and Bea's 30).",
        "Cleo secured Bea's folder, which held no money, and sent Cameraman 9 back to Bea.",
        "Ann placed Scriptwriter 5 in the Studio.",
        "Bea placed Actor 2 in the Studio.",
        "Bea placed Cameraman 9 in the Studio.",
        "Round 2 of 8 begins: every folder goes to the left neighbour.",
    ]
    assert lines.count("") == 9  # the commitments of the three steps have no log line


@pytest.mark.parametrize(
    ("event", "names", "text"),
    [
        (
            Event("folder_passed", {"sender": 0, "recipient": 1, "card": "D6", "amount": 0}),
            None,
            "Player 1 passed a folder to Player 2: Director 6 with no money.",
        ),
        (
            Event("folder_returned", {"sender": 0, "recipient": 1, "card": "D6", "amount": 30, "response": SECURE}),
            NAMES,
            "Bea secured the 30 from Ann and sent Director 6 back to Ann.",
        ),
        (
            Event("folder_returned", {"sender": 0, "recipient": 1, "card": "D6", "amount": 0, "response": HEADHUNT}),
            NAMES,
            "Bea headhunted Director 6 from Ann for free; the folder went back to Ann empty.",
        ),
        (
            Event("placed", {"seat": 2, "card": "S9", "moved_out": "D5"}),
            NAMES,
            "Cleo placed Scriptwriter 9 in the Studio, moving Director 5 to the Office.",
        ),
        (
            Event("placed", {"seat": 0, "card": "D2", "moved_out": None}),
            ["Bot (medium)", "Bot (medium)", "Ann"],
            "Bot (medium) at seat 1 placed Director 2 in the Studio.",
        ),
        (
            Event("game_over", {"scores": [0.0, 1435.0, 1159.0], "winners": [1], "wallets": [270, 20, 50]}),
            NAMES,
            "The game is over: Bea wins with a value of 1435. Wallets at the end: Ann 270, Bea 20, Cleo 50.",
        ),
        (
            Event("game_over", {"scores": [1069.0, 1069.0, 0.0], "winners": [0, 1], "wallets": [10, 20, 30]}),
            NAMES,
            "The game is over: Ann and Bea share the win with a value of 1069 each. Wallets at the end: Ann 10, Bea 20, Cleo 30.",
        ),
        (
            Event("game_over", {"scores": [0.0, 0.0, 0.0], "winners": [], "wallets": [120, 30, 0]}),
            None,
            "The game is over: every studio dropped out, so nobody wins. Wallets at the end: Player 1 120, Player 2 30, Player 3 0.",
        ),
        (Event("committed", {"seat": 0, "step": OFFER}), NAMES, ""),
    ],
)
def test_event_text(event: Event, names: list[str] | None, text: str) -> None:
    assert GAME.describe_event(event, GAME.new_state(3, 1), names) == text


def test_destination_change_rounds_say_where_every_folder_goes() -> None:
    state = GAME.new_state(4, 1, {"destination_change": True})
    names = ["Ann", "Bea", "Cleo", "Dan"]
    assert GAME.describe_event(Event("round_started", {"round": 2, "offset": 2}), state, names) == (
        "Round 2 of 7 begins: every folder goes across the table (Ann to Cleo, Bea to Dan, Cleo to Ann, Dan to Bea)."
    )
    assert GAME.describe_event(Event("round_started", {"round": 3, "offset": 3}), state, names) == (
        "Round 3 of 7 begins: every folder goes to the right neighbour (Ann to Dan, Bea to Ann, Cleo to Bea, Dan to Cleo)."
    )
    assert GAME.describe_event(Event("round_started", {"round": 2, "offset": 1}), None, None) == (
        "Round 2 begins: every folder goes to the left neighbour."
    )


# -- previews -------------------------------------------------------------------------------------------


def scoring_position() -> CinecittaState:
    """Ann: rules §9.2 (value 559 with 60 in the wallet); Bea: §9.9(b) (30 in the wallet, 10 short of the wages)."""
    return rules.position(
        3,
        hands=[[], [], []],
        wallets=[60, 30, 100],
        studios=[["D6", "P4", "A9"], ["A2", "C3", "S4"], []],
        offices=[["C3", "A5", "C7", "S2", "S8"], ["A8", "C9", "S9"], []],
        round=8,
    )


def test_every_seat_sees_each_tableau_s_quality_promotion_reels_and_wages_due() -> None:
    state = scoring_position()
    expected = [
        {"quality": 469, "studio_cards": 3, "staff": 8, "promotion": 30, "reels": 9, "pen": False, "wages_due": 80},
        {"quality": 234, "studio_cards": 3, "staff": 6, "promotion": 20, "reels": 1, "pen": False, "wages_due": 60},
        {"quality": None, "studio_cards": 0, "staff": 0, "promotion": 0, "reels": 0, "pen": False, "wages_due": 0},
    ]
    for viewer in (0, 1, 2, None):
        assert GAME.observe(state, viewer)["tableaus"] == expected
    assert GAME.observe(state, None)["sends_to"] == [1, 2, 0]
    assert GAME.observe(state, None)["direction"] == "to the left neighbour"
    assert "forecast" not in GAME.observe(state, None)


def test_the_own_forecast_sets_the_wages_due_against_the_wallet() -> None:
    state = scoring_position()
    assert GAME.observe(state, 0)["forecast"] == {
        "quality": 469,
        "studio_cards": 3,
        "staff": 8,
        "promotion": 30,
        "reels": 9,
        "pen": False,
        "wages_due": 80,
        "wallet": 60,
        "money_after_promotion": 90,
        "short_by": 0,
        "money_after_wages": 10,
        "box_office": 90,
        "value": 559,
        "status": "finished",
        "words": "If the game ended now: 60 in the wallet + 30 promotion = 90, wages so far 80, leaves 10 x 9 reels = box office 90; "
        "value 469 + 90 = 559.",
    }
    short = GAME.observe(state, 1)["forecast"]
    assert (short["status"], short["short_by"], short["money_after_wages"], short["value"]) == ("short", 10, None, None)
    assert short["words"] == "If the game ended now you would drop out: 30 in the wallet + 20 promotion = 50, wages so far 60: short by 10."
    empty = GAME.observe(state, 2)["forecast"]
    assert empty["words"] == "Your Studio needs 3 more cards to make a movie; money: 100 in the wallet + 0 promotion = 100, wages so far 0."


def test_each_sender_sees_what_came_back_in_its_folder() -> None:
    state = first_round_offers()
    for seat, choice in enumerate([HEADHUNT, HEADHUNT, SECURE]):
        GAME.apply(state, seat, Respond(choice))
    backs = [GAME.observe(state, seat)["folder_sent"]["back"] for seat in range(3)]
    assert backs == [{"money": 60, "card": None}, {"money": 0, "card": "C9"}, {"money": 100, "card": None}]
    assert GAME.observe(state, 1)["folder_received"]["back"] == {"money": 60, "card": None}  # Bea paid Ann 30 of her own


def test_final_words_explain_each_movie() -> None:
    state = rules.position(
        3,
        hands=[[], [], []],
        wallets=[60, 30, 60],
        studios=[["D6", "P4", "A9"], ["A2", "C3", "S4"], ["C3", "P4", "A9"]],
        offices=[["C3", "A5", "C7", "S2", "S8"], ["A8", "C9", "S9"], ["D6", "A5", "C7", "S2", "S8"]],
        round=9,
        options={"movie_awards": True},
    )
    assert state.step == OVER
    assert GAME.observe(state, None)["final"]["words"] == [
        "finished with quality 469; 60 + 30 promotion, wages 80, leaves 10 x 9 reels = box office 90; "
        "value 469 + 90 + 200 Golden Doggy = 759.",
        "dropped out: quality 234, but 30 + 20 promotion = 50 could not pay wages of 60.",
        "finished with quality 349; 60 + 30 promotion, no wages (pen), leaves 90 x 8 reels = box office 720; "
        "value 349 + 720 - 100 Gray Doggy = 969.",
    ]


# -- terminal and help --------------------------------------------------------------------------------------


def mid_game(seed: int = 3) -> CinecittaState:
    state = GAME.new_state(4, seed, {"destination_change": True, "movie_awards": True})
    rng = random.Random(seed)
    while state.round < 4 or state.step != PLACE:
        for seat in GAME.decision(state).players:
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_the_terminal_view_names_every_card_and_reads_like_words() -> None:
    state = mid_game()
    components = GAME.components(state)
    for viewer in (0, 2, None):
        text = GAME.render_text(GAME.observe(state, viewer), ["Ann", "Bea", "Cleo", "Dan"])
        assert not bare_codes(text, components), text
        assert not jargon(text), text
        assert "Round 4 of 7".lower() in text.lower()
    text = GAME.render_text(GAME.observe(state, 0), ["Ann", "Bea", "Cleo", "Dan"])
    assert "[bold]Your wallet:[/bold]" in text and "Studio:" in text and "Office:" in text


def test_the_terminal_view_words_the_own_commitment() -> None:
    state = rules.position(3, hands=[["A2", "D2"], ["C9", "D3"], ["S5", "D5"]])
    GAME.apply(state, 0, Offer("A2", 30))
    text = GAME.render_text(GAME.observe(state, 0), NAMES)
    assert "Your choice, secret until everyone has chosen: offer Actor 2 (A2) with 30." in text.splitlines()


@pytest.mark.parametrize("step", [OFFER, RESPOND, PLACE, OVER])
def test_help_for_every_step_has_the_legend_and_the_step_s_rules(step: str) -> None:
    state = GAME.new_state(4, 2, {"destination_change": True, "movie_awards": True})
    rng = random.Random(2)
    while state.step != step:
        for seat in GAME.decision(state).players:
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    text = GAME.help_text(GAME.observe(state, 0))
    paragraphs = text.split("\n\n")
    assert paragraphs[0].startswith('Reading a card: "Director 6" is the occupation and the number.')
    titles = {OFFER: "Step 1 of 3, offer", RESPOND: "Step 2 of 3, respond", PLACE: "Step 3 of 3, place", OVER: "The game is over"}
    assert paragraphs[1].startswith(titles[step])
    assert paragraphs[2].startswith("Scoring:")
    assert paragraphs[3].startswith("Destination Change:") and paragraphs[4].startswith("Movie Awards:")
    assert not jargon(text) and not bare_codes(text, GAME.components(state))
    for viewer in (0, None):  # the help is sent to every seat and spectator: it names no card a reader may not see
        assert not set(re.findall(r"[\w-]+", GAME.help_text(GAME.observe(state, viewer)))) & GAME.secrets(state, viewer)


def test_the_terminal_board_counts_one_card_in_the_singular() -> None:
    """The last round's hands hold one card: '1 card in hand', never '1 cards'."""
    game = GAME
    state = game.new_state(3, 4)
    rng = random.Random(4)
    seen = set()
    while not game.is_terminal(state):
        seat = min(game.decision(state).players)
        board = game.render_text(game.observe(state, seat))
        seen |= {line.split(" · ")[-1] for line in board.splitlines() if line.endswith("in hand")}
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert "1 card in hand" in seen and "8 cards in hand" in seen, seen
    assert not any(text.startswith("1 cards") for text in seen)
