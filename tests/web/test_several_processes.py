"""Several server processes on one PostgreSQL database serve the same tables (issue: beyond one machine).

Real processes throughout: a PostgreSQL server started in a temporary folder,
``greenlight serve`` processes on it, players over HTTP and WebSockets on
different processes, and SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from greenlight.core.match import Match
from greenlight.core.record import Record
from tests.web.conftest import OPERATOR, OPERATOR_TOKEN, Server, Socket, bearer, create_table, free_port, wait_until

if TYPE_CHECKING:
    from greenlight.web.postgres import PostgresBackend
    from greenlight.web.tables import LiveTable, TableHub

pytestmark = pytest.mark.timeout(300)


def start_servers(database: str, folder: Path, count: int, bot_delay: float = 0.0, extra: list[str] | None = None) -> list[Server]:
    servers = [Server(database, bot_delay=bot_delay, extra=extra, log=folder / f"server-{index}.log") for index in range(count)]
    for server in servers:
        server.start()
    return servers


def stored_record(database: str, table_id: str) -> list[tuple[int, int, str]]:
    """(index, seat, text) of every stored move of a table, read straight from PostgreSQL."""
    import psycopg

    with psycopg.connect(database) as connection:
        rows = connection.execute("SELECT idx, seat, text FROM actions WHERE table_id = %s ORDER BY idx", (table_id,)).fetchall()
    return [(int(index), int(seat), str(text)) for index, seat, text in rows]


class SeatOverSocket:
    """A person playing one seat through a WebSocket on one server process; reconnects to another when told to."""

    def __init__(self, server: Server, table_id: str, token: str) -> None:
        self.table_id, self.token = table_id, token
        self.socket = Socket(server, table_id, token)
        self.views: list[dict[str, Any]] = []

    def move_to(self, server: Server) -> None:
        self.socket = Socket(server, self.table_id, self.token)

    def latest_view(self) -> dict[str, Any]:
        """Drain what has arrived and return the newest view (asking for one if none is buffered)."""
        view = self.socket.ask_view("again", timeout=10)
        while True:
            try:
                message = self.socket.receive(timeout=0.05)
            except TimeoutError:
                break
            if message["type"] == "view" and message["version"] >= view["version"]:
                view = message
        self.socket.buffer = []
        self.views.append(view)
        return view

    def act(self, action: str) -> dict[str, Any]:
        self.socket.send({"type": "act", "id": "m", "action": action})
        return self.socket._take(lambda m: m.get("id") == "m" and m["type"] in ("ack", "error"), 15)


def test_two_processes_share_a_table_and_one_survives_the_others_kill(database: str, tmp_path: Path) -> None:
    first, second = start_servers(database, tmp_path, 2, bot_delay=0.05)
    try:
        with first.client() as api:
            answer = create_table(
                api,
                "cinecitta",
                [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "bot": "medium"}],
            )
        table_id = answer["table"]["id"]
        tokens = [seat["token"] for seat in answer["seats"][:2]]
        ann = SeatOverSocket(first, table_id, tokens[0])  # Ann plays through the first process's WebSocket
        bob = second.client()  # Bob through the second process's HTTP API
        watcher = Socket(second, table_id, None)  # a spectator on the second process
        rng = random.Random(3)
        acknowledged: list[tuple[int, int, str]] = []
        killed_at: float | None = None
        acknowledged_before_kill = 0
        bot_moves_after_kill: list[float] = []

        def bob_moves() -> bool:
            view = bob.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[1])).json()
            if view["table"]["status"] == "finished":
                return False
            if view["legal_actions"]:
                response = bob.post(
                    f"/api/tables/{table_id}/actions", json={"action": rng.choice(view["legal_actions"])}, headers=bearer(tokens[1])
                )
                assert response.status_code in (200, 409), response.text
                if response.status_code == 200:
                    answer = response.json()
                    acknowledged.append((answer["index"], 1, answer["action"]))
            return True

        def ann_moves() -> bool:
            view = ann.latest_view()
            if view["table"]["status"] == "finished":
                return False
            if view["legal_actions"]:
                reply = ann.act(rng.choice(view["legal_actions"]))
                if reply["type"] == "ack":
                    acknowledged.append((reply["index"], 0, reply["action"]))
                else:
                    assert reply["status"] == 409, reply
            return True

        deadline = time.monotonic() + 240
        going = True
        while going and time.monotonic() < deadline:
            going = ann_moves() and bob_moves()
            if killed_at is None and len(acknowledged) >= 12:
                # Mid-game: the process that created the table (and so moves its bot) dies without a word.
                first.kill()
                killed_at = time.monotonic()
                moves_before = len(stored_record(database, table_id))
                ann.move_to(second)
                # The bot's next move comes from the second process within a few seconds.
                while time.monotonic() - killed_at < 15 and not any(
                    row[1] == 2 for row in stored_record(database, table_id)[moves_before:]
                ):
                    ann_moves()
                    bob_moves()
                    time.sleep(0.05)
                bot_moves_after_kill.append(time.monotonic() - killed_at)
                acknowledged_before_kill = len(acknowledged)
        assert not going, "the game did not finish in time"
        assert killed_at is not None and bot_moves_after_kill and bot_moves_after_kill[0] < 10, bot_moves_after_kill
        assert len(acknowledged) > acknowledged_before_kill + 6, "the game must go on well after the kill"

        # Every acknowledged move is stored at its index, and the stored record is a whole, finished game.
        rows = stored_record(database, table_id)
        for index, seat, text in acknowledged:
            assert rows[index] == (index, seat, text)
        assert [row[0] for row in rows] == list(range(len(rows)))
        with second.client() as api:
            record = Record.from_json(api.get(f"/api/tables/{table_id}/record").json())
        assert [(seat, text) for _, seat, text in rows] == [tuple(action) for action in record.actions]
        final = Match.from_record(record)
        assert final.is_over()
        # Every client's view is the one the stored record gives its seat.
        for seat, view in ((0, ann.latest_view()), (1, bob.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[1])).json())):
            assert view["version"] == len(rows)
            assert view["observation"] == json.loads(json.dumps(final.observe(seat)))
        spectator = watcher.view_at(len(rows), timeout=15)
        assert spectator["observation"] == json.loads(json.dumps(final.observe(None)))
        # A spectator never saw the table go backwards, whichever process the moves came through.
        versions = [message["version"] for message in watcher.buffer if message["type"] == "view"]
        assert versions == sorted(versions)
        bob.close()
    finally:
        for server in (first, second):
            server.stop()


def race_for_index(database: str, table_id: str, indices: list[int], text: str, start_at: float, out: str) -> None:
    """Child process: write each move index of ``indices`` with its own text, starting at ``start_at``; note the successes."""
    from greenlight.web.postgres import PostgresBackend
    from greenlight.web.storage import AppendAction, StorageError

    async def run() -> list[int]:
        backend = PostgresBackend(database)
        await backend.start(lambda notice: None)
        won = []
        await asyncio.sleep(max(0.0, start_at - time.time()))
        for index in indices:
            try:
                await backend.writer.write(AppendAction(table_id, index, 0, f"{text} {index}", False))
                won.append(index)
            except StorageError as error:
                assert error.conflict, error.message
        await backend.close()
        return won

    Path(out).write_text(json.dumps(asyncio.run(run())))


def test_two_processes_racing_for_one_move_index_never_both_store_it(database: str, tmp_path: Path) -> None:
    from greenlight.web.postgres import PostgresBackend
    from greenlight.web.storage import CreateTable, SeatRow, StoredTable

    async def create() -> None:
        backend = PostgresBackend(database)
        await backend.start(lambda notice: None)
        record = Record("cinecitta", "1", 3, 7, {}, [])
        await backend.writer.write(CreateTable(StoredTable("race", record, [SeatRow(0, "human", None, "Ann")])))
        await backend.close()

    asyncio.run(create())
    start_at = time.time() + 3.0
    script = (
        "import sys; from tests.web.test_several_processes import race_for_index as r; "
        "r(sys.argv[1], 'race', list(range(60)), sys.argv[2], float(sys.argv[3]), sys.argv[4])"
    )
    outs = [tmp_path / f"won-{name}.json" for name in ("a", "b")]
    racers = [
        subprocess.Popen([sys.executable, "-c", script, database, name, str(start_at), str(out)], cwd=Path(__file__).resolve().parents[2])
        for name, out in zip(("a", "b"), outs, strict=True)
    ]
    for racer in racers:
        assert racer.wait(timeout=120) == 0
    won_a, won_b = (set(json.loads(out.read_text())) for out in outs)
    assert not won_a & won_b, "two processes both stored the same move index"
    rows = stored_record(database, "race")
    assert [row[0] for row in rows] == sorted(won_a | won_b) == list(range(len(rows)))
    assert all(row[2] == f"{'a' if row[0] in won_a else 'b'} {row[0]}" for row in rows)


def test_workers_share_one_port_and_a_killed_worker_is_replaced(database: str, tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "workers.log").open("wb")
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--db", database, "--port", str(port), "--workers", "2"]
    supervisor = subprocess.Popen(
        [*command, "--bot-delay", "0", "--log-format", "json", "--log-level", "info"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN},
    )
    url = f"http://127.0.0.1:{port}"
    try:

        def processes() -> set[str]:
            seen = set()
            for _ in range(30):
                try:
                    with httpx.Client(base_url=url, timeout=5) as fresh:  # a new connection each time: any worker may take it
                        seen.add(fresh.get("/api/health", headers=OPERATOR).json()["process"])
                except httpx.HTTPError:
                    pass
            return seen

        both = wait_until(lambda: (found := processes()) and len(found) == 2 and found, timeout=60, what="two workers answering")
        victim = int(sorted(both)[0].split(":")[1])

        os.kill(victim, signal.SIGKILL)
        replaced = wait_until(lambda: (found := processes()) and len(found) == 2 and not found & {sorted(both)[0]} and found, timeout=60)
        assert len(replaced) == 2
        with httpx.Client(base_url=url, timeout=20) as api:
            answer = create_table(api, "cinecitta", [{"kind": "bot", "bot": "random"}] * 3)
            table_id = answer["table"]["id"]
            wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots to finish")
            assert api.get("/api/ready").status_code == 200
    finally:
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=60) == 0
        log.close()
    # Structured logs: every line a worker wrote is one JSON object naming the worker.
    lines = [json.loads(line) for line in (tmp_path / "workers.log").read_text().splitlines() if line.startswith("{")]
    assert lines and all({"time", "level", "logger", "message", "pid", "worker"} <= set(line) for line in lines)
    assert {line["worker"] for line in lines if line["logger"] == "uvicorn.access"} == {0, 1}


def test_limits_hold_across_processes(database: str, tmp_path: Path) -> None:
    limits = ["--limit", "create_per_minute=1", "--limit", "create_burst=3", "--limit", "max_sockets_per_client=2"]
    first, second = start_servers(database, tmp_path, 2, extra=limits)
    try:
        bots = [{"kind": "bot", "bot": "random"}] * 3
        with first.client() as a, second.client() as b:
            codes = [api.post("/api/tables", json={"game": "cinecitta", "seats": bots}).status_code for api in (a, b, a, b)]
            assert codes == [201, 201, 201, 429], codes
            table_id = a.get("/api/tables?limit=1").json()["tables"][0]["id"]
        sockets = [Socket(first, table_id, None), Socket(second, table_id, None)]
        for socket in sockets:
            socket.next("view")
        refused = Socket(first, table_id, None, hello=False)
        message = refused.next("error")
        assert message["status"] == 429 and "2 connections" in message["message"]
        sockets[0].close()
        time.sleep(0.5)
        again = Socket(second, table_id, None)
        assert again.next("view")["table"]["id"] == table_id
    finally:
        for server in (first, second):
            server.stop()


def test_who_is_connected_is_seen_from_every_process(database: str, tmp_path: Path) -> None:
    first, second = start_servers(database, tmp_path, 2)
    try:
        with first.client() as api:
            answer = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
        table_id = answer["table"]["id"]
        ann = Socket(first, table_id, answer["seats"][0]["token"])
        ann.next("view")
        with second.client() as api:

            def connected() -> list[bool]:
                return [seat["connected"] for seat in api.get(f"/api/tables/{table_id}").json()["seats"]]

            wait_until(lambda: connected()[0], what="seat 1 shown connected on the other process")
            ann.close()
            wait_until(lambda: not connected()[0], what="seat 1 shown gone on the other process")
    finally:
        for server in (first, second):
            server.stop()


def test_a_chat_line_and_a_seat_change_reach_the_other_process(database: str, tmp_path: Path) -> None:
    first, second = start_servers(database, tmp_path, 2)
    try:
        with first.client() as api:
            answer = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
        table_id, host = answer["table"]["id"], answer["host_token"]
        bob = Socket(second, table_id, answer["seats"][1]["token"])
        bob.next("view")
        with first.client() as api:
            assert (
                api.post(f"/api/tables/{table_id}/chat", json={"text": "hello"}, headers=bearer(answer["seats"][0]["token"])).status_code
                == 200
            )
            assert bob.next("chat")["line"]["text"] == "hello"
            moved = api.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"}, headers=bearer(host))
            assert moved.status_code == 200, moved.text
        revoked = bob.next("revoked", timeout=10)
        assert revoked["seat"] == 1
    finally:
        for server in (first, second):
            server.stop()


def test_two_people_taking_one_open_seat_through_two_processes_never_both_get_it(database: str, tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    first, second = start_servers(database, tmp_path, 2)
    try:
        with first.client() as a, second.client() as b:
            answer = create_table(a, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
            table_id, host = answer["table"]["id"], answer["host_token"]
            for round_ in range(3):
                opened = a.post(f"/api/tables/{table_id}/seats/1/person", json={"open": True}, headers=bearer(host))
                assert opened.status_code == 200, opened.text
                b.get(f"/api/tables/{table_id}")  # both processes hold the table with the seat open
                with ThreadPoolExecutor(2) as pool:
                    tries = [
                        pool.submit(api.post, f"/api/tables/{table_id}/seats/1/take", json={"name": name})
                        for api, name in ((a, f"Cy{round_}"), (b, f"Di{round_}"))
                    ]
                    answers = [future.result() for future in tries]
                assert sorted(answer.status_code for answer in answers) == [200, 409], [answer.text for answer in answers]
                winner = next(answer.json() for answer in answers if answer.status_code == 200)
                # The winner's link works on both processes; the seat is theirs and no longer open.
                for api in (a, b):
                    view = api.get(f"/api/tables/{table_id}/view", headers=bearer(winner["token"]))
                    assert view.status_code == 200 and view.json()["seat"] == 1, view.text
            # Two players asking for the rematch at once through the two processes get the same one.
            assert a.post(f"/api/tables/{table_id}/close", headers=bearer(host)).status_code == 200
            wait_until(lambda: b.get(f"/api/tables/{table_id}").json()["status"] == "closed", what="the close seen by the other process")
            with ThreadPoolExecutor(2) as pool:
                asks = [
                    pool.submit(api.post, f"/api/tables/{table_id}/rematch", headers=bearer(token))
                    for api, token in ((a, answer["seats"][0]["token"]), (b, winner["token"]))
                ]
                rematches = [future.result() for future in asks]
            assert [ask.status_code for ask in rematches] == [200, 200], [ask.text for ask in rematches]
            assert rematches[0].json()["table"]["id"] == rematches[1].json()["table"]["id"]
            import psycopg

            with psycopg.connect(database) as connection:
                made = connection.execute("SELECT id, closed_at FROM tables WHERE rematch_of = %s", (table_id,)).fetchall()
                linked = connection.execute("SELECT rematch FROM tables WHERE id = %s", (table_id,)).fetchone()
            assert linked is not None and linked[0] == rematches[0].json()["table"]["id"]
            # A rematch made at the same time by the other process (if the race was close) is closed, never left open.
            assert [row[0] for row in made if row[1] is None] == [linked[0]]
    finally:
        for server in (first, second):
            server.stop()


def test_db_migrate_creates_then_keeps_the_schema(database: str, tmp_path: Path) -> None:
    def migrate(db: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "greenlight.cli.main", "db", "migrate", "--db", db], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert "created storage schema 3" in migrate(database)
    assert "nothing to do" in migrate(database)
    assert "created storage schema 3" in migrate(str(tmp_path / "new.db"))


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", "serve", "--db", str(tmp_path / "t.db"), "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "PostgreSQL" in result.stderr + result.stdout


def test_db_copy_moves_a_sqlite_servers_tables_into_postgresql(database: str, tmp_path: Path) -> None:
    sqlite = Server(tmp_path / "old.db")
    sqlite.start()
    try:
        with sqlite.client() as api:
            finished = create_table(api, "cinecitta", [{"kind": "bot", "bot": "random"}] * 3)["table"]["id"]
            wait_until(lambda: api.get(f"/api/tables/{finished}").json()["status"] == "finished", what="a finished game")
            answer = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot"}])
            waiting, token = answer["table"]["id"], answer["seats"][0]["token"]
            api.post(f"/api/tables/{waiting}/chat", json={"text": "see you later"}, headers=bearer(token))
            before = {
                table_id: api.get(f"/api/tables/{table_id}/view", headers=bearer(token) if table_id == waiting else None).json()
                for table_id in (finished, waiting)
            }
    finally:
        sqlite.stop()
    result = subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", "db", "copy", str(tmp_path / "old.db"), database],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and "copied 2 tables" in result.stdout, result.stderr
    [server] = start_servers(database, tmp_path, 1)
    try:
        with server.client() as api:
            for table_id, view in before.items():
                after = api.get(f"/api/tables/{table_id}/view", headers=bearer(token) if table_id == waiting else None).json()
                assert (after["version"], after["observation"], after["table"]["status"]) == (
                    view["version"],
                    view["observation"],
                    view["table"]["status"],
                )
            assert [line["text"] for line in api.get(f"/api/tables/{waiting}/chat").json()] == ["see you later"]
        again = subprocess.run(
            [sys.executable, "-m", "greenlight.cli.main", "db", "copy", str(tmp_path / "old.db"), database],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert again.returncode != 0, "tables already in the target are refused"
    finally:
        server.stop()


def test_a_review_made_by_one_process_is_reported_by_the_other_and_never_made_twice(database: str, tmp_path: Path) -> None:
    first, second = start_servers(database, tmp_path, 2, extra=["--limit", "review_seconds=0.2", "--limit", "create_per_minute=0"])
    try:
        with first.client() as a, second.client() as b:
            table_id = create_table(a, "cinecitta", [{"kind": "bot", "bot": "random"}] * 3)["table"]["id"]
            wait_until(lambda: b.get(f"/api/tables/{table_id}").json()["status"] == "finished", what="the bots to finish")
            maker = a.get("/api/health", headers=OPERATOR).json()["process"]
            started = a.post(f"/api/tables/{table_id}/reviews/0")
            assert started.status_code == 202 and started.json()["by"] == maker
            running = wait_until(lambda: (r := b.get(f"/api/tables/{table_id}/reviews/0")).status_code == 200 and r.json(), what="progress")
            assert running["status"] in ("running", "done")
            if running["status"] == "running":
                assert running["total"] > 0 and running["by"] == maker
                again = b.post(f"/api/tables/{table_id}/reviews/0").json()
                assert again["status"] == "done" or again["by"] == maker, "the second process started the same review again"
            done = wait_until(lambda: (r := review_of(b, table_id, (first, second)))["status"] == "done" and r, timeout=120)
            assert done["review"]["seat"] == 0
    finally:
        for server in (first, second):
            server.stop()


def review_of(client: httpx.Client, table_id: str, servers: tuple[Server, ...]) -> dict[str, Any]:
    """The review's answer, which must be known (200) and not failed; else the servers' logs say why."""
    answer = client.get(f"/api/tables/{table_id}/reviews/0")
    body: dict[str, Any] = answer.json()
    if answer.status_code != 200 or body["status"] == "failed":
        logs = "\n".join(server.log.read_text()[-3000:] for server in servers)
        raise AssertionError(f"the review is {answer.status_code} {body}; the servers logged:\n{logs}")
    return body


def test_a_review_that_failed_in_one_process_is_reported_as_failed_by_the_other_and_may_be_asked_again(
    database: str, tmp_path: Path
) -> None:
    import psycopg

    first, second = start_servers(database, tmp_path, 2, extra=["--limit", "review_seconds=0.05", "--limit", "create_per_minute=0"])
    try:
        with first.client() as a, second.client() as b:
            table_id = create_table(a, "cinecitta", [{"kind": "bot", "bot": "random"}] * 3)["table"]["id"]
            wait_until(lambda: b.get(f"/api/tables/{table_id}").json()["status"] == "finished", what="the bots to finish")
            # What the first process stores when a review it makes fails (the worker died, the search raised).
            error = "the review could not be made: boom"
            failed = {"progress": {"done": 3, "total": 9, "by": "the first", "at": time.time(), "error": error}}
            with psycopg.connect(database) as connection:
                connection.execute(
                    "INSERT INTO reviews (table_id, seat, review, at) VALUES (%s, 0, %s, %s)", (table_id, json.dumps(failed), time.time())
                )
            assert b.get(f"/api/tables/{table_id}/reviews/0").json() == {"status": "failed", "error": error}
            again = b.post(f"/api/tables/{table_id}/reviews/0")
            assert again.status_code == 202 and again.json()["status"] == "running", again.text
            done = wait_until(lambda: (r := review_of(a, table_id, (first, second)))["status"] == "done" and r, timeout=120)
            assert done["review"]["seat"] == 0
    finally:
        for server in (first, second):
            server.stop()


def test_an_unreachable_database_is_named_and_the_server_does_not_start(tmp_path: Path) -> None:
    unused = free_port()
    result = subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", "serve", "--db", f"postgresql://greenlight@127.0.0.1:{unused}/games"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert f"cannot use the database PostgreSQL 127.0.0.1:{unused}/games" in " ".join(result.stderr.split())


def test_servers_ride_out_a_database_restart(tmp_path: Path) -> None:
    from greenlight.testing.postgres import TemporaryPostgres

    with TemporaryPostgres() as own:
        first, second = start_servers(own.url, tmp_path, 2)
        try:
            with first.client() as a, second.client() as b:
                answer = create_table(a, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
                table_id = answer["table"]["id"]
                tokens = [seat["token"] for seat in answer["seats"][:2]]
                watcher = Socket(second, table_id, None)
                watcher.view_at(0)
                own.restart()  # every connection of both servers is cut

                def ann_plays() -> bool:
                    view = a.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0]))
                    if view.status_code != 200:
                        return False
                    move = a.post(
                        f"/api/tables/{table_id}/actions", json={"action": view.json()["legal_actions"][0]}, headers=bearer(tokens[0])
                    )
                    assert move.status_code in (200, 503), move.text  # refused while the database is away, never lost
                    return move.status_code == 200

                wait_until(ann_plays, timeout=30, what="a move stored after the restart")
                # The database is back: the other process serves and stores at once (its cut connections replaced).
                view = b.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[1]))
                assert view.status_code == 200, view.text
                move = b.post(
                    f"/api/tables/{table_id}/actions", json={"action": view.json()["legal_actions"][0]}, headers=bearer(tokens[1])
                )
                assert move.status_code == 200, move.text
                # The bot moves, and the second process hears of the first's moves again (its notice connection came back).
                seen = watcher.view_at(3, timeout=30)
                assert seen["version"] >= 3
                # Both report ready again (a process whose notice connection is still in its backoff connects again
                # as soon as it sees the database answer, rather than at the end of a backoff of up to 5 s).
                wait_until(
                    lambda: b.get("/api/ready").status_code == 200 and a.get("/api/ready").status_code == 200,
                    timeout=10,
                    what="both processes ready again",
                )
        finally:
            for server in (first, second):
                server.stop()


@contextlib.asynccontextmanager
async def a_hub_and_another_process(database: str) -> AsyncIterator[tuple[TableHub, PostgresBackend, PostgresBackend, LiveTable]]:
    """This process's hub and its backend on ``database``, a second backend standing for another server process,
    and a new Cinecitta table of three people (Ann, Bob, Cy) made here; all closed at the end."""
    from greenlight.web.postgres import PostgresBackend
    from greenlight.web.tables import SeatRequest, TableHub

    backend = PostgresBackend(database)
    hub = TableHub(backend, bot_delay=0)
    other = PostgresBackend(database)
    await hub.start()
    await other.start(lambda notice: None)
    try:
        table = (await hub.create("cinecitta", [SeatRequest("human", name=name) for name in ("Ann", "Bob", "Cy")], {}, seed=4)).table
        yield hub, backend, other, table
    finally:
        await other.close()
        await hub.stop()


@pytest.mark.parametrize("change", ["a player resigns", "a person opens their seat link"])
def test_a_row_read_before_this_process_changed_a_seat_is_not_put_back_over_the_change(database: str, change: str) -> None:
    """Another process changes the table's row; this process reads it to catch up, and while that read is on its way
    back, a seat changes here. The older row must not undo the seat's change, and the other change still arrives."""
    from greenlight.web.storage import UpdateHints

    async def scenario() -> None:
        async with a_hub_and_another_process(database) as (hub, backend, other, table):
            assert not table.stored.seats[0].joined
            row_read, let_go = asyncio.Event(), asyncio.Event()
            load_table = backend.load_table

            async def load_then_wait(table_id: str) -> Any:
                stored = await load_table(table_id)  # the row as stored now: Ann's seat as it was
                backend.load_table = load_table  # type: ignore[method-assign]  # only the first read waits
                row_read.set()
                await let_go.wait()
                return stored

            backend.load_table = load_then_wait  # type: ignore[method-assign]
            await other.writer.write(UpdateHints(table.id, True))  # its notice makes this process read the row
            await asyncio.wait_for(row_read.wait(), 10)
            if change == "a player resigns":
                await hub.seat_to_bot(table, 0, "random", "resigned")
                expected = ("bot", True)
            else:
                await hub.joined(table, 0)
                expected = ("human", True)
            seat = table.stored.seats[0]
            assert (seat.kind, seat.joined) == expected
            let_go.set()
            deadline = time.monotonic() + 10
            while not table.stored.hints and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert table.stored.hints, "the other process's change never arrived"
            seat, shown = table.stored.seats[0], table.info()["seats"][0]
            assert (seat.kind, seat.joined) == expected == (shown["kind"], shown["joined"])

    asyncio.run(scenario())


def test_a_link_given_out_elsewhere_works_while_this_process_stores_a_change_of_the_same_table(database: str) -> None:
    """Another process gives seat 2 a fresh link; its first request lands here while this process is storing a
    change of the same table's row (the row read meanwhile is set aside): the link is looked at again once that
    change is stored, not refused."""
    from greenlight.web.storage import SeatRow, UpdateSeat, hash_token

    async def scenario() -> None:
        async with a_hub_and_another_process(database) as (hub, _, other, table):
            old = table.stored.seats[1]
            fresh = "a-fresh-link-for-bob"
            handed = SeatRow(1, "human", None, "Bob", hash_token(fresh))
            await other.writer.write(UpdateSeat(table.id, handed, was=(old.kind, old.token_hash)))
            table.begin_row_write()  # as if this process were storing its own change of the row just now
            storing = asyncio.get_running_loop().call_later(0.3, table.end_row_write)
            assert await asyncio.wait_for(hub.authenticate(table, fresh), 10) == 1
            assert storing.when() <= asyncio.get_running_loop().time(), "the link was looked at again only after the change"

    asyncio.run(scenario())


def test_the_notice_connection_comes_back_as_soon_as_the_database_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a database restart, the process listens again once it sees the database answer, not at the end of its
    backoff (made a minute long here, so only the wake-up can bring it back within the test)."""
    from greenlight.testing.postgres import TemporaryPostgres
    from greenlight.web import postgres

    monkeypatch.setattr(postgres, "RECONNECT_FIRST_SECONDS", 60.0)
    monkeypatch.setattr(postgres, "RECONNECT_MAX_SECONDS", 60.0)

    async def scenario(own: TemporaryPostgres) -> None:
        backend = postgres.PostgresBackend(own.url)
        await backend.start(lambda notice: None)
        try:
            assert await backend.ready() is None
            await asyncio.to_thread(own.restart)
            deadline = time.monotonic() + 20
            while (why := await backend.ready()) is not None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert why is None, why
        finally:
            await backend.close()

    with TemporaryPostgres() as own:
        asyncio.run(scenario(own))
