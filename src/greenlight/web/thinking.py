"""Bot moves for the web server, thought out in worker processes.

Search bots are pure Python and CPU-bound. Thinking in threads of the server
process, they held the GIL and slowed every other table's requests (measured
with two ``hard`` tables thinking: median HTTP action 82 ms instead of 6 ms,
see docs/performance.md). A process pool leaves the event loop free.

A bot is built afresh for every move from the table seed, the seat and the
move number, so a move is the same whether or not the server was restarted
before it. Bots hold no memory between moves (they act from the seat's
observation), so nothing is lost by that.

Bot work is shared fairly between the people who created the tables, in two
lanes of workers (:class:`Lane`):

- **quick** bots (random, easy, medium: milliseconds a move) think in a lane
  of their own, so they never wait behind a search;
- **searches** (hard and expert bots, hints, reviews, uploaded replays) think
  in the other lane, whose workers run at a lower CPU priority than the
  server itself, so the event loop and the quick lane keep their pace.

In each lane moves wait in one queue per creator, and a free worker takes
the next creator's move in turn (round robin), so one client's twenty tables
cannot starve another client's table. In the search lane a creator also
holds at most ``per_owner`` workers at once (one fewer than the lane has,
so a worker is always left for someone else), and has a budget of search
seconds (:class:`SearchBudget`, refilled at a steady rate): a creator past
it waits until nobody within budget waits, and may create no further tables
with searching bots until the budget has refilled.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from greenlight.bots import analyse, make_bot
from greenlight.bots.analysis import MoveEstimate
from greenlight.bots.review import AnalysisRequest, run_request
from greenlight.core.bot import SeatView
from greenlight.core.registry import get_game
from greenlight.web.policies import is_quick_level

R = TypeVar("R")

#: How often a worker checks that the server that started it still runs.
PARENT_CHECK_SECONDS = 1.0


#: How much lower a search worker's CPU priority is than the server's (a Unix nice increment).
SEARCH_NICENESS = 10


def _follow_parent(parent: int, niceness: int = 0) -> None:
    """Worker initializer: run at ``niceness``, and exit as soon as the server process is gone, even after a SIGKILL."""
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def _ready() -> None:
    """A worker's first job: nothing (it has started, imported what it needs and is waiting)."""
    import greenlight.core.registry  # noqa: F401 - what every job needs, loaded now rather than in the first move


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


class SearchBudget:
    """Search seconds per owner: ``per_second`` refilled continuously up to ``burst``; work is charged after it ran.

    >>> budget = SearchBudget(per_second=1.0, burst=10.0)
    >>> budget.charge("ann", 12.0, now=0.0); budget.wait_needed("ann", now=0.0), budget.wait_needed("bob", now=0.0)
    (2.0, 0.0)
    >>> budget.wait_needed("ann", now=2.5)
    0.0
    """

    def __init__(self, per_second: float, burst: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self._credit: dict[str, tuple[float, float]] = {}

    def _now(self, owner: str, now: float | None) -> tuple[float, float]:
        now = time.monotonic() if now is None else now
        credit, last = self._credit.get(owner, (self.burst, now))
        return min(self.burst, credit + (now - last) * self.per_second), now

    def charge(self, owner: str, seconds: float, now: float | None = None) -> None:
        """``owner``'s work took ``seconds``."""
        if self.per_second <= 0:
            return
        credit, now = self._now(owner, now)
        self._credit[owner] = (credit - seconds, now)
        if len(self._credit) > 10_000:
            self._credit = {key: value for key, value in self._credit.items() if value[0] < self.burst}

    def wait_needed(self, owner: str, now: float | None = None) -> float:
        """0.0 while ``owner`` is within budget, else the seconds until it is again."""
        if self.per_second <= 0 or owner not in self._credit:
            return 0.0
        credit, _ = self._now(owner, now)
        return 0.0 if credit >= 0 else -credit / self.per_second


class Lane:
    """Worker processes of one kind and the work waiting for them, served round robin between owners.

    ``workers=0`` runs the work in threads of this process (no start-up cost; for tests and tiny machines).
    ``per_owner`` caps the workers one owner holds at once; with a ``budget``, owners within it go first.
    """

    def __init__(
        self, name: str, workers: int, *, niceness: int = 0, per_owner: int | None = None, budget: SearchBudget | None = None
    ) -> None:
        self.name = name
        self.workers = workers
        self.niceness = niceness
        self.per_owner = per_owner or max(1, workers)
        self.budget = budget
        self._executor: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()
        self._free = max(1, self.workers)
        #: Work waiting for a worker, one queue per owner, in the order owners are served.
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        #: Workers each owner holds now.
        self._running: Counter[str] = Counter()

    async def run(self, function: Callable[..., R], *args: Any, owner: str = "") -> R:
        """Wait for ``owner``'s turn at a worker and run ``function(*args)`` there (a module-level function: it is pickled).

        A caller that stops waiting (cancelled) gives up its place in the queue; work already running finishes in
        its worker, which is handed on only then (the lane never runs more work at once than it has workers).
        """
        await self._turn(owner)
        started = time.monotonic()
        try:
            if self.workers == 0:
                work: asyncio.Future[R] = asyncio.ensure_future(asyncio.to_thread(function, *args))
            else:
                if self._executor is None:
                    async with self._starting:
                        if self._executor is None:
                            await asyncio.to_thread(self.warm)  # starting processes takes tens of ms: not on the event loop
                work = asyncio.get_running_loop().run_in_executor(self._pool(), function, *args)
        except BaseException:
            self._release(owner, started)
            raise

        def ended(done: asyncio.Future[R]) -> None:
            if not done.cancelled():
                done.exception()  # retrieved here: a caller that went away leaves no warning behind
            self._release(owner, started)

        work.add_done_callback(ended)
        try:
            return await asyncio.shield(work)
        except BrokenProcessPool:
            self._executor = None  # a worker died (killed, out of memory): the next work starts a fresh pool
            raise

    def waiting(self) -> dict[str, int]:
        """Work waiting for a worker, by owner (for tests and monitoring)."""
        return {owner: len(queue) for owner, queue in self._waiting.items()}

    def warm(self) -> None:
        """Start the worker processes now (in a thread: starting a process takes tens of milliseconds, which the
        first work would otherwise spend on the event loop)."""
        if self.workers > 0:
            futures = [self._pool().submit(_ready) for _ in range(self.workers)]
            for future in futures:
                future.result()

    def _eligible(self, owner: str) -> bool:
        return self._running[owner] < self.per_owner

    def _in_budget(self, owner: str) -> bool:
        return self.budget is None or self.budget.wait_needed(owner) <= 0

    async def _turn(self, owner: str) -> None:
        if self._free > 0 and self._eligible(owner) and self._next_waiting() is None:
            self._free -= 1
            self._running[owner] += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release(owner, None)  # the worker slot was already ours: pass it on
            else:
                queue = self._waiting.get(owner)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[owner]
            raise

    def _next_waiting(self) -> str | None:
        """The owner to serve next: the first in turn below its worker cap, within budget if any such one waits."""
        fallback = None
        for owner in self._waiting:
            if self._eligible(owner):
                if self._in_budget(owner):
                    return owner
                fallback = fallback or owner
        return fallback

    def _release(self, owner: str, started: float | None) -> None:
        """``owner``'s work ended: charge it, then hand the worker to the next owner in turn, or keep it free."""
        if started is not None and self.budget is not None:
            self.budget.charge(owner, time.monotonic() - started)
        self._running[owner] -= 1
        if self._running[owner] <= 0:
            del self._running[owner]
        self._free += 1
        self._hand_on()

    def _hand_on(self) -> None:
        """Give free workers to the next owners in turn."""
        while self._free > 0:
            owner = self._next_waiting()
            if owner is None:
                return
            queue = self._waiting.pop(owner)
            future = queue.popleft()
            if queue:
                self._waiting[owner] = queue  # back of the line: every other owner goes first
            if not future.done():
                self._free -= 1
                self._running[owner] += 1
                future.set_result(None)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: a forked worker would inherit the server's listening socket and threads.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=_follow_parent, initargs=(os.getpid(), self.niceness)
            )
        return self._executor

    def close(self) -> None:
        """Stop the workers (work being done is finished first; queued work is dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class BotPool:
    """The server's bot workers: a :class:`Lane` for quick bots and one for searches (see the module's description).

    ``workers`` is the search lane's size (default: one per CPU), ``quick_workers`` the quick lane's; 0 thinks in
    threads of this process. ``search_seconds_per_minute`` and ``search_burst_seconds`` are each creator's budget
    of search time (0: none).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        quick_workers: int = 1,
        search_seconds_per_minute: float = 0.0,
        search_burst_seconds: float = 0.0,
        search_workers_per_owner: int | None = None,
    ) -> None:
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        budget = SearchBudget(search_seconds_per_minute / 60.0, search_burst_seconds)
        per_owner = search_workers_per_owner or max(1, self.workers - 1)
        self.search = Lane("search", self.workers, niceness=SEARCH_NICENESS, per_owner=per_owner, budget=budget)
        self.quick = Lane("quick", 0 if self.workers == 0 else quick_workers)

    async def choose(self, game_id: str, level: str, seed: int, state: Any, seat: int, owner: str = "") -> str:
        """Wait for ``owner``'s turn at a worker of the bot's lane, think there, and return the chosen action's text."""
        lane = self.quick if is_quick_level(level) else self.search
        return await lane.run(think, game_id, level, seed, state, seat, owner=owner)

    async def run(self, function: Callable[..., R], *args: Any, owner: str = "") -> R:
        """Run a search (a hint, a review's step, an uploaded replay) in ``owner``'s turn in the search lane."""
        return await self.search.run(function, *args, owner=owner)

    def search_wait(self, owner: str) -> float:
        """0.0 while ``owner``'s searches are within budget, else the seconds until they are again."""
        budget = self.search.budget
        return budget.wait_needed(owner) if budget is not None else 0.0

    def waiting(self) -> dict[str, int]:
        """Work waiting for a worker in both lanes, by owner (for tests and monitoring)."""
        counts: Counter[str] = Counter(self.search.waiting())
        counts.update(self.quick.waiting())
        return dict(counts)

    def close(self) -> None:
        """Stop both lanes' workers."""
        self.search.close()
        self.quick.close()
