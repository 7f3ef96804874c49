"""How fast a search bot searches: iterations per second and seconds per move over a whole game.

The bot searches every real decision of one seat along a game played by the
game's medium bots, and both wall-clock and CPU time are reported (on a
shared machine CPU time is the steadier measure of the bot's own cost).

>>> from greenlight.core.registry import get_game
>>> row = search_speed(get_game("cinecitta"), 3, "search:20", seed=1)
>>> row["iterations"] == 20 * row["moves"]
True
"""

from __future__ import annotations

import time
from typing import Any

from greenlight.bots import make_bot
from greenlight.bots.ismcts import ISMCTSBot
from greenlight.core.bot import SeatView
from greenlight.core.game import Game
from greenlight.core.match import Match


def search_speed(game: Game[Any], num_players: int, bot_name: str = "hard", seed: int = 0, seat: int = 0) -> dict[str, Any]:
    """Search every real decision of ``seat`` in one game and report the cost per move and per iteration."""
    bot = make_bot(bot_name, game, seed)
    if not isinstance(bot, ISMCTSBot):
        raise ValueError(f"{bot_name!r} is not a search bot")
    others = [make_bot("medium", game, seed + 1 + other) for other in range(num_players)]
    match = Match.start(game, num_players, seed)
    wall: list[float] = []
    cpu: list[float] = []
    while not match.is_over():
        mover = match.decision().players[0]
        view = SeatView(game, match.state, mover)
        if mover == seat and len(match.legal_actions(mover)) > 1:
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            action = bot.choose(view)
            wall.append(time.perf_counter() - wall_start)
            cpu.append(time.process_time() - cpu_start)
        else:
            action = others[mover].choose(view)
        match.play(mover, action)
    iterations = bot.stats.iterations
    return {
        "game": game.spec.id,
        "players": num_players,
        "bot": bot_name,
        "moves": len(wall),
        "iterations": iterations,
        "iterations_per_cpu_second": iterations / sum(cpu) if sum(cpu) else 0.0,
        "iterations_per_second": iterations / sum(wall) if sum(wall) else 0.0,
        "mean_seconds_per_move": sum(wall) / len(wall) if wall else 0.0,
        "max_seconds_per_move": max(wall, default=0.0),
        "mean_cpu_seconds_per_move": sum(cpu) / len(cpu) if cpu else 0.0,
        "max_cpu_seconds_per_move": max(cpu, default=0.0),
    }


def compare_speed(
    game: Game[Any], num_players: int, bot_names: tuple[str, ...] = ("strong", "hard"), seed: int = 0, games: int = 1, seat: int = 0
) -> dict[str, Any]:
    """CPU seconds per move of several bots on the very same positions, interleaved, and each one's ratio to the last.

    Along ``games`` games played by the game's medium bots, every bot chooses
    at every real decision of ``seat`` (the order alternates from one decision
    to the next, so a change of load hits every bot alike); the medium bot's
    move is played, so the positions do not depend on the bots measured. The
    last bot is the reference: ``times_faster[name]`` is its CPU time over
    ``name``'s.
    """
    cpu = {name: 0.0 for name in bot_names}
    moves = 0
    for game_index in range(games):
        game_seed = seed + game_index
        bots = {name: make_bot(name, game, game_seed * 7919 + index) for index, name in enumerate(bot_names)}
        players = [make_bot("medium", game, game_seed + 1 + other) for other in range(num_players)]
        match = Match.start(game, num_players, game_seed)
        while not match.is_over():
            mover = match.decision().players[0]
            view = SeatView(game, match.state, mover)
            if mover == seat and len(match.legal_actions(mover)) > 1:
                order = list(bot_names) if moves % 2 == 0 else list(reversed(bot_names))
                for name in order:
                    start = time.process_time()
                    bots[name].choose(SeatView(game, match.state, mover))
                    cpu[name] += time.process_time() - start
                moves += 1
            match.play(mover, players[mover].choose(view))
    reference = cpu[bot_names[-1]]
    return {
        "game": game.spec.id,
        "players": num_players,
        "games": games,
        "moves": moves,
        "cpu_seconds_per_move": {name: spent / moves if moves else 0.0 for name, spent in cpu.items()},
        "times_faster": {name: reference / spent if spent else 0.0 for name, spent in cpu.items()},
    }
