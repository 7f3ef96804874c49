"""Simulation-lab benchmark: games per second of a whole study at 1 and 2 local workers (and optionally on Ray), per game.

Each measurement is a complete ``run_study`` into a fresh temporary folder
(chunks written, tables merged; no report), with the line-up ``heuristic``
against ``random`` so every game has one thinking seat. For each run it
prints the wall time, games per second, the CPU seconds this process and
its worker processes used, and the **cores obtained** (CPU seconds / wall
seconds): on a machine shared with other work a 2-worker run may get well
under 2 cores, which caps the speed-up whatever the pool does. The pool's
own overhead is measured apart: starting the worker processes, and
pickling each result row back to the parent.

    python bench/bench_sim.py                   # all three games, 1 and 2 workers
    python bench/bench_sim.py --ray             # and Ray with 2 CPUs started here
    python bench/bench_sim.py --game cinecitta --games 400
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from greenlight.sim.runner import play_game
from greenlight.sim.study import Backend, LocalBackend, prepare_study, run_study

#: (game, players, games): about 20-30 s of serial play each on the reference machine.
DEFAULT_STUDIES = [("cinecitta", 3, 1500), ("maybe-movies", 4, 160), ("movie-empire", 3, 480)]
LINEUP = ["heuristic", "random"]


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(game: str, players: int, games: int, backend: Backend, label: str) -> dict[str, Any]:
    """One complete study on ``backend``; games/s and the cores it actually got."""
    study = prepare_study(game, players, LINEUP, games, seed=1, chunk_size=100)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        cpu = _cpu_seconds()
        started = time.perf_counter()
        run = run_study(study, Path(folder), backend)
        wall = time.perf_counter() - started
        cpu = _cpu_seconds() - cpu  # pool workers count once they have exited (the pool is closed by now)
    assert run.played == games
    return {
        "game": game,
        "players": players,
        "games": games,
        "run": label,
        "seconds": round(wall, 2),
        "games_per_second": round(games / wall, 2),
        "cpu_seconds": round(cpu, 2),
        # Ray's worker processes are not this process's children: their CPU time is not seen here.
        "cores_obtained": None if label.startswith("ray") else round(cpu / wall, 2),
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def first_task(_: int) -> int:
    """What a worker does before its first game: import the runner (a picklable module-level function)."""
    import greenlight.sim.runner  # noqa: F401

    return os.getpid()


def pool_overhead(game: str, players: int) -> dict[str, float]:
    """Seconds to start 2 spawned workers and run a first task; microseconds to pickle one result row."""
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        list(pool.map(first_task, range(2)))
    startup = time.perf_counter() - started
    study = prepare_study(game, players, LINEUP, 20, seed=1)
    rows = [play_game(task) for task in study.tasks()]
    started = time.perf_counter()
    for _ in range(20):
        pickle.loads(pickle.dumps(rows))
    per_row = (time.perf_counter() - started) / (20 * len(rows))
    return {"pool_startup_seconds": round(startup, 3), "row_pickle_microseconds": round(per_row * 1e6, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--games", type=int, help="games per measurement (default: per game, see DEFAULT_STUDIES)")
    parser.add_argument("--ray", action="store_true", help="also measure Ray with 2 CPUs started in this process")
    args = parser.parse_args()
    studies = [(g, n, args.games or k) for g, n, k in DEFAULT_STUDIES if args.game in (None, g)]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# bench_sim: Python {platform.python_version()} on {platform.machine()}, {cores} cores; line-up {' vs '.join(LINEUP)}")
    results: list[dict[str, Any]] = []
    if args.ray:
        import ray

        started = time.perf_counter()
        # Started once, outside the timed runs (a cluster is up before a study starts); the backend reuses it.
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        print(f"# ray started with 2 CPUs in {time.perf_counter() - started:.1f} s (not included below)")
    for game, players, games in studies:
        runs: list[tuple[str, Backend]] = [("1 worker", LocalBackend(1)), ("2 workers", LocalBackend(2))]
        if args.ray:
            from greenlight.sim.ray_backend import RayBackend

            runs.append(("ray, 2 CPUs", RayBackend()))
        rows = [measure(game, players, games, backend, label) for label, backend in runs]
        overhead = pool_overhead(game, players)
        for row in rows:
            row.update(overhead)
            print(json.dumps(row))
        results.extend(rows)
    print()
    print("| game | players | games | run | seconds | games/s | speed-up | cores obtained | load avg before/after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in results:
        serial = next(item for item in results if item["game"] == row["game"] and item["run"] == "1 worker")
        speedup = serial["seconds"] / row["seconds"]
        obtained = "-" if row["cores_obtained"] is None else f"{row['cores_obtained']:.2f}"
        print(
            f"| {row['game']} | {row['players']} | {row['games']} | {row['run']} | {row['seconds']:.1f} | {row['games_per_second']:.1f} "
            f"| {speedup:.2f}x | {obtained} | {row['load_before']:.1f} / {row['load_after']:.1f} |"
        )
    print()
    for game, _players, _games in studies:
        row = next(item for item in results if item["game"] == game)
        print(f"{game}: pool start-up {row['pool_startup_seconds']:.2f} s, {row['row_pickle_microseconds']:.0f} µs to pickle a row")


if __name__ == "__main__":
    main()
