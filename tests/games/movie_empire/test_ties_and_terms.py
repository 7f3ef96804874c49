"""Ties, tie-breaks and defined terms of Movie Empire (issue #29), one test per row of the inventory.

The inventory is the table "Ties, tie-breaks and defined terms" in docs/movie_empire.md: every row names a
rule of /work/shared/rules/movie_empire.md (a section § or a ruling R) and the one test below that decides it.
Each test builds the position where the rule decides (a finished game read with ``GAME.from_position``, or
``positions.position`` as the other rule tests do) and asserts exact values, so that a misreading of a tie,
of one level of a tie-break or of a defined term at its edge fails here and not only in the golden games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from greenlight.core.errors import OptionError
from greenlight.core.outcome import Outcome
from greenlight.core.positions import PositionError
from greenlight.games.movie_empire import GAME, cards
from greenlight.games.movie_empire.actions import Lay, Place
from greenlight.games.movie_empire.cards import load_tables
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.lines import Line, metrics
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.premiere import premiere_score
from greenlight.games.movie_empire.scoring import AWARD_KEYS
from greenlight.games.movie_empire.state import INTERNET, OVER, WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import place_problem, release_problem
from tests.games.movie_empire.helpers import TABLE, legal, legal_of, line, play
from tests.games.movie_empire.test_laying import producing
from tests.games.movie_empire.test_premiere import premiere_events, premiering
from tests.games.movie_empire.test_rounds import decline_all, grumpy
from tests.games.movie_empire.test_working import slot as slot_card

Movies = list[list[tuple[str, str, str]]]


def finished(num_players: int, released: Movies, **fields: Any) -> Outcome:
    """The outcome of a game that ended after round 10, written as a position (docs/positions.md)."""
    data: dict[str, Any] = {
        "num_players": num_players,
        "round": 10,
        "phase": "over",
        "trend_row": [None, None, "TR01"],
        "released": [[list(movie) for movie in movies] for movies in released],
        **fields,
    }
    state = GAME.from_position(data)
    assert isinstance(state, MovieEmpireState) and GAME.is_terminal(state)
    return GAME.outcome(state)


def column(result: Outcome, key: str) -> tuple[int, ...]:
    """One breakdown entry for every seat."""
    return tuple(item[key] for item in result.breakdown)


# -- the winner: §5 step 4 ------------------------------------------------------------------------------------------


def test_ranking_highest_total_wins_over_more_movies_and_statues() -> None:
    """§5 step 4: the highest PP wins; movies and statues are looked at only when the totals are equal."""
    released: Movies = [[("SA01", "A", "USA")], [("SA02", "A", "EUR"), ("SA03", "A", "CHN")], []]
    result = finished(3, released, pp=[37, 20, 0], statues=[0, 1, 0])
    # Seat 0: patriot USA 3. Seat 1: hardworking, action, patriot EUR and CHN 3 each, trendsetter 7.
    assert column(result, "awards") == (3, 19, 0)
    assert result.scores == (40.0, 39.0, 0.0)
    assert result.ranks == (1, 2, 3) and result.winners == (0,)


def test_ranking_equal_totals_most_released_movies_decide_before_statues() -> None:
    """§5 step 4.1: equal PP, the most released movies win, although the other seat holds more statues."""
    released: Movies = [[("SA01", "A", "USA")], [("SA02", "A", "EUR"), ("SA03", "A", "CHN")], []]
    result = finished(3, released, pp=[22, 20, 0], statues=[1, 0, 0])
    assert result.scores == (32.0, 32.0, 0.0)
    assert (column(result, "released"), column(result, "statues")) == ((1, 2, 0), (1, 0, 0))
    assert result.ranks == (2, 1, 3) and result.winners == (1,)


def test_ranking_movie_tie_break_counts_internet_premieres() -> None:
    """§5 step 4.1 with R45: a NET premiere is a released movie for the tie-break (and the hardworking award)."""
    released: Movies = [[("SA01", "A", "USA")], [("SA02", "A", "USA"), ("SD01", "D", "NET")], []]
    result = finished(3, released, pp=[16, 10, 0])
    # Seat 0: action and USA shared (6). Seat 1: hardworking, action, drama, USA (12).
    assert result.scores == (22.0, 22.0, 0.0)
    assert column(result, "released") == (1, 2, 0) and column(result, "hardworking") == (0, 3, 0)
    assert result.ranks == (2, 1, 3) and result.winners == (1,)


def test_ranking_equal_totals_and_movies_most_statues_decide() -> None:
    """§5 step 4.2: equal PP and equal released movies, the most golden statues win."""
    released: Movies = [[("SA01", "A", "USA")], [("SC01", "C", "EUR")], []]
    result = finished(3, released, pp=[10, 17, 0], statues=[1, 0, 0])
    # Seat 0: hardworking (shared), action, USA, trendsetter = 16. Seat 1: hardworking, comedy, EUR = 9.
    assert result.scores == (26.0, 26.0, 0.0)
    assert column(result, "released") == (1, 1, 0)
    assert result.ranks == (1, 2, 3) and result.winners == (0,)


def test_ranking_all_three_keys_equal_share_the_victory() -> None:
    """§5 step 4.3: equal PP, movies and statues share the victory; a seat equal on PP and movies but with fewer
    statues comes third, not second."""
    released: Movies = [[("SA01", "A", "USA")], [("SA02", "A", "USA")], [("SC01", "C", "EUR")]]
    result = finished(3, released, pp=[10, 10, 17], statues=[1, 1, 0])
    assert result.scores == (26.0, 26.0, 26.0)
    assert result.ranks == (1, 1, 3) and result.winners == (0, 1)
    assert result.returns() == (0.5, 0.5, 0.0)


def test_ranking_three_of_four_seats_share_first_and_the_fourth_loses_on_movies() -> None:
    """§5 step 4.3 with several seats: three seats equal on every key share first place; a fourth seat with the
    same PP but no released movie is ranked fourth (§5 step 4.1)."""
    released: Movies = [[("SA01", "A", "USA")], [("SA02", "A", "EUR")], [("SA03", "A", "CHN")], []]
    result = finished(4, released, pp=[5, 5, 5, 14])
    assert result.scores == (14.0, 14.0, 14.0, 14.0)
    assert result.ranks == (1, 1, 1, 4) and result.winners == (0, 1, 2)


# -- awards: §5 step 3, R63 -----------------------------------------------------------------------------------------


def test_most_awards_need_at_least_one_and_one_is_enough() -> None:
    """R63: a "most" award needs a value of at least 1: at 0 for everyone nobody scores it; 1 is enough."""
    nobody = finished(2, [[], []], pp=[4, 4])
    for key in AWARD_KEYS:
        assert column(nobody, key) == (0, 0), key
    assert nobody.scores == (4.0, 4.0) and nobody.winners == (0, 1)
    one = finished(2, [[("SD01", "D", "CHN")], []], statues=[1, 0])
    awarded = {key: value for key, value in one.breakdown[0].items() if key in AWARD_KEYS and value}
    assert awarded == {"hardworking": 3, "exploitation_drama": 3, "patriot_CHN": 3, "trendsetter": 7}
    assert column(one, "awards") == (16, 0)


def test_hardworking_goes_in_full_to_every_seat_tied_for_the_most_movies() -> None:
    """§5 step 3 (R63): most released movies, +3 to every seat tied at the maximum, nothing below it."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SC01", "C", "EUR")],
        [("SA02", "A", "CHN"), ("SD01", "D", "USA")],
        [("SC02", "C", "EUR")],
    ]
    result = finished(3, released)
    assert column(result, "hardworking") == (3, 3, 0)
    assert result.scores == (15.0, 15.0, 6.0) and result.winners == (0, 1)


def test_exploitation_is_decided_genre_by_genre_with_internet_premieres() -> None:
    """§5 step 3 Exploitation (R45, R63): each genre has its own majority, shared by ties; NET premieres count."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SC01", "C", "EUR")],
        [("SA02", "A", "CHN"), ("SD01", "D", "NET")],
        [("SC02", "C", "USA"), ("SC03", "C", "NET")],
    ]
    result = finished(3, released)
    assert column(result, "exploitation_action") == (3, 3, 0)  # 1-1-0: shared
    assert column(result, "exploitation_comedy") == (0, 0, 3)  # 1-0-2, one of seat 2's on NET
    assert column(result, "exploitation_drama") == (0, 3, 0)  # only on NET


def test_patriot_is_decided_market_by_market_and_internet_premieres_do_not_count() -> None:
    """§5 step 3 The patriot (R45, R63): each board market has its own majority, shared by ties; NET is none."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SA02", "A", "EUR")],
        [("SC01", "C", "CHN"), ("SC02", "C", "NET"), ("SC03", "C", "NET")],
        [("SD01", "D", "USA"), ("SD02", "D", "EUR")],
    ]
    result = finished(3, released)
    assert column(result, "patriot_USA") == (3, 0, 3)
    assert column(result, "patriot_EUR") == (3, 0, 3)
    assert column(result, "patriot_CHN") == (0, 3, 0)
    assert column(result, "hardworking") == (0, 3, 0)  # the NET movies still count as released movies


def test_king_of_the_world_needs_each_board_market_and_not_the_internet() -> None:
    """§5 step 3 King of the world: at least 1 movie in each of USA, EUR and CHN; NET does not stand in."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SA02", "A", "EUR"), ("SA03", "A", "CHN")],
        [("SC01", "C", "USA"), ("SC02", "C", "EUR"), ("SC03", "C", "NET")],
        [],
    ]
    result = finished(3, released)
    assert column(result, "king_of_the_world") == (5, 0, 0)


def test_jack_of_all_trades_needs_each_genre_and_the_internet_counts() -> None:
    """§5 step 3 Jack-of-all-trades (R45): at least 1 released movie of each of A, C and D, NET included."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SC01", "C", "USA"), ("SD01", "D", "NET")],
        [("SA02", "A", "EUR"), ("SC02", "C", "EUR"), ("SC03", "C", "CHN")],
        [],
    ]
    result = finished(3, released)
    assert column(result, "jack_of_all_trades") == (5, 0, 0)


def test_trendsetter_goes_in_full_to_every_seat_tied_for_the_most_statues() -> None:
    """§5 step 3 Trendsetter (R63): most golden statues, +7 to every seat tied at the maximum."""
    released: Movies = [
        [("SA01", "A", "USA"), ("SA02", "A", "EUR")],
        [("SC01", "C", "USA"), ("SC02", "C", "EUR")],
        [("SD01", "D", "CHN"), ("SD02", "D", "CHN")],
    ]
    result = finished(3, released, statues=[2, 2, 1])
    assert column(result, "trendsetter") == (7, 7, 0)


def test_money_scores_one_pp_per_full_three() -> None:
    """§5 step 2 Money: ⌊money / 3⌋ PP, so 2 gives 0, 3 gives 1, 5 gives 1 and 6 gives 2."""
    result = finished(4, [[], [], [], []], money=[2, 3, 5, 6])
    assert column(result, "money") == (0, 1, 1, 2)


def test_sympathy_end_game_pp_at_every_level() -> None:
    """§5 step 2 Sympathy with the §2.3 bar: the end-game PP of each of the 11 levels, negative below 0."""
    bar = {5: 8, 4: 6, 3: 4, 2: 2, 1: 1, 0: 0, -1: -1, -2: -2, -3: -4, -4: -6, -5: -8}
    for level, end_pp in bar.items():
        result = finished(2, [[], []], sympathy=[level, 0])
        assert column(result, "sympathy") == (end_pp, 0), level
        assert result.scores[0] == end_pp


def test_unused_dossier_scores_three_even_when_taken_in_the_last_round() -> None:
    """§5 step 2 Unused dossier: +3 PP for a dossier on the tableau, even one taken in the last round (10)."""
    result = finished(3, [[], [], []], dossier=[10, 9, -1])
    assert column(result, "dossier") == (3, 3, 0)


# -- one premiere: §4.9, R41-R44 -----------------------------------------------------------------------------------


def test_first_trend_hit_follows_release_order_not_turn_order() -> None:
    """R42: "first this round" follows premiere order (RL1 before RL2), whoever is first player: the statue goes
    to the RL1 release although the RL2 owner is first player."""
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"], locked=True)], []]
    state = premiering(3, {"RL1": (0, 0), "RL2": (1, 0)}, lines, first_player=1)  # TR13 Quick Cash-In: period<=2
    assert GAME.decision(state).players == (0,)
    first = premiere_events(play(state, 0, "market EUR"))[0]
    second = premiere_events(play(state, 1, "market USA"))[0]
    assert (first["seat"], first["hit"], first["statue"]) == (0, True, True)
    assert (second["seat"], second["hit"], second["statue"]) == (1, True, False)
    assert state.statues == [1, 0, 0]


def test_first_hit_costs_every_other_player_one_including_later_hitters() -> None:
    """R43 (§4.9 step 2): the first hit takes 1 sympathy from every other player, a later hitter too; each hit
    gives its hitter +1; only the first hit gives a statue."""
    lines = [
        [line("SA01", ["PB01"], locked=True)],
        [line("SC02", ["PB02"], locked=True)],
        [line("SD05", ["PB03", "PY01", "PR01"], locked=True)],  # period 3: no hit
    ]
    state = premiering(3, {"RL1": (0, 0), "RL2": (1, 0), "RL3": (2, 0)}, lines, sympathy=[2, 2, 2])
    play(state, 0, "market EUR")
    assert state.sympathy == [3, 1, 1]
    events = premiere_events(play(state, 1, "market CHN"))  # RL3 then takes the last market, USA, by itself
    assert [(p["seat"], p["hit"], p["statue"]) for p in events] == [(1, True, False), (2, False, False)]
    assert state.sympathy == [3, 2, 1] and state.statues == [1, 0, 0]


def test_trend_pays_with_in_its_market_and_without_elsewhere(tmp_path: Path) -> None:
    """R41 (§2.8): a hit pays "with" in the trend's market or when it has none, "without" in another market."""
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"], locked=True)]]
    state = premiering(2, {"RL1": (0, 0), "RL2": (1, 0)}, lines)  # TR13: CHN, 3 with, 1 without
    at_home = premiere_events(play(state, 0, "market CHN"))[0]
    abroad = premiere_events(play(state, 1, "market EUR"))[0]
    assert (at_home["hit"], at_home["parts"]["trend"]) == (True, 3)
    assert (abroad["hit"], abroad["parts"]["trend"]) == (True, 1)
    # The bundled trends without a market pay the same with and without; a data file where TR17 Crowd Pleaser
    # (no market) pays 2 with and 1 without shows that "with" is paid in every market.
    bundled = (Path(cards.__file__).parent / "data" / "trends.toml").read_text()
    crowd_pleaser = 'requirement = "script_met & stars>=1"\nmarket = "none"\npp_with = 2\npp_without = 2'
    assert bundled.count(crowd_pleaser) == 1
    (tmp_path / "trends.toml").write_text(bundled.replace(crowd_pleaser, crowd_pleaser[:-1] + "1"))
    table = load_tables(str(tmp_path))
    assert (table.trends["TR17"].pp_with, table.trends["TR17"].pp_without) == (2, 1)
    movie = line("SA01", ["PB01", "PB02"], ["ST04"])
    assert [dict(premiere_score(table, movie, market, "TR17").parts)["trend"] for market in ("USA", "EUR", "CHN")] == [2, 2, 2]


def test_internet_premiere_never_hits_a_trend_and_never_waives_the_long_production() -> None:
    """R44 (§4.9 step 2, step 5): on NET no trend is evaluated, so a six-card line under TR01 Blockbuster gets
    no trend PP and no statue, and still loses 1 sympathy for its period."""
    six = line("SA11", ["PG01", "PG02", "PB01", "PB02", "PY01", "PR01"])
    state = premiering(3, {}, [[], [six], []], round=10, money=[0, 2, 0], trend_row=[None, None, "TR01"])
    assert GAME.decision(state).players == (1,) and legal(state, 1) == {"net 1", "net skip"}
    result = premiere_events(play(state, 1, "net 1"))[0]
    assert result["parts"] == {"market": 0, "trend": 0, "script": 0, "stars": 0, "period": 2, "production": 6}
    assert (result["hit"], result["statue"], result["trend"]) == (False, False, None)
    assert state.sympathy == [0, -1, 0] and state.money[1] == 0 and state.statues == [0, 0, 0]
    # The same line in a board market hits TR01 (period>=6) and keeps its sympathy.
    assert premiere_score(TABLE, six, "EUR", "TR01").waived


def test_long_production_starts_at_period_six() -> None:
    """§4.9 step 5: period 6 or more gives +2 PP and costs 1 sympathy; period 5 has no effect."""
    five = line("SA08", ["PG01", "PB01", "PB02", "PY01", "PR01"], locked=True)
    six = line("SC06", ["PG01", "PG02", "PB01", "PB02", "PY01", "PR01"], locked=True)
    state = premiering(2, {"RL1": (0, 0), "RL2": (1, 0)}, [[five], [six]], sympathy=[1, 1])  # TR13: no hit
    short = premiere_events(play(state, 0, "market EUR"))[0]
    long = premiere_events(play(state, 1, "market USA"))[0]
    assert short["parts"] == {"market": 2, "trend": 0, "script": 7, "stars": 0, "period": 0, "production": 5}
    assert long["parts"] == {"market": 0, "trend": 0, "script": 7, "stars": 0, "period": 2, "production": 6}
    assert state.sympathy == [1, 0] and state.pp == [14, 15]


def test_only_a_blockbuster_hit_waives_the_long_production_sympathy() -> None:
    """R44 (§4.9 step 5): hitting TR01 (flagged) waives the -1 of a long production; hitting another trend
    (TR03 Popcorn Action) does not."""
    six = ["PG01", "PG02", "PB01", "PB02", "PY01", "PR01"]
    for trend, trend_pp, sympathy in (("TR01", 2, 1), ("TR03", 1, 0)):
        state = premiering(2, {"RL1": (0, 0)}, [[line("SA11", six, locked=True)], []], trend_row=[None, None, trend])
        result = premiere_events(play(state, 0, "market EUR"))[0]
        assert (result["hit"], result["statue"], result["parts"]["trend"], result["parts"]["period"]) == (True, True, trend_pp, 2)
        assert state.sympathy == [sympathy, -1], trend


def test_upgrade_points_stacked_printed_standalone_one_joker_zero() -> None:
    """§2.5 Kinds, §4.9 step 6, R23: a stacked upgrade scores its printed PP (2 for each of the four), a
    standalone upgrade scores 1, a joker 0."""
    stacked = line("SA08", ["PG07", "+PG08", "PB08", "+PB09", "PY04", "+PY05", "PR03", "+PR04"])
    # Bases 3 + 3 + 2 + 2, upgrades 2 + 2 + 2 + 2.
    assert dict(premiere_score(TABLE, stacked, "USA", None).parts)["production"] == 18
    # Each upgrade on its own: stacked (base PP + 2) and standalone next to a joker (1 + 0).
    for base, upgrade, stage, with_base in (
        ("PG07", "PG08", "G", 5),
        ("PB08", "PB09", "B", 5),
        ("PY04", "PY05", "Y", 4),
        ("PR03", "PR04", "R", 4),
    ):
        one = line("SA08", [base, f"+{upgrade}"])
        assert dict(premiere_score(TABLE, one, "USA", None).parts)["production"] == with_base, upgrade
        alone = line("SA08", [upgrade, f"PJ01:{stage}"])
        assert dict(premiere_score(TABLE, alone, "USA", None).parts)["production"] == 1, upgrade
    standalone = line("SC06", ["PG08", "PB09", "PY05", "PR04", "PJ01:R", "PJ02:R"])
    assert dict(premiere_score(TABLE, standalone, "USA", None).parts)["production"] == 4


# -- line metrics and requirements: §2.1 ---------------------------------------------------------------------------


def trend_pp(movie: Line, trend: str, market: str = "USA") -> tuple[bool, int]:
    """Whether ``movie`` hits ``trend`` in ``market``, and the trend PP it scores."""
    score = premiere_score(TABLE, movie, market, trend)
    return score.hit, dict(score.parts)["trend"]


def test_period_counts_positions_not_stacked_upgrades_stars_or_the_script() -> None:
    """§2.1 period (R23): the number of positions; a stacked upgrade, the stars and the script never count, a
    standalone upgrade and a joker do."""
    stacked = line("SA01", ["PB08", "+PB09", "PY01"], ["ST04", "ST01"])
    standalone = line("SA01", ["PB09", "PY01", "PJ01:R"])
    assert (metrics(TABLE, stacked).period, metrics(TABLE, standalone).period) == (2, 3)
    assert trend_pp(stacked, "TR13", "CHN") == (True, 3)  # Quick Cash-In: period<=2
    assert trend_pp(standalone, "TR13", "CHN") == (False, 0)
    # Five positions with a stacked upgrade and two stars stay a period of 5: no long-production bonus.
    five = line("SA08", ["PG07", "+PG08", "PB01", "PY01", "PR01", "PR02"], ["ST04", "ST08"])
    assert metrics(TABLE, five).period == 5 and dict(premiere_score(TABLE, five, "USA", None).parts)["period"] == 0


def test_stage_counts_use_a_jokers_chosen_stage_and_skip_stacked_upgrades() -> None:
    """§2.1 n(s) (R20, R23): a joker counts as its chosen stage, a stacked upgrade never counts; TR12 Festival
    Darling needs n(Y)>=2."""
    joker_yellow = line("SD01", ["PB01", "PY01", "PJ01:Y"])
    joker_red = line("SD01", ["PB01", "PY01", "PJ01:R"])
    stacked = line("SD01", ["PB01", "PY04", "+PY05"])
    assert metrics(TABLE, joker_yellow).counts == (0, 1, 2, 0)
    assert metrics(TABLE, joker_red).counts == (0, 1, 1, 1)
    assert metrics(TABLE, stacked).counts == (0, 1, 1, 0)
    assert trend_pp(joker_yellow, "TR12", "EUR") == (True, 3)
    assert trend_pp(joker_red, "TR12", "EUR") == (False, 0)
    assert trend_pp(stacked, "TR12", "EUR") == (False, 0)


def test_has_needs_the_named_card_and_not_its_standalone_upgrade() -> None:
    """§2.1 has(X), R24: met by a position holding base X (an upgrade stacked on it changes nothing) or a joker
    named X; a standalone X* does not meet it. Buck Steele needs has(Pyrotechnics), TR14 has(Director)."""
    base = line("SA01", ["PB08", "PJ01:Y"], ["ST15"])
    stacked = line("SA01", ["PB08", "+PB09"], ["ST15"])
    standalone = line("SA01", ["PB09", "PJ02:Y"], ["ST15"])
    assert [dict(premiere_score(TABLE, movie, "USA", None).parts)["stars"] for movie in (base, stacked, standalone)] == [4, 4, 0]
    assert trend_pp(base, "TR14") == (True, 2)  # the Director
    assert trend_pp(standalone, "TR14") == (False, 0)  # the Cameraman is another joker


def test_script_is_met_at_exactly_its_requirement_and_not_one_card_short() -> None:
    """§2.1 script_met (§4.9 step 3): every stage count at least the script's; exactly enough scores the full
    PP, one stage one card short scores 0. TR17 Crowd Pleaser needs script_met & stars>=1."""
    exact = line("SA09", ["PG01", "PB01", "PB02", "PY01", "PR01"], ["ST04"])  # Alien Huntress 1/2/1/1, 9 PP
    short = line("SA09", ["PG01", "PB01", "PY01", "PR01"], ["ST04"])  # n(B) = 1 < 2
    assert dict(premiere_score(TABLE, exact, "USA", None).parts)["script"] == 9
    assert dict(premiere_score(TABLE, short, "USA", None).parts)["script"] == 0
    assert trend_pp(exact, "TR17") == (True, 2)
    assert trend_pp(short, "TR17") == (False, 0)
    assert trend_pp(line("SA09", ["PG01", "PB01", "PB02", "PY01", "PR01"]), "TR17") == (False, 0)  # met, no star


def test_each_stage_at_least_once_counts_a_joker_and_fails_on_one_missing_stage() -> None:
    """§2.1 n(each)>=1: G, B, Y and R each at least once, a joker as its chosen stage (TR15 Complete Package)."""
    assert trend_pp(line("SA08", ["PG01", "PB01", "PY01", "PR01"]), "TR15") == (True, 3)
    assert trend_pp(line("SA08", ["PJ01:G", "PB01", "PY01", "PR01"]), "TR15") == (True, 3)
    assert trend_pp(line("SA08", ["PB01", "PY01", "PR01"]), "TR15") == (False, 0)
    assert trend_pp(line("SA08", ["PB01", "PB02", "PY01", "PR01"]), "TR15") == (False, 0)  # four positions, no G


def test_period_at_most_k_holds_at_k_and_fails_at_k_plus_one() -> None:
    """§2.1 period<=k: TR13 Quick Cash-In (period<=2) and TR09 Indie Spirit (stars=0 & period<=3)."""
    two, three, four = (line("SA07", cards) for cards in (["PB01", "PY01"], ["PB01", "PY01", "PR01"], ["PB01", "PB02", "PY01", "PR01"]))
    assert [trend_pp(movie, "TR13", "CHN") for movie in (two, three)] == [(True, 3), (False, 0)]
    assert [trend_pp(movie, "TR09", "EUR") for movie in (three, four)] == [(True, 3), (False, 0)]


def test_star_count_requirements_at_their_edges() -> None:
    """§2.1 stars>=k and stars=0: TR08 Star Vehicle (stars>=2), TR16 Ensemble Piece (stars>=3), TR09 Indie
    Spirit (stars=0 & period<=3)."""
    cards = ["PB01", "PY01"]
    none, one, two, three = (line("SD01", cards, stars) for stars in ([], ["ST04"], ["ST04", "ST08"], ["ST04", "ST08", "ST16"]))
    assert [trend_pp(movie, "TR08") for movie in (one, two)] == [(False, 0), (True, 4)]
    assert [trend_pp(movie, "TR16") for movie in (two, three)] == [(False, 0), (True, 3)]
    assert [trend_pp(movie, "TR09", "EUR") for movie in (none, one)] == [(True, 3), (False, 0)]


def test_star_scores_only_when_its_requirement_holds_at_the_edge() -> None:
    """§2.6 (§4.9 step 4): a star's requirement must hold at premiere or it scores 0; Dahlia Frost needs n(Y)>=2
    (3 PP), Marta Quill has none (1 PP)."""
    enough = line("SD01", ["PB01", "PY01", "PY02"], ["ST10", "ST04"])
    one_short = line("SD01", ["PB01", "PY01"], ["ST10", "ST04"])
    assert dict(premiere_score(TABLE, enough, "USA", None).parts)["stars"] == 4
    assert dict(premiere_score(TABLE, one_short, "USA", None).parts)["stars"] == 1


# -- the sympathy bar and the line limit: §2.3, §4.7, R12, R29, R60 ------------------------------------------------


def test_sympathy_clamps_at_both_ends() -> None:
    """R12 (§2.3): sympathy stays within -5...+5; a gain at +5 and a loss at -5 are lost."""
    state = premiering(3, {"RL1": (0, 0)}, [[line("SA01", ["PB01"], locked=True)], [], []], sympathy=[5, -5, 0])
    result = premiere_events(play(state, 0, "market EUR"))[0]
    assert (result["hit"], result["statue"], result["sympathy"]) == (True, True, 0)
    assert state.sympathy == [5, -5, -1]


def test_lines_allowed_step_from_one_to_two_at_plus_two() -> None:
    """§2.3 Lines allowed open: 1 from -5 to +1, 2 from +2 to +5; a second line may be started only at +2 or more."""
    for level in range(-5, 6):
        state = position(2, sympathy=[level, 0], hands=[["SC01", "PB01"], []], lines=[[line("SA01", ["PB02"])], []])
        assert ("produce new" in legal(state, 0)) == (level >= 2), level


def test_free_exemption_from_plus_three_and_not_at_plus_two() -> None:
    """§2.3 May ignore the annual plan for free, §4.1 step 3: from +3 up, not at +2 (which may still pay 4)."""
    state = grumpy(2, "AP09", sympathy=[3, 2], money=[0, 0])  # budgets 7 and 6
    assert legal(state, 0) == {"exempt decline", "exempt free", "exempt pay"}
    play(state, 0, "exempt decline")
    assert legal(state, 1) == {"exempt decline", "exempt pay"}


def test_budget_per_round_at_every_sympathy_level() -> None:
    """§2.3 Budget per round, §4.1 step 2: the budget of each of the 11 levels."""
    budget = {5: 9, 4: 8, 3: 7, 2: 6, 1: 6, 0: 5, -1: 4, -2: 4, -3: 3, -4: 2, -5: 1}
    for level, money in budget.items():
        state = grumpy(2, "AP13", sympathy=[level, 0], money=[0, 0])
        assert state.money == [money, 5], level


def test_locked_lines_count_as_open_for_the_line_limit() -> None:
    """§4.7: open lines are those not shut down, locked (released) lines included; at +1 a seat with a released
    and an unreleased line must shut one, and may choose the released one."""
    lines = [[], [line("SA01", ["PB01"], locked=True), line("SC02", ["PB02"])]]
    state = position(2, money=[1, 0], sympathy=[0, 2], lines=lines, assistants={"RL1": 1}, placed=[0, 1])
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    play(state, 0, "place DN1")
    assert state.sympathy == [0, 1]
    assert GAME.decision(state).kind == "shut" and GAME.decision(state).players == (1,)
    assert legal(state, 1) == {"shut 1", "shut 2"}


def test_shut_line_reopens_only_when_open_falls_below_allowed() -> None:
    """§4.7 Reopen, R29: a shut line reopens once open < allowed; at open = allowed it stays shut."""
    lines = [[], [line("SA01", ["PB01"]), line("SC02", ["PB02"], shut=True)]]
    state = position(2, sympathy=[0, 0], seat=1, lines=lines)
    play(state, 1, "place BN1")  # +1: one line allowed, one open
    held = state.lines[1][1]
    assert state.sympathy[1] == 1 and held is not None and held.shut
    state = position(2, sympathy=[0, 1], seat=1, lines=lines)
    play(state, 1, "place BN1")  # +2: two lines allowed, one open
    held = state.lines[1][1]
    assert state.sympathy[1] == 2 and held is not None and not held.shut


def test_simultaneous_shutdowns_resolve_in_turn_order_from_the_first_player() -> None:
    """R60, R70 (§4.7): when one effect puts several players over their line limit, they decide in turn order,
    starting with the first player, not by seat number."""
    lines = [[], [line("SA01", ["PB01"]), line("SC02", ["PB02"])], [line("SD01", ["PB03"]), line("SA02", ["PB04"])], []]
    for first_player, order in ((2, (2, 1)), (0, (1, 2))):
        state = position(4, first_player=first_player, seat=0, money=[1, 0, 0, 0], sympathy=[0, 2, 2, 0], lines=lines)
        play(state, 0, "place DN1")
        deciders = []
        while GAME.decision(state).kind == "shut":
            seat = GAME.decision(state).players[0]
            deciders.append(seat)
            play(state, seat, "shut 2")
        assert tuple(deciders) == order, first_player


# -- turn order, money and the hand: §2.2, §4.2, §4.5, R2, R10, R11, R51, R61 -------------------------------------


def test_usable_dossier_is_one_taken_in_an_earlier_round() -> None:
    """Conventions "Usable dossier", R51: a dossier taken this round cannot be spent; one taken in the round
    before can (BN1 +2, BN2, the Sabotage option, Purge), from that round's Grumpy phase on (exemption)."""
    this_round = position(2, round=3, dossier=[3, None])
    assert legal(this_round, 0) == {"pass", "place BN1", "place CC1", "place FP1"}
    assert GAME.why_illegal(this_round, 0, Place("BN1", True)) == (
        "you have no dossier you may use this round (it must be taken in an earlier round)"
    )
    assert legal(position(2, round=3, dossier=[2, None]), 0) == {
        "pass",
        "place BN1",
        "place BN1 dossier",
        "place BN2 dossier",
        "place CC1",
        "place FP1",
        "place SB1 dossier",
        "purge",
    }
    state = grumpy(2, "AP09", dossier=[1, None], money=[0, 0])  # round 2: the round-1 dossier is usable
    assert legal(state, 0) == {"exempt decline", "exempt dossier", "exempt pay"}
    play(state, 0, "exempt decline")
    assert legal(state, 1) == {"exempt decline", "exempt pay"}


def test_hire_fee_first_two_free_third_three_fourth_four() -> None:
    """§2.2 Production assistants, §4.2 step 4, R10: the 1st and 2nd assistants are free, the 3rd costs 3 and
    the 4th 4, paid before FP1's +2 comes in."""
    assert "place FP1" in legal_of(position(2, money=[0, 0], placed=[1, 0]), 0, Place)
    for placed, fee in ((2, 3), (3, 4)):
        assert "place FP1" not in legal_of(position(2, money=[fee - 1, 0], placed=[placed, 0]), 0, Place), placed
        state = position(2, money=[fee, 0], placed=[placed, 0])
        play(state, 0, "place FP1")
        assert state.money[0] == 2, placed


def test_hand_limit_keeps_four_and_discards_from_five() -> None:
    """§4.5, R2: a hand of exactly 4 keeps everything; at 5 its owner must discard at once, any card."""
    state = position(2, money=[2, 0], hands=[["SA01", "SA02"], []], production_pile=["PY01", "PY02"])
    play(state, 0, "place OT1")
    assert sorted(state.hands[0]) == ["PY01", "PY02", "SA01", "SA02"] and GAME.decision(state).kind != "discard"
    state = position(2, money=[2, 0], hands=[["SA01", "SA02", "SA03"], []], production_pile=["PY01", "PY02"])
    play(state, 0, "place OT1")
    assert GAME.decision(state).kind == "discard" and GAME.decision(state).players == (0,)
    assert legal(state, 0) == {"discard SA01", "discard SA02", "discard SA03", "discard PY01", "discard PY02"}
    # Down to 4 the owner may stop, or discard more (the just-drawn cards too).
    play(state, 0, "discard PY01")
    assert legal(state, 0) == {"stop", "discard SA01", "discard SA02", "discard SA03", "discard PY02"}


def test_fp1_taker_is_next_first_player_even_if_already_first_else_the_left_neighbour() -> None:
    """R61, §4.10 step 8: FP1's taker is first player next round, even when already first; without FP1 the
    marker passes to the left."""
    for takes_fp1, next_first in ((True, 1), (False, 2)):
        state = position(3, money=[0, 0, 0], first_player=1, seat=1)
        play(state, 1, "place FP1" if takes_fp1 else "place CC1")
        while state.round == 1:
            play(state, GAME.decision(state).players[0], "pass")
        assert state.first_player == next_first, takes_fp1


def test_ap10_loss_stops_at_zero() -> None:
    """AP10, R11: lose 2 money, stopping at 0 (money 1 and 2 end at 0, money 3 at 1)."""
    state = grumpy(3, "AP10", sympathy=[-5, -4, -3], money=[0, 0, 0])  # budgets 1, 2, 3
    decline_all(state)
    assert state.money == [0, 0, 1]


def test_ap12_gives_all_below_two_and_an_exempt_player_only_receives() -> None:
    """AP12, R50: give 2 hand cards to the left (all of them with fewer than 2); an exempt player gives nothing
    but still receives."""
    hands = [["PB01"], ["PY01", "PY02"], ["SC01"]]
    state = grumpy(3, "AP12", hands=hands, sympathy=[0, 0, 3], money=[0, 0, 0])
    play(state, 0, "exempt decline")
    play(state, 1, "exempt decline")
    play(state, 2, "exempt free")
    assert state.phase == WORKING  # nobody had more than 2 cards to choose from
    assert [sorted(hand) for hand in state.hands] == [[], ["PB01"], ["PY01", "PY02", "SC01"]]


def test_upkeep_dossier_penalty_hits_the_user_at_two_players_and_the_others_at_three() -> None:
    """§4.10 step 3: for each spent dossier, in a 2-player game its user loses 1; at 3-4 players every other
    player loses 1."""
    for players, after_bn1, after_upkeep in ((2, [3, 1], [2, 1]), (3, [3, 1, 1], [3, 0, 0])):
        state = position(players, round=2, dossier=[1, *[None] * (players - 1)], sympathy=[1] * players)
        play(state, 0, "place BN1 dossier")
        assert state.sympathy == after_bn1
        while state.round == 2:
            play(state, GAME.decision(state).players[0], "pass")
        assert state.sympathy == after_upkeep, players


# -- release and premiere: §2.4, §4.3, §4.8, R35, R37, R38 --------------------------------------------------------


def test_release_needs_a_blue_position_and_a_joker_chosen_blue_counts() -> None:
    """§4.3 release_ok (n(B) >= 1), R35: a joker chosen B is a blue position; chosen G it is not."""
    blue = position(2, lines=[[line("SC01", ["PG01", "PJ01:B"])], []])
    green = position(2, lines=[[line("SC01", ["PG01", "PJ01:G"])], []])
    assert release_problem(blue, 0, 0) is None and "place RL1" in legal(blue, 0)
    assert release_problem(green, 0, 0) == "a movie needs at least one shooting (blue) card to be released"
    assert "place RL1" not in legal(green, 0)
    # The same on NET in the last round (case b needs release_ok): only the line with a blue joker may go.
    for stage, offered in (("B", {"net 1", "net skip"}), ("G", None)):
        state = premiering(3, {}, [[line("SC01", ["PG01", f"PJ01:{stage}"])], [], []], round=10, money=[2, 0, 0])
        assert (legal(state, 0) if state.phase == INTERNET else None) == offered, stage


def test_board_markets_take_one_premiere_each_per_round() -> None:
    """§2.4 Markets capacity, R37: USA, EUR and CHN take one premiere each a round, so the third release has
    one market left and takes it without a choice."""
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02"], locked=True)], [line("SD01", ["PB03"], locked=True)]]
    state = premiering(3, {"RL1": (0, 0), "RL2": (1, 0), "RL3": (2, 0)}, lines)
    assert legal(state, 0) == {"market USA", "market EUR", "market CHN"}
    play(state, 0, "market USA")
    assert legal(state, 1) == {"market EUR", "market CHN"}
    play(state, 1, "market CHN")
    assert state.released == [[("SA01", "A", "USA")], [("SC02", "C", "CHN")], [("SD01", "D", "EUR")]]


def test_internet_only_at_three_or_four_players() -> None:
    """§2.4 NET availability, R38: NET is a market at 3-4 players only; at 2 a last-round line stays unreleased."""
    two = premiering(2, {}, [[line("SA01", ["PB01"])], []], round=10, money=[2, 0])
    assert GAME.is_terminal(two) and two.released == [[], []]
    three = premiering(3, {}, [[line("SA01", ["PB01"])], [], []], round=10, money=[2, 0, 0])
    assert three.phase == INTERNET and GAME.decision(three).players == (0,)
    assert legal(three, 0) == {"net 1", "net skip"}


def test_last_round_is_round_ten_or_round_seven_in_shoot_a_short_for_the_internet() -> None:
    """Conventions "Last round", §4.8 step 2 (b): a seat without a release may premiere on NET only in the last
    round: round 10, or round 7 in Shoot a Short."""
    lines = [[line("SA01", ["PB01"])], [], []]
    for options, round, internet in (
        ({}, 9, False),
        ({}, 10, True),
        ({"shoot_a_short": True}, 6, False),
        ({"shoot_a_short": True}, 7, True),
    ):
        state = premiering(3, {}, lines, round=round, money=[2, 0, 0], options=options)
        assert (state.phase == INTERNET) == internet, (options, round)
    full_round_seven = premiering(3, {}, lines, round=7, money=[2, 0, 0])
    assert full_round_seven.round == 8 and full_round_seven.released == [[], [], []]


# -- variants and options: §6, §1 Length, §2.2 ---------------------------------------------------------------------


def test_shoot_a_short_on_and_off() -> None:
    """§6 Shoot a Short: on, 7 rounds, 2 production cards dealt, 2 scripts kept, 10 trends removed (a pile of
    4), no annual plans; off, 10 rounds, no cards, 1 script, 7 removed (a pile of 7) and 13 plans."""
    for short, last, dealt, kept, removed, pile, plans in ((True, 7, 2, 2, 10, 4, 0), (False, 10, 0, 1, 7, 7, 13)):
        state = GAME.new_state(3, 4, {"shoot_a_short": short})
        assert (state.last_round, [len(hand) for hand in state.hands]) == (last, [dealt] * 3), short
        assert (len(state.trend_removed), len(state.trend_pile), len(state.plan_pile)) == (removed, pile, plans), short
        keeps = GAME.legal_actions(state, 0)
        assert len(keeps) == 3 and {len(action.cards) for action in keeps} == {kept}  # type: ignore[attr-defined]
        for seat in range(3):
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        while state.round == 1:
            play(state, GAME.decision(state).players[0], "pass")
        assert (state.plan is None) == short, short  # round 2 reveals a plan only in the full game


def test_clean_hands_on_and_off() -> None:
    """§6 Clean Hands: on, RV1 and BN2 leave the board (15 spaces at 2 players instead of 17), no dossier can be
    taken and a position holding one is refused; off, RV1 is there to take one."""
    assert (len(TABLE.spaces_in_use(2, False)), len(TABLE.spaces_in_use(2, True))) == (17, 15)
    on = position(2, money=[9, 0], options={"clean_hands": True})
    off = position(2, money=[9, 0])
    assert {"place RV1", "place BN2"} & legal(on, 0) == set()
    assert "place RV1" in legal(off, 0)
    with pytest.raises(PositionError, match="dossier"):
        GAME.from_position({"num_players": 2, "round": 3, "options": {"clean_hands": True}, "dossier": [2, -1]})
    assert GAME.from_position({"num_players": 2, "round": 3, "dossier": [2, -1]}).dossier == [2, -1]  # type: ignore[attr-defined]


def test_rounds_option_on_and_off() -> None:
    """§1 Length (the ``rounds`` parameter): rounds=8 ends the game after round 8 and removes 17 - 8 trends;
    the default is 10 rounds and 7 removed; Shoot a Short refuses it."""
    for options, last, removed in (({"rounds": 8}, 8, 9), ({}, 10, 7)):
        state = GAME.new_state(2, 1, options)
        assert (state.last_round, len(state.trend_removed)) == (last, removed), options
        state = position(2, round=8, options=options, trend_row=["TR01", "TR02", "TR03"])
        play(state, 0, "pass")
        play(state, 1, "pass")
        assert (state.phase == OVER) == (last == 8), options
    with pytest.raises(OptionError):
        GAME.new_state(2, 1, {"shoot_a_short": True, "rounds": 8})


def test_hand_limit_option_on_and_off() -> None:
    """§2.2 Hand limit (the ``hand_limit`` parameter, R2): at 5 a hand of 5 is kept; by default 4 is the limit."""
    for options, discard in (({"hand_limit": 5}, False), ({}, True)):
        state = position(2, money=[2, 0], hands=[["SA01", "SA02", "SA03"], []], production_pile=["PY01", "PY02"], options=options)
        play(state, 0, "place OT1")
        assert (GAME.decision(state).kind == "discard") == discard, options
        assert len(state.hands[0]) == 5


def test_starting_money_option_on_and_off() -> None:
    """§2.2 Starting money (the ``starting_money`` parameter): 7 makes each player start with 7 (12 after the
    round-1 budget of 5); the default is 0 (5)."""
    for options, start in (({"starting_money": 7}, 7), ({}, 0)):
        state = GAME.new_state(2, 1, options)
        assert state.money == [start, start], options
        for seat in range(2):
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert state.money == [start + 5, start + 5], options


# -- more defined terms at their edges: §4.4, §4.6, §4.8, AP04, R14, R22, R25, R34, R48, R52, R55, R57 ----------


def test_ap04_forbids_printed_blue_cards_only_and_not_to_an_exempt_player() -> None:
    """AP04, R49, §2.5 Kinds: a non-exempt player may not take a card of printed stage B from a slot, by buying
    or by the SB1 swap; a joker has no printed stage, so it is not blue; an exempt player may take both."""
    for exempt, taken in ((False, {"PS2", "PS3"}), (True, {"PS1", "PS2", "PS3"})):
        slots = {"PS1": "PB01", "PS2": "PJ01", "PS3": "PY01"}
        state = position(2, money=[9, 0], plan="AP04", exempt=[exempt, False], hands=[["PY02"], []], slots=slots)
        assert {text.removeprefix("place ") for text in legal_of(state, 0, Place) if "PS" in text} == taken, exempt
        # The rules-text check agrees (place_problem, which why_illegal words).
        assert {slot for slot in slots if place_problem(state, 0, TABLE.space_by_id[slot], False) is None} == taken, exempt
        play(state, 0, "place SB1", "swap PY02")
        assert legal(state, 0) == {f"take {slot}" for slot in taken}, exempt


def test_an_upgrade_carries_its_base_name_and_a_joker_its_own() -> None:
    """§4.6 step 3.1 and 4, R22, R25: X* carries the name X: with base X in the line it may only be stacked,
    and after a standalone X* the base X may not be laid; two jokers of one name may not share a line."""
    state = producing(["PB09", "PJ01"], [line("SA01", ["PB08"])])
    assert legal(state, 0) == {"stack PB09", "lay PJ01 left G", "lay PJ01 left B", "lay PJ01 right B", "lay PJ01 right Y"}
    state = producing(["PB08", "PJ02"], [line("SA01", ["PB09", "PJ01:Y"])])
    assert legal(state, 0) == {"lay PJ02 left G", "lay PJ02 left B", "lay PJ02 right Y", "lay PJ02 right R"}
    assert GAME.why_illegal(state, 0, Lay("PB08", "left")) == (
        "Pyrotechnics is already in this production line; each production card may appear once per line"
    )
    state = producing(["PJ01", "PJ03"], [line("SA01", ["PB01", "PJ01:B"])])
    assert legal(state, 0) == {"lay PJ03 left G", "lay PJ03 left B", "lay PJ03 right B", "lay PJ03 right Y"}


def test_colour_rule_drops_stages_outside_green_to_red() -> None:
    """§4.6 step 3.2 and 5: right of s allows {s, s+1}, left of s allows {s-1, s}; stages outside G...R are
    dropped, so a joker left of G can only be G and right of R only R."""
    assert legal(producing(["PJ02"], [line("SA01", ["PG01"])]), 0) == {"lay PJ02 left G", "lay PJ02 right G", "lay PJ02 right B"}
    assert legal(producing(["PJ02"], [line("SA01", ["PR01"])]), 0) == {"lay PJ02 left Y", "lay PJ02 left R", "lay PJ02 right R"}
    # The lay check itself refuses a skipped stage at either end.
    state = producing(["PJ02"], [line("SA01", ["PR01"])])
    assert GAME.why_illegal(state, 0, Lay("PJ02", "left", "B")) == (
        "at the left end a joker may only be post-production (Y) or marketing (R) (colour rule)"
    )
    state = producing(["PJ02"], [line("SA01", ["PG01"])])
    assert GAME.why_illegal(state, 0, Lay("PJ02", "right", "Y")) == (
        "at the right end a joker may only be pre-production (G) or shooting (B) (colour rule)"
    )


def test_purge_takes_the_three_lowest_card_slots_or_fewer_when_fewer_hold_cards() -> None:
    """§4.4 Purge step 1, R55, R69: the three lowest uncovered slots holding a card are discarded (fewer if fewer
    hold one); the rest slide down to free slots and free slots are refilled, never under an assistant."""
    state = position(
        3,
        round=2,
        dossier=[1, None, None],
        slots={"PS1": "PB01", "PS2": "PB02", "PS3": "PB03", "PS4": "PB04", "PS5": None},
        assistants={"PS5": 1},
        placed=[0, 1, 0],
        production_pile=["PR01", "PR02", "PR03"],
    )
    play(state, 0, "purge")
    assert sorted(state.production_discard) == ["PB01", "PB02", "PB03"]
    assert [slot_card(state, space) for space in ("PS1", "PS2", "PS3", "PS4", "PS5")] == ["PB04", "PR01", "PR02", "PR03", None]
    state = position(
        2,
        round=2,
        dossier=[1, None],
        slots={"PS1": "PB01", "PS2": None, "PS3": "PB03"},
        assistants={"PS2": 1},
        placed=[0, 1],
        production_pile=["PR01", "PR02", "PR03"],
    )
    play(state, 0, "purge")
    assert sorted(state.production_discard) == ["PB01", "PB03"]
    assert [slot_card(state, space) for space in ("PS1", "PS2", "PS3")] == ["PR01", None, "PR02"]
    # A slot covered by a dossier is skipped: the three lowest uncovered ones go, the covered card stays.
    state = position(
        3,
        round=2,
        dossier=[1, None, None],
        slots={"PS1": "PB01", "PS2": "PB02", "PS3": "PB03", "PS4": "PB04", "PS5": "PY07"},
        production_pile=["PR01", "PR02", "PR03"],
    )
    state.blocked[TABLE.space_by_id["PS2"].index] = 2
    play(state, 0, "purge")
    assert sorted(state.production_discard) == ["PB01", "PB03", "PB04"]
    assert [slot_card(state, space) for space in ("PS1", "PS2", "PS3", "PS4", "PS5")] == ["PY07", "PB02", "PR01", "PR02", "PR03"]


def test_overtime_is_allowed_with_empty_piles_and_draws_what_there_is() -> None:
    """R14, R4 (§4.11): OT1 is always allowed; with the pile and its discard empty it draws nothing, with one
    card it draws that one."""
    for pile, hand in (([], []), (["PY01"], ["PY01"])):
        state = position(2, money=[2, 0], production_pile=pile)
        assert "place OT1" in legal(state, 0) and place_problem(state, 0, TABLE.space_by_id["OT1"], False) is None
        play(state, 0, "place OT1")
        assert (state.hands[0], state.money[0]) == (hand, 0), pile


def test_one_line_takes_at_most_one_release_a_round() -> None:
    """R34, §4.3 release_ok: a line designated by a release this round cannot be designated again; another line
    can, so one player may hold two release spaces."""
    for second_locked, may_release in ((False, True), (True, False)):
        lines = [[line("SA01", ["PB01"], locked=True), line("SC02", ["PB02"], locked=second_locked)], []]
        assistants = {"RL1": 0, "RL2": 0} if second_locked else {"RL1": 0}
        state = position(2, money=[9, 0], lines=lines, assistants=assistants, placed=[len(assistants), 0])  # fees paid
        for number, space in enumerate(assistants):
            state.release_line[TABLE.space_by_id[space].index] = number
        assert ("place RL3" in legal(state, 0)) == may_release, second_locked
        assert (place_problem(state, 0, TABLE.space_by_id["RL3"], False) is None) == may_release, second_locked


def test_two_cut_releases_of_one_player_go_to_the_internet_in_release_order() -> None:
    """§4.8 step 2, R36: a player with two cut releases decides on NET for them in RL order (RL1's line first),
    whatever the line numbers."""
    lines = [[line("SA01", ["PB01"], locked=True), line("SC02", ["PB02"], locked=True)], [], []]
    state = premiering(3, {"RL1": (0, 1), "RL2": (0, 0)}, lines, round=3, money=[4, 0, 0], cut=True)
    state.cut_by[TABLE.space_by_id["RL1"].index] = 1
    state.cut_by[TABLE.space_by_id["RL2"].index] = 2
    advance(state, [])
    assert state.phase == INTERNET and legal(state, 0) == {"net 2", "net skip"}
    play(state, 0, "net skip")
    assert legal(state, 0) == {"net 1", "net skip"}
    play(state, 0, "net 1")
    assert state.released == [[("SA01", "A", "NET")], [], []]


def test_exemption_lasts_the_round_whatever_the_level_does_later() -> None:
    """R48 (§4.1 step 3): an exemption is decided in the Grumpy phase and lasts the whole round: a seat exempt
    for free at +3 stays exempt from AP09 after falling to +2; the seat that declined stays bound."""
    state = grumpy(2, "AP09", sympathy=[3, 0], money=[0, 0])
    play(state, 0, "exempt free")
    play(state, 1, "exempt decline")
    play(state, 0, "place FP1")
    play(state, 1, "place DN1")
    assert state.sympathy == [2, 0] and state.exempt == [True, False]
    credit_card = TABLE.space_by_id["CC1"]
    assert "place CC1" in legal(state, 0) and place_problem(state, 0, credit_card, False) is None
    play(state, 0, "place BN1")
    assert "place CC1" not in legal(state, 1) and place_problem(state, 1, credit_card, False) is not None


def test_reveal_needs_no_dossier_on_the_tableau_and_opens_again_once_it_is_spent() -> None:
    """R52, §4.3 RV1: at most one dossier on a tableau, so RV1 is closed while one lies there and open again
    in the same round once it is spent; the new one is not usable before the next round."""
    state = position(2, round=3, money=[8, 0], dossier=[2, None])
    assert "place RV1" not in legal(state, 0)
    assert GAME.why_illegal(state, 0, Place("RV1")) == "you already hold a dossier (at most one at any time)"
    play(state, 0, "place BN1 dossier")
    play(state, 1, "place CC1")
    assert "place RV1" in legal(state, 0)
    play(state, 0, "place RV1")
    assert (state.dossier[0], state.money[0], state.spent[0]) == (3, 4, 1)
    play(state, 1, "pass")
    assert "purge" not in legal(state, 0) and "place BN2 dossier" not in legal(state, 0)


def test_dossier_spent_in_the_last_round_draws_no_penalty_and_no_end_bonus() -> None:
    """R57, §5 step 2: a dossier spent in the last round costs nobody sympathy (there is no Upkeep) and is no
    longer on the tableau for the +3; one still lying there scores it."""
    state = position(3, round=10, dossier=[9, 8, None], trend_row=[None, None, "TR01"])
    play(state, 0, "place BN1 dossier")
    while not GAME.is_terminal(state):
        play(state, GAME.decision(state).players[0], "pass")
    assert state.sympathy == [2, 0, 0]
    result = GAME.outcome(state)
    assert column(result, "dossier") == (0, 3, 0) and column(result, "sympathy") == (2, 0, 0)


def test_spaces_in_use_by_player_count() -> None:
    """§2.4 Marking and Spaces in use: 17 / 21 / 22 spaces at 2 / 3 / 4 players; "3+" adds PS4, PS5, SS3 and
    SR2, "4" adds CC2."""
    in_use = {players: {space.id for space in TABLE.spaces_in_use(players, False)} for players in (2, 3, 4)}
    assert [len(in_use[players]) for players in (2, 3, 4)] == [17, 21, 22]
    assert in_use[3] - in_use[2] == {"PS4", "PS5", "SS3", "SR2"} and in_use[2] <= in_use[3]
    assert in_use[4] - in_use[3] == {"CC2"} and in_use[3] <= in_use[4]
    assert [len(TABLE.spaces_in_use(players, True)) for players in (2, 3, 4)] == [15, 19, 20]


def test_odd_card_counts_split_with_the_floor_half_on_top(tmp_path: Path) -> None:
    """§2.10 (§3 step 3): with an odd blue (19) and non-blue (47) count the loader warns, and the pile that ends
    on top gets the floor halves (9 blue + 23 others), the bottom pile the ceiling halves (10 + 24)."""
    bundled = (Path(cards.__file__).parent / "data" / "production_cards.toml").read_text()
    fewer = bundled
    for card in ("PB01", "PG01"):  # 3 copies each -> 2
        entry = bundled[bundled.index(f'id = "{card}"') :]
        entry = entry[: entry.index("copies = 3") + len("copies = 3")]
        fewer = fewer.replace(entry, entry[:-1] + "2")
    (tmp_path / "production_cards.toml").write_text(fewer)
    with pytest.warns(UserWarning) as caught:
        table = load_tables(str(tmp_path))
    assert sorted(str(warning.message).split(": ", 1)[1] for warning in caught) == [
        "19 blue cards cannot split evenly; the top pile gets 9",
        "47 non-blue cards cannot split evenly; the top pile gets 23",
    ]
    blue = [card.id for card in table.production.values() if card.stage == 1]
    for seed in range(3):
        state = GAME.new_state(2, seed, {"data": str(tmp_path)})
        production_slots = [space for space in state.table.spaces_in_use(2, False) if space.task_name == "production"]
        drawn = [state.slot_card[space.index] for space in reversed(production_slots)]  # PS1 was drawn first
        order = state.production_pile + [card for card in drawn if card is not None]  # top of the pile last
        assert len(order) == 66
        top, bottom = order[34:], order[:34]
        assert (sum(card in blue for card in top), len(top)) == (9, 32), seed
        assert sum(card in blue for card in bottom) == 10, seed


def test_internet_fee_is_paid_in_full_or_not_at_all() -> None:
    """R11, §4.9 step 0: the NET premiere costs 2 money, paid in full: with 1 it is not offered; with 2 it is
    and leaves 0."""
    one = premiering(3, {}, [[line("SA01", ["PB01"])], [], []], round=10, money=[1, 0, 0])
    assert GAME.is_terminal(one) and one.released == [[], [], []] and one.money == [1, 0, 0]
    two = premiering(3, {}, [[line("SA01", ["PB01"])], [], []], round=10, money=[2, 0, 0])
    play(two, 0, "net 1")
    assert GAME.is_terminal(two) and two.released[0] == [("SA01", "A", "NET")] and two.money == [0, 0, 0]


def test_exemption_by_payment_needs_four_money_counting_the_budget() -> None:
    """§4.1 step 3, R11, R47: paying 4 to be exempt needs 4 money after the budget: at -3 (budget 3) a seat with
    0 cannot pay and declines without a decision, a seat with 1 may pay and is left with 0."""
    state = grumpy(2, "AP09", sympathy=[-3, -3], money=[0, 1])
    assert state.money == [3, 4] and state.exempt_pos == 1  # seat 0 declined by itself
    assert GAME.decision(state).players == (1,) and legal(state, 1) == {"exempt decline", "exempt pay"}
    play(state, 1, "exempt pay")
    assert state.money == [3, 0] and state.exempt == [False, True]


def test_lines_and_hand_cards_score_nothing_at_the_end() -> None:
    """§5 step 1: after the last premiere phase, lines still on the table and cards in hand score nothing."""
    lines = [[{"script": "SA09", "cards": ["PG04", "PG05", "PB03", "PB01", "PY04"]}, None], [None, None]]
    result = finished(2, [[], []], pp=[5, 5], lines=lines, hands=[["PY07", "ST24", "SC12"], []])
    assert result.scores == (5.0, 5.0) and column(result, "premieres") == (5, 5) and result.winners == (0, 1)


def test_data_option_on_and_off(tmp_path: Path) -> None:
    """§2 Data notice, §2.10 (the ``data`` option): on, the tables come from a folder (a file it lacks falls back
    to the bundled one), so Soundtrack* printed at 3 PP scores 3 stacked; off, the bundled 2."""
    bundled = (Path(cards.__file__).parent / "data" / "production_cards.toml").read_text()
    upgrade = 'id = "PY05"\nname = "Soundtrack*"\nkind = "upgrade"\nstage = "Y"\ncost = 2\npp = 2'
    assert bundled.count(upgrade) == 1
    (tmp_path / "production_cards.toml").write_text(bundled.replace(upgrade, upgrade[:-1] + "3"))
    movie = line("SA04", ["PB01", "PY04", "+PY05"], locked=True)  # Catering 1 + Soundtrack 2 + Soundtrack*
    for options, production in (({"data": str(tmp_path)}, 6), ({}, 5)):
        state = premiering(2, {"RL1": (0, 0)}, [[movie], []], options=options)
        result = premiere_events(play(state, 0, "market USA"))[0]
        assert result["parts"]["production"] == production, options


def test_first_hit_is_counted_afresh_each_round() -> None:
    """R42, §4.10 step 7 (reset of the trend-hit flag): "first this round" starts again every round, so the
    first hit of the next round's trend earns a statue although a trend was hit the round before."""
    lines = [[line("SA01", ["PB01"], locked=True)], [line("SC02", ["PB02", "PB03"])]]
    state = premiering(2, {"RL1": (0, 0)}, lines, trend_row=["TR05", "TR10", "TR13"])  # TR13 now, TR10 next round
    first = premiere_events(play(state, 0, "market EUR"))[0]
    assert (first["hit"], first["statue"], state.round, state.trend_row[2]) == (True, True, 2, "TR10")
    assert GAME.decision(state).players == (1,)  # the marker passed left
    play(state, 1, "place RL1")
    play(state, 0, "pass")
    play(state, 1, "pass")
    second = premiere_events(play(state, 1, "market CHN"))[0]
    assert (second["seat"], second["hit"], second["statue"], second["parts"]["trend"]) == (1, True, True, 3)
    assert state.statues == [1, 1]


def test_card_price_is_cost_plus_the_slot_surcharge_at_the_edge() -> None:
    """§2.4 Surcharge, §4.3 PS: a production slot's price is the card cost plus +0 / +0 / +1 / +2 / +3 on PS1-PS5;
    exactly the price is enough, one less is not."""
    slots = {"PS1": "PB01", "PS2": "PB01", "PS3": "PB01", "PS4": "PB02", "PS5": "PB02"}  # every card costs 1
    for money, payable in ((0, set()), (1, {"PS1", "PS2"}), (2, {"PS1", "PS2", "PS3"}), (3, {"PS1", "PS2", "PS3", "PS4"}), (4, set(slots))):
        state = position(3, money=[money, 0, 0], slots=slots)
        assert {text.removeprefix("place ") for text in legal_of(state, 0, Place) if "PS" in text} == payable, money
        assert {slot for slot in slots if place_problem(state, 0, TABLE.space_by_id[slot], False) is None} == payable, money
    state = position(3, money=[4, 0, 0], slots=slots)
    play(state, 0, "place PS5")
    assert (state.money[0], state.hands[0]) == (0, ["PB02"])


def test_shut_released_line_does_not_premiere_now_or_on_the_internet() -> None:
    """R30, §4.8 step 1.2 and step 2 (a): a released line still shut when its space resolves does not premiere,
    and a cut release goes to NET only if its line is open."""
    lines = [
        [line("SA01", ["PB01"], locked=True, shut=True)],
        [line("SC02", ["PB02"], locked=True, shut=True)],
        [line("SD01", ["PB03"], locked=True)],
    ]
    state = premiering(3, {"RL1": (0, 0), "RL2": (1, 0), "RL3": (2, 0)}, lines, money=[5, 5, 5], sympathy=[0, 0, 2], cut=True)
    state.cut_by[TABLE.space_by_id["RL2"].index] = 0
    state.cut_by[TABLE.space_by_id["RL3"].index] = 0
    advance(state, [])
    # RL1 is shut (no premiere), RL2 cut and shut (no NET), RL3 cut with its line open: NET is offered.
    assert state.phase == INTERNET and GAME.decision(state).players == (2,) and legal(state, 2) == {"net 1", "net skip"}
    play(state, 2, "net 1")
    assert state.released == [[], [], [("SD01", "D", "NET")]]


def test_ap07_counts_a_jokers_chosen_stage_and_an_exempt_player_ignores_it() -> None:
    """AP07, R20: release needs n(G)=0 & n(R)=0, a joker counting as its chosen stage; exempt, no restriction."""
    movies = [line("SA02", ["PB01", "PJ01:Y"]), line("SA03", ["PJ02:G", "PB02"])]
    red = line("SC05", ["PB03", "PY01", "PJ03:R"])
    bound = position(2, plan="AP07", lines=[movies, [red]], sympathy=[2, 0])
    refusal = "the annual plan “No movies with pre-production or marketing cards” forbids releasing this movie"
    assert (release_problem(bound, 0, 0), release_problem(bound, 0, 1), release_problem(bound, 1, 0)) == (None, refusal, refusal)
    exempt = position(2, plan="AP07", exempt=[True, False], lines=[movies, []], sympathy=[2, 0])
    assert (release_problem(exempt, 0, 0), release_problem(exempt, 0, 1)) == (None, None)
    for is_exempt in (False, True):  # the release spaces on the turn menu, with only the joker-G line
        state = position(2, plan="AP07", exempt=[is_exempt, False], lines=[[movies[1]], []])
        assert ("place RL1" in legal(state, 0)) == is_exempt


def test_ap08_needs_one_star_and_an_exempt_player_ignores_it() -> None:
    """AP08: release needs stars>=1: 0 stars is refused, 1 is enough; exempt, no restriction."""
    movies = [line("SA01", ["PB01"]), line("SA02", ["PB02"], ["ST04"])]
    bound = position(2, plan="AP08", lines=[movies, []], sympathy=[2, 0])
    assert release_problem(bound, 0, 0) == "the annual plan “No movies without a star” forbids releasing this movie"
    assert release_problem(bound, 0, 1) is None
    exempt = position(2, plan="AP08", exempt=[True, False], lines=[movies, []], sympathy=[2, 0])
    assert (release_problem(exempt, 0, 0), release_problem(exempt, 0, 1)) == (None, None)
    for is_exempt in (False, True):  # the release spaces on the turn menu, with only the starless line
        state = position(2, plan="AP08", exempt=[is_exempt, False], lines=[[movies[0]], []])
        assert ("place RL1" in legal(state, 0)) == is_exempt
