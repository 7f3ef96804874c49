"""Load benchmark: many tables of scripted players over WebSockets against a real ``greenlight serve``.

Each table is a 3-player Cinecitta 1937 game whose three seats are scripted
clients (one WebSocket each, every table from its own loopback address, so
the server's per-client limits apply as they would to real people). A
player that owes an action waits ``--think`` seconds, then sends a random
legal action and times it until its ``ack`` (the move is stored with a disk
sync before the ack). A finished table is replaced by a new one, so the
load stays constant. Every Cinecitta step is simultaneous for all three
seats, so a table makes at most 3 moves per think time: 100 tables with 1 s
of thought offer at most 300 moves/s, a little less once the time a step
takes to resolve is added.

Printed next to the result, measured in the same run on the same disk: the
rate of raw single-row SQLite commits (WAL, ``synchronous=FULL``), which is
what one commit per move would cap the server at.

Tables start spread over ``--ramp`` seconds (about one game) and the
measured window begins once all have started.

Run: ``python bench/bench_load.py --tables 100 120 --think 1 --seconds 60``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.bench_web import free_port, percentile


@dataclass
class Stats:
    """Acknowledged moves (ack time, latency) and refusals."""

    acks: list[tuple[float, float]] = field(default_factory=list)
    errors: dict[int, int] = field(default_factory=dict)
    games: int = 0


def raw_commit_rate(folder: Path, seconds: float = 3.0) -> float:
    """Single-row commits per second on this disk, each its own transaction (WAL, synchronous=FULL)."""
    db = sqlite3.connect(folder / "raw.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, text TEXT)")
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO rows (text) VALUES ('offer D6 30')")
        db.execute("COMMIT")
        count += 1
    elapsed = time.perf_counter() - start
    db.close()
    return count / elapsed


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def address_of(table: int) -> str:
    """A loopback address of its own for each table's clients."""
    return f"127.0.{1 + table // 250}.{2 + table % 250}"


async def player(url: str, table_id: str, token: str, address: str, think: float, stats: Stats, rng: random.Random) -> None:
    """One seat: act on every view that asks it to, after thinking, until the game ends."""
    async with connect(f"{url}/ws/tables/{table_id}", local_addr=(address, 0), max_size=2**23, open_timeout=60) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[int, float] = {}
        busy = False
        request = 0
        latest: dict[str, Any] = {}
        thinking: set[asyncio.Task[None]] = set()

        async def act_later(actions: list[str]) -> None:
            nonlocal request
            await asyncio.sleep(think)
            request += 1
            sent[request] = time.perf_counter()
            with contextlib.suppress(ConnectionClosed):  # the run is over
                await socket.send(json.dumps({"type": "act", "id": request, "action": rng.choice(actions)}))

        def maybe_act() -> None:
            nonlocal busy
            if latest.get("legal_actions") and not busy:
                busy = True
                task = asyncio.get_running_loop().create_task(act_later(latest["legal_actions"]))
                thinking.add(task)
                task.add_done_callback(thinking.discard)

        try:
            async for text in socket:
                message = json.loads(text)
                kind = message["type"]
                if kind == "view":
                    if message["outcome"] is not None:
                        return
                    latest = message
                    maybe_act()
                elif kind in ("ack", "error"):
                    # The view after one's own move comes before its ack: act on it now if it asks for more.
                    started = sent.pop(message.get("id"), None)
                    if kind == "ack" and started is not None:
                        now = time.perf_counter()
                        stats.acks.append((now, now - started))
                        if latest.get("version", -1) <= message["index"]:
                            latest = {}
                    else:
                        stats.errors[message["status"]] = stats.errors.get(message["status"], 0) + 1
                        latest = {}
                        await socket.send(json.dumps({"type": "view"}))
                    busy = False
                    maybe_act()
        finally:
            for task in list(thinking):
                task.cancel()


async def table_loop(url: str, number: int, think: float, ramp: float, stats: Stats, stop: asyncio.Event) -> None:
    """Keep one table of three scripted players busy: a finished game is followed by a new one."""
    address = address_of(number)
    rng = random.Random(number)
    # Tables start spread over about one game's length, as people come and go; started together, they would
    # also end together, and a hundred new tables in one second is not a steady load.
    await asyncio.sleep(rng.random() * ramp)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as api:
        while not stop.is_set():
            created = (await api.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human"}] * 3})).json()
            tokens = [seat["token"] for seat in created["seats"]]
            table_id = created["table"]["id"]
            sockets = url.replace("http", "ws", 1)
            await asyncio.gather(*(player(sockets, table_id, token, address, think, stats, rng) for token in tokens))
            stats.games += 1


async def watch_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late this process's own event loop runs a 5 ms timer (time the client adds to every measurement)."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append((time.perf_counter() - start - 0.005) * 1000)


async def run_load(url: str, tables: int, think: float, ramp: float, seconds: float, server_pid: int) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    lags: list[float] = []
    lag_watch = asyncio.create_task(watch_lag(lags, stop))
    tasks = [asyncio.create_task(table_loop(url, number, think, ramp, stats, stop)) for number in range(tables)]
    await asyncio.sleep(ramp + 3)
    async with httpx.AsyncClient(base_url=url, timeout=60) as api:
        writes_before = (await api.get("/api/health")).json()["writes"]
        window_start, server_cpu_before, own_cpu_before = time.perf_counter(), cpu_seconds(server_pid), time.process_time()
        await asyncio.sleep(seconds)
        window_end, server_cpu_after, own_cpu_after = time.perf_counter(), cpu_seconds(server_pid), time.process_time()
        health = (await api.get("/api/health")).json()
        writes_after = health["writes"]
    stop.set()
    await lag_watch
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [latency * 1000 for at, latency in stats.acks if window_start <= at <= window_end]
    span = window_end - window_start
    batches = writes_after["batches"] - writes_before["batches"]
    ops = writes_after["ops"] - writes_before["ops"]
    return {
        "tables": tables,
        "think_s": think,
        "window_s": round(span, 1),
        "acknowledged_moves_per_s": round(len(latencies) / span, 1),
        "offered_max_moves_per_s": round(3 * tables / think, 1),
        "ack_ms_p50": round(statistics.median(latencies), 1) if latencies else None,
        "ack_ms_p95": round(percentile(latencies, 0.95), 1) if latencies else None,
        "ack_ms_p99": round(percentile(latencies, 0.99), 1) if latencies else None,
        "ack_ms_max": round(max(latencies), 1) if latencies else None,
        "errors": stats.errors,
        "games_finished": stats.games,
        "commits_per_s": round(batches / span, 1),
        "moves_per_commit": round(ops / batches, 2) if batches else None,
        "server_cpu": round((server_cpu_after - server_cpu_before) / span, 2),
        "client_cpu": round((own_cpu_after - own_cpu_before) / span, 2),
        "server_loop_lag_ms": health["loop_lag"],
        "client_loop_lag_ms_p50": round(statistics.median(lags), 1),
        "client_loop_lag_ms_p99": round(percentile(lags, 0.99), 1),
    }


def main() -> None:
    # The client's own garbage collection pauses would be counted as server latency; keep them rare.
    gc.set_threshold(50_000, 50, 1000)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100], help="table counts to run one after another")
    parser.add_argument("--think", type=float, default=1.0, help="seconds each player waits before acting")
    parser.add_argument("--ramp", type=float, default=25.0, help="seconds over which the tables start (about one game)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the measured window")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="folder on the disk to measure (default: here)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-load-") as folder:
        raw = raw_commit_rate(Path(folder))
        for tables in args.tables:
            port = free_port()
            db = Path(folder) / f"load-{tables}.db"
            command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(db)]
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                url = f"http://127.0.0.1:{port}"
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    try:
                        if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                row = asyncio.run(run_load(url, tables, args.think, args.ramp, args.seconds, process.pid))
            finally:
                process.terminate()
                process.wait()
            row["raw_sqlite_commits_per_s"] = round(raw, 1)
            row["load_average"] = round(os.getloadavg()[0], 2)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
