"""The premiere phase (§4.8, §4.9, R36-R45): order, markets, trends, statues, period, NET, cleanup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from greenlight.core.events import Event
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.lines import Line
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import INTERNET, PREMIERE, MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, legal, line, play


def premiering(
    players: int, releases: dict[str, tuple[int, int]], lines: Sequence[Sequence[Line | None]], cut: bool = False, **kwargs: object
) -> MovieEmpireState:
    """A position at the start of the premiere phase; ``releases`` maps RL spaces to (seat, line index).

    With ``cut`` the caller still has to cover releases and then call ``advance``.
    """
    kwargs.setdefault("trend_row", ["TR05", "TR06", "TR13"])
    # Piles big enough that Upkeep never reshuffles the discards (tests read the discard piles).
    kwargs.setdefault("production_pile", ["PY02"] * 10)
    kwargs.setdefault("star_pile", ["ST01", "ST02"])
    kwargs.setdefault("script_pile", ["SA01", "SA02", "SA03"])
    state = position(players, phase=PREMIERE, lines=lines, assistants={space: seat for space, (seat, _) in releases.items()}, **kwargs)  # type: ignore[arg-type]
    for space, (_, index) in releases.items():
        state.release_line[TABLE.space_by_id[space].index] = index
    if not cut:
        advance(state, [])  # settle: run to the first decision
    return state


def premiere_events(events: list[Event]) -> list[Mapping[str, Any]]:
    return [e.data for e in events if e.kind == "premiere"]


def test_release_spaces_premiere_top_to_bottom_and_markets_run_out() -> None:
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"], locked=True)], [line("SD01", ["PB03"], locked=True)]]
    state = premiering(3, {"RL1": (2, 0), "RL2": (0, 0), "RL3": (1, 0)}, lines)
    assert GAME.decision(state).players == (2,) and legal(state, 2) == {"market USA", "market EUR", "market CHN"}
    play(state, 2, "market EUR")
    assert GAME.decision(state).players == (0,) and legal(state, 0) == {"market USA", "market CHN"}
    events = play(state, 0, "market CHN")
    # The last release has only USA left: it premieres there without a decision (R37).
    assert [(p["seat"], p["market"]) for p in premiere_events(events)] == [(0, "CHN"), (1, "USA")]
    assert state.released == [[("SA01", "A", "CHN")], [("SC02", "C", "USA")], [("SD01", "D", "EUR")]]


def test_china_draws_a_card_with_the_hand_limit() -> None:
    state = premiering(2, {"RL1": (0, 0)}, [[line("SA01", ["PB01"], locked=True)], []], hands=[["SA02", "SA03", "SA04", "SA05"], []])
    state.production_pile = ["PY01"]
    play(state, 0, "market CHN")
    assert "PY01" in state.hands[0] and GAME.decision(state).kind == "discard"


def test_trend_with_and_without_its_market_and_statue_once() -> None:
    # TR13 Quick Cash-In: period<=2, CHN, 3/1.
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"], locked=True)]]
    state = premiering(2, {"RL1": (0, 0), "RL2": (1, 0)}, lines, sympathy=[0, 0])
    first = premiere_events(play(state, 0, "market EUR"))[0]
    assert first["parts"]["trend"] == 1 and first["statue"] and state.statues == [1, 0]
    assert state.sympathy == [1, -1]
    second = premiere_events(play(state, 1, "market CHN"))[0]
    assert second["parts"]["trend"] == 3 and not second["statue"] and state.statues == [1, 0]
    assert state.sympathy == [1, 0]  # R43: the later hitter lost 1 and gains 1


def test_trend_without_a_market_pays_with_anywhere() -> None:
    state = premiering(2, {"RL1": (0, 0)}, [[line("SA01", ["PB01", "PJ01:B"], locked=True)], []], trend_row=[None, None, "TR14"])
    first = premiere_events(play(state, 0, "market USA"))[0]
    assert first["parts"]["trend"] == 2 and first["hit"]


def test_long_production_costs_sympathy_unless_it_hits_blockbuster() -> None:
    six = ["PG01", "PG02", "PB01", "PB02", "PY01", "PR01"]
    state = premiering(2, {"RL1": (0, 0)}, [[line("SA11", six, locked=True)], []], trend_row=[None, None, "TR01"], sympathy=[3, 0])
    result = premiere_events(play(state, 0, "market EUR"))[0]
    assert result["parts"] == {"market": 2, "trend": 2, "script": 0, "stars": 0, "period": 2, "production": 6}
    assert state.sympathy[0] == 4  # +1 trend hit, no period penalty (R44)
    state = premiering(2, {"RL1": (0, 0)}, [[line("SA11", six, locked=True)], []], sympathy=[3, 0])
    result = premiere_events(play(state, 0, "market EUR"))[0]
    assert result["parts"]["period"] == 2 and state.sympathy[0] == 2


def test_stars_score_only_when_their_requirement_holds() -> None:
    # Chip Hazard needs Stunts (holds); Rex Thunder needs Stunts too; Gina Velvet needs Catering (missing).
    movie = line("SA01", ["PB03", "PB02"], ["ST06", "ST05"], locked=True)
    state = premiering(2, {"RL1": (0, 0)}, [[movie], []])
    result = premiere_events(play(state, 0, "market EUR"))[0]
    assert result["parts"]["stars"] == 2 and result["parts"]["script"] == 3
    assert sorted(state.star_discard) == ["ST05", "ST06"]


def test_shut_released_line_does_not_premiere() -> None:
    l1 = line("SA01", ["PB01"], locked=True, shut=True)
    state = premiering(2, {"RL1": (0, 0)}, [[l1], []])
    assert state.round == 2 and state.released == [[], []]  # R30: no premiere, now or on NET


def test_premiere_frees_the_slot_and_reopens_a_shut_line() -> None:
    l1, l2 = line("SA01", ["PB01"], locked=True), line("SC02", ["PB02"], shut=True)
    state = premiering(2, {"RL1": (0, 0), "RL2": (1, 0)}, [[l1, l2], [line("SD01", ["PB03"], locked=True)]])
    play(state, 0, "market EUR")
    reopened = state.lines[0][1]
    assert state.lines[0][0] is None and reopened is not None and not reopened.shut


# -- the Internet (R38, R39, R45) ----------------------------------------------------------------------------------


def test_no_internet_at_two_players() -> None:
    state = premiering(2, {"RL1": (0, 0)}, [[line("SA01", ["PB01"], locked=True)], []], round=10, money=[5, 5], cut=True)
    state.cut_by[TABLE.space_by_id["RL1"].index] = 1
    advance(state, [])
    assert GAME.is_terminal(state) and state.released == [[], []]


def test_cut_release_may_premiere_on_the_internet_for_two_money_without_trend() -> None:
    lines = [[line("SA01", ["PB01", "PB02"], locked=True)], [], []]
    state = premiering(3, {"RL1": (0, 0)}, lines, money=[2, 0, 0], trend_row=[None, None, "TR13"], cut=True)
    state.cut_by[TABLE.space_by_id["RL1"].index] = 1
    advance(state, [])
    assert state.phase == INTERNET and legal(state, 0) == {"net 1", "net skip"}
    result = premiere_events(play(state, 0, "net 1"))[0]
    assert result["market"] == "NET" and result["parts"]["trend"] == 0 and not result["hit"]
    assert state.money[0] == 5  # paid 2, then the round-2 budget of 5
    assert state.released[0] == [("SA01", "A", "NET")] and state.statues == [0, 0, 0]


def test_cut_release_without_two_money_gets_no_internet_choice() -> None:
    lines = [[line("SA01", ["PB01"], locked=True)], [], []]
    state = premiering(3, {"RL1": (0, 0)}, lines, money=[1, 0, 0], cut=True)
    state.cut_by[TABLE.space_by_id["RL1"].index] = 1
    advance(state, [])
    assert state.round == 2 and state.released == [[], [], []]


def test_last_round_internet_for_players_without_a_release() -> None:
    lines: list[list[Line | None]] = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"]), None], [line("SD04", ["PG01"])]]
    state = premiering(3, {"RL1": (0, 0)}, lines, round=10, money=[0, 2, 2])
    play(state, 0, "market EUR")
    # Seat 1 may premiere its open line; seat 2's line has no blue card (release_ok fails).
    assert state.phase == INTERNET and GAME.decision(state).players == (1,)
    assert legal(state, 1) == {"net 1", "net skip"}
    play(state, 1, "net 1")
    assert GAME.is_terminal(state)
    assert state.released[1] == [("SC02", "C", "NET")]


def test_internet_respects_the_plan_release_restriction() -> None:
    lines = [[], [line("SC02", ["PB02"])], []]
    state = premiering(3, {}, lines, round=10, money=[0, 2, 0], plan="AP01")  # only drama
    assert GAME.is_terminal(state) and state.released[1] == []


def test_shut_or_cut_and_shut_releases_get_no_internet_and_case_b_offers_each_releasable_line() -> None:
    # 3 players, last round. Seat 0's release on RL1 is shut (R30: no premiere, now or on NET); seat 1's release
    # on RL2 was cut and its line is shut too (NET needs the cut line open); seat 2 placed no release assistant
    # and may premiere either of its two open lines that pass release_ok (case b).
    lines = [
        [line("SA01", ["PB01"], locked=True, shut=True)],
        [line("SC02", ["PB02"], locked=True, shut=True)],
        [line("SD01", ["PB03"]), line("SA02", ["PB04", "PY01"])],
    ]
    state = premiering(3, {"RL1": (0, 0), "RL2": (1, 0)}, lines, round=10, money=[5, 5, 5], sympathy=[0, 0, 2], cut=True)
    state.cut_by[TABLE.space_by_id["RL2"].index] = 2
    advance(state, [])
    assert state.phase == INTERNET and GAME.decision(state).players == (2,)
    assert legal(state, 2) == {"net 1", "net 2", "net skip"}
    play(state, 2, "net 2")
    assert GAME.is_terminal(state)
    assert state.released == [[], [], [("SA02", "A", "NET")]] and state.money == [5, 5, 3]
