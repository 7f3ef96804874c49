"""Final scoring (§5): each end-game bonus, every award, "most" needs 1 (R63), ties and tie-breaks."""

from __future__ import annotations

from greenlight.games.movie_empire.observation import Breakdown
from greenlight.games.movie_empire.scoring import final_breakdown, rank
from tests.games.movie_empire.helpers import TABLE


def score(
    released: list[list[tuple[str, str, str]]],
    *,
    pp: list[int] | None = None,
    sympathy: list[int] | None = None,
    money: list[int] | None = None,
    dossier: list[bool] | None = None,
    statues: list[int] | None = None,
) -> list[Breakdown]:
    n = len(released)
    return final_breakdown(
        TABLE, pp or [0] * n, sympathy or [0] * n, money or [0] * n, dossier or [False] * n, released, statues or [0] * n
    )


def test_sympathy_money_and_dossier() -> None:
    items = score([[], [], []], sympathy=[5, -5, -3], money=[11, 2, 3], dossier=[False, True, False])
    assert [(i["sympathy"], i["money"], i["dossier"]) for i in items] == [(8, 3, 0), (-8, 0, 3), (-4, 1, 0)]
    assert [i["total"] for i in items] == [11, -5, -3]


def test_most_awards_need_at_least_one() -> None:
    items = score([[], []])
    assert all(i["awards"] == 0 for i in items)
    assert rank(items).winners == (0, 1)


def test_ties_score_the_full_award_for_everyone() -> None:
    released = [[("SA01", "A", "USA")], [("SA02", "A", "USA")]]
    items = score(released, statues=[1, 1])
    for item in items:
        assert item["hardworking"] == 3 and item["exploitation_action"] == 3 and item["patriot_USA"] == 3 and item["trendsetter"] == 7
        assert item["awards"] == 16


def test_king_and_jack_need_one_of_each() -> None:
    king = [("SA01", "A", "USA"), ("SA02", "A", "EUR"), ("SA03", "A", "CHN")]
    jack = [("SA04", "A", "NET"), ("SC01", "C", "NET"), ("SD01", "D", "NET")]
    items = score([king, jack])
    assert (items[0]["king_of_the_world"], items[0]["jack_of_all_trades"]) == (5, 0)
    assert (items[1]["king_of_the_world"], items[1]["jack_of_all_trades"]) == (0, 5)
    # NET counts for movies and genres, not markets (R45).
    assert (items[1]["patriot_USA"], items[1]["patriot_EUR"], items[1]["patriot_CHN"]) == (0, 0, 0)
    assert items[0]["hardworking"] == items[1]["hardworking"] == 3


def test_tie_break_most_movies_then_statues_then_shared() -> None:
    movies = [("SA01", "A", "USA")]
    # Equal totals; seat 1 released more movies.
    items = score([[], [*movies, ("SA02", "A", "USA")]], pp=[20, 20 - 9], statues=[0, 0])
    assert items[0]["total"] == items[1]["total"] == 20
    assert rank(items).winners == (1,)
    # Equal totals and movies; seat 0 has more statues.
    items = score([movies, [("SA02", "A", "USA")]], pp=[10, 17], statues=[1, 0])
    assert items[0]["total"] == items[1]["total"] == 26
    assert rank(items).winners == (0,)
    # Everything equal: shared.
    items = score([movies, [("SA02", "A", "USA")]], pp=[10, 10])
    assert rank(items).winners == (0, 1)
