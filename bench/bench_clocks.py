"""Clocks at scale, on a real ``greenlight serve`` (SQLite):

1. **Idle tables cost nothing**: the server's CPU time (its own process and its bot workers) over a quiet window, with
   no table, then with 10,000 turn-based tables each waiting on a one-day deadline. One scheduler sleeps until the
   earliest deadline; nothing runs per table, so both windows should cost the same (the event loop's own lag probe
   and housekeeping).
2. **1,000 deadlines at once**: 1,000 turn-based tables whose deadlines are all set to the same instant (in the
   database, with the server stopped), then the server started: the seconds from that instant until every time-out
   has had its bot decide (the move stored and the time-out logged).

Run: ``nice -n 10 python bench/bench_clocks.py [--tables 10000] [--together 1000] [--window 30]``; prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

UNLIMITED = [
    *("--limit", "create_per_minute=0", "--limit", "actions_per_second=0", "--limit", "requests_per_second=0"),
    *("--limit", "max_live_tables=2000"),
]
PACE = {"kind": "turn", "deadline_hours": 24, "on_timeout": "bot_decides", "bot": "random"}
SEATS = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0", *UNLIMITED]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children now (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def quiet_cpu(pid: int, window: float) -> float:
    before = cpu_seconds(pid)
    time.sleep(window)
    return round(cpu_seconds(pid) - before, 3)


def create_tables(port: int, count: int) -> float:
    """Create ``count`` turn-based tables; their creation rate (tables/s)."""
    started = time.perf_counter()

    def create(_: int) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            answer = client.post("/api/tables", json={"game": "maybe-movies", "seats": SEATS, "pace": PACE})
            answer.raise_for_status()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(create, range(count)))
    return round(count / (time.perf_counter() - started), 1)


def idle(folder: Path, tables: int, window: float) -> dict[str, object]:
    db, port = folder / "idle.db", free_port()
    server = start(db, port)
    try:
        time.sleep(5)  # let start-up work (bot worker warm-up) end
        empty = quiet_cpu(server.pid, window)
        rate = create_tables(port, tables)
        time.sleep(5)
        loaded = quiet_cpu(server.pid, window)
    finally:
        stop(server)
    with sqlite3.connect(db) as connection:
        waiting = connection.execute("SELECT COUNT(*) FROM clock_seats WHERE due_at IS NOT NULL").fetchone()[0]
    return {"window_s": window, "cpu_s_no_tables": empty, "cpu_s_with_tables": loaded, "deadlines_waiting": waiting, "created_per_s": rate}


def together(folder: Path, tables: int) -> dict[str, object]:
    db, port = folder / "together.db", free_port()
    server = start(db, port)
    try:
        create_tables(port, tables)
    finally:
        stop(server)
    instant = time.time() + 20
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE clock_seats SET due_at = ?, remind_at = NULL WHERE due_at IS NOT NULL", (instant,))
        due = connection.execute("SELECT COUNT(*) FROM clock_seats WHERE due_at = ?", (instant,)).fetchone()[0]
    server = start(db, port)
    ready = time.time()
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            with sqlite3.connect(db) as connection:
                done = connection.execute("SELECT COUNT(*) FROM clock_timeouts").fetchone()[0]
            if done >= due:
                break
            time.sleep(0.2)
        with sqlite3.connect(db) as connection:
            times = [row[0] for row in connection.execute("SELECT at FROM clock_timeouts")]
            moves = connection.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    finally:
        stop(server)
    start_at = max(instant, ready)
    after = sorted(at - start_at for at in times)
    return {
        "deadlines": due,
        "handled": len(times),
        "moves_stored": moves,
        "server_ready_before_the_instant": ready < instant,
        "all_handled_s": round(after[-1], 2) if after else None,
        "median_s": round(statistics.median(after), 2) if after else None,
        "per_s": round(len(after) / after[-1], 1) if after and after[-1] > 0 else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--together", type=int, default=1_000)
    parser.add_argument("--window", type=float, default=30.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = {
            "load_1min": os.getloadavg()[0],
            "idle": idle(Path(folder), options.tables, options.window),
            "together": together(Path(folder), options.together),
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
