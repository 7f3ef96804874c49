"""Exact legal-action sets on fixed positions, automatic steps, the turn sequence and the end of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from greenlight.core.errors import IllegalActionError
from greenlight.core.spec import OptionValue
from greenlight.games.maybe_movies import GAME, rules
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    MOVIE_PICK,
    OVER,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    MaybeMoviesState,
    Stack,
)
from tests.games.maybe_movies.support import cast_votes, fillers, legal, legal_list, play, stack, table, text_card, vote_position

ICON_MOVIES = {name: (["money"], 1) for name in ("A", "B", "C", "D", "E", "F", "R", "R1", "R2", "Q1", "Q2", "D1", "D2")}


def pitch_position(options: dict[str, object] | None = None, market: tuple[str, ...] = ("A", "B", "C")) -> MaybeMoviesState:
    cards = table({"y0": "YES money 2", "y1": "YES money 3", "y2": "YES money 4", **fillers(6)}, ICON_MOVIES)
    hands = [["y0", "F0", "F1"], ["y1", "F2", "F3"], ["y2", "F4", "F5"]]
    return rules.position(3, hands=hands, table=cards, market=list(market), options=options)


# -- PITCH ---------------------------------------------------------------------------------------


def test_pitch_without_blockbuster_adds_in_market_order_only() -> None:
    state = pitch_position()
    assert state.phase == PITCH and GAME.decision(state).players == (0,)
    assert legal_list(state, 0) == ["add A", "add B", "add C"]
    assert legal(state, 1) == set()
    play(state, 0, "add B")
    assert legal_list(state, 0) == ["add C", "finish"]  # R16: {A, B} is reached only by adding A first
    with pytest.raises(IllegalActionError, match="market order"):
        play(state, 0, "add A")
    play(state, 0, "finish")
    assert state.row == ["B"] and state.phase == VOTE


def test_pitch_with_blockbuster_is_an_ordered_sequence() -> None:
    state = pitch_position({"blockbuster_budgets": True})
    play(state, 0, "add C")
    assert legal_list(state, 0) == ["add A", "add B", "finish"]
    play(state, 0, "add A")
    play(state, 0, "finish")
    assert state.row == ["C", "A"]


def test_a_pitch_of_the_whole_market_finishes_by_itself() -> None:
    state = pitch_position()
    play(state, 0, "add A")
    play(state, 0, "add B")
    events = play(state, 0, "add C")  # only "finish" is left: applied automatically (§4.0)
    assert state.row == ["A", "B", "C"] and state.phase == VOTE
    assert [event.kind for event in events][:2] == ["pitch_added", "pitched"]


def test_a_one_card_market_is_pitched_automatically() -> None:
    state = pitch_position(market=("A",))
    assert state.phase == VOTE and state.row == ["A"] and state.pitched == ("A",)


def test_finish_needs_a_card_and_the_market_refills_after_the_pitch() -> None:
    cards = table({"y0": "YES money 2", **fillers(6)}, ICON_MOVIES)
    state = rules.position(3, hands=[["y0", "F0"], ["F1", "F2"], ["F3", "F4"]], table=cards, market=["A", "B"], draw_pile=["C", "D", "E"])
    with pytest.raises(IllegalActionError, match="at least 1 card"):
        play(state, 0, "finish")
    play(state, 0, "add A")
    play(state, 0, "finish")
    assert state.row == ["A"]
    assert state.market == ["B", "C", "D", "E"]  # T3 refill; R4: the pitch is already locked


# -- VOTE ----------------------------------------------------------------------------------------


def test_every_seat_with_cards_votes_including_the_active_player() -> None:
    state = pitch_position(market=("A",))
    decision = GAME.decision(state)
    assert decision.simultaneous and decision.players == (0, 1, 2) and decision.committed == ()
    assert legal_list(state, 0) == ["vote y0", "vote F0", "vote F1"]
    play(state, 1, "vote F2")
    decision = GAME.decision(state)
    assert decision.players == (0, 2) and decision.committed == (1,)
    assert legal(state, 1) == set()
    with pytest.raises(IllegalActionError, match="already made its choice"):
        play(state, 1, "vote y1")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        play(state, 0, "vote y1")


def test_a_single_card_is_voted_automatically_and_empty_hands_skip_the_vote() -> None:
    cards = table({"y0": "YES money 2", "y1": "YES money 3", **fillers(2)}, ICON_MOVIES)
    # P0 (active) has no cards left but still pitches (R30); P1 holds one card; P2 two.
    state = rules.position(3, hands=[[], ["y1"], ["y0", "F0"]], table=cards, market=["A"])
    assert state.voters == (1, 2)
    decision = GAME.decision(state)
    assert decision.players == (2,) and decision.committed == (1,)


def test_votes_stay_hidden_until_every_voter_has_chosen() -> None:
    state = pitch_position(market=("A",))
    play(state, 0, "vote y0")
    play(state, 1, "vote y1")
    for viewer in (1, 2, None):
        observation = GAME.observe(state, viewer)
        assert "y0" not in str(observation)
        assert observation["committed"] == [0, 1]
    assert GAME.observe(state, 0)["my_vote"] == "y0"
    assert GAME.observe(state, 1)["my_vote"] == "y1"
    play(state, 2, "vote y2")
    history = GAME.observe(state, 1)["history"]
    assert history[-1]["reveals"] == [["y0", "y1", "y2"]]


# -- CHANGE_EDIT ------------------------------------------------------------------------------------


def change_position(row: list[str], personal: list[str], blockbuster: bool = False) -> MaybeMoviesState:
    cards = table({"c1": "CHANGE 1", "y": "YES money 2", "n": "NO actors 1", **fillers(12)}, ICON_MOVIES)
    state = vote_position(
        cards,
        row,
        ["y", "c1", "n"],
        extra_in_hand=3,
        personal=[[], personal, []],
        draw_pile=["D1", "D2"],
        options={"breaking_changes": True, "blockbuster_budgets": blockbuster},
    )
    cast_votes(state, ["y", "c1", "n"])
    return state


def test_change_edit_options_on_a_one_card_row() -> None:
    state = change_position(["R"], ["Q1", "Q2"])
    assert state.phase == CHANGE_EDIT and GAME.decision(state).players == (1,)
    assert legal(state, 1) == {"remove R", "add Q1", "add Q2"}
    play(state, 1, "remove R")
    assert legal(state, 1) == {"add Q1", "add Q2"}  # the row must keep a card: no "finish"
    with pytest.raises(IllegalActionError, match="at least 1 card"):
        play(state, 1, "finish")
    play(state, 1, "add Q2")
    assert state.row == ["Q2"] and state.discard == ["R"] and state.personal[1] == ["Q1", "D1"] and state.edits == 1


def test_change_edit_options_on_a_two_card_row_without_personal_cards() -> None:
    state = change_position(["R1", "R2"], [])
    assert legal(state, 1) == {"remove R1", "remove R2"}
    play(state, 1, "remove R1")  # only "finish" is left: applied automatically
    assert state.row == ["R2"] and state.phase == VOTE and state.edits == 1


def test_a_change_with_no_legal_edit_has_no_effect_but_still_draws_a_replacement() -> None:
    cards = table({"c1": "CHANGE 1", "y": "YES money 2", "n": "NO actors 1", "p": "NO camera 2", **fillers(12)}, ICON_MOVIES)
    state = vote_position(cards, ["R"], ["y", "c1", "n"], extra_in_hand=3, pool=["p"], options={"breaking_changes": True})
    cast_votes(state, ["y", "c1", "n"])
    assert state.phase == VOTE and state.row == ["R"] and state.edits == 0
    assert state.change_records[0].had_effect is False and state.change_records[0].replacement == "p"
    assert state.hands[1][-1] == "p" and state.known[1] == ["p"]


def test_with_blockbuster_the_change_voter_chooses_the_slot() -> None:
    state = change_position(["R1", "R2"], ["Q1"], blockbuster=True)
    play(state, 1, "add Q1")
    assert legal_list(state, 1) == ["slot 0", "slot 1", "slot 2"]
    play(state, 1, "slot 1")
    assert state.row == ["R1", "Q1", "R2"]


def test_a_change_card_may_be_played_again_in_the_re_vote() -> None:
    cards = table({"c1": "CHANGE 1", "c2": "CHANGE 2", "y": "YES money 2", "n": "NO actors 1", **fillers(12)}, ICON_MOVIES)
    state = vote_position(cards, ["R1", "R2", "A"], ["y", "c1", "n"], extra_in_hand=3, options={"breaking_changes": True})
    state.hands[2].append("c2")
    cast_votes(state, ["y", "c1", "n"])
    play(state, 1, "remove R1")
    assert state.phase == VOTE and state.out_of_play == ["c1"] and state.row == ["R2", "A"]
    cast_votes(state, ["y", "F3", "c2"])
    assert state.phase == CHANGE_EDIT and GAME.decision(state).players == (2,)


def test_an_empty_re_vote_resolves_and_ends_the_game() -> None:
    cards = table({"c1": "CHANGE 1", "c2": "CHANGE 2", "c3": "CHANGE 3"}, ICON_MOVIES)
    state = rules.position(3, hands=[["c1"], ["c2"], ["c3"]], table=cards, row=["R"], options={"breaking_changes": True})
    # Every vote is a single CHANGE card (automatic); no legal edit on a 1-card row without personal cards;
    # the re-vote finds every hand empty: an empty final vote (R42); money 1 is not paid: FAIL; the game ends.
    assert state.phase == OVER
    record = state.history[-1]
    assert record.rounds == (("c1", "c2", "c3"), (None, None, None))
    assert record.check.success is False and record.settlement.won == ((), (), ())
    assert sorted(state.out_of_play) == ["c1", "c2", "c3"]


# -- COST_CHOICE and PROFIT_CHOICE -------------------------------------------------------------------


def blockbuster_position(
    row: list[str], texts: list[object], votes: list[str], movies: dict[str, tuple[list[str], int]]
) -> MaybeMoviesState:
    cards = table({"v0": "YES money 4", "v1": "YES camera 4", "v2": "NO script 1", **fillers(6)}, movies, texts)  # type: ignore[arg-type]
    state = vote_position(cards, row, votes, options={"blockbuster_budgets": True})
    cast_votes(state, votes)
    return state


def test_copycat_neighbour_tie_with_different_costs_is_a_cost_choice() -> None:
    t = text_card("T", "copycat_most_neighbor", "pitch_size")
    state = blockbuster_position(["L", "T", "R"], [t], ["v0", "v1", "v2"], {"L": (["money"], 1), "R": (["camera"], 1)})
    assert state.phase == COST_CHOICE and GAME.decision(state).players == (0,)
    assert legal_list(state, 0) == ["copy L", "copy R"]
    play(state, 0, "copy R")
    assert state.evaluation is not None and state.evaluation.base_costs[1] == (0, 0, 0, 0, 1, 0, 0)
    assert state.phase == MOVIE_PICK and state.cost_choices == ["R"]
    assert state.evaluation.profits == (1, 3, 1)


def test_copycat_neighbour_tie_with_equal_costs_is_no_choice() -> None:
    t = text_card("T", "copycat_least_neighbor", "pitch_size")
    state = blockbuster_position(["L", "T", "R"], [t], ["v0", "v1", "v2"], {"L": (["money"], 1), "R": (["money"], 2)})
    assert state.phase != COST_CHOICE  # R38: identical options are not offered
    assert state.evaluation is not None and state.evaluation.need[0] == 3


def test_copycat_icon_tie_is_a_cost_choice_among_the_tied_icons() -> None:
    t = text_card("T", "copycat_least_icon", "pitch_size")
    state = blockbuster_position(["L", "T"], [t], ["v0", "v1", "v2"], {"L": (["money", "camera", "camera", "script"], 1)})
    assert legal_list(state, 0) == ["icon money", "icon script"]
    play(state, 0, "icon script")
    record = state.history[-1]
    assert record.cost_choices == (2,) and record.evaluation.base_costs[1] == (0, 0, 2, 0, 0, 0, 0)
    assert record.check.need == (1, 0, 3, 0, 2, 0)


def test_wildcard_profit_is_a_profit_choice_after_a_success() -> None:
    t = text_card("T", "pitch_size_conditional", "wildcard_profit", x="money")
    state = blockbuster_position(["L", "T"], [t], ["v0", "v1", "v2"], {"L": (["camera"], 1)})
    assert state.result is not None and state.result.success
    assert state.phase == PROFIT_CHOICE
    assert legal_list(state, 0) == ["profit 1", "profit 2", "profit 3"]
    play(state, 0, "profit 3")
    assert state.phase == MOVIE_PICK
    assert state.evaluation is not None and state.evaluation.profits == (1, 3)


def test_copycat_most_profit_tie_offers_the_distinct_profits() -> None:
    t = text_card("T", "num_changes", "copycat_most")
    state = blockbuster_position(
        ["L", "T", "R", "S"], [t], ["v0", "v1", "v2"], {"L": (["money"], 1), "R": (["camera"], 3), "S": (["camera"], 3)}
    )
    assert state.phase == PROFIT_CHOICE
    assert legal_list(state, 0) == ["profit 1", "profit 3"]


def test_no_profit_choice_after_a_failure() -> None:
    t = text_card("T", "wildcard_cost", "wildcard_profit", n=3)
    state = blockbuster_position(["L", "T"], [t], ["v0", "v1", "v2"], {"L": (["actors", "actors", "actors"], 1)})
    # D = 3 and W = 4, but S - 2D = 8 - 6 = 2 < A = 3.
    assert state.history and state.history[-1].check.success is False
    assert state.history[-1].evaluation.profits is None


# -- MOVIE_PICK and Trendsetter ------------------------------------------------------------------------


def test_trendsetter_failure_still_makes_a_stack_with_a_chosen_top() -> None:
    cards = table({"n0": "NO money 1", "n1": "NO money 1", "n2": "NO money 1", **fillers(6)}, ICON_MOVIES)
    state = vote_position(cards, ["A", "B"], ["n0", "n1", "n2"], options={"trendsetter_tricks": True})
    cast_votes(state, ["n0", "n1", "n2"])
    assert state.phase == MOVIE_PICK and legal(state, 0) == {"pick A", "pick B"}
    play(state, 0, "pick B")
    assert state.made == [Stack(("A", "B"), "B", False)]
    assert state.discard == []


def test_trendsetter_empty_market_ends_the_game_with_cards_left() -> None:
    cards = table({"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", **fillers(6)}, ICON_MOVIES)
    state = rules.position(
        3,
        hands=[["y0", "F0", "F1"], ["y1", "F2", "F3"], ["y2", "F4", "F5"]],
        table=cards,
        market=["A"],
        options={"trendsetter_tricks": True},
    )
    cast_votes(state, ["y0", "y1", "y2"])
    # The only card became a stack; T1 of the next turn finds no card anywhere (R17).
    assert state.phase == OVER and state.made == [Stack(("A",), "A", True)]
    assert [len(hand) for hand in state.hands] == [2, 2, 2]


# -- whole games -------------------------------------------------------------------------------------------


def random_game(n: int, seed: int, options: dict[str, OptionValue] | None = None) -> MaybeMoviesState:
    state = GAME.new_state(n, seed, options)
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        seat = rng.choice(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize(("n", "pitches"), [(3, [4, 3, 3]), (4, [3, 3, 2, 2]), (5, [2] * 5), (6, [2, 2, 2, 2, 1, 1])])
def test_without_breaking_changes_the_game_lasts_exactly_ten_turns(n: int, pitches: list[int]) -> None:
    for seed in range(5):
        state = random_game(n, seed, {"blockbuster_budgets": seed % 2 == 1})
        assert len(state.history) == 10
        assert [sum(1 for record in state.history if record.active == seat) for seat in range(n)] == pitches
        assert all(not hand for hand in state.hands)
        assert sum(map(len, state.won)) + len(state.pool) == 60


def test_breaking_changes_games_last_ten_to_twelve_turns() -> None:
    for seed in range(8):
        state = random_game(4, seed, {"breaking_changes": True})
        assert 10 <= len(state.history) <= 12
        assert all(not hand for hand in state.hands)
        assert sum(map(len, state.won)) + len(state.pool) == 60 and len(state.out_of_play) <= 8


def test_outcome_shares_the_win_on_ties() -> None:
    cards = table({"w0": "YES money 2", "w1": "NO money 1", "w2": "YES camera 2"}, {"A": (["money"], 1)})
    state = rules.position(3, hands=[[], [], []], table=cards, won=[["w0"], ["w1"], ["w2"]], made=[stack("A", True)], market=["A"])
    state.phase = OVER
    outcome = GAME.outcome(state)
    assert outcome.scores == (1.0, 1.0, 0.0)
    assert outcome.ranks == (1, 1, 3)
    assert outcome.winners == (0, 1)
    assert outcome.breakdown[2] == {
        "won_cards": 1,
        "money": 0,
        "actors": 0,
        "script": 0,
        "setting": 0,
        "camera": 0,
        "microphone": 0,
    }
    assert outcome.breakdown[0]["money"] == 1


def assert_cards_conserved(state: MaybeMoviesState) -> None:
    """Every card in play is in exactly one place (the final vote is on the table until it is settled)."""
    table = state.table
    votes: Counter[str] = Counter()
    for cards in (*state.hands, state.pool, *state.won, state.out_of_play):
        votes.update(cards)
    if state.phase in (CHANGE_EDIT, COST_CHOICE, PROFIT_CHOICE):
        votes.update(card for card in state.rounds[-1] if card is not None)
    expected = [card.id for card in table.votes]
    if state.breaking:
        expected += [card.id for card in table.changes if card.number <= 2 * state.num_players]
    assert sorted(votes.elements()) == sorted(expected)
    movies: Counter[str] = Counter()
    for pile in (state.draw_pile, state.market, state.row, state.discard, *state.personal, *(s.cards for s in state.made)):
        movies.update(pile)
    if state.phase == CHANGE_EDIT and state.edit_added is not None and state.edit_added not in state.row:
        movies[state.edit_added] += 1  # added, waiting for its slot
    expected = [card.id for card in table.movies] + ([card.id for card in table.blockbusters] if state.blockbuster else [])
    assert sorted(movies.elements()) == sorted(expected)
    for seat in range(state.num_players):
        assert set(state.known[seat]) <= set(state.hands[seat])


def test_every_card_is_always_in_exactly_one_place() -> None:
    for game in range(48):
        n = 3 + game % 4
        options = {"trendsetter_tricks": bool(game & 1), "breaking_changes": bool(game & 2), "blockbuster_budgets": bool(game & 4)}
        state = GAME.new_state(n, game, options)
        rng = random.Random(game)
        assert_cards_conserved(state)
        while not GAME.is_terminal(state):
            seat = rng.choice(GAME.decision(state).players)
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            assert_cards_conserved(state)
