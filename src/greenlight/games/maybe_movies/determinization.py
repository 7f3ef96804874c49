"""How the hidden part of a Maybe Movies position could look to one seat: ``determinize``.

It reads only what that seat may know, so two positions the seat cannot tell apart give the same world for the
same random stream.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from greenlight.core.rng import Stream
from greenlight.games.maybe_movies import view
from greenlight.games.maybe_movies.cards import CHANGE, NO, YES, Catalogue
from greenlight.games.maybe_movies.state import VOTE, MaybeMoviesState


def determinize(state: MaybeMoviesState, viewer: int | None, rng: random.Random) -> MaybeMoviesState:
    """A state ``viewer`` cannot tell from ``state``: everything hidden from it is drawn again with ``rng``.

    Redrawn: the unknown cards of other hands (sizes and publicly known cards
    kept), other seats' committed but unrevealed votes, the movie draw-pile
    order, and the play stream itself (so future chance is unknown).

    The unknown hand cards are dealt uniformly among the worlds that agree with
    what everyone knows from the rules, not just from the table:

    * Breaking Changes: every seat was dealt exactly 2 CHANGE cards (R25); a
      played CHANGE card leaves the game and none is ever drawn (R26), so each
      hand holds 2 minus the CHANGE cards its owner has revealed.
    * R9: every hand dealt at setup held a YES and a NO. A seat's dealt hand is
      what it still holds unseen plus every card it revealed first (a card
      leaves a hand only by being revealed, so whoever reveals a dealt card
      first was dealt it; a replacement draw comes from the face-up pool). So
      a seat that has revealed no YES of its own deal still holds one, and
      likewise for NO.

    The deal is exact (no rejection loop): the number of YES cards per seat is
    drawn with the weight of the deals that give it, then the cards of each
    type are shuffled and handed out. Everything starts from a canonical
    (sorted) order, so the result depends only on what the viewer knows and on
    ``rng``: two states the viewer cannot tell apart give the same worlds.
    """
    world = state.clone()
    others = [seat for seat in range(world.num_players) if seat != viewer]
    for seat, cards in zip(others, _redeal_unknown(state, others, rng), strict=True):
        world.hands[seat] = list(state.known[seat]) + cards
    if world.phase == VOTE:
        for seat in world.voters:
            if seat != viewer and world.votes[seat] is not None:
                world.votes[seat] = rng.choice(world.hands[seat])
    world.draw_pile = sorted(state.draw_pile)
    rng.shuffle(world.draw_pile)
    world.rng = Stream("maybe-movies", "world", rng.getrandbits(64))
    return world


#: CHANGE cards dealt to every seat with Breaking Changes (R25).
CHANGE_PER_SEAT = 2


def _redeal_unknown(state: MaybeMoviesState, seats: Sequence[int], rng: random.Random) -> list[list[str]]:
    """The unknown cards of ``seats``, dealt again: one list per seat, in the order of ``seats``."""
    table = state.table
    slots = [len(state.hands[seat]) - len(state.known[seat]) for seat in seats]
    unknown = sorted(card for seat in seats for card in state.hands[seat] if card not in state.known[seat])
    by_kind: dict[str, list[str]] = {YES: [], NO: [], CHANGE: []}
    for card in unknown:
        by_kind[table.vote(card).kind].append(card)
    dealt = view.revealed_from_deal(state)
    changes = [_changes_held(state, dealt[seat]) for seat in seats]
    if sum(changes) != len(by_kind[CHANGE]) or any(not 0 <= held <= size for held, size in zip(changes, slots, strict=True)):
        # Not a position play can reach (a hand-made one): deal the unknown cards with no constraint.
        rng.shuffle(unknown)
        hands = []
        for size in slots:
            hands.append(unknown[:size])
            del unknown[:size]
        return hands
    votes = [size - held for size, held in zip(slots, changes, strict=True)]
    bounds = [_yes_bounds(table, dealt[seat], size) for seat, size in zip(seats, votes, strict=True)]
    yes_counts = _yes_counts(votes, bounds, len(by_kind[YES]), rng)
    if yes_counts is None:  # no deal meets R9 (only in hand-made positions): drop it
        yes_counts = _yes_counts(votes, [(0, size) for size in votes], len(by_kind[YES]), rng)
        assert yes_counts is not None
    counts = {YES: yes_counts, NO: [size - yes for size, yes in zip(votes, yes_counts, strict=True)], CHANGE: changes}
    hands = [[] for _ in seats]
    for kind in (YES, NO, CHANGE):
        cards = by_kind[kind]
        rng.shuffle(cards)
        for hand, count in zip(hands, counts[kind], strict=True):
            hand.extend(cards[:count])
            del cards[:count]
    for hand in hands:
        rng.shuffle(hand)
    return hands


def _changes_held(state: MaybeMoviesState, revealed: set[str]) -> int:
    """CHANGE cards a seat still holds: 2 dealt (R25) minus those it has revealed (they leave the game, R26)."""
    if not state.breaking:
        return 0
    return CHANGE_PER_SEAT - sum(1 for card in revealed if state.table.vote(card).is_change)


def _yes_bounds(table: Catalogue, revealed: set[str], size: int) -> tuple[int, int]:
    """Fewest and most YES among ``size`` unknown vote cards so that the setup hand held a YES and a NO (R9)."""
    kinds = {table.vote(card).kind for card in revealed}
    return (0 if YES in kinds else 1), (size if NO in kinds else size - 1)


def _yes_counts(sizes: Sequence[int], bounds: Sequence[tuple[int, int]], total: int, rng: random.Random) -> list[int] | None:
    """YES cards per seat, drawn with the weight of the deals giving them; None if no deal fits.

    Seat i holds ``sizes[i]`` unknown vote cards and between ``bounds[i]`` YES;
    ``total`` YES are unknown. Dealing the cards uniformly, a split (y_i) has
    weight prod C(sizes[i], y_i). ``ways[i][t]`` sums the weights of seats i..
    holding t YES between them.
    """
    seats = len(sizes)
    ways = _ways(tuple(sizes), tuple(bounds), total)
    if ways[0][total] == 0:
        return None
    counts: list[int] = []
    left = total
    for i in range(seats):
        low, high = bounds[i]
        draw = rng.randrange(ways[i][left])
        for y in range(low, min(high, left) + 1):
            weight = math.comb(sizes[i], y) * ways[i + 1][left - y]
            if draw < weight:
                break
            draw -= weight
        counts.append(y)
        left -= y
    return counts


@lru_cache(maxsize=4096)
def _ways(sizes: tuple[int, ...], bounds: tuple[tuple[int, int], ...], total: int) -> tuple[tuple[int, ...], ...]:
    """``_yes_counts``'s table: ``ways[i][t]``, the weight of the deals giving seats i.. t YES between them.

    Cached: a search determinizes the same position again and again, and the table depends on these counts alone.
    """
    seats = len(sizes)
    ways = [[0] * (total + 1) for _ in range(seats + 1)]
    ways[seats][0] = 1
    for i in range(seats - 1, -1, -1):
        low, high = bounds[i]
        below = ways[i + 1]
        choose = [math.comb(sizes[i], y) for y in range(total + 1)]
        for t in range(total + 1):
            ways[i][t] = sum(choose[y] * below[t - y] for y in range(low, min(high, t) + 1))
    return tuple(map(tuple, ways))
