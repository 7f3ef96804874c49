"""Only stored state is ever shown, and storage faults are survived (against the real server process).

The database write is blocked by holding SQLite's write lock from another
connection (as another process would), or made to fail by a full disk (a
small tmpfs, when the tests run as root and may mount one).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import NO_RATE_LIMITS, Server, Socket, bearer, create_table, wait_until

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]


@contextlib.contextmanager
def write_lock(db: Path | str) -> Iterator[sqlite3.Connection]:
    """Hold the database's write lock (as another process could) until the block ends."""
    assert isinstance(db, Path), "the servers of these tests keep their tables in a SQLite file"
    connection = sqlite3.connect(db, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    finally:
        connection.execute("ROLLBACK")
        connection.close()


@pytest.fixture
def slow_store_server(tmp_path: Path) -> Iterator[Server]:
    """A server that waits up to 6 s for the database before refusing a move."""
    running = Server(tmp_path / "tables.db", extra=[*NO_RATE_LIMITS, "--write-timeout", "6"])
    running.start()
    yield running
    running.stop()


@pytest.fixture
def impatient_server(tmp_path: Path) -> Iterator[Server]:
    """A server that refuses a move the database has not taken within 1 s; bots move every 0.1 s."""
    running = Server(tmp_path / "tables.db", bot_delay=0.1, extra=[*NO_RATE_LIMITS, "--write-timeout", "1"])
    running.start()
    yield running
    running.stop()


def everything_seen(api: httpx.Client, table_id: str, tokens: list[str], sockets: list[Socket]) -> list[dict[str, Any]]:
    """Every way a client can look at the table: seat and spectator views over HTTP and WebSocket, table info, lobby."""
    seen = [api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json() for token in tokens]
    seen.append(api.get(f"/api/tables/{table_id}/view").json())
    seen.append({"table": api.get(f"/api/tables/{table_id}").json()})
    listed = [t for t in api.get("/api/tables").json()["tables"] if t["id"] == table_id]
    seen.append({"table": listed[0]})
    for number, socket in enumerate(sockets):
        seen.append(socket.ask_view(f"poll-{number}", timeout=5))
    return seen


def game_part(seen: dict[str, Any]) -> dict[str, Any]:
    """What a look at the table says about the game (not who is connected)."""
    part: dict[str, Any] = {
        key: seen[key] for key in ("version", "decision", "observation", "legal_actions", "log", "outcome") if key in seen
    }
    part["table"] = {key: seen["table"][key] for key in ("version", "status", "finished_at")}
    return part


def test_a_move_waiting_for_its_write_is_shown_to_nobody(slow_store_server: Server) -> None:
    server = slow_store_server
    with server.client() as api:
        created = create_table(api, "cinecitta", HUMANS, seed=3)
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for seat in (0, 1):
            legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[seat])).json()["legal_actions"]
            assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[seat])).status_code == 200
        sockets = [Socket(server, table_id, token) for token in [*tokens, None]]
        for socket in sockets:
            socket.view_at(2)
        last_offer = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[2])).json()["legal_actions"][0]
        before = [game_part(seen) for seen in everything_seen(api, table_id, tokens, sockets)]
        answer: list[httpx.Response] = []
        with write_lock(server.db):
            # The last offer ends the step: it would reveal every folder. It waits for the database...
            mover = threading.Thread(
                target=lambda: answer.append(
                    httpx.post(
                        f"{server.url}/api/tables/{table_id}/actions", json={"action": last_offer}, headers=bearer(tokens[2]), timeout=30
                    )
                )
            )
            mover.start()
            deadline = time.monotonic() + 1.5
            polls = 0
            while time.monotonic() < deadline:
                # ... and meanwhile every view, info and listing still shows move 2, with seat 2 still to offer.
                assert [game_part(seen) for seen in everything_seen(api, table_id, tokens, sockets)] == before
                polls += 1
            assert mover.is_alive() and not answer, "the move must still be waiting for its write"
            assert polls >= 3
            for socket in sockets:
                assert all(m.get("version", 2) <= 2 for m in socket.buffer if m["type"] == "view")
        mover.join(timeout=15)
        assert answer and answer[0].status_code == 200, answer
        assert answer[0].json()["index"] == 2
        for socket in sockets:
            assert socket.view_at(3)["version"] == 3
            socket.close()


def test_a_move_whose_write_fails_leaves_no_trace_and_gets_a_503_in_bounded_time(impatient_server: Server) -> None:
    server = impatient_server
    with server.client() as api:
        created = create_table(api, "cinecitta", HUMANS, seed=3)
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for token in tokens[:2]:
            legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["legal_actions"]
            assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(token)).status_code == 200
        sockets = [Socket(server, table_id, token) for token in [*tokens, None]]
        for socket in sockets:
            socket.view_at(2)
        before = [api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json() for token in tokens]
        legal = before[2]["legal_actions"]
        with write_lock(server.db):
            start = time.monotonic()
            refused = api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[2]))
            elapsed = time.monotonic() - start
            assert refused.status_code == 503, refused.text
            assert "not played" in refused.json()["detail"] and int(refused.headers["Retry-After"]) >= 1
            assert elapsed < 4.0, f"a failing write must be answered within about twice --write-timeout, took {elapsed:.1f} s"
            sockets[2].send({"type": "act", "id": "locked", "action": legal[1]})
            error = sockets[2].next("error", timeout=10, id="locked")
            assert error["status"] == 503 and error["retry_after"]
            after = [api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json() for token in tokens]
        assert after == before, "a move that was not stored changes nothing anyone sees"
        for socket in sockets:
            assert not [m for m in socket.buffer if m["type"] == "view" and m["version"] > 2]
        # The seat chooses again, on the same state, and this time it is stored.
        chosen = api.post(f"/api/tables/{table_id}/actions", json={"action": legal[1]}, headers=bearer(tokens[2]))
        assert chosen.status_code == 200 and chosen.json()["index"] == 2
        with sqlite3.connect(server.db) as db:
            assert db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0] == 3
        for socket in sockets:
            socket.close()
    assert f"table {table_id}: move 2 (seat 2" in server.log.read_text() and "was not stored" in server.log.read_text()


def test_other_requests_stay_fast_while_the_database_is_locked(impatient_server: Server) -> None:
    server = impatient_server
    with server.client() as api:
        created = create_table(api, "cinecitta", HUMANS, seed=3)
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        api.get(f"/api/tables/{table_id}/view", headers=bearer(token))  # joined (a first view notes that, briefly waiting for it)
        with write_lock(server.db):
            start = time.monotonic()
            for _ in range(10):
                assert api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).status_code == 200
                assert api.get("/api/tables").status_code == 200
            assert time.monotonic() - start < 2.0, "reads do not wait for a blocked write"


def bot_table(api: httpx.Client) -> str:
    return str(create_table(api, "cinecitta", [{"kind": "bot", "bot": "random"}] * 3, seed=9)["table"]["id"])


def version(api: httpx.Client, table_id: str) -> int:
    return int(api.get(f"/api/tables/{table_id}").json()["version"])


def test_bots_wait_out_a_locked_database_and_carry_on_by_themselves(impatient_server: Server) -> None:
    server = impatient_server
    with server.client() as api:
        table_id = bot_table(api)
        wait_until(lambda: version(api, table_id) >= 3, what="the bots' first moves")
        with write_lock(server.db):
            time.sleep(1.5)  # let a bot move fail on the lock
            stuck = version(api, table_id)
            time.sleep(2.0)
            assert version(api, table_id) == stuck, "no bot move can be stored while the database is locked"
        wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots to finish")
    text = server.log.read_text()
    assert f"table {table_id}: bot move not stored" in text


def can_mount_tmpfs() -> bool:
    if os.geteuid() != 0:
        return False
    probe = Path("/tmp/greenlight-tmpfs-probe")
    probe.mkdir(exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(probe)], capture_output=True).returncode == 0
    if mounted:
        subprocess.run(["umount", str(probe)], check=False)
    return mounted


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs mounted for the test (needs root)."""
    if not can_mount_tmpfs():
        pytest.skip("mounting a tmpfs needs root; the locked-database tests cover storage faults here")
    folder = tmp_path / "disk"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, name: str = "filler") -> Path:
    """Fill the disk with one file; return it (delete it to free the space)."""
    filler = folder / name
    # Unbuffered: a write the full disk refuses leaves nothing behind to be flushed (and refused again) at close.
    with filler.open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


def test_a_full_disk_refuses_moves_with_a_503_and_bots_resume_once_there_is_room(small_disk: Path) -> None:
    server = Server(small_disk / "tables.db", bot_delay=0.1, extra=[*NO_RATE_LIMITS, "--write-timeout", "1"])
    server.log = small_disk.parent / "server.log"
    server.start()
    try:
        with server.client() as api:
            created = create_table(api, "cinecitta", HUMANS, seed=5)
            people, tokens = created["table"]["id"], [seat["token"] for seat in created["seats"]]
            bots = bot_table(api)
            wait_until(lambda: version(api, bots) >= 2, what="the bots' first moves")
            filler = fill(small_disk)
            refusals = []
            for _ in range(200):
                view = api.get(f"/api/tables/{people}/view", headers=bearer(tokens[0])).json()
                if not view["legal_actions"]:
                    view = api.get(f"/api/tables/{people}/view", headers=bearer(tokens[view["decision"]["players"][0]])).json()
                seat = view["seat"]
                answer = api.post(f"/api/tables/{people}/actions", json={"action": view["legal_actions"][0]}, headers=bearer(tokens[seat]))
                if answer.status_code == 503:
                    refusals.append(answer.json()["detail"])
                    break
                assert answer.status_code == 200, answer.text
            assert refusals and "not played" in refusals[0], "a full disk must refuse a move"
            # The failed write makes the server checkpoint and truncate its write-ahead log, giving the log's space
            # back to the disk, so bots may still store a move now and then inside it while the disk is full; what
            # never happens is a log that grows into the space the next write needs.
            time.sleep(1.5)
            assert (small_disk / "tables.db-wal").stat().st_size <= 2 * 1024 * 1024
            filler.unlink()
            wait_until(lambda: api.get(f"/api/tables/{bots}").json()["status"] == "finished", timeout=90, what="bots to finish")
    finally:
        server.stop()
    text = server.log.read_text()
    assert "full" in text and f"table {bots}: bot move not stored" in text


@pytest.fixture
def two_megabyte_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs mounted for the test (needs root): smaller than SQLite's default write-ahead log (1,000 pages)."""
    if not can_mount_tmpfs():
        pytest.skip("mounting a tmpfs needs root")
    folder = tmp_path / "disk"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_the_write_ahead_log_never_fills_a_small_disk_by_itself(two_megabyte_disk: Path) -> None:
    """Hundreds of commits on a 2 MB disk: with SQLite's defaults the log alone grows to 4 MB and every write fails."""
    server = Server(two_megabyte_disk / "tables.db", extra=[*NO_RATE_LIMITS, "--write-timeout", "1"])
    server.log = two_megabyte_disk.parent / "server.log"
    server.start()
    try:
        with server.client() as api:
            for _ in range(9):  # one table at a time: each move is a commit of its own
                table_id = bot_table(api)
                wait_until(lambda t=table_id: api.get(f"/api/tables/{t}").json()["status"] == "finished", timeout=60, what="bots")
            assert sum(api.get(f"/api/tables/{t['id']}").json()["version"] for t in api.get("/api/tables").json()["tables"]) >= 600
            assert (two_megabyte_disk / "tables.db-wal").stat().st_size <= 1536 * 1024
    finally:
        server.stop()
    assert "full" not in server.log.read_text()
