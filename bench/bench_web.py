"""Web server latency: a real ``greenlight serve`` process on a temporary SQLite file.

Measures (one JSON line):
- HTTP action latency: stored (committed) and answered with the seat's new view,
  for random legal actions of three human seats in Cinecitta 1937 games;
- the same HTTP actions while two tables of ``hard`` (search) bots think
  with no delay, i.e. how much bots on the server slow other tables;
- a bots-only 5-player game with no bot delay, created to finished;
- restart after SIGKILL until the server answers again.

Run: ``python bench/bench_web.py --actions 360``
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@functools.cache
def unlimited() -> tuple[str, ...]:
    """Options lifting the per-client rate limits (this benchmark plays as fast as the server answers, from one address).

    Empty for a server from before the limits existed, so the same benchmark measures both. Asked once
    and cached: the ``serve --help`` process it starts must not count in the restart time.
    """
    usage = subprocess.run([sys.executable, "-m", "greenlight.cli.main", "serve", "--help"], capture_output=True, text=True).stdout
    if "--limit" not in usage:
        return ()
    import dataclasses

    from greenlight.web.limits import ServerSettings

    known = {field.name for field in dataclasses.fields(ServerSettings)}
    names = ("actions_per_second", "create_per_minute", "requests_per_second", "socket_messages_per_second", "socket_opens_per_minute")
    return tuple(part for name in names if name in known for part in ("--limit", f"{name}=0"))


#: The operator's token the benchmark's server runs with (``/api/health`` shows its figures only with it).
OPERATOR_TOKEN = "bench-operator"


def start_server(db: Path, port: int, bot_workers: int | None = None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0"]
    command += list(unlimited())
    if bot_workers is not None:
        command += ["--bot-workers", str(bot_workers)]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN}
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def http_actions(client: httpx.Client, count: int, rng: random.Random) -> list[float]:
    """Latencies (ms) of ``count`` random legal actions played over HTTP by three human seats."""
    latencies: list[float] = []
    while len(latencies) < count:
        created = client.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human"}] * 3, "seed": len(latencies)}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        table = created["table"]["id"]
        views = [client.get(f"/api/tables/{table}/view", headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
        while len(latencies) < count and views[0]["decision"]["players"]:
            seat = views[0]["decision"]["players"][0]
            view = client.get(f"/api/tables/{table}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            action = rng.choice(view["legal_actions"])
            start = time.perf_counter()
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            answer = client.post(f"/api/tables/{table}/actions", json={"action": action}, headers=headers)
            latencies.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, answer.text
            views[0] = client.get(f"/api/tables/{table}/view", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    return latencies


def bot_game(client: httpx.Client) -> float:
    """Seconds from creating a 5-bot table to its end."""
    start = time.perf_counter()
    table = client.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "bot", "bot": "random"}] * 5, "seed": 1}).json()
    table_id = table["table"]["id"]
    while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        time.sleep(0.01)
    return time.perf_counter() - start


def busy_http_actions(client: httpx.Client, count: int, rng: random.Random) -> list[float]:
    """Like :func:`http_actions`, while two 3-seat tables of ``hard`` bots think (started first, played until the end)."""
    for seed in (1, 2):
        client.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "bot", "bot": "hard"}] * 3, "seed": seed})
    time.sleep(3)  # let the worker processes start and the first searches begin
    return http_actions(client, count, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=360)
    parser.add_argument("--bot-workers", type=int, default=None, help="as greenlight serve (0: bots think in a server thread)")
    args = parser.parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        port = free_port()
        process = start_server(db, port, args.bot_workers)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                latencies = http_actions(client, args.actions, rng)
                bots_seconds = bot_game(client)
                busy = busy_http_actions(client, args.actions, rng)
                tables = client.get("/api/health", headers={"X-Greenlight-Operator": OPERATOR_TOKEN}).json()["tables"]
            process.send_signal(signal.SIGKILL)
            process.wait()
            start = time.perf_counter()
            process = start_server(db, port)
            restart_seconds = time.perf_counter() - start
        finally:
            process.terminate()
            process.wait()
    row: dict[str, Any] = {
        "http_action_ms_median": round(statistics.median(latencies), 2),
        "http_action_ms_p95": round(percentile(latencies, 0.95), 2),
        "actions": len(latencies),
        "http_action_ms_median_hard_bots_thinking": round(statistics.median(busy), 2),
        "http_action_ms_p95_hard_bots_thinking": round(percentile(busy, 0.95), 2),
        "bots_only_5p_game_s": round(bots_seconds, 3),
        "restart_after_sigkill_s": round(restart_seconds, 3),
        "tables_restored": tables,
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
