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


def test_bot_work_is_shared_round_robin_between_table_creators() -> None:
    """One creator's many waiting moves cannot keep another creator's move waiting behind all of them."""

    async def scenario() -> list[str]:
        pool = BotPool(workers=1)
        granted: list[str] = []
        await pool._turn("busy")  # the one worker is taken

        async def wait_turn(owner: str, label: str) -> None:
            await pool._turn(owner)
            granted.append(label)
            await asyncio.sleep(0)
            pool._hand_on()

        waiters = [asyncio.create_task(wait_turn("busy", f"busy-{n}")) for n in range(5)]
        await asyncio.sleep(0)
        waiters.append(asyncio.create_task(wait_turn("other", "other-0")))
        await asyncio.sleep(0)
        assert pool.waiting() == {"busy": 5, "other": 1}
        pool._hand_on()  # the first move is done
        await asyncio.gather(*waiters)
        assert pool.waiting() == {} and pool._free == 1
        return granted

    assert asyncio.run(scenario()) == ["busy-0", "other-0", "busy-1", "busy-2", "busy-3", "busy-4"]


def test_a_cancelled_wait_for_a_worker_gives_up_its_place() -> None:
    async def scenario() -> None:
        pool = BotPool(workers=1)
        await pool._turn("a")
        waiting = asyncio.create_task(pool._turn("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        assert pool.waiting() == {}
        pool._hand_on()
        assert pool._free == 1

    asyncio.run(scenario())
