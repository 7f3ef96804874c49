"""Capacity benchmark: what one acknowledged move costs each server process and PostgreSQL, for a model of many machines.

Tables of three scripted players (bench_load's players: each seat waits ``--think`` seconds, then sends a random
legal action over its WebSocket) run against ``--processes`` real ``greenlight serve`` processes sharing one real
PostgreSQL (started for the run, with ``pg_stat_statements``), in three layouts:

- ``one``: one server process;
- ``tables``: every table on one process (its three seats connect to the same process), tables spread evenly;
- ``split``: every table's seats spread over the processes (seat N to process N mod P).

Over a measured window it reports, per acknowledged move: CPU milliseconds of each server process (its bot
workers included: there are none here) and of PostgreSQL (every process of the cluster, from ``/proc``), the
statements the database ran (round trips, from ``pg_stat_statements``, by kind) and its commits. From these it
prints the moves per second that server machines and a database machine of given cores would serve at a chosen
CPU utilisation, and which runs out first (docs/deploy.md, "How many moves a deployment serves").

The figures of one run are ratios and CPU seconds per move, not promises of wall-clock speed: the load clients
share this machine's cores with the servers and the database.

Run: ``python bench/bench_capacity.py --tables 60 --think 1 --seconds 30``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.bench_load import OPERATOR_TOKEN, Stats, address_of, family_cpu, player, postgres_commits, postgres_cpu
from bench.bench_web import free_port


def start_server(database: str, folder: Path, number: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", database, "--bot-delay", "0"]
    env = {**os.environ, "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN}
    log = (folder / f"server-{number}.log").open("ab")
    # Every limit at its default: each table's players come from an address of their own, as people would, so the
    # per-client budgets (the actions budget is a database round trip per move) cost what they cost in production.
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/ready", timeout=1).status_code == 200:
                return process, url
        time.sleep(0.1)
    raise RuntimeError(f"server {number} did not start")


async def table_loop(urls: list[str], layout: str, number: int, think: float, ramp: float, stats: Stats, stop: asyncio.Event) -> None:
    """Keep one table busy on the processes its layout gives it; a finished game is followed by a new one."""
    address = address_of(number)
    rng = random.Random(number)
    await asyncio.sleep(rng.random() * ramp)
    home = urls[number % len(urls)]
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=home, transport=transport, timeout=60) as api:
        while not stop.is_set():
            created = (await api.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human"}] * 3})).json()
            tokens = [seat["token"] for seat in created["seats"]]
            seat_urls = [urls[(number + seat) % len(urls)] if layout == "split" else home for seat in range(3)]
            await asyncio.gather(
                *(
                    player(url.replace("http", "ws", 1), created["table"]["id"], token, address, think, stats, rng)
                    for url, token in zip(seat_urls, tokens, strict=True)
                )
            )
            stats.games += 1


def statements(database: str) -> dict[str, int]:
    """Statement calls so far in the database, by kind (the first words of the statement)."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        rows = db.execute(
            "SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
        ).fetchall()
    kinds: dict[str, int] = {}
    for query, calls in rows:
        kinds[kind_of(str(query))] = kinds.get(kind_of(str(query)), 0) + int(calls)
    return kinds


def kind_of(query: str) -> str:
    """A statement's kind in a few words: its verb and the first table it names."""
    words = query.replace("(", " ").replace(",", " ").split()
    verb = words[0].upper() if words else "?"
    if verb in ("BEGIN", "COMMIT", "ROLLBACK"):
        return verb
    if verb == "SELECT" and "pg_notify" in query:
        return "SELECT pg_notify"
    if verb == "SELECT" and "pg_advisory" in query:
        return "SELECT advisory lock"
    for keyword in ("INTO", "UPDATE", "FROM") if verb in ("INSERT", "UPDATE") else ("FROM",):
        if keyword in (word.upper() for word in words):
            index = [word.upper() for word in words].index(keyword)
            table = (words[index + 1] if keyword != "UPDATE" else words[1]).strip('"')
            return f"{verb} {table}"
    return verb


async def measure(urls: list[str], layout: str, args: argparse.Namespace, pids: list[int], database: str, pg_data: Path) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(table_loop(urls, layout, number, args.think, args.ramp, stats, stop)) for number in range(args.tables)]
    await asyncio.sleep(args.ramp + 3)
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        db.execute("SELECT pg_stat_statements_reset()")
    commits_before, pg_before = postgres_commits(database), postgres_cpu(pg_data)
    cpu_before = [family_cpu(pid) for pid in pids]
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    span = time.perf_counter() - start
    cpu_after = [family_cpu(pid) for pid in pids]
    commits_after, pg_after = postgres_commits(database), postgres_cpu(pg_data)
    calls = statements(database)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    moves = sum(1 for at, _ in stats.acks if start <= at <= start + span)
    per_move = max(1, moves)
    server_ms = [round(1000 * (after - before) / per_move, 3) for before, after in zip(cpu_before, cpu_after, strict=True)]
    total_calls = sum(calls.values())
    return {
        "layout": layout,
        "processes": len(urls),
        "tables": args.tables,
        "think_s": args.think,
        "moves_per_s": round(moves / span, 1),
        "server_cpu_ms_per_move": server_ms,
        "server_cpu_ms_per_move_total": round(sum(server_ms), 3),
        "postgres_cpu_ms_per_move": round(1000 * (pg_after - pg_before) / per_move, 3),
        "statements_per_move": round(total_calls / per_move, 2),
        "commits_per_move": round((commits_after - commits_before) / per_move, 3),
        "statements_by_kind_per_move": {
            kind: round(count / per_move, 3) for kind, count in sorted(calls.items(), key=lambda item: -item[1]) if count / per_move >= 0.01
        },
        "errors": stats.errors,
    }


def model(rows: list[dict[str, Any]], server_cores: int, database_cores: int, machines: list[int], utilisation: float) -> list[str]:
    """Moves per second that ``machines`` server machines and one database machine should serve, by layout."""
    lines = [
        f"Model: server machines of {server_cores} cores (one server process per core), one database machine of {database_cores}"
        f" cores, both at {utilisation:.0%} CPU; moves/s = cores x utilisation / CPU seconds per move.",
        "| layout | server CPU ms/move | database CPU ms/move | "
        + " | ".join(f"{n} machine{'s' if n > 1 else ''}" for n in machines)
        + " |",
        "|---|---|---|" + "---|" * len(machines),
    ]
    for row in rows:
        server = row["server_cpu_ms_per_move_total"] / 1000
        database = row["postgres_cpu_ms_per_move"] / 1000
        cells = []
        for count in machines:
            by_servers = count * server_cores * utilisation / server if server else float("inf")
            by_database = database_cores * utilisation / database if database else float("inf")
            limit = "database" if by_database < by_servers else "servers"
            cells.append(f"{min(by_servers, by_database):,.0f} ({limit})")
        lines.append(
            f"| {row['layout']} ({row['processes']} proc.) | {row['server_cpu_ms_per_move_total']} | {row['postgres_cpu_ms_per_move']} | "
            + " | ".join(cells)
            + " |"
        )
    return lines


async def main_async(args: argparse.Namespace) -> None:
    import tempfile

    import psycopg

    from greenlight.testing.postgres import TemporaryPostgres

    folder = Path(tempfile.mkdtemp(prefix="greenlight-capacity-"))
    rows = []
    with TemporaryPostgres({"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "top"}) as postgres:
        for layout in args.layouts:
            count = 1 if layout == "one" else args.processes
            name = f"capacity_{layout}"
            with psycopg.connect(postgres.url, autocommit=True) as db:
                db.execute(f"CREATE DATABASE {name}")
            database = postgres.url.rsplit("/", 1)[0] + f"/{name}"
            with psycopg.connect(database, autocommit=True) as db:
                db.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            servers = [start_server(database, folder, number) for number in range(count)]
            try:
                row = await measure(
                    [url for _, url in servers], layout, args, [process.pid for process, _ in servers], database, postgres.data
                )
            finally:
                for process, _ in servers:
                    process.terminate()
                for process, _ in servers:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(timeout=20)
            print(json.dumps(row), flush=True)
            rows.append(row)
    print("\n".join(model(rows, args.server_cores, args.database_cores, args.machines, args.utilisation)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=["one", "tables", "split"], choices=["one", "tables", "split"])
    parser.add_argument("--processes", type=int, default=2, help="server processes of the 'tables' and 'split' layouts")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=15.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--server-cores", type=int, default=8, help="cores of a server machine in the model")
    parser.add_argument("--database-cores", type=int, default=16, help="cores of the database machine in the model")
    parser.add_argument("--machines", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    parser.add_argument("--utilisation", type=float, default=0.7, help="CPU share the model plans for")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
