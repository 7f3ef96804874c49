"""Maybe Movies rules that mutants of the rules modules showed untested (docs/mutation.md): each test kills named survivors."""

from __future__ import annotations

import random

from greenlight.core.events import Event
from greenlight.games.maybe_movies import GAME
from greenlight.games.maybe_movies.state import COST_CHOICE, EDIT_SLOT, EDIT_START, MOVIE_PICK, VOTE, MaybeMoviesState
from tests.games.maybe_movies.support import cast_votes, fillers, play, table, text_card, vote_position
from tests.games.maybe_movies.test_rules import blockbuster_position, change_position

ALL_EXPANSIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}
BREAKING_CHANGES = {"breaking_changes": True}
TWO_MOVIES = {"R1": (["money"], 1), "R2": (["money"], 1)}


def test_every_kind_of_decision_says_who_decides_what_and_whether_in_secret() -> None:
    """§4.2 (the vote is secret and simultaneous), §4.1 pitch, §4.7/§6.1 movie pick from a stack, §6.2 CHANGE edits,
    §6.3 a tie in a blockbuster cost: each decision's kind, simultaneity and prompt, word for word.

    Six seeded random 4-player games with every expansion meet each kind. Kills rules._vote_decision's and
    rules._make_decision's changed ``kind``, ``simultaneous`` and ``prompt``.
    """
    choose = random.Random(3).choice
    seen = set()
    for seed in range(6):
        state = GAME.new_state(4, seed, ALL_EXPANSIONS)
        while not GAME.is_terminal(state):
            decision = GAME.decision(state)
            seen.add((decision.kind, decision.simultaneous, decision.prompt))
            seat = decision.players[0]
            GAME.apply(state, seat, choose(GAME.legal_actions(state, seat)))
    assert seen == {
        ("pitch", False, "Pitch a movie: add market cards to the row in the order they are read, then finish."),
        ("vote", True, "Vote: choose a secret card from your hand."),
        ("movie_pick", False, "Pick the top card of this movie's stack."),
        ("cost_choice", False, "Decide a tie in a blockbuster cost text."),
        ("change_edit", False, "CHANGE: remove a row card, or add one of your personal cards."),
        ("change_edit", False, "CHANGE: add one of your personal cards, or finish the edit."),
        ("change_edit", False, "CHANGE: choose where in the pitch the added card goes (its place matters for blockbuster texts)."),
    }


def _kinds_and_data(events: list[Event]) -> list[tuple[str, dict[str, object]]]:
    return [(event.kind, dict(event.data)) for event in events]


def test_a_change_round_tells_every_edit_the_no_effect_change_the_cards_back_and_the_replacements() -> None:
    """§6.2 steps 1-5 (R26, R27, R29) as the log reads them, event by event: the lowest CHANGE edits first (a removal
    alone, which finishes by itself), a CHANGE left with a one-card row and no personal card has no effect, the
    non-CHANGE votes go back to their hands (also those after a seat that cast no vote), the CHANGE cards leave
    play, and the replacements are drawn in CHANGE order until the pool is empty.

    Kills the survivors of vote.next_edit, edit_remove, complete_edit and end_change_round (docs/mutation.md):
    the events' contents, the recorded CHANGE numbers, and ``continue`` -> ``break`` after a seat without a vote.
    """
    cards = table({"c3": "CHANGE 3", "c2": "CHANGE 2", "y": "YES money 2", "p": "NO camera 2", **fillers(9)}, TWO_MOVIES)
    state = vote_position(cards, ["R1", "R2"], [None, "c2", "y", "c3"], extra_in_hand=3, pool=["p"], options=BREAKING_CHANGES)
    revealed = _kinds_and_data(cast_votes(state, [None, "c2", "y", "c3"]))
    assert revealed[-2:] == [
        ("votes_revealed", {"votes": [None, "c2", "y", "c3"], "round": 1}),
        ("change_round", {"order": [[1, "c2"], [3, "c3"]]}),
    ]
    assert _kinds_and_data(play(state, 1, "remove R1")) == [
        ("row_card_removed", {"seat": 1, "card": "R1", "row": ["R2"]}),
        ("row_edited", {"seat": 1, "change": "c2", "removed": "R1", "added": None, "slot": None, "row": ["R2"], "K": 1}),
        ("change_no_effect", {"seat": 3, "change": "c3"}),
        ("cards_back", {"returned": [[2, "y"]]}),
        ("replacement_drawn", {"seat": 1, "card": "p"}),
        ("replacement_drawn", {"seat": 3, "card": None}),
        ("vote_started", {"voters": [1, 2, 3], "round": 2}),
    ]
    assert state.hands == [[], ["F0", "F1", "F2", "p"], ["F3", "F4", "F5", "y"], ["F6", "F7", "F8"]]
    assert state.known == [[], ["p"], ["y"], []] and state.out_of_play == ["c2", "c3"] and state.pool == []
    assert [(record.seat, record.card, record.number, record.had_effect) for record in state.change_records] == [
        (1, "c2", 2, True),
        (3, "c3", 3, False),
    ]


def test_an_edit_that_adds_a_personal_card_tells_the_refill_the_slot_and_the_new_k() -> None:
    """§6.2 step 2 (R28, R31): removing then adding a personal card counts once in K, the card goes to the right end,
    the personal cards are refilled at once (the discard pile made again when the draw pile runs out), and the
    next CHANGE-voter, now facing a two-card row, gets its edit."""
    cards = table(
        {"c3": "CHANGE 3", "c2": "CHANGE 2", "y": "YES money 2", **fillers(9)},
        {**TWO_MOVIES, "Q": (["camera"], 1), "D1": (["script"], 1)},
    )
    state = vote_position(
        cards, ["R1", "R2"], ["c3", "y", "c2"], extra_in_hand=3, personal=[[], [], ["Q"]], draw_pile=["D1"], options=BREAKING_CHANGES
    )
    cast_votes(state, ["c3", "y", "c2"])
    assert _kinds_and_data(play(state, 2, "remove R1")) == [("row_card_removed", {"seat": 2, "card": "R1", "row": ["R2"]})]
    assert _kinds_and_data(play(state, 2, "add Q")) == [
        ("reshuffled", {"cards": 1}),
        ("personal_drawn", {"seat": 2, "cards": ["D1", "R1"]}),
        ("row_edited", {"seat": 2, "change": "c2", "removed": "R1", "added": "Q", "slot": 1, "row": ["R2", "Q"], "K": 1}),
    ]
    assert GAME.decision(state).players == (0,) and state.edits == 1
    (record,) = state.change_records
    assert (record.number, record.removed, record.added, record.slot, record.refills) == (2, "R1", "Q", 1, ("D1", "R1"))


def _refusals(state: MaybeMoviesState, seat: int, texts: list[str]) -> dict[str, str]:
    return {text: GAME.why_illegal(state, seat, GAME.parse_action(text)) for text in texts}


def test_refusals_in_a_change_edit_and_in_the_vote_say_what_the_step_allows() -> None:
    """§6.2 (R27, R28) and §4.2, refusal by refusal: each step of a CHANGE edit with Blockbuster Budgets (start, after
    a removal, the slot) and the vote refuse every other action with the rule that forbids it, word for word.

    Kills why_illegal's survivors of the mutation run (docs/mutation.md): its messages and the branch conditions
    ``phase != CHANGE_EDIT``, ``edit_step != EDIT_SLOT`` and ``card not in row``.
    """
    state = change_position(["R1", "R2"], ["Q1", "Q2"], blockbuster=True)
    assert GAME.decision(state).players == (1,) and state.edit_step == EDIT_START
    assert _refusals(state, 1, ["finish", "remove Z", "add Z", "slot 0", "vote y", "pick R1", "profit 1"]) == {
        "finish": "a CHANGE edit must remove or add a card; it cannot be skipped",
        "remove Z": "Z is not in the row",
        "add Z": "Z is not one of your personal movie cards",
        "slot 0": "a slot is chosen only after adding a card in a CHANGE edit with Blockbuster Budgets",
        "vote y": "votes are cast after the pitch is finished",
        "pick R1": "a card is picked for Movies Made only at the end of a turn",
        "profit 1": "there is no blockbuster text to decide now",
    }
    play(state, 1, "remove R1")
    assert _refusals(state, 1, ["remove R2", "add Z", "slot 0"]) == {
        "remove R2": "an edit removes at most one card, before adding",
        "add Z": "Z is not one of your personal movie cards",
        "slot 0": "a slot is chosen only after adding a card in a CHANGE edit with Blockbuster Budgets",
    }
    play(state, 1, "add Q1")
    assert state.edit_step == EDIT_SLOT
    assert _refusals(state, 1, ["add Q2", "finish", "slot 2", "remove R2"]) == {
        "add Q2": "choose the slot for the card you added first",
        "finish": "choose the slot for the card you added first",
        "slot 2": "the slot must be from 0 to 1",
        "remove R2": "an edit removes at most one card, before adding",
    }
    play(state, 1, "slot 0")
    assert state.phase == VOTE and state.row == ["Q1", "R2"]
    assert _refusals(state, 0, ["vote Z", "add R2", "finish", "remove R2", "slot 0", "pick R2"]) == {
        "vote Z": "Z is not in your hand",
        "add R2": "cards are added to the row while pitching or in a CHANGE edit",
        "finish": "there is nothing to finish now",
        "remove R2": "row cards are removed only in a CHANGE edit",
        "slot 0": "a slot is chosen only after adding a card in a CHANGE edit with Blockbuster Budgets",
        "pick R2": "a card is picked for Movies Made only at the end of a turn",
    }


def test_refusals_at_a_blockbuster_choice_and_at_the_movie_pick_list_what_is_allowed() -> None:
    """§6.3 (a tie in a blockbuster cost is the active player's choice, R38) and §4.7 (the top card of a stack comes
    from the row): a wrong choice lists the legal ones; a card from elsewhere is not in this movie's row."""
    t = text_card("T", "copycat_most_neighbor", "pitch_size")
    state = blockbuster_position(["L", "T", "R"], [t], ["v0", "v1", "v2"], {"L": (["money"], 1), "R": (["camera"], 1)})
    assert state.phase == COST_CHOICE
    assert _refusals(state, 0, ["copy T", "icon money", "profit 2"]) == dict.fromkeys(
        ["copy T", "icon money", "profit 2"], "choose one of: copy L, copy R"
    )
    assert GAME.why_illegal(state, 0, GAME.parse_action("pick L")) == "a card is picked for Movies Made only at the end of a turn"
    play(state, 0, "copy R")
    assert state.phase == MOVIE_PICK
    assert _refusals(state, 0, ["pick Z", "copy L", "finish"]) == {
        "pick Z": "Z is not in this movie's row",
        "copy L": "there is no blockbuster text to decide now",
        "finish": "there is nothing to finish now",
    }
