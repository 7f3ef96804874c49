"""Cinecitta 1937 rules: setup, legal actions, resolution of each step, scoring.

Rule functions follow ``../shared/rules/cinecitta_1937.md``; comments cite its
sections (§) and rulings (R).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import is_
from typing import Literal

from greenlight.core.actions import Action, shared
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from greenlight.games.cinecitta import parameters
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import PLAYER_COUNTS, CardTable, load_cards
from greenlight.games.cinecitta.events import Committed, FolderPassed, FolderReturned, GameOver, Placed, RoundStarted
from greenlight.games.cinecitta.observation import Breakdown
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState, Folder, Placement

FINISHED = "FINISHED"
DROPPED_INCOMPLETE = "DROPPED_INCOMPLETE"
DROPPED_WAGES = "DROPPED_WAGES"

# -- setup ---------------------------------------------------------------------------


def table_for(options: dict[str, OptionValue]) -> CardTable:
    """The card table the options ask for (bundled unless ``cards`` names a file)."""
    path = options.get("data")
    return load_cards(str(path) if path else None)


def setup(num_players: int, seed: int, options: dict[str, OptionValue]) -> CinecittaState:
    """Build the deck for N, shuffle with the seeded RNG and deal H cards each (§3)."""
    table = table_for(options)
    hand_size = parameters.hand_size(num_players, options)
    # The seed is used once, for the deal, and not kept: it would reveal every hand.
    state = CinecittaState(table, num_players, options, hand_size)
    deck = table.deck_for(num_players)
    Stream("cinecitta", "deal", seed).shuffle(deck)
    for seat in range(num_players):
        state.hands[seat] = deck[seat * hand_size : (seat + 1) * hand_size]
    state.undealt = deck[num_players * hand_size :]
    return state


def position(
    num_players: int,
    *,
    hands: Sequence[Sequence[str]],
    wallets: Sequence[int] | None = None,
    studios: Sequence[Sequence[str]] | None = None,
    offices: Sequence[Sequence[str]] | None = None,
    undealt: Sequence[str] = (),
    round: int = 1,
    options: dict[str, OptionValue] | None = None,
) -> CinecittaState:
    """An explicit position at the start of a round's offer step (§3 step 4), for tests and puzzles."""
    resolved: dict[str, OptionValue] = {"destination_change": False, "movie_awards": False, "data": None, **(options or {})}
    state = CinecittaState(table_for(resolved), num_players, resolved, parameters.hand_size(num_players, resolved))
    state.round = round
    state.hands = [list(hand) for hand in hands]
    dealt = [parameters.starting_money(resolved)] * num_players
    state.wallets = list(wallets) if wallets is not None else list(dealt)
    state.round_start_wallets = list(state.wallets)
    # Everyone knows the wallets of a game's first round (100 each, §3 step 5); of any other position
    # each seat knows only its own wallet and the total (R26).
    state.opening_wallets = tuple(state.wallets) if round == 1 and state.wallets == dealt else None
    state.studios = [list(cards) for cards in studios] if studios is not None else [[] for _ in range(num_players)]
    state.offices = [list(cards) for cards in offices] if offices is not None else [[] for _ in range(num_players)]
    state.undealt = list(undealt)
    if round > state.rounds:
        state.step = OVER
    return state


# -- partners (§4 step 0, §6.1) --------------------------------------------------------


def partner_offset(state: CinecittaState) -> int:
    """k for the current round: 1 in the base game, k(r) = ((r-1) mod (N-1)) + 1 with the coaster."""
    return offset_in_round(state, state.round)


def offset_in_round(state: CinecittaState, round_number: int) -> int:
    """k for any round (§6.1): the coaster turns one segment a round, skipping the seat's own colour."""
    if state.options.get("destination_change"):
        return (round_number - 1) % (state.num_players - 1) + 1
    return 1


def target_of(state: CinecittaState, seat: int) -> int:
    """The seat that receives ``seat``'s folder this round."""
    return (seat + partner_offset(state)) % state.num_players


def source_of(state: CinecittaState, seat: int) -> int:
    """The seat whose folder ``seat`` receives this round."""
    return (seat - partner_offset(state)) % state.num_players


def round_folders(state: CinecittaState) -> list[Folder]:
    """This round's folders indexed by sender, once offers are resolved."""
    if state.step not in (RESPOND, PLACE):
        return []
    return state.folders[-state.num_players :]


def folder_received(state: CinecittaState, seat: int) -> Folder | None:
    """The folder ``seat`` holds or held this round (None before offers resolve)."""
    folders = round_folders(state)
    return folders[source_of(state, seat)] if folders else None


def folder_sent(state: CinecittaState, seat: int) -> Folder | None:
    """The folder ``seat`` sent this round (None before offers resolve)."""
    folders = round_folders(state)
    return folders[seat] if folders else None


# -- decisions and legal actions ------------------------------------------------------


PROMPTS = {
    OFFER: "Put one staff card and some money in your folder for your partner.",
    RESPOND: "Secure the funds in the folder you received, or headhunt its card.",
    PLACE: "Place your pending cards in your Studio.",
}


#: Decisions already made, by step and which seats still owe a commitment: a decision is a frozen value that
#: follows from those, and building one costs more than the rest of a random move's bookkeeping.
_decisions: dict[tuple[str, tuple[bool, ...]], Decision] = {}
#: One None per seat at the largest table (``map(is_, ...)`` pairs the commitments with them).
_NOTHING = (None,) * max(PLAYER_COUNTS)


def decision(state: CinecittaState) -> Decision:
    """The current simultaneous step and who still owes a commitment."""
    step = state.step
    if step == OFFER:
        commitments: Sequence[object] = state.offers
    elif step == RESPOND:
        commitments = state.responses
    elif step == PLACE:
        commitments = state.plans
    else:
        return GAME_OVER
    key = (step, tuple(map(is_, commitments, _NOTHING)))
    found = _decisions.get(key)
    if found is None:
        waiting = tuple(seat for seat, owes in enumerate(key[1]) if owes)
        committed = tuple(seat for seat, owes in enumerate(key[1]) if not owes)
        found = _decisions[key] = Decision(players=waiting, kind=step, simultaneous=True, committed=committed, prompt=PROMPTS[step])
    return found


# Legal lists are built at every step: each distinct action is made once and shared.
_offer = shared(Offer)
_respond = shared(Respond)
_place = shared(Place)


#: Per card, its offers of 0, 10, 20... in order (the shared actions), grown when a wallet needs more.
_offer_ladders: dict[str, tuple[Action, ...]] = {}
#: Rungs of a new ladder: up to 500, all the money of a 5-player game.
_LADDER_RUNGS = 51


def _offer_ladder(card: str, rungs: int) -> tuple[Action, ...]:
    """The offers of ``card`` from 0 up, at least ``rungs`` of them."""
    ladder = _offer_ladders.get(card)
    if ladder is None or len(ladder) < rungs:
        ladder = _offer_ladders[card] = tuple(_offer(card, 10 * rung) for rung in range(max(rungs, _LADDER_RUNGS)))
    return ladder


def legal_offers(state: CinecittaState, seat: int) -> list[Action]:
    """Every (card in hand, multiple of 10 up to the wallet) pair (§4 step 1, R20), by card then amount."""
    rungs = max(state.wallets[seat] // 10 + 1, 0)
    offers: list[Action] = []
    ladders = _offer_ladders
    for card in state.hands[seat]:
        ladder = ladders.get(card)
        if ladder is None or len(ladder) < rungs:
            ladder = _offer_ladder(card, rungs)
        offers += ladder[:rungs]
    return offers


def legal_responses(state: CinecittaState, seat: int) -> list[Action]:
    """SECURE always; HEADHUNT when the wallet after the own offer covers the amount (R6, R21)."""
    n = state.num_players
    folders = state.folders
    assert state.step in (RESPOND, PLACE), "a folder has been received once the offers are resolved"
    folder = folders[len(folders) - n + (seat - partner_offset(state)) % n]  # folder_received
    if state.wallets[seat] >= folder.amount:
        return [_respond(SECURE), _respond(HEADHUNT)]
    return [_respond(SECURE)]


_NO_CHOICE: tuple[None] = (None,)


def out_choices(occupation: dict[str, str], studio: Sequence[str], card: str) -> Sequence[str | None]:
    """What a plan may name as moved out when ``card`` joins ``studio`` (§4 step 3c).

    Nothing (None) under rule (a), a card of the same occupation is replaced,
    and under rule (b), a free slot; each of the 3 Studio cards under rule (c).
    ``occupation`` is the card table's occupation by card.
    """
    wanted = occupation[card]
    for current in studio:
        if occupation[current] == wanted:
            return _NO_CHOICE
    return _NO_CHOICE if len(studio) < 3 else studio


def placements_of(occupation: dict[str, str], studio: Sequence[str], card: str) -> list[tuple[str | None, tuple[str, ...]]]:
    """Each choice of ``out_choices`` with the Studio it leaves: (a) replace a match, (b) a free slot, (c) any of 3 cards."""
    wanted = occupation[card]
    for current in studio:
        if occupation[current] == wanted:
            return [(None, tuple([card if c == current else c for c in studio]))]
    if len(studio) < 3:
        return [(None, (*studio, card))]
    return [(out, tuple([card if c == out else c for c in studio])) for out in studio]


def legal_plans(table: CardTable, studio: Sequence[str], pending: Sequence[str]) -> list[Action]:
    """Every legal placement plan: each order of the pending cards with every choice (§4 step 3c, R10)."""
    if not pending:
        return [_place(())]
    occupation = table.occupation
    if len(pending) == 1:
        card = pending[0]
        return [_place(((card, out),)) for out in out_choices(occupation, studio, card)]
    plans: list[Action] = []
    for first, second in ((pending[0], pending[1]), (pending[1], pending[0])):
        for out, after in placements_of(occupation, studio, first):
            for second_out in out_choices(occupation, after, second):
                plans.append(_place(((first, out), (second, second_out))))
    return plans


def legal_actions(state: CinecittaState, seat: int) -> list[Action]:
    """The legal actions of ``seat``: empty unless it still owes a commitment."""
    if state.step == OFFER and state.offers[seat] is None:
        return legal_offers(state, seat)
    if state.step == RESPOND and state.responses[seat] is None:
        return legal_responses(state, seat)
    if state.step == PLACE and state.plans[seat] is None:
        return legal_plans(state.table, state.studios[seat], state.pending[seat])
    return []


def why_illegal(state: CinecittaState, seat: int, action: Action) -> str:
    """Explain a refused action in the words of the rules (R42), cards by name and code."""
    from greenlight.games.cinecitta.words import card_title  # words reads the rules: imported here, not at the top

    if isinstance(action, Offer):
        if state.step != OFFER:
            return "offers are made in step 1; now is " + PROMPTS[state.step].lower()
        if action.card not in state.hands[seat]:
            return f"{card_title(state.table, action.card)} is not in your hand"
        if action.amount < 0 or action.amount % 10:
            return "the amount must be a multiple of 10 from 0 up (only 10-notes exist)"
        if action.amount > state.wallets[seat]:
            return f"you have only {state.wallets[seat]} in your wallet"
    if isinstance(action, Respond):
        if state.step != RESPOND:
            return "responses are made in step 2, after every folder has been passed"
        if action.choice not in (SECURE, HEADHUNT):
            return "respond with 'secure' or 'headhunt'"
        folder = folder_received(state, seat)
        if folder is not None and action.choice == HEADHUNT:
            return f"headhunting needs {folder.amount} in your wallet to match the folder; you have {state.wallets[seat]}"
    if isinstance(action, Place):
        if state.step != PLACE:
            return "cards are placed in step 3, after the folders come back"
        pending = sorted(state.pending[seat])
        if sorted(card for card, _ in action.placements) != pending:
            listed = ", ".join(card_title(state.table, card) for card in pending) or "no cards"
            return f"your plan must place exactly your pending cards ({listed})"
        return (
            "that plan breaks the placement rules: a card of the same occupation is replaced; "
            "a free slot must be used; only with a full Studio do you choose which card moves out"
        )
    return f"'{action}' is not a legal action now"


# -- applying actions ---------------------------------------------------------------


def apply(state: CinecittaState, seat: int, action: Action) -> list[Event]:
    """Record a legal commitment; when the last seat commits, resolve the step."""
    committed: Committed = {"seat": seat, "step": state.step}
    events = [Event("committed", committed)]
    # ``None not in`` is the C-level form of "every seat has committed".
    if isinstance(action, Offer):
        state.offers[seat] = (action.card, action.amount)
        if None not in state.offers:
            events += resolve_offers(state)
    elif isinstance(action, Respond):
        state.responses[seat] = action.choice
        if None not in state.responses:
            events += resolve_responses(state)
    elif isinstance(action, Place):
        state.plans[seat] = action.placements
        if None not in state.plans:
            events += resolve_plans(state)
    return events


def resolve_offers(state: CinecittaState) -> list[Event]:
    """Every card and amount leaves its owner and goes to the target (§4 step 1)."""
    events: list[Event] = []
    n = state.num_players
    offset = partner_offset(state)
    for seat, offer in enumerate(state.offers):
        assert offer is not None
        card, amount = offer
        state.hands[seat].remove(card)
        state.wallets[seat] -= amount
        target = (seat + offset) % n  # target_of
        state.folders.append(Folder(state.round, seat, target, card, amount))
        passed: FolderPassed = {"sender": seat, "recipient": target, "card": card, "amount": amount}
        events.append(Event("folder_passed", passed, audience=(seat, target)))
    state.offers = [None] * state.num_players
    state.step = RESPOND
    return events


def resolve_responses(state: CinecittaState) -> list[Event]:
    """SECURE keeps the money and returns the card; HEADHUNT keeps the card and returns 2m (§4 steps 2-3a)."""
    events: list[Event] = []
    n = state.num_players
    offset = partner_offset(state)
    folders, wallets, pending = state.folders, state.wallets, state.pending
    start = len(folders) - n
    for seat in range(n):
        sender = (seat - offset) % n  # source_of
        folder = folders[start + sender]
        choice = state.responses[seat]
        assert choice is not None, "every seat has answered before the folders return"
        card, amount = folder.card, folder.amount
        if choice == SECURE:
            wallets[seat] += amount
            pending[sender].append(card)
        else:
            wallets[seat] -= amount
            wallets[sender] += 2 * amount
            pending[seat].append(card)
        folders[start + sender] = Folder(folder.round, folder.sender, folder.recipient, card, amount, choice)
        returned: FolderReturned = {"sender": sender, "recipient": seat, "card": card, "amount": amount, "response": choice}
        events.append(Event("folder_returned", returned, audience=(sender, seat)))
    index = state.table.index
    for cards in pending:
        if len(cards) > 1:
            cards.sort(key=index)
    state.responses = [None] * state.num_players
    state.step = PLACE
    return events


def place_card(table: CardTable, studio: list[str], office: list[str], card: str, out: str | None) -> str | None:
    """Place one card by rules (a)-(c); return the card moved to the Office."""
    occupation = table.occupation
    wanted = occupation[card]
    moved = None
    for current in studio:
        if occupation[current] == wanted:
            moved = current
            break
    if moved is None and len(studio) >= 3:
        moved = out
    if moved is None:
        studio.append(card)
    else:
        studio[studio.index(moved)] = card
        office.append(moved)
    return moved


def resolve_plans(state: CinecittaState) -> list[Event]:
    """Apply every plan at once and reveal the placements (§4 step 3d, R38); then end the round."""
    batch: list[Placement] = []
    events: list[Event] = []
    table, studios, offices = state.table, state.studios, state.offices
    for seat, plan in enumerate(state.plans):
        assert plan is not None
        for card, out in plan:
            moved = place_card(table, studios[seat], offices[seat], card, out)
            batch.append(Placement(seat, card, moved))
            placed: Placed = {"seat": seat, "card": card, "moved_out": moved}
            events.append(Event("placed", placed))
        state.pending[seat] = []
    state.placements.append(batch)
    state.plans = [None] * state.num_players
    state.round += 1
    if state.round > state.rounds:
        state.step = OVER
        result = outcome(state)
        events.append(Event("game_over", GameOver(scores=list(result.scores), winners=list(result.winners), wallets=list(state.wallets))))
    else:
        state.step = OFFER
        state.round_start_wallets = list(state.wallets)
        started: RoundStarted = {"round": state.round, "offset": partner_offset(state)}
        events.append(Event("round_started", started))
    return events


# -- scoring (§5) ------------------------------------------------------------------


def quality_of(table: CardTable, studio: Sequence[str]) -> int | None:
    """S1: the three Studio numbers in ascending order read as a number (R40); None if incomplete."""
    if len(studio) != 3:
        return None
    number = table.number
    a, b, c = sorted([number[card] for card in studio])
    return 100 * a + 10 * b + c


def promotion_of(table: CardTable, office: Sequence[str]) -> int:
    """S2: the money the Office's promotion icons add (10 per icon; Studio icons never count, R27)."""
    promotion = table.promotion
    return 10 * sum([promotion[card] for card in office])


def has_pen(table: CardTable, office: Sequence[str]) -> bool:
    """Whether a Pen in the Office waives every wage (R27, R28: only Office Pens count, one is enough)."""
    pen = table.pen
    return any([pen[card] for card in office])


def wages_of(table: CardTable, studio: Sequence[str], office: Sequence[str]) -> int:
    """S3: 10 per staff card in the Studio and the Office, or 0 with a Pen in the Office (R18)."""
    return 0 if has_pen(table, office) else 10 * (len(studio) + len(office))


def reels_of(table: CardTable, office: Sequence[str]) -> int:
    """S5: the film reels of the Office cards (Studio reels never count)."""
    reels = table.reels
    return sum([reels[card] for card in office])


def score_seat(table: CardTable, studio: Sequence[str], office: Sequence[str], wallet: int) -> Breakdown:
    """S1-S5 and S7 (without awards) for one seat, as a breakdown.

    A step the seat skips reports no figure (None), promotion and award
    included (R43): a seat with an incomplete Studio skips S2-S7 (R14), one
    short of its wages S5-S7, so neither has an award (S6 is for FINISHED
    seats only, R15, R25). A FINISHED seat's award starts at 0.
    """
    breakdown: Breakdown = {
        "status": DROPPED_INCOMPLETE,
        "quality": None,
        "promotion": None,
        "wages_due": None,
        "money": None,
        "reels": None,
        "box_office": None,
        "award": None,
        "value": None,
    }
    quality = quality_of(table, studio)
    if quality is None:
        return breakdown
    breakdown["quality"] = quality
    promotion = promotion_of(table, office)
    breakdown["promotion"] = promotion
    money = wallet + promotion
    wages = wages_of(table, studio, office)
    breakdown["wages_due"] = wages
    if money < wages:  # S4, R18
        breakdown["status"] = DROPPED_WAGES
        return breakdown
    money -= wages
    reels = reels_of(table, office)
    box_office = money * reels
    breakdown.update(
        {"status": FINISHED, "money": money, "reels": reels, "box_office": box_office, "award": 0, "value": quality + box_office}
    )
    return breakdown


def apply_awards(breakdowns: list[Breakdown]) -> None:
    """S6 Movie Awards among FINISHED seats: +200 highest quality, -100 lowest (R15-R17, R25)."""
    finished = [b for b in breakdowns if b["status"] == FINISHED]
    qualities = {_figure(b, "quality") for b in finished}
    if len(finished) < 2 or len(qualities) < 2:
        return
    best, worst = max(qualities), min(qualities)
    for breakdown in finished:
        award = 200 if breakdown["quality"] == best else -100 if breakdown["quality"] == worst else 0
        breakdown["award"] = award
        breakdown["value"] = _figure(breakdown, "value") + award


def _figure(breakdown: Breakdown, step: Literal["quality", "value"]) -> int:
    """A figure a FINISHED seat always has."""
    figure = breakdown[step]
    assert figure is not None, f"a finished seat has a {step}"
    return figure


def score_all(
    table: CardTable, studios: Sequence[Sequence[str]], offices: Sequence[Sequence[str]], wallets: Sequence[int], movie_awards: bool
) -> list[Breakdown]:
    """S1-S7 for every seat."""
    breakdowns = [score_seat(table, studio, office, wallet) for studio, office, wallet in zip(studios, offices, wallets, strict=True)]
    if movie_awards:
        apply_awards(breakdowns)
    return breakdowns


def rank_breakdowns(breakdowns: list[Breakdown]) -> Outcome:
    """S8 and R43: rank FINISHED seats by value then quality; drop-outs score 0 and share last place."""
    finished = [b["status"] == FINISHED for b in breakdowns]
    scores = [_figure(b, "value") if done else 0 for b, done in zip(breakdowns, finished, strict=True)]
    keys = [(1, _figure(b, "value"), _figure(b, "quality")) if done else (0, 0, 0) for b, done in zip(breakdowns, finished, strict=True)]
    return outcome_from_keys(scores, keys, breakdowns, eligible=finished)


def final_breakdowns(state: CinecittaState) -> list[Breakdown]:
    """Each seat's scoring (S1-S7) of a finished game."""
    return score_all(state.table, state.studios, state.offices, state.wallets, bool(state.options.get("movie_awards")))


def outcome(state: CinecittaState) -> Outcome:
    """Final scores of a finished game."""
    return rank_breakdowns(final_breakdowns(state))
