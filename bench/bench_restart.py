"""Restart time alone: a real ``greenlight serve`` with 13 unfinished tables (two of them ``hard`` bots mid-game) is
killed with SIGKILL, and the same database is started six times from a copy; prints the median seconds to the first answer.

Run: ``python bench/bench_restart.py`` (``PYTHONPATH=<other checkout>/src`` measures another version the same way).
"""

from __future__ import annotations

import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_web  # the same server start and players as the web benchmark


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        live, kept = Path(folder) / "live", Path(folder) / "kept"
        live.mkdir()
        db, port = live / "bench.db", bench_web.free_port()
        server = bench_web.start_server(db, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            bench_web.http_actions(client, 300, random.Random(0))
            bench_web.bot_game(client)
            bench_web.busy_http_actions(client, 300, random.Random(1))
        server.send_signal(signal.SIGKILL)
        server.wait()
        shutil.copytree(live, kept)
        times = []
        for _ in range(6):
            shutil.rmtree(live)
            shutil.copytree(kept, live)
            start = time.perf_counter()
            server = bench_web.start_server(db, port)
            times.append(time.perf_counter() - start)
            server.send_signal(signal.SIGKILL)
            server.wait()
    print({"restart_s": [round(value, 2) for value in times], "median_s": round(statistics.median(times), 3)})


if __name__ == "__main__":
    main()
