"""Bot moves thought out in worker processes give the same action as the bot in this process."""

from __future__ import annotations

import asyncio

import pytest

from greenlight.bots import make_bot
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.web.thinking import BotPool, Lane, SearchBudget


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
        lane = Lane("search", workers=1)
        granted: list[str] = []
        await lane._turn("busy")  # the one worker is taken

        async def wait_turn(owner: str, label: str) -> None:
            await lane._turn(owner)
            granted.append(label)
            await asyncio.sleep(0)
            lane._release(owner, None)

        waiters = [asyncio.create_task(wait_turn("busy", f"busy-{n}")) for n in range(5)]
        await asyncio.sleep(0)
        waiters.append(asyncio.create_task(wait_turn("other", "other-0")))
        await asyncio.sleep(0)
        assert lane.waiting() == {"busy": 5, "other": 1}
        lane._release("busy", None)  # the first move is done
        await asyncio.gather(*waiters)
        assert lane.waiting() == {} and lane._free == 1
        return granted

    assert asyncio.run(scenario()) == ["busy-0", "other-0", "busy-1", "busy-2", "busy-3", "busy-4"]


def test_a_cancelled_wait_for_a_worker_gives_up_its_place() -> None:
    async def scenario() -> None:
        lane = Lane("search", workers=1)
        await lane._turn("a")
        waiting = asyncio.create_task(lane._turn("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        assert lane.waiting() == {}
        lane._release("a", None)
        assert lane._free == 1

    asyncio.run(scenario())


def test_one_creator_never_holds_every_search_worker() -> None:
    """With two workers a creator holds at most one, even with nobody else waiting: the other is free at once for the next."""

    async def scenario() -> None:
        lane = Lane("search", workers=2, per_owner=1)
        await lane._turn("flood")
        second = asyncio.create_task(lane._turn("flood"))
        await asyncio.sleep(0)
        assert lane.waiting() == {"flood": 1} and lane._free == 1  # kept free although only the flood waits
        await asyncio.wait_for(lane._turn("player"), timeout=1)  # served at once
        lane._release("flood", None)
        await asyncio.wait_for(second, timeout=1)
        assert lane._running == {"flood": 1, "player": 1}

    asyncio.run(scenario())


def test_a_creator_past_its_search_budget_waits_behind_creators_within_theirs() -> None:
    async def scenario() -> list[str]:
        budget = SearchBudget(per_second=1.0, burst=5.0)
        budget.charge("greedy", 50.0)  # far past its budget
        lane = Lane("search", workers=1, budget=budget)
        await lane._turn("first")
        order: list[str] = []

        async def wait_turn(owner: str) -> None:
            await lane._turn(owner)
            order.append(owner)
            lane._release(owner, None)

        waiters = [asyncio.create_task(wait_turn("greedy"))]
        await asyncio.sleep(0)
        waiters.append(asyncio.create_task(wait_turn("modest")))
        await asyncio.sleep(0)
        lane._release("first", None)
        await asyncio.gather(*waiters)
        return order

    assert asyncio.run(scenario()) == ["modest", "greedy"]


def test_a_search_that_nobody_waits_for_keeps_its_worker_until_it_ends() -> None:
    """Cancelling a caller does not free the worker its work still runs on: the lane never runs more work than workers."""

    async def scenario() -> None:
        lane = Lane("search", workers=0)  # threads
        release = asyncio.Event()
        loop = asyncio.get_running_loop()

        def slow() -> str:
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=5)
            return "done"

        caller = asyncio.create_task(lane.run(slow, owner="a"))
        await asyncio.sleep(0.05)
        caller.cancel()
        await asyncio.gather(caller, return_exceptions=True)
        assert lane._free == 0 and lane._running == {"a": 1}
        release.set()
        for _ in range(100):
            if lane._free == 1:
                break
            await asyncio.sleep(0.01)
        assert lane._free == 1 and not lane._running

    asyncio.run(scenario())


def test_quick_bots_do_not_wait_behind_searches() -> None:
    """Every search worker busy: a medium bot's move is chosen all the same, in the quick lane."""

    async def scenario() -> None:
        pool = BotPool(workers=1)
        try:
            await pool.search._turn("flood")  # the only search worker is taken
            game_id, match = positions()[0]
            seat = match.decision().players[0]
            chosen = await asyncio.wait_for(pool.choose(game_id, "medium", 3, match.state.clone(), seat, owner="player"), timeout=30)
            assert chosen in {str(action) for action in match.legal_actions(seat)}
            assert pool.search.waiting() == {}
        finally:
            pool.close()

    asyncio.run(scenario())
