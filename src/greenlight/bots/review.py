"""Game review: every decision of one seat, the move played against the best move the search finds.

:func:`review_game` replays a record and, at each decision where the
reviewed seat had a real choice, runs :func:`greenlight.bots.analyse` on the
position as it stood just before that move, from that seat's view only (the
same determinizations the bots use), so a review never uses anything the
seat did not know at that point. Each decision gets a label by the estimated
loss in win share, ``best - played``:

=============  ==================
label          estimated loss
=============  ==================
``good``       below 0.05
``inaccuracy`` 0.05 to below 0.10
``mistake``    0.10 to below 0.20
``blunder``    0.20 or more
=============  ==================

>>> [label_for(loss) for loss in (0.0, 0.05, 0.12, 0.35)]
['good', 'inaccuracy', 'mistake', 'blunder']
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from greenlight.bots.analysis import MoveEstimate, analyse
from greenlight.core.actions import Action
from greenlight.core.errors import RecordError
from greenlight.core.game import Game
from greenlight.core.record import Record, start_state
from greenlight.core.state import GameState

#: Estimated loss (in win share) from which a move is an inaccuracy, a mistake, a blunder.
THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
LABELS = ("good", "inaccuracy", "mistake", "blunder")
#: Fewest tries of the move played for its estimate to stand; below it the move is searched again beside the best.
MIN_VISITS = 10


def label_for(loss: float) -> str:
    """The label of a move that loses ``loss`` of win share against the best move found."""
    for label, threshold in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return label
    return "good"


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision of the reviewed seat: the move played and the best found, both estimated, and the verdict."""

    move: int
    prompt: str
    played: MoveEstimate
    best: MoveEstimate
    choices: int

    @property
    def loss(self) -> float:
        """Estimated win share given up by the move played (0 when it is the best move found)."""
        return 0.0 if self.played.action == self.best.action else max(0.0, self.best.win_share - self.played.win_share)

    @property
    def label(self) -> str:
        """good, inaccuracy, mistake or blunder (see the module docstring)."""
        return label_for(self.loss)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "move": self.move,
            "prompt": self.prompt,
            "choices": self.choices,
            "played": self.played.to_json(),
            "best": self.best.to_json(),
            "loss": round(self.loss, 4),
            "label": self.label,
        }


@dataclass(slots=True)
class Review:
    """A seat's review of one game: its decisions in order, with the settings that made them."""

    game: str
    title: str
    seat: int
    seat_name: str
    seconds: float
    moves: int
    decisions: list[ReviewedMove] = field(default_factory=list)
    result: str = ""

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        return {label: sum(1 for item in self.decisions if item.label == label) for label in LABELS}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``review.json``)."""
        return {
            "game": self.game,
            "title": self.title,
            "seat": self.seat,
            "seat_name": self.seat_name,
            "seconds_per_decision": self.seconds,
            "moves": self.moves,
            "thresholds": {label: threshold for label, threshold in THRESHOLDS},
            "counts": self.counts(),
            "result": self.result,
            "decisions": [item.to_json() for item in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class AnalysisRequest:
    """One search a review needs: ``analyse(game, state, seat, **budget, seed=seed, among=among)``.

    ``done`` of ``total`` decisions are reviewed before this one (for a progress bar).
    """

    state: GameState
    seat: int
    seed: int
    among: frozenset[Action] | None
    budget: dict[str, Any]
    done: int
    total: int


ReviewSteps = Generator[AnalysisRequest, list[MoveEstimate], Review]


def review_steps(game: Game[Any], record: Record, seat: int, *, seconds: float = 1.0, iterations: int | None = None) -> ReviewSteps:
    """The review of ``seat`` in ``record`` as a generator: it yields each search it needs and is sent the result.

    The caller runs the searches where it likes (here, or in the web server's worker processes, one at a time
    between other work); :func:`review_game` is the plain loop. The generator's return value is the Review.
    """
    if not 0 <= seat < record.num_players:
        raise RecordError(f"seat must be 0 to {record.num_players - 1} in a {record.num_players}-player game")
    names = record.seat_names()
    state = start_state(record, game)
    todo: list[int] = []
    probe = state.clone()
    for index, (mover, text) in enumerate(record.actions):
        if mover == seat and len(game.legal_actions(probe, seat)) > 1:
            todo.append(index)
        game.apply(probe, mover, game.parse_action(text))
    review = Review(game.spec.id, game.spec.title, seat, names[seat], seconds if iterations is None else 0.0, len(record.actions))
    budget: dict[str, Any] = {"iterations": iterations} if iterations is not None else {"seconds": seconds}
    for index, (mover, text) in enumerate(record.actions):
        action = game.parse_action(text)
        if index in todo:
            done = len(review.decisions)
            estimates = yield AnalysisRequest(state.clone(), seat, index, None, budget, done, len(todo))
            played = next(move for move in estimates if move.action == action)
            best = estimates[0]
            if played.action != best.action and played.visits < max(MIN_VISITS, best.visits // 4):
                # Too few tries to judge the move played: compare it with the best move, the two alone, on the same budget.
                pair = yield AnalysisRequest(state.clone(), seat, index, frozenset({action, best.action}), budget, done, len(todo))
                by_action = {move.action: move for move in pair}
                played, best = by_action[action], by_action[best.action]
            if played.win_share >= best.win_share:
                best = played  # judged at least as good as the search's favourite: it is the best move found
            review.decisions.append(ReviewedMove(index + 1, game.decision(state).prompt, played, best, len(estimates)))
        game.apply(state, mover, action)
    if game.is_terminal(state):
        outcome = game.outcome(state)
        place = outcome.ranks[seat]
        review.result = f"{names[seat]} {'won' if seat in outcome.winners else f'finished in place {place}'} with {outcome.scores[seat]:g}"
    return review


def run_request(game: Game[Any], request: AnalysisRequest) -> list[MoveEstimate]:
    """The search ``request`` asks for."""
    return analyse(game, request.state, request.seat, seed=request.seed, among=request.among, **request.budget)


def review_game(
    game: Game[Any],
    record: Record,
    seat: int,
    *,
    seconds: float = 1.0,
    iterations: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of ``seat`` in ``record`` (a real choice: forced moves are skipped).

    ``seconds`` (or ``iterations``, for a reproducible review) is the search budget per decision; ``progress`` is
    called with (decisions done, decisions in all) after each one.
    """
    steps = review_steps(game, record, seat, seconds=seconds, iterations=iterations)
    try:
        request = next(steps)
        while True:
            result = run_request(game, request)
            if progress is not None and request.among is None and request.done:
                progress(request.done, request.total)
            request = steps.send(result)
    except StopIteration as finished:
        review: Review = finished.value
        if progress is not None and review.decisions:
            progress(len(review.decisions), len(review.decisions))
        return review
