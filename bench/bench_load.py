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

With ``--postgres`` the server keeps its tables in a real PostgreSQL started
for the run (``greenlight.testing.postgres``, a fresh database per run), and
``--workers 1 2`` runs it with one and then two worker processes
(``greenlight serve --workers N``); next to the result it prints the rate
of raw single-row PostgreSQL commits measured in the same run, the
database's own CPU and its committed transactions per second.

Run: ``python bench/bench_load.py --tables 100 120 --think 1 --seconds 60``
or ``python bench/bench_load.py --postgres --workers 1 2 --tables 100``
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


#: The operator's token the benchmark's server runs with (``/api/health`` shows its figures only with it).
OPERATOR_TOKEN = "bench-operator"


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


def raw_postgres_commit_rate(url: str, seconds: float = 3.0) -> float:
    """Single-row commits per second on the PostgreSQL server, each its own transaction (the server's defaults)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE raw_rows (id SERIAL PRIMARY KEY, text TEXT)")
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            db.execute("INSERT INTO raw_rows (text) VALUES ('offer D6 30')")
            count += 1
        elapsed = time.perf_counter() - start
        db.execute("DROP TABLE raw_rows")
    return count / elapsed


def postgres_commits(url: str) -> int:
    """Transactions committed so far in the database at ``url``."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return int(row[0]) if row is not None else 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """A process and all its descendants (a supervisor's workers and their bot workers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def family_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (the live ones)."""
    total = 0.0
    for member in family(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(member)
    return total


def postgres_cpu(data: Path) -> float:
    """CPU seconds of every process of the PostgreSQL server whose data folder is ``data``."""
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    return family_cpu(postmaster)


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


async def run_load(
    url: str, tables: int, think: float, ramp: float, seconds: float, server_pid: int, database: str | None, pg_data: Path | None
) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    lags: list[float] = []
    lag_watch = asyncio.create_task(watch_lag(lags, stop))
    tasks = [asyncio.create_task(table_loop(url, number, think, ramp, stats, stop)) for number in range(tables)]
    await asyncio.sleep(ramp + 3)
    async with httpx.AsyncClient(base_url=url, timeout=60) as api:
        writes_before = (await api.get("/api/health", headers={"X-Greenlight-Operator": OPERATOR_TOKEN})).json()["writes"]
        pg_before = (postgres_commits(database), postgres_cpu(pg_data)) if database and pg_data else (0, 0.0)
        window_start, server_cpu_before, own_cpu_before = time.perf_counter(), family_cpu(server_pid), time.process_time()
        await asyncio.sleep(seconds)
        window_end, server_cpu_after, own_cpu_after = time.perf_counter(), family_cpu(server_pid), time.process_time()
        pg_after = (postgres_commits(database), postgres_cpu(pg_data)) if database and pg_data else (0, 0.0)
        health = (await api.get("/api/health", headers={"X-Greenlight-Operator": OPERATOR_TOKEN})).json()
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
    row: dict[str, Any] = {
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
    if database is not None:
        # With several workers /api/health answers for one of them: the database's own count covers them all.
        del row["commits_per_s"], row["moves_per_commit"]
        row["postgres_commits_per_s"] = round((pg_after[0] - pg_before[0]) / span, 1)
        row["postgres_cpu"] = round((pg_after[1] - pg_before[1]) / span, 2)
    return row


def main() -> None:
    # The client's own garbage collection pauses would be counted as server latency; keep them rare.
    gc.set_threshold(50_000, 50, 1000)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100], help="table counts to run one after another")
    parser.add_argument("--think", type=float, default=1.0, help="seconds each player waits before acting")
    parser.add_argument("--ramp", type=float, default=25.0, help="seconds over which the tables start (about one game)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the measured window")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="folder on the disk to measure (default: here)")
    parser.add_argument("--postgres", action="store_true", help="keep the tables in a PostgreSQL started for the run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1], help="server processes (several need --postgres)")
    parser.add_argument("--server-log", type=Path, help="keep the server's JSON log lines in this file (appended)")
    args = parser.parse_args()
    if max(args.workers) > 1 and not args.postgres:
        parser.error("several --workers need --postgres")
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-load-") as folder, contextlib.ExitStack() as stack:
        postgres = None
        if args.postgres:
            from greenlight.testing.postgres import TemporaryPostgres

            postgres = stack.enter_context(TemporaryPostgres())
            raw = raw_postgres_commit_rate(postgres.url)
        else:
            raw = raw_commit_rate(Path(folder))
        for workers in args.workers:
            for tables in args.tables:
                row = run_one(Path(folder), postgres, tables, workers, args)
                row["raw_postgres_commits_per_s" if postgres else "raw_sqlite_commits_per_s"] = round(raw, 1)
                row["load_average"] = round(os.getloadavg()[0], 2)
                print(json.dumps(row), flush=True)


def run_one(folder: Path, postgres: Any, tables: int, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    """One measured run: a fresh server (and database) with ``workers`` processes under ``tables`` tables."""
    port = free_port()
    if postgres is not None:
        import psycopg

        name = f"load_{tables}_{workers}"
        with psycopg.connect(postgres.url, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        database: str | None = postgres.url.rsplit("/", 1)[0] + f"/{name}"
        db_option = database
    else:
        database, db_option = None, str(folder / f"load-{tables}.db")
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(db_option)]
    command += ["--workers", str(workers)]
    log = open(args.server_log, "ab") if args.server_log else None  # noqa: SIM115 - closed after the run
    if log is not None:
        command += ["--log-format", "json"]
    env = {**os.environ, "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log or subprocess.DEVNULL, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/api/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        time.sleep(1.0 if workers > 1 else 0.0)  # every worker up, not just the first to answer
        pg_data = postgres.data if postgres is not None else None
        row = asyncio.run(run_load(url, tables, args.think, args.ramp, args.seconds, process.pid, database, pg_data))
    finally:
        process.terminate()
        process.wait()
        if log is not None:
            log.close()
    row["storage"] = "postgresql" if postgres is not None else "sqlite"
    row["workers"] = workers
    return row


if __name__ == "__main__":
    main()
