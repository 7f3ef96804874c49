"""Helpers for Maybe Movies rule tests: explicit cards, explicit positions, driving a turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.maybe_movies import GAME, rules
from greenlight.games.maybe_movies.cards import CHANGE, ICON_INDEX, NO, YES, Catalogue, MovieCard, VoteCard
from greenlight.games.maybe_movies.state import MaybeMoviesState, Stack


def vote_card(card_id: str, text: str) -> VoteCard:
    """``vote_card("a", "YES camera 3")``, ``vote_card("c", "CHANGE 5")``."""
    kind, *rest = text.split()
    if kind == CHANGE:
        return VoteCard(card_id, CHANGE, number=int(rest[0]))
    icon, value = rest
    if kind == YES:
        return VoteCard(card_id, YES, int(value), ICON_INDEX[icon])
    assert kind == NO, text
    return VoteCard(card_id, NO, int(value), ICON_INDEX[icon])


def movie_card(card_id: str, icons: Sequence[str], profit: int) -> MovieCard:
    """An icon movie card."""
    return MovieCard(card_id, tuple(ICON_INDEX[icon] for icon in icons), profit)


def text_card(card_id: str, cost_key: str, profit_key: str, x: str | None = None, n: int | None = None) -> MovieCard:
    """A blockbuster card."""
    return MovieCard(card_id, cost_key=cost_key, x=ICON_INDEX[x] if x else None, n=n, profit_key=profit_key)


def table(
    votes: Mapping[str, str] | None = None,
    movies: Mapping[str, tuple[Sequence[str], int]] | None = None,
    texts: Sequence[MovieCard] = (),
) -> Catalogue:
    """A small catalogue with exactly the cards a test names."""
    hand_cards = [vote_card(card_id, text) for card_id, text in (votes or {}).items()]
    return Catalogue(
        "test",
        [card for card in hand_cards if card.kind != CHANGE],
        [card for card in hand_cards if card.kind == CHANGE],
        [movie_card(card_id, icons, profit) for card_id, (icons, profit) in (movies or {}).items()],
        list(texts),
    )


def fillers(count: int, prefix: str = "F") -> dict[str, str]:
    """Harmless extra vote cards (``NO microphone 1``) so hands hold more than the voted card."""
    return {f"{prefix}{index}": "NO microphone 1" for index in range(count)}


def vote_position(
    cards: Catalogue,
    row: Sequence[str],
    votes: Sequence[str | None],
    *,
    extra_in_hand: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    **kwargs: Any,
) -> MaybeMoviesState:
    """A position at T4 on ``row`` where seat s holds ``votes[s]`` plus ``extra_in_hand`` filler cards (taken from the table)."""
    filler_ids = [card.id for card in cards.votes if card.id.startswith("F")]
    hands: list[list[str]] = []
    used = 0
    for card in votes:
        hand = [] if card is None else [card]
        if card is not None:
            hand += filler_ids[used : used + extra_in_hand]
            used += extra_in_hand
        hands.append(hand)
    return rules.position(len(votes), hands=hands, table=cards, row=row, options=dict(options or {}), seed=seed, **kwargs)


def cast_votes(state: MaybeMoviesState, votes: Sequence[str | None]) -> list[Event]:
    """Every seat still owing a vote plays ``votes[seat]``; returns the events."""
    events: list[Event] = []
    for seat, card in enumerate(votes):
        if card is not None and seat in GAME.decision(state).players:
            events += GAME.apply(state, seat, GAME.parse_action(f"vote {card}"))
    return events


def play(state: MaybeMoviesState, seat: int, text: str) -> list[Event]:
    """Apply one action given as text (checked)."""
    return GAME.apply(state, seat, GAME.parse_action(text))


def legal(state: MaybeMoviesState, seat: int) -> set[str]:
    """The legal actions of ``seat`` as texts."""
    return {str(action) for action in GAME.legal_actions(state, seat)}


def legal_list(state: MaybeMoviesState, seat: int) -> list[str]:
    """The legal actions of ``seat`` as texts, in order."""
    return [str(action) for action in GAME.legal_actions(state, seat)]


def stack(top: str, success: bool, cards: Sequence[str] | None = None) -> Stack:
    """A Movies Made entry."""
    return Stack(tuple(cards or (top,)), top, success)


def won_counts(state: MaybeMoviesState) -> list[int]:
    """Number of won cards per seat."""
    return [len(cards) for cards in state.won]


def texts(actions: Sequence[Action]) -> list[str]:
    """Text forms."""
    return [str(action) for action in actions]
