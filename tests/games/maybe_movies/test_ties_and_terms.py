"""Every tie, tie-break, defined term and option switch of the Maybe Movies rules, each built as a position.

One test per row of the table "Ties, tie-breaks and defined terms" in docs/maybe_movies.md; each docstring
cites the rules file's own numbering (shared/rules/maybe_movies.md). Random play and the golden games almost
never reach these states, so each test constructs it and asserts the exact numbers the rule gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from greenlight.games.maybe_movies import GAME, rules
from greenlight.games.maybe_movies.budget import CheckResult, Cost, Evaluation
from greenlight.games.maybe_movies.cards import ICON_INDEX, MovieCard, balanced_picks
from greenlight.games.maybe_movies.chance import play_stream, random_index, shuffle
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    MOVIE_PICK,
    OVER,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    MaybeMoviesState,
    Settlement,
    Stack,
)
from tests.games.maybe_movies.support import (
    cast_votes,
    fillers,
    legal,
    legal_list,
    play,
    stack,
    table,
    text_card,
    vote_position,
    won_counts,
)

BB = {"blockbuster_budgets": True}
TS = {"trendsetter_tricks": True}
BC = {"breaking_changes": True}
Movies = Mapping[str, tuple[Sequence[str], int]]


def resolved(
    row: Sequence[str],
    votes: Sequence[str | None],
    movies: Movies | None = None,
    texts: Sequence[MovieCard] = (),
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> MaybeMoviesState:
    """The position after the final vote on ``row``: seat s votes the card ``votes[s]`` ("YES camera 3") or has an empty hand (None).

    Seat s's card is called ``v<s>``; every voter also holds two filler cards, so no vote is automatic.
    """
    ids = [None if text is None else f"v{seat}" for seat, text in enumerate(votes)]
    cards = table({**{f"v{seat}": text for seat, text in enumerate(votes) if text is not None}, **fillers(2 * len(votes))}, movies, texts)
    state = vote_position(cards, row, ids, options=options, **kwargs)
    cast_votes(state, ids)
    return state


def turn_one(state: MaybeMoviesState) -> tuple[Evaluation, CheckResult | None, Settlement | None]:
    """The evaluation, check and settlement of turn 1 (from the turn record once the turn is over)."""
    if state.history:
        record = state.history[0]
        return record.evaluation, record.check, record.settlement
    assert state.evaluation is not None
    return state.evaluation, state.result, state.settlement


def base_costs(state: MaybeMoviesState) -> tuple[Cost, ...]:
    """The base costs of turn 1's final row."""
    return turn_one(state)[0].base_costs


def profits(state: MaybeMoviesState) -> tuple[int, ...] | None:
    """The final profits of turn 1's final row (None after a failure)."""
    return turn_one(state)[0].profits


def checked(state: MaybeMoviesState) -> CheckResult:
    """Turn 1's success check."""
    result = turn_one(state)[1]
    assert result is not None
    return result


def settled(state: MaybeMoviesState) -> Settlement:
    """Turn 1's payout or failure."""
    settlement = turn_one(state)[2]
    assert settlement is not None
    return settlement


def cost(units: int = 0, **icons: int) -> Cost:
    """A cost value: named icons by name, then ``units`` any-units."""
    counts = [0] * 7
    for icon, count in icons.items():
        counts[ICON_INDEX[icon]] = count
    counts[6] = units
    return tuple(counts)  # type: ignore[return-value]


EMPTY = cost()


def finished(state: MaybeMoviesState) -> MaybeMoviesState:
    """``state`` marked as over, to read its outcome."""
    state.phase = OVER
    return state


def scored(won: Sequence[Sequence[str]], made: Sequence[Stack], votes: Mapping[str, str], movies: Movies, **options: Any) -> Any:
    """The outcome of a finished position with these won areas and Movies Made (an empty market: no turn is played)."""
    cards = table(dict(votes), movies, ())
    state = rules.position(len(won), hands=[[] for _ in won], table=cards, won=won, made=made, options=options)
    return GAME.outcome(finished(state))


# -- §5.2 score and §5.3 ties (the final ranking has one key, the score; there is no tie-break) ----------------------

SCORE_VOTES = {
    "ym": "YES money 4",
    "nm": "NO money 1",
    "ya": "YES actors 2",
    "na": "NO actors 1",
    "ys": "YES script 3",
    "nc": "NO camera 2",
}
SCORE_MOVIES: Movies = {"A": (["money", "actors"], 1), "B": (["money"], 1), "C": (["camera"], 1), "X": (["script"], 1)}
SCORE_MADE = [stack("A", True), stack("B", True), stack("C", True)]  # MM: money 2, actors 1, camera 1


def test_two_seats_tied_on_top_share_the_win_and_first_place() -> None:
    """§5.3 (R18): every seat with the highest score wins; tied seats share a place (competition ranking)."""
    outcome = scored([["ym"], ["nm"], ["ya"]], SCORE_MADE, SCORE_VOTES, SCORE_MOVIES)
    assert outcome.scores == (2.0, 2.0, 1.0)
    assert outcome.ranks == (1, 1, 3)
    assert outcome.winners == (0, 1)


def test_three_seats_tied_on_top_all_win() -> None:
    """§5.3: a shared victory of three seats; the fourth is ranked 4th, not 2nd."""
    outcome = scored([["ya"], ["na"], ["nc"], ["ys"]], SCORE_MADE, SCORE_VOTES, SCORE_MOVIES)
    assert outcome.scores == (1.0, 1.0, 1.0, 0.0)
    assert outcome.ranks == (1, 1, 1, 4)
    assert outcome.winners == (0, 1, 2)


def test_a_tie_below_the_top_shares_a_place_and_skips_the_next() -> None:
    """§5.3: tied seats below the top share their place too (1, 2, 2, 4); only the top seat wins."""
    outcome = scored([["ym", "nm"], ["ya"], ["nc"], ["ys"]], SCORE_MADE, SCORE_VOTES, SCORE_MOVIES)
    assert outcome.scores == (4.0, 1.0, 1.0, 0.0)
    assert outcome.ranks == (1, 2, 2, 4)
    assert outcome.winners == (0,)


def test_more_won_cards_or_higher_values_do_not_break_a_tie() -> None:
    """§5.3 (R18): no second key. Seat 0 has three won cards of value 4+2+3, seat 1 one card of value 1: both score 2."""
    outcome = scored([["ya", "na", "ys"], ["nm"]], SCORE_MADE, SCORE_VOTES, SCORE_MOVIES)
    assert outcome.scores == (2.0, 2.0)
    assert outcome.ranks == (1, 1)
    assert outcome.winners == (0, 1)
    assert [item["won_cards"] for item in outcome.breakdown] == [3, 1]


def test_a_won_card_scores_once_whatever_its_value() -> None:
    """§5.2 (R11): YES money 4 and NO money 1 both score MM[money] = 2; the value never multiplies."""
    outcome = scored([["ym"], ["nm"], ["nc"]], SCORE_MADE, SCORE_VOTES, SCORE_MOVIES)
    assert outcome.scores == (2.0, 2.0, 1.0)
    assert outcome.breakdown[0]["money"] == 2 and outcome.breakdown[1]["money"] == 2


def test_trendsetter_scoring_counts_failed_tops_and_no_card_below_a_top() -> None:
    """§5.2, §6.1 step 4 (R23): MM counts the top of every stack, failed ones included, and nothing under a top."""
    made = [Stack(("A", "C"), "A", False), Stack(("B", "C2"), "B", True)]
    movies = {**SCORE_MOVIES, "C2": (["camera"], 1)}
    outcome = scored([["ym"], ["ya"], ["nc"]], made, SCORE_VOTES, movies, trendsetter_tricks=True)
    assert outcome.scores == (2.0, 1.0, 0.0)  # money 2 (A and B), actors 1 (A), camera 0 (C and C2 are under tops)


def test_a_blockbuster_in_movies_made_scores_its_x_and_nothing_else() -> None:
    """§5.2, §6.3 (R37): a text card shows only its X; without X it adds no icon."""
    with_x = text_card("T", "pitch_size", "pitch_size", x="camera")
    without_x = text_card("U", "wildcard_cost", "pitch_size", n=2)
    cards = table(SCORE_VOTES, {"X": (["script"], 1)}, [with_x, without_x])
    state = rules.position(
        3,
        hands=[[], [], []],
        table=cards,
        won=[["nc"], ["ym"], ["ys"]],
        made=[stack("T", True), stack("U", True)],
        options=BB,
    )
    assert GAME.outcome(finished(state)).scores == (1.0, 0.0, 0.0)
    assert rules.icon_counts(state) == [0, 0, 0, 0, 1, 0]


def test_left_over_hand_cards_never_score() -> None:
    """§5.1: cards still in hand when the game ends (here: an empty market, R17) score nothing."""
    cards = table({"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", **fillers(6)}, {"A": (["money"], 1)})
    state = rules.position(3, hands=[["y0", "F0", "F1"], ["y1", "F2", "F3"], ["y2", "F4", "F5"]], table=cards, market=["A"], options=TS)
    cast_votes(state, ["y0", "y1", "y2"])
    assert state.phase == OVER and [len(hand) for hand in state.hands] == [2, 2, 2]
    outcome = GAME.outcome(state)
    # MM money 1; only the one collected vote (P = 1, won by the active player as the remainder) scores; fillers are NO microphone.
    assert outcome.scores == (1.0, 0.0, 0.0)
    assert won_counts(state) == [1, 0, 0]


# -- §4.4 the success check at its edges -------------------------------------------------------------------------------


def test_wildcards_equal_to_the_shortfall_succeed_and_one_fewer_fails() -> None:
    """§4.4 step 5: W >= D; W = D = 2 is a success, W = 1 < D = 2 a failure."""
    movies = {"A": (["money", "setting"], 1)}
    state = resolved(["A"], ["YES script 4", "NO camera 1", "NO actors 1"], movies)
    result = checked(state)
    assert (result.shortfall_total, result.wildcards, result.surplus_total, result.success) == (2, 2, 4, True)
    state = resolved(["A"], ["YES script 3", "NO camera 1", "NO actors 1"], movies)
    result = checked(state)
    assert (result.shortfall_total, result.wildcards, result.surplus_total, result.success) == (2, 1, 3, False)


def test_surplus_after_the_shortfall_equal_to_the_any_units_succeeds_and_one_less_fails() -> None:
    """§4.4 step 5, §2.5 cost #9 (R34): S - 2D >= A; each any unit takes one surplus icon left after the D pairs."""
    wild = text_card("T", "wildcard_cost", "pitch_size", n=2)
    movies = {"A": (["money"], 1)}
    state = resolved(["A", "T"], ["YES script 4", "NO camera 1", "NO actors 1"], movies, [wild], BB)
    result = checked(state)
    assert base_costs(state) == (cost(money=1), cost(2))
    assert (result.any_units, result.shortfall_total, result.surplus_total, result.wildcards, result.success) == (2, 1, 4, 2, True)
    state = resolved(["A", "T"], ["YES script 3", "NO camera 1", "NO actors 1"], movies, [wild], BB)
    result = checked(state)
    assert (result.any_units, result.shortfall_total, result.surplus_total, result.wildcards, result.success) == (2, 1, 3, 1, False)


def test_a_wildcard_needs_two_surplus_icons_of_one_type() -> None:
    """§4.4 step 4: W = sum floor(s[i] / 2); one surplus script and one surplus camera make no wildcard."""
    movies = {"A": (["money"], 1)}
    state = resolved(["A"], ["YES script 2", "NO script 1", "YES camera 2", "NO camera 1"], movies)
    result = checked(state)
    assert (result.surplus, result.wildcards, result.success) == ((0, 0, 1, 0, 1, 0), 0, False)
    state = resolved(["A"], ["YES script 3", "NO script 1", "YES camera 2", "NO camera 1"], movies)
    result = checked(state)
    assert (result.surplus, result.wildcards, result.success) == ((0, 0, 2, 0, 1, 0), 1, True)


def test_a_negative_net_counts_on_a_needed_icon_only() -> None:
    """§4.4 step 2 (R3): need 1, net -2 gives shortfall 3; a negative net on an icon not needed costs nothing."""
    movies = {"A": (["money"], 1)}
    state = resolved(["A"], ["YES script 4", "YES script 2", "NO money 2"], movies)
    result = checked(state)
    assert (result.shortfall, result.shortfall_total, result.wildcards, result.success) == ((3, 0, 0, 0, 0, 0), 3, 3, True)
    state = resolved(["A"], ["YES script 2", "YES money 2", "NO camera 2"], movies)
    result = checked(state)
    assert (result.shortfall, result.surplus, result.success) == ((0, 0, 0, 0, 0, 0), (1, 0, 2, 0, 0, 0), True)
    state = resolved(["A"], ["YES script 3", "YES script 2", "NO money 2"], movies)
    assert (checked(state).shortfall_total, checked(state).wildcards, checked(state).success) == (3, 2, False)


# -- §4.5 payout at its edges -----------------------------------------------------------------------------------------


def payout_state(profit: int, votes: Sequence[str | None], pool: int = 0, **kwargs: Any) -> MaybeMoviesState:
    """A success on one card [money] with this profit; ``pool`` cards (``p0``...) lie in the pool."""
    ids = [None if text is None else f"v{seat}" for seat, text in enumerate(votes)]
    pool_cards = {f"p{index}": "NO setting 1" for index in range(pool)}
    cards = table(
        {**{f"v{seat}": text for seat, text in enumerate(votes) if text is not None}, **fillers(2 * len(votes)), **pool_cards},
        {"A": (["money"], profit)},
    )
    state = vote_position(cards, ["A"], ids, pool=list(pool_cards), **kwargs)
    cast_votes(state, ids)
    return state


def test_profit_equal_to_the_votes_takes_nothing_from_the_pool_and_one_more_takes_one() -> None:
    """§4.5 step 1: 1 <= P <= |L| collects P of L; P = |L| + 1 collects all of L and exactly 1 pool card."""
    votes = ["YES money 2", "YES money 2", "YES money 2"]
    state = payout_state(3, votes, pool=2)
    settlement = settled(state)
    assert sorted(settlement.collected) == ["v0", "v1", "v2"] and settlement.to_pool == ()
    assert len(state.pool) == 2 and won_counts(state) == [1, 1, 1]
    state = payout_state(4, votes, pool=2)
    settlement = settled(state)
    assert len(settlement.collected) == 4 and {"v0", "v1", "v2"} < set(settlement.collected)
    assert len(state.pool) == 1 and won_counts(state) == [2, 1, 1]


def test_a_short_pool_pays_what_exists() -> None:
    """§4.5 step 1 (R7): P = 6 > |L| + |pool| = 3 + 1: C = 4 is shared (q = 1, r = 1) and the pool is empty."""
    state = payout_state(6, ["YES money 2", "YES money 2", "YES money 2"], pool=1)
    settlement = settled(state)
    assert settlement.profit == 6 and len(settlement.collected) == 4
    assert state.pool == [] and won_counts(state) == [2, 1, 1]


def test_an_exact_division_leaves_no_remainder_for_the_active_player() -> None:
    """§4.5 step 4: C = 4, Y = 2 gives q = 2, r = 0: the YES-voting active player gets q only, a NO-voting one nothing."""
    state = payout_state(4, ["YES money 2", "NO camera 1", "YES money 2", "NO camera 1"])
    assert won_counts(state) == [2, 0, 2, 0]
    state = payout_state(4, ["NO camera 1", "YES money 2", "YES money 2", "NO camera 1"])
    assert won_counts(state) == [0, 2, 2, 0]


def test_a_no_voting_active_player_takes_the_remainder() -> None:
    """§4.5 step 4: C = 3, Y = 2 gives q = 1, r = 1; the remainder goes to the NO-voting active player, not to the other NO-voter."""
    votes = ["NO camera 1", "YES money 2", "YES money 2", "NO camera 1"]
    assert won_counts(payout_state(3, votes)) == [1, 1, 1, 0]
    assert won_counts(payout_state(3, votes, active=3)) == [0, 1, 1, 1]


def test_fewer_cards_than_yes_voters_all_go_to_the_active_player() -> None:
    """§4.5 step 4, §5.4 line 1: C = 2 < Y = 3 gives q = 0, r = 2 to the (YES-voting) active player."""
    state = payout_state(2, ["YES money 2", "YES money 2", "YES money 2"])
    assert won_counts(state) == [2, 0, 0]
    assert len(settled(state).to_pool) == 1 and len(state.pool) == 1


def test_a_success_without_yes_votes_pays_the_active_player_all() -> None:
    """§4.5 step 4 (R12), §4.6 (R14: the all-NO exception applies only to failures): every vote NO, yet a success pays out."""
    free = text_card("T", "num_changes", "pitch_size")  # K = 0: an empty cost, so any vote succeeds (§5.4 line 4)
    state = resolved(["T"], ["NO money 1", "NO camera 2", "NO script 1"], None, [free], BB, active=1)
    settlement = settled(state)
    assert settlement.success and settlement.all_no is False and settlement.profit == 1
    assert won_counts(state) == [0, 1, 0] and len(state.pool) == 2


def test_an_active_player_without_a_vote_takes_the_remainder() -> None:
    """§4.5 step 4 (R30): the active player's hand is empty, yet it takes r: C = 3, Y = 2, q = 1, r = 1."""
    state = payout_state(3, [None, "YES money 2", "YES money 2"], pool=1)
    assert settled(state).profit == 3 and len(settled(state).collected) == 3
    assert won_counts(state) == [1, 1, 1] and state.pool == []


def test_zero_profit_collects_nothing_and_pools_l_in_seat_order_from_the_active_player() -> None:
    """§4.5 step 6, §4.9 (R13): P = 0 collects nothing, draws nothing, and pools L from the active player clockwise."""
    free = text_card("T", "num_changes", "num_changes")  # cost K = 0 any units, profit K = 0
    state = resolved(["T"], ["NO money 1", "YES money 2", "NO camera 2"], None, [free], BB, active=1)
    settlement = settled(state)
    assert (settlement.success, settlement.profit, settlement.collected) == (True, 0, ())
    assert state.pool == ["v1", "v2", "v0"] and won_counts(state) == [0, 0, 0]
    assert state.made == [Stack(("T",), "T", True)]  # the Movies Made pick still happens
    assert state.rng.getstate() == play_stream(0).getstate()  # no chance event


def test_yes_voters_take_their_shares_in_seat_order_from_the_active_player() -> None:
    """§4.5, §4.9 Share: L and the YES-voters run from the active player (P2) clockwise: P3 takes first, then P0."""
    state = payout_state(3, ["YES money 2", "NO camera 1", "NO camera 1", "YES money 3"], active=2)
    rng = play_stream(0)
    played = ["v2", "v3", "v0", "v1"]
    shuffle(rng, played)
    collected = played[:3]
    shuffle(rng, collected)
    assert state.won == [[collected[1]], [], [collected[2]], [collected[0]]]
    assert state.pool == played[3:]


# -- §4.6 failure ------------------------------------------------------------------------------------------------------


def test_an_all_no_failure_gives_nobody_anything() -> None:
    """§4.6 (R14): every final vote NO on a failure: nobody wins, all of L goes to the pool in L order."""
    state = resolved(["A"], ["NO money 1", "NO camera 2", "NO script 1"], {"A": (["money"], 1)}, active=2)
    settlement = settled(state)
    assert (settlement.success, settlement.all_no) == (False, True)
    assert won_counts(state) == [0, 0, 0] and state.pool == ["v2", "v0", "v1"]


def test_one_yes_vote_lets_every_no_voter_win_their_own_card() -> None:
    """§4.6: with at least one YES, each NO-voter wins their own NO card; YES cards go to the pool."""
    state = resolved(["A"], ["YES camera 2", "NO camera 2", "NO script 1"], {"A": (["money"], 1)})
    settlement = settled(state)
    assert (settlement.success, settlement.all_no) == (False, False)
    assert state.won == [[], ["v1"], ["v2"]] and state.pool == ["v0"]


def test_all_no_ignores_seats_without_a_vote() -> None:
    """§4.6 (R14): "everyone" means every final vote cast; a seat with an empty hand does not count."""
    state = resolved(["A"], [None, "NO camera 2", "NO script 1"], {"A": (["money"], 1)})
    settlement = settled(state)
    assert (settlement.success, settlement.all_no) == (False, True)
    assert won_counts(state) == [0, 0, 0] and state.pool == ["v1", "v2"]


def test_failed_votes_go_to_the_pool_in_seat_order_from_the_active_player() -> None:
    """§4.6, §4.9 (cards to the pool on failure, in L order): L starts at the active player (P1)."""
    state = resolved(["A"], ["YES money 2", "YES camera 2", "NO actors 1", "NO setting 2"], {"A": (["setting"], 1)}, active=1)
    assert checked(state).success is False
    assert state.pool == ["v1", "v0"] and state.won == [[], [], ["v2"], ["v3"]]


# -- §2.5 vote terms: unanimous, #YES, #NO at their edges ------------------------------------------------------------

UNANIMOUS = text_card("T", "unanimous_vote", "unanimous_profit", x="camera")


def test_unanimous_when_nobody_votes_no() -> None:
    """§2.5 unanimous (#NO = 0), cost #11 and profit #11: an all-YES vote waives the cost and pays 5."""
    state = resolved(["A", "T"], ["YES money 2", "YES script 2", "YES actors 2"], {"A": (["money"], 1)}, [UNANIMOUS], BB)
    assert base_costs(state) == (cost(money=1), EMPTY)
    assert profits(state) == (1, 5)


def test_unanimous_when_nobody_votes_yes() -> None:
    """§2.5 unanimous (#YES = 0): an all-NO vote waives the cost (the lone text card succeeds) and pays 5."""
    state = resolved(["T"], ["NO money 1", "NO script 1", "NO actors 2"], None, [UNANIMOUS], BB)
    assert base_costs(state) == (EMPTY,)
    assert checked(state).success and profits(state) == (5,)


def test_a_single_voter_is_unanimous() -> None:
    """§2.5 unanimous, R40: one voter (the others' hands are empty) is unanimous, whatever the vote."""
    for vote in ("NO money 1", "YES money 2"):
        state = resolved(["T"], [None, vote, None], None, [UNANIMOUS], BB)
        assert base_costs(state) == (EMPTY,) and profits(state) == (5,)


def test_an_exact_split_is_not_unanimous() -> None:
    """§2.5 unanimous: 2 YES against 2 NO (and 1 against 1) is not unanimous: cost 4 X, profit 0."""
    state = resolved(["T"], ["YES camera 4", "NO money 1", "YES camera 4", "NO script 1"], None, [UNANIMOUS], BB)
    assert base_costs(state) == (cost(camera=4),)
    assert checked(state).success and profits(state) == (0,)
    state = resolved(["T"], [None, "YES camera 4", "NO money 1"], None, [UNANIMOUS], BB)
    assert base_costs(state) == (cost(camera=4),) and profits(state) == (0,)


def test_an_empty_final_vote_is_unanimous_with_no_yes_and_no_no() -> None:
    """§4.2 step 6 (R42), §2.5 unanimous: a re-vote nobody can cast is an empty, unanimous final vote; the game then ends."""
    both = text_card("T", "unanimous_vote", "unanimous_profit", x="camera")
    counts = text_card("U", "num_yes_votes", "num_no_votes", x="money")
    cards = table({"c1": "CHANGE 1"}, {"V": (["script"], 1)}, [both, counts])
    state = rules.position(3, hands=[["c1"], [], []], table=cards, row=["T", "U", "V"], options={**BC, **BB})
    # P0's only card, CHANGE 1, is voted by itself; P0 removes V; then nobody holds a card for the re-vote.
    assert state.phase == CHANGE_EDIT and legal(state, 0) == {"remove T", "remove U", "remove V"}
    play(state, 0, "remove V")
    assert state.phase == MOVIE_PICK and state.rounds == [("c1", None, None), (None, None, None)]
    play(state, 0, "pick T")
    assert state.phase == OVER
    record = state.history[0]
    assert record.rounds == (("c1", None, None), (None, None, None))
    assert record.evaluation.base_costs == (EMPTY, EMPTY) and record.evaluation.profits == (5, 0)
    assert record.check.success and record.settlement.collected == ()


def test_yes_and_no_counts_are_cards_not_values() -> None:
    """§2.5 #YES, #NO, cost #3/#4 and profit #3/#4: the number of YES and NO cards (0 when there are none), never their values."""
    yes = text_card("T1", "num_yes_votes", "num_yes_votes", x="money")
    no = text_card("T2", "num_no_votes", "num_no_votes", x="script")
    state = resolved(["T1", "T2"], ["YES camera 4", "YES camera 4", "YES camera 3", "NO actors 2"], None, [yes, no], BB)
    assert base_costs(state) == (cost(money=3), cost(script=1))
    assert checked(state).success and profits(state) == (3, 1)
    state = resolved(["T1", "T2"], ["YES camera 4", "YES camera 4", "YES camera 4"], None, [yes, no], BB)
    assert base_costs(state) == (cost(money=3), EMPTY)
    assert profits(state) == (3, 0)


# -- §2.5 other terms ------------------------------------------------------------------------------------------------

ICONS3: Movies = {"A": (["money"], 1), "B": (["money"], 1), "C": (["money"], 1)}
RICH_YES = ["YES money 4", "YES money 4", "YES money 4"]


def test_pitch_size_counts_the_row_cards() -> None:
    """§2.5 row, k, cost #5 and profit #5: k x X and k, for k = 3 and k = 1."""
    size = text_card("T", "pitch_size", "pitch_size", x="money")
    state = resolved(["A", "B", "T"], RICH_YES, ICONS3, [size], BB)
    assert base_costs(state)[2] == cost(money=3) and profits(state) == (1, 1, 3)
    state = resolved(["T"], RICH_YES, ICONS3, [size], BB)
    assert base_costs(state) == (cost(money=1),) and profits(state) == (1,)


def test_pitch_size_conditional_cost_is_waived_from_four_cards() -> None:
    """§2.5 cost #6: 2 X if k <= 3 (k = 3 still pays), empty if k >= 4."""
    conditional = text_card("T", "pitch_size_conditional", "pitch_size", x="camera")
    state = resolved(["A", "B", "T"], RICH_YES, ICONS3, [conditional], BB)
    assert base_costs(state)[2] == cost(camera=2)
    state = resolved(["A", "B", "C", "T"], RICH_YES, ICONS3, [conditional], BB)
    assert base_costs(state)[3] == EMPTY


def test_pitch_size_conditional_profit_starts_at_three_cards() -> None:
    """§2.5 profit #6: 3 if k >= 3 (k = 3 pays), else 0 (k = 2)."""
    conditional = text_card("T", "num_changes", "pitch_size_conditional")
    state = resolved(["A", "T"], RICH_YES, ICONS3, [conditional], BB)
    assert profits(state) == (1, 0)
    state = resolved(["A", "B", "T"], RICH_YES, ICONS3, [conditional], BB)
    assert profits(state) == (1, 1, 3)


def test_printed_icons_of_an_icon_card_are_a_multiset() -> None:
    """§2.5 PI(c), pitch icons: a repeated cost icon counts twice: camera 2 beats money 1 (as sets they would tie)."""
    most = text_card("T", "copycat_most_icon", "pitch_size")
    state = resolved(["A", "B", "T"], RICH_YES, {"A": (["camera", "camera"], 1), "B": (["money"], 1)}, [most], BB)
    assert state.phase != COST_CHOICE
    assert base_costs(state)[2] == cost(camera=2)


def test_a_text_card_shows_its_x_and_nothing_else() -> None:
    """§2.5 PI(c) of a text card: [X] if its cost key has X, else []; it joins the pitch icons."""
    shows = text_card("U", "pitch_size", "pitch_size", x="actors")
    hidden = text_card("W", "wildcard_cost", "pitch_size", n=1)
    most = text_card("T", "copycat_most_icon", "pitch_size")
    state = resolved(["U", "T"], RICH_YES, None, [shows, most], BB)
    assert base_costs(state) == (cost(actors=2), cost(actors=2))
    state = resolved(["W", "T"], RICH_YES, None, [hidden, most], BB)
    assert base_costs(state) == (cost(1), EMPTY)  # no pitch icons at all


def test_full_set_needs_all_six_icons() -> None:
    """§2.5 full set (R35), cost #10 and profit #10: five icons keep N any units and pay 1; the sixth waives them and pays 5."""
    full = text_card("T", "wildcard_cost_conditional", "wildcard_profit_conditional", n=2)
    movies: Movies = {"A": (["money", "actors", "script"], 1), "B": (["setting", "camera"], 1), "C": (["microphone"], 1)}
    votes = ["YES money 4", "YES actors 4", "YES script 4", "YES setting 4", "YES camera 4", "YES microphone 4"]
    state = resolved(["A", "B", "T"], votes, movies, [full], BB)
    assert base_costs(state)[2] == cost(2) and profits(state) == (1, 1, 1)
    state = resolved(["A", "B", "C", "T"], votes, movies, [full], BB)
    assert base_costs(state)[3] == EMPTY and profits(state) == (1, 1, 1, 5)


MATCH = text_card("T", "match_cost", "match_reward", x="money")
NO_MATCH = text_card("U", "match_no_cost", "match_no_reward", x="camera")
MATCH_MOVIES: Movies = {"A": (["script"], 1), "S": (["script"], 1), "O": (["actors"], 1), "O2": (["setting"], 1)}
MATCH_VOTES = ["YES money 4", "YES camera 4", "YES script 4"]


def test_with_no_movies_made_the_pitch_is_not_matched() -> None:
    """§2.5 matched: with no Movies Made the pitch is not matched (cost #7/#8, profit #7/#8)."""
    state = resolved(["A", "T", "U"], MATCH_VOTES, MATCH_MOVIES, [MATCH, NO_MATCH], BB)
    assert base_costs(state)[1:] == (EMPTY, cost(camera=2))
    assert profits(state) == (1, 0, 3)


def test_matched_when_a_pitch_icon_is_among_the_movies_made_icons() -> None:
    """§2.5 matched (R32): decided for the whole pitch; script on Movies Made matches, actors does not."""
    state = resolved(["A", "T", "U"], MATCH_VOTES, MATCH_MOVIES, [MATCH, NO_MATCH], BB, made=[stack("S", True)])
    assert base_costs(state)[1:] == (cost(money=3), EMPTY)
    assert profits(state) == (1, 4, 0)
    state = resolved(["A", "T", "U"], MATCH_VOTES, MATCH_MOVIES, [MATCH, NO_MATCH], BB, made=[stack("O", True)])
    assert base_costs(state)[1:] == (EMPTY, cost(camera=2))
    assert profits(state) == (1, 0, 3)


def test_with_trendsetter_only_stack_tops_are_matched_failed_ones_included() -> None:
    """§2.5 matched, §6.1 (R21): the icons of every stack's top card, failed stacks too; never a card under a top."""
    buried = Stack(("O", "S"), "O", True)  # S [script] lies under the top O [actors]
    state = resolved(["A", "T", "U"], MATCH_VOTES, MATCH_MOVIES, [MATCH, NO_MATCH], {**BB, **TS}, made=[buried])
    assert base_costs(state)[1:] == (EMPTY, cost(camera=2))
    failed_top = Stack(("S",), "S", False)
    state = resolved(["A", "T", "U"], MATCH_VOTES, MATCH_MOVIES, [MATCH, NO_MATCH], {**BB, **TS}, made=[failed_top])
    assert base_costs(state)[1:] == (cost(money=3), EMPTY)


def change_then_vote(
    row: Sequence[str], personal: Sequence[str], texts: Sequence[MovieCard], options: Mapping[str, Any]
) -> MaybeMoviesState:
    """P1 plays CHANGE 1 against P0's YES money 4 and P2's NO actors 1; the edit is left to the test."""
    cards = table(
        {"y": "YES money 4", "c1": "CHANGE 1", "n": "NO actors 1", **fillers(9)},
        {"R": (["money"], 1), "R2": (["money"], 1), "Q": (["money"], 2)},
        texts,
    )
    state = vote_position(cards, row, ["y", "c1", "n"], extra_in_hand=3, personal=[[], list(personal), []], options=dict(options))
    cast_votes(state, ["y", "c1", "n"])
    return state


def test_k_counts_edits_that_happened_and_remove_plus_add_once() -> None:
    """§2.5 K, §6.2 step 2, cost #14 and profit #14: an edit removing and adding adds 1; a CHANGE with no legal edit adds 0."""
    changes = text_card("T", "num_changes", "num_changes")
    state = change_then_vote(["T", "R"], ["Q"], [changes], {**BC, **BB})
    play(state, 1, "remove R")
    play(state, 1, "add Q")
    play(state, 1, "slot 1")
    assert state.phase == VOTE and state.row == ["T", "Q"] and state.edits == 1
    cast_votes(state, ["y", "F3", "n"])
    assert base_costs(state) == (cost(1), cost(money=1))
    assert profits(state) == (1, 2)
    state = change_then_vote(["T"], [], [changes], {**BC, **BB})  # 1-card row, no personal card: no effect
    assert state.phase == VOTE and state.edits == 0
    cast_votes(state, ["y", "F3", "n"])
    assert base_costs(state) == (EMPTY,) and profits(state) == (0,)


def test_k_is_zero_without_breaking_changes() -> None:
    """§2.5 K (0 without Breaking Changes), cost #14 and profit #14: no any units, profit 0."""
    changes = text_card("T", "num_changes", "num_changes")
    state = resolved(["A", "T"], ["YES camera 2", "NO money 1", "NO script 1"], {"A": (["camera"], 2)}, [changes], BB)
    assert base_costs(state) == (cost(camera=1), EMPTY)
    assert checked(state).any_units == 0 and profits(state) == (2, 0)


def test_a_cost_size_counts_any_units() -> None:
    """§2.5 cost value size = named icons + any units: 3 any units (size 3) outweigh 2 icons (size 2)."""
    wild = text_card("W", "wildcard_cost", "pitch_size", n=3)
    movies: Movies = {"M": (["money", "camera"], 1)}
    votes = ["YES money 4", "YES camera 4", "YES script 4"]
    most = text_card("T", "copycat_most_neighbor", "pitch_size")
    state = resolved(["W", "T", "M"], votes, movies, [wild, most], BB)
    assert base_costs(state) == (cost(3), cost(3), cost(money=1, camera=1))
    least = text_card("T", "copycat_least_neighbor", "pitch_size")
    state = resolved(["W", "T", "M"], votes, movies, [wild, least], BB)
    assert base_costs(state) == (cost(3), cost(money=1, camera=1), cost(money=1, camera=1))


# -- §2.5 cost keys with ties and edges --------------------------------------------------------------------------------

NEIGHBOURS: Movies = {"L": (["money"], 1), "R": (["camera", "script"], 3), "E": (["money"], 2), "F": (["camera"], 2)}
NEIGHBOUR_VOTES = ["YES money 4", "YES camera 4", "YES script 4"]


def test_copycat_neighbor_costs_take_the_larger_or_the_smaller_neighbour() -> None:
    """§2.5 cost #1 and #2: the adjacent card whose cost has the larger (#1) or smaller (#2) size."""
    most = text_card("T", "copycat_most_neighbor", "pitch_size")
    state = resolved(["L", "T", "R"], NEIGHBOUR_VOTES, NEIGHBOURS, [most], BB)
    assert base_costs(state)[1] == cost(camera=1, script=1)
    least = text_card("T", "copycat_least_neighbor", "pitch_size")
    state = resolved(["L", "T", "R"], NEIGHBOUR_VOTES, NEIGHBOURS, [least], BB)
    assert base_costs(state)[1] == cost(money=1)


def test_copycat_neighbor_with_one_neighbour_copies_it_and_with_none_is_empty() -> None:
    """§2.5 cost #1/#2, §6.3 C2 (R33): at an end of the row the only neighbour is copied, even by #2; alone, empty."""
    for key in ("copycat_most_neighbor", "copycat_least_neighbor"):
        card = text_card("T", key, "pitch_size")
        state = resolved(["T", "R"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)
        assert base_costs(state)[0] == cost(camera=1, script=1)
        state = resolved(["L", "T"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)
        assert base_costs(state)[1] == cost(money=1)
        state = resolved(["T"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)
        assert base_costs(state) == (EMPTY,)


def test_copycat_neighbor_equal_sizes_with_different_costs_is_a_cost_choice() -> None:
    """§2.5 cost #2 tie, §6.3 C2 (R38): equal sizes, different costs: the active player chooses (COST_CHOICE)."""
    least = text_card("T", "copycat_least_neighbor", "pitch_size")
    state = resolved(["E", "T", "F"], NEIGHBOUR_VOTES, NEIGHBOURS, [least], BB, active=1)
    assert state.phase == COST_CHOICE and GAME.decision(state).players == (1,)
    assert legal_list(state, 1) == ["copy E", "copy F"]
    play(state, 1, "copy F")
    assert base_costs(state)[1] == cost(camera=1)


def test_copycat_neighbor_equal_costs_is_no_choice() -> None:
    """§2.5 cost #1 tie, R38: equal sizes and equal costs (different profits) offer no choice."""
    most = text_card("T", "copycat_most_neighbor", "pitch_size")
    state = resolved(["L", "T", "E"], NEIGHBOUR_VOTES, NEIGHBOURS, [most], BB)
    assert state.phase == MOVIE_PICK
    assert base_costs(state)[1] == cost(money=1)


def test_a_later_text_card_costs_nothing_to_a_copycat_and_an_earlier_one_its_computed_cost() -> None:
    """§6.3 C2 (R33): texts resolve left to right; a later text card counts as empty, an earlier one as computed."""
    first = text_card("Ta", "copycat_most_neighbor", "pitch_size")
    middle = text_card("Tb", "pitch_size", "pitch_size", x="money")
    last = text_card("Tc", "copycat_most_neighbor", "pitch_size")
    state = resolved(["Ta", "Tb", "Tc"], RICH_YES, None, [first, middle, last], BB)
    assert base_costs(state) == (EMPTY, cost(money=3), cost(money=3))
    assert checked(state).need == (6, 0, 0, 0, 0, 0)


def test_copycat_most_icon_takes_the_most_frequent_icon_and_a_tie_is_a_choice() -> None:
    """§2.5 cost #12: 2 x the most frequent pitch icon; tied icons are a COST_CHOICE listed in icon order."""
    most = text_card("T", "copycat_most_icon", "pitch_size")
    movies: Movies = {"A": (["money", "camera", "script"], 1), "B": (["camera", "script"], 1), "C": (["camera"], 1)}
    state = resolved(["A", "B", "C", "T"], NEIGHBOUR_VOTES, movies, [most], BB)
    assert state.phase != COST_CHOICE and base_costs(state)[3] == cost(camera=2)
    state = resolved(["A", "B", "T"], NEIGHBOUR_VOTES, movies, [most], BB)
    assert state.phase == COST_CHOICE and legal_list(state, 0) == ["icon script", "icon camera"]
    play(state, 0, "icon camera")
    assert base_costs(state)[2] == cost(camera=2)


def test_copycat_least_icon_looks_only_at_icons_that_appear() -> None:
    """§2.5 cost #13 (R39): the lowest count among icons with count >= 1 (money 1), never an absent icon (count 0)."""
    least = text_card("T", "copycat_least_icon", "pitch_size")
    movies: Movies = {"A": (["camera", "camera"], 1), "B": (["money", "camera"], 1)}
    state = resolved(["A", "B", "T"], NEIGHBOUR_VOTES, movies, [least], BB)
    assert state.phase != COST_CHOICE and base_costs(state)[2] == cost(money=2)


def test_copycat_icon_with_no_pitch_icons_is_empty() -> None:
    """§2.5 cost #12 and #13: with no pitch icons the cost is empty (no choice among six zero counts)."""
    for key in ("copycat_most_icon", "copycat_least_icon"):
        card = text_card("T", key, "pitch_size")
        state = resolved(["T"], ["NO money 1", "NO camera 1", "NO script 1"], None, [card], BB)
        assert state.phase != COST_CHOICE and base_costs(state) == (EMPTY,)
        assert checked(state).success


# -- §2.5 profit keys with ties and edges ------------------------------------------------------------------------------

FREE_COST = "num_changes"  # K = 0 without Breaking Changes: an empty cost


def test_neighbor_profits_take_the_larger_or_the_smaller_adjacent_profit_and_0_alone() -> None:
    """§2.5 profit #1 and #2: the larger / smaller base profit of the adjacent cards; one neighbour: its profit; none: 0."""
    for key, between in (("copycat_most_neighbor", 3), ("copycat_least_neighbor", 1)):
        card = text_card("T", FREE_COST, key)
        assert profits(resolved(["L", "T", "R"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)) == (1, between, 3)
        assert profits(resolved(["T", "L"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)) == (1, 1)
        assert profits(resolved(["T"], NEIGHBOUR_VOTES, NEIGHBOURS, [card], BB)) == (0,)


def test_a_later_text_card_counts_as_zero_profit_and_an_earlier_one_as_computed() -> None:
    """§6.3 P2 (R33): a later text card's profit is 0 to a copycat; an earlier one's is its computed base profit."""
    first = text_card("Ta", FREE_COST, "copycat_most_neighbor")
    middle = text_card("Tb", FREE_COST, "pitch_size")
    last = text_card("Tc", FREE_COST, "copycat_least_neighbor")
    state = resolved(["Ta", "Tb", "Tc"], RICH_YES, None, [first, middle, last], BB)
    assert profits(state) == (0, 3, 3)


def test_wildcard_profit_is_the_active_players_choice_of_one_to_three() -> None:
    """§2.5 profit #9, §6.3 P2 (R38): after a success the active player picks 1, 2 or 3 and that is the profit paid;
    after a failure there is no profit and no choice."""
    wild = text_card("T", FREE_COST, "wildcard_profit")
    state = resolved(["L", "T"], NEIGHBOUR_VOTES, NEIGHBOURS, [wild], BB, active=2)
    assert state.phase == PROFIT_CHOICE and GAME.decision(state).players == (2,)
    assert legal_list(state, 2) == ["profit 1", "profit 2", "profit 3"]
    play(state, 2, "profit 2")
    assert profits(state) == (1, 2) and settled(state).profit == 3
    state = resolved(["L", "T"], ["NO money 1", "NO camera 1", "YES script 2"], NEIGHBOURS, [wild], BB, active=2)
    assert state.phase != PROFIT_CHOICE and checked(state).success is False and profits(state) is None


def test_copycat_most_copies_the_other_card_with_the_largest_base_cost() -> None:
    """§2.5 profit #12 and #13: the base profit of the other row card with the largest / smallest base-cost size."""
    movies: Movies = {"A": (["money"], 2), "B": (["money", "camera", "script"], 1), "C": (["camera", "script"], 3)}
    most = text_card("T", FREE_COST, "copycat_most")
    assert profits(resolved(["A", "T", "B", "C"], NEIGHBOUR_VOTES, movies, [most], BB)) == (2, 1, 1, 3)
    least = text_card("T", FREE_COST, "copycat_least")
    assert profits(resolved(["A", "B", "C", "T"], NEIGHBOUR_VOTES, movies, [least], BB)) == (2, 1, 3, 2)


def test_copycat_most_never_copies_itself_and_alone_is_0() -> None:
    """§2.5 profit #12 (R39): the card itself is excluded even when its own cost is the largest; with no other card, 0."""
    biggest = text_card("T", "wildcard_cost", "copycat_most", n=3)
    state = resolved(["A", "T"], RICH_YES, {"A": (["money"], 2)}, [biggest], BB)
    assert base_costs(state) == (cost(money=1), cost(3)) and profits(state) == (2, 2)
    alone = text_card("T", FREE_COST, "copycat_most")
    assert profits(resolved(["T"], RICH_YES, None, [alone], BB)) == (0,)


def test_copycat_most_tie_with_equal_profits_is_no_choice() -> None:
    """§2.5 profit #12 tie, R38: two largest cards with the same profit give that profit without a PROFIT_CHOICE."""
    most = text_card("T", FREE_COST, "copycat_most")
    state = resolved(["T", "E", "F"], NEIGHBOUR_VOTES, NEIGHBOURS, [most], BB)
    assert state.phase == MOVIE_PICK and profits(state) == (2, 2, 2)


def test_copycat_least_tie_with_different_profits_is_a_profit_choice() -> None:
    """§2.5 profit #13 tie, §6.3 P2: the smallest cards have profits 1 and 2: the active player picks one of them."""
    least = text_card("T", FREE_COST, "copycat_least")
    state = resolved(["T", "L", "R", "F"], NEIGHBOUR_VOTES, NEIGHBOURS, [least], BB)
    assert state.phase == PROFIT_CHOICE and legal_list(state, 0) == ["profit 1", "profit 2"]
    play(state, 0, "profit 2")
    assert profits(state) == (2, 1, 3, 2)


def test_copycat_most_compares_base_cost_sizes_before_doubling() -> None:
    """§6.3 P2, §6.1 step 2: sizes are base-cost sizes: A [camera] doubled to size 2 still loses to B's 2 icons (no tie)."""
    most = text_card("T", FREE_COST, "copycat_most")
    movies: Movies = {"A": (["camera"], 1), "B": (["money", "script"], 3), "S": (["camera"], 1)}
    votes = ["YES camera 4", "YES money 2", "YES script 2"]
    state = resolved(["A", "B", "T"], votes, movies, [most], {**BB, **TS}, made=[Stack(("S",), "S", False)])
    assert turn_one(state)[0].costs[0] == cost(camera=2)
    assert state.phase == MOVIE_PICK and profits(state) == (1, 3, 3)


# -- §6.1 Trendsetter Tricks, on and off -------------------------------------------------------------------------------

DOUBLE_MOVIES: Movies = {
    "A": (["camera", "script"], 2),
    "B": (["money"], 1),
    "S": (["camera"], 1),
    "S2": (["script"], 1),
    "S3": (["microphone"], 1),
}
DOUBLE_VOTES = ["YES camera 4", "YES script 4", "YES money 2"]


def test_cost_doubles_on_a_failed_stack_only_with_trendsetter() -> None:
    """§6.1 step 2: a card sharing an icon with a failed stack's top costs x2; a successful top or the option off: x1."""
    state = resolved(["A", "B"], DOUBLE_VOTES, DOUBLE_MOVIES, (), TS, made=[Stack(("S",), "S", False)])
    assert turn_one(state)[0].costs == (cost(camera=2, script=2), cost(money=1)) and profits(state) == (2, 1)
    # A failed stack that A does not match (microphone) and a successful one it does (camera): no cost doubling.
    made = [Stack(("S3",), "S3", False), stack("S", True)]
    state = resolved(["A", "B"], DOUBLE_VOTES, DOUBLE_MOVIES, (), TS, made=made)
    assert turn_one(state)[0].costs == (cost(camera=1, script=1), cost(money=1)) and profits(state) == (4, 1)
    state = resolved(["A", "B"], DOUBLE_VOTES, DOUBLE_MOVIES, (), None, made=[stack("S", True)])
    assert turn_one(state)[0].costs == (cost(camera=1, script=1), cost(money=1)) and profits(state) == (2, 1)


def test_profit_doubles_on_a_successful_stack_only_with_trendsetter() -> None:
    """§6.1 step 2: a card sharing an icon with a successful stack's top pays x2 with Trendsetter; without it, x1."""
    state = resolved(["A", "B"], DOUBLE_VOTES, DOUBLE_MOVIES, (), TS, made=[stack("S", True)])
    assert profits(state) == (4, 1) and settled(state).profit == 5
    state = resolved(["A", "B"], DOUBLE_VOTES, DOUBLE_MOVIES, (), None, made=[stack("S", True)])
    assert profits(state) == (2, 1) and settled(state).profit == 3
    # Off, with a blockbuster in the row (its texts read Movies Made): still x1.
    size = text_card("T", "pitch_size", "pitch_size", x="camera")
    state = resolved(["A", "B", "T"], ["YES camera 4", "YES script 4", "YES money 4"], DOUBLE_MOVIES, [size], BB, made=[stack("S", True)])
    assert turn_one(state)[0].costs == (cost(camera=1, script=1), cost(money=1), cost(camera=3))
    assert profits(state) == (2, 1, 3)


def test_doubling_applies_at_most_once_however_many_stacks_match() -> None:
    """§6.1 step 2 (R22): two failed tops (camera, script) and two successful ones matching A: x2 each, never x4."""
    made = [Stack(("S",), "S", False), Stack(("S2",), "S2", False), Stack(("P",), "P", True), Stack(("P2",), "P2", True)]
    movies = {**DOUBLE_MOVIES, "P": (["camera"], 1), "P2": (["script"], 1)}
    votes = ["YES camera 4", "YES script 4", "YES money 4"]
    state = resolved(["A", "B"], votes, movies, (), TS, made=made)
    assert turn_one(state)[0].costs == (cost(camera=2, script=2), cost(money=1))
    assert profits(state) == (4, 1)


def test_a_card_may_double_both_cost_and_profit() -> None:
    """§6.1 step 2: A matches a failed top (camera) and a successful top (script): cost x2 and profit x2."""
    made = [Stack(("S",), "S", False), Stack(("S2",), "S2", True)]
    state = resolved(["A", "B"], ["YES camera 4", "YES script 4", "YES money 4"], DOUBLE_MOVIES, (), TS, made=made)
    assert turn_one(state)[0].costs == (cost(camera=2, script=2), cost(money=1))
    assert profits(state) == (4, 1)


def test_a_text_card_doubles_through_its_x_only() -> None:
    """§6.1 step 2 (R22): a text card matches through its X; one without X never doubles."""
    with_x = text_card("T", "pitch_size", "pitch_size", x="camera")
    without_x = text_card("U", "wildcard_cost", "pitch_size", n=1)
    made = [Stack(("S",), "S", False), Stack(("P",), "P", True)]
    movies: Movies = {"S": (["camera"], 1), "P": (["camera"], 1)}
    state = resolved(["T", "U"], ["YES camera 4", "YES camera 4", "YES camera 4"], movies, [with_x, without_x], {**BB, **TS}, made=made)
    evaluation = turn_one(state)[0]
    assert evaluation.base_costs == (cost(camera=2), cost(1))
    assert evaluation.costs == (cost(camera=4), cost(1))
    assert profits(state) == (4, 2)


def test_copies_take_values_before_doubling() -> None:
    """§6.1 step 2, §6.3 C3/P3: a copycat copies its neighbour's base cost and base profit, not the doubled ones."""
    copy = text_card("T", "copycat_most_neighbor", "copycat_most_neighbor")
    made = [Stack(("S",), "S", False), Stack(("P",), "P", True)]
    movies: Movies = {"M": (["camera"], 1), "S": (["camera"], 1), "P": (["camera"], 1)}
    state = resolved(["M", "T"], ["YES camera 4", "YES camera 4", "YES money 2"], movies, [copy], {**BB, **TS}, made=made)
    evaluation = turn_one(state)[0]
    assert evaluation.costs == (cost(camera=2), cost(camera=1))
    assert evaluation.base_profits == (1, 1) and profits(state) == (2, 1)


def test_a_success_stacks_the_whole_row_with_trendsetter_and_makes_one_card_without() -> None:
    """§6.1 step 3, §4.7 (R15): with Trendsetter the whole row is a stack and nothing is discarded; without, one card
    enters Movies Made and the rest is discarded."""
    movies: Movies = {"A": (["money"], 1), "B": (["money"], 1), "C": (["money"], 1)}
    state = resolved(["A", "B", "C"], RICH_YES, movies, (), TS)
    play(state, 0, "pick B")
    assert state.made == [Stack(("A", "B", "C"), "B", True)] and state.discard == []
    state = resolved(["A", "B", "C"], RICH_YES, movies, (), None)
    play(state, 0, "pick B")
    assert state.made == [Stack(("B",), "B", True)]
    assert state.history[0].settlement.success and state.history[0].movie == "B"
    assert sorted(state.market) == ["A", "C"]  # discarded as A, C, then reshuffled into the market at T1 of turn 2


def test_an_all_no_failure_still_makes_a_stack_with_trendsetter_and_is_discarded_without() -> None:
    """§6.1 step 3 (R24), §4.7: with Trendsetter every pitch, all-NO failures included, becomes a stack; without, the row is discarded."""
    movies: Movies = {"A": (["money"], 1), "B": (["camera"], 1)}
    votes = ["NO money 1", "NO camera 1", "NO script 1"]
    state = resolved(["A", "B"], votes, movies, (), TS)
    assert state.phase == MOVIE_PICK and legal(state, 0) == {"pick A", "pick B"}
    play(state, 0, "pick A")
    assert state.made == [Stack(("A", "B"), "A", False)] and state.discard == []
    state = resolved(["A", "B"], votes, movies, (), None)
    assert state.made == [] and state.history[0].movie is None
    # Discarded, then reshuffled into the market at T1 of turn 2.
    assert state.phase == PITCH and state.active == 1 and sorted(state.market) == ["A", "B"]


def test_an_empty_market_ends_the_game_only_when_no_card_can_be_drawn() -> None:
    """§4.8, §5.1 (R17): with Trendsetter a failed one-card pitch leaves the cycle and T1 finds no card: the game ends;
    without it the discarded card is reshuffled into the market and play goes on."""
    cards = table({"n0": "NO money 1", "n1": "NO money 1", "n2": "NO money 1", **fillers(6)}, {"A": (["money"], 1)})
    hands = [["n0", "F0", "F1"], ["n1", "F2", "F3"], ["n2", "F4", "F5"]]
    state = rules.position(3, hands=hands, table=cards, market=["A"], options=TS)
    cast_votes(state, ["n0", "n1", "n2"])
    assert state.phase == OVER and state.made == [Stack(("A",), "A", False)] and len(state.history) == 1
    state = rules.position(3, hands=hands, table=cards, market=["A"])
    cast_votes(state, ["n0", "n1", "n2"])
    # Turn 2: the only card, reshuffled from the discards, is pitched by itself and the vote is on.
    assert state.phase == VOTE and state.turn == 2 and state.row == ["A"] and state.discard == []


# -- §3 and §6.2 Breaking Changes, on and off --------------------------------------------------------------------------


def test_breaking_changes_deals_two_change_cards_and_two_personal_cards_only_when_on() -> None:
    """§3 steps 5 and 8 (R25): with the option, CHANGE 1..2N, two a hand (12 cards), and 2 personal cards; without, none."""
    on = GAME.new_state(4, 0, BC)
    changes = [card for hand in on.hands for card in hand if card.startswith("C")]
    assert sorted(changes) == ["C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08"]
    assert [len(hand) for hand in on.hands] == [12, 12, 12, 12]
    assert all(sum(card.startswith("C") for card in hand) == 2 for hand in on.hands)
    assert [len(cards) for cards in on.personal] == [2, 2, 2, 2]
    off = GAME.new_state(4, 0, {})
    assert [len(hand) for hand in off.hands] == [10, 10, 10, 10]
    assert not any(card.startswith("C") for hand in off.hands for card in hand)
    assert off.personal == [[], [], [], []]


def test_change_voters_edit_lowest_number_first_not_in_seat_order() -> None:
    """§6.2 step 1: P2's CHANGE 2 edits before P0's CHANGE 5, and P0 then sees P2's edit."""
    cards = table(
        {"c5": "CHANGE 5", "c2": "CHANGE 2", "y": "YES money 2", **fillers(9)},
        {"R1": (["money"], 1), "R2": (["money"], 1), "Q": (["camera"], 1)},
    )
    state = vote_position(cards, ["R1", "R2"], ["c5", "y", "c2"], extra_in_hand=3, personal=[["Q"], [], []], options=BC)
    cast_votes(state, ["c5", "y", "c2"])
    assert state.phase == CHANGE_EDIT and GAME.decision(state).players == (2,)
    assert legal(state, 2) == {"remove R1", "remove R2"}
    play(state, 2, "remove R1")  # only "finish" is left: applied by itself
    assert GAME.decision(state).players == (0,)
    assert legal(state, 0) == {"remove R2", "add Q"}
    play(state, 0, "add Q")
    assert state.row == ["R2", "Q"] and [record.seat for record in state.change_records] == [2, 0]


def test_a_change_edit_keeps_at_least_one_card_in_the_row() -> None:
    """§6.2 step 2 (R27): a removal alone may not empty the row; on a 1-card row remove + add is legal, on a
    2-card row a removal alone is (it finishes by itself)."""
    state = change_then_vote(["R"], ["Q"], (), BC)
    assert legal(state, 1) == {"remove R", "add Q"}
    play(state, 1, "remove R")  # then "add Q" is the only legal step (no "finish" on an empty row): applied by itself
    assert state.phase == VOTE and state.row == ["Q"] and state.edits == 1
    assert (state.change_records[0].removed, state.change_records[0].added) == ("R", "Q")
    state = change_then_vote(["R", "R2"], [], (), BC)
    assert legal(state, 1) == {"remove R", "remove R2"}
    play(state, 1, "remove R")
    assert state.phase == VOTE and state.row == ["R2"] and state.discard == ["R"] and state.edits == 1


def test_an_added_card_goes_to_the_right_end_without_blockbuster_and_to_a_chosen_slot_with_it() -> None:
    """§6.2 step 2 placement (R28): option off, right end, no slot decision; option on, the CHANGE-voter picks slot 0..len."""
    state = change_then_vote(["R"], ["Q"], (), BC)
    play(state, 1, "add Q")
    assert state.phase == VOTE and state.row == ["R", "Q"]
    state = change_then_vote(["R"], ["Q"], (), {**BC, **BB})
    play(state, 1, "add Q")
    assert state.phase == CHANGE_EDIT and legal_list(state, 1) == ["slot 0", "slot 1"]
    play(state, 1, "slot 0")
    assert state.phase == VOTE and state.row == ["Q", "R"]


def test_with_breaking_changes_the_game_goes_on_while_any_hand_holds_a_card() -> None:
    """§5.1, §6.2 (R30): uneven hands; after turn 1 only P2 holds a card, so turn 2 is played and P1, with an empty hand,
    still pitches; the game ends when the last hand is empty."""
    cards = table(
        {"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", "n2": "NO money 1"},
        {"A": (["money"], 1), "B": (["money"], 1), "C": (["money"], 1)},
    )
    state = rules.position(3, hands=[["y0"], ["y1"], ["y2", "n2"]], table=cards, row=["A"], market=["B", "C"], options=BC)
    play(state, 2, "vote y2")
    assert state.phase == PITCH and state.turn == 2 and state.active == 1 and state.hands == [[], [], ["n2"]]
    assert GAME.decision(state).players == (1,)
    play(state, 1, "add B")
    play(state, 1, "finish")
    # P2's last card is voted by itself; the pitch fails; every hand is empty.
    assert state.phase == OVER and len(state.history) == 2
    assert state.history[1].active == 1 and state.history[1].rounds == ((None, None, "n2"),)


def test_with_breaking_changes_a_game_goes_past_ten_turns_and_without_it_ends_at_ten() -> None:
    """§5.1 length: without Breaking Changes turn 10 empties every hand and ends the game; with it, a card left after
    turn 10 (here a CHANGE card) means turn 11."""
    cards = table(
        {"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", "c1": "CHANGE 1", "n0": "NO camera 1"},
        {"A": (["money"], 1), "B": (["money"], 1), "C": (["money"], 1)},
    )
    state = rules.position(3, hands=[["y0"], ["y1"], ["y2"]], table=cards, row=["A"], market=["B", "C"], turn=10)
    assert state.phase == OVER and len(state.history) == 1
    state = rules.position(3, hands=[["y0", "c1"], ["y1"], ["y2"]], table=cards, row=["A"], market=["B", "C"], turn=10, options=BC)
    play(state, 0, "vote y0")
    assert state.phase == PITCH and state.turn == 11 and state.active == 1 and state.hands == [["c1"], [], []]


def test_replacement_draws_go_in_change_order_and_stop_when_the_pool_is_empty() -> None:
    """§6.2 step 4, §4.9 (R29): in ascending CHANGE order each CHANGE-voter draws one pool card, a no-effect CHANGE
    included; with two pool cards CHANGE 1 (P2, an edit) and CHANGE 2 (P1, no effect) draw, CHANGE 3 (P0) gets none."""
    cards = table(
        {"c3": "CHANGE 3", "c2": "CHANGE 2", "c1": "CHANGE 1", "p": "NO camera 2", "q": "YES script 3", **fillers(9)},
        {"R1": (["money"], 1), "R2": (["money"], 1)},
    )
    state = vote_position(cards, ["R1", "R2"], ["c3", "c2", "c1"], extra_in_hand=3, pool=["p", "q"], options=BC)
    cast_votes(state, ["c3", "c2", "c1"])
    assert GAME.decision(state).players == (2,)
    play(state, 2, "remove R1")  # then P1 and P0 find a 1-card row and no personal card: no effect
    rng = play_stream(0)
    pool = ["p", "q"]
    first = pool.pop(random_index(rng, 2))
    assert state.phase == VOTE and state.row == ["R2"] and state.pool == []
    records = [(record.seat, record.had_effect, record.replacement) for record in state.change_records]
    assert records == [(2, True, first), (1, False, pool[0]), (0, False, None)]
    assert state.known == [[], [pool[0]], [first]] and [len(hand) for hand in state.hands] == [3, 4, 4]


def test_the_pitch_is_ordered_only_with_blockbuster_budgets() -> None:
    """§4.1 step 3 (R16): without Blockbuster Budgets the pitch is a set kept in market order; with it, the order of the adds."""
    cards = table({"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", **fillers(6)}, ICONS3)
    hands = [["y0", "F0", "F1"], ["y1", "F2", "F3"], ["y2", "F4", "F5"]]
    state = rules.position(3, hands=hands, table=cards, market=["A", "B", "C"])
    play(state, 0, "add B")
    assert legal_list(state, 0) == ["add C", "finish"]
    play(state, 0, "add C")  # only "finish" is left: applied by itself
    assert state.phase == VOTE and state.row == ["B", "C"]
    state = rules.position(3, hands=hands, table=cards, market=["A", "B", "C"], options=BB)
    play(state, 0, "add C")
    assert legal_list(state, 0) == ["add A", "add B", "finish"]
    play(state, 0, "add A")
    play(state, 0, "finish")
    assert state.phase == VOTE and state.row == ["C", "A"]


def test_blockbusters_join_the_movie_deck_only_with_blockbuster_budgets() -> None:
    """§3 step 6, §6 (R41): all 16 blockbusters join the 44 movie cards with the option on; none with it off."""
    on = GAME.new_state(4, 0, BB)
    cards = on.draw_pile + on.market
    assert len(cards) == 60 and sum(card.startswith("B") for card in cards) == 16
    off = GAME.new_state(4, 0, {})
    cards = off.draw_pile + off.market
    assert len(cards) == 44 and not any(card.startswith("B") for card in cards)


def test_the_next_seat_clockwise_wraps_from_the_last_seat_to_seat_0() -> None:
    """§1 clockwise (next seat index mod N), §4.0 T10: after P2's turn at 3 players, P0 is active."""
    state = resolved(["A"], RICH_YES, ICONS3, (), None, active=2, turn=3, market=["B", "C"])
    assert state.phase == PITCH and (state.turn, state.active) == (4, 0) and GAME.decision(state).players == (0,)


class Scripted:
    """A ``random()`` that returns the given values, then 0.0."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def __call__(self) -> float:
        return self.values.pop(0) if self.values else 0.0


def transcribed_picks(random: Any, margin: int, count: int) -> list[int]:
    """§2.6 BP(margin) as written: eligible = icons, in icon order, whose count - smallest count <= margin."""
    counts = [0] * 6
    picks = []
    for _ in range(count):
        eligible = [icon for icon in range(6) if counts[icon] - min(counts) <= margin]
        icon = eligible[int(random() * len(eligible))]
        counts[icon] += 1
        picks.append(icon)
    return picks


def test_the_balanced_picker_keeps_an_icon_exactly_margin_above_the_smallest_count_eligible() -> None:
    """§2.6 BP(margin): count - m <= margin is eligible (equality included); one more is not."""
    picks = balanced_picks(Scripted(), 1)
    # U() = 0 always takes the first eligible icon: money until it is 2 above the smallest count, then the next icon.
    assert [next(picks) for _ in range(14)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 0, 1, 2]
    picks = balanced_picks(Scripted(), 3)
    assert [next(picks) for _ in range(6)] == [0, 0, 0, 0, 1, 1]
    for margin in (1, 3):
        stream = play_stream(margin)
        copy = play_stream(margin)
        picks = balanced_picks(stream.random, margin)
        assert [next(picks) for _ in range(300)] == transcribed_picks(copy.random, margin, 300)


def test_a_refill_uses_the_draw_pile_first_and_reshuffles_the_discards_only_when_it_runs_out() -> None:
    """§4.8 refill and exhaustion: a pile of exactly the missing cards is used without touching the discards; one card
    short, the pile is used up, then the discard pile (in its order) is shuffled into a new pile and drawn from."""
    movies: Movies = {name: (["money"], 1) for name in ("M1", "M2", "M3", "M4", "M5", "M6", "Z1", "Z2", "D1", "D2", "D3")}
    cards = table({"y0": "YES money 2", "y1": "YES money 2", "y2": "YES money 2", **fillers(6)}, movies)
    hands = [["y0", "F0", "F1"], ["y1", "F2", "F3"], ["y2", "F4", "F5"]]
    market = ["M1", "M2", "M3", "M4", "M5", "M6"]
    state = rules.position(3, hands=hands, table=cards, market=market, draw_pile=["Z1", "Z2"], discard=["D1", "D2", "D3"])
    play(state, 0, "add M1")
    play(state, 0, "add M2")
    play(state, 0, "finish")
    assert state.market == ["M3", "M4", "M5", "M6", "Z1", "Z2"] and state.draw_pile == [] and state.discard == ["D1", "D2", "D3"]
    state = rules.position(3, hands=hands, table=cards, market=market, draw_pile=["Z1"], discard=["D1", "D2", "D3"])
    play(state, 0, "add M1")
    play(state, 0, "add M2")
    play(state, 0, "finish")
    pile = ["D1", "D2", "D3"]
    shuffle(play_stream(0), pile)
    assert state.market == ["M3", "M4", "M5", "M6", "Z1", pile[0]] and state.draw_pile == pile[1:] and state.discard == []
