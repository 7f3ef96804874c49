"""End of game and final scoring (§5, R63): sympathy, money, dossier, awards, tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.games.movie_empire.cards import BOARD_MARKETS, GENRES, Tables
from greenlight.games.movie_empire.observation import AwardKey, Breakdown
from greenlight.games.movie_empire.state import NO_SEAT, MovieEmpireState

MONEY_PER_PP = 3
DOSSIER_PP = 3
HARDWORKING_PP = 3
EXPLOITATION_PP = 3
PATRIOT_PP = 3
KING_PP = 5
JACK_PP = 5
TRENDSETTER_PP = 7
AWARD_KEYS: tuple[AwardKey, ...] = get_args(AwardKey)


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
) -> list[Breakdown]:
    """§5 steps 2-3 for every seat, category by category."""
    movies = [len(items) for items in released]
    hardworking = _most(movies)
    genres: list[dict[str, int]] = []
    markets: list[dict[str, int]] = []
    for items in released:
        by_genre = dict.fromkeys(GENRES, 0)
        by_market = dict.fromkeys(BOARD_MARKETS, 0)
        for _, genre, market in items:
            by_genre[genre] = by_genre.get(genre, 0) + 1
            by_market[market] = by_market.get(market, 0) + 1
        genres.append(by_genre)
        markets.append(by_market)
    # NET premieres count for genres (R45), but not for markets.
    exploitation = {genre: _most([counts[genre] for counts in genres]) for genre in GENRES}
    patriot = {market: _most([counts[market] for counts in markets]) for market in BOARD_MARKETS}
    trendsetter = _most(list(statues))
    breakdown: list[Breakdown] = []
    for seat in range(len(released)):
        item: Breakdown = {
            "premieres": pp[seat],
            "sympathy": table.sympathy[sympathy[seat]].end_pp,
            "money": money[seat] // MONEY_PER_PP,
            "dossier": DOSSIER_PP if dossier[seat] else 0,
            "hardworking": HARDWORKING_PP if hardworking[seat] else 0,
            "exploitation_action": EXPLOITATION_PP if exploitation["A"][seat] else 0,
            "exploitation_comedy": EXPLOITATION_PP if exploitation["C"][seat] else 0,
            "exploitation_drama": EXPLOITATION_PP if exploitation["D"][seat] else 0,
            "patriot_USA": PATRIOT_PP if patriot["USA"][seat] else 0,
            "patriot_EUR": PATRIOT_PP if patriot["EUR"][seat] else 0,
            "patriot_CHN": PATRIOT_PP if patriot["CHN"][seat] else 0,
            "king_of_the_world": KING_PP if all(markets[seat][market] for market in BOARD_MARKETS) else 0,
            "jack_of_all_trades": JACK_PP if all(genres[seat][genre] for genre in GENRES) else 0,
            "trendsetter": TRENDSETTER_PP if trendsetter[seat] else 0,
            "released": movies[seat],
            "statues": statues[seat],
            "awards": 0,
            "total": 0,
        }
        awards = sum([item[key] for key in AWARD_KEYS])
        item["awards"] = awards
        item["total"] = item["premieres"] + item["sympathy"] + item["money"] + item["dossier"] + awards
        breakdown.append(item)
    return breakdown


def rank(breakdown: list[Breakdown]) -> Outcome:
    """Highest total wins; ties: most released movies, then most statues, then shared (§5 step 4)."""
    scores = [item["total"] for item in breakdown]
    keys = [(item["total"], item["released"], item["statues"]) for item in breakdown]
    return outcome_from_keys(scores, keys, breakdown)


def final_breakdowns(state: MovieEmpireState) -> list[Breakdown]:
    """Each seat's final scoring (§5 steps 1-3) of a finished game (lines and hand cards score nothing, §5 step 1)."""
    clean = state.clean
    dossier = [taken != NO_SEAT and not clean for taken in state.dossier]
    return final_breakdown(state.table, state.pp, state.sympathy, state.money, dossier, state.released, state.statues)


def outcome(state: MovieEmpireState) -> Outcome:
    """Final scores of a finished game."""
    global _handed
    handed = _handed
    if handed is not None and handed[0] is state:
        _handed = None  # handed on once: a caller may keep (or change) what it is given
        if handed[1] == _scoring_inputs(state):
            return handed[2]
    return rank(final_breakdowns(state))


def game_over_outcome(state: MovieEmpireState) -> Outcome:
    """``outcome(state)`` for the ``game_over`` event, kept for the next ``outcome`` call of the same position.

    A search playout asks for the outcome right after the move that ends the game, whose event already scored
    it. The kept outcome is returned only if every input of the scoring is still the same (compared by value, so
    a position changed by hand since is scored again), and only once.
    """
    global _handed
    result = rank(final_breakdowns(state))
    _handed = (state, _scoring_inputs(state), result)
    return result


#: (state, ``_scoring_inputs`` of it, its outcome) from ``game_over_outcome``, until the next ``outcome`` call.
_handed: tuple[MovieEmpireState, tuple[object, ...], Outcome] | None = None


def _scoring_inputs(state: MovieEmpireState) -> tuple[object, ...]:
    """Everything ``final_breakdowns`` reads, by value."""
    return (
        state.table,
        state.options.get("clean_hands"),
        tuple(state.pp),
        tuple(state.sympathy),
        tuple(state.money),
        tuple(state.dossier),
        tuple(map(tuple, state.released)),
        tuple(state.statues),
    )
