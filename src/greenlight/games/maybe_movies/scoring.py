"""Maybe Movies scoring (§5.2): icon counts of Movies Made and the points of each seat's won cards."""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.games.maybe_movies.cards import ICONS, NUM_ICONS
from greenlight.games.maybe_movies.observation import Breakdown
from greenlight.games.maybe_movies.state import MaybeMoviesState


def icon_counts(state: MaybeMoviesState) -> list[int]:
    """MM[i]: how often icon i appears among the printed icons of Movies Made (stack tops with Trendsetter, R23, R37)."""
    counts = [0] * NUM_ICONS
    movie_cards = state.table.movie_cards
    for stack in state.made:
        for icon in movie_cards[stack.top].printed_icons:
            counts[icon] += 1
    return counts


def score_breakdown(state: MaybeMoviesState, seat: int, counts: Sequence[int] | None = None) -> Breakdown:
    """The number of won cards and the points per icon (won cards of that icon x MM[icon]; R11). The score is their sum."""
    counts = counts if counts is not None else icon_counts(state)
    hand_cards = state.table.hand_cards
    cards_by_icon = [0] * NUM_ICONS
    for card in state.won[seat]:
        cards_by_icon[hand_cards[card].icon] += 1
    money, actors, script, setting, camera, microphone = map(mul, cards_by_icon, counts)
    return {
        "won_cards": len(state.won[seat]),
        "money": money,
        "actors": actors,
        "script": script,
        "setting": setting,
        "camera": camera,
        "microphone": microphone,
    }


def scores(state: MaybeMoviesState) -> list[int]:
    """Current score of every seat (public: Movies Made and won areas are face up)."""
    counts = icon_counts(state)
    hand_cards = state.table.hand_cards
    return [sum([counts[hand_cards[card].icon] for card in cards]) for cards in state.won]


def final_breakdowns(state: MaybeMoviesState) -> list[Breakdown]:
    """Each seat's breakdown (won cards, points per icon)."""
    counts = icon_counts(state)
    return [score_breakdown(state, seat, counts) for seat in range(state.num_players)]


def rank_breakdowns(breakdowns: list[Breakdown]) -> Outcome:
    """Scores (the sum of the points per icon), competition ranking, and shared wins on ties (R18)."""
    points = [sum([item[icon] for icon in ICONS]) for item in breakdowns]
    return outcome_from_keys(points, [(score,) for score in points], breakdowns)


def outcome(state: MaybeMoviesState) -> Outcome:
    """Scores, competition ranking, and shared wins on ties (R18)."""
    return rank_breakdowns(final_breakdowns(state))
