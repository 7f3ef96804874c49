"""Maybe Movies setup (§3): the deal, and explicit positions for tests and examples."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from greenlight.games.maybe_movies import rules, turn, vote
from greenlight.games.maybe_movies.cards import NO, YES, Catalogue, catalogue_for
from greenlight.games.maybe_movies.chance import play_stream, shuffle
from greenlight.games.maybe_movies.parameters import hand_size
from greenlight.games.maybe_movies.state import PITCH, MaybeMoviesState, Stack

#: The rulebook's market and hand sizes (the defaults of the rule parameters ``market_size`` and ``hand_size``).
MARKET_SIZE = 6
HAND_SIZE = 10


PERSONAL_SIZE = 2


def setup(num_players: int, seed: int, options: dict[str, Any]) -> MaybeMoviesState:
    """Generate (or load) the catalogue, then §3 steps 1-9 on the play stream, then start turn 1."""
    table = catalogue_for(options.get("data"), seed)
    state = MaybeMoviesState(table, num_players, dict(options), play_stream(seed))
    deal(state)
    turn.start_turn(state, [])
    rules.settle(state, [])
    return state


def deal(state: MaybeMoviesState) -> None:
    """§3 steps 2-8, draw for draw on the play stream."""
    rng = state.rng
    table = state.table
    n = state.num_players
    yes = list(table.layout.yes_ids)
    no = list(table.layout.no_ids)
    shuffle(rng, yes)
    shuffle(rng, no)
    size = hand_size(state)
    yes_each = size // 2  # 5 YES and 5 NO per player in the rulebook
    deck = yes[: yes_each * n] + no[: (size - yes_each) * n]
    state.pool = yes[yes_each * n :] + no[(size - yes_each) * n :]
    while True:  # R9: re-deal the same list, in its current order, until every hand has a YES and a NO
        shuffle(rng, deck)
        hands = [deck[size * seat : size * (seat + 1)] for seat in range(n)]
        if all([_has_both(table, hand) for hand in hands]):
            break
    state.hands = hands
    if state.breaking:  # R25: exactly 2 CHANGE cards per seat, numbers 1 .. 2N
        change = [card.id for card in sorted(table.changes, key=lambda card: card.number) if card.number <= 2 * n]
        shuffle(rng, change)
        for seat in range(n):
            state.hands[seat] += change[2 * seat : 2 * seat + 2]
    pile = list(map(_card_id, table.movies))
    if state.blockbuster:  # R41: all 16 blockbusters join the movie deck
        pile += map(_card_id, table.blockbusters)
    shuffle(rng, pile)
    state.draw_pile = pile
    turn.refill_market(state, [])
    if state.breaking:
        for seat in range(n):
            turn.refill_personal(state, seat, [])


def _has_both(table: Catalogue, hand: Sequence[str]) -> bool:
    kinds = set(map(_kind, map(table.hand_cards.__getitem__, hand)))
    return YES in kinds and NO in kinds


_card_id = attrgetter("id")
_kind = attrgetter("kind")


def position(
    num_players: int,
    *,
    hands: Sequence[Sequence[str]],
    table: Catalogue | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    market: Sequence[str] = (),
    row: Sequence[str] = (),
    pool: Sequence[str] = (),
    draw_pile: Sequence[str] = (),
    discard: Sequence[str] = (),
    personal: Sequence[Sequence[str]] | None = None,
    won: Sequence[Sequence[str]] | None = None,
    made: Sequence[Stack] = (),
    active: int = 0,
    turn: int = 1,
) -> MaybeMoviesState:
    """An explicit position for tests and puzzles.

    With a ``row`` the pitch is already locked and the vote (T4) begins;
    without one the active player is about to pitch from ``market`` (T2). The
    play stream is that of ``seed``; the catalogue is generated from ``seed``
    unless ``table`` is given.
    """
    resolved = {"trendsetter_tricks": False, "breaking_changes": False, "blockbuster_budgets": False, "data": None, **(options or {})}
    table = table or catalogue_for(resolved.get("data"), seed)
    state = MaybeMoviesState(table, num_players, resolved, play_stream(seed))
    state.hands = [list(hand) for hand in hands]
    state.market = list(market)
    state.pool = list(pool)
    state.draw_pile = list(draw_pile)
    state.discard = list(discard)
    state.personal = [list(cards) for cards in personal] if personal is not None else [[] for _ in range(num_players)]
    state.won = [list(cards) for cards in won] if won is not None else [[] for _ in range(num_players)]
    state.made = list(made)
    state.active = active
    state.turn = turn
    if row:
        state.row = list(row)
        state.pitched = tuple(row)
        vote.start_vote_round(state, [])
    else:
        state.phase = PITCH
    rules.settle(state, [])
    return state
