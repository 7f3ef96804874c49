"""What each seat may see (rules §8) and determinization; the words for players are in ``words``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from greenlight.core.game import Observation
from greenlight.core.views import observation_header
from greenlight.games.cinecitta import rules, words
from greenlight.games.cinecitta.actions import HEADHUNT, Offer, Place, Respond
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState, Folder


def _folder_json(folder: Folder, viewer: int, show_response: bool) -> dict[str, Any]:
    """One of the viewer's folders; once the answer is known, what came back to its sender (``back``)."""
    response = folder.response if show_response else None
    back: dict[str, Any] | None = None
    if response == HEADHUNT:
        back = {"money": 2 * folder.amount, "card": None}
    elif response is not None:
        back = {"money": 0, "card": folder.card}
    return {
        "round": folder.round,
        "sender": folder.sender,
        "recipient": folder.recipient,
        "card": folder.card,
        "amount": folder.amount,
        "response": response,
        "back": back,
        "role": "sent" if folder.sender == viewer else "received",
    }


def observe(state: CinecittaState, viewer: int | None) -> Observation:
    """The JSON-ready view of ``viewer`` (None = spectator), built from its information state only."""
    n = state.num_players
    decision = rules.decision(state)
    view: dict[str, Any] = {
        **observation_header("cinecitta", viewer, n, state.options),
        "round": min(state.round, state.rounds),
        "rounds": state.rounds,
        "step": state.step,
        "partner_offset": rules.partner_offset(state) if state.step != OVER else None,
        "committed": list(decision.committed),
        "waiting": list(decision.players),
        "hand_sizes": [len(hand) for hand in state.hands],
        "money_total": sum(state.round_start_wallets),  # constant during play (§4.2); 100 x N in a dealt game
        "studios": [list(studio) for studio in state.studios],
        "offices": [list(office) for office in state.offices],
        "last_placements": [
            {"seat": p.seat, "card": p.card, "moved_out": p.moved_out} for p in (state.placements[-1] if state.placements else [])
        ],
        # Previews (public): each seat's quality, promotion money, reels, Pen and wages due now.
        "tableaus": [words.tableau(state.table, studio, office) for studio, office in zip(state.studios, state.offices, strict=True)],
        "sends_to": [rules.target_of(state, seat) for seat in range(n)] if state.step != OVER else None,
        "direction": words.direction_words(rules.partner_offset(state), n) if state.step != OVER else None,
    }
    if viewer is not None:
        view.update(_private_view(state, viewer))
    if state.step == OVER:
        result = rules.outcome(state)
        view["final"] = {
            "wallets": list(state.wallets),
            "breakdown": [dict(item) for item in result.breakdown],
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "winners": list(result.winners),
            "words": [words.breakdown_words(item, wallet) for item, wallet in zip(result.breakdown, state.wallets, strict=True)],
        }
    return view


def _private_view(state: CinecittaState, viewer: int) -> dict[str, Any]:
    """The seat's own hand, wallet, folders, pending cards and commitment."""
    sent = rules.folder_sent(state, viewer)
    received = rules.folder_received(state, viewer)
    # The sender learns the response at step 3a, i.e. once responses are resolved (PLACE).
    sent_json = _folder_json(sent, viewer, state.step == PLACE) if sent else None
    received_json = _folder_json(received, viewer, state.step == PLACE) if received else None
    if received_json is not None and state.step == RESPOND and state.responses[viewer] is not None:
        received_json["response"] = state.responses[viewer]
    earlier = state.folders[: len(state.folders) - len(rules.round_folders(state))]
    history = [_folder_json(folder, viewer, True) for folder in earlier if viewer in (folder.sender, folder.recipient)]
    commitment = None
    if state.step == OFFER and state.offers[viewer] is not None:
        commitment = str(Offer(*state.offers[viewer]))  # type: ignore[misc]
    elif state.step == RESPOND and state.responses[viewer] is not None:
        commitment = str(Respond(state.responses[viewer]))  # type: ignore[arg-type]
    elif state.step == PLACE and state.plans[viewer] is not None:
        commitment = str(Place(state.plans[viewer]))  # type: ignore[arg-type]
    return {
        "hand": list(state.hands[viewer]),
        "wallet": state.wallets[viewer],
        "target": rules.target_of(state, viewer) if state.step != OVER else None,
        "source": rules.source_of(state, viewer) if state.step != OVER else None,
        "folder_sent": sent_json,
        "folder_received": received_json,
        "pending": list(state.pending[viewer]) if state.step == PLACE else [],
        "my_commitment": commitment,
        "my_commitment_words": words.commitment_words(state.table, commitment),
        "folder_history": history,
        # The seat's own score if the game ended now (its wallet against its wages; rules §5), with its words.
        "forecast": _forecast(state, viewer) if state.step != OVER else None,
    }


def _forecast(state: CinecittaState, viewer: int) -> dict[str, Any]:
    figures = words.forecast(state.table, state.studios[viewer], state.offices[viewer], state.wallets[viewer])
    return {**figures, "words": words.forecast_words(figures)}


def secrets(state: CinecittaState, viewer: int | None) -> frozenset[str]:
    """Cards ``viewer`` has not seen: other seats' hands, the undealt cards (R30), and this round's cards in
    folders it neither sent nor received, which are also the other seats' pending cards until the reveal (R36)."""
    hidden = set(state.undealt)
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden.update(hand)
    hidden.update(folder.card for folder in rules.round_folders(state) if viewer not in (folder.sender, folder.recipient))
    return frozenset(hidden)


# -- determinization -------------------------------------------------------------------

#: Histories drawn before determinize falls back to listing every possible round-start split of the money.
HISTORY_ATTEMPTS = 200
#: Times one round is drawn again when the next round's known folders rule the draw out.
ROUND_RETRIES = 8


@dataclass(frozen=True, slots=True)
class _PastRound:
    """A finished round as one seat knows it.

    ``headhunts`` lists every assignment (1 = that seat headhunted the folder
    it received) consistent with the number of cards each seat placed and the
    answers the seat saw: a seat places its own card if it came back and the
    card it headhunted (§4 step 3), so the counts pin the answers around each
    cycle of partners up to "all headhunted" or "all secured" on a cycle the
    seat did not take part in. ``amounts`` holds each folder's amount, None
    where the seat did not see it.
    """

    offset: int
    headhunts: tuple[tuple[int, ...], ...]
    amounts: tuple[int | None, ...]


def _cycles(n: int, offset: int) -> list[list[int]]:
    """The seats in partner cycles: each seat is followed by the seat it sends its folder to."""
    seen: set[int] = set()
    cycles = []
    for first in range(n):
        cycle = []
        seat = first
        while seat not in seen:
            seen.add(seat)
            cycle.append(seat)
            seat = (seat + offset) % n
        if cycle:
            cycles.append(cycle)
    return cycles


def _headhunt_assignments(n: int, offset: int, placed: list[int], known: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Every headhunt pattern with placed[y] = headhunted(y) + 1 - headhunted(target of y), agreeing with ``known``."""
    per_cycle: list[list[dict[int, int]]] = []
    for cycle in _cycles(n, offset):
        options = []
        for first in (0, 1):
            pattern = {cycle[0]: first}
            for index, seat in enumerate(cycle):
                target = cycle[(index + 1) % len(cycle)]
                value = pattern[seat] + 1 - placed[seat]
                if value not in (0, 1) or pattern.setdefault(target, value) != value:
                    break
            else:
                if all(pattern[seat] == answer for seat, answer in known.items() if seat in pattern):
                    options.append(pattern)
        per_cycle.append(options)
    return tuple(tuple(merged[seat] for seat in range(n)) for merged in _merge(per_cycle))


def _merge(per_cycle: list[list[dict[int, int]]]) -> list[dict[int, int]]:
    merged: list[dict[int, int]] = [{}]
    for options in per_cycle:
        merged = [{**done, **option} for done in merged for option in options]
    return merged


def _past_rounds(state: CinecittaState, viewer: int | None) -> list[_PastRound]:
    """Every finished round since play began, as ``viewer`` knows it (public placements, its own folders)."""
    n = state.num_players
    first = state.round - len(state.placements)
    seen = {
        (folder.round, folder.sender): folder
        for folder in state.folders
        if viewer in (folder.sender, folder.recipient) and folder.round < state.round and folder.response is not None
    }
    rounds = []
    for index, batch in enumerate(state.placements):
        number = first + index
        offset = rules.offset_in_round(state, number)
        placed = [0] * n
        for placement in batch:
            placed[placement.seat] += 1
        folders = [seen.get((number, sender)) for sender in range(n)]
        known = {folder.recipient: int(folder.response == HEADHUNT) for folder in folders if folder is not None}
        amounts = tuple(folder.amount if folder is not None else None for folder in folders)
        rounds.append(_PastRound(offset, _headhunt_assignments(n, offset, placed, known), amounts))
    return rounds


def _outlays(past: _PastRound, headhunts: tuple[int, ...]) -> list[int]:
    """What each seat must have held at the round's start for the folders the viewer saw (R6): its offer plus the match."""
    n = len(headhunts)
    amounts = past.amounts
    return [(amounts[seat] or 0) + headhunts[seat] * (amounts[(seat - past.offset) % n] or 0) for seat in range(n)]


def _amount_limit(past: _PastRound, wallets: list[int], headhunts: tuple[int, ...], amounts: list[int | None], sender: int) -> int:
    """The most ``sender``'s unseen folder can hold, given the amounts fixed so far (unfixed ones count as 0).

    The sender pays its offer and, if it headhunted, the match of the folder it
    received from its wallet at the round's start; so does its partner.
    """
    n = len(wallets)
    target, source = (sender + past.offset) % n, (sender - past.offset) % n
    limit = wallets[sender] - headhunts[sender] * (amounts[source] or 0)
    if headhunts[target]:
        limit = min(limit, wallets[target] - (amounts[target] or 0))
    return limit


def _after_round(past: _PastRound, wallets: list[int], headhunts: tuple[int, ...], amounts: list[int | None]) -> list[int]:
    """Wallets at the end of the round: a secured folder pays its sender's m to the responder, a headhunt the reverse."""
    n = len(wallets)
    after = list(wallets)
    for sender, amount in enumerate(amounts):
        assert amount is not None
        target = (sender + past.offset) % n
        sign = 1 if headhunts[target] else -1
        after[sender] += sign * amount
        after[target] -= sign * amount
    return after


def _draw_round(past: _PastRound, wallets: list[int], need: list[int], rng: random.Random) -> list[int] | None:
    """One way the round could have gone from ``wallets``; None if the folders the viewer saw rule them out.

    ``need`` is what each seat must hold after the round (its known outlays
    next round). An unseen amount is drawn between what its payee must get
    and what its payer can give while each still meets ``need``, counting the
    most the other folder of each could bring in. Those are necessary
    conditions, so no possible history is left out, but far fewer draws are
    thrown away (the caller still checks the result).
    """
    headhunts = rng.choice(past.headhunts)
    if any(have < need for have, need in zip(wallets, _outlays(past, headhunts), strict=True)):
        return None
    n = len(wallets)
    amounts = list(past.amounts)
    for sender in range(n):
        if amounts[sender] is None:
            target = (sender + past.offset) % n
            payer, payee = (target, sender) if headhunts[target] else (sender, target)
            spare = wallets[payer] + _most_from_other_folder(past, wallets, headhunts, amounts, payer, sender) - need[payer]
            short = need[payee] - wallets[payee] - _most_from_other_folder(past, wallets, headhunts, amounts, payee, sender)
            low, high = max(0, -(-short // 10)), min(_amount_limit(past, wallets, headhunts, amounts, sender), spare) // 10
            if low > high:
                return None
            # Any amount the sender could afford; the extremes often, so that rare forced histories are found.
            pick = rng.random()
            amounts[sender] = 10 * (low if pick < 0.25 else high if pick < 0.5 else rng.randint(low, high))
    return _after_round(past, wallets, headhunts, amounts)


def _most_from_other_folder(
    past: _PastRound, wallets: list[int], headhunts: tuple[int, ...], amounts: list[int | None], seat: int, sender: int
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


def _every_round(past: _PastRound, wallets: list[int]) -> set[tuple[int, ...]]:
    """Every wallet vector the round can end with from ``wallets``."""
    results: set[tuple[int, ...]] = set()
    for headhunts in past.headhunts:
        if any(have < need for have, need in zip(wallets, _outlays(past, headhunts), strict=True)):
            continue
        partial: list[list[int | None]] = [list(past.amounts)]
        for sender, amount in enumerate(past.amounts):
            if amount is None:
                partial = [
                    [*amounts[:sender], value, *amounts[sender + 1 :]]
                    for amounts in partial
                    for value in range(0, _amount_limit(past, wallets, headhunts, amounts, sender) + 1, 10)
                ]
        results.update(tuple(_after_round(past, wallets, headhunts, amounts)) for amounts in partial)
    return results


def _own_gain(past: _PastRound, viewer: int) -> int:
    """What the round's two folders did to the viewer's own wallet (it saw both)."""
    n = len(past.amounts)
    pattern = past.headhunts[0]  # the viewer's cycle is pinned by the answers it saw
    sent, received = past.amounts[viewer] or 0, past.amounts[(viewer - past.offset) % n] or 0
    return (sent if pattern[(viewer + past.offset) % n] else -sent) + (-received if pattern[viewer] else received)


def _opening(state: CinecittaState, viewer: int | None, rounds: list[_PastRound]) -> tuple[int | None, int]:
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
    state: CinecittaState, viewer: int | None, rounds: list[_PastRound], minimum: dict[int, int], rng: random.Random
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


def _needs(rounds: list[_PastRound], index: int, minimum: dict[int, int], n: int) -> list[int]:
    """What each seat must hold to start round ``index`` (or the current round): what ``_meets_next`` checks."""
    if index == len(rounds):
        return [minimum.get(seat, 0) for seat in range(n)]
    return _outlays(rounds[index], rounds[index].headhunts[0])


def _meets_next(rounds: list[_PastRound], index: int, wallets: list[int], minimum: dict[int, int]) -> bool:
    """Whether ``wallets`` can start round ``index`` (or the current round) given the folders the viewer saw there."""
    return all(have >= need for have, need in zip(wallets, _needs(rounds, index, minimum, len(wallets)), strict=True))


def _search_history(
    state: CinecittaState, viewer: int | None, rounds: list[_PastRound], minimum: dict[int, int], rng: random.Random
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
            after for after in _every_round(rounds[index], list(wallets)) if _meets_next(rounds, index + 1, list(after), minimum)
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
    rounds = _past_rounds(state, viewer)
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
