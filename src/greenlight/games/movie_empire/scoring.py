"""End of game and final scoring (§5, R63): sympathy, money, dossier, awards, tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.games.movie_empire.cards import BOARD_MARKETS, GENRES, Tables
from greenlight.games.movie_empire.state import NO_SEAT, MovieEmpireState

MONEY_PER_PP = 3
DOSSIER_PP = 3
HARDWORKING_PP = 3
EXPLOITATION_PP = 3
PATRIOT_PP = 3
KING_PP = 5
JACK_PP = 5
TRENDSETTER_PP = 7
GENRE_WORDS = {"A": "action", "C": "comedy", "D": "drama"}
#: Breakdown keys of the awards (one number each, so tables and averages can read them).
AWARD_KEYS = (
    "hardworking",
    *(f"exploitation_{word}" for word in GENRE_WORDS.values()),
    *(f"patriot_{market}" for market in BOARD_MARKETS),
    "king_of_the_world",
    "jack_of_all_trades",
    "trendsetter",
)


def _most(values: Sequence[int]) -> list[bool]:
    """Who holds a "most" award: the maximum, if it is at least 1; every tied player (R63)."""
    best = max(values)
    return [best >= 1 and value == best for value in values]


def final_breakdown(
    table: Tables,
    pp: Sequence[int],
    sympathy: Sequence[int],
    money: Sequence[int],
    dossier: Sequence[bool],
    released: Sequence[Sequence[tuple[str, str, str]]],
    statues: Sequence[int],
) -> list[dict[str, Any]]:
    """§5 steps 2-3 for every seat, category by category."""
    n = len(pp)
    movies = [len(items) for items in released]
    breakdown: list[dict[str, Any]] = []
    for seat in range(n):
        breakdown.append(
            {
                "premieres": pp[seat],
                "sympathy": table.sympathy[sympathy[seat]].end_pp,
                "money": money[seat] // MONEY_PER_PP,
                "dossier": DOSSIER_PP if dossier[seat] else 0,
                "hardworking": 0,
                **{f"exploitation_{GENRE_WORDS[genre]}": 0 for genre in GENRES},
                **{f"patriot_{market}": 0 for market in BOARD_MARKETS},
                "king_of_the_world": 0,
                "jack_of_all_trades": 0,
                "trendsetter": 0,
                "released": movies[seat],
                "statues": statues[seat],
            }
        )
    for seat, holds in enumerate(_most(movies)):
        if holds:
            breakdown[seat]["hardworking"] = HARDWORKING_PP
    for genre in GENRES:  # NET premieres count for genres (R45)
        counts = [sum(1 for _, g, _ in items if g == genre) for items in released]
        for seat, holds in enumerate(_most(counts)):
            if holds:
                breakdown[seat][f"exploitation_{GENRE_WORDS[genre]}"] = EXPLOITATION_PP
    for market in BOARD_MARKETS:  # but not for markets
        counts = [sum(1 for _, _, m in items if m == market) for items in released]
        for seat, holds in enumerate(_most(counts)):
            if holds:
                breakdown[seat][f"patriot_{market}"] = PATRIOT_PP
    for seat, items in enumerate(released):
        if {m for _, _, m in items} >= set(BOARD_MARKETS):
            breakdown[seat]["king_of_the_world"] = KING_PP
        if {g for _, g, _ in items} >= set(GENRES):
            breakdown[seat]["jack_of_all_trades"] = JACK_PP
    for seat, holds in enumerate(_most(list(statues))):
        if holds:
            breakdown[seat]["trendsetter"] = TRENDSETTER_PP
    for item in breakdown:
        awards = sum(item[key] for key in AWARD_KEYS)
        item["awards"] = awards
        item["total"] = item["premieres"] + item["sympathy"] + item["money"] + item["dossier"] + awards
    return breakdown


def rank(breakdown: list[dict[str, Any]]) -> Outcome:
    """Highest total wins; ties: most released movies, then most statues, then shared (§5 step 4)."""
    scores = [item["total"] for item in breakdown]
    keys = [(item["total"], item["released"], item["statues"]) for item in breakdown]
    return outcome_from_keys(scores, keys, breakdown)


def outcome(state: MovieEmpireState) -> Outcome:
    """Final scores of a finished game (lines and hand cards score nothing, §5 step 1)."""
    dossier = [taken != NO_SEAT and not state.clean for taken in state.dossier]
    return rank(final_breakdown(state.table, state.pp, state.sympathy, state.money, dossier, state.released, state.statues))
