"""Group commit: one writer takes every change, many tables' moves per transaction.

A committed SQLite transaction in WAL mode with ``synchronous=FULL`` costs one
disk sync, and a sync costs milliseconds whatever it carries. Writing each
move in a transaction of its own caps the server at the disk's sync rate
(about 300 per second on the development machine). Here, while one batch is
being synced, new writes queue up; the next batch takes all of them, so the
rate grows with the load and no write waits for a timer.

:class:`WriteQueue` writes to a synchronous store (SQLite) from a thread of
its own; :class:`AsyncWriteQueue` writes through an asynchronous commit (the
PostgreSQL backend) from a task of the event loop. Both share the batching
rules below.

Each write still completes only when its own batch is committed, so "stored
before acknowledged" holds. A write that waited longer than ``timeout`` before
its batch began is failed without being attempted (so its outcome is never in
doubt). A batch that fails because of one row (an action index already
taken) is retried one op at a time, so the other tables' moves still land; a
batch that fails because the store is unavailable (locked, full) fails every
write in it.

>>> import asyncio
>>> from greenlight.web.storage import SqliteStore, CreateTable, StoredTable
>>> from greenlight.core.record import Record
>>> async def demo() -> int:
...     store = SqliteStore(":memory:")
...     writer = WriteQueue(store, timeout=1.0)
...     await writer.write(CreateTable(StoredTable("t", Record("cinecitta", "1", 3, 1), [])))
...     writer.close()
...     return store.count()
>>> asyncio.run(demo())
1
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from greenlight.web.storage import StorageError, TableStore, WriteOp, op_table

log = logging.getLogger("greenlight.web")

#: Most ops in one transaction (bounds the time one commit holds the write lock).
MAX_BATCH = 512


@dataclass(slots=True)
class _Pending:
    op: WriteOp
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop
    deadline: float
    on_done: Callable[[StorageError | None], None] | None


class _Counted:
    """What both writers count: batches committed and ops in them (for the load benchmark and tests)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.batches = 0
        self.ops = 0
        #: Why the last write failed, while no write has been stored since (None: writes are being stored).
        self.failing: str | None = None

    def _stored(self, batch: list[_Pending]) -> None:
        self.batches += 1
        self.ops += len(batch)
        self.failing = None
        for item in batch:
            _settle(item, None)

    def _failed(self, batch: list[_Pending], error: Exception) -> bool:
        """Settle a failed batch (see :func:`_failed`), noting a failure of the store itself (not a conflict)."""
        settled = _failed(batch, error)
        if settled and not (isinstance(error, StorageError) and error.conflict):
            self.failing = error.message if isinstance(error, StorageError) else str(error)
        return settled

    def _drop_late(self, batch: list[_Pending]) -> list[_Pending]:
        kept = _drop_late(batch, self.timeout)
        if len(kept) < len(batch):
            self.failing = f"the database did not take writes within {self.timeout:g} s"
        return kept


class WriteQueue(_Counted):
    """Writes ops to ``store`` from one thread, grouping those that wait into one transaction."""

    def __init__(self, store: TableStore, *, timeout: float = 3.0) -> None:
        super().__init__(timeout)
        self.store = store
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="greenlight-writer", daemon=True)
        self._thread.start()

    def submit(self, op: WriteOp, on_done: Callable[[StorageError | None], None] | None = None) -> asyncio.Future[None]:
        """Queue ``op``; the future is done once its batch is committed (or failed with :class:`StorageError`).

        ``on_done`` is called in the event loop with the outcome (None for
        stored) before the future is resolved, in the order the ops were
        submitted, so a caller can apply results in that order without
        waiting for a task to be scheduled.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Pending(op, future, loop, time.monotonic() + self.timeout, on_done))
        return future

    async def write(self, op: WriteOp) -> None:
        """Write ``op`` and wait until it is committed.

        The wait is shielded: a cancelled caller does not cancel a write that
        may already be in a transaction.
        """
        await asyncio.shield(self.submit(op))

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    # -- the writer thread -------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Pending]) -> None:
        batch = self._drop_late(batch)
        if not batch:
            return
        try:
            self.store.write([item.op for item in batch])
        except Exception as error:
            rest = _without_conflicts(batch, error)
            if rest is not None:
                self._write(rest)
            elif not self._failed(batch, error):
                for item in batch:  # one row is at fault: let the others land
                    self._write_one(item)
            return
        self._stored(batch)

    def _write_one(self, item: _Pending) -> None:
        try:
            self.store.write([item.op])
        except Exception as error:
            self._failed([item], error)
        else:
            self._stored([item])


class AsyncWriteQueue(_Counted):
    """Writes ops through ``commit`` (an async function taking a batch) from one task, grouping those that wait.

    The same rules as :class:`WriteQueue`: a batch is all that waits (up to
    :data:`MAX_BATCH`), a write that waited past ``timeout`` fails unattempted,
    a conflict retries the batch one op at a time.
    """

    def __init__(self, commit: Callable[[list[WriteOp]], Awaitable[None]], *, timeout: float = 3.0) -> None:
        super().__init__(timeout)
        self.commit = commit
        self._queue: asyncio.Queue[_Pending | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def submit(self, op: WriteOp, on_done: Callable[[StorageError | None], None] | None = None) -> asyncio.Future[None]:
        """Queue ``op`` (see :meth:`WriteQueue.submit`)."""
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._run(), name="greenlight-writer")
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put_nowait(_Pending(op, future, loop, time.monotonic() + self.timeout, on_done))
        return future

    async def write(self, op: WriteOp) -> None:
        """Write ``op`` and wait until it is committed (shielded, as :meth:`WriteQueue.write`)."""
        await asyncio.shield(self.submit(op))

    async def close(self) -> None:
        """Write what is queued, then stop the task."""
        if self._task is None:
            return
        self._queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def _run(self) -> None:
        while True:
            first = await self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            await self._write(batch)
            if stop:
                return

    async def _write(self, batch: list[_Pending]) -> None:
        batch = self._drop_late(batch)
        if not batch:
            return
        try:
            await self.commit([item.op for item in batch])
        except Exception as error:
            rest = _without_conflicts(batch, error)
            if rest is not None:
                await self._write(rest)
            elif not self._failed(batch, error):
                for item in batch:
                    try:
                        await self.commit([item.op])
                    except Exception as single:
                        self._failed([item], single)
                    else:
                        self._stored([item])
            return
        self._stored(batch)


def _drop_late(batch: list[_Pending], timeout: float) -> list[_Pending]:
    """Fail the writes that waited too long (never attempted, so their outcome is certain); return the others."""
    now = time.monotonic()
    for item in batch:
        if item.deadline < now:
            _settle(item, StorageError(f"the database did not take the write within {timeout:g} s; nothing was stored"))
    return [item for item in batch if item.deadline >= now]


def _without_conflicts(batch: list[_Pending], error: Exception) -> list[_Pending] | None:
    """After a conflict that names its tables: fail those tables' writes, return the others to try again as one batch.

    None when the error names no tables of the batch (then :func:`_failed` decides). Every try fails at least one
    table for good, so a batch is tried at most once per table in it, and mostly once more: with several server
    processes two seats of a table often commit at once, and one op at a time would cost a commit per op.
    """
    if not (isinstance(error, StorageError) and error.conflict and error.tables):
        return None
    rest = [item for item in batch if op_table(item.op) not in error.tables]
    if len(rest) == len(batch):
        return None
    for item in batch:
        if op_table(item.op) in error.tables:
            _settle(item, error)
    return rest


def _failed(batch: list[_Pending], error: Exception) -> bool:
    """Settle a failed batch; False (nothing settled) when one row's conflict should be retried op by op."""
    if isinstance(error, StorageError):
        if error.conflict and len(batch) > 1:
            return False
        failure = error
    else:  # a bug in a store: fail the writes, keep the writer
        log.error("the store failed on a batch of %d writes", len(batch), exc_info=error)
        failure = StorageError(f"the store failed: {error}")
    for item in batch:
        _settle(item, failure)
    return True


def _settle(item: _Pending, error: StorageError | None) -> None:
    def done() -> None:
        if item.on_done is not None:
            try:
                item.on_done(error)
            except Exception:
                log.exception("a write's completion callback failed")
        if item.future.done():
            return
        if error is None:
            item.future.set_result(None)
        else:
            item.future.set_exception(error)
            if item.on_done is not None:
                item.future.exception()  # handled by on_done: no "exception was never retrieved" when nobody awaits it

    # RuntimeError: the event loop is gone (server shutting down), so nobody waits for this answer.
    with contextlib.suppress(RuntimeError):
        if _in_loop(item.loop):
            done()  # the asynchronous writer settles in the loop itself, in submission order
        else:
            item.loop.call_soon_threadsafe(done)


def _in_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
