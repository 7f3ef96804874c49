"""How the hidden part of a Cinecitta position could look to one seat: ``determinize``.

It reads only what that seat may know, so two positions the seat cannot tell apart give the same world for the
same random stream.
"""

from __future__ import annotations

import random

from greenlight.games.cinecitta import rules, view
from greenlight.games.cinecitta.actions import HEADHUNT
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState

#: Histories drawn before determinize falls back to listing every possible round-start split of the money.
HISTORY_ATTEMPTS = 200


#: Times one round is drawn again when the next round's known folders rule the draw out.
ROUND_RETRIES = 8


def _draw_round(past: view._PastRound, wallets: list[int], need: list[int], rng: random.Random) -> list[int] | None:
    """One way the round could have gone from ``wallets``; None if the folders the viewer saw rule them out.

    ``need`` is what each seat must hold after the round (its known outlays
    next round). An unseen amount is drawn between what its payee must get
    and what its payer can give while each still meets ``need``, counting the
    most the other folder of each could bring in. Those are necessary
    conditions, so no possible history is left out, but far fewer draws are
    thrown away (the caller still checks the result).
    """
    headhunts = rng.choice(past.headhunts)
    if any(have < need for have, need in zip(wallets, view._outlays(past, headhunts), strict=True)):
        return None
    n = len(wallets)
    amounts = list(past.amounts)
    for sender in range(n):
        if amounts[sender] is None:
            target = (sender + past.offset) % n
            payer, payee = (target, sender) if headhunts[target] else (sender, target)
            spare = wallets[payer] + _most_from_other_folder(past, wallets, headhunts, amounts, payer, sender) - need[payer]
            short = need[payee] - wallets[payee] - _most_from_other_folder(past, wallets, headhunts, amounts, payee, sender)
            low, high = max(0, -(-short // 10)), min(view._amount_limit(past, wallets, headhunts, amounts, sender), spare) // 10
            if low > high:
                return None
            # Any amount the sender could afford; the extremes often, so that rare forced histories are found.
            pick = rng.random()
            amounts[sender] = 10 * (low if pick < 0.25 else high if pick < 0.5 else rng.randint(low, high))
    return view._after_round(past, wallets, headhunts, amounts)


def _most_from_other_folder(
    past: view._PastRound, wallets: list[int], headhunts: tuple[int, ...], amounts: list[int | None], seat: int, sender: int
) -> int:
    """The most ``seat`` can gain from its folder other than the one ``sender`` sent (an unfixed amount: up to its sender's wallet)."""
    n = len(wallets)
    if seat == sender:  # the other folder is the one ``seat`` received
        source = (seat - past.offset) % n
        amount, money_in = amounts[source], not headhunts[seat]  # a folder it matched costs it money
    else:  # ``seat`` received ``sender``'s folder; the other is the one ``seat`` sent
        source = seat
        amount, money_in = amounts[seat], bool(headhunts[(seat + past.offset) % n])  # headhunted: its sender is paid
    if money_in:
        return amount if amount is not None else wallets[source]
    return -(amount or 0)


def _own_gain(past: view._PastRound, viewer: int) -> int:
    """What the round's two folders did to the viewer's own wallet (it saw both)."""
    n = len(past.amounts)
    pattern = past.headhunts[0]  # the viewer's cycle is pinned by the answers it saw
    sent, received = past.amounts[viewer] or 0, past.amounts[(viewer - past.offset) % n] or 0
    return (sent if pattern[(viewer + past.offset) % n] else -sent) + (-received if pattern[viewer] else received)


def _opening(state: CinecittaState, viewer: int | None, rounds: list[view._PastRound]) -> tuple[int | None, int]:
    """The viewer's own wallet when play began (None for a spectator) and the money total."""
    own = None
    if viewer is not None:
        own = state.round_start_wallets[viewer] - sum(_own_gain(past, viewer) for past in rounds)
    return own, sum(state.round_start_wallets)


def _every_split(total: int, seats: list[int]) -> list[dict[int, int]]:
    """Every split of ``total`` (a multiple of 10) among ``seats``."""
    if len(seats) == 1:
        return [{seats[0]: total}]
    return [{seats[0]: first, **rest} for first in range(0, total + 1, 10) for rest in _every_split(total - first, seats[1:])]


def _draw_history(
    state: CinecittaState, viewer: int | None, rounds: list[view._PastRound], minimum: dict[int, int], rng: random.Random
) -> list[int] | None:
    """One history the viewer cannot rule out, as the wallets at the current round's start; None if this draw failed."""
    n = state.num_players
    if state.opening_wallets is not None:
        wallets = list(state.opening_wallets)  # a dealt game: 100 each, known to all (§3 step 5)
    else:
        own, total = _opening(state, viewer, rounds)
        others = [seat for seat in range(n) if seat != viewer]
        shares = _split_money(total - (own or 0), others, {}, rng)
        wallets = [own if seat == viewer and own is not None else shares.get(seat, 0) for seat in range(n)]
    for index, past in enumerate(rounds):
        need = _needs(rounds, index + 1, minimum, n)
        for _ in range(ROUND_RETRIES):
            after = _draw_round(past, wallets, need, rng)
            if after is not None and _meets_next(rounds, index + 1, after, minimum):
                wallets = after
                break
        else:
            return None
    return wallets if all(wallets[seat] >= need for seat, need in minimum.items()) else None


def _needs(rounds: list[view._PastRound], index: int, minimum: dict[int, int], n: int) -> list[int]:
    """What each seat must hold to start round ``index`` (or the current round): what ``_meets_next`` checks."""
    if index == len(rounds):
        return [minimum.get(seat, 0) for seat in range(n)]
    return view._outlays(rounds[index], rounds[index].headhunts[0])


def _meets_next(rounds: list[view._PastRound], index: int, wallets: list[int], minimum: dict[int, int]) -> bool:
    """Whether ``wallets`` can start round ``index`` (or the current round) given the folders the viewer saw there."""
    return all(have >= need for have, need in zip(wallets, _needs(rounds, index, minimum, len(wallets)), strict=True))


def _search_history(
    state: CinecittaState, viewer: int | None, rounds: list[view._PastRound], minimum: dict[int, int], rng: random.Random
) -> list[int]:
    """A history the viewer cannot rule out, by depth-first search over every way each round could have gone.

    Branches are tried in random order, so any possible history can come out;
    the search always succeeds, since the real history is one of them.
    """
    n = state.num_players
    if state.opening_wallets is not None:
        openings = [tuple(state.opening_wallets)]
    else:
        own, total = _opening(state, viewer, rounds)
        others = [seat for seat in range(n) if seat != viewer]
        openings = [
            tuple(own if seat == viewer and own is not None else split.get(seat, 0) for seat in range(n))
            for split in _every_split(total - (own or 0), others)
        ]
        rng.shuffle(openings)
    dead: set[tuple[int, tuple[int, ...]]] = set()

    def search(index: int, wallets: tuple[int, ...]) -> tuple[int, ...] | None:
        if index == len(rounds):
            return wallets
        if (index, wallets) in dead:
            return None
        options = sorted(
            after for after in view._every_round(rounds[index], list(wallets)) if _meets_next(rounds, index + 1, list(after), minimum)
        )
        rng.shuffle(options)
        for after in options:
            found = search(index + 1, after)
            if found is not None:
                return found
        dead.add((index, wallets))
        return None

    for opening in openings:
        if _meets_next(rounds, 0, list(opening), minimum):
            found = search(0, opening)
            if found is not None:
                return list(found)
    raise AssertionError("no history fits what the seat saw; the real one always does")


def _round_start_wallets(state: CinecittaState, viewer: int | None, minimum: dict[int, int], rng: random.Random) -> list[int]:
    """Wallets at the current round's start in a world ``viewer`` cannot rule out (every such world can come out).

    Everything the viewer knows about the other wallets comes from the
    opening (100 each in a dealt game), the folders it saw, the answers the
    placements reveal, and the amounts ``minimum`` it knows some seats held
    at this round's start. Random histories are drawn first; if none fits
    (a seat had to gather money for a folder the viewer saw), a search over
    every history finds one.
    """
    rounds = view._past_rounds(state, viewer)
    for _ in range(HISTORY_ATTEMPTS):
        wallets = _draw_history(state, viewer, rounds, minimum, rng)
        if wallets is not None:
            return wallets
    return _search_history(state, viewer, rounds, minimum, rng)


def _split_money(total: int, seats: list[int], minimum: dict[int, int], rng: random.Random) -> dict[int, int]:
    """Split ``total`` (a multiple of 10) among ``seats`` at random, each getting at least its minimum."""
    shares = {seat: minimum.get(seat, 0) for seat in seats}
    units = (total - sum(shares.values())) // 10
    if not seats:
        return shares
    cuts = sorted(rng.randint(0, units) for _ in range(len(seats) - 1))
    bounds = [0, *cuts, units]
    for seat, low, high in zip(seats, bounds, bounds[1:], strict=False):
        shares[seat] += 10 * (high - low)
    return shares


def determinize(state: CinecittaState, viewer: int | None, rng: random.Random) -> CinecittaState:
    """A state ``viewer`` cannot tell from ``state``: everything hidden from it is drawn again.

    The current round is replayed from its start: hands and wallets of the
    other seats are redrawn (keeping what the viewer saw: the folder it got and
    the answer to its own folder), every choice the viewer did not see is drawn
    among the legal ones, and folders of earlier rounds between other seats are
    forgotten. The wallets at the round's start follow a whole history the
    viewer cannot rule out (``_round_start_wallets``).
    """
    world = state.clone()
    n = state.num_players
    world.folders = [
        folder
        for folder in state.folders[: len(state.folders) - len(rules.round_folders(state))]
        if viewer in (folder.sender, folder.recipient)
    ]
    if state.step == OVER:
        return world
    sent = rules.folder_sent(state, viewer) if viewer is not None else None
    received = rules.folder_received(state, viewer) if viewer is not None else None
    others = [seat for seat in range(n) if seat != viewer]

    # Round-start hands: the viewer's is known; the card it received was in its source's hand.
    start_hands = [list(hand) for hand in state.hands]
    for folder in rules.round_folders(state):
        start_hands[folder.sender].append(folder.card)
    placed = {card for cards in (*state.studios, *state.offices) for card in cards}
    known = set(start_hands[viewer]) if viewer is not None else set()
    reserved: dict[int, list[str]] = {seat: [] for seat in others}
    if received is not None:
        reserved[received.sender].append(received.card)
        known.add(received.card)
    unknown = [card for card in state.table.deck_for(n) if card not in placed and card not in known]
    rng.shuffle(unknown)
    for seat in others:  # hand sizes are public (§8)
        need = len(start_hands[seat]) - len(reserved[seat])
        start_hands[seat] = reserved[seat] + unknown[:need]
        del unknown[:need]
    world.hands = start_hands
    world.undealt = unknown

    # Round-start wallets: the total is public; the viewer's own is known.
    minimum: dict[int, int] = {}
    if received is not None:
        minimum[received.sender] = received.amount
    if sent is not None and state.step == PLACE and sent.response == HEADHUNT:
        minimum[sent.recipient] = minimum.get(sent.recipient, 0) + sent.amount
    world.wallets = _round_start_wallets(state, viewer, minimum, rng)
    world.round_start_wallets = list(world.wallets)
    world.step = OFFER
    world.offers = [None] * n
    world.responses = [None] * n
    world.plans = [None] * n
    world.pending = [[] for _ in range(n)]

    # Step 1: the viewer's own offer, the offer it received, random offers for the rest.
    offers_resolved = state.step in (RESPOND, PLACE)
    for seat in range(n):
        if seat == viewer:
            if offers_resolved and sent is not None:
                world.offers[seat] = (sent.card, sent.amount)
            else:
                world.offers[seat] = state.offers[seat]
        elif received is not None and seat == received.sender:
            world.offers[seat] = (received.card, received.amount)
        elif offers_resolved or state.offers[seat] is not None:
            cap = world.wallets[seat] - (minimum.get(seat, 0) if viewer is not None and sent is not None and seat == sent.recipient else 0)
            world.offers[seat] = (rng.choice(world.hands[seat]), 10 * rng.randint(0, max(cap, 0) // 10))
    if not offers_resolved:
        return world
    rules.resolve_offers(world)

    # Step 2: the viewer's own response, and the answer to its folder once it has come back.
    responses_resolved = state.step == PLACE
    for seat in range(n):
        if seat == viewer:
            world.responses[seat] = received.response if responses_resolved and received else state.responses[seat]
        elif responses_resolved and sent is not None and seat == sent.recipient:
            world.responses[seat] = sent.response
        elif responses_resolved or state.responses[seat] is not None:
            world.responses[seat] = str(rng.choice(rules.legal_responses(world, seat)).choice)  # type: ignore[attr-defined]
    if not responses_resolved:
        return world
    rules.resolve_responses(world)

    # Step 3: the viewer's own plan; random legal plans for the other committed seats.
    for seat in range(n):
        if seat == viewer:
            world.plans[seat] = state.plans[seat]
        elif state.plans[seat] is not None:
            plan = rng.choice(rules.legal_plans(world.table, world.studios[seat], world.pending[seat]))
            world.plans[seat] = plan.placements  # type: ignore[attr-defined]
    return world
