"""Building explicit positions for tests, puzzles and examples.

>>> from greenlight.games.movie_empire.lines import build_line
>>> from greenlight.games.movie_empire.cards import load_tables
>>> state = position(2, hands=[["PB01"], []], lines=[[build_line(load_tables(), "SA01", ["PB08"])], []])
>>> state.phase, state.turn_seat, state.hands[0]
('working', 0, ['PB01'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from greenlight.core.spec import OptionValue
from greenlight.games.movie_empire.cards import load_tables
from greenlight.games.movie_empire.flow import begin_turn
from greenlight.games.movie_empire.lines import Line
from greenlight.games.movie_empire.spec import SPEC
from greenlight.games.movie_empire.state import NO_SEAT, WORKING, MovieEmpireState


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
