"""The premiere phase (§4.8) and the scoring of one premiere (§4.9, R40-R45)."""

from __future__ import annotations

from dataclasses import dataclass

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.movie_empire.actions import SKIP, Market, Net
from greenlight.games.movie_empire.cards import BOARD_MARKETS, Space, Tables
from greenlight.games.movie_empire.effects import change_sympathy, queue_checks
from greenlight.games.movie_empire.events import Premiered
from greenlight.games.movie_empire.lines import Line, Metrics, holds, metrics, production_pp
from greenlight.games.movie_empire.state import NO_SEAT, MovieEmpireState, Premiere
from greenlight.games.movie_empire.working import board_of, draw_blind, plan_blocks_release, release_ok

USA_MONEY = 3
EUR_PP = 2
CHN_DRAW = 1
NET_COST = 2
LONG_PERIOD = 6
LONG_PERIOD_PP = 2

_MARKETS = {market: Market(market) for market in BOARD_MARKETS}


def release_spaces(state: MovieEmpireState) -> tuple[Space, ...]:
    """RL1, RL2, RL3 in top-to-bottom order (R36)."""
    return board_of(state).releases


def free_markets(state: MovieEmpireState) -> list[str]:
    """Markets among USA, EUR and CHN not used yet this round (R37)."""
    return [market for market in BOARD_MARKETS if market not in state.markets_used]


def pending_release(state: MovieEmpireState, spaces: tuple[Space, ...] | None = None) -> tuple[int, int] | None:
    """(owner, line) of the release space at ``prem_pos`` if it premieres (§4.8 step 1), else None.

    ``spaces`` are the release spaces, when the caller has them already.
    """
    if spaces is None:
        spaces = release_spaces(state)
    if state.prem_pos >= len(spaces):
        return None
    index = spaces[state.prem_pos].index
    owner = state.assistant[index]
    if owner == NO_SEAT or state.cut_by[index] != NO_SEAT:
        return None
    line_index = state.release_line[index]
    line = state.lines[owner][line_index] if line_index != NO_SEAT else None
    if line is None or line.shut:  # R30: a shut released line does not premiere
        return None
    return owner, line_index


def market_actions(state: MovieEmpireState) -> list[Action]:
    """The owner's choice among the free markets."""
    return [_MARKETS[market] for market in free_markets(state)]


@dataclass(frozen=True, slots=True)
class Score:
    """What a line scores in one market with one trend (§4.9 steps 1-6), before any effect is applied."""

    parts: tuple[tuple[str, int], ...]
    hit: bool
    long_production: bool
    waived: bool

    @property
    def total(self) -> int:
        """The PP of every source together."""
        return sum(pp for _, pp in self.parts)


def premiere_score(table: Tables, line: Line, market: str, trend_id: str | None, m: Metrics | None = None) -> Score:
    """The PP of each source for ``line`` premiering in ``market`` while ``trend_id`` is active (R40, R41, R44).

    Pure: the same numbers ``score_premiere`` adds, so previews show exactly what a premiere would score.
    ``m`` may give the line's metrics when the caller has them already.
    """
    if m is None:
        m = metrics(table, line)
    trend = table.trends[trend_id] if trend_id is not None else None
    hit = market != "NET" and trend is not None and holds(trend.requirement, m)
    trend_pp = 0
    if hit:
        assert trend is not None
        trend_pp = trend.pp_with if trend.market is None or trend.market == market else trend.pp_without  # R41
    script = table.scripts[line.script]
    stars_pp = sum(table.stars[star].pp for star in line.stars if holds(table.stars[star].requirement, m))
    long_production = m.period >= LONG_PERIOD
    parts = (
        ("market", EUR_PP if market == "EUR" else 0),
        ("trend", trend_pp),
        ("script", script.pp if m.script_met else 0),
        ("stars", stars_pp),
        ("period", LONG_PERIOD_PP if long_production else 0),
        ("production", production_pp(table, line)),
    )
    waived = hit and trend is not None and trend.waives_long_production_sympathy
    return Score(parts, hit, long_production, waived)


def score_premiere(state: MovieEmpireState, seat: int, line_index: int, market: str, events: list[Event]) -> None:
    """Score one premiere in the order market, trend, script, stars, period, production cards, cleanup (R40)."""
    table = state.table
    line = state.lines[seat][line_index]
    assert line is not None
    trend_id = state.trend_row[2]
    score = premiere_score(table, line, market, trend_id)  # metrics as the line stands at the start of scoring
    money_before, sympathy_before = state.money[seat], state.sympathy[seat]
    changed: set[int] = set()
    # Step 0 and 1: market.
    if market == "NET":
        state.money[seat] -= NET_COST
    elif market == "USA":
        state.money[seat] += USA_MONEY
    if market == "CHN":
        draw_blind(state, seat, CHN_DRAW, "china", events)
    # Step 2: trend (never on the Internet).
    statue = False
    if score.hit:
        if not state.trend_hit:  # R42, R43
            statue = True
            state.trend_hit = True
            state.statues[seat] += 1
            for other in state.turn_order():
                if other != seat:
                    change_sympathy(state, other, -1, events, "trend first hit by another")
                    changed.add(other)
        change_sympathy(state, seat, 1, events, "trend hit")
    # Steps 3 and 4 (script, stars) change nothing but PP. Step 5: production period.
    if score.long_production and not score.waived:  # R44
        change_sympathy(state, seat, -1, events, "long production")
    # Step 6: production cards.
    total = score.total
    state.pp[seat] += total
    # Step 7: cleanup.
    script = table.scripts[line.script]
    state.production_discard.extend(line.all_cards())
    state.star_discard.extend(line.stars)
    state.released[seat].append((line.script, script.genre, market))
    state.lines[seat][line_index] = None
    if market != "NET":
        state.markets_used.append(market)
    result = Premiere(
        state.round,
        seat,
        line_index + 1,
        line.script,
        script.genre,
        market,
        trend_id if market != "NET" else None,
        score.hit,
        statue,
        score.parts,
        total,
        state.money[seat] - money_before,
        state.sympathy[seat] - sympathy_before,
    )
    state.premieres.append(result)
    events.append(Event("premiere", premiere_json(result)))
    # Step 8: line-limit checks for the owner (a slot was freed) and everyone whose sympathy changed (R28, R29).
    queue_checks(state, changed | {seat})


def premiere_json(result: Premiere) -> Premiered:
    """Public JSON form of a premiere result."""
    return {
        "round": result.round,
        "seat": result.seat,
        "line": result.line,
        "script": result.script,
        "genre": result.genre,
        "market": result.market,
        "trend": result.trend,
        "hit": result.hit,
        "statue": result.statue,
        "parts": {name: pp for name, pp in result.parts},
        "total": result.total,
        "money": result.money,
        "sympathy": result.sympathy,
    }


# -- the Internet (§4.8 step 2, R38) ---------------------------------------------------------------


def build_net_items(state: MovieEmpireState) -> list[tuple[int, int]]:
    """Who may premiere on NET, in turn order: cut releases in RL order (a), then in the last round players without a release (b)."""
    if state.num_players < 3:
        return []
    spaces = release_spaces(state)
    assistant, cut_by = state.assistant, state.cut_by
    last_round = state.round == state.last_round
    items: list[tuple[int, int]] = []
    for seat in state.turn_order():
        has_release = False
        for space in spaces:
            if assistant[space.index] == seat:
                has_release = True
                if cut_by[space.index] != NO_SEAT:
                    items.append((seat, space.index))
        if not has_release and last_round:
            items.append((seat, NO_SEAT))
    return items


def net_lines(state: MovieEmpireState, seat: int, space_index: int) -> list[int]:
    """The lines ``seat`` may premiere on NET for this item (money for the fee is needed)."""
    if state.money[seat] < NET_COST:
        return []
    if space_index == NO_SEAT:  # case (b): one open line passing release_ok
        return [index for index in (0, 1) if release_ok(state, seat, index)]
    line_index = state.release_line[space_index]
    line = state.lines[seat][line_index] if line_index != NO_SEAT else None
    if line is None or line.shut or plan_blocks_release(state, seat, line):  # the cut line, if open (R39)
        return []
    return [line_index]


def net_actions(state: MovieEmpireState) -> list[Action]:
    """``net <line>`` for each eligible line, or ``net skip``."""
    seat, space_index = state.net_items[state.net_pos]
    return [*(Net(str(index + 1)) for index in net_lines(state, seat, space_index)), Net(SKIP)]
