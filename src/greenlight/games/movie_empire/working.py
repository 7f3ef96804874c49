"""The working phase (§4.2-§4.6): spaces and their tasks, the produce step, dossier free actions.

A turn is a short sequence of small decisions: the turn menu (pass, place,
produce, purge, cut, block, end), the sub-decisions of a placement (swap card
and slot, release line, Sabotage keep) and the lays of a produce step.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations, groupby
from operator import and_

from greenlight.core.actions import Action, shared
from greenlight.core.events import Event
from greenlight.games.movie_empire.actions import (
    DONE,
    END,
    NEW_LINE,
    PASS,
    PURGE,
    Block,
    Cut,
    Keep,
    Lay,
    Place,
    Produce,
    Release,
    Script,
    Stack,
    Star,
    Swap,
    Take,
)
from greenlight.games.movie_empire.cards import (
    T_CREDIT,
    T_DENOUNCE,
    T_FIRST_PLAYER,
    T_NICE,
    T_NICE_DOSSIER,
    T_OVERTIME,
    T_PRODUCTION,
    T_RELEASE,
    T_REVEAL,
    T_SABOTAGE,
    T_SCRIPT,
    T_STAR,
    TASKS,
    AnnualPlan,
    Requirement,
    Space,
    Tables,
)
from greenlight.games.movie_empire.effects import (
    change_sympathy,
    discard_card,
    draw_production,
    gain_cards,
    queue_checks,
    remove_from_hand,
    spend_dossier,
    usable_dossier,
)
from greenlight.games.movie_empire.events import (
    Blocked,
    CutSaid,
    DossierTaken,
    Drew,
    DrewCount,
    Laid,
    LineStarted,
    Purged,
    ReleaseDesignated,
    SabotageDiscarded,
    Swapped,
    card_taken_event,
    discarded_event,
    placed_event,
)
from greenlight.games.movie_empire.lines import Line, apply_lay, has_lay, holds, lay_actions, metrics, with_flags
from greenlight.games.movie_empire.state import (
    NO_SEAT,
    SUB_NONE,
    SUB_RELEASE,
    SUB_SABOTAGE_KEEP,
    SUB_SWAP_CARD,
    SUB_SWAP_SLOT,
    MovieEmpireState,
)

ASSISTANTS = 4
#: Hire fee by the number of assistants already placed this round (§2.2): 2 free, then 3, then 4.
HIRE_FEES = (0, 0, 3, 4)
OVERTIME_DRAW = 2
SABOTAGE_DRAW, SABOTAGE_KEEP = 5, 2

Lays = Lay | Stack | Star


# -- shared action instances (legal lists reuse them instead of allocating) -----------------


#: The shared ``Place``, ``Block``, ``Cut`` and ``Take`` value of a space.
place_action = shared(Place)
block_action = shared(Block)
cut_action = shared(Cut)
take_action = shared(Take)
script_action = shared(Script)
swap_action = shared(Swap)


# -- plans and releases ----------------------------------------------------------------------


def plan_for(state: MovieEmpireState, seat: int) -> AnnualPlan | None:
    """The annual plan that binds ``seat`` this round (None if none is in force or the seat is exempt, §4.1)."""
    if state.plan is None or state.exempt[seat]:
        return None
    return state.table.plans[state.plan]


def plan_blocks_release(state: MovieEmpireState, seat: int, line: Line) -> bool:
    """The release restriction of AP01-03, AP07, AP08 (also on NET, R39)."""
    plan = plan_for(state, seat)
    return plan is not None and plan.effect == "release_requirement" and not holds(plan.release_requirement, metrics(state.table, line))


def release_problem(state: MovieEmpireState, seat: int, index: int) -> str | None:
    """Why ``release_ok`` fails for line ``index`` (§4.3), or None."""
    line = state.lines[seat][index] if 0 <= index < 2 else None
    if line is None:
        return f"you have no production line {index + 1}"
    if line.shut:
        return f"line {index + 1} is shut down; it cannot be released"
    if line.locked:
        return f"line {index + 1} was already designated by a release this round"
    if 1 not in line.stages:
        return "a movie needs at least one shooting (blue) card to be released"
    if plan_blocks_release(state, seat, line):
        plan = state.table.plans[state.plan or ""]
        return f"the annual plan “{plan.text}” forbids releasing this movie"
    return None


def release_ok(state: MovieEmpireState, seat: int, index: int) -> bool:
    """Whether line ``index`` may be released (§4.3): ``release_problem`` is None, without wording the problem."""
    line = state.lines[seat][index] if 0 <= index < 2 else None
    return line is not None and not line.shut and not line.locked and 1 in line.stages and not plan_blocks_release(state, seat, line)


def releasable(state: MovieEmpireState, seat: int) -> list[int]:
    """Line indexes that pass ``release_ok``."""
    return [index for index in (0, 1) if release_ok(state, seat, index)]


# -- spaces ----------------------------------------------------------------------------------

# How ``available_places`` treats a space (its task, with the tasks that need no check of their own merged).
K_PLAIN, K_PRODUCTION, K_SCRIPT, K_STAR, K_SABOTAGE, K_NICE, K_NICE_DOSSIER, K_REVEAL, K_RELEASE = range(9)
_KINDS = {
    T_PRODUCTION: K_PRODUCTION,
    T_SCRIPT: K_SCRIPT,
    T_STAR: K_STAR,
    T_SABOTAGE: K_SABOTAGE,
    T_NICE: K_NICE,
    T_NICE_DOSSIER: K_NICE_DOSSIER,
    T_REVEAL: K_REVEAL,
    T_RELEASE: K_RELEASE,
}
#: The order in which ``can_place`` looks at the kinds of space (the order of the placements does not matter there).
_FIRST_CHECKED = (K_PLAIN, K_SCRIPT, K_NICE, K_REVEAL, K_PRODUCTION, K_STAR, K_NICE_DOSSIER, K_RELEASE, K_SABOTAGE)
#: A placement row: space index, task, the space's money, its surcharge, ``place X`` and ``place X dossier``.
PlaceRow = tuple[int, int, int, int, Place, Place]
#: Consecutive spaces of one kind: the kind and their rows.
Segment = tuple[int, tuple[PlaceRow, ...]]


class Board:
    """The spaces in use at one player count and variant, read once into the forms the per-move loops use.

    Everything here follows from the tables, so one board serves every state
    of that table, player count and variant (``board_of``).
    """

    __slots__ = (
        "block_rows",
        "by_task",
        "card_slots",
        "cut_rows",
        "lay_targets",
        "production",
        "production_indexes",
        "releases",
        "segments",
        "spaces",
    )

    def __init__(self, spaces: tuple[Space, ...]) -> None:
        """Read ``spaces`` (the spaces in use, in board order)."""
        self.spaces = spaces
        #: Production slots, PS1 first (R69), and release spaces top to bottom (R36).
        self.production = tuple(space for space in spaces if space.task == T_PRODUCTION)
        self.production_indexes = tuple(space.index for space in self.production)
        self.releases = tuple(space for space in spaces if space.task == T_RELEASE)
        #: The spaces of each task, in board order.
        self.by_task = {task: tuple(space for space in spaces if space.task == task) for task in range(len(TASKS))}
        #: The spaces that hold a card (production, script and star slots), in board order.
        self.card_slots = tuple(space for space in spaces if space.task in (T_PRODUCTION, T_SCRIPT, T_STAR))
        #: The spaces a lay can open (SB1 and the release spaces, see ``lay_targets``).
        self.lay_targets = tuple(space for space in spaces if space.task in (T_SABOTAGE, T_RELEASE))
        #: The placement rows in board order, in runs of one kind (the loop then branches once per run).
        self.segments: tuple[Segment, ...] = tuple(
            (kind, tuple((s.index, s.task, s.money, s.surcharge, place_action(s.id, False), place_action(s.id, True)) for s in run))
            for kind, run in groupby(spaces, key=lambda space: _KINDS.get(space.task, K_PLAIN))
        )
        self.cut_rows = tuple((space.index, cut_action(space.id)) for space in self.releases)
        self.block_rows = tuple((space.index, block_action(space.id)) for space in spaces)


#: A ``Scan`` row of a space that needs only to be free and paid for (``K_OPEN``): space index, the money needed
#: (after the hire fee) by what the space holds, the money needed for anything else, and ``place X``. The money
#: needed is ``UNAVAILABLE`` where what the space holds makes it unavailable (an empty card slot, a card the plan
#: forbids), which no money reaches.
OpenRow = tuple[int, dict[str | None, float], float, Place]
#: A ``Scan`` row of any other space: space index, the money needed after the hire fee, ``place X``, ``place X dossier``.
SpaceRow = tuple[int, int, Place, Place]
#: Consecutive spaces of one kind in a ``Scan``: the kind and their rows (``OpenRow`` on ``K_OPEN``, else ``SpaceRow``).
ScanSegment = tuple[int, tuple[OpenRow, ...], tuple[SpaceRow, ...]]
#: A ``Scan`` kind: a space that needs only to be free and paid for (plain, production, script and star spaces).
K_OPEN = 9
_OPEN_KINDS = (K_PLAIN, K_PRODUCTION, K_SCRIPT, K_STAR)
#: The money needed for a space that is unavailable: more than any amount (``money >= UNAVAILABLE`` never holds).
UNAVAILABLE = float("inf")
#: Price by what a space holds, with the price of anything else (None: unavailable), of the kinds of ``K_OPEN``
#: rows with fixed prices. Whatever a plain space holds (nothing, in a real game) is free, as ``place_problem``
#: never looks; a script slot only needs a script on it (it costs nothing), an empty one is unavailable.
_PLAIN_PRICES: tuple[dict[str | None, int | None], int | None] = ({}, 0)
_SCRIPT_PRICES: tuple[dict[str | None, int | None], int | None] = ({None: None}, 0)


def _needed(need: int, price: int | None) -> float:
    """The money needed for a space whose task needs ``need`` and whose card costs ``price`` (None: unavailable)."""
    return UNAVAILABLE if price is None else need + price


class Scan:
    """A board's placement rows under one annual plan, read once into what ``_scan_places`` tests per move.

    Spaces of a task the plan forbids are left out (``place_problem`` refuses them first); the rest keep the
    board's order (``segments``) and the order that finds an open space soonest (``first_segments``). The spaces
    that need only to be free and paid for share one test (``K_OPEN``: is the money needed for what the space
    holds, the card's price included, at hand), so consecutive runs of them are merged. ``full`` and ``first``
    are the two scans written out as code (``_write_scan``).
    """

    __slots__ = ("board", "first", "first_segments", "forbidden_stage", "full", "release_requirement", "segments")

    def __init__(self, board: Board, table: Tables, plan: AnnualPlan | None) -> None:
        """The rows of ``board`` under ``plan`` (None: no plan binds the seat) of ``table``."""
        self.board = board
        forbidden_tasks: frozenset[int] = _NO_TASKS
        self.forbidden_stage = NO_STAGE_FORBIDDEN
        #: What a line must meet to be released under the plan (``plan_blocks_release``), None for any line.
        self.release_requirement = plan.release_requirement if plan is not None and plan.effect == "release_requirement" else None
        if plan is not None and plan.effect == "forbid_task":
            forbidden_tasks = plan.forbidden_tasks
        elif plan is not None and plan.effect == "forbid_take_stage":
            self.forbidden_stage = plan.forbidden_stage
        # A production card of a stage the plan forbids taking, an empty slot and a star's absence have no price.
        stage = self.forbidden_stage
        production: dict[str | None, int | None] = {card.id: card.cost for card in table.production.values() if card.stage != stage}
        stars: dict[str | None, int | None] = {star.id: star.cost for star in table.stars.values()}
        prices = {K_PLAIN: _PLAIN_PRICES, K_SCRIPT: _SCRIPT_PRICES, K_PRODUCTION: (production, None), K_STAR: (stars, None)}
        by_kind: list[ScanSegment] = []  # the board's runs, each kind its own
        for kind, rows in board.segments:
            kept = [row for row in rows if row[1] not in forbidden_tasks]
            if not kept:
                continue
            if kind in _OPEN_KINDS:
                price_of, other = prices.get(kind, _PLAIN_PRICES)
                open_rows = []
                for index, _, money, surcharge, plain, _ in kept:
                    need = surcharge - money if kind == K_PRODUCTION else -money
                    needed = {card: _needed(need, price) for card, price in price_of.items()}
                    open_rows.append((index, needed, _needed(need, other), plain))
                by_kind.append((kind, tuple(open_rows), ()))
            else:
                space_rows = tuple((index, -money, plain, with_dossier) for index, _, money, _, plain, with_dossier in kept)
                by_kind.append((kind, (), space_rows))
        in_order = sorted(by_kind, key=lambda run: _FIRST_CHECKED.index(run[0]))
        self.first_segments: tuple[ScanSegment, ...] = _merge_open(in_order)
        self.segments: tuple[ScanSegment, ...] = _merge_open(by_kind)
        #: The scans of ``segments`` and of ``first_segments`` (stopping at the first placement), written out.
        plan_id = plan.id if plan is not None else None
        self.full = _write_scan(self, table, plan_id, self.segments, first_only=False)
        self.first = _write_scan(self, table, plan_id, self.first_segments, first_only=True)


#: A scan written out for one ``Scan``: (state, seat, taken, cards, money, skip_hand_dependent) to what
#: ``_scan_places`` returns (see ``_write_scan``).
ScanFunction = Callable[[MovieEmpireState, int, list[int], list[str | None], int, bool], tuple[list[Action], bool]]


def _write_scan(scan: Scan, table: Tables, plan_id: str | None, segments: tuple[ScanSegment, ...], first_only: bool) -> ScanFunction:
    """The rows of ``segments`` tested one after the other in straight code, compiled once per ``Scan``.

    Each row becomes an ``if`` on its own space index and amounts, so a scan runs no loop over rows, unpacks no
    row and dispatches on no kind (a third less time than that loop took for a whole scan; the placement scan
    was a fifth of a 4-player random playout). ``taken`` holds ``NO_SEAT`` on the spaces that are free (neither
    an assistant nor a dossier on them), ``cards`` what each space holds, ``money`` what is left after the hire
    fee (never negative). The code is made from the rows' numbers and the names below only, as the clone of a
    state is (``greenlight.core.state``); tests check its answers against ``place_problem`` on positions changed
    at random (money, plan, dossiers, covers).
    """
    names: dict[str, object] = {
        "_some_release": _some_release,
        "_takeable_exists": _takeable_exists,
        "_table": table,
        "_board": scan.board,
        "_requirement": scan.release_requirement,
        "_stage": scan.forbidden_stage,
        "_production": table.production.keys(),
    }
    body: list[str] = []

    def found(row: int, action: str, static: str, pad: str) -> None:
        """Append ``action`` (the name of ``place X`` or ``place X dossier`` of ``row``), or return it at once."""
        if first_only:
            body.append(f"{pad}return [{action}], {static}")
        else:
            body.append(f"{pad}add({action})")
            if static == "True":
                body.append(f"{pad}static = True")

    def usable(pad: str) -> None:
        """``usable_dossier``, inlined (R51), asked once, at the first space that takes a dossier."""
        body.append(f"{pad}if usable is None:")
        body.append(f"{pad}    dossier = state.dossier[seat]")
        body.append(f"{pad}    usable = dossier != {NO_SEAT} and dossier < state.round and not state.clean")

    for kind, open_rows, space_rows in segments:
        if kind == K_OPEN:
            for index, needed, other, plain in open_rows:
                names[f"P{index}"] = plain
                test = f"taken[{index}] == {NO_SEAT}"
                if needed == {None: UNAVAILABLE}:  # a script slot: anything on it will do
                    test += f" and cards[{index}] is not None"
                elif needed:
                    names[f"N{index}"], names[f"O{index}"] = needed, other
                    test += f" and money >= N{index}.get(cards[{index}], O{index})"
                if other == UNAVAILABLE and not needed:
                    continue  # nothing makes it available
                if not needed or needed == {None: UNAVAILABLE}:
                    test += f" and money >= {other!r}" if other > 0 else ""
                body.append(f"    if {test}:")
                found(index, f"P{index}", "True", "        ")
            continue
        if kind == K_RELEASE:
            body.append("    if not skip_hand_dependent:")
            body.append("        some_release = None  # whether some line may be released, found at the first free release space")
        for index, need, plain, with_dossier in space_rows:
            names[f"P{index}"], names[f"D{index}"] = plain, with_dossier
            test = f"taken[{index}] == {NO_SEAT}" + (f" and money >= {need}" if need > 0 else "")
            if kind == K_RELEASE:
                body.append(f"        if {test}:")
                body.append("            if some_release is None:")
                body.append("                some_release = _some_release(state, seat, _table, _requirement)")
                body.append("            if some_release:")
                found(index, f"P{index}", "False", "                ")
                continue
            body.append(f"    if {test}:")
            if kind == K_SABOTAGE:
                usable("        ")
                body.append("        if (")
                body.append("            not skip_hand_dependent")
                body.append("            and not _production.isdisjoint(state.hands[seat])  # holds a production card")
                body.append("            and _takeable_exists(state, _board, _stage)")
                body.append("        ):")
                found(index, f"P{index}", "False", "            ")
                body.append("        if usable:")
                found(index, f"D{index}", "True", "            ")
            elif kind == K_NICE:
                usable("        ")
                if first_only:
                    body.append(f"        return ([P{index}, D{index}] if usable else [P{index}]), True")
                else:
                    body.append(f"        add(P{index})")
                    body.append("        if usable:")
                    body.append(f"            add(D{index})")
                    body.append("        static = True")
            elif kind == K_NICE_DOSSIER:
                usable("        ")
                body.append("        if usable:")
                found(index, f"D{index}", "True", "            ")
            else:
                assert kind == K_REVEAL
                body.append(f"        if state.dossier[seat] == {NO_SEAT}:")
                found(index, f"P{index}", "True", "            ")
    head = ["def scan(state, seat, taken, cards, money, skip_hand_dependent):", "    usable = None"]
    if first_only:
        lines = [*head, *body, "    return [], False"]
    else:
        lines = [*head, "    places = []", "    add = places.append", "    static = False", *body, "    return places, static"]
    # Written from the rows' numbers and the names above only; named so that a traceback or a profile says which scan.
    source = "\n".join(lines)
    name = f"<Movie Empire placement scan: {len(scan.board.spaces)} spaces, {plan_id or 'no plan'}{', first only' if first_only else ''}>"
    exec(compile(source, name, "exec"), names)
    function: ScanFunction = names["scan"]  # type: ignore[assignment]
    return function


def _merge_open(runs: list[ScanSegment]) -> tuple[ScanSegment, ...]:
    """``runs`` with each kind of ``_OPEN_KINDS`` named ``K_OPEN`` and consecutive ``K_OPEN`` runs joined (order kept)."""
    merged: list[ScanSegment] = []
    for kind, open_rows, space_rows in runs:
        if kind in _OPEN_KINDS:
            if merged and merged[-1][0] == K_OPEN:
                merged[-1] = (K_OPEN, merged[-1][1] + open_rows, ())
                continue
            kind = K_OPEN
        merged.append((kind, open_rows, space_rows))
    return tuple(merged)


_boards: dict[tuple[Tables, int, object], Board] = {}
#: The ``Scan`` of each board (the key of ``_boards``) under each plan (None: no plan), as ``_scan_places`` looks it up.
_scans: dict[tuple[Tables, int, object, str | None], Scan] = {}


def board_of(state: MovieEmpireState) -> Board:
    """The board of ``state``'s tables, player count and variant (built on first use, then shared)."""
    # Keyed by the option's value as the state holds it, so the lookup needs no call to ``state.clean``.
    key = (state.table, state.num_players, state.options.get("clean_hands"))
    board = _boards.get(key)
    if board is None:
        board = _boards[key] = Board(state.table.spaces_in_use(state.num_players, state.clean))
    return board


def production_slots(state: MovieEmpireState) -> tuple[Space, ...]:
    """Production slots in use, PS1 first (R69)."""
    return board_of(state).production


def in_use(state: MovieEmpireState) -> tuple[Space, ...]:
    """Action spaces in use for this player count and variant."""
    return state.table.spaces_in_use(state.num_players, state.clean)


def may_take(state: MovieEmpireState, seat: int, card: str) -> bool:
    """AP04: a non-exempt player may not take a card of the forbidden printed stage from a slot (R49)."""
    plan = plan_for(state, seat)
    return plan is None or plan.effect != "forbid_take_stage" or state.table.production[card].stage != plan.forbidden_stage


def _forbidden_stage(state: MovieEmpireState, seat: int) -> int:
    """The printed stage AP04 forbids ``seat`` to take from a slot, or ``NO_STAGE_FORBIDDEN``."""
    plan = plan_for(state, seat)
    return plan.forbidden_stage if plan is not None and plan.effect == "forbid_take_stage" else NO_STAGE_FORBIDDEN


def takeable_slots(state: MovieEmpireState, seat: int) -> list[Space]:
    """Production slots whose card the Sabotage swap may take (§4.3 a)."""
    forbidden_stage = _forbidden_stage(state, seat)
    production, cards, blocked = state.table.production, state.slot_card, state.blocked
    return [
        space
        for space in board_of(state).production
        if (card := cards[space.index]) is not None and blocked[space.index] == NO_SEAT and production[card].stage != forbidden_stage
    ]


def _any_takeable(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``takeable_slots`` is not empty (without listing them)."""
    return _takeable_exists(state, board_of(state), _forbidden_stage(state, seat))


def _takeable_exists(state: MovieEmpireState, board: Board, forbidden_stage: int) -> bool:
    production, cards, blocked = state.table.production, state.slot_card, state.blocked
    for index in board.production_indexes:
        card = cards[index]
        if card is not None and blocked[index] == NO_SEAT and production[card].stage != forbidden_stage:
            return True
    return False


def place_problem(state: MovieEmpireState, seat: int, space: Space, dossier: bool) -> str | None:
    """Why ``seat`` may not place on ``space`` now (§4.2 step 3), or None if it may."""
    index = space.index
    if state.assistant[index] != NO_SEAT:
        return f"{space.id} already holds an assistant"
    if state.blocked[index] != NO_SEAT:
        return f"{space.id} is covered by a dossier this round"
    task = space.task
    if dossier:
        if task not in (T_NICE, T_NICE_DOSSIER, T_SABOTAGE):
            return "a dossier is spent on a placement only at BN1, BN2 or SB1"
        if not usable_dossier(state, seat):
            return "you have no dossier you may use this round (it must be taken in an earlier round)"
    elif task == T_NICE_DOSSIER:
        return f"{space.id} is the dossier space: place {space.id} dossier"
    plan = plan_for(state, seat)
    if plan is not None and plan.effect == "forbid_task" and task in plan.forbidden_tasks:
        return f"the annual plan “{plan.text}” forbids {space.id}"
    placed = state.placed[seat]
    if placed >= ASSISTANTS:
        return "all your assistants are placed"
    money = state.money[seat]
    fee = HIRE_FEES[placed]
    if money < fee:
        return f"your next assistant costs {fee} money; you have {money}"
    money -= fee
    if space.money < 0 and money < -space.money:
        return f"{space.id} costs {-space.money} money after the hire fee; you have {money}"
    money += space.money  # R10: income cannot pay the hire fee, but what is left pays the task
    if task == T_PRODUCTION:
        card_id = state.slot_card[index]
        if card_id is None:
            return f"{space.id} holds no card"
        card = state.table.production[card_id]
        if not may_take(state, seat, card_id):
            return f"the annual plan forbids taking {card.name} (a shooting card)"
        price = card.cost + space.surcharge
        if money < price:
            return f"{card.name} on {space.id} costs {price} money; you have {money}"
    elif task == T_SCRIPT:
        if state.slot_card[index] is None:
            return f"{space.id} holds no script"
    elif task == T_STAR:
        star_id = state.slot_card[index]
        if star_id is None:
            return f"{space.id} holds no star"
        star = state.table.stars[star_id]
        if money < star.cost:
            return f"{star.name} costs {star.cost} money; you have {money}"
    elif task == T_SABOTAGE:
        if not dossier:
            if not any(card in state.table.production for card in state.hands[seat]):
                return "a swap needs a production card in your hand"
            if not takeable_slots(state, seat):
                return "no production slot holds a card you may take"
    elif task == T_REVEAL and state.dossier[seat] != NO_SEAT:
        return "you already hold a dossier (at most one at any time)"
    elif task == T_RELEASE and not releasable(state, seat):
        return "none of your lines may be released now (open, not yet designated, with a blue card, allowed by the plan)"
    return None


def available_places(state: MovieEmpireState, seat: int, *, skip_hand_dependent: bool = False) -> list[Action]:
    """Every legal placement (§4.2 step 3); ``skip_hand_dependent`` leaves out the SB1 swap and releases.

    This is the fast path of ``place_problem`` (same rules, checked once per call
    where possible); a test checks that the two always agree.
    """
    return _scan_places(state, seat, skip_hand_dependent, False)[0]


def can_place(state: MovieEmpireState, seat: int) -> bool:
    """Whether any placement is available now (stops at the first)."""
    return bool(_scan_places(state, seat, False, True)[0])


def _scan_places(state: MovieEmpireState, seat: int, skip_hand_dependent: bool, first_only: bool) -> tuple[list[Action], bool]:
    """The placements of ``available_places`` (only the first one with ``first_only``), and whether one is static.

    A static placement is one no lay can take away: not a release, not the SB1 swap (see ``Reach``).
    The rows come from the board's ``Scan`` for the plan binding ``seat`` (spaces of forbidden tasks left out,
    the prices of the cards it may take by card), written out as code, so a scan tests only what changes
    from move to move.
    """
    placed = state.placed[seat]
    if placed >= ASSISTANTS:
        return [], False
    money = state.money[seat] - HIRE_FEES[placed]
    if money < 0:
        return [], False  # the hire fee alone is too much
    # R10: income cannot pay the hire fee (so money >= 0 from here), but what is left pays the task.
    table = state.table
    plan = state.plan if not state.exempt[seat] else None  # plan_for, as the key of its scan
    # One lookup finds the scan of the board (``board_of``) under that plan.
    key = (table, state.num_players, state.options.get("clean_hands"), plan)
    scan = _scans.get(key)
    if scan is None:
        scan = _scans[key] = Scan(board_of(state), table, table.plans[plan] if plan is not None else None)
    # A space is taken when it holds an assistant or a dossier covers it; dossiers rarely do (R54), so the rows
    # usually test the assistants alone, and otherwise one list merges both: NO_SEAT is -1 (every bit set) and
    # seats are >= 0, so ``holder & cover`` is NO_SEAT only on a space neither held nor covered (``and_`` maps
    # in C, four times quicker than ``max``).
    taken, blocked = state.assistant, state.blocked
    if blocked.count(NO_SEAT) != len(blocked):
        taken = list(map(and_, taken, blocked))
    return (scan.first if first_only else scan.full)(state, seat, taken, state.slot_card, money, skip_hand_dependent)


def _some_release(state: MovieEmpireState, seat: int, table: Tables, requirement: Requirement | None) -> bool:
    """Whether some line of ``seat`` may be released (``release_ok`` of line 1 or 2); ``requirement``: the plan's, if any."""
    for line in state.lines[seat]:
        if (
            line is not None
            and not line.shut
            and not line.locked
            and 1 in line.stages
            and (requirement is None or holds(requirement, metrics(table, line)))  # plan_blocks_release, read once per scan
        ):
            return True
    return False


NO_STAGE_FORBIDDEN = -2
_NO_TASKS: frozenset[int] = frozenset()


def holds_production(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``seat``'s hand holds a production card."""
    return not state.table.production.keys().isdisjoint(state.hands[seat])


def purge_could_open(state: MovieEmpireState, seat: int) -> bool:
    """Whether a Purge could make a placement available to ``seat`` (R67), judged on public facts only.

    Used when no placement is available before the placement, since free
    actions need a placement (§4.4, R53). A Purge changes only the cards on the
    uncovered production slots without an assistant, and any production card
    may come up there: it can open such a slot if the seat could afford the
    cheapest card it may take. (The Sabotage swap needs no check: a seat that
    may Purge holds a usable dossier, so a free SB1 is already open to it.)
    """
    placed = state.placed[seat]
    if placed >= ASSISTANTS or state.money[seat] < HIRE_FEES[placed]:
        return False
    money = state.money[seat] - HIRE_FEES[placed]
    plan = plan_for(state, seat)
    if plan is not None and plan.effect == "forbid_task" and T_PRODUCTION in plan.forbidden_tasks:
        return False
    cheapest = _cheapest_card(state.table, _forbidden_stage(state, seat))
    return cheapest is not None and any(
        money + space.money >= cheapest + space.surcharge
        for space in board_of(state).production
        if state.assistant[space.index] == NO_SEAT and state.blocked[space.index] == NO_SEAT
    )


@cache
def _cheapest_card(table: Tables, forbidden_stage: int) -> int | None:
    """The lowest cost of a production card whose printed stage is not ``forbidden_stage`` (None if there is none)."""
    return min((card.cost for card in table.production.values() if card.stage != forbidden_stage), default=None)


# -- the produce step (§4.6) -------------------------------------------------------------------


def new_line_slot(state: MovieEmpireState, seat: int) -> int:
    """The empty line slot a new line would use, or -1 if a new line is not allowed (§4.6.2, R29)."""
    opened, slot = 0, NO_SEAT
    for index, line in enumerate(state.lines[seat]):
        if line is None:
            if slot == NO_SEAT:
                slot = index
        elif line.shut:
            return NO_SEAT  # a shut line must reopen before a new one starts (R29)
        else:
            opened += 1
    return NO_SEAT if opened >= state.table.sympathy[state.sympathy[seat]].lines else slot


def _without(cards: list[str], card: str) -> list[str]:
    """``cards`` with one copy of ``card`` taken out."""
    rest = list(cards)
    rest.remove(card)
    return rest


def lay_targets(state: MovieEmpireState, seat: int) -> tuple[bool, bool]:
    """(Sabotage swap, release) placements that pass every check a lay cannot change (§4.2 step 3).

    Laying changes only the hand and one line, so of all placements only the
    SB1 swap (it needs a production card in the hand) and the release spaces
    (they need a line passing ``release_ok``) can depend on it. The first value
    says the swap opens as soon as the hand holds a production card, the
    second that a release space opens as soon as some line may be released.
    """
    placed = state.placed[seat]
    if placed >= ASSISTANTS:
        return False, False
    money = state.money[seat] - HIRE_FEES[placed]
    if money < 0:
        return False, False
    plan = plan_for(state, seat)
    forbidden_tasks: frozenset[int] = plan.forbidden_tasks if plan is not None and plan.effect == "forbid_task" else frozenset()
    swap = release = False
    for space in board_of(state).lay_targets:
        task = space.task
        if task in forbidden_tasks:
            continue
        index = space.index
        if state.assistant[index] != NO_SEAT or state.blocked[index] != NO_SEAT:
            continue
        if space.money < 0 and money < -space.money:
            continue
        if task == T_RELEASE:
            release = True
        elif _any_takeable(state, seat):
            swap = True
    return swap, release


class Reach:
    """Which lays into one line can still lead to a placement before the placement (R16, R33, R67).

    Built only when no placement that a lay cannot remove is available
    (``_needs_lookahead``). A lay, or a new line's script, is then legal when
    some continuation of the same produce step (further lays into that line,
    in any order) leaves a placement available; a hand holds at most 4 cards,
    so every order is searched, memoised on (line, cards left). ``open_after``
    is the test at the end of such a sequence, and the produce step may end
    (``done``) before the placement only once it holds.
    """

    __slots__ = ("memo", "release", "seat", "state", "swap")

    def __init__(self, state: MovieEmpireState, seat: int) -> None:
        """The lookahead for ``seat`` in ``state`` (its lines and hand as they are now)."""
        self.state = state
        self.seat = seat
        self.swap, self.release = lay_targets(state, seat)
        self.memo: dict[tuple[int, Line, tuple[str, ...]], bool] = {}

    @property
    def hopeless(self) -> bool:
        """No lay can open any placement: neither the swap nor a release space is otherwise open."""
        return not (self.swap or self.release)

    def open_after(self, index: int, line: Line, hand: list[str]) -> bool:
        """Whether a placement is available once line ``index`` is ``line`` (open, unlocked) and ``hand`` is left."""
        state = self.state
        if self.swap and any(card in state.table.production for card in hand):
            return True
        if not self.release:
            return False
        if 1 in line.stages and not plan_blocks_release(state, self.seat, line):
            return True  # release_ok: the line is open and unlocked, with a blue card, allowed by the plan (§4.3)
        return release_ok(state, self.seat, 1 - index)  # the other line, which no lay changes

    def reaches(self, index: int, line: Line, hand: list[str]) -> bool:
        """Whether a placement is available after line ``index`` becomes ``line``, now or after more lays into it (R67)."""
        key = (index, line, tuple(sorted(hand)))
        found = self.memo.get(key)
        if found is None:
            table = self.state.table
            found = self.open_after(index, line, hand) or any(
                self.reaches(index, apply_lay(table, line, lay), _without(hand, lay.card)) for lay in lay_actions(table, line, hand)
            )
            self.memo[key] = found
        return found

    def opening_lays(self, index: int, line: Line, hand: list[str]) -> list[Lays]:
        """The legal lays of ``hand`` into ``line`` after which a placement is reachable."""
        if self.hopeless:
            return []
        table = self.state.table
        return [lay for lay in lay_actions(table, line, hand) if self.reaches(index, apply_lay(table, line, lay), _without(hand, lay.card))]

    def any_opening_lay(self, index: int, line: Line, hand: list[str]) -> bool:
        """Whether ``opening_lays`` is not empty (stops at the first)."""
        if self.hopeless:
            return False
        table = self.state.table
        return any(self.reaches(index, apply_lay(table, line, lay), _without(hand, lay.card)) for lay in lay_actions(table, line, hand))


def _needs_lookahead(state: MovieEmpireState, seat: int) -> bool:
    """Before the placement, lays must lead to a placement (R16, R67); usually one is available, whatever is laid."""
    return not state.turn_placed and not _scan_places(state, seat, True, True)[0]


def line_lays(state: MovieEmpireState, seat: int, index: int, reach: Reach | None) -> list[Lays]:
    """Legal lays into line ``index`` (existing, open, unlocked); with ``reach`` only those leading to a placement."""
    line = state.lines[seat][index]
    assert line is not None
    if reach is not None:
        return reach.opening_lays(index, line, state.hands[seat])
    return lay_actions(state.table, line, state.hands[seat])


def new_line_scripts(state: MovieEmpireState, seat: int, index: int, reach: Reach | None, *, first_only: bool = False) -> list[Action]:
    """Scripts that can start a new line in slot ``index`` (some first card must follow, R17).

    With ``reach`` (before the placement), only scripts with which some
    sequence of lays leads to a placement (R67). ``first_only`` stops at the first.
    """
    hand = state.hands[seat]
    table = state.table
    if table.production.keys().isdisjoint(hand):
        return []
    if reach is not None and reach.hopeless:
        return []
    scripts: list[Action] = []
    for card in dict.fromkeys(hand):
        if card not in table.scripts:
            continue
        if reach is not None and not reach.any_opening_lay(index, Line(card), _without(hand, card)):
            continue
        scripts.append(script_action(card))
        if first_only:
            break
    return scripts


#: ``release 1`` and ``release 2`` by line index.
RELEASES = (Release(1), Release(2))
#: ``produce 1``, ``produce 2`` (by line index) and ``produce new``.
PRODUCE_LINE = (Produce("1"), Produce("2"))
PRODUCE_NEW = Produce(NEW_LINE)


def produce_options(state: MovieEmpireState, seat: int, reach: Reach | None = None, *, first_only: bool = False) -> list[Action]:
    """``produce 1``/``produce 2``/``produce new`` for each target with at least one legal lay.

    ``reach`` is the lookahead before the placement (None when a placement
    that no lay can remove is available, or after the placement).
    ``first_only`` stops at the first target (to know whether there is one).
    """
    options: list[Action] = []
    hand = state.hands[seat]
    table = state.table
    no_production = table.production.keys().isdisjoint(hand)  # asked once: both tests below need it
    if no_production and table.stars.keys().isdisjoint(hand):
        return options  # only production cards and stars are laid, and a new line needs a production card
    for index, line in enumerate(state.lines[seat]):
        if line is None or line.shut or line.locked:
            continue
        if reach.any_opening_lay(index, line, hand) if reach is not None else has_lay(table, line, hand):
            options.append(PRODUCE_LINE[index])
            if first_only:
                return options
    if no_production or table.scripts.keys().isdisjoint(hand):
        return options  # a new line starts with a script from the hand, then a production card (R17)
    slot = new_line_slot(state, seat)
    # Without the lookahead any script of the hand starts the new line (``new_line_scripts``), so a free slot is enough.
    if slot != NO_SEAT and (reach is None or new_line_scripts(state, seat, slot, reach, first_only=True)):
        options.append(PRODUCE_NEW)
    return options


def produce_reach(state: MovieEmpireState, seat: int) -> Reach | None:
    """The lookahead a produce step needs now (R16, R67), or None if whatever is laid a placement stays available."""
    return Reach(state, seat) if _needs_lookahead(state, seat) else None


def produce_step_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """The decisions inside a produce step: the new line's script, then lays, then ``done``.

    Before the placement, ``done`` comes only once the lays have opened a
    placement (R67): a lay that needs a later one is followed by it.
    """
    index = state.target
    line = state.lines[seat][index]
    reach = produce_reach(state, seat)
    if line is None:
        return new_line_scripts(state, seat, index, reach)
    actions: list[Action] = list(line_lays(state, seat, index, reach))
    if state.lays and (reach is None or reach.open_after(index, line, state.hands[seat])):
        actions.append(DONE)
    return actions


def produce_step_over(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``produce_step_actions`` is exactly ``[done]``: nothing more can be laid (found without listing the lays)."""
    index = state.target
    line = state.lines[seat][index]
    if line is None or not state.lays:
        return False  # a script to lay, or no lay yet: ``done`` is not even offered
    reach = produce_reach(state, seat)
    hand = state.hands[seat]
    if reach is None:
        return not has_lay(state.table, line, hand)
    return not reach.any_opening_lay(index, line, hand) and reach.open_after(index, line, hand)


def placement_this_turn(state: MovieEmpireState, seat: int) -> bool:
    """Whether the turn holds or can still hold a placement: made, available now, or opened by a produce step (R53, R67)."""
    if state.turn_placed or can_place(state, seat):
        return True
    return not state.turn_produced and bool(produce_options(state, seat, Reach(state, seat)))


# -- the turn menu (§4.2 step 2, R67, R68) --------------------------------------------------------


def turn_menu(state: MovieEmpireState, seat: int) -> list[Action]:
    """Pass, place, produce, dossier free actions and end, as far as each is allowed now."""
    actions: list[Action] = []
    turn_placed, turn_produced = state.turn_placed, state.turn_produced
    reach: Reach | None = None
    places: list[Action] = []
    if not turn_placed:
        places, static = _scan_places(state, seat, False, False)
        if not static and not turn_produced:  # the lookahead only matters to a produce step still to come
            reach = Reach(state, seat)
    produce = produce_options(state, seat, reach) if not turn_produced else []
    if not turn_placed:
        # R16/R67: once something was done this turn a placement must follow, unless none is possible,
        # not even after a produce step.
        if not (turn_produced or state.turn_acted) or not (places or produce):
            actions.append(PASS)
        actions += places
    actions += produce
    taken = state.dossier[seat]  # usable_dossier, inlined (most seats hold no dossier)
    if taken != NO_SEAT and taken < state.round and not state.clean:
        # R53: free actions only in a turn with a placement: one made or available, or one a produce step opens (R67).
        placement = turn_placed or bool(places) or bool(produce)
        # Before the placement a Purge may also come first if it could open a space itself (R67).
        if placement or purge_could_open(state, seat):
            actions.append(PURGE)
        board = board_of(state)
        assistant = state.assistant
        if placement:
            cut_by = state.cut_by
            for index, cut in board.cut_rows:
                owner = assistant[index]
                if owner != NO_SEAT and owner != seat and cut_by[index] == NO_SEAT:
                    actions.append(cut)
        if turn_placed:  # R53: Block comes after the placement
            blocked = state.blocked
            for index, block in board.block_rows:
                if assistant[index] == NO_SEAT and blocked[index] == NO_SEAT:
                    actions.append(block)
    if turn_placed:
        actions.append(END)
    return actions


def only_pass(state: MovieEmpireState, seat: int) -> bool:
    """Whether ``turn_menu`` is exactly ``[pass]`` for a seat that has not placed and has no placement available.

    ``turn_menu``'s own tests in that case, without listing anything: with no placement, pass is on the menu
    (R67); a produce target joins it only if a lay can open a placement (R16, R67), and with a usable dossier
    Purge joins it only if it could open one itself (R53); Cut!, Block and end need a placement.
    """
    if not state.turn_produced and produce_options(state, seat, Reach(state, seat), first_only=True):
        return False
    taken = state.dossier[seat]  # usable_dossier, inlined (R51)
    return taken == NO_SEAT or taken >= state.round or state.clean or not purge_could_open(state, seat)


def sub_actions(state: MovieEmpireState, seat: int) -> list[Action]:
    """The pending sub-decision of a placement."""
    table = state.table
    if state.sub == SUB_SWAP_CARD:
        return [swap_action(card) for card in dict.fromkeys(state.hands[seat]) if card in table.production]
    if state.sub == SUB_SWAP_SLOT:
        return [take_action(space.id) for space in takeable_slots(state, seat)]
    if state.sub == SUB_RELEASE:
        return [RELEASES[index] for index in releasable(state, seat)]
    assert state.sub == SUB_SABOTAGE_KEEP
    drawn = state.drawn[seat]
    return [Keep(pair) for pair in dict.fromkeys(tuple(sorted(pair)) for pair in combinations(drawn, SABOTAGE_KEEP))]


# -- applying --------------------------------------------------------------------------------------


def apply_place(state: MovieEmpireState, seat: int, action: Place, events: list[Event]) -> None:
    """Hire fee, space money, then the task (§4.2 step 4, R10)."""
    table = state.table
    space = table.space_by_id[action.space]
    fee = HIRE_FEES[state.placed[seat]]
    state.money[seat] += space.money - fee
    state.placed[seat] += 1
    state.assistant[space.index] = seat
    state.turn_placed = True
    events.append(placed_event(seat, space.id, action.dossier, fee, space.money))
    task = space.task
    if task == T_PRODUCTION:
        card = state.slot_card[space.index]
        assert card is not None
        price = table.production[card].cost + space.surcharge
        state.money[seat] -= price
        state.slot_card[space.index] = None
        events.append(card_taken_event(seat, space.id, card, price))
        gain_cards(state, seat, [card], public=True)
    elif task in (T_SCRIPT, T_STAR):
        card = state.slot_card[space.index]
        assert card is not None
        price = table.stars[card].cost if task == T_STAR else 0
        state.money[seat] -= price
        state.slot_card[space.index] = None
        events.append(card_taken_event(seat, space.id, card, price))
        gain_cards(state, seat, [card], public=True)
    elif task == T_OVERTIME:
        draw_blind(state, seat, OVERTIME_DRAW, "overtime", events)
    elif task == T_SABOTAGE:
        if action.dossier:
            spend_dossier(state, seat, "sabotage", events)
            drawn = [card for card in (draw_production(state) for _ in range(SABOTAGE_DRAW)) if card is not None]
            state.drawn[seat] = drawn
            events.append(Event("drew", Drew(seat=seat, cards=list(drawn), source="sabotage"), audience=(seat,)))
            events.append(Event("drew_count", DrewCount(seat=seat, count=len(drawn), source="sabotage")))
            if len(drawn) <= SABOTAGE_KEEP:
                keep_drawn(state, seat, tuple(drawn), events)
            else:
                state.sub = SUB_SABOTAGE_KEEP
        else:
            state.sub = SUB_SWAP_CARD
    elif task == T_DENOUNCE:
        others = [other for other in state.turn_order() if other != seat]
        for other in others:
            change_sympathy(state, other, -1, events, "denounced")
        queue_checks(state, others)  # V5: the victims check at once, in turn order
    elif task in (T_NICE, T_NICE_DOSSIER):
        if action.dossier:
            spend_dossier(state, seat, "be nice", events)
        change_sympathy(state, seat, 2 if action.dossier else 1, events, "be nice")  # R9
        queue_checks(state, [seat])
    elif task == T_REVEAL:
        state.dossier[seat] = state.round  # usable from the next round (R51)
        events.append(Event("dossier_taken", DossierTaken(seat=seat, round=state.round)))
    elif task == T_RELEASE:
        candidates = releasable(state, seat)
        if len(candidates) == 1:
            designate(state, seat, space.index, candidates[0], events)
        else:
            state.sub = SUB_RELEASE
            state.sub_space = space.index
    else:
        assert task in (T_CREDIT, T_FIRST_PLAYER)


def draw_blind(state: MovieEmpireState, seat: int, count: int, source: str, events: list[Event]) -> None:
    """Draw production cards blind into the hand (private), then the hand limit (OT1, CHN)."""
    cards = [card for card in (draw_production(state) for _ in range(count)) if card is not None]
    events.append(Event("drew", Drew(seat=seat, cards=list(cards), source=source), audience=(seat,)))
    events.append(Event("drew_count", DrewCount(seat=seat, count=len(cards), source=source)))
    gain_cards(state, seat, cards, public=False)


def keep_drawn(state: MovieEmpireState, seat: int, kept: tuple[str, ...], events: list[Event]) -> None:
    """Sabotage option b: keep 2, discard the rest face up, then the hand limit (§4.3 b)."""
    rest = list(state.drawn[seat])
    for card in kept:
        rest.remove(card)
    state.drawn[seat] = []
    state.production_discard.extend(rest)
    events.append(Event("sabotage_discarded", SabotageDiscarded(seat=seat, cards=rest)))
    state.sub = SUB_NONE
    gain_cards(state, seat, list(kept), public=False)


def designate(state: MovieEmpireState, seat: int, space_index: int, line_index: int, events: list[Event]) -> None:
    """The release space points at the line, which is locked until Upkeep (R32)."""
    line = state.lines[seat][line_index]
    assert line is not None
    state.lines[seat][line_index] = with_flags(line, locked=True)
    state.release_line[space_index] = line_index
    state.sub = SUB_NONE
    space_id = state.table.spaces[space_index].id
    events.append(Event("release_designated", ReleaseDesignated(seat=seat, space=space_id, line=line_index + 1, script=line.script)))


def apply_swap_take(state: MovieEmpireState, seat: int, slot: str, events: list[Event]) -> None:
    """Sabotage swap: the hand card goes into the slot, the slot's card into the hand; nothing is paid (R15)."""
    space = state.table.space_by_id[slot]
    given = state.sub_card
    assert given is not None
    taken = state.slot_card[space.index]
    assert taken is not None
    remove_from_hand(state, seat, given)
    state.slot_card[space.index] = given
    state.hands[seat].append(taken)
    state.known[seat].append(taken)
    state.sub = SUB_NONE
    state.sub_card = None
    events.append(Event("swapped", Swapped(seat=seat, space=slot, given=given, taken=taken)))


def apply_lay_action(state: MovieEmpireState, seat: int, action: Lays, events: list[Event]) -> None:
    """Lay one card into the target line."""
    line = state.lines[seat][state.target]
    assert line is not None
    state.lines[seat][state.target] = apply_lay(state.table, line, action)
    remove_from_hand(state, seat, action.card)
    state.lays += 1
    laid_data: Laid = {
        "seat": seat,
        "line": state.target + 1,
        "action": str(action),
        "script": line.script,
    }
    events.append(Event("laid", laid_data))


def apply_script(state: MovieEmpireState, seat: int, card: str, events: list[Event]) -> None:
    """Lay the script of a new line (R17)."""
    remove_from_hand(state, seat, card)
    state.lines[seat][state.target] = Line(card)
    events.append(Event("line_started", LineStarted(seat=seat, line=state.target + 1, script=card)))


def purge(state: MovieEmpireState, seat: int, events: list[Event]) -> None:
    """The Purge procedure of §4.4 (R55)."""
    spend_dossier(state, seat, "purge", events)
    slots = production_slots(state)
    cards, blocked, assistant = state.slot_card, state.blocked, state.assistant
    purged = []
    for space in [s for s in slots if cards[s.index] is not None and blocked[s.index] == NO_SEAT][:3]:
        card = cards[space.index]
        assert card is not None
        purged.append(card)
        state.production_discard.append(card)
        cards[space.index] = None

    def free(space: Space) -> bool:
        return cards[space.index] is None and assistant[space.index] == NO_SEAT and blocked[space.index] == NO_SEAT

    for position, space in enumerate(slots):
        if cards[space.index] is None or blocked[space.index] != NO_SEAT:
            continue
        below = next((lower for lower in slots[:position] if free(lower)), None)
        if below is not None:
            cards[below.index] = cards[space.index]
            cards[space.index] = None
    for space in slots:
        if free(space):
            cards[space.index] = draw_production(state)
    events.append(Event("purged", Purged(seat=seat, discarded=purged, slots={s.id: cards[s.index] for s in slots})))


def apply_block(state: MovieEmpireState, seat: int, space_id: str, events: list[Event]) -> None:
    """Cover a space with the dossier (R54)."""
    spend_dossier(state, seat, "block", events)
    state.blocked[state.table.space_by_id[space_id].index] = seat
    events.append(Event("blocked", Blocked(seat=seat, space=space_id)))


def apply_cut(state: MovieEmpireState, seat: int, space_id: str, events: list[Event]) -> None:
    """Cut!: cover another player's release assistant; the user loses 1 sympathy at once (R56)."""
    spend_dossier(state, seat, "cut", events)
    index = state.table.space_by_id[space_id].index
    state.cut_by[index] = seat
    events.append(Event("cut", CutSaid(seat=seat, space=space_id, victim=state.assistant[index])))
    change_sympathy(state, seat, -1, events, "cut")
    queue_checks(state, [seat])


def apply_discard(state: MovieEmpireState, seat: int, card: str, events: list[Event]) -> None:
    """One hand-limit discard (§4.5)."""
    remove_from_hand(state, seat, card)
    discard_card(state, card)
    events.append(discarded_event(seat, card))
