"""Bot moves for the web server, thought out in worker processes.

Search bots are pure Python and CPU-bound. Thinking in threads of the server
process, they held the GIL and slowed every other table's requests (measured
with two ``hard`` tables thinking: median HTTP action 82 ms instead of 6 ms,
see docs/performance.md). A process pool leaves the event loop free.

A bot is built afresh for every move from the table seed, the seat and the
move number, so a move is the same whether or not the server was restarted
before it. Bots hold no memory between moves (they act from the seat's
observation), so nothing is lost by that.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from greenlight.bots import make_bot
from greenlight.core.bot import SeatView
from greenlight.core.registry import get_game

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


class BotPool:
    """Worker processes that choose bot moves; started on first use, restarted if a worker dies.

    ``workers=0`` thinks in a thread of this process instead (no start-up cost;
    for tests and tiny machines).
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._executor: ProcessPoolExecutor | None = None

    async def choose(self, game_id: str, level: str, seed: int, state: Any, seat: int) -> str:
        """Think in a worker and return the chosen action's text."""
        if self.workers == 0:
            return await asyncio.to_thread(think, game_id, level, seed, state, seat)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), think, game_id, level, seed, state, seat)
        except BrokenProcessPool:
            self._executor = None  # a worker died (killed, out of memory): the next move starts a fresh pool
            raise

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
