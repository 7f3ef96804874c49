"""Movie Empire rules entry points: who decides (§4.13, R70), legal actions, applying, refusals.

The phase logic lives in ``rounds`` (setup, Grumpy, Upkeep), ``working``
(spaces, tasks, producing, dossiers), ``premiere`` (releases, scoring, NET)
and ``flow`` (sequencing); this module dispatches to them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from greenlight.core.actions import Action, shared
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.games.movie_empire import premiere, rounds, working
from greenlight.games.movie_empire.actions import (
    NEW_LINE,
    SKIP,
    STOP,
    Block,
    Cut,
    Discard,
    Done,
    End,
    Exempt,
    Give,
    Keep,
    Lay,
    Market,
    Net,
    Pass,
    Place,
    Produce,
    Purge,
    Release,
    Script,
    Shut,
    Stack,
    Star,
    Stop,
    Swap,
    Take,
)
from greenlight.games.movie_empire.effects import hand_limit, level, open_lines, shut_line
from greenlight.games.movie_empire.events import (
    Committed,
    InternetSkipped,
    passed_event,
    produce_done_event,
    produce_event,
)
from greenlight.games.movie_empire.flow import advance, end_turn
from greenlight.games.movie_empire.lines import lay_actions, lay_problem
from greenlight.games.movie_empire.rounds import setup as setup  # the contract's rules: setup (§3) ...
from greenlight.games.movie_empire.scoring import outcome as outcome  # ... and the final scores (§5)
from greenlight.games.movie_empire.state import (
    GRUMPY,
    INTERNET,
    NO_SEAT,
    OVER,
    PREMIERE,
    Q_CHECK,
    Q_DISCARD,
    SETUP,
    SUB_RELEASE,
    SUB_SABOTAGE_KEEP,
    SUB_SWAP_CARD,
    SUB_SWAP_SLOT,
    WORKING,
    MovieEmpireState,
)

PROMPTS = {
    "keep": "Keep {n} of the scripts you were dealt (secret, simultaneous).",
    "exemption": "Follow the annual plan, or ignore it: for free at sympathy +3 or more, with a black dossier or for 4 money.",
    "give": "Choose the cards you give to your left neighbour (secret, simultaneous).",
    "turn": "Place an assistant, produce, use your dossier, or pass.",
    "produce": "Lay cards into the line one at a time, then end the produce step.",
    "swap": "Sabotage: choose the production card you give to the board.",
    "take": "Sabotage: choose the slot whose card you take.",
    "release": "Choose the line this release space premieres.",
    "sabotage_keep": "Sabotage: keep 2 of the cards drawn.",
    "discard": "Hand limit: discard down to 4 cards (you may discard more), then keep the rest.",
    "shut": "Too many open lines for your sympathy: shut one down.",
    "market": "Choose the market of this premiere.",
    "internet": "Premiere a line on the Internet for 2 money, or not.",
}

_SUB_KINDS = {SUB_SWAP_CARD: "swap", SUB_SWAP_SLOT: "take", SUB_RELEASE: "release", SUB_SABOTAGE_KEEP: "sabotage_keep"}


@cache
def _sequential(kind: str, seat: int) -> Decision:
    return Decision(players=(seat,), kind=kind, prompt=PROMPTS[kind])


#: The turn, produce and exemption decisions by seat (the usual ones, read without building a cache key); a seat
#: not listed (a hand-made position being checked) goes to ``_sequential``, which makes the same decision.
_TURN_DECISIONS = {seat: _sequential("turn", seat) for seat in range(8)}
_PRODUCE_DECISIONS = {seat: _sequential("produce", seat) for seat in range(8)}
_EXEMPTION_DECISIONS = {seat: _sequential("exemption", seat) for seat in range(8)}


def _mover(state: MovieEmpireState) -> tuple[str, int]:
    """(decision kind, seat) of a sequential decision; kind "" for simultaneous steps and the end."""
    if state.queue:
        kind, seat = state.queue[0]
        return ("discard" if kind == Q_DISCARD else "shut"), seat
    phase = state.phase
    if phase == WORKING:
        if state.sub:
            return _SUB_KINDS[state.sub], state.turn_seat
        return ("produce" if state.target != NO_SEAT else "turn"), state.turn_seat
    if phase == GRUMPY:
        return "exemption", state.turn_order()[state.exempt_pos]
    if phase == PREMIERE:
        pending = premiere.pending_release(state)
        assert pending is not None
        return "market", pending[0]
    if phase == INTERNET:
        return "internet", state.net_items[state.net_pos][0]
    return "", NO_SEAT


def _choosers(state: MovieEmpireState) -> list[int]:
    if state.phase == SETUP:
        return list(range(state.num_players))
    return [seat for seat in range(state.num_players) if rounds.gift_chooser(state, seat)]


def decision(state: MovieEmpireState) -> Decision:
    """What the game waits for now."""
    phase = state.phase
    if phase == WORKING and not state.queue and not state.sub:  # the usual case, as _mover finds it
        seat = state.turn_seat
        if state.target != NO_SEAT:
            return _PRODUCE_DECISIONS.get(seat) or _sequential("produce", seat)
        return _TURN_DECISIONS.get(seat) or _sequential("turn", seat)
    if phase == GRUMPY and not state.queue:  # the next usual one, as _mover finds it
        seat = state.turn_order()[state.exempt_pos]
        return _EXEMPTION_DECISIONS.get(seat) or _sequential("exemption", seat)
    if phase == OVER:
        return GAME_OVER
    kind, seat = _mover(state)
    if kind:
        return _sequential(kind, seat)
    choosers = _choosers(state)
    waiting = tuple(s for s in choosers if state.commit[s] is None)
    committed = tuple(s for s in choosers if state.commit[s] is not None)
    if state.phase == SETUP:
        return _simultaneous("keep", waiting, committed, rounds.keep_count(state))
    return _simultaneous("give", waiting, committed, 0)


@cache
def _simultaneous(kind: str, waiting: tuple[int, ...], committed: tuple[int, ...], keep: int) -> Decision:
    """The decision of a simultaneous step (shared: every game passes through the same few)."""
    prompt = PROMPTS[kind].format(n=keep) if kind == "keep" else PROMPTS[kind]
    return Decision(players=waiting, kind=kind, simultaneous=True, committed=committed, prompt=prompt)


def legal_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; empty if it owes none."""
    if state.phase == WORKING and not state.queue and not state.sub:  # the usual case, as _mover finds it
        if seat != state.turn_seat:
            return []
        return working.produce_step_actions(state, seat) if state.target != NO_SEAT else working.turn_menu(state, seat)
    if state.phase == GRUMPY and not state.queue:  # the next usual one, as _mover finds it
        return rounds.exemption_actions(state, seat) if seat == state.turn_order()[state.exempt_pos] else []
    if state.phase == OVER:
        return []
    kind, mover = _mover(state)
    if not kind:
        if state.commit[seat] is not None or seat not in _choosers(state):
            return []
        return rounds.keep_actions(state, seat) if state.phase == SETUP else rounds.give_actions(state, seat)
    if seat != mover:
        return []
    if kind == "turn":
        return working.turn_menu(state, seat)
    if kind == "produce":
        return working.produce_step_actions(state, seat)
    if kind == "discard":
        return _discard_actions(state, seat)
    if kind == "shut":
        return [Shut(index + 1) for index, line in enumerate(state.lines[seat]) if line is not None and not line.shut]
    if kind == "market":
        return premiere.market_actions(state)
    if kind == "internet":
        return premiere.net_actions(state)
    if kind == "exemption":
        return rounds.exemption_actions(state, seat)
    return working.sub_actions(state, seat)


_discard = shared(Discard)


def _discard_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """One discard at a time; ``stop`` once the hand is within the limit (§4.5, R2)."""
    hand = state.hands[seat]
    actions: list[Action] = [_discard(card) for card in dict.fromkeys(hand)]
    if len(hand) <= hand_limit(state):
        actions.append(STOP)
    return actions


# -- applying --------------------------------------------------------------------------------------


def apply(state: MovieEmpireState, seat: int, action: Action) -> list[Event]:
    """Apply a legal action, then run the automatic steps that follow."""
    try:
        handler = _HANDLERS[type(action)]
    except KeyError:  # pragma: no cover - every action type has a handler
        raise TypeError(f"unknown action {action!r}") from None
    events: list[Event] = []
    handler(state, seat, action, events)
    advance(state, events)
    return events


def _apply_discard(state: MovieEmpireState, seat: int, action: Discard, events: list[Event]) -> None:
    working.apply_discard(state, seat, action.card, events)
    if not state.hands[seat]:
        state.queue.pop(0)


def _apply_stop(state: MovieEmpireState, seat: int, action: Stop, events: list[Event]) -> None:
    state.queue.pop(0)


def _apply_produce(state: MovieEmpireState, seat: int, action: Produce, events: list[Event]) -> None:
    state.turn_produced = True
    state.target = working.new_line_slot(state, seat) if action.line == NEW_LINE else int(action.line) - 1
    state.lays = 0
    events.append(produce_event(seat, state.target + 1, action.line == NEW_LINE))


def _apply_done(state: MovieEmpireState, seat: int, action: Done, events: list[Event]) -> None:
    state.target = NO_SEAT
    events.append(produce_done_event(seat))


def _apply_pass(state: MovieEmpireState, seat: int, action: Pass, events: list[Event]) -> None:
    state.passed[seat] = True
    events.append(passed_event(seat))
    end_turn(state)


def _apply_market(state: MovieEmpireState, seat: int, action: Market, events: list[Event]) -> None:
    pending = premiere.pending_release(state)
    assert pending is not None
    premiere.score_premiere(state, pending[0], pending[1], action.market, events)
    state.prem_pos += 1


def _apply_net(state: MovieEmpireState, seat: int, action: Net, events: list[Event]) -> None:
    if action.line != SKIP:
        premiere.score_premiere(state, seat, int(action.line) - 1, "NET", events)
    else:
        events.append(Event("internet_skipped", InternetSkipped(seat=seat)))
    state.net_pos += 1


def _apply_shut(state: MovieEmpireState, seat: int, action: Shut, events: list[Event]) -> None:
    shut_line(state, seat, action.line - 1, events)
    state.queue[0] = (Q_CHECK, seat)


def _apply_keep(state: MovieEmpireState, seat: int, action: Keep, events: list[Event]) -> None:
    if state.phase == SETUP:
        state.commit[seat] = action.cards
        events.append(Event("committed", Committed(seat=seat, step="keep")))
    else:
        working.keep_drawn(state, seat, action.cards, events)


def _apply_give(state: MovieEmpireState, seat: int, action: Give, events: list[Event]) -> None:
    state.commit[seat] = action.cards
    events.append(Event("committed", Committed(seat=seat, step="give")))


def _apply_swap(state: MovieEmpireState, seat: int, action: Swap, events: list[Event]) -> None:
    state.sub_card = action.card
    state.sub = SUB_SWAP_SLOT
    if state.known[seat].count(action.card) < state.hands[seat].count(action.card):
        state.known[seat].append(action.card)  # the card to swap is shown before the slot is chosen


def _apply_purge(state: MovieEmpireState, seat: int, action: Purge, events: list[Event]) -> None:
    state.turn_acted = True
    working.purge(state, seat, events)


def _apply_cut(state: MovieEmpireState, seat: int, action: Cut, events: list[Event]) -> None:
    state.turn_acted = True
    working.apply_cut(state, seat, action.space, events)


#: How each type of action is applied (one lookup instead of a chain of type tests).
_HANDLERS: dict[type[Action], Callable[[MovieEmpireState, int, Any, list[Event]], None]] = {
    Lay: working.apply_lay_action,
    Stack: working.apply_lay_action,
    Star: working.apply_lay_action,
    Place: working.apply_place,
    End: lambda state, seat, action, events: end_turn(state),
    Discard: _apply_discard,
    Stop: _apply_stop,
    Produce: _apply_produce,
    Done: _apply_done,
    Script: lambda state, seat, action, events: working.apply_script(state, seat, action.card, events),
    Pass: _apply_pass,
    Market: _apply_market,
    Net: _apply_net,
    Shut: _apply_shut,
    Keep: _apply_keep,
    Give: _apply_give,
    Exempt: lambda state, seat, action, events: rounds.apply_exemption(state, seat, action.way, events),
    Swap: _apply_swap,
    Take: lambda state, seat, action, events: working.apply_swap_take(state, seat, action.slot, events),
    Release: lambda state, seat, action, events: working.designate(state, seat, state.sub_space, action.line - 1, events),
    Purge: _apply_purge,
    Cut: _apply_cut,
    Block: lambda state, seat, action, events: working.apply_block(state, seat, action.space, events),
}


# -- refusals in words ---------------------------------------------------------------------------

_NO_SPACE_AFTER = "you would have no space to place on after"
_WHY_PLACE = "you produce only in a turn with a placement, R16, R67"


#: The action types each kind of decision takes (an action of another type is refused as out of turn).
_EXPECTED: dict[str, tuple[type[Action], ...]] = {
    "turn": (Pass, Place, Produce, Purge, Cut, Block, End),
    "produce": (Lay, Stack, Star, Script, Done),
    "discard": (Discard, Stop),
    "shut": (Shut,),
    "market": (Market,),
    "internet": (Net,),
    "exemption": (Exempt,),
    "keep": (Keep,),
    "give": (Give,),
    "swap": (Swap,),
    "take": (Take,),
    "release": (Release,),
    "sabotage_keep": (Keep,),
}


def why_illegal(state: MovieEmpireState, seat: int, action: Action) -> str:
    """Explain a refused action in the words of the rules."""
    kind, _ = _mover(state)
    if not kind:
        kind = "keep" if state.phase == SETUP else "give"
    if not isinstance(action, _EXPECTED[kind]):
        return f"now is not the time for '{action.verb}': {PROMPTS[kind].format(n=rounds.keep_count(state))}"
    refusal = _REFUSALS.get(type(action))
    return refusal(state, seat, action) if refusal is not None else f"'{action}' is not one of your legal actions now"


def _place_refusal(state: MovieEmpireState, seat: int, action: Place) -> str:
    space = state.table.space_by_id.get(action.space)
    if space is None or space not in working.in_use(state):
        return f"{action.space} is not a space in use in this game"
    if state.turn_placed:
        return "you already placed an assistant this turn"
    return working.place_problem(state, seat, space, action.dossier) or f"'{action}' is not allowed now"


def _lay_refusal(state: MovieEmpireState, seat: int, action: Lay | Stack | Star) -> str:
    line = state.lines[seat][state.target]
    if line is None:
        return "lay the new line's script first"
    problem = lay_problem(state.table, line, action, state.hands[seat])
    if problem:
        return problem
    return f"before your placement, {_NO_SPACE_AFTER} this lay, even with more lays into this line ({_WHY_PLACE})"


def _script_refusal(state: MovieEmpireState, seat: int, action: Script) -> str:
    table = state.table
    if state.lines[seat][state.target] is not None:
        return "this line already has its script; a script is laid only to start a new line"
    hand = state.hands[seat]
    if action.card not in hand:
        return f"{table.card_name(action.card)} is not in your hand"
    if action.card not in table.scripts:
        return f"{table.card_name(action.card)} is not a script; a new line starts with a script"
    if not any(card in table.production for card in hand):
        return "a new line needs a production card in your hand as its first card"
    return f"before your placement, {_NO_SPACE_AFTER} a new line with this script, whatever you lay into it ({_WHY_PLACE})"


def _new_line_refusal(state: MovieEmpireState, seat: int) -> str:
    table, hand = state.table, state.hands[seat]
    if working.new_line_slot(state, seat) == NO_SEAT:
        allowed, opened = level(state, seat).lines, open_lines(state, seat)
        return f"a new line needs an empty line slot and fewer open lines than your level allows ({opened} open, {allowed} allowed)"
    has_script = any(card in table.scripts for card in hand)
    has_card = any(card in table.production for card in hand)
    if not (has_script and has_card):
        held = "neither" if not (has_script or has_card) else "no production card" if has_script else "no script"
        return f"a new line needs a script and a production card in your hand; you hold {held}"
    return f"before your placement, {_NO_SPACE_AFTER} any new line you could start now ({_WHY_PLACE})"


def _produce_refusal(state: MovieEmpireState, seat: int, action: Produce) -> str:
    if state.turn_produced:
        return "you already produced this turn (one produce step per turn)"
    if action.line == NEW_LINE:
        return _new_line_refusal(state, seat)
    index = int(action.line) - 1 if action.line.isdigit() else -1
    line = state.lines[seat][index] if index in (0, 1) else None
    if line is None:
        return f"you have no line {action.line}"
    if line.shut:
        return f"line {action.line} is shut down; no cards may be laid into it"
    if line.locked:
        return f"line {action.line} was designated by a release this round and is locked"
    if not lay_actions(state.table, line, state.hands[seat]):
        return f"no card of your hand can be laid into line {action.line}"
    return f"before your placement, {_NO_SPACE_AFTER} any lays into line {action.line} ({_WHY_PLACE})"


def _pass_refusal(state: MovieEmpireState, seat: int, action: Pass) -> str:
    if state.turn_acted and not state.turn_produced and not working.can_place(state, seat):
        return "you used your dossier this turn and a produce step can still open a space, so you must produce and place (R53, R67)"
    return "you produced or used your dossier this turn, so you must place an assistant"


def _done_refusal(state: MovieEmpireState, seat: int, action: Done) -> str:
    if state.lays:
        return "before your placement, the produce step must first open a space for you to place on: lay on (R67)"
    return "lay at least one card before 'done'"


def _dossier_refusal(state: MovieEmpireState, seat: int, action: Purge | Cut | Block) -> str:
    if state.clean:
        return "there are no dossiers in Clean Hands"
    if state.dossier[seat] == NO_SEAT:
        return "you have no dossier"
    if state.dossier[seat] >= state.round:
        return "a dossier is usable only from the round after you took it"
    if isinstance(action, Block):
        return "block a free space, after your placement" if state.turn_placed else "Block comes after your placement"
    if isinstance(action, Cut):
        if not working.placement_this_turn(state, seat):
            return "Cut! needs a turn with a placement, and you cannot place an assistant this turn, even after a produce step (R53)"
        return f"{action.space} does not hold another player's release assistant that is not already cut"
    return "you cannot place an assistant this turn, even after a produce step or a Purge, so you must pass (free actions need a placement)"


_EXEMPT_REFUSALS = {
    "free": "only levels +3 to +5 ignore the plan for free",
    "dossier": "you have no usable dossier",
    "pay": "you need 4 money to pay",
}
_PICK_LISTED = "choose from the cards listed (the right number of them)"

#: Why an action of each type is refused, once it is of a type the decision takes.
_REFUSALS: dict[type[Action], Callable[[MovieEmpireState, int, Any], str]] = {
    Place: _place_refusal,
    Lay: _lay_refusal,
    Stack: _lay_refusal,
    Star: _lay_refusal,
    Script: _script_refusal,
    Produce: _produce_refusal,
    Pass: _pass_refusal,
    End: lambda state, seat, action: "place an assistant (or pass) before ending your turn",
    Done: _done_refusal,
    Purge: _dossier_refusal,
    Cut: _dossier_refusal,
    Block: _dossier_refusal,
    Discard: lambda state, seat, action: f"{state.table.card_name(action.card)} is not in your hand",
    Stop: lambda state, seat, action: f"you hold {len(state.hands[seat])} cards; discard down to {hand_limit(state)} first",
    Shut: lambda state, seat, action: f"line {action.line} is not one of your open lines",
    Market: lambda state, seat, action: f"{action.market} is not free; choose one of {', '.join(premiere.free_markets(state))}",
    Net: lambda state, seat, action: (
        "that line may not premiere on the Internet now (it takes an open line that may be released, and 2 money)"
    ),
    Exempt: lambda state, seat, action: _EXEMPT_REFUSALS.get(action.way, "declare decline, free, dossier or pay"),
    Keep: lambda state, seat, action: _PICK_LISTED,
    Give: lambda state, seat, action: _PICK_LISTED,
    Release: lambda state, seat, action: working.release_problem(state, seat, action.line - 1) or "that line cannot be released",
    Swap: lambda state, seat, action: "give a production card from your hand",
    Take: lambda state, seat, action: "take a card from a production slot that holds one you may take",
}
