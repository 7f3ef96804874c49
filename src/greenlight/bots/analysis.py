"""Analysis: what the search thinks of every legal move of one seat, from what that seat may know.

:func:`analyse` runs the ``hard`` level's search (ISMCTS over
determinizations drawn from the seat's own view, exactly as the bots play)
for a time or iteration budget and reports, for each legal action, the
estimated win share and how often the search tried it. It never reads a
hidden part of the state: every world it searches is a determinization for
that seat, which the conformance harness proves depends only on what the
seat sees.

>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> state = game.new_state(3, seed=4)
>>> moves = analyse(game, state, seat=0, iterations=60, seed=1)
>>> len(moves) == len(game.legal_actions(state, 0)), sum(move.visits for move in moves)
(True, 60)
>>> moves[0].visits >= moves[-1].visits
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from greenlight.bots.ismcts import SearchConfig, root_estimates
from greenlight.bots.levels import hard_search
from greenlight.core.actions import Action
from greenlight.core.bot import SeatView
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.state import GameState


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One legal move as the search sees it: its text and words, its estimated win share (0-1) and its visits."""

    action: Action
    text: str
    words: str
    win_share: float
    visits: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"action": self.text, "words": self.words, "win_share": round(self.win_share, 4), "visits": self.visits}


def analyse(
    game: Game[Any],
    state: GameState,
    seat: int,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    config: SearchConfig | None = None,
    among: Collection[Action] | None = None,
) -> list[MoveEstimate]:
    """Every legal action of ``seat`` (or only those ``among``), best first (most visited, then higher win share),
    with the search's estimates.

    The budget is ``seconds`` and/or ``iterations`` (default one second); ``config`` replaces the game's ``hard``
    search settings. A move the search never tried (possible under a tiny budget, or among many moves with
    widening) has 0 visits and win share 0: pass ``among`` to give a few moves the whole budget.
    Raises IllegalActionError if ``seat`` has nothing to decide now.
    """
    view = SeatView(game, state, seat)
    legal = view.legal_actions()
    if among is not None:
        legal = [action for action in legal if action in among]
    if not legal:
        raise IllegalActionError(f"seat {seat} has nothing to decide now, so there is nothing to analyse")
    base = config or hard_search(game)
    if seconds is None and iterations is None:
        seconds = 1.0
    budget = dataclasses.replace(base, seconds=seconds, iterations=iterations, steps=None)
    estimates: dict[Action, tuple[int, float]] = {}
    if len(legal) > 1:
        estimates = root_estimates(view, budget, random.Random(f"analysis/{seed}"), frozenset(legal) if among is not None else None)
    moves = []
    for action in legal:
        visits, win_share = estimates.get(action, (0, 0.0))
        moves.append(MoveEstimate(action, str(action), game.describe_action(state, seat, action), win_share, visits))
    return sorted(moves, key=lambda move: (-move.visits, -move.win_share))
