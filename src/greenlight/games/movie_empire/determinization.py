"""How the hidden part of a Movie Empire position could look to one seat: ``determinize``.

It reads only what that seat may know, so two positions the seat cannot tell apart give the same world for the
same random stream.
"""

from __future__ import annotations

import random
from functools import partial

from greenlight.games.movie_empire import rounds, view
from greenlight.games.movie_empire.cards import CardKind
from greenlight.games.movie_empire.state import GIFT, SETUP, MovieEmpireState, shuffle_in_place


def determinize(state: MovieEmpireState, viewer: int | None, rng: random.Random) -> MovieEmpireState:
    """A state ``viewer`` cannot tell from ``state``: every hidden part drawn again (§8).

    Redrawn: other seats' hands (sizes and card kinds kept; cards the viewer knows
    are there stay), their Sabotage draws and setup scripts, every draw pile's
    order, the removed trends, the annual plans below the visible top, other
    seats' secret commitments, and the state's own RNG.
    """
    world = state.clone()
    # ``shuffle_in_place`` draws exactly as ``random.Random.shuffle`` does, with fewer Python calls per card; a
    # subclass of ``random.Random`` may draw otherwise, so it shuffles its own way.
    shuffle = partial(shuffle_in_place, rng) if type(rng) is random.Random else rng.shuffle
    table = state.table
    n = state.num_players
    others = [seat for seat in range(n) if seat != viewer]
    # Canonical: every pool is sorted before it is shuffled, so two states this seat cannot tell
    # apart give the same world for the same ``rng`` (search bots rely on it).
    pools: dict[str, list[str]] = {
        "production": list(state.production_pile),
        "star": list(state.star_pile),
        "script": list(state.script_pile),
    }
    shapes: dict[int, tuple[list[str], list[CardKind]]] = {}
    for seat in others:
        known, hidden = view._split_hand(state.hands[seat], view._fixed_cards(state, viewer, seat))
        kinds = sorted(table.kind_of(card) for card in hidden)
        for card in hidden:
            pools[table.kind_of(card)].append(card)
        shapes[seat] = (sorted(known), kinds)
        pools["production"].extend(state.drawn[seat])
        pools["script"].extend(state.dealt[seat])
    for pool in pools.values():
        pool.sort()
        shuffle(pool)
    for seat in others:
        known, kinds = shapes[seat]
        world.hands[seat] = known + [pools[kind].pop() for kind in kinds]
        world.drawn[seat] = [pools["production"].pop() for _ in state.drawn[seat]]
        world.dealt[seat] = [pools["script"].pop() for _ in state.dealt[seat]]
        world.gifted[seat] = []  # what another seat gave under AP12 is its own secret
    world.known = [sorted(cards) for cards in state.known]
    world.production_pile, world.star_pile, world.script_pile = pools["production"], pools["star"], pools["script"]
    trends = sorted(state.trend_pile + state.trend_removed)
    shuffle(trends)
    world.trend_pile = trends[: len(state.trend_pile)]
    world.trend_removed = trends[len(state.trend_pile) :]
    if state.plan_pile:
        below = sorted(state.plan_pile[:-1])
        shuffle(below)
        world.plan_pile = [*below, state.plan_pile[-1]]
    for seat in others:
        if state.commit[seat] is None:
            continue
        if state.phase == SETUP:
            world.commit[seat] = rng.choice(rounds.keep_actions(world, seat)).cards  # type: ignore[attr-defined]
        elif state.phase == GIFT:
            if rounds.gift_chooser(world, seat):
                world.commit[seat] = rng.choice(rounds.give_actions(world, seat)).cards  # type: ignore[attr-defined]
            else:
                world.commit[seat] = () if world.exempt[seat] else tuple(world.hands[seat])
    world.rng_seed, world.rng_uses = rng.getrandbits(128), 0  # future chance outcomes are redrawn too
    return world
