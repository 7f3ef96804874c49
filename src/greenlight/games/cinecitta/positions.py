"""What makes a Cinecitta position possible, and what a hand-written one may leave out (docs/positions.md).

``Game.from_position`` starts from the normal deal of the position's seed,
puts in the fields the position gives, calls :func:`complete` for what
follows from them (the undealt pile, the wallets at the start of the round)
and then :func:`check`, which raises ``PositionError`` naming the field and
the rule for a position no game can reach.
"""

from __future__ import annotations

from collections import Counter

from greenlight.core.positions import PositionError
from greenlight.games.cinecitta import parameters, rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE
from greenlight.games.cinecitta.cards import OCCUPATIONS
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState

STEPS = (OFFER, RESPOND, PLACE, OVER)
#: The fields that say where cards are; giving any of them recomputes the undealt pile unless it is given too.
CARD_FIELDS = frozenset({"hands", "studios", "offices", "pending", "folders"})


def complete(state: CinecittaState, given: frozenset[str]) -> None:
    """Fill what a hand-written position leaves out: the undealt pile, the round's opening wallets, the step at the end."""
    if "round" in given and "step" not in given and state.round > state.rounds:
        state.step = OVER
    if given & CARD_FIELDS and "undealt" not in given:
        placed = set(_card_places(state, with_undealt=False))
        state.undealt = [card for card in state.table.deck_for(state.num_players) if card not in placed]
    if "wallets" in given and "round_start_wallets" not in given:
        state.round_start_wallets = [wallet + _money_in_folder(state, seat) for seat, wallet in enumerate(state.wallets)]
    if given & {"wallets", "round", "round_start_wallets"} and "opening_wallets" not in given:
        dealt = [parameters.starting_money(state.options)] * state.num_players
        # Everyone knows the wallets of a game's first round (100 each, §3 step 5); of any other position each seat
        # knows only its own wallet and the total (R26).
        state.opening_wallets = tuple(dealt) if state.round == 1 and state.round_start_wallets == dealt else None


def check(state: CinecittaState) -> None:
    """Raise PositionError unless ``state`` is a position a game of Cinecitta can reach (rules §3-§4)."""
    n = state.num_players
    dealt = parameters.hand_size(n, state.options)
    if state.hand_size != dealt:
        raise PositionError("hand_size", f"is {state.hand_size}; at {n} players every hand is dealt {dealt} cards (§3)")
    if state.step not in STEPS:
        raise PositionError("step", f"is {state.step!r}; a round's steps are {', '.join(STEPS)}")
    last = state.rounds + 1 if state.step == OVER else state.rounds
    if not 1 <= state.round <= last:
        raise PositionError("round", f"is {state.round}; a {n}-player game has rounds 1 to {state.rounds}")
    if (state.step == OVER) != (state.round > state.rounds):
        raise PositionError("step", f"is {state.step!r} in round {state.round}; the game is over exactly after round {state.rounds}")
    for name in ("hands", "wallets", "round_start_wallets", "studios", "offices", "offers", "responses", "pending", "plans"):
        if len(getattr(state, name)) != n:
            raise PositionError(name, f"has {len(getattr(state, name))} entries; a {n}-player position has one per seat")
    _check_cards(state)
    _check_hands(state)
    _check_studios(state)
    _check_money(state)
    _check_step(state)


def _card_places(state: CinecittaState, with_undealt: bool = True) -> dict[str, str]:
    """Where each card is, by field (``hands[1]``); a card in two places raises."""
    places: dict[str, str] = {}

    def put(card: str, where: str) -> None:
        if card in places:
            raise PositionError(where, f"{card} is also in {places[card]}; every card is in exactly one place")
        places[card] = where

    for name in ("hands", "studios", "offices", "pending"):
        for seat, cards in enumerate(getattr(state, name)):
            for card in cards:
                put(card, f"{name}[{seat}]")
    if state.step == RESPOND:  # this round's cards travel in their folders until the answers (§4 step 2)
        for folder in rules.round_folders(state):
            put(folder.card, f"folders (round {folder.round}, from seat {folder.sender})")
    for card in state.undealt if with_undealt else ():
        put(card, "undealt")
    return places


def _check_cards(state: CinecittaState) -> None:
    deck = state.table.deck_for(state.num_players)
    known = set(deck)
    places = _card_places(state)
    for card, where in places.items():
        if card not in known:
            raise PositionError(where, f"{card} is not a card of a {state.num_players}-player game")
    dealt = state.num_players * state.hand_size
    if len(state.undealt) != len(deck) - dealt:
        raise PositionError(
            "undealt",
            f"holds {len(state.undealt)} cards; {dealt} of the {len(deck)} cards are dealt, so {len(deck) - dealt} stay undealt (§3)",
        )
    missing = [card for card in deck if card not in places]
    if missing:
        raise PositionError(
            "undealt",
            f"{', '.join(missing[:3])} {'is' if len(missing) == 1 else 'are'} nowhere: every card of the deck is in a hand, "
            "a Studio, an Office, a folder, the cards to place or the undealt pile",
        )


def _check_hands(state: CinecittaState) -> None:
    # One card leaves each hand a round, at the end of the offer step; none is left at the end.
    expected = 0 if state.step == OVER else state.hand_size - state.round + (1 if state.step == OFFER else 0)
    for seat, hand in enumerate(state.hands):
        if len(hand) != expected:
            where = "at the end" if state.step == OVER else f"at the {state.step} step of round {state.round}"
            raise PositionError(f"hands[{seat}]", f"holds {len(hand)} cards; {where} every hand holds {expected}")


def _check_studios(state: CinecittaState) -> None:
    table = state.table
    for seat, studio in enumerate(state.studios):
        if len(studio) > 3:
            raise PositionError(f"studios[{seat}]", f"holds {len(studio)} cards; a Studio holds at most 3 (§4 step 3)")
        occupations = Counter(table[card].occupation for card in studio)
        double = [occupation for occupation in OCCUPATIONS if occupations[occupation] > 1]
        if double:
            raise PositionError(
                f"studios[{seat}]", f"holds two {double[0]}s; a card of an occupation already in the Studio replaces it (§4 step 3)"
            )
    placed = state.round - 1 if state.step != OVER else state.rounds
    for seat, (studio, office) in enumerate(zip(state.studios, state.offices, strict=True)):
        # Each finished round places one or two cards (a secured card comes back, a headhunted one is won).
        if len(studio) + len(office) > 2 * placed:
            raise PositionError(
                f"offices[{seat}]", f"with the Studio holds {len(studio) + len(office)} cards; {placed} rounds place at most {2 * placed}"
            )


def _money_in_folder(state: CinecittaState, seat: int) -> int:
    if state.step != RESPOND:
        return 0
    return sum(folder.amount for folder in rules.round_folders(state) if folder.sender == seat)


def _check_money(state: CinecittaState) -> None:
    for name in ("wallets", "round_start_wallets"):
        for seat, money in enumerate(getattr(state, name)):
            if money < 0 or money % 10:
                raise PositionError(f"{name}[{seat}]", f"is {money}; money comes in tens and a wallet is never below 0")
    in_play = sum(state.wallets) + sum(_money_in_folder(state, seat) for seat in range(state.num_players))
    if in_play != sum(state.round_start_wallets):
        raise PositionError(
            "wallets",
            f"add up to {in_play} with the money in folders, but the round began with {sum(state.round_start_wallets)}: "
            "money only changes hands during a round",
        )


def _check_step(state: CinecittaState) -> None:
    n = state.num_players
    commitments = {OFFER: "offers", RESPOND: "responses", PLACE: "plans"}
    for step, name in commitments.items():
        if step != state.step and any(item is not None for item in getattr(state, name)):
            raise PositionError(name, f"hold a choice, but the position is at the {state.step} step, not the {step} step")
    if all(item is not None for item in getattr(state, commitments.get(state.step, "offers"))) and state.step != OVER:
        raise PositionError(commitments[state.step], "every seat has chosen, so the step would already have been resolved")
    for seat, offer in enumerate(state.offers):
        if offer is not None:
            card, amount = offer
            if card not in state.hands[seat]:
                raise PositionError(f"offers[{seat}]", f"offers {card}, which is not in that seat's hand")
            if amount < 0 or amount % 10 or amount > state.wallets[seat]:
                raise PositionError(
                    f"offers[{seat}]", f"offers {amount}; an offer is 0 to the whole wallet ({state.wallets[seat]}), in tens"
                )
    for seat, response in enumerate(state.responses):
        if response not in (None, SECURE, HEADHUNT):
            raise PositionError(f"responses[{seat}]", f"is {response!r}; the answers are {SECURE} and {HEADHUNT}")
    folders_now = state.step in (RESPOND, PLACE)
    current = [folder for folder in state.folders if folder.round == state.round]
    if len(current) != (n if folders_now else 0):
        raise PositionError(
            "folders", f"hold {len(current)} folders of round {state.round}; at the {state.step} step there are {n if folders_now else 0}"
        )
    for index, folder in enumerate(current):
        if folder.sender != index or folder.recipient != rules.target_of(state, index):
            raise PositionError("folders", f"seat {folder.sender}'s folder of round {folder.round} goes to the wrong seat this round")
        if (folder.response is None) != (state.step == RESPOND):
            raise PositionError(
                "folders", f"seat {folder.sender}'s folder has {'no ' if folder.response is None else 'an '}answer at the {state.step} step"
            )
    if state.step != PLACE and any(state.pending):
        raise PositionError("pending", f"holds cards to place, but cards are placed only at the {PLACE} step")
    if state.step == PLACE:
        for seat, cards in enumerate(state.pending):
            if len(cards) > 2:
                raise PositionError(f"pending[{seat}]", f"holds {len(cards)} cards; a seat places at most two cards a round (§4 step 3)")
