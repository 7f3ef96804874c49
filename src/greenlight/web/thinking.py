"""Bot moves for the web server, thought out in worker processes.

Search bots are pure Python and CPU-bound. Thinking in threads of the server
process, they held the GIL and slowed every other table's requests (measured
with two ``hard`` tables thinking: median HTTP action 82 ms instead of 6 ms,
see docs/performance.md). A process pool leaves the event loop free.

A bot is built afresh for every move from the table seed, the seat and the
move number, so a move is the same whether or not the server was restarted
before it. Bots hold no memory between moves (they act from the seat's
observation), so nothing is lost by that.

Bot work is shared fairly between the people who created the tables: moves
wait in one queue per creator, and a free worker takes the next creator's
move in turn (round robin), so one client's twenty tables of search bots
cannot starve another client's table.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from greenlight.bots import analyse, make_bot
from greenlight.bots.analysis import MoveEstimate
from greenlight.bots.review import AnalysisRequest, run_request
from greenlight.core.bot import SeatView
from greenlight.core.registry import get_game

R = TypeVar("R")

#: How often a worker checks that the server that started it still runs.
PARENT_CHECK_SECONDS = 1.0


def _follow_parent(parent: int) -> None:
    """Worker initializer: exit as soon as the server process is gone, even if it was killed with SIGKILL."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def think(game_id: str, level: str, seed: int, state: Any, seat: int) -> str:
    """The text of the action ``level`` (seeded with ``seed``) chooses for ``seat`` in ``state``; runs in a worker."""
    game = get_game(game_id)
    return str(make_bot(level, game, seed).choose(SeatView(game, state, seat)))


def hint(game_id: str, state: Any, seat: int, seconds: float, count: int) -> list[dict[str, Any]]:
    """The ``count`` best moves of ``seat`` after ``seconds`` of search from its own view, as JSON; runs in a worker."""
    return [move.to_json() for move in analyse(get_game(game_id), state, seat, seconds=seconds)[:count]]


def review_search(game_id: str, request: AnalysisRequest) -> list[MoveEstimate]:
    """One search a review asks for (``greenlight.bots.review``); runs in a worker."""
    return run_request(get_game(game_id), request)


class BotPool:
    """Worker processes that choose bot moves; started on first use, restarted if a worker dies.

    ``workers=0`` thinks in a thread of this process instead (no start-up cost;
    for tests and tiny machines).
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._executor: ProcessPoolExecutor | None = None
        self._free = max(1, self.workers)
        #: Moves waiting for a worker, one queue per owner, in the order owners are served.
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    async def choose(self, game_id: str, level: str, seed: int, state: Any, seat: int, owner: str = "") -> str:
        """Wait for ``owner``'s turn at a worker, think there, and return the chosen action's text."""
        return await self.run(think, game_id, level, seed, state, seat, owner=owner)

    async def run(self, function: Callable[..., R], *args: Any, owner: str = "") -> R:
        """Wait for ``owner``'s turn at a worker and run ``function(*args)`` there (a module-level function: it is pickled)."""
        await self._turn(owner)
        try:
            if self.workers == 0:
                return await asyncio.to_thread(function, *args)
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(), function, *args)
            except BrokenProcessPool:
                self._executor = None  # a worker died (killed, out of memory): the next move starts a fresh pool
                raise
        finally:
            self._hand_on()

    def waiting(self) -> dict[str, int]:
        """Moves waiting for a worker, by owner (for tests and monitoring)."""
        return {owner: len(queue) for owner, queue in self._waiting.items()}

    async def _turn(self, owner: str) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._hand_on()  # the worker slot was already ours: pass it on
            else:
                queue = self._waiting.get(owner)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[owner]
            raise

    def _hand_on(self) -> None:
        """A worker slot is free: give it to the next owner in turn, or keep it."""
        while self._waiting:
            owner, queue = self._waiting.popitem(last=False)
            future = queue.popleft()
            if queue:
                self._waiting[owner] = queue  # back of the line: every other owner goes first
            if not future.done():
                future.set_result(None)
                return
        self._free += 1

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: a forked worker would inherit the server's listening socket and threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=_follow_parent, initargs=(os.getpid(),)
            )
        return self._executor

    def close(self) -> None:
        """Stop the workers (a move being thought out is finished first; queued ones are dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
