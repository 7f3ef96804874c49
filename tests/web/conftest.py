"""Fixtures that run the real server (``greenlight serve``) as a subprocess on a free port with a temporary SQLite file."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One ``greenlight serve`` process; ``kill`` ends it with SIGKILL, ``start`` runs it again on the same file and port."""

    def __init__(self, db: Path, bot_delay: float = 0.0) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(self.port), "--db", str(self.db)]
        command += ["--bot-delay", str(self.bot_delay)]
        with self.log.open("ab") as log:
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.db.parent, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by a test module (bots move without delay)."""
    running = Server(tmp_path_factory.mktemp("web") / "tables.db")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (for restarts)."""
    running = Server(tmp_path / "tables.db")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def create_table(api: httpx.Client, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """POST /api/tables and return the answer (asserting 201)."""
    response = api.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_until(predicate: Any, timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
