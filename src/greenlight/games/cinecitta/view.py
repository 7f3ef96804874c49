"""What each seat may see (rules §8) and its secrets; ``determinization`` redraws the hidden part, ``words`` words it all."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from greenlight.core.views import observation_header
from greenlight.games.cinecitta import determinization, rules, words
from greenlight.games.cinecitta.actions import HEADHUNT, Offer, Place, Respond
from greenlight.games.cinecitta.observation import Back, CinecittaObservation, FolderView, ForecastWithWords
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState, Folder


def _folder_json(folder: Folder, viewer: int, show_response: bool) -> FolderView:
    """One of the viewer's folders; once the answer is known, what came back to its sender (``back``)."""
    response = folder.response if show_response else None
    back: Back | None = None
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


def observe(state: CinecittaState, viewer: int | None) -> CinecittaObservation:
    """The JSON-ready view of ``viewer`` (None = spectator), built from its information state only."""
    n = state.num_players
    decision = rules.decision(state)
    view: CinecittaObservation = {
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
        _add_private_view(view, state, viewer)
    if state.step == OVER:
        breakdowns = rules.final_breakdowns(state)
        result = rules.rank_breakdowns(breakdowns)
        view["final"] = {
            "wallets": list(state.wallets),
            "breakdown": breakdowns,
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "winners": list(result.winners),
            "words": [words.breakdown_words(item, wallet) for item, wallet in zip(breakdowns, state.wallets, strict=True)],
        }
    return view


def _add_private_view(view: CinecittaObservation, state: CinecittaState, viewer: int) -> None:
    """Add the seat's own hand, wallet, folders, pending cards and commitment to its ``view``."""
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
    view["hand"] = list(state.hands[viewer])
    view["wallet"] = state.wallets[viewer]
    view["target"] = rules.target_of(state, viewer) if state.step != OVER else None
    view["source"] = rules.source_of(state, viewer) if state.step != OVER else None
    view["folder_sent"] = sent_json
    view["folder_received"] = received_json
    view["pending"] = list(state.pending[viewer]) if state.step == PLACE else []
    view["my_commitment"] = commitment
    view["my_commitment_words"] = words.commitment_words(state.table, commitment)
    view["folder_history"] = history
    # The seat's own score if the game ended now (its wallet against its wages; rules §5), with its words.
    view["forecast"] = _forecast(state, viewer) if state.step != OVER else None


def _forecast(state: CinecittaState, viewer: int) -> ForecastWithWords:
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
    # Determinizations ask again for every search iteration, and the answer depends on a handful of small numbers.
    return _assignments(n, offset, tuple(placed), tuple(sorted(known.items())))


@cache
def _assignments(n: int, offset: int, placed: tuple[int, ...], known_items: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    known = dict(known_items)
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


def determinize(state: CinecittaState, viewer: int | None, rng: random.Random) -> CinecittaState:
    """A full position ``viewer`` cannot tell from ``state``, every hidden part drawn again (see ``determinization``)."""
    return determinization.determinize(state, viewer, rng)
