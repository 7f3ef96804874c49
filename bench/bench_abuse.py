"""Abuse benchmark: a hostile client attacks a real ``greenlight serve`` while a normal player plays.

A normal player on 127.0.0.1 plays Movie Empire against two ``medium`` bots over a WebSocket (thinking
``--think`` seconds a move, looking at the table over HTTP now and then), for the whole run. Each attack then
runs in turn for ``--seconds``, from loopback addresses other than the player's (127.0.0.2 and up), in worker
processes of its own; the first phase is the quiet reference. Per phase it prints the normal player's move
latency (p50/p99, move sent to its acknowledgement), HTTP view latency (p99), bot turn (median and longest:
from the player's acknowledged move to its next turn, the two bots' moves included), the server's event-loop
lag (longest, from ``/api/health``) and the server process's memory growth since the start.

The server runs with every default limit (a public server) and ``--bot-delay 0``.

Run: ``python bench/bench_abuse.py`` (about 4 minutes), or ``--attacks view_flood hint_flood --seconds 10``.
Targets on the reference machine (docs/security.md): under every attack move p99 <= 250 ms, bot turn <= 1 s,
memory growth <= 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

OPERATOR_TOKEN = "bench-operator"
OPERATOR = {"X-Greenlight-Operator": OPERATOR_TOKEN}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# -- the normal player -------------------------------------------------------------------------------


@dataclass
class Measures:
    moves: list[float] = field(default_factory=list)
    views: list[float] = field(default_factory=list)
    bot_turns: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def clear(self) -> None:
        self.moves.clear()
        self.views.clear()
        self.bot_turns.clear()
        self.errors.clear()


async def normal_player(url: str, think: float, measures: Measures, stop: asyncio.Event) -> None:
    """Play table after table against two medium bots until ``stop``; every figure goes into ``measures``."""
    rng = random.Random(1)
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.1")
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as api:
        while not stop.is_set():
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "medium"}]
            # Movie Empire: turns go round, so between two of the person's turns both bots move (a bot turn to measure).
            answer = await api.post("/api/tables", json={"game": "movie-empire", "seats": seats})
            if answer.status_code != 201:
                measures.errors.append(f"create {answer.status_code}: {answer.text[:100]}")
                await asyncio.sleep(1)
                continue
            created = answer.json()
            table_id, token = created["table"]["id"], created["seats"][0]["token"]
            looker = asyncio.create_task(look_now_and_then(api, table_id, token, measures, stop))
            try:
                await play_one(url.replace("http", "ws", 1), table_id, token, think, measures, stop, rng)
            finally:
                looker.cancel()


async def look_now_and_then(api: httpx.AsyncClient, table_id: str, token: str, measures: Measures, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await asyncio.sleep(0.5)
        start = time.perf_counter()
        answer = await api.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {token}"})
        measures.views.append(time.perf_counter() - start)
        if answer.status_code != 200:
            measures.errors.append(f"view {answer.status_code}")


async def play_one(url: str, table_id: str, token: str, think: float, measures: Measures, stop: asyncio.Event, rng: random.Random) -> None:
    async with connect(f"{url}/ws/tables/{table_id}", local_addr=("127.0.0.1", 0), max_size=2**23, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        acked_at: float | None = None
        latest: dict[str, Any] = {}
        request = 0

        async def act() -> None:
            nonlocal sent_at, acked_at, request
            if acked_at is not None:
                measures.bot_turns.append(time.perf_counter() - acked_at)
                acked_at = None
            await asyncio.sleep(think)
            request += 1
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "id": request, "action": rng.choice(latest["legal_actions"])}))

        async for text in ws:
            if stop.is_set():
                return
            message = json.loads(text)
            if message["type"] == "view":
                if message["outcome"] is not None:
                    return
                latest = message
                if latest["legal_actions"] and sent_at is None:
                    await act()
            elif message["type"] == "ack" and sent_at is not None:
                now = time.perf_counter()
                measures.moves.append(now - sent_at)
                sent_at = None
                # The view after one's own move comes before its ack: if it asks for more, go on now.
                if latest.get("version", -1) > message["index"] and latest["legal_actions"]:
                    acked_at = None
                    await act()
                else:
                    acked_at = now
            elif message["type"] == "error" and message.get("id") == request:
                measures.errors.append(f"act {message['status']}: {message['message'][:80]}")
                sent_at = None
                await ws.send(json.dumps({"type": "view", "id": "again"}))


# -- attacks (each runs in worker processes of its own) ------------------------------------------------


def attacker_address(worker: int, index: int = 0) -> str:
    return f"127.0.{2 + worker}.{2 + index}"


async def _table(api: httpx.AsyncClient, seats: list[dict[str, Any]], game: str = "cinecitta") -> dict[str, Any] | None:
    answer = await api.post("/api/tables", json={"game": game, "seats": seats})
    return answer.json() if answer.status_code == 201 else None


async def socket_flood(url: str, address: str, seconds: float, message: dict[str, Any], sockets: int) -> None:
    """``sockets`` tokenless (or seat) sockets from one address sending ``message`` back to back, reconnecting when cut off."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as api:
        created = await _table(api, [{"kind": "human"}] * 3)
    if created is None:
        return
    table_id, token = created["table"]["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + seconds
    ws_url = url.replace("http", "ws", 1)

    async def one(number: int) -> None:
        while time.monotonic() < deadline:
            try:
                async with connect(f"{ws_url}/ws/tables/{table_id}", local_addr=(address, 0), max_size=2**23, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token if message["type"] == "act" else None}))
                    reader = asyncio.create_task(drain(ws))
                    count = 0
                    while time.monotonic() < deadline:
                        await ws.send(json.dumps({**message, "id": count}))
                        count += 1
                        if count % 50 == 0:
                            await asyncio.sleep(0)
                    reader.cancel()
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(number) for number in range(sockets)))


async def drain(ws: Any) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def socket_churn(url: str, address: str, seconds: float) -> None:
    """Open a socket, say hello, take the first view, close; again and again."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as api:
        created = await _table(api, [{"kind": "bot", "bot": "random"}] * 3)
    if created is None:
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(ConnectionClosed, InvalidStatus, OSError, TimeoutError):
            async with connect(f"{url.replace('http', 'ws', 1)}/ws/tables/{created['table']['id']}", local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                await ws.recv()


async def http_flood(url: str, address: str, seconds: float, connections: int = 8) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as api:
        deadline = time.monotonic() + seconds

        async def one() -> None:
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    await api.get("/api/tables?limit=50")

        await asyncio.gather(*(one() for _ in range(connections)))


async def strong_tables(url: str, address: str, seconds: float) -> None:
    """Create tables of three expert bots as fast as the server allows (and watch none of them)."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=30) as api:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            answer = await api.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "bot", "bot": "expert"}] * 3})
            if answer.status_code != 201:
                await asyncio.sleep(min(5.0, float(answer.headers.get("retry-after", "1"))))


async def header_flood(url: str, address: str, seconds: float, connections: int = 8) -> None:
    """Connections that send one endless header (100 MB each), reconnecting when cut off."""
    host, port = url.removeprefix("http://").split(":")
    deadline = time.monotonic() + seconds
    chunk = b"z" * 65536

    async def one() -> None:
        while time.monotonic() < deadline:
            try:
                _reader, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Endless: ")
                for _ in range(1600):  # 100 MB
                    if time.monotonic() > deadline:
                        break
                    writer.write(chunk)
                    await writer.drain()
                writer.close()
            except OSError:
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(connections)))


async def upload_flood(url: str, address: str, seconds: float, parallel: int = 8) -> None:
    """Parallel 4 MB record uploads (and positions) as fast as the server takes them."""
    actions = [[0, "offer D6 30"]] * 40_000
    record = json.dumps({"game": "cinecitta", "version": "1", "num_players": 3, "seed": 1, "options": {}, "actions": actions})
    body = record.encode()[: 4 * 1024 * 1024 - 10]
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as api:
        deadline = time.monotonic() + seconds

        async def one(number: int) -> None:
            while time.monotonic() < deadline:
                path = "/api/replay" if number % 2 else "/api/positions/tables"
                with contextlib.suppress(httpx.HTTPError):
                    answer = await api.post(path, content=body, headers={"content-type": "application/json"})
                    if answer.status_code == 429:
                        await asyncio.sleep(0.2)

        await asyncio.gather(*(one(number) for number in range(parallel)))


async def hint_flood(url: str, address: str, seconds: float, per_second: float = 10.0) -> None:
    """Ten hints a second at one's own table against bots, each given up at once."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=2) as api:
        created = await _table(api, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "movie-empire")
        if created is None:
            return
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                await asyncio.wait_for(api.post(f"/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"}), 0.05)
            await asyncio.sleep(1 / per_second)


#: Each attack: (what it does, workers, coroutine factory per worker).
ATTACKS: dict[str, tuple[str, int, Callable[[str, int, float], Coroutine[Any, Any, None]]]] = {
    "view_flood": (
        "32 sockets from one address, {type: view} back to back",
        1,
        lambda u, w, s: socket_flood(u, attacker_address(w), s, {"type": "view"}, 32),
    ),
    "ping_flood": (
        "32 sockets from one address, pings back to back",
        1,
        lambda u, w, s: socket_flood(u, attacker_address(w), s, {"type": "ping"}, 32),
    ),
    "act_flood": (
        "8 seat sockets from one address, refused acts back to back",
        1,
        lambda u, w, s: socket_flood(u, attacker_address(w), s, {"type": "act", "action": "offer Z9 1"}, 8),
    ),
    "socket_churn": ("open, hello, close as fast as possible, 2 addresses", 2, lambda u, w, s: socket_churn(u, attacker_address(w), s)),
    "http_flood": (
        "8 connections from one address, GET /api/tables back to back",
        1,
        lambda u, w, s: http_flood(u, attacker_address(w), s),
    ),
    "strong_tables_one": (
        "one address creates all-expert tables as fast as allowed",
        1,
        lambda u, w, s: strong_tables(u, attacker_address(w), s),
    ),
    "strong_tables_ten": (
        "ten addresses create all-expert tables as fast as allowed",
        10,
        lambda u, w, s: strong_tables(u, attacker_address(w), s),
    ),
    "header_flood": ("8 connections each sending a 100 MB header", 1, lambda u, w, s: header_flood(u, attacker_address(w), s)),
    "upload_flood": ("8 parallel 4 MB uploads (records and positions)", 1, lambda u, w, s: upload_flood(u, attacker_address(w), s)),
    "hint_flood": ("10 hints a second, each given up at once", 1, lambda u, w, s: hint_flood(u, attacker_address(w), s)),
}


def _attack_worker(name: str, url: str, worker: int, seconds: float) -> None:
    with contextlib.suppress(Exception):
        asyncio.run(ATTACKS[name][2](url, worker, seconds))


# -- the run ----------------------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    folder = Path(tempfile.mkdtemp(prefix="greenlight-abuse-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(folder / "tables.db")]
    command += ["--bot-delay", "0"]
    env = {**os.environ, "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN}
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "wb"), env=env)  # noqa: SIM115
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/ready", timeout=1).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        measures = Measures()
        stop = asyncio.Event()
        player = asyncio.create_task(normal_player(url, args.think, measures, stop))
        await asyncio.sleep(args.warmup)
        start_rss = rss_mb(server.pid)
        results = []
        context = multiprocessing.get_context("spawn")
        for name in ["quiet", *args.attacks]:
            measures.clear()
            async with httpx.AsyncClient(base_url=url, timeout=30) as api:
                await api.get("/api/health", headers=OPERATOR)  # the lag window starts now
            workers = []
            if name != "quiet":
                _, count, _ = ATTACKS[name]
                for worker in range(count):
                    process = context.Process(target=_attack_worker, args=(name, url, worker, args.seconds))
                    process.start()
                    workers.append(process)
            lags: list[float] = []
            peak = 0.0
            phase_end = time.monotonic() + args.seconds
            async with httpx.AsyncClient(base_url=url, timeout=30, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.1")) as api:
                while time.monotonic() < phase_end:
                    await asyncio.sleep(1.0)
                    with contextlib.suppress(httpx.HTTPError):
                        health = (await api.get("/api/health", headers=OPERATOR)).json()
                        lags.append(health["loop_lag"]["last_second_max_ms"])
                    peak = max(peak, rss_mb(server.pid))
            for process in workers:
                process.join(timeout=30)
                if process.is_alive():
                    process.kill()
            result = {
                "attack": name,
                "what": ATTACKS[name][0] if name != "quiet" else "no attack",
                "moves": len(measures.moves),
                "move_p50_ms": round(percentile(measures.moves, 0.5) * 1000, 1),
                "move_p99_ms": round(percentile(measures.moves, 0.99) * 1000, 1),
                "view_p99_ms": round(percentile(measures.views, 0.99) * 1000, 1),
                "bot_turn_median_s": round(statistics.median(measures.bot_turns), 3) if measures.bot_turns else None,
                "bot_turn_max_s": round(max(measures.bot_turns), 3) if measures.bot_turns else None,
                "loop_lag_max_ms": round(max(lags), 1) if lags else None,
                "memory_growth_mb": round(peak - start_rss, 1),
                "errors": measures.errors[:5],
            }
            print(json.dumps(result), flush=True)
            results.append(result)
            await asyncio.sleep(args.pause)  # let what the attack left behind settle before the next phase
        stop.set()
        player.cancel()
        return results
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=20)


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| attack | moves | move p50 / p99 (ms) | view p99 (ms) | bot turn median / max (s) | loop lag max (ms) | memory growth (MB) |",
        "|---|---|---|---|---|---|---|",
    ]
    for result in results:
        lines.append(
            f"| {result['attack']} | {result['moves']} | {result['move_p50_ms']} / {result['move_p99_ms']} | {result['view_p99_ms']} |"
            f" {result['bot_turn_median_s']} / {result['bot_turn_max_s']} | {result['loop_lag_max_ms']} | {result['memory_growth_mb']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attacks", nargs="+", default=list(ATTACKS), choices=list(ATTACKS))
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=0.3, help="the normal player's thinking time per move")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pause", type=float, default=3.0, help="quiet seconds between phases")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    print(table(results))


if __name__ == "__main__":
    main()
