"""Bot moves thought out in worker processes give the same action as the bot in this process."""

from __future__ import annotations

import asyncio

import pytest

from greenlight.bots import make_bot
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.web.thinking import BotPool


def positions() -> list[tuple[str, Match]]:
    """A position twelve moves into each game."""
    found = []
    for game_id, players in (("cinecitta", 3), ("maybe-movies", 4), ("movie-empire", 2)):
        match = Match.start(get_game(game_id), players, 5)
        for _ in range(12):
            seat = match.decision().players[0]
            match.play(seat, match.legal_actions(seat)[-1])
        found.append((game_id, match))
    return found


@pytest.mark.parametrize("workers", [1, 0])
def test_a_worker_chooses_what_the_bot_chooses_here(workers: int) -> None:
    pool = BotPool(workers)

    async def choices() -> list[tuple[str, str]]:
        results = []
        for game_id, match in positions():
            seat = match.decision().players[0]
            for level in ("random", "medium", "search:40"):
                chosen = await pool.choose(game_id, level, 77, match.state.clone(), seat)
                results.append((chosen, str(make_bot(level, match.game, 77).choose(SeatView(match.game, match.state, seat)))))
        return results

    try:
        for chosen, here in asyncio.run(choices()):
            assert chosen == here
    finally:
        pool.close()


def test_a_closed_pool_starts_again_on_the_next_move() -> None:
    pool = BotPool(1)
    game_id, match = positions()[0]
    seat = match.decision().players[0]
    legal = {str(action) for action in match.legal_actions(seat)}
    try:
        assert asyncio.run(pool.choose(game_id, "random", 1, match.state.clone(), seat)) in legal
        pool.close()
        assert asyncio.run(pool.choose(game_id, "random", 1, match.state.clone(), seat)) in legal
    finally:
        pool.close()
