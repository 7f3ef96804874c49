"""Play one seeded game with named bots and return a plain result row.

A :class:`GameTask` is plain, picklable data (game id, player count, options,
seed, one bot name and seed per seat), so it can run in any process; playing
it always gives the same :class:`GameResult` apart from the timing fields.
Games are driven through :class:`greenlight.core.match.Match`, so every bot
move is checked for legality exactly as the server checks a player's move.

>>> task = GameTask("cinecitta", 3, seed=5, bots=("random", "random", "random"), bot_seeds=(1, 2, 3))
>>> result = play_game(task)
>>> result.length, len(result.scores), sum(result.returns)
(72, 3, 1.0)
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from greenlight.bots import make_bot
from greenlight.bots.ismcts import SearchStats
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.sim.gamestats import game_statistics


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: everything needed to reproduce it."""

    game: str
    num_players: int
    seed: int
    bots: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    #: Position of the task in its batch (results are returned in this order).
    index: int = 0
    #: Keep the full game record (actions) in the result.
    keep_record: bool = False
    #: Compute the game's own per-game statistics (see :mod:`greenlight.sim.gamestats`) into the result.
    stats: bool = False

    def __post_init__(self) -> None:
        if len(self.bots) != self.num_players or len(self.bot_seeds) != self.num_players:
            raise ValueError(f"a {self.num_players}-player game needs one bot and one bot seed per seat")


@dataclass(slots=True)
class SeatTiming:
    """How long one seat's bot thought: all moves, moves with a real choice, seconds, search iterations."""

    moves: int = 0
    choices: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    iterations: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "moves": self.moves,
            "choices": self.choices,
            "seconds": self.seconds,
            "max_seconds": self.max_seconds,
            "iterations": self.iterations,
        }


@dataclass(slots=True)
class GameResult:
    """The plain result row of one game. Equality ignores timing (which differs between runs)."""

    index: int
    game: str
    num_players: int
    seed: int
    options: dict[str, OptionValue]
    bots: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    #: Win share per seat (1/k for each of k winners).
    returns: tuple[float, ...]
    breakdown: tuple[dict[str, Any], ...]
    #: Number of actions in the game.
    length: int
    record: dict[str, Any] | None = None
    timing: tuple[SeatTiming, ...] = field(default=(), compare=False)
    #: The game's per-game statistics (:func:`greenlight.sim.gamestats.game_statistics`), if the task asked for them.
    stats: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "index": self.index,
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "bots": list(self.bots),
            "bot_seeds": list(self.bot_seeds),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "returns": list(self.returns),
            "breakdown": [dict(item) for item in self.breakdown],
            "length": self.length,
            "record": self.record,
            "timing": [item.to_json() for item in self.timing],
            "stats": self.stats,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """Read a row written by :meth:`to_json`."""
        return cls(
            index=int(data["index"]),
            game=str(data["game"]),
            num_players=int(data["num_players"]),
            seed=int(data["seed"]),
            options=dict(data["options"]),
            bots=tuple(data["bots"]),
            bot_seeds=tuple(data["bot_seeds"]),
            scores=tuple(float(score) for score in data["scores"]),
            ranks=tuple(data["ranks"]),
            winners=tuple(data["winners"]),
            returns=tuple(float(value) for value in data["returns"]),
            breakdown=tuple(dict(item) for item in data["breakdown"]),
            length=int(data["length"]),
            record=data.get("record"),
            timing=tuple(SeatTiming(**item) for item in data.get("timing", ())),
            stats=data.get("stats"),
        )


def play_game(task: GameTask) -> GameResult:
    """Play ``task`` to the end with its bots and return the result row.

    Raises the engine's ``IllegalActionError`` if a bot picks an illegal action.
    """
    game = get_game(task.game)
    bots = [make_bot(name, game, seed) for name, seed in zip(task.bots, task.bot_seeds, strict=True)]
    match = Match.start(game, task.num_players, task.seed, task.options)
    timing = [SeatTiming() for _ in range(task.num_players)]
    while True:
        decision = match.decision()
        if decision.is_terminal:
            break
        # Seats of a simultaneous step commit one after another; each sees only its own view.
        seat = decision.players[0]
        choices = len(match.legal_actions(seat))
        started = time.perf_counter()
        action = bots[seat].choose(SeatView(game, match.state, seat))
        spent = time.perf_counter() - started
        match.play(seat, action)
        seat_timing = timing[seat]
        seat_timing.moves += 1
        seat_timing.choices += choices > 1
        seat_timing.seconds += spent
        seat_timing.max_seconds = max(seat_timing.max_seconds, spent)
    for seat_timing, bot in zip(timing, bots, strict=True):
        stats = getattr(bot, "stats", None)
        if isinstance(stats, SearchStats):
            seat_timing.iterations = stats.iterations
    outcome = match.outcome()
    return GameResult(
        index=task.index,
        game=game.spec.id,
        num_players=task.num_players,
        seed=task.seed,
        options=dict(match.record.options),
        bots=tuple(task.bots),
        bot_seeds=tuple(task.bot_seeds),
        scores=outcome.scores,
        ranks=outcome.ranks,
        winners=outcome.winners,
        returns=outcome.returns(),
        breakdown=tuple(dict(item) for item in outcome.breakdown),
        length=len(match.record.actions),
        record=match.record.to_json() if task.keep_record else None,
        timing=tuple(timing),
        stats=game_statistics(match) if task.stats else None,
    )
