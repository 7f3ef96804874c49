"""What each seat may see (rules §8) and its secrets (``determinization`` redraws the hidden part; the words are in ``words``)."""

from __future__ import annotations

import random

from greenlight.core.views import observation_header
from greenlight.games.movie_empire import determinization, rules
from greenlight.games.movie_empire.cards import STAGE_WORDS, STAGES, T_PRODUCTION, T_SCRIPT, T_STAR, Tables
from greenlight.games.movie_empire.effects import level, usable_dossier
from greenlight.games.movie_empire.lines import Line, metrics
from greenlight.games.movie_empire.observation import HandCounts, LineView, LineWithPreview, MovieEmpireObservation, PlayerView, SpaceView
from greenlight.games.movie_empire.premiere import premiere_json
from greenlight.games.movie_empire.scoring import final_breakdowns, rank
from greenlight.games.movie_empire.state import NO_SEAT, OVER, WORKING, MovieEmpireState
from greenlight.games.movie_empire.words import PHASE_WORDS, final_rows, line_preview, premiere_summary
from greenlight.games.movie_empire.working import in_use

# -- observations ----------------------------------------------------------------------------------


def line_json(table: Tables, index: int, line: Line | None) -> LineView | None:
    """Public JSON form of a production line (shut lines keep their known script, §8)."""
    if line is None:
        return None
    m = metrics(table, line)
    return {
        "slot": index + 1,
        "script": line.script,
        "genre": m.genre,
        "cards": [
            {"card": card, "stage": STAGES[stage], "stage_words": STAGE_WORDS[STAGES[stage]], "stacked": stacked}
            for card, stage, stacked in zip(line.cards, line.stages, line.stacked, strict=True)
        ],
        "stars": list(line.stars),
        "shut": line.shut,
        "locked": line.locked,
        "period": m.period,
        "counts": dict(zip(STAGES, m.counts, strict=True)),
        "script_met": m.script_met,
    }


def _space_json(state: MovieEmpireState, space_index: int) -> SpaceView:
    table = state.table
    space = table.spaces[space_index]
    item: SpaceView = {
        "id": space.id,
        "task": space.task_name,
        "money": space.money,
        "assistant": _seat_or_none(state.assistant[space_index]),
        "blocked_by": _seat_or_none(state.blocked[space_index]),
    }
    if space.task in (T_PRODUCTION, T_SCRIPT, T_STAR):
        card = state.slot_card[space_index]
        item["card"] = card
        if space.task == T_PRODUCTION:
            item["surcharge"] = space.surcharge
            item["price"] = table.production[card].cost + space.surcharge if card is not None else None
        elif space.task == T_STAR:
            item["price"] = table.stars[card].cost if card is not None else None
    if space.task_name == "release":
        item["cut_by"] = _seat_or_none(state.cut_by[space_index])
        line = state.release_line[space_index]
        item["line"] = line + 1 if line != NO_SEAT else None
    return item


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NO_SEAT else seat


def _hand_counts(state: MovieEmpireState, seat: int) -> HandCounts:
    """The kinds of card in a hand are public: the three decks have different backs."""
    counts: HandCounts = {"production": 0, "star": 0, "script": 0}
    for card in state.hands[seat]:
        counts[state.table.kind_of(card)] += 1
    return counts


def _player_json(state: MovieEmpireState, seat: int) -> PlayerView:
    bar = level(state, seat)
    return {
        "seat": seat,
        "money": state.money[seat],
        "pp": state.pp[seat],
        "sympathy": state.sympathy[seat],
        "budget": bar.budget,
        "lines_allowed": bar.lines,
        "hand_size": len(state.hands[seat]),
        "hand_counts": _hand_counts(state, seat),
        "known_cards": sorted(state.known[seat]),
        "assistants_placed": state.placed[seat],
        "passed": state.passed[seat],
        "dossier_round": _seat_or_none(state.dossier[seat]),
        "dossier_usable": usable_dossier(state, seat),
        "dossiers_spent": state.spent[seat],
        "exempt": state.exempt[seat],
        "statues": state.statues[seat],
        "released": [list(movie) for movie in state.released[seat]],
        "lines": [_line_with_preview(state, seat, index, line) for index, line in enumerate(state.lines[seat])],
        "drawn_count": len(state.drawn[seat]),
        "dealt_count": len(state.dealt[seat]),
    }


def _line_with_preview(state: MovieEmpireState, seat: int, index: int, line: Line | None) -> LineWithPreview | None:
    """A line's public form with its premiere preview (what it would score now, what it meets or misses)."""
    item = line_json(state.table, index, line)
    if item is None:
        return None
    return {**item, "preview": line_preview(state, seat, index) if state.phase != OVER else None}


def observe(state: MovieEmpireState, viewer: int | None) -> MovieEmpireObservation:
    """The JSON-ready view of ``viewer`` (None = spectator), built only from what that seat may see (§8)."""
    table = state.table
    decision = rules.decision(state)
    view: MovieEmpireObservation = {
        **observation_header("movie-empire", viewer, state.num_players, state.options),
        "round": state.round,
        "last_round": state.last_round,
        "phase": state.phase,
        "phase_words": PHASE_WORDS[state.phase],
        "first_player": state.first_player,
        "decision": {"kind": decision.kind, "players": list(decision.players), "committed": list(decision.committed)},
        "plan": {
            "active": state.plan,
            "next": state.plan_pile[-1] if state.plan_pile else None,
            "revealed": list(state.plans_done),
            "pile": len(state.plan_pile),
        },
        "trends": {
            "row": list(state.trend_row),
            "active": state.trend_row[2],
            "hit": state.trend_hit,
            "pile": len(state.trend_pile),
            "removed": len(state.trend_removed),
        },
        "spaces": [_space_json(state, space.index) for space in in_use(state)],
        "markets_used": list(state.markets_used),
        "piles": {"production": len(state.production_pile), "star": len(state.star_pile), "script": len(state.script_pile)},
        "discards": {
            "production": list(state.production_discard),
            "star": list(state.star_discard),
            "script": list(state.script_discard),
        },
        "players": [_player_json(state, seat) for seat in range(state.num_players)],
        "premieres": [{**premiere_json(result), "words": premiere_summary(table, premiere_json(result))} for result in state.premieres],
    }
    if state.phase == WORKING:
        view["turn"] = {
            "seat": state.turn_seat,
            "placed": state.turn_placed,
            "produced": state.turn_produced,
            "target": state.target + 1 if state.target != NO_SEAT else None,
            "lays": state.lays,
            "swap_card": state.sub_card,
            "release_space": table.spaces[state.sub_space].id if state.sub_space != NO_SEAT else None,
        }
    if state.net_items and state.net_pos < len(state.net_items):
        seat, space = state.net_items[state.net_pos]
        view["internet"] = {"seat": seat, "release_space": table.spaces[space].id if space != NO_SEAT else None}
    if viewer is not None:
        view["hand"] = list(state.hands[viewer])
        view["drawn"] = list(state.drawn[viewer])
        view["dealt"] = list(state.dealt[viewer])
        commitment = state.commit[viewer]
        view["my_commitment"] = list(commitment) if commitment is not None else None
        view["gifted"] = list(state.gifted[viewer])
    if state.phase == OVER:
        breakdowns = final_breakdowns(state)
        result = rank(breakdowns)
        view["final"] = {
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "winners": list(result.winners),
            "breakdown": breakdowns,
        }
        view["final_rows"] = final_rows(breakdowns)
    return view


def _fixed_cards(state: MovieEmpireState, viewer: int | None, seat: int) -> list[str]:
    """Cards of ``seat``'s hand that ``viewer`` knows are there: taken face up, or given by the viewer (AP12)."""
    fixed = list(state.known[seat])
    if viewer is not None and seat == state.left_of(viewer):
        fixed.extend(state.gifted[viewer])
    return fixed


def _split_hand(hand: list[str], fixed: list[str]) -> tuple[list[str], list[str]]:
    """(known part, hidden part) of a hand, as multisets."""
    rest = list(hand)
    known: list[str] = []
    for card in fixed:
        if card in rest:
            rest.remove(card)
            known.append(card)
    return known, rest


def secrets(state: MovieEmpireState, viewer: int | None) -> frozenset[str]:
    """Card ids hidden from ``viewer`` with no visible copy anywhere (copies share ids, so visible ones are excluded)."""
    hidden: set[str] = set(state.production_pile) | set(state.star_pile) | set(state.script_pile)
    hidden.update(state.trend_pile, state.trend_removed, state.plan_pile[:-1])
    for seat in range(state.num_players):
        if seat == viewer:
            continue
        _, rest = _split_hand(state.hands[seat], _fixed_cards(state, viewer, seat))
        hidden.update(rest)
        hidden.update(state.drawn[seat])
        hidden.update(state.dealt[seat])
    visible: set[str] = {card for card in state.slot_card if card is not None}
    for lines in state.lines:
        for line in lines:
            if line is not None:
                visible.add(line.script)
                visible.update(line.cards)
                visible.update(card for card in line.stacked if card is not None)
                visible.update(line.stars)
    visible.update(state.production_discard, state.star_discard, state.script_discard)
    visible.update(card for movies in state.released for card, _, _ in movies)
    visible.update(card for card in state.trend_row if card is not None)
    visible.update(state.plans_done)
    if state.plan_pile:
        visible.add(state.plan_pile[-1])
    for seat in range(state.num_players):
        visible.update(state.known[seat])
    if viewer is not None:
        visible.update(state.hands[viewer], state.drawn[viewer], state.dealt[viewer], state.gifted[viewer])
    return frozenset(hidden - visible)


def determinize(state: MovieEmpireState, viewer: int | None, rng: random.Random) -> MovieEmpireState:
    """A full position ``viewer`` cannot tell from ``state``, every hidden part drawn again (see ``determinization``)."""
    return determinization.determinize(state, viewer, rng)
