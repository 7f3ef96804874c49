"""What makes a Maybe Movies position possible, and what a hand-written one may leave out (docs/positions.md).

A generated catalogue comes from the game's seed, so a position of such a
game carries the ``seed`` in its header (``header``): the card ids then mean
the same cards when it is read back. ``Game.from_position`` starts from the
deal of that seed, puts in the fields the position gives, calls
:func:`complete` (at the start of a turn, the cards nobody holds go back to
the draw pile and the pool) and then :func:`check`.
"""

from __future__ import annotations

from typing import Any

from greenlight.core.positions import PositionError
from greenlight.games.maybe_movies.cards import CHANGE
from greenlight.games.maybe_movies.setup import HAND_SIZE, MARKET_SIZE, PERSONAL_SIZE
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    MOVIE_PICK,
    OVER,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    MaybeMoviesState,
)

PHASES = (PITCH, VOTE, CHANGE_EDIT, COST_CHOICE, PROFIT_CHOICE, MOVIE_PICK, OVER)
#: Fields that hold vote and CHANGE cards, and fields that hold movie cards (blockbusters included).
HAND_FIELDS = ("hands", "pool", "won", "out_of_play")
MOVIE_FIELDS = ("draw_pile", "discard", "market", "personal", "row", "made")
#: Phases at which every card in play lies in one of the fields above (votes on the table are back by then).
SETTLED = (PITCH, OVER)


def header(state: MaybeMoviesState) -> dict[str, Any]:
    """The seed of a generated catalogue, so the card ids of the position name the same cards when read back."""
    seed = state.table.generated_from
    return {} if seed is None else {"seed": seed}


def cards_in_play(state: MaybeMoviesState) -> list[str]:
    """Every card the deal puts in play for these options (§3): all votes, CHANGE 1 to 2N, the movies (and blockbusters)."""
    table = state.table
    cards = [card.id for card in table.votes]
    if state.breaking:
        cards += [card.id for card in table.changes if card.number is not None and card.number <= 2 * state.num_players]
    cards += [card.id for card in table.movies]
    if state.blockbuster:
        cards += [card.id for card in table.blockbusters]
    return cards


def complete(state: MaybeMoviesState, given: frozenset[str]) -> None:
    """At the start of a turn (or the end), cards the position places nowhere go to the piles it leaves out:
    movies to the draw pile, votes to the pool, CHANGE cards out of play, in the order of the seed's deal."""
    if state.phase not in SETTLED or not given & {*HAND_FIELDS, *MOVIE_FIELDS}:
        return
    dealt = {name: list(getattr(state, name)) for name in ("draw_pile", "pool", "out_of_play") if name not in given}
    for name in dealt:
        setattr(state, name, [])
    placed = _places(state)
    missing = [card for card in cards_in_play(state) if card not in placed]
    for name, cards in dealt.items():
        wanted = [card for card in missing if _pile_of(state, card) == name]
        order = {card: index for index, card in enumerate(cards)}
        setattr(state, name, sorted(wanted, key=lambda card: order.get(card, len(order))))


def _pile_of(state: MaybeMoviesState, card: str) -> str:
    """Where a card nobody holds lies at the start of a turn: a movie in the draw pile, a vote in the pool, a CHANGE out of play."""
    if not state.table.is_vote(card):
        return "draw_pile"
    return "out_of_play" if state.table.vote(card).kind == CHANGE else "pool"


def check(state: MaybeMoviesState) -> None:
    """Raise PositionError unless ``state`` is a position a game of Maybe Movies can reach (rules §3-§6)."""
    n = state.num_players
    if state.phase not in PHASES:
        raise PositionError("phase", f"is {state.phase!r}; the phases are {', '.join(PHASES)}")
    if state.turn < 1:
        raise PositionError("turn", f"is {state.turn}; turns count from 1")
    if not 0 <= state.active < n:
        raise PositionError("active", f"is seat {state.active}; a {n}-player game has seats 0 to {n - 1}")
    for name in ("hands", "known", "personal", "won", "votes"):
        if len(getattr(state, name)) != n:
            raise PositionError(name, f"has {len(getattr(state, name))} entries; a {n}-player position has one per seat")
    places = _places(state)
    _check_kinds(state, places)
    _check_sizes(state)
    if state.phase in SETTLED:
        in_play = cards_in_play(state)
        missing = [card for card in in_play if card not in places]
        if missing:
            raise PositionError(
                "draw_pile" if not state.table.is_vote(missing[0]) else "pool",
                f"{', '.join(missing[:3])} {'is' if len(missing) == 1 else 'are'} in no hand, pile, pool, won area or "
                "Movies Made: every card in play is somewhere (§3)",
            )
        extra = sorted(set(places) - set(in_play))
        if extra:
            raise PositionError(places[extra[0]], f"{extra[0]} is not in play with these options and players (§3, R25, R41)")
    _check_votes(state)


def _places(state: MaybeMoviesState) -> dict[str, str]:
    """Where each card lies, by field; a card in two places raises."""
    places: dict[str, str] = {}

    def put(card: str, where: str) -> None:
        if card in places:
            raise PositionError(where, f"{card} is also in {places[card]}; every card is in exactly one place")
        places[card] = where

    for name in ("hands", "won", "personal"):
        for seat, cards in enumerate(getattr(state, name)):
            for card in cards:
                put(card, f"{name}[{seat}]")
    for name in ("pool", "draw_pile", "discard", "market", "row", "out_of_play"):
        for card in getattr(state, name):
            put(card, name)
    for index, stack in enumerate(state.made):
        for card in stack.cards:
            put(card, f"made[{index}]")
    return places


def _check_kinds(state: MaybeMoviesState, places: dict[str, str]) -> None:
    table = state.table
    for card, where in places.items():
        if card not in table:
            raise PositionError(where, f"{card} is not a card of this game's catalogue")
        field = where.split("[")[0]
        is_hand_card = table.is_vote(card)
        if field in MOVIE_FIELDS and is_hand_card:
            raise PositionError(where, f"{card} is a vote card; only movie cards lie in the market, the piles, the pitch and Movies Made")
        if field in HAND_FIELDS and not is_hand_card:
            raise PositionError(where, f"{card} is a movie card; hands, the pool and won areas hold vote cards")
        if field in ("won", "pool") and table.vote(card).kind == CHANGE:
            raise PositionError(where, f"{card} is a CHANGE card, which is never won nor pooled (§5.2, R25)")
    for index, stack in enumerate(state.made):
        if stack.top not in stack.cards:
            raise PositionError(f"made[{index}]", f"the top card {stack.top} is not one of the stack's cards")


def _check_sizes(state: MaybeMoviesState) -> None:
    hand_limit = HAND_SIZE + (2 if state.breaking else 0)
    for seat, hand in enumerate(state.hands):
        if len(hand) > hand_limit:
            raise PositionError(f"hands[{seat}]", f"holds {len(hand)} cards; a hand holds at most {hand_limit} (§3, R25)")
        unknown = [card for card in state.known[seat] if card not in hand]
        if unknown:
            raise PositionError(f"known[{seat}]", f"{unknown[0]} is known to be in that hand but is not in it")
    if len(state.market) > MARKET_SIZE:
        raise PositionError("market", f"holds {len(state.market)} cards; the market holds at most {MARKET_SIZE} (§3)")
    personal_limit = PERSONAL_SIZE if state.breaking else 0
    for seat, cards in enumerate(state.personal):
        if len(cards) > personal_limit:
            raise PositionError(f"personal[{seat}]", f"holds {len(cards)} cards; at most {personal_limit} with these options (§6.2)")


def _check_votes(state: MaybeMoviesState) -> None:
    n = state.num_players
    for seat in state.voters:
        if not 0 <= seat < n:
            raise PositionError("voters", f"name seat {seat}; a {n}-player game has seats 0 to {n - 1}")
    if state.phase == VOTE and not state.voters:
        raise PositionError("voters", "are empty, but the position is at the vote: someone must be voting (§4.3)")
    for seat, vote in enumerate(state.votes):
        if vote is None:
            continue
        if seat not in state.voters:
            raise PositionError(f"votes[{seat}]", "holds a vote, but that seat is not voting now")
        if vote not in state.hands[seat]:
            raise PositionError(f"votes[{seat}]", f"{vote} is not in that seat's hand (a committed vote stays there until the reveal)")
    if state.phase == VOTE and all(state.votes[seat] is not None for seat in state.voters):
        raise PositionError("votes", "every voter has chosen, so the votes would already have been revealed")
    if state.phase == CHANGE_EDIT and not state.change_queue:
        raise PositionError("change_queue", "is empty, but the position is at a CHANGE edit: someone must be editing (§6.2)")
    if state.phase in (COST_CHOICE, PROFIT_CHOICE) and state.choice_point is None:
        raise PositionError("choice_point", f"is missing: the {state.phase.replace('_', ' ')} needs the open choice (§6.3)")
