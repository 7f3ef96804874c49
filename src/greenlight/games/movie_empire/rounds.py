"""Setup (§3), the Grumpy phase (§4.1, R46-R50) and Upkeep (§4.10, R59)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from greenlight.games.movie_empire.actions import EXEMPT_WAYS, Exempt, Give, Keep
from greenlight.games.movie_empire.cards import (
    STAGE_INDEX,
    T_FIRST_PLAYER,
    T_PRODUCTION,
    T_SCRIPT,
    T_STAR,
    Tables,
    load_tables,
)
from greenlight.games.movie_empire.effects import (
    change_sympathy,
    draw_production,
    draw_script,
    draw_star,
    gain_cards,
    queue_checks,
    spend_dossier,
    usable_dossier,
)
from greenlight.games.movie_empire.events import (
    Gift,
    GiftCount,
    PlanMoney,
    RoundStarted,
    SetupDone,
    UpkeepDone,
    WorkingStarted,
    budget_event,
    exemption_event,
)
from greenlight.games.movie_empire.lines import with_flags
from greenlight.games.movie_empire.parameters import removed_trends
from greenlight.games.movie_empire.state import (
    GIFT,
    GRUMPY,
    NO_SEAT,
    SETUP,
    SUB_NONE,
    UP_BOARD,
    UP_DOSSIERS,
    UPKEEP,
    WORKING,
    MovieEmpireState,
    shuffle_in_place,
)
from greenlight.games.movie_empire.working import Board, board_of

SHORT_DEAL = 2
SCRIPTS_DEALT = 3
EXEMPTION_COST = 4

_EXEMPT = {way: Exempt(way) for way in EXEMPT_WAYS}

# -- setup (§3) -------------------------------------------------------------------------------


def setup(num_players: int, seed: int, options: dict[str, OptionValue]) -> MovieEmpireState:
    """Seat the players, build every pile from the seeded RNG and deal the scripts (§3 steps 1-9, R66)."""
    data_dir = options.get("data")
    table = load_tables(str(data_dir) if data_dir else None)
    state = MovieEmpireState(table, num_players, seed, options)
    rng = Stream("movie-empire", "setup", seed)
    state.first_player = rng.randrange(num_players)  # R62
    # Step 3: two piles, each half of the blue and half of the non-blue cards.
    blue, other = (list(cards) for cards in _blue_and_other(table))
    shuffle_in_place(rng, blue)
    shuffle_in_place(rng, other)
    top = blue[: len(blue) // 2] + other[: len(other) // 2]  # the top pile gets the floor halves (§2.10)
    bottom = blue[len(blue) // 2 :] + other[len(other) // 2 :]
    shuffle_in_place(rng, top)
    shuffle_in_place(rng, bottom)
    state.production_pile = bottom + top  # the end of the list is the top of the pile
    fill_slots(state, T_PRODUCTION)
    if state.short:  # step 4
        for seat in state.turn_order():
            state.hands[seat].extend(card for card in (draw_production(state) for _ in range(SHORT_DEAL)) if card is not None)
    # Step 5: stars.
    state.star_pile = list(table.star_ids)
    shuffle_in_place(rng, state.star_pile)
    fill_slots(state, T_STAR)
    # Step 6: scripts (the kept ones are chosen in the simultaneous keep step).
    state.script_pile = list(table.script_ids)
    shuffle_in_place(rng, state.script_pile)
    for seat in state.turn_order():
        state.dealt[seat] = [state.script_pile.pop() for _ in range(SCRIPTS_DEALT)]
    # Step 7: trends.
    trends = list(table.trend_ids)
    shuffle_in_place(rng, trends)
    removed = removed_trends(state.options)
    state.trend_removed = [trends.pop() for _ in range(removed)]
    first, second, third = trends.pop(), trends.pop(), trends.pop()
    state.trend_row = [third, second, first]  # the 1st drawn goes to TS3 (active in round 1)
    state.trend_pile = trends
    # Step 8: annual plans (face up, only the top one visible).
    if not state.short:
        state.plan_pile = list(table.plan_ids)
        shuffle_in_place(rng, state.plan_pile)
    state.rng_seed = rng.getrandbits(128)  # later shuffles continue from here (128 bits: as secret as the seed)
    state.phase = SETUP
    return state


@cache
def _blue_and_other(table: Tables) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The production deck's blue cards and its other cards, each in table order (read once per table)."""
    blue_stage = STAGE_INDEX["B"]
    blue = tuple(card for card in table.production_deck if table.production[card].stage == blue_stage)
    other = tuple(card for card in table.production_deck if table.production[card].stage != blue_stage)
    return blue, other


_DRAWS = {T_PRODUCTION: draw_production, T_STAR: draw_star, T_SCRIPT: draw_script}


def fill_slots(state: MovieEmpireState, task: int, board: Board | None = None) -> None:
    """Fill the empty in-use slots of one board, lowest first, in draw order (R6, R69); ``board``: ``board_of(state)``."""
    draw = _DRAWS[task]
    cards = state.slot_card
    for space in (board or board_of(state)).by_task[task]:
        if cards[space.index] is None:
            cards[space.index] = draw(state)


def keep_count(state: MovieEmpireState) -> int:
    """Scripts kept at setup: 1, or 2 in Shoot a Short."""
    return 2 if state.short else 1


def keep_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """Every choice of scripts to keep among the 3 dealt."""
    return [Keep(tuple(sorted(pair))) for pair in combinations(state.dealt[seat], keep_count(state))]


def resolve_setup(state: MovieEmpireState, events: list[Event]) -> None:
    """Kept scripts go to hand; the rest are shuffled back and the script slots filled (§3 steps 6.3-6.4)."""
    for seat in state.turn_order():
        kept = state.commit[seat]
        assert kept is not None
        for card in state.dealt[seat]:
            if card in kept:
                state.hands[seat].append(card)
            else:
                state.script_pile.append(card)
        state.dealt[seat] = []
    state.commit = [None] * state.num_players
    state.shuffle(state.script_pile)
    fill_slots(state, T_SCRIPT)
    events.append(Event("setup_done", SetupDone(first_player=state.first_player)))
    begin_round(state, events)


# -- the Grumpy phase (§4.1) --------------------------------------------------------------------


def begin_round(state: MovieEmpireState, events: list[Event]) -> None:
    """Reveal (from round 2, never in Shoot a Short), then budgets (R47)."""
    state.phase = GRUMPY
    state.exempt_pos = 0
    state.plan = None
    if state.round >= 2 and not state.short and state.plan_pile:
        state.plan = state.plan_pile.pop()
        state.plans_done.append(state.plan)
    round_started_data: RoundStarted = {
        "round": state.round,
        "first_player": state.first_player,
        "plan": state.plan,
    }
    events.append(Event("round_started", round_started_data))
    bar, sympathy = state.table.sympathy, state.sympathy
    for seat in state.turn_order():
        budget = bar[sympathy[seat]].budget  # level(), read directly
        state.money[seat] += budget
        events.append(budget_event(seat, budget))
    if state.plan is None:
        state.exempt_pos = state.num_players


def exemption_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """Decline, or one of the three ways to ignore the plan (§4.1 step 3)."""
    actions: list[Action] = [_EXEMPT["decline"]]
    if state.table.sympathy[state.sympathy[seat]].plan_exempt:  # level(), read directly
        actions.append(_EXEMPT["free"])
    if usable_dossier(state, seat):
        actions.append(_EXEMPT["dossier"])
    if state.money[seat] >= EXEMPTION_COST:
        actions.append(_EXEMPT["pay"])
    return actions


def exemption_choice(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``exemption_actions`` offers more than ``decline`` (found without building the list)."""
    return state.table.sympathy[state.sympathy[seat]].plan_exempt or usable_dossier(state, seat) or state.money[seat] >= EXEMPTION_COST


def apply_exemption(state: MovieEmpireState, seat: int, way: str, events: list[Event]) -> None:
    """Record a seat's exemption declaration (public, R48) and move to the next seat."""
    if way == "dossier":
        spend_dossier(state, seat, "exemption", events)
    elif way == "pay":
        state.money[seat] -= EXEMPTION_COST
    state.exempt[seat] = way != "decline"
    events.append(exemption_event(seat, way))
    state.exempt_pos += 1


def instant_effect(state: MovieEmpireState, events: list[Event]) -> None:
    """Apply an instant plan to every non-exempt player; AP12 opens the gift step, else the working phase starts."""
    plan = state.table.plans[state.plan] if state.plan is not None else None
    if plan is not None and plan.effect in ("lose_money", "gain_money"):
        for seat in state.turn_order():
            if state.exempt[seat]:
                continue
            before = state.money[seat]
            state.money[seat] = max(0, before - plan.amount) if plan.effect == "lose_money" else before + plan.amount  # R11
            events.append(Event("plan_money", PlanMoney(seat=seat, change=state.money[seat] - before)))
    if plan is not None and plan.effect == "give_cards":
        state.phase = GIFT
        state.commit = [None] * state.num_players
        for seat in range(state.num_players):
            if not gift_chooser(state, seat):
                given = () if state.exempt[seat] else tuple(state.hands[seat])  # R50: the exempt give nothing
                state.commit[seat] = given
        return
    start_working(state, events)


def gift_chooser(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``seat`` has a real AP12 choice (not exempt, more cards than it must give)."""
    plan = state.table.plans[state.plan or ""]
    return not state.exempt[seat] and len(state.hands[seat]) > plan.amount


def give_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """Each choice of cards to give (2 of the hand)."""
    plan = state.table.plans[state.plan or ""]
    return [Give(pair) for pair in dict.fromkeys(tuple(sorted(pair)) for pair in combinations(state.hands[seat], plan.amount))]


def resolve_gifts(state: MovieEmpireState, events: list[Event]) -> None:
    """All gifts move at once to the left neighbours; then each receiver applies the hand limit (R50)."""
    n = state.num_players
    gifts = [state.commit[seat] or () for seat in range(n)]
    for seat, given in enumerate(gifts):
        for card in given:
            state.hands[seat].remove(card)
        if given:
            state.known[seat] = []  # others no longer know which of the seat's cards are left
    state.gifted = [list(given) for given in gifts]
    for seat in state.turn_order():
        receiver = state.left_of(seat)
        events.append(Event("gift", Gift(seat=seat, to=receiver, cards=list(gifts[seat])), audience=(seat, receiver)))
        events.append(Event("gift_count", GiftCount(seat=seat, to=receiver, count=len(gifts[seat]))))
    for seat in state.turn_order():
        giver = (seat - 1) % n
        gain_cards(state, seat, list(gifts[giver]), public=False)
    state.commit = [None] * n
    start_working(state, events)


def start_working(state: MovieEmpireState, events: list[Event]) -> None:
    """The working phase begins with the first player (§4.2 step 1)."""
    from greenlight.games.movie_empire.flow import begin_turn

    state.phase = WORKING
    working_started_data: WorkingStarted = {"round": state.round}
    events.append(Event("working_started", working_started_data))
    begin_turn(state, state.first_player)


# -- Upkeep (§4.10) ----------------------------------------------------------------------------------


def upkeep_dossiers(state: MovieEmpireState, events: list[Event]) -> None:
    """Step 3: each spent dossier costs its user (2p) or everyone else (3-4p) 1 sympathy; then the checks."""
    changed: set[int] = set()
    for seat in state.turn_order():
        for _ in range(state.spent[seat]):
            victims = [seat] if state.num_players == 2 else [other for other in state.turn_order() if other != seat]
            for victim in victims:
                change_sympathy(state, victim, -1, events, "dossier penalty")
                changed.add(victim)
    queue_checks(state, changed)
    state.step = UP_BOARD


def upkeep_board(state: MovieEmpireState, events: list[Event]) -> None:
    """Steps 4-9: production slots, scripts and stars, trends, reset, first player, next round."""
    table = state.table
    cards = state.slot_card
    # Step 4: discard the surcharge-free slots (PS1, PS2), slide the rest down, refill.
    board = board_of(state)
    slots = board.production
    remaining: list[str | None] = []
    for space in slots:
        card = cards[space.index]
        if card is not None:
            if space.surcharge == 0:
                state.production_discard.append(card)
            else:
                remaining.append(card)
    remaining += [None] * (len(slots) - len(remaining))
    for space, card in zip(slots, remaining, strict=True):
        cards[space.index] = card
    fill_slots(state, T_PRODUCTION, board)
    # Step 5: scripts and stars.
    for space in board.by_task[T_SCRIPT]:
        card = cards[space.index]
        if card is not None:
            state.script_discard.append(card)
            cards[space.index] = None
    for space in board.by_task[T_STAR]:
        card = cards[space.index]
        if card is not None:
            state.star_discard.append(card)
            cards[space.index] = None
    fill_slots(state, T_SCRIPT, board)
    fill_slots(state, T_STAR, board)
    # Step 6: the active trend leaves the game (R5); the row moves right; a new trend on TS1.
    row = state.trend_row
    state.trend_row = [state.trend_pile.pop() if state.trend_pile else None, row[0], row[1]]
    # Step 8 (read before the reset): FP1's taker, else the left neighbour (R61).
    first_spaces = board.by_task[T_FIRST_PLAYER]
    taker = state.assistant[first_spaces[0].index] if first_spaces else NO_SEAT
    next_first = taker if taker != NO_SEAT else state.left_of(state.first_player)
    # Step 7: reset.
    spaces = len(table.spaces)
    state.assistant = [NO_SEAT] * spaces
    state.blocked = [NO_SEAT] * spaces
    state.cut_by = [NO_SEAT] * spaces
    state.release_line = [NO_SEAT] * spaces
    for lines in state.lines:
        for index, line in enumerate(lines):
            if line is not None and line.locked:
                lines[index] = with_flags(line, locked=False)
    n = state.num_players
    state.exempt = [False] * n
    state.passed = [False] * n
    state.placed = [0] * n
    state.spent = [0] * n
    state.trend_hit = False
    state.markets_used = []
    state.premieres = []
    state.prem_pos = 0
    state.net_items = []
    state.net_pos = 0
    state.sub = SUB_NONE
    state.first_player = next_first
    upkeep_done_data: UpkeepDone = {
        "round": state.round,
        "first_player": next_first,
        "slots": {space.id: cards[space.index] for space in board.card_slots},
    }
    events.append(Event("upkeep_done", upkeep_done_data))
    state.round += 1
    begin_round(state, events)


def begin_upkeep(state: MovieEmpireState) -> None:
    """Enter Upkeep at step 3 (assistants return with the step 7 reset; nothing in between reads them)."""
    state.phase = UPKEEP
    state.step = UP_DOSSIERS
