"""Run many games on a local process pool, with progress callbacks.

Every task is self-contained (its own game seed and bot seeds), so the result
rows are the same whatever the number of workers or the order in which they
finish; they are returned in task order.

>>> from greenlight.sim.runner import GameTask
>>> tasks = [GameTask("cinecitta", 3, seed, ("random",) * 3, (seed, seed + 1, seed + 2), index=seed) for seed in range(3)]
>>> [row.index for row in run_games(tasks, workers=1)]
[0, 1, 2]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from greenlight.sim.runner import GameResult, GameTask, play_game

#: Called with each finished row, in completion order.
Progress = Callable[[GameResult], None]


def default_workers() -> int:
    """The number of local cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _play_chunk(tasks: Sequence[GameTask]) -> list[GameResult]:
    return [play_game(task) for task in tasks]


def chunk_size(num_tasks: int, workers: int) -> int:
    """Tasks sent to a worker at once: small enough for smooth progress and balance, large enough to amortise IPC.

    >>> chunk_size(1000, 2), chunk_size(10, 2)
    (16, 1)
    """
    return max(1, min(16, num_tasks // (workers * 16)))


def run_games(tasks: Sequence[GameTask], workers: int = 1, progress: Progress | None = None) -> list[GameResult]:
    """Play every task; ``workers`` > 1 uses that many local processes. Rows come back in task order."""
    by_index: dict[int, GameResult] = {}
    for position, row in iter_games(tasks, workers):
        by_index[position] = row
        if progress is not None:
            progress(row)
    return [by_index[position] for position in range(len(tasks))]


def iter_games(tasks: Sequence[GameTask], workers: int = 1) -> Iterator[tuple[int, GameResult]]:
    """Play every task, yielding ``(position in tasks, row)`` as each game finishes (completion order).

    ``workers`` <= 1 plays in this process, in task order. Otherwise tasks go to
    that many local processes in chunks of :func:`chunk_size`, submitted in task
    order. Closing the iterator early (or an exception such as
    KeyboardInterrupt) cancels the chunks not started yet.
    """
    if workers <= 1 or len(tasks) <= 1:
        for position, task in enumerate(tasks):
            yield position, play_game(task)
        return
    size = chunk_size(len(tasks), workers)
    chunks = [tasks[start : start + size] for start in range(0, len(tasks), size)]
    # "spawn" starts clean interpreters: forking a process that runs a progress-bar thread can deadlock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: dict[Future[list[GameResult]], int] = {pool.submit(_play_chunk, chunk): number for number, chunk in enumerate(chunks)}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    number = pending.pop(future)
                    for offset, row in enumerate(future.result()):
                        yield number * size + offset, row
        finally:
            for future in pending:
                future.cancel()
