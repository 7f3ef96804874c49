"""Rules file §9 test vectors TV1-TV10, the §4.4 worked example and the §5.2 scoring example, with exact results."""

from __future__ import annotations

from greenlight.games.maybe_movies import GAME, rules
from greenlight.games.maybe_movies.budget import cost_of_icons, net_of, success_check
from greenlight.games.maybe_movies.cards import ICON_INDEX
from greenlight.games.maybe_movies.chance import play_stream, shuffle
from greenlight.games.maybe_movies.state import CHANGE_EDIT, MOVIE_PICK, VOTE, ChangeRecord, Stack
from tests.games.maybe_movies.support import (
    cast_votes,
    fillers,
    legal,
    play,
    stack,
    table,
    text_card,
    vote_position,
    won_counts,
)


def need_of(**icons: int) -> tuple[int, ...]:
    need = [0] * 6
    for icon, count in icons.items():
        need[ICON_INDEX[icon]] = count
    return tuple(need)


def test_tv1_plain_success_remainder_to_active_player() -> None:
    cards = table(
        {"a0": "YES camera 3", "a1": "YES actors 2", "a2": "NO script 1", "a3": "NO camera 1", **fillers(8)},
        {"Ma": (["camera", "actors"], 2), "Mb": (["camera"], 1)},
    )
    state = vote_position(cards, ["Ma", "Mb"], ["a0", "a1", "a2", "a3"])
    assert GAME.decision(state).players == (0, 1, 2, 3)
    cast_votes(state, ["a0", "a1", "a2", "a3"])
    result = state.result
    assert result is not None
    assert result.need == need_of(camera=2, actors=1)
    assert result.net == need_of(camera=2, actors=2, script=-1)
    assert result.shortfall_total == 0
    assert result.success
    settlement = state.settlement
    assert settlement is not None and settlement.profit == 3
    assert won_counts(state) == [2, 1, 0, 0]
    assert len(settlement.to_pool) == 1 and state.pool == list(settlement.to_pool)
    # Draw for draw (§4.9): shuffle(L), collect L[0:3], shuffle(collected), q = 1 each in seat order, remainder to P0.
    rng = play_stream(0)
    played = ["a0", "a1", "a2", "a3"]
    shuffle(rng, played)
    collected = played[:3]
    shuffle(rng, collected)
    assert state.pool == played[3:]
    assert state.won[0] == [collected[0], collected[2]]
    assert state.won[1] == [collected[1]]
    # P0 chooses which card goes to Movies Made; the other is discarded.
    assert state.phase == MOVIE_PICK
    assert legal(state, 0) == {"pick Ma", "pick Mb"}
    events = play(state, 0, "pick Mb")
    assert state.made == [Stack(("Mb",), "Mb", True)]
    assert state.history[0].movie == "Mb"
    assert next(event for event in events if event.kind == "movie_made").data["discarded"] == ["Ma"]


def test_tv2_wildcards_cover_a_missing_icon() -> None:
    cards = table(
        {"b0": "YES money 2", "b1": "YES script 4", "b2": "NO microphone 2", **fillers(6)},
        {"Ma": (["money", "setting"], 2), "Mb": (["money"], 1)},
    )
    state = vote_position(cards, ["Ma", "Mb"], ["b0", "b1", "b2"])
    cast_votes(state, ["b0", "b1", "b2"])
    result = state.result
    assert result is not None
    assert result.need == need_of(money=2, setting=1)
    assert result.net == need_of(money=2, script=4, microphone=-2)
    assert (result.shortfall_total, result.wildcards, result.success) == (1, 2, True)
    assert won_counts(state) == [2, 1, 0]
    assert state.pool == []
    assert state.settlement is not None and sorted(state.settlement.collected) == ["b0", "b1", "b2"]


def test_tv3_negative_net_on_a_needed_icon_fails() -> None:
    cards = table({"c0": "YES actors 3", "c1": "YES script 3", "c2": "NO money 2", **fillers(6)}, {"Mm": (["money"], 1)})
    state = vote_position(cards, ["Mm"], ["c0", "c1", "c2"])
    cast_votes(state, ["c0", "c1", "c2"])
    record = state.history[-1]
    assert record.check.net == need_of(actors=3, script=3, money=-2)
    assert (record.check.shortfall_total, record.check.wildcards, record.check.success) == (3, 2, False)
    assert state.won == [[], [], ["c2"]]
    assert state.pool == ["c0", "c1"]
    assert record.settlement.to_pool == ("c0", "c1")
    assert state.made == []
    # The row was discarded; turn 2 reshuffled it into the market, and P1's only possible pitch was made for them.
    assert state.row == ["Mm"] and state.phase == VOTE and state.active == 1


def test_tv4_pool_top_up_active_player_voted_no_and_takes_the_remainder() -> None:
    pool = {f"p{index}": "YES money 2" for index in range(10)}
    cards = table(
        {"d0": "YES money 4", "d1": "NO actors 1", "d2": "YES camera 2", "d3": "YES setting 2", "d4": "NO script 1", **pool, **fillers(10)},
        {"Mx": (["money"], 5), "My": (["money"], 3)},
    )
    votes = ["d0", "d1", "d2", "d3", "d4"]
    state = vote_position(cards, ["Mx", "My"], votes, pool=list(pool), active=1)
    cast_votes(state, votes)
    assert state.result is not None and state.result.success
    settlement = state.settlement
    assert settlement is not None and settlement.profit == 8 and len(settlement.collected) == 8
    assert won_counts(state) == [2, 2, 2, 2, 0]
    assert len(state.pool) == 7
    assert set(votes) <= set(settlement.collected)


def test_tv5_fewer_cards_than_yes_voters_all_to_the_active_player() -> None:
    cards = table(
        {"e0": "NO script 1", "e1": "YES money 2", "e2": "YES actors 2", "e3": "YES camera 2", **fillers(8)}, {"Mm": (["money"], 2)}
    )
    votes = ["e0", "e1", "e2", "e3"]
    state = vote_position(cards, ["Mm"], votes)
    cast_votes(state, votes)
    assert state.history[0].check.success and state.history[0].settlement.profit == 2
    assert won_counts(state) == [2, 0, 0, 0]
    assert len(state.pool) == 2
    assert sorted(state.won[0] + state.pool) == sorted(votes)


def test_tv6_all_no_nobody_gets_anything() -> None:
    cards = table(
        {"f0": "NO money 1", "f1": "NO camera 2", "f2": "NO script 1", "f3": "NO actors 2", **fillers(8)},
        {"Mm": (["money", "script"], 3)},
    )
    votes = ["f0", "f1", "f2", "f3"]
    state = vote_position(cards, ["Mm"], votes)
    cast_votes(state, votes)
    record = state.history[-1]
    assert record.check.need == need_of(money=1, script=1)
    assert record.check.net == need_of(money=-1, script=-1, camera=-2, actors=-2)
    assert record.check.shortfall == need_of(money=2, script=2)
    assert (record.check.shortfall_total, record.check.wildcards, record.check.success) == (4, 0, False)
    assert record.settlement.all_no
    assert state.won == [[], [], [], []]
    assert state.pool == votes
    assert state.made == []


def test_tv7_trendsetter_doubling() -> None:
    pool = {f"p{index}": "NO money 1" for index in range(10)}
    cards = table(
        {"g0": "YES camera 4", "g1": "YES script 3", "g2": "YES setting 2", **pool, **fillers(6)},
        {"S1": (["camera"], 1), "S2": (["actors", "money"], 2), "A": (["camera", "script"], 2), "B": (["money"], 1), "C": (["setting"], 1)},
    )
    votes = ["g0", "g1", "g2"]
    state = vote_position(
        cards, ["A", "B", "C"], votes, pool=list(pool), made=[stack("S1", False), stack("S2", True)], options={"trendsetter_tricks": True}
    )
    cast_votes(state, votes)
    evaluation = state.evaluation
    assert evaluation is not None
    # A matches the failed S1 (camera): its cost doubles. B matches the successful S2 (money): its profit doubles.
    assert evaluation.costs == (
        cost_of_icons([ICON_INDEX["camera"], ICON_INDEX["script"]], 2),
        cost_of_icons([ICON_INDEX["money"]]),
        cost_of_icons([ICON_INDEX["setting"]]),
    )
    assert evaluation.profits == (2, 2, 1)
    assert evaluation.need == need_of(camera=2, script=2, money=1, setting=1)
    result = state.result
    assert result is not None
    assert result.surplus == need_of(camera=2, script=1, setting=1)
    assert (result.shortfall_total, result.wildcards, result.success) == (1, 1, True)
    assert won_counts(state) == [3, 1, 1]
    assert len(state.pool) == 8
    # Draw for draw: L collected unshuffled, shuffle(pool), take pool[0:2], then shuffle(collected) and share.
    rng = play_stream(0)
    pool_order = list(pool)
    shuffle(rng, pool_order)
    collected = [*votes, *pool_order[:2]]
    shuffle(rng, collected)
    assert state.won == [[collected[0], *collected[3:]], [collected[1]], [collected[2]]]
    assert state.pool == pool_order[2:]
    # P0 picks the top card; the whole row becomes a successful stack; nothing is discarded.
    assert legal(state, 0) == {"pick A", "pick B", "pick C"}
    play(state, 0, "pick C")
    assert state.made[-1] == Stack(("A", "B", "C"), "C", True)
    assert state.discard == []


def test_tv8_change_resolution() -> None:
    movies = {name: (["money"], 1) for name in ("Ra", "Rb", "Q1", "Q2", "Q3", "Q4", "D1", "D2", "D3")}
    cards = table(
        {"y": "YES actors 2", "c5": "CHANGE 5", "c2": "CHANGE 2", "n": "NO script 1", "p0": "YES camera 3", **fillers(32)}, movies
    )
    votes = ["y", "c5", "c2", "n"]
    state = vote_position(
        cards,
        ["Ra", "Rb"],
        votes,
        extra_in_hand=8,
        pool=["p0"],
        draw_pile=["D1", "D2", "D3"],
        personal=[[], ["Q1", "Q2"], ["Q3", "Q4"], []],
        options={"breaking_changes": True},
    )
    assert [len(hand) for hand in state.hands] == [9, 9, 9, 9]
    cast_votes(state, votes)
    # Order: P2 (#2) before P1 (#5).
    assert state.phase == CHANGE_EDIT and GAME.decision(state).players == (2,)
    assert legal(state, 2) == {"remove Ra", "remove Rb", "add Q3", "add Q4"}
    play(state, 2, "remove Rb")
    assert legal(state, 2) == {"add Q3", "add Q4", "finish"}
    play(state, 2, "add Q3")
    assert state.row == ["Ra", "Q3"] and state.discard == ["Rb"] and state.personal[2] == ["Q4", "D1"]
    assert GAME.decision(state).players == (1,)
    play(state, 1, "add Q2")
    assert state.row == ["Ra", "Q3", "Q2"] and state.personal[1] == ["Q1", "D2"]
    assert state.edits == 2
    # Cards back, CHANGE cards out of play, replacement draws in CHANGE order, then everyone votes again.
    assert [len(hand) for hand in state.hands] == [9, 8, 9, 9]
    assert sorted(state.out_of_play) == ["c2", "c5"]
    assert "p0" in state.hands[2] and state.pool == []
    assert state.known == [["y"], [], ["p0"], ["n"]]
    assert state.change_records == [
        ChangeRecord(2, "c2", 2, removed="Rb", added="Q3", slot=1, refills=("D1",), replacement="p0"),
        ChangeRecord(1, "c5", 5, removed=None, added="Q2", slot=2, refills=("D2",), replacement=None),
    ]
    assert state.phase == VOTE and GAME.decision(state).players == (0, 1, 2, 3)


def test_tv9_two_blockbuster_texts_with_an_unresolved_neighbour() -> None:
    ta = text_card("Ta", "copycat_most_neighbor", "copycat_least_neighbor")
    tb = text_card("Tb", "num_yes_votes", "pitch_size", x="money")
    cards = table(
        {"h0": "YES actors 4", "h1": "YES camera 3", "h2": "YES money 2", "h3": "NO script 1", "p0": "NO money 1", **fillers(8)},
        {"M1": (["actors", "camera"], 2)},
        [ta, tb],
    )
    votes = ["h0", "h1", "h2", "h3"]
    state = vote_position(cards, ["M1", "Ta", "Tb"], votes, pool=["p0"], options={"blockbuster_budgets": True})
    cast_votes(state, votes)
    evaluation = state.evaluation
    assert evaluation is not None
    actors_camera = cost_of_icons([ICON_INDEX["actors"], ICON_INDEX["camera"]])
    assert evaluation.base_costs == (actors_camera, actors_camera, cost_of_icons([ICON_INDEX["money"]], 3))
    assert evaluation.need == need_of(actors=2, camera=2, money=3) and evaluation.any_units == 0
    result = state.result
    assert result is not None
    assert result.net == need_of(actors=4, camera=3, money=2, script=-1)
    assert (result.shortfall_total, result.wildcards, result.success) == (1, 1, True)
    assert evaluation.profits == (2, 0, 3) and evaluation.profit == 5
    assert won_counts(state) == [3, 1, 1, 0]
    assert state.pool == []


def test_tv10_any_units_make_a_pitch_fail() -> None:
    t = text_card("T", "wildcard_cost", "pitch_size", n=2)
    cards = table({"k0": "YES script 3", "k1": "NO camera 1", "k2": "NO money 1", **fillers(6)}, {"M": (["script", "setting"], 2)}, [t])
    votes = ["k0", "k1", "k2"]
    state = vote_position(cards, ["M", "T"], votes, options={"blockbuster_budgets": True})
    cast_votes(state, votes)
    record = state.history[-1]
    assert record.evaluation.need == need_of(script=1, setting=1) and record.evaluation.any_units == 2
    check = record.check
    assert (check.shortfall_total, check.surplus_total, check.wildcards, check.any_units, check.success) == (1, 2, 1, 2, False)
    assert state.won == [[], ["k1"], ["k2"]]
    assert state.pool == ["k0"]
    # Without T the same votes succeed.
    net = net_of([cards.vote(card) for card in votes])
    assert success_check(need_of(script=1, setting=1), 0, net).success


def test_worked_example_of_the_success_check() -> None:
    cards = table({"w0": "YES script 4", "w1": "YES actors 3", "w2": "NO money 2", "w3": "YES actors 2", "w4": "NO actors 1"})
    need = need_of(money=1, actors=2, camera=1)
    net = net_of([cards.vote(card) for card in ("w0", "w1", "w2", "w3")])
    result = success_check(need, 0, net)
    assert result.shortfall == need_of(money=3, camera=1)
    assert result.surplus == need_of(actors=3, script=4)
    assert (result.shortfall_total, result.surplus_total, result.wildcards, result.success) == (4, 7, 3, False)
    other = success_check(need, 0, net_of([cards.vote(card) for card in ("w0", "w1", "w4", "w3")]))
    assert other.net == need_of(money=0, actors=4, script=4)
    assert (other.shortfall_total, other.wildcards, other.success) == (2, 3, True)


def test_scoring_example() -> None:
    cards = table(
        {"s0": "YES money 4", "s1": "NO money 1", "s2": "YES script 3", "s3": "NO camera 2", **fillers(1)},
        {"A": (["money", "actors"], 1), "B": (["money"], 1), "C": (["camera"], 1)},
    )
    state = rules.position(
        3,
        hands=[["F0"], [], []],
        table=cards,
        won=[["s0", "s1", "s2", "s3"], [], []],
        made=[stack("A", True), stack("B", True), stack("C", True)],
    )
    assert rules.icon_counts(state) == list(need_of(money=2, actors=1, camera=1))
    breakdown = rules.score_breakdown(state, 0)
    assert breakdown == {"won_cards": 4, "money": 4, "actors": 0, "script": 0, "setting": 0, "camera": 1, "microphone": 0}
    assert rules.scores(state) == [5, 0, 0]


# -- payout rulings (R7, R12, R13, R14) and scoring of failed stacks (R23) -----------------------------------


def test_a_success_with_no_yes_voter_pays_the_active_player_even_if_every_vote_was_no() -> None:
    # An empty cost passes whatever the votes (§5.4 line 4). The all-NO exception is for failures only (R14);
    # with Y = 0 the active player receives all C cards (R12). P = k = 1 <= |L| = 3: one random card is collected.
    t = text_card("T", "copycat_most_neighbor", "pitch_size")
    cards = table({"n0": "NO money 1", "n1": "NO camera 2", "n2": "NO script 1", **fillers(6)}, texts=[t])
    votes = ["n0", "n1", "n2"]
    state = vote_position(cards, ["T"], votes, options={"blockbuster_budgets": True}, active=1)
    cast_votes(state, votes)
    record = state.history[-1]
    assert record.check.success and record.check.need == (0,) * 6 and record.evaluation.profit == 1
    assert record.settlement.all_no is False
    rng = play_stream(0)
    played = ["n1", "n2", "n0"]  # L starts at the active player P1
    shuffle(rng, played)
    assert state.won == [[], [played[0]], []]
    assert state.pool == played[1:]
    assert state.made == [Stack(("T",), "T", True)]


def test_a_success_with_profit_zero_pools_the_votes_in_l_order_without_a_draw() -> None:
    # R13: nothing is collected, L goes to the pool in L order (no shuffle), and the Movies Made pick still happens.
    t = text_card("T", "copycat_most_neighbor", "copycat_most_neighbor")
    cards = table({"y0": "YES money 2", "n1": "NO camera 2", "y2": "YES script 3", **fillers(6)}, texts=[t])
    votes = ["y0", "n1", "y2"]
    state = vote_position(cards, ["T"], votes, options={"blockbuster_budgets": True}, active=2)
    cast_votes(state, votes)
    record = state.history[-1]
    assert record.check.success and record.evaluation.profit == 0
    assert record.settlement.collected == () and record.settlement.won == ((), (), ())
    assert state.pool == ["y2", "y0", "n1"]  # L: P2, P0, P1
    assert state.made == [Stack(("T",), "T", True)]
    assert state.rng.getstate() == play_stream(0).getstate()  # no chance event happened


def test_a_short_pool_pays_what_exists_and_shares_the_collected_count() -> None:
    # R7: P = 5 > |L| = 3 with an empty pool: C = 3; Y = 2 -> q = 1 each, r = 1 to the active player P0.
    cards = table({"y0": "YES money 4", "y1": "YES money 3", "n2": "NO camera 1", **fillers(6)}, {"Mx": (["money"], 5)})
    votes = ["y0", "y1", "n2"]
    state = vote_position(cards, ["Mx"], votes)
    cast_votes(state, votes)
    settlement = state.history[-1].settlement
    assert settlement.profit == 5 and sorted(settlement.collected) == ["n2", "y0", "y1"]
    assert won_counts(state) == [2, 1, 0] and state.pool == []
    rng = play_stream(0)
    collected = ["y0", "y1", "n2"]  # L unshuffled; no pool draw (k = 0)
    shuffle(rng, collected)
    assert state.won == [[collected[0], collected[2]], [collected[1]], []]


def test_trendsetter_scoring_counts_the_top_of_every_stack_failed_ones_included() -> None:
    # R23 with §5.2: MM counts each stack's top card only; a text card top counts its X (R37).
    x = text_card("X", "num_yes_votes", "pitch_size", x="camera")
    cards = table(
        {"s0": "YES camera 2", "s1": "NO money 1", "s2": "YES actors 3", **fillers(1)},
        {"A": (["money", "actors"], 1), "B": (["money"], 1), "C": (["script"], 1), "D": (["money"], 1)},
        [x],
    )
    made = [Stack(("A", "C"), "A", False), Stack(("B", "X"), "X", True), Stack(("D",), "D", False)]
    state = rules.position(
        3, hands=[["F0"], [], []], table=cards, won=[["s0", "s1", "s2"], [], []], made=made, options={"trendsetter_tricks": True}
    )
    assert rules.icon_counts(state) == [2, 1, 0, 0, 1, 0]  # money (A, D), actors (A), camera (X); B and C are not tops
    assert rules.scores(state) == [1 + 2 + 1, 0, 0]


def test_num_changes_counts_the_edits_of_this_pitch_as_any_units_and_profit() -> None:
    # R34: K any-units; profit K. P1's CHANGE adds Q at slot 2 (R28): K = 1; then everyone votes again.
    t = text_card("T", "num_changes", "num_changes")
    cards = table(
        {"c1": "CHANGE 1", "y0": "YES money 4", "y1": "YES script 2", "n2": "NO camera 1", **fillers(9)},
        {"M": (["money"], 1), "Q": (["money"], 1)},
        [t],
    )
    state = vote_position(
        cards,
        ["M", "T"],
        ["y0", "c1", "n2"],
        extra_in_hand=3,
        personal=[[], ["Q"], []],
        options={"breaking_changes": True, "blockbuster_budgets": True},
    )
    state.hands[1].append("y1")
    cast_votes(state, ["y0", "c1", "n2"])
    play(state, 1, "add Q")
    play(state, 1, "slot 2")
    assert state.row == ["M", "T", "Q"] and state.edits == 1 and state.phase == VOTE
    cast_votes(state, ["y0", "y1", "n2"])
    evaluation, result = state.evaluation, state.result
    assert evaluation is not None and result is not None and state.phase == MOVIE_PICK
    assert evaluation.base_costs[1] == (0, 0, 0, 0, 0, 0, 1)
    assert evaluation.need == need_of(money=2) and evaluation.any_units == 1
    # net money 4, script 2, camera -1: D = 0, S = 2 + 2 = 4 >= A = 1: SUCCESS; profits 1 + K + 1.
    assert (result.shortfall_total, result.surplus_total, result.success) == (0, 4, True)
    assert evaluation.profits == (1, 1, 1)


def test_the_remainder_goes_to_the_active_player_even_without_a_vote() -> None:
    # §4.5 step 4, last clause (with R30): P0 pitches with an empty hand. P = 3 > |L| = 2: L (unshuffled, from the
    # active player clockwise: P1, P2) plus 1 pool card are collected; Y = 2 -> q = 1, r = 1 goes to P0.
    cards = table({"y1": "YES money 4", "y2": "YES camera 2", "p": "NO script 1", **fillers(6)}, {"Mx": (["money"], 3)})
    state = vote_position(cards, ["Mx"], [None, "y1", "y2"], pool=["p"])
    cast_votes(state, [None, "y1", "y2"])
    settlement = state.history[-1].settlement
    assert settlement.success and settlement.profit == 3 and state.pool == []
    rng = play_stream(0)
    collected = ["y1", "y2", "p"]  # a one-card pool top-up draws nothing from the play stream
    shuffle(rng, collected)
    assert state.won == [[collected[2]], [collected[0]], [collected[1]]]
    assert state.rng.getstate() == rng.getstate()
