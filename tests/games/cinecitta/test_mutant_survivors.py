"""Cinecitta 1937 rules that mutants of rules.py showed untested (docs/mutation.md): each test kills named survivors."""

from __future__ import annotations

from greenlight.games.cinecitta import GAME, rules
from greenlight.games.cinecitta.actions import Offer, Place, Respond
from greenlight.games.cinecitta.cards import load_cards
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, Placement

TABLE = load_cards()


def test_a_game_lasts_exactly_h_rounds_then_scores() -> None:
    """§4 "There are H rounds" and "If r = H ... go to scoring": 8 rounds at 3 players, every hand played out.

    Kills resolve_plans' ``state.round >= state.rounds`` (the game ending after H - 1 rounds).
    """
    state = GAME.new_state(3, seed=4)
    assert state.rounds == 8
    rounds_started = [state.round]
    while not GAME.is_terminal(state):
        for seat in GAME.decision(state).players:
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        if state.step == OFFER:
            rounds_started.append(state.round)
    assert rounds_started == [1, 2, 3, 4, 5, 6, 7, 8]
    assert len(state.placements) == 8
    assert state.step == OVER
    assert state.hands == [[], [], []]


def test_the_middle_quality_gets_no_award_r15() -> None:
    """S6 / R15: +200 to the highest quality, -100 to the lowest, and 0 to a FINISHED seat in between.

    Empty Offices: no promotion, wages 30 from 100, no reels, so each value is quality + award.
    Kills apply_awards' ``-100 if ... or True`` (everyone not best gets -100) and ``else 1``.
    """
    studios = [["D2", "A3", "C4"], ["D3", "A5", "C6"], ["D8", "A9", "C9"]]
    breakdowns = rules.score_all(TABLE, studios, [[], [], []], [100, 100, 100], movie_awards=True)
    assert [b["quality"] for b in breakdowns] == [234, 356, 899]
    assert [b["award"] for b in breakdowns] == [-100, 0, 200]
    assert [b["value"] for b in breakdowns] == [134, 356, 1099]


def test_a_first_round_position_with_the_dealt_wallets_has_public_opening_wallets() -> None:
    """§3 step 5 and R26: in round 1 every wallet is the dealt 100 and everyone knows it; otherwise only the owner.

    Kills position()'s ``opening_wallets = None``, ``... and False``, ``round != 1`` and ``round == 2``.
    """
    hands = [["D2"], ["A3"], ["C4"]]
    assert rules.position(3, hands=hands).opening_wallets == (100, 100, 100)
    assert rules.position(3, hands=hands, wallets=[150, 90, 60]).opening_wallets is None
    assert rules.position(3, hands=hands, round=2).opening_wallets is None


def test_a_returned_folder_is_seen_only_by_its_two_seats_r26() -> None:
    """§4 step 2 and R26/R38: whether a folder was secured or headhunted, and its money, stay between sender and recipient.

    Kills resolve_responses' ``audience=None`` and the dropped ``audience`` (the event public to everyone).
    """
    state = rules.position(3, hands=[["D2", "D3"], ["A3", "A4"], ["C4", "C5"]])
    for seat, card in enumerate(["D2", "A3", "C4"]):
        rules.apply(state, seat, Offer(card, 10))
    assert state.step == RESPOND
    events = []
    for seat, choice in enumerate(["secure", "headhunt", "secure"]):
        events += rules.apply(state, seat, Respond(choice))
    returned = [(e.data["sender"], e.data["recipient"], e.audience) for e in events if e.kind == "folder_returned"]
    # Seat i receives from seat i - 1 (k = 1): each event is for exactly those two seats.
    assert returned == [(2, 0, (2, 0)), (0, 1, (0, 1)), (1, 2, (1, 2))]


def test_the_reveal_records_the_card_moved_to_the_office_r38() -> None:
    """§4 step 3d and R38: the reveal shows every card placed and the card it moved to the Office.

    Kills resolve_plans' ``Placement(seat, card, None)`` (the moved card lost from the placement record) and
    why_illegal's changed "no cards".
    """
    state = rules.position(3, hands=[["D9"], ["A9"], ["C9"]], studios=[["D2", "A3", "C4"], [], []])
    state.step = PLACE
    state.pending = [["D5"], [], []]
    state.plans = [None, None, None]
    # R42 as well: a plan for a seat with nothing pending is refused naming "no cards".
    assert rules.why_illegal(state, 1, Place((("A9", None),))) == "your plan must place exactly your pending cards (no cards)"
    events = []
    for seat, plan in enumerate([(("D5", None),), (), ()]):
        events += rules.apply(state, seat, Place(plan))
    assert state.placements[-1] == [Placement(0, "D5", "D2")]
    assert state.studios[0] == ["D5", "A3", "C4"] and state.offices[0] == ["D2"]
    assert [(e.data["card"], e.data["moved_out"]) for e in events if e.kind == "placed"] == [("D5", "D2")]


def test_refusals_name_the_broken_rule_r42() -> None:
    """R42: an illegal decision is rejected with an error that says which rule it breaks, word for word.

    Kills why_illegal's changed messages, the ``amount % 11`` test (22 is not a multiple of 10 but is of 11), the
    ``folder is not None or ...`` test and the changed ", " between the pending cards.
    """
    state = rules.position(3, hands=[["D2"], ["A3"], ["C4"]])
    assert rules.why_illegal(state, 0, Offer("D2", 22)) == "the amount must be a multiple of 10 from 0 up (only 10-notes exist)"
    assert rules.why_illegal(state, 0, Respond("secure")) == "responses are made in step 2, after every folder has been passed"
    assert rules.why_illegal(state, 0, Place(())) == "cards are placed in step 3, after the folders come back"
    assert rules.why_illegal(state, 0, Respond("maybe")) == "responses are made in step 2, after every folder has been passed"
    for seat, card in enumerate(["D2", "A3", "C4"]):
        rules.apply(state, seat, Offer(card, 0))
    assert rules.why_illegal(state, 0, Offer("D2", 0)) == (
        "offers are made in step 1; now is secure the funds in the folder you received, or headhunt its card."
    )
    assert rules.why_illegal(state, 0, Respond("maybe")) == "respond with 'secure' or 'headhunt'"
    rules.apply(state, 0, Respond("secure"))
    # A seat that has responded owes nothing: a second SECURE is not mistaken for a HEADHUNT without the money.
    assert rules.why_illegal(state, 0, Respond("secure")) == "'respond secure' is not a legal action now"
    rules.apply(state, 1, Respond("headhunt"))
    rules.apply(state, 2, Respond("secure"))
    assert state.step == PLACE and state.pending == [[], ["D2", "A3"], ["C4"]]
    assert rules.why_illegal(state, 1, Place(())) == ("your plan must place exactly your pending cards (Actor 3 (A3), Director 2 (D2))")
    assert rules.why_illegal(state, 2, Place((("C4", "A3"),))) == (
        "that plan breaks the placement rules: a card of the same occupation is replaced; "
        "a free slot must be used; only with a full Studio do you choose which card moves out"
    )


def test_a_position_states_its_options_in_full() -> None:
    """§6 options: an explicit position plays the base game unless told otherwise, and says so in its options.

    The options are shown in every observation, so the names matter. Kills position()'s renamed default keys.
    """
    state = rules.position(3, hands=[["D2"], ["A3"], ["C4"]])
    assert state.options == {"destination_change": False, "movie_awards": False, "data": None}
    assert GAME.observe(state, 0)["options"] == {"destination_change": False, "movie_awards": False, "data": None}


def test_a_seat_that_has_offered_is_told_it_owes_nothing_r42() -> None:
    """R42 and R37: once a seat has committed its offer, another offer is refused as not legal now.

    Not as a bad amount: 0 and the whole wallet are amounts a seat may offer (R20). Kills why_illegal's
    ``amount <= 0``, ``amount < 1`` and ``amount >= wallet``.
    """
    state = rules.position(3, hands=[["D2", "D3"], ["A3"], ["C4"]])
    rules.apply(state, 0, Offer("D2", 0))
    assert rules.why_illegal(state, 0, Offer("D3", 0)) == "'offer D3 0' is not a legal action now"
    assert rules.why_illegal(state, 0, Offer("D3", 100)) == "'offer D3 100' is not a legal action now"


def test_two_pending_cards_are_listed_in_card_table_order_r9_r10() -> None:
    """R9/R10: two pending cards, both orders offered; the list starts with the card-table order, however they arrived.

    Seat 1 headhunts A3 before its own D2 comes back, yet its pending cards read D2, A3 (the legal list is the same
    for the same position, which records and golden games rely on). Kills resolve_responses' ``len(cards) > 2``.
    """
    state = rules.position(3, hands=[["A3"], ["D2"], ["C4"]])
    for seat, card in enumerate(["A3", "D2", "C4"]):
        rules.apply(state, seat, Offer(card, 0))
    for seat, choice in enumerate(["secure", "headhunt", "secure"]):
        rules.apply(state, seat, Respond(choice))
    assert state.pending == [[], ["D2", "A3"], ["C4"]]
    assert GAME.legal_actions(state, 1) == [Place((("D2", None), ("A3", None))), Place((("A3", None), ("D2", None)))]


# -- found by the full run of 2026-12-08 (docs/mutation.md) ---------------------------------------------------


def test_a_seed_always_deals_the_same_hands() -> None:
    """§3: the deck is shuffled by the seeded stream named for this game and its deal, so a record's seed replays the
    very same game in every version (records and golden games rely on it).

    Kills setup's changed ``Stream("cinecitta", "deal", seed)`` (another stream name or purpose deals other hands).
    """
    state = GAME.new_state(3, seed=1)
    assert state.hands == [
        ["C6", "A2", "C2", "A6", "C5", "D5", "C3", "A8"],
        ["S5", "D2", "A9", "C9", "A3", "D9", "S9", "S3"],
        ["D6", "D3", "S8", "D8", "A5", "P9", "S6", "S2"],
    ]
    assert GAME.new_state(5, seed=2).hands[4] == ["S2", "A2", "C7", "A5", "S7", "D5", "A7"]


def test_every_step_is_a_simultaneous_decision_with_its_prompt() -> None:
    """§4 steps 1-3 (R37): offers, responses and placements are made by every seat at once, in secret, each step with
    its own question; the seats that have committed are listed, those still to act are the decision's players.

    Kills decision()'s dropped ``simultaneous=True`` and ``prompt=PROMPTS[step]``.
    """
    state = GAME.new_state(3, seed=6)
    seen: dict[str, set[tuple[bool, str]]] = {}
    while not GAME.is_terminal(state):
        decision = GAME.decision(state)
        seen.setdefault(decision.kind, set()).add((decision.simultaneous, decision.prompt))
        assert set(decision.players) | set(decision.committed) == {0, 1, 2}
        assert not set(decision.players) & set(decision.committed)
        seat = decision.players[0]
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert seen == {
        OFFER: {(True, "Put one staff card and some money in your folder for your partner.")},
        RESPOND: {(True, "Secure the funds in the folder you received, or headhunt its card.")},
        PLACE: {(True, "Place your pending cards in your Studio.")},
    }


def test_a_folder_is_seen_only_by_its_sender_and_its_recipient() -> None:
    """§4 step 1: a folder passes face down; only the seat that filled it and the seat that receives it learn its card
    and money, when it is passed and when it comes back. A third seat's view of the events never holds it.

    Kills resolve_offers' ``audience=(seat, target)`` made public (``audience=None``, or left out).
    """
    state = GAME.new_state(4, seed=3)
    passed = returned = 0
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        for event in GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]):
            if event.kind == "folder_passed":
                passed += 1
                assert event.audience == (event.data["sender"], event.data["recipient"]), event
            elif event.kind == "folder_returned":
                returned += 1
                assert event.audience == (event.data["sender"], event.data["recipient"]), event
    assert passed == returned == 4 * 7
