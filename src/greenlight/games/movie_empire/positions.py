"""Movie Empire positions: building them for tests (:func:`position`) and checking them (:func:`complete`, :func:`check`).

``Game.from_position`` starts from the normal setup of the position's seed,
puts in the fields the position gives, calls :func:`complete` for what
follows from them (the draw piles, the trend row and the annual plans of the
round, the script slots once the setup keep step is over, ...) and then
:func:`check`, which raises ``PositionError`` naming the field and the rule
for a position no game can reach (docs/positions.md).

:func:`position` builds a working-phase position directly, for rule tests
that state exactly what they rely on:

>>> from greenlight.games.movie_empire.lines import build_line
>>> from greenlight.games.movie_empire.cards import load_tables
>>> state = position(2, hands=[["PB01"], []], lines=[[build_line(load_tables(), "SA01", ["PB08"])], []])
>>> state.phase, state.turn_seat, state.hands[0]
('working', 0, ['PB01'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from greenlight.core.positions import PositionError
from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from greenlight.games.movie_empire import rules
from greenlight.games.movie_empire.actions import RIGHT, Lay, Stack, Star
from greenlight.games.movie_empire.cards import (
    MARKETS,
    STAGE_WORDS,
    STAGES,
    T_PRODUCTION,
    T_RELEASE,
    T_SABOTAGE,
    T_SCRIPT,
    T_STAR,
    TREND_ROW,
    Tables,
    load_tables,
)
from greenlight.games.movie_empire.effects import SYMPATHY_MAX, SYMPATHY_MIN, hand_limit, level, open_lines
from greenlight.games.movie_empire.flow import TURN_ACTIVE, begin_turn
from greenlight.games.movie_empire.lines import Line, apply_lay, lay_problem
from greenlight.games.movie_empire.parameters import removed_trends
from greenlight.games.movie_empire.premiere import CHN_DRAW, build_net_items, pending_release, release_spaces
from greenlight.games.movie_empire.rounds import SCRIPTS_DEALT, SHORT_DEAL, exemption_actions, fill_slots, gift_chooser, keep_count
from greenlight.games.movie_empire.spec import SPEC
from greenlight.games.movie_empire.state import (
    GIFT,
    GRUMPY,
    INTERNET,
    NO_SEAT,
    OVER,
    PREMIERE,
    Q_CHECK,
    Q_DISCARD,
    Q_SHUT,
    SETUP,
    SUB_NONE,
    SUB_RELEASE,
    SUB_SABOTAGE_KEEP,
    SUB_SWAP_CARD,
    SUB_SWAP_SLOT,
    UP_BOARD,
    UPKEEP,
    WORKING,
    MovieEmpireState,
)
from greenlight.games.movie_empire.working import ASSISTANTS, OVERTIME_DRAW, SABOTAGE_KEEP, in_use, new_line_slot

PHASES = (SETUP, GRUMPY, GIFT, WORKING, PREMIERE, INTERNET, UPKEEP, OVER)
#: Phases of a round before the working phase, and from the premiere phase on.
BEFORE_WORKING = (SETUP, GRUMPY, GIFT)
AFTER_WORKING = (PREMIERE, INTERNET, UPKEEP, OVER)
#: Fields a position of the setup keep step gives; giving any other field without ``phase`` puts it in the working phase.
SETUP_FIELDS = frozenset({"dealt", "commit", "first_player", "seed", "rng_seed", "rng_uses"})
#: The fields that say where the cards of each deck are; giving any of them recomputes that deck's draw pile.
DECK_FIELDS = {
    "production": frozenset({"hands", "lines", "slot_card", "production_discard", "drawn"}),
    "star": frozenset({"hands", "lines", "slot_card", "star_discard"}),
    "script": frozenset({"hands", "lines", "slot_card", "script_discard", "released", "dealt"}),
}
PILES = {"production": "production_pile", "star": "star_pile", "script": "script_pile"}
DISCARDS = {"production": "production_discard", "star": "star_discard", "script": "script_discard"}
TREND_FIELDS = frozenset({"trend_row", "trend_pile", "trend_removed"})
PLAN_FIELDS = frozenset({"plan", "plans_done", "plan_pile"})
SLOT_DECKS = {T_PRODUCTION: "production", T_STAR: "star", T_SCRIPT: "script"}
SUBS = {SUB_NONE: "none", SUB_SWAP_CARD: "swap", SUB_SWAP_SLOT: "take", SUB_RELEASE: "release", SUB_SABOTAGE_KEEP: "sabotage keep"}
QUEUE_KINDS = {Q_DISCARD: "discard", Q_CHECK: "line check", Q_SHUT: "shut down"}


# -- completing a hand-written position --------------------------------------------------------------------


def complete(state: MovieEmpireState, given: frozenset[str]) -> None:
    """Fill what a hand-written position leaves out but follows from what it gives (docs/positions.md).

    The phase is the working phase unless the position gives only setup fields;
    lines may leave out the stages of non-joker cards and the stacked entries;
    the trend row and the annual plans follow the seed's deal to the given round;
    every draw pile holds the cards of its deck placed nowhere else (shuffled
    from the seed); slots the position does not give are the seed's, refilled
    where the position placed their card elsewhere; and the sequencing fields
    of the phase (whose turn, the Grumpy, premiere and Internet steps) are those
    of its start.
    """
    n = state.num_players
    if "phase" not in given and not given <= SETUP_FIELDS:
        state.phase = WORKING
    _check_lengths(state)  # what follows reads every seat, space and trend slot
    moved = set(given)
    if state.phase != SETUP:
        if "dealt" not in given:  # the seed's setup deal goes back to the script pile
            state.dealt = [[] for _ in range(n)]
            moved.add("dealt")
        if "commit" not in given:
            state.commit = [None] * n
    if "lines" in given:
        state.lines = [_completed_lines(state.table, lines) for lines in state.lines]
    if given & ({"round"} | PLAN_FIELDS):
        _complete_plans(state, given)
    if given & ({"round"} | TREND_FIELDS):
        _complete_trends(state, given)
    if "slot_card" not in given:
        _free_slots_of_placed_cards(state)
    for deck, fields in DECK_FIELDS.items():
        if moved & fields and PILES[deck] not in given:
            setattr(state, PILES[deck], _leftover(state, deck))
    if "slot_card" not in given and state.phase != SETUP:
        for task in SLOT_DECKS:  # the seed's slots, with any card the position placed elsewhere replaced from the pile
            fill_slots(state, task)
    _complete_sequencing(state, given)


def _completed_lines(table: Tables, lines: list[Line | None]) -> list[Line | None]:
    """A seat's two line slots, with the printed stages and empty stacks a hand-written line may leave out."""
    completed: list[Line | None] = []
    for line in [*lines, *([None] * (2 - len(lines)))]:
        if line is not None and line.cards:
            cards = [table.production.get(card) for card in line.cards]
            if not line.stages and all(card is not None and card.kind != "joker" for card in cards):
                line = replace(line, stages=tuple(card.stage for card in cards if card is not None))
            if not line.stacked:
                line = replace(line, stacked=(None,) * len(line.cards))
        completed.append(line)
    return completed


def _complete_plans(state: MovieEmpireState, given: frozenset[str]) -> None:
    """The plans revealed by the given round, from the seed's face-up pile (§4.1 step 1)."""
    if state.short:
        return
    revealed = max(0, state.round - 1)
    if "plans_done" not in given:
        pile = state.plan_pile if "plan_pile" not in given else [plan for plan in state.table.plan_ids if plan not in state.plan_pile]
        order = [plan for plan in reversed(pile) if plan != state.plan]  # top of the pile first
        if "plan" in given and state.plan is not None and revealed:
            state.plans_done = [*order[: revealed - 1], state.plan]
        else:
            state.plans_done = order[:revealed]
    if "plan" not in given:
        state.plan = state.plans_done[-1] if state.plans_done and state.round >= 2 else None
    if "plan_pile" not in given:
        done = set(state.plans_done)
        state.plan_pile = [plan for plan in state.plan_pile if plan not in done]
        state.plan_pile[:0] = [plan for plan in state.table.plan_ids if plan not in done and plan not in state.plan_pile]


def _complete_trends(state: MovieEmpireState, given: frozenset[str]) -> None:
    """The trend row and piles of the given round: the seed's, moved on one trend each Upkeep (§4.10 step 6)."""
    upkeeps = state.round - 1
    pile = list(state.trend_pile)
    if "trend_row" not in given:
        row = list(state.trend_row)
        for _ in range(upkeeps):
            row = [pile.pop() if pile else None, row[0], row[1]]
        state.trend_row = row
    placed = {trend for trend in state.trend_row if trend is not None}
    if "trend_pile" in given:
        placed |= set(state.trend_pile)
    if "trend_removed" not in given:
        count = removed_trends(state.options)
        removed = [trend for trend in state.trend_removed if trend not in placed]
        spare = [trend for trend in state.table.trend_ids if trend not in placed and trend not in removed]
        state.trend_removed = (removed + spare)[:count]
    if "trend_pile" not in given:
        gone = placed | set(state.trend_removed)
        on_board = len(state.table.trend_ids) - len(state.trend_removed) - upkeeps
        size = max(0, on_board - len([trend for trend in state.trend_row if trend is not None]))
        candidates = [trend for trend in pile if trend not in gone]
        candidates[:0] = [trend for trend in state.table.trend_ids if trend not in gone and trend not in candidates]
        state.trend_pile = candidates[:size]  # the bottom of the pile: the trends above it came out in earlier rounds


def _free_slots_of_placed_cards(state: MovieEmpireState) -> None:
    """Empty the seed's card slots whose card the position put somewhere else (they are refilled from the pile)."""
    table = state.table
    counts = Counter(card for _, card in _places(state, with_slots=False, with_piles=False))
    for space in in_use(state):
        card = state.slot_card[space.index]
        if card is not None and space.task in SLOT_DECKS:
            counts[card] += 1
            if counts[card] > _copies(table, card):
                state.slot_card[space.index] = None


def _leftover(state: MovieEmpireState, deck: str) -> list[str]:
    """Every card of ``deck`` placed nowhere else, shuffled from the seed (the draw pile's order is hidden)."""
    table = state.table
    counts = Counter(card for _, card in _places(state, with_piles=False) if _deck_of(table, card) == deck)
    counts.update(getattr(state, DISCARDS[deck]))
    ids = {"production": table.production_ids, "star": table.star_ids, "script": table.script_ids}[deck]
    cards = [card for card in ids for _ in range(max(0, _copies(table, card) - counts[card]))]
    Stream("movie-empire", "position", deck, state.seed).shuffle(cards)
    return cards


def _complete_sequencing(state: MovieEmpireState, given: frozenset[str]) -> None:
    """Whose turn it is and where the steps of the phase stand, as at the start of the phase."""
    n = state.num_players
    phase = state.phase
    if phase == WORKING and "turn_seat" not in given and state.turn_seat == NO_SEAT:
        keep = {name: getattr(state, name) for name in ("sub", "sub_card", "sub_space", "target", "lays") if name in given}
        begin_turn(state, state.first_player)
        for name, value in keep.items():
            setattr(state, name, value)
    if phase not in (SETUP, GRUMPY) and "exempt_pos" not in given:
        state.exempt_pos = n
    if "assistant" in given and "placed" not in given:
        state.placed = [state.assistant.count(seat) for seat in range(n)]
    if "premieres" in given:
        if "markets_used" not in given:
            state.markets_used = [premiere.market for premiere in state.premieres if premiere.market != "NET"]
        if "trend_hit" not in given:
            state.trend_hit = any(premiere.hit for premiere in state.premieres)
    if phase in (INTERNET, UPKEEP, OVER):
        if "prem_pos" not in given:
            state.prem_pos = len(release_spaces(state))
        if "net_items" not in given:
            state.net_items = build_net_items(state)
        if phase != INTERNET and "net_pos" not in given:
            state.net_pos = len(state.net_items)
    if phase == UPKEEP and "step" not in given:
        state.step = UP_BOARD


# -- where the cards are -----------------------------------------------------------------------------------


def _copies(table: Tables, card: str) -> int:
    production = table.production.get(card)
    return production.copies if production is not None else 1


def _deck_of(table: Tables, card: str) -> str | None:
    if card in table.production:
        return "production"
    if card in table.stars:
        return "star"
    if card in table.scripts:
        return "script"
    return None


def _places(state: MovieEmpireState, *, with_slots: bool = True, with_piles: bool = True) -> Iterator[tuple[str, str]]:
    """(field, card) for every production, star and script card of the position, with the decks a field may hold."""
    for seat, hand in enumerate(state.hands):
        yield from ((f"hands[{seat}]", card) for card in hand)
    for seat, lines in enumerate(state.lines):
        for index, line in enumerate(lines):
            if line is not None:
                yield f"lines[{seat}][{index}]", line.script
                yield from ((f"lines[{seat}][{index}]", card) for card in line.all_cards())
                yield from ((f"lines[{seat}][{index}]", star) for star in line.stars)
    for seat, drawn in enumerate(state.drawn):
        yield from ((f"drawn[{seat}]", card) for card in drawn)
    for seat, dealt in enumerate(state.dealt):
        yield from ((f"dealt[{seat}]", card) for card in dealt)
    for seat, released in enumerate(state.released):
        yield from ((f"released[{seat}]", movie[0]) for movie in released)
    if with_slots:
        for index, slot in enumerate(state.slot_card):
            if slot is not None:
                yield f"slot_card[{index}]", slot
    if with_piles:
        for deck in DECK_FIELDS:
            for name in (PILES[deck], DISCARDS[deck]):
                for card in getattr(state, name):
                    yield name, card


#: The decks each field may hold (hands: any card; the rest: one deck).
_FIELD_DECKS = {
    "drawn": ("production",),
    "dealt": ("script",),
    "released": ("script",),
    "production_pile": ("production",),
    "production_discard": ("production",),
    "star_pile": ("star",),
    "star_discard": ("star",),
    "script_pile": ("script",),
    "script_discard": ("script",),
}
_DECK_WORDS = {"production": "production card", "star": "star", "script": "script"}


def _check_cards(state: MovieEmpireState) -> None:
    """Every production, star and script card is in exactly one place (§2.5-§2.7); each field holds its own deck's cards."""
    table = state.table
    first: dict[str, str] = {}
    counts: Counter[str] = Counter()
    for where, card in _places(state):
        deck = _deck_of(table, card)
        if deck is None:
            raise PositionError(where, f"{card} is not a production card, star or script of this game")
        allowed = _FIELD_DECKS.get(where.split("[")[0])
        if allowed is not None and deck not in allowed:
            raise PositionError(where, f"{card} is a {_DECK_WORDS[deck]}; this field holds only {_DECK_WORDS[allowed[0]]}s")
        counts[card] += 1
        first.setdefault(card, where)
        copies = _copies(table, card)
        if counts[card] > copies:
            if copies == 1:
                raise PositionError(where, f"{card} is also in {first[card]}; every card is in exactly one place")
            raise PositionError(where, f"{card} is in {counts[card]} places, but the deck has {copies} copies of it (§2.5)")
    for deck, ids in (("production", table.production_ids), ("star", table.star_ids), ("script", table.script_ids)):
        missing = [card for card in ids if counts[card] < _copies(table, card)]
        if missing:
            raise PositionError(
                PILES[deck],
                f"{', '.join(missing[:3])} {'is' if len(missing) == 1 else 'are'} nowhere: every {_DECK_WORDS[deck]} is in a hand, "
                "a line, a slot, a pile or a discard pile"
                + (", or was released" if deck == "script" else ", or drawn by Sabotage" if deck == "production" else ""),
            )
    _check_trends(state)
    _check_plans(state)


def _check_trends(state: MovieEmpireState) -> None:
    table = state.table
    seen: dict[str, str] = {}
    places = [(f"trend_row[{index}]", trend) for index, trend in enumerate(state.trend_row) if trend is not None]
    places += [("trend_pile", trend) for trend in state.trend_pile] + [("trend_removed", trend) for trend in state.trend_removed]
    for where, trend in places:
        if trend not in table.trends:
            raise PositionError(where, f"{trend} is not a trend of this game")
        if trend in seen:
            raise PositionError(where, f"{trend} is also in {seen[trend]}; every trend is in exactly one place")
        seen[trend] = where
    removed = removed_trends(state.options)
    if len(state.trend_removed) != removed:
        raise PositionError("trend_removed", f"holds {len(state.trend_removed)} trends; {removed} are removed at setup (§3 step 7)")
    on_board = len(table.trend_ids) - removed - (state.round - 1)
    in_play = len(state.trend_pile) + sum(trend is not None for trend in state.trend_row)
    if in_play != on_board:
        raise PositionError(
            "trend_pile",
            f"with the trend row holds {in_play} trends; in round {state.round} it holds {on_board}: "
            "the active trend leaves the game at each Upkeep (§4.10 step 6, R5)",
        )
    empty = [index for index, trend in enumerate(state.trend_row) if trend is None]
    if empty and (state.trend_pile or empty != list(range(len(empty))) or len(empty) == TREND_ROW):
        raise PositionError(
            f"trend_row[{empty[-1]}]",
            "is empty; the row moves right at each Upkeep and TS1 takes a new trend while the trend pile has one (§4.10 step 6)",
        )


def _check_plans(state: MovieEmpireState) -> None:
    table = state.table
    if state.short:
        for name in ("plan_pile", "plans_done"):
            if getattr(state, name):
                raise PositionError(name, "holds annual plans, but Shoot a Short has none (§6)")
        if state.plan is not None:
            raise PositionError("plan", "is set, but Shoot a Short has no annual plans (§6)")
        return
    seen: dict[str, str] = {}
    for name in ("plans_done", "plan_pile"):
        for plan in getattr(state, name):
            if plan not in table.plans:
                raise PositionError(name, f"{plan} is not an annual plan of this game")
            if plan in seen:
                raise PositionError(name, f"{plan} is also in {seen[plan]}; there is one card of each plan (§2.9)")
            seen[plan] = name
    missing = [plan for plan in table.plan_ids if plan not in seen]
    if missing:
        raise PositionError(
            "plan_pile", f"{', '.join(missing[:3])} {'is' if len(missing) == 1 else 'are'} nowhere: every plan is in the pile or revealed"
        )
    revealed = min(state.round - 1, len(table.plan_ids))
    if len(state.plans_done) != revealed:
        raise PositionError(
            "plans_done",
            f"holds {len(state.plans_done)} plans; one is revealed each round from round 2, so {revealed} by round {state.round} (§4.1)",
        )
    expected = state.plans_done[-1] if state.plans_done else None
    if state.plan != expected:
        raise PositionError("plan", f"is {state.plan!r}; the plan in force is the one revealed last, {expected!r} (§4.1 step 1)")


# -- checking ----------------------------------------------------------------------------------------------

_PER_SEAT = (
    "money",
    "pp",
    "sympathy",
    "hands",
    "lines",
    "placed",
    "passed",
    "dossier",
    "spent",
    "exempt",
    "statues",
    "released",
    "known",
    "gifted",
    "drawn",
    "dealt",
    "commit",
)
_PER_SPACE = ("slot_card", "assistant", "blocked", "cut_by", "release_line")


def check(state: MovieEmpireState) -> None:
    """Raise PositionError unless ``state`` is a position a game of Movie Empire can reach (rules §2-§6)."""
    _check_shape(state)
    _check_cards(state)
    _check_hands(state)
    _check_lines(state)
    _check_tableaus(state)
    _check_board(state)
    _check_turn(state)
    _check_queue(state)
    _check_phase(state)


def _seat_words(state: MovieEmpireState) -> str:
    return f"a {state.num_players}-player game has seats 0 to {state.num_players - 1}"


def _check_lengths(state: MovieEmpireState) -> None:
    """One entry per seat, per board space and per trend slot; a first player at the table."""
    n = state.num_players
    for name in _PER_SEAT:
        if len(getattr(state, name)) != n:
            raise PositionError(name, f"has {len(getattr(state, name))} entries; a {n}-player position has one per seat")
    for name in _PER_SPACE:
        if len(getattr(state, name)) != len(state.table.spaces):
            raise PositionError(name, f"has {len(getattr(state, name))} entries; there is one per board space ({len(state.table.spaces)})")
    if len(state.trend_row) != TREND_ROW:
        raise PositionError("trend_row", f"has {len(state.trend_row)} slots; the trend row is TS1, TS2, TS3 (§2.4)")
    if not 0 <= state.first_player < n:
        raise PositionError("first_player", f"is {state.first_player}; {_seat_words(state)}")


def _check_shape(state: MovieEmpireState) -> None:
    if state.phase not in PHASES:
        raise PositionError("phase", f"is {state.phase!r}; the phases are {', '.join(PHASES)}")
    last = state.last_round
    if not 1 <= state.round <= last:
        rounds = f"rounds 1 to {last}" + (" in Shoot a Short (§6)" if state.short else " (§1)")
        raise PositionError("round", f"is {state.round}; a game has {rounds}")
    if state.phase == SETUP and state.round != 1:
        raise PositionError("phase", f"is the setup keep step in round {state.round}; setup comes before round 1 (§3)")
    if state.phase == OVER and state.round != last:
        raise PositionError("phase", f"is over in round {state.round}; the game ends after the premiere phase of round {last} (§5)")
    _check_lengths(state)
    for seat, lines in enumerate(state.lines):
        if len(lines) != 2:
            raise PositionError(f"lines[{seat}]", f"has {len(lines)} line slots; every player has 2 (§2.2)")
    for name in ("rng_seed", "rng_uses", "exempt_pos", "prem_pos", "net_pos", "lays"):
        if getattr(state, name) < 0:
            raise PositionError(name, f"is {getattr(state, name)}; it counts, so it is never below 0")


def _max_gain(table: Tables) -> int:
    """The most cards one gain brings into a hand at once (OT1, the Sabotage keep, China, AP12 to an exempt receiver)."""
    gifts = [plan.amount for plan in table.plans.values() if plan.effect == "give_cards"]
    return max(OVERTIME_DRAW, SABOTAGE_KEEP, CHN_DRAW, *gifts)


def _check_hands(state: MovieEmpireState) -> None:
    table = state.table
    limit = hand_limit(state)
    for seat, hand in enumerate(state.hands):
        discarding = (Q_DISCARD, seat) in state.queue
        if not discarding and len(hand) > limit:
            raise PositionError(
                f"hands[{seat}]", f"holds {len(hand)} cards; a hand holds at most {limit}: a gain above it is discarded at once (§4.5)"
            )
        if discarding and len(hand) > limit + _max_gain(table):
            raise PositionError(
                f"hands[{seat}]",
                f"holds {len(hand)} cards; one gain brings at most {_max_gain(table)} cards into a hand of {limit} (§4.5)",
            )
        extra = Counter(state.known[seat]) - Counter(hand)
        if extra:
            raise PositionError(
                f"known[{seat}]", f"lists {min(extra)}, which is not in that seat's hand; it lists hand cards taken face up (§8)"
            )
        receiver = state.left_of(seat)
        extra = Counter(state.gifted[seat]) - Counter(state.hands[receiver])
        if extra:
            raise PositionError(
                f"gifted[{seat}]", f"lists {min(extra)}, which is not in the hand of seat {receiver}; it lists cards given there under AP12"
            )
    if state.phase == SETUP:
        dealt_cards = SHORT_DEAL if state.short else 0
        for seat, hand in enumerate(state.hands):
            if len(hand) != dealt_cards or any(card not in table.production for card in hand):
                raise PositionError(
                    f"hands[{seat}]",
                    f"holds {len(hand)} cards at the setup keep step; a hand then holds just the {dealt_cards} production cards "
                    "dealt in Shoot a Short (§3 step 4)",
                )
        for seat, dealt in enumerate(state.dealt):
            if len(dealt) != SCRIPTS_DEALT:
                raise PositionError(
                    f"dealt[{seat}]", f"holds {len(dealt)} scripts; each player is dealt {SCRIPTS_DEALT} at setup (§3 step 6)"
                )
    else:
        for seat, dealt in enumerate(state.dealt):
            if dealt:
                raise PositionError(
                    f"dealt[{seat}]", "holds scripts, but the scripts dealt at setup are kept or returned before round 1 (§3 step 6)"
                )


def line_problem(table: Tables, line: Line) -> str | None:
    """Why no sequence of legal lays builds ``line`` (§4.6), or None: it is rebuilt lay by lay with the game's own checks.

    Positions are laid left to right (the colour rule lets every legal line be
    built so), then the stacked upgrades, then the stars.
    """
    if line.script not in table.scripts:
        return f"{line.script} is not a script; a line starts with a script (§4.6.2)"
    if not len(line.cards) == len(line.stages) == len(line.stacked):
        return (
            f"has {len(line.cards)} positions, {len(line.stages)} stages and {len(line.stacked)} stacked entries; "
            "each position has one stage and one stacked entry"
        )
    built = Line(line.script)
    for position, (card_id, stage) in enumerate(zip(line.cards, line.stages, strict=True), 1):
        card = table.production.get(card_id)
        if card is None:
            return f"p{position} holds {card_id}, which is not a production card"
        if not 0 <= stage < len(STAGES):
            return f"p{position} has stage {stage}; the stages are 0 to 3 (G, B, Y, R)"
        if card.kind != "joker" and stage != card.stage:
            printed = STAGE_WORDS[STAGES[card.stage]]
            return f"p{position} gives {card.name} stage {STAGES[stage]}; only a joker chooses its stage, {card.name} is {printed} (§2.1)"
        action = Lay(card_id, RIGHT, STAGES[stage] if card.kind == "joker" else None)
        problem = lay_problem(table, built, action, [card_id])
        if problem is not None:
            return f"p{position}: {problem} (§4.6)"
        built = apply_lay(table, built, action)
    for position, upgrade in enumerate(line.stacked, 1):
        if upgrade is None:
            continue
        card = table.production.get(upgrade)
        base = line.cards[position - 1]
        if card is None or card.upgrade_of != base:
            return f"p{position} has {upgrade} stacked on {table.card_name(base)}; an upgrade is stacked only on its own base card (§4.6.4)"
        problem = lay_problem(table, built, Stack(upgrade), [upgrade])
        if problem is not None:
            return f"p{position}: {problem} (§4.6.4)"
        built = apply_lay(table, built, Stack(upgrade))
    for star in line.stars:
        problem = lay_problem(table, built, Star(star), [star])
        if problem is not None:
            return f"{problem} (§4.6.6)"
        built = apply_lay(table, built, Star(star))
    return None


def _designations(state: MovieEmpireState) -> dict[tuple[int, int], int]:
    """(seat, line) -> the release space index that designates it."""
    designated: dict[tuple[int, int], int] = {}
    for space in release_spaces(state):
        seat, line = state.assistant[space.index], state.release_line[space.index]
        if seat != NO_SEAT and line != NO_SEAT:
            designated[(seat, line)] = space.index
    return designated


def _check_lines(state: MovieEmpireState) -> None:
    table = state.table
    designated = _designations(state)
    for seat, lines in enumerate(state.lines):
        for index, line in enumerate(lines):
            if line is None:
                continue
            where = f"lines[{seat}][{index}]"
            problem = line_problem(table, line)
            if problem is not None:
                raise PositionError(where, f"breaks the laying rules: {problem}")
            starting = state.phase == WORKING and seat == state.turn_seat and index == state.target and state.lays == 0
            if not line.cards and not starting:
                raise PositionError(
                    where, "has no production card; a new line takes its first card in the produce step that lays its script (§4.6.2, R17)"
                )
            if line.locked and (seat, index) not in designated:
                raise PositionError(
                    where, "is locked, but no release space of this seat designates it; only a release locks a line (§4.3, R32)"
                )
        if any(queued_seat == seat and kind in (Q_CHECK, Q_SHUT) for kind, queued_seat in state.queue):
            continue  # the line-limit check of this seat is still to come
        if not SYMPATHY_MIN <= state.sympathy[seat] <= SYMPATHY_MAX:
            continue  # reported with the sympathy
        allowed, opened = level(state, seat).lines, open_lines(state, seat)
        if opened > allowed:
            raise PositionError(
                f"lines[{seat}]",
                f"has {opened} open lines at sympathy {state.sympathy[seat]:+d}, which allows {allowed}; "
                "the excess is shut down at once (§4.7)",
            )
        for index, line in enumerate(lines):
            if line is not None and line.shut and opened < allowed:
                raise PositionError(
                    f"lines[{seat}][{index}]",
                    f"is shut down with {opened} line open while sympathy {state.sympathy[seat]:+d} allows {allowed}; "
                    "it would have reopened at once (§4.7, R29)",
                )


def _check_tableaus(state: MovieEmpireState) -> None:
    table = state.table
    n = state.num_players
    for seat in range(n):
        if state.money[seat] < 0:
            raise PositionError(f"money[{seat}]", f"is {state.money[seat]}; money is never below 0 (R11)")
        if state.pp[seat] < 0:
            raise PositionError(f"pp[{seat}]", f"is {state.pp[seat]}; PP go below 0 only through the end-game sympathy (§2.2)")
        if not SYMPATHY_MIN <= state.sympathy[seat] <= SYMPATHY_MAX:
            raise PositionError(f"sympathy[{seat}]", f"is {state.sympathy[seat]}; the sympathy bar runs from -5 to +5 (§2.3, R12)")
        if not 0 <= state.placed[seat] <= ASSISTANTS:
            raise PositionError(f"placed[{seat}]", f"is {state.placed[seat]}; each player has {ASSISTANTS} assistants a round (§2.2)")
        if not 0 <= state.statues[seat] <= len(state.released[seat]):
            raise PositionError(
                f"statues[{seat}]",
                f"is {state.statues[seat]} with {len(state.released[seat])} movies released; a statue comes with a premiere "
                "that first hits the trend (§4.9 step 2)",
            )
        for number, (script, genre, market) in enumerate(state.released[seat]):
            if genre != table.scripts[script].genre:
                raise PositionError(
                    f"released[{seat}][{number}]",
                    f"records genre {genre!r} for {script}, whose genre is {table.scripts[script].genre!r} (§4.9 step 7)",
                )
            if market not in MARKETS or (market == "NET" and n < 3):
                raise PositionError(
                    f"released[{seat}][{number}]",
                    f"records market {market!r}; movies premiere in USA, EUR, CHN or, at 3-4 players, NET (§2.4)",
                )
        _check_dossier(state, seat)
        if state.exempt[seat] and state.plan is None:
            raise PositionError(f"exempt[{seat}]", "is set, but no annual plan is in force to be exempt from (§4.1 step 3)")
    statues = sum(state.statues)
    rounds = state.round - (0 if state.phase in AFTER_WORKING else 1)
    if statues > rounds:
        raise PositionError(
            "statues", f"add up to {statues} after {rounds} premiere phases; at most 1 statue is given per round (§2.2, R42)"
        )


def _check_dossier(state: MovieEmpireState, seat: int) -> None:
    taken, spent = state.dossier[seat], state.spent[seat]
    if state.clean and (taken != NO_SEAT or spent):
        raise PositionError(f"dossier[{seat}]" if taken != NO_SEAT else f"spent[{seat}]", "Clean Hands has no dossiers (§6)")
    if taken != NO_SEAT:
        latest = state.round if state.phase not in BEFORE_WORKING else state.round - 1
        if not 1 <= taken <= latest:
            raise PositionError(
                f"dossier[{seat}]",
                f"was taken in round {taken}; in this phase of round {state.round} a dossier comes from rounds 1 to {latest} (§4.3 RV1)",
            )
    if spent not in (0, 1):
        raise PositionError(f"spent[{seat}]", f"is {spent}; a player spends at most one dossier a round (§4.4, R52)")
    if spent and taken not in (NO_SEAT, state.round):
        raise PositionError(
            f"dossier[{seat}]",
            f"is from round {taken}, but the seat spent its dossier this round; a player holds at most one (R52), "
            "so a dossier after that is taken this round",
        )


def _check_board(state: MovieEmpireState) -> None:
    table = state.table
    n = state.num_players
    used = {space.index for space in in_use(state)}
    seats = range(n)
    blocks: Counter[int] = Counter()
    for space in table.spaces:
        index = space.index
        card = state.slot_card[index]
        owner = state.assistant[index]
        for name in _PER_SPACE[1:]:
            value = getattr(state, name)[index]
            valid = (0, 1) if name == "release_line" else seats
            if value != NO_SEAT and value not in valid:
                raise PositionError(
                    f"{name}[{index}]", f"is {value}; {_seat_words(state) if name != 'release_line' else 'a line is 0 or 1'}"
                )
        if index not in used:
            for name in _PER_SPACE:
                if getattr(state, name)[index] not in (None, NO_SEAT):
                    raise PositionError(
                        f"{name}[{index}]",
                        f"{space.id} is not in use in a {n}-player game{' of Clean Hands' if state.clean else ''} (§2.4, §6)",
                    )
            continue
        deck = SLOT_DECKS.get(space.task)
        if card is not None:
            if deck is None:
                raise PositionError(f"slot_card[{index}]", f"{space.id} is not a card slot; only PS, SS and SR slots hold cards (§2.4)")
            if _deck_of(table, card) != deck:
                raise PositionError(
                    f"slot_card[{index}]", f"{space.id} holds {card}; a {space.task_name} slot holds {_DECK_WORDS[deck]}s (§2.4)"
                )
            if owner != NO_SEAT:
                raise PositionError(
                    f"slot_card[{index}]", f"{space.id} holds an assistant, so its card was taken; the slot stays empty until Upkeep (§4.3)"
                )
        if state.blocked[index] != NO_SEAT:
            blocks[state.blocked[index]] += 1
            if owner != NO_SEAT:
                raise PositionError(
                    f"assistant[{index}]", f"{space.id} is covered by a dossier; nobody may place there this round (§4.4 Block)"
                )
        cutter = state.cut_by[index]
        if cutter != NO_SEAT:
            blocks[cutter] += 1
            if space.task != T_RELEASE or owner in (NO_SEAT, cutter):
                raise PositionError(
                    f"cut_by[{index}]", f"is set on {space.id}; Cut! covers another player's assistant on a release space (§4.4)"
                )
        line = state.release_line[index]
        if line != NO_SEAT and (space.task != T_RELEASE or owner == NO_SEAT):
            raise PositionError(
                f"release_line[{index}]", f"is set on {space.id}; only a release space with an assistant designates a line (§4.3)"
            )
        if space.task == T_RELEASE and owner != NO_SEAT and line == NO_SEAT:
            choosing = state.phase == WORKING and state.sub == SUB_RELEASE and state.sub_space == index and state.turn_seat == owner
            if not choosing:
                raise PositionError(
                    f"release_line[{index}]",
                    f"{space.id} holds seat {owner}'s assistant but designates no line; placing there designates one (§4.3)",
                )
        if line != NO_SEAT:
            target = state.lines[owner][line]
            if (target is None and state.phase == WORKING) or (target is not None and not target.locked):
                raise PositionError(
                    f"lines[{owner}][{line}]",
                    f"is designated by {space.id}, so it is locked until Upkeep (§4.3, R32)"
                    if target is not None
                    else f"is empty, but {space.id} designates it; a released line premieres only in the premiere phase (§4.8)",
                )
    for seat in seats:
        on_board = state.assistant.count(seat)
        if on_board != state.placed[seat]:
            raise PositionError(
                f"placed[{seat}]",
                f"is {state.placed[seat]}, but {on_board} of that seat's assistants are on the board until Upkeep (§4.2 step 5)",
            )
        if blocks[seat] > state.spent[seat]:
            raise PositionError(f"spent[{seat}]", f"is {state.spent[seat]}, but that seat's dossier covers a space this round (§4.4)")
    designated = [(state.assistant[space.index], state.release_line[space.index]) for space in release_spaces(state)]
    designated = [pair for pair in designated if pair[1] != NO_SEAT]
    if len(set(designated)) != len(designated):
        raise PositionError(
            "release_line", "two release spaces designate the same line; a designated line is locked and cannot be released again (§4.3)"
        )
    if state.phase in BEFORE_WORKING:
        for name in ("assistant", "blocked", "cut_by"):
            where = next((index for index, value in enumerate(getattr(state, name)) if value != NO_SEAT), None)
            if where is not None:
                raise PositionError(
                    f"{name}[{where}]",
                    "is set before the working phase; Upkeep clears the board at the end of each round (§4.10 steps 1, 7)",
                )
        if any(state.passed):
            raise PositionError(
                f"passed[{state.passed.index(True)}]", "is set before the working phase; passes are cleared at Upkeep (§4.10 step 7)"
            )


def _check_turn(state: MovieEmpireState) -> None:
    """The working-phase turn: whose it is, its placement sub-decision and its produce step (§4.2-§4.6)."""
    table = state.table
    seat = state.turn_seat
    if state.phase != WORKING:
        if seat != NO_SEAT:
            raise PositionError("turn_seat", f"is {seat} in the {state.phase} phase; turns are taken only in the working phase (§4.2)")
        if state.sub != SUB_NONE or state.target != NO_SEAT:
            name = "sub" if state.sub != SUB_NONE else "target"
            raise PositionError(name, f"holds a decision of a working-phase turn in the {state.phase} phase")
    else:
        if not 0 <= seat < state.num_players:
            raise PositionError("turn_seat", f"is {seat}; in the working phase it is some seat's turn ({_seat_words(state)})")
        if state.passed[seat]:
            raise PositionError("turn_seat", f"is seat {seat}, which has passed; a player who passed takes no more turns (§4.2 step 1)")
        if state.placed[seat] >= ASSISTANTS and not state.turn_placed:
            raise PositionError(
                "turn_seat", f"is seat {seat}, which has placed all {ASSISTANTS} assistants; such a player is skipped (§4.2 step 1)"
            )
        if state.step != TURN_ACTIVE:
            raise PositionError("step", "says the turn is over; the next seat's turn would already have begun (§4.2 step 1)")
        if state.turn_placed and state.placed[seat] == 0:
            raise PositionError("turn_placed", f"is set, but seat {seat} has no assistant on the board")
    if state.sub not in SUBS:
        raise PositionError(
            "sub", f"is {state.sub}; the sub-decisions are {', '.join(f'{code} ({words})' for code, words in SUBS.items())}"
        )
    if state.sub != SUB_NONE and not state.turn_placed:
        raise PositionError(
            "sub", f"is the {SUBS[state.sub]} choice, which follows a placement, but no assistant was placed this turn (§4.3)"
        )
    if state.sub_card is not None and state.sub != SUB_SWAP_SLOT:
        raise PositionError("sub_card", "names a card to swap, but the turn is not choosing the slot of a Sabotage swap (§4.3 a)")
    sabotage = next((space.index for space in in_use(state) if space.task == T_SABOTAGE), NO_SEAT)
    if state.sub in (SUB_SWAP_CARD, SUB_SWAP_SLOT, SUB_SABOTAGE_KEEP) and (sabotage == NO_SEAT or state.assistant[sabotage] != seat):
        raise PositionError("sub", f"is the {SUBS[state.sub]} choice of Sabotage, but seat {seat} has no assistant on SB1 (§4.3)")
    if state.sub == SUB_SWAP_CARD and not any(card in table.production for card in state.hands[seat]):
        raise PositionError("sub", f"is the swap choice, but seat {seat} holds no production card to give (§4.3 a)")
    if state.sub == SUB_SWAP_SLOT and (
        state.sub_card is None or state.sub_card not in table.production or state.sub_card not in state.hands[seat]
    ):
        raise PositionError("sub_card", f"is {state.sub_card!r}; the swap gives a production card from seat {seat}'s hand (§4.3 a)")
    if state.sub == SUB_RELEASE:
        space = state.table.spaces[state.sub_space] if 0 <= state.sub_space < len(table.spaces) else None
        if space is None or space.task != T_RELEASE or state.assistant[space.index] != seat or state.release_line[space.index] != NO_SEAT:
            raise PositionError(
                "sub_space", f"is {state.sub_space}; the release choice is for a release space seat {seat} just placed on (§4.3)"
            )
    for drawer, drawn in enumerate(state.drawn):
        keeping = state.sub == SUB_SABOTAGE_KEEP and drawer == seat
        if drawn and not keeping:
            raise PositionError(f"drawn[{drawer}]", "holds cards, but only a Sabotage draw waiting for its keep choice does (§4.3 b)")
        if keeping and len(drawn) <= SABOTAGE_KEEP:
            raise PositionError(
                f"drawn[{drawer}]", f"holds {len(drawn)} cards; with {SABOTAGE_KEEP} or fewer drawn, all are kept without a choice (§4.3 b)"
            )
    _check_produce(state)


def _check_produce(state: MovieEmpireState) -> None:
    if state.target == NO_SEAT:
        return
    seat = state.turn_seat
    if state.target not in (0, 1):
        raise PositionError("target", f"is {state.target}; the produce step's line is 0 or 1 (or -1 for none)")
    if not state.turn_produced:
        raise PositionError("turn_produced", "is not set, but a produce step is in progress (§4.6 point 1)")
    if state.sub != SUB_NONE:
        raise PositionError("sub", "is set during a produce step; a placement and its choices come before or after it (R68)")
    line = state.lines[seat][state.target]
    if line is None:
        if state.lays or new_line_slot(state, seat) != state.target:
            raise PositionError(
                "target",
                f"is line slot {state.target} of seat {seat}, which is empty and may not take a new line now "
                "(an empty slot, fewer open lines than the level allows and none shut down, §4.6.2)",
            )
        return
    if line.shut or line.locked:
        raise PositionError(
            "target",
            f"is line {state.target} of seat {seat}, which is {'shut down' if line.shut else 'locked'}: "
            "no cards may be laid into it (§4.6.7)",
        )
    if state.lays > len(line.all_cards()) + len(line.stars):
        raise PositionError("lays", f"is {state.lays}, more than the line holds; it counts this produce step's lays into it")


def _check_queue(state: MovieEmpireState) -> None:
    """The interrupts: hand-limit discards and line shut-downs, taken at once in turn order (§4.5, §4.7, R70)."""
    n = state.num_players
    if state.queue and state.phase not in (WORKING, PREMIERE, INTERNET, UPKEEP):
        raise PositionError("queue", f"holds decisions in the {state.phase} phase, where nothing can interrupt play")
    discards: set[int] = set()
    for position, (kind, seat) in enumerate(state.queue):
        where = f"queue[{position}]"
        if kind not in QUEUE_KINDS:
            raise PositionError(
                where, f"has kind {kind}; an interrupt is {', '.join(f'{code} ({words})' for code, words in QUEUE_KINDS.items())}"
            )
        if not 0 <= seat < n:
            raise PositionError(where, f"is for seat {seat}; {_seat_words(state)}")
        if position == 0 and kind == Q_CHECK:
            raise PositionError(
                where, "is a line-limit check, which the game makes at once; only a shut-down or a discard waits for a player (§4.7)"
            )
        if position > 0 and kind == Q_SHUT:
            raise PositionError(
                where, "is a shut-down after another decision; a check asks for its shut-down only when it comes first (§4.7)"
            )
        if kind == Q_SHUT:
            allowed, opened = level(state, seat).lines, open_lines(state, seat)
            if opened <= allowed:
                raise PositionError(
                    where, f"asks seat {seat} to shut a line, but its {opened} open lines are within the {allowed} allowed (§4.7)"
                )
        if kind == Q_DISCARD:
            if seat in discards:
                raise PositionError(where, f"asks seat {seat} to discard a second time; one discard covers the whole excess (§4.5)")
            discards.add(seat)
            hand = len(state.hands[seat])
            if (position > 0 and hand <= hand_limit(state)) or hand == 0:
                raise PositionError(where, f"asks seat {seat} to discard, but its hand holds {hand} cards (§4.5)")


def _check_phase(state: MovieEmpireState) -> None:
    """Where the phase stands and who owes its decision (§3, §4.1, §4.8, §4.10, §4.13)."""
    table = state.table
    n = state.num_players
    phase = state.phase
    order = state.turn_order()
    if phase == GRUMPY:
        if state.plan is None:
            raise PositionError("phase", "is the Grumpy phase's exemptions, but no plan was revealed to be exempt from (§4.1 step 3)")
        if not 0 <= state.exempt_pos < n:
            raise PositionError(
                "exempt_pos",
                f"is {state.exempt_pos}; in the exemption step it is the place in turn order of the seat deciding (0 to {n - 1})",
            )
        for seat in order[state.exempt_pos :]:
            if state.exempt[seat]:
                raise PositionError(
                    f"exempt[{seat}]", "is set, but that seat has not yet declared; exemptions go in turn order (§4.1 step 3)"
                )
        deciding = order[state.exempt_pos]
        if len(exemption_actions(state, deciding)) < 2:
            raise PositionError("exempt_pos", f"points at seat {deciding}, who can only decline; the game declines for them (§4.1 step 3)")
    elif phase != SETUP and state.exempt_pos != n:
        raise PositionError("exempt_pos", f"is {state.exempt_pos}; after the exemption step every seat ({n}) has declared (§4.1 step 3)")
    if phase == SETUP:
        for seat, commit in enumerate(state.commit):
            if commit is not None and (len(commit) != keep_count(state) or Counter(commit) - Counter(state.dealt[seat])):
                raise PositionError(
                    f"commit[{seat}]", f"keeps {list(commit)}; a player keeps {keep_count(state)} of the scripts dealt (§3 step 6)"
                )
        if all(commit is not None for commit in state.commit):
            raise PositionError("commit", "every seat has kept its scripts, so the setup would already be over (§3 step 6)")
    elif phase == GIFT:
        plan = table.plans.get(state.plan or "")
        if plan is None or plan.effect != "give_cards":
            raise PositionError(
                "phase", f"is the gift step, but the plan in force is {state.plan!r}, not one that gives cards (AP12, §2.9)"
            )
        for seat, commit in enumerate(state.commit):
            if not gift_chooser(state, seat):
                automatic = () if state.exempt[seat] else tuple(state.hands[seat])
                if commit != automatic:
                    raise PositionError(
                        f"commit[{seat}]", f"is {commit!r}; that seat gives {list(automatic)} without a choice (§2.9 AP12, R50)"
                    )
            elif commit is not None and (len(commit) != plan.amount or Counter(commit) - Counter(state.hands[seat])):
                raise PositionError(
                    f"commit[{seat}]", f"gives {list(commit)}; a player gives {plan.amount} cards of their hand (§2.9 AP12)"
                )
        if all(commit is not None for commit in state.commit):
            raise PositionError("commit", "every seat has chosen its gift, so the cards would already have moved (R50)")
    else:
        for seat, commit in enumerate(state.commit):
            if commit is not None:
                raise PositionError(
                    f"commit[{seat}]", f"holds a secret choice in the {phase} phase; only the setup keep step and AP12 gifts have one"
                )
    spaces = release_spaces(state)
    if phase in BEFORE_WORKING or phase == WORKING:
        if state.prem_pos != 0:
            raise PositionError("prem_pos", f"is {state.prem_pos} before the premiere phase; releases premiere in that phase (§4.8)")
    elif phase == PREMIERE:
        # Between two premieres an interrupt (a China discard, a shut-down) may wait; otherwise a release premieres now.
        if not 0 <= state.prem_pos <= len(spaces) or (not state.queue and pending_release(state) is None):
            raise PositionError(
                "prem_pos",
                f"is {state.prem_pos}; in the premiere phase it points at the release space whose movie premieres now (§4.8 step 1)",
            )
    elif state.prem_pos != len(spaces):
        raise PositionError("prem_pos", f"is {state.prem_pos}; after the premiere phase all {len(spaces)} release spaces are done (§4.8)")
    if phase in (INTERNET, UPKEEP, OVER):
        if state.net_items != build_net_items(state):
            raise PositionError(
                "net_items",
                "are not the Internet premieres open this round: cut releases, then in the last round "
                "players without a release (§4.8 step 2)",
            )
        if phase == INTERNET and not state.net_pos < len(state.net_items) + bool(state.queue):
            raise PositionError(
                "net_pos",
                f"is {state.net_pos}; in the Internet step it points at one of the {len(state.net_items)} open premieres (§4.8 step 2)",
            )
        if phase != INTERNET and state.net_pos != len(state.net_items):
            raise PositionError(
                "net_pos", f"is {state.net_pos}; after the Internet step all {len(state.net_items)} open premieres are done"
            )
    elif state.net_items or state.net_pos:
        raise PositionError(
            "net_items" if state.net_items else "net_pos", "is set before the Internet step of the premiere phase (§4.8 step 2)"
        )
    if phase == UPKEEP and (state.step != UP_BOARD or not state.queue):
        raise PositionError("phase", "is Upkeep, which waits only for a line shut-down after the dossier penalties (§4.10 step 3)")
    if phase == OVER and state.queue:
        raise PositionError("queue", "holds decisions, but the game is over")
    _check_premieres(state)
    _check_decision(state)


#: The field that says whose decision it is, by decision kind.
_DECISION_FIELDS = {
    "turn": "turn_seat",
    "produce": "target",
    "discard": "queue",
    "shut": "queue",
    "market": "prem_pos",
    "internet": "net_pos",
    "exemption": "exempt_pos",
    "keep": "commit",
    "give": "commit",
}


def _check_decision(state: MovieEmpireState) -> None:
    """Whoever owes the decision has something to choose (R67, R70): the game's own legal actions say so."""
    if state.phase == OVER:
        return
    owed = rules.decision(state)
    for seat in owed.players:
        if not rules.legal_actions(state, seat):
            field = _DECISION_FIELDS.get(owed.kind, "sub")
            rule = " (before the placement a lay must still lead to one, R67)" if owed.kind == "produce" and not state.turn_placed else ""
            raise PositionError(field, f"seat {seat} owes the {owed.kind} decision but has no legal action{rule}")


def _check_premieres(state: MovieEmpireState) -> None:
    """This round's premieres: in the premiere phase and after, recorded among the released movies (§4.8, §4.9)."""
    if state.premieres and state.phase not in AFTER_WORKING:
        raise PositionError("premieres", f"lists premieres in the {state.phase} phase; movies premiere in the premiere phase (§4.8)")
    for number, premiere in enumerate(state.premieres):
        where = f"premieres[{number}]"
        if premiere.round != state.round:
            raise PositionError(where, f"is from round {premiere.round}; the list holds this round's premieres (round {state.round})")
        if not 0 <= premiere.seat < state.num_players:
            raise PositionError(where, f"is by seat {premiere.seat}; {_seat_words(state)}")
        if (premiere.script, premiere.genre, premiere.market) not in state.released[premiere.seat]:
            raise PositionError(
                where,
                f"premiered {premiere.script} in {premiere.market}, but it is not among seat {premiere.seat}'s "
                "released movies (§4.9 step 7)",
            )
    markets = [premiere.market for premiere in state.premieres if premiere.market != "NET"]
    if len(set(markets)) != len(markets):
        raise PositionError("premieres", "use a market twice; USA, EUR and CHN each take one premiere a round (§2.4)")
    if state.markets_used != markets:
        raise PositionError("markets_used", f"is {state.markets_used}; this round's premieres used {markets}")
    hit = any(premiere.hit for premiere in state.premieres)
    if state.trend_hit != hit:
        raise PositionError(
            "trend_hit", f"is {str(state.trend_hit).lower()}, but {'a' if hit else 'no'} premiere of this round hit the trend (§4.9 step 2)"
        )


# -- building positions for tests ------------------------------------------------------------------------


def position(
    num_players: int,
    *,
    options: Mapping[str, OptionValue] | None = None,
    round: int = 1,
    first_player: int = 0,
    seat: int | None = None,
    phase: str = WORKING,
    money: Sequence[int] | None = None,
    pp: Sequence[int] | None = None,
    sympathy: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    lines: Sequence[Sequence[Line | None]] | None = None,
    slots: Mapping[str, str | None] | None = None,
    plan: str | None = None,
    plan_pile: Sequence[str] = (),
    exempt: Sequence[bool] | None = None,
    dossier: Sequence[int | None] | None = None,
    statues: Sequence[int] | None = None,
    released: Sequence[Sequence[tuple[str, str, str]]] | None = None,
    placed: Sequence[int] | None = None,
    assistants: Mapping[str, int] | None = None,
    production_pile: Sequence[str] = (),
    star_pile: Sequence[str] = (),
    script_pile: Sequence[str] = (),
    trend_row: Sequence[str | None] | None = None,
    trend_pile: Sequence[str] = (),
) -> MovieEmpireState:
    """A position at the start of ``seat``'s working-phase turn (default: the first player).

    Piles are listed **top first**. ``lines`` gives each seat's line slots;
    ``slots`` maps card slots (PS1, SS2, SR1, …) to cards; ``assistants`` maps
    spaces to the seat whose assistant stands there. Everything not given is
    empty or zero, so a test states exactly what it relies on.
    """
    resolved = SPEC.resolve_options(num_players, dict(options or {}))
    data_dir = resolved.get("data")
    table = load_tables(str(data_dir) if data_dir else None)
    state = MovieEmpireState(table, num_players, 0, resolved)
    n = num_players
    state.round = round
    state.first_player = first_player
    state.money = list(money) if money is not None else [0] * n
    state.pp = list(pp) if pp is not None else [0] * n
    state.sympathy = list(sympathy) if sympathy is not None else [0] * n
    state.hands = [list(hand) for hand in hands] if hands is not None else [[] for _ in range(n)]
    if lines is not None:
        state.lines = [[*seat_lines, *([None] * (2 - len(seat_lines)))] for seat_lines in lines]
    for space_id, card in (slots or {}).items():
        state.slot_card[table.space_by_id[space_id].index] = card
    for space_id, owner in (assistants or {}).items():
        state.assistant[table.space_by_id[space_id].index] = owner
    state.plan = plan
    if plan is not None:
        state.plans_done = [plan]
    state.plan_pile = list(reversed(plan_pile))
    state.exempt = list(exempt) if exempt is not None else [False] * n
    state.dossier = [NO_SEAT if taken is None else taken for taken in dossier] if dossier is not None else [NO_SEAT] * n
    state.statues = list(statues) if statues is not None else [0] * n
    state.released = [list(movies) for movies in released] if released is not None else [[] for _ in range(n)]
    state.placed = list(placed) if placed is not None else [0] * n
    state.production_pile = list(reversed(production_pile))
    state.star_pile = list(reversed(star_pile))
    state.script_pile = list(reversed(script_pile))
    state.trend_row = list(trend_row) if trend_row is not None else [None, None, None]
    state.trend_pile = list(reversed(trend_pile))
    state.phase = phase
    if phase == WORKING:
        begin_turn(state, first_player if seat is None else seat)
    return state
