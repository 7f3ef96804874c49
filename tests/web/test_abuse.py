"""A hostile client cannot freeze the server: every kind of work a client causes has a budget, against the real process.

Each test floods one limit from loopback addresses of its own (127.0.0.2 and up: other clients to the server)
and checks that the flood is refused, dropped or coalesced, and that another client is still answered promptly.
The server runs with the defaults a public server runs with (docs/security.md lists them).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web.conftest import OPERATOR, Server, bearer, wait_until
from tests.web.test_stored_before_shown import write_lock

#: Longest another client may wait for an answer while a flood goes on (a liveness bound, far above the usual few ms).
PROMPT_SECONDS = 3.0


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with every default limit (bots move without delay)."""
    server = Server(tmp_path_factory.mktemp("abuse") / "tables.db", extra=[])
    server.start()
    yield server
    server.stop()


def client_from(server: Server, address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (another loopback address: another client)."""
    return httpx.Client(base_url=server.url, timeout=20, transport=httpx.HTTPTransport(local_address=address))


def socket_from(server: Server, table_id: str, address: str) -> Any:
    """A raw WebSocket to a table from ``address``."""
    return connect(f"{server.ws_url}/ws/tables/{table_id}", source_address=(address, 0), open_timeout=10, max_size=2**23)


def new_table(api: httpx.Client, seats: list[dict[str, Any]], game: str = "cinecitta") -> dict[str, Any]:
    answer = api.post("/api/tables", json={"game": game, "seats": seats})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def promptly(call: Any) -> Any:
    """Call ``call`` and check it was answered within :data:`PROMPT_SECONDS`."""
    start = time.monotonic()
    result = call()
    assert time.monotonic() - start < PROMPT_SECONDS, f"another client waited {time.monotonic() - start:.1f} s"
    return result


def player_moves(server: Server, address: str = "127.0.0.1") -> Any:
    """A person at a table with two medium bots: each call makes one move of theirs and returns the answer."""
    api = client_from(server, address)
    created = new_table(api, [{"kind": "human"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "medium"}])
    table_id, token = created["table"]["id"], created["seats"][0]["token"]

    def move() -> httpx.Response:
        view = wait_until(
            lambda: (v := api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json())["legal_actions"] and v,
            timeout=30,
            what="the person's turn",
        )
        return api.post(f"/api/tables/{table_id}/actions", json={"action": view["legal_actions"][0]}, headers=bearer(token))

    return move


# -- WebSocket messages -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "address"),
    [({"type": "view"}, "127.0.0.2"), ({"type": "ping"}, "127.0.0.3"), ({"type": "act", "action": "offer Z9 1"}, "127.0.0.4")],
    ids=["view", "ping", "refused-act"],
)
def test_a_flood_of_socket_messages_is_dropped_then_cut_off_while_others_play_on(
    public: Server, message: dict[str, Any], address: str
) -> None:
    move = player_moves(public)
    with client_from(public, address) as attacker:
        created = new_table(attacker, [{"kind": "human"}] * 3)
    table_id, token = created["table"]["id"], created["seats"][0]["token"]
    answers: list[dict[str, Any]] = []
    closed: list[int | None] = []

    def read(flood: Any) -> None:  # at the same time as the sending, as a real client reads
        try:
            while True:
                answers.append(json.loads(flood.recv(timeout=10)))
        except ConnectionClosed as closing:
            closed.append(closing.rcvd.code if closing.rcvd is not None else None)
        except TimeoutError:
            pass

    sent = 0
    with socket_from(public, table_id, address) as flood:
        flood.send(json.dumps({"type": "hello", "token": token}))
        reader = threading.Thread(target=read, args=(flood,))
        reader.start()
        try:
            for sent in range(1, 2001):
                flood.send(json.dumps({**message, "id": sent}))
        except ConnectionClosed:
            pass
        reader.join(timeout=20)
    closed_with = closed[0] if closed else None
    assert closed_with == 4429, f"the flooding socket was not closed ({sent} sent, {len(answers)} answered)"
    over = [answer for answer in answers if answer.get("status") == 429 and answer.get("id") is None]
    assert len(over) == 1 and "dropped" in over[0]["message"]  # said once, not once per dropped message
    answered = [answer for answer in answers if answer.get("id") is not None]
    assert 30 <= len(answered) <= 80, f"{len(answered)} messages were answered: the budget is 60 at once"
    if message["type"] == "view":
        built = [answer for answer in answers if answer["type"] == "view"]
        assert len(built) <= 2, "asked again with nothing changed, a view is not sent again"
        assert any(answer["type"] == "view_unchanged" for answer in answers)
    assert promptly(move).status_code == 200


def test_a_client_that_opens_sockets_too_often_is_refused(public: Server) -> None:
    address = "127.0.0.5"
    with client_from(public, address) as api:
        table_id = new_table(api, [{"kind": "human"}] * 3)["table"]["id"]
    refused = 0
    for _ in range(30):
        with socket_from(public, table_id, address) as opened:
            with contextlib.suppress(ConnectionClosed):
                opened.send(json.dumps({"type": "hello", "token": None}))
            first = json.loads(opened.recv(timeout=5))
            if first["type"] == "error":
                assert first["status"] == 429 and "opens connections too often" in first["message"]
                refused += 1
            else:
                assert first["type"] == "view"
    assert refused >= 5, "30 sockets opened at once from one address: the burst is 20"
    with client_from(public, "127.0.0.6") as other, socket_from(public, table_id, "127.0.0.6") as watcher:
        watcher.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(promptly(lambda: watcher.recv(timeout=PROMPT_SECONDS)))["type"] == "view"
        assert other.get(f"/api/tables/{table_id}").status_code == 200


# -- HTTP requests and headers --------------------------------------------------------------------


def test_a_flood_of_requests_from_one_address_is_refused_with_429_before_any_work(public: Server) -> None:
    with client_from(public, "127.0.0.7") as attacker:
        start = time.monotonic()
        first = [attacker.get("/api/games").status_code for _ in range(100)]
        assert first == [200] * 100  # within the burst of 120
        with ThreadPoolExecutor(8) as pool:  # eight connections at once: faster than the budget refills on any machine
            answers = [response.status_code for response in pool.map(lambda _: attacker.get("/api/games"), range(300))]
        elapsed = time.monotonic() - start
        # Never more than the burst and what refills meanwhile (30 a second), however fast the machine sends.
        assert 100 + answers.count(200) <= 120 + 30 * elapsed + 1, (answers.count(200), elapsed)
        assert set(answers) == {200, 429}
        refused = next(response for response in (attacker.get("/api/games") for _ in range(100)) if response.status_code == 429)
        assert int(refused.headers["retry-after"]) >= 1 and "too many requests" in refused.json()["detail"]
    with client_from(public, "127.0.0.8") as other:
        assert promptly(lambda: other.get("/api/games")).status_code == 200


def raw(server: Server, data: bytes, *, chunk: int = 65536, total: int | None = None) -> tuple[bytes, int]:
    """Send ``data`` (repeated up to ``total`` bytes) until the server answers or closes; its answer and the bytes sent."""
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.9", 0)) as connection:
        goal = total if total is not None else len(data)
        try:
            while sent < goal:
                piece = data[:chunk] if total is None else data
                connection.sendall(piece)
                sent += len(piece)
                if total is None:
                    data = data[chunk:]
                connection.settimeout(0.001 if sent < goal else 10)
                try:
                    answer = connection.recv(65536)
                    if answer:
                        return answer + _rest(connection), sent
                except TimeoutError:
                    pass
        except (BrokenPipeError, ConnectionResetError):
            pass
        connection.settimeout(10)
        try:
            return _rest(connection), sent
        except ConnectionResetError:
            return b"", sent


def _rest(connection: socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize(
    ("headers", "problem"),
    [
        (b"X-Big: " + b"a" * 9000 + b"\r\n", b"line is longer than 8192 bytes"),
        (b"".join(b"X-Many-%d: 1\r\n" % n for n in range(101)), b"more than 100 header lines"),
        (b"".join(b"X-Wide-%d: %s\r\n" % (n, b"b" * 4000) for n in range(5)), b"larger than 16384 bytes"),
    ],
    ids=["long-line", "many", "large"],
)
def test_oversized_headers_are_answered_431(public: Server, headers: bytes, problem: bytes) -> None:
    answer, _ = raw(public, b"GET /api/games HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 431 ") and problem in answer


def test_a_never_ending_header_is_cut_off_at_the_limit_without_being_kept(public: Server) -> None:
    """100 MB of one header, sent as fast as the server takes it: refused once 16 KB have come, nothing more read."""
    with client_from(public, "127.0.0.10") as other:
        before = other.get("/api/health", headers=OPERATOR).json()
        answer, sent = raw(public, b"GET / HTTP/1.1\r\nHost: x\r\nX-Endless: " + b"z" * 65536, total=100 * 2**20)
        assert answer.startswith(b"HTTP/1.1 431 ")
        assert sent < 8 * 2**20, f"{sent} bytes were taken before the refusal"
        assert promptly(lambda: other.get("/api/games")).status_code == 200
        assert other.get("/api/health", headers=OPERATOR).json()["loop_lag"]["max_ms"] < 1000 or before


# -- uploads --------------------------------------------------------------------------------------


def test_uploads_are_budgeted_before_they_are_read(public: Server) -> None:
    record = {"game": "cinecitta", "version": "1", "num_players": 3, "seed": 1, "options": {}, "actions": []}
    with client_from(public, "127.0.0.11") as uploader:
        start = time.monotonic()
        answers = [uploader.post("/api/replay", json=record).status_code for _ in range(8)]
        elapsed = time.monotonic() - start
        # A burst of 5, then one every 6 s (10 a minute): a loaded machine may take long enough for one to come back.
        assert answers[:5] == [200] * 5 and answers.count(200) <= 5 + elapsed / 6 + 1 and 429 in answers, (answers, elapsed)
        # The position upload shares the budget, and is refused before its (too large) body is read.
        refused = uploader.post("/api/positions/tables", content=b"{" + b" " * 100_000 + b"}", headers={"content-type": "application/json"})
        assert refused.status_code == 429
    with client_from(public, "127.0.0.12") as other:
        assert promptly(lambda: other.post("/api/replay", json=record)).status_code == 200
        too_large = other.post("/api/positions/tables", content=b"[" + b" " * 300_000 + b"]", headers={"content-type": "application/json"})
        assert too_large.status_code == 413 and "256 KB" in too_large.json()["detail"]


def test_only_so_many_uploads_are_held_at_once(public: Server) -> None:
    """Four uploads whose bodies trickle in hold every upload place; the fifth is a 503 at once, not a fifth body in memory."""
    head = b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    held = []
    try:
        for number in range(4):
            connection = socket.create_connection(("127.0.0.1", public.port), timeout=10, source_address=(f"127.0.1.{number + 1}", 0))
            connection.sendall(head)
            held.append(connection)
        time.sleep(0.3)
        with client_from(public, "127.0.1.9") as fifth:
            answer = promptly(lambda: fifth.post("/api/replay", json={}))
            assert answer.status_code == 503 and "busy with other uploads" in answer.json()["detail"]
    finally:
        for connection in held:
            connection.close()
    with client_from(public, "127.0.1.10") as later:
        assert wait_until(lambda: later.post("/api/replay", json={}).status_code == 400, what="the upload places to be free again")


def test_a_replay_upload_naming_a_seat_the_game_lacks_is_refused_in_words(public: Server) -> None:
    with client_from(public, "127.0.0.13") as uploader:
        for seat in (-4, 9):
            record = {"game": "cinecitta", "version": "1", "num_players": 3, "seed": 1, "options": {}, "actions": [[seat, "offer D6 30"]]}
            answer = uploader.post("/api/replay", json=record)
            assert answer.status_code == 400
            assert answer.json()["detail"] == f"record action 0 is played by seat {seat}, but a 3-player game has seats 0 to 2"


# -- hints ------------------------------------------------------------------------------------------


def test_hints_are_shared_budgeted_and_bounded(tmp_path: Path) -> None:
    # The budget refills at one hint a minute, so it cannot refill while a loaded machine plays the test's moves.
    limits = ["--limit", "hint_seconds=3", "--limit", "max_hints_at_once=1", "--limit", "hints_per_minute=1"]
    server = Server(tmp_path / "tables.db", extra=limits)
    server.start()
    try:
        api = client_from(server, "127.0.0.14")
        # Movie Empire, a person first: nothing moves at the table while the person thinks (the hint's move stays current).
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        first, second = new_table(api, seats, "movie-empire"), new_table(api, seats, "movie-empire")
        ask = [(created["table"]["id"], created["seats"][0]["token"]) for created in (first, second)]
        for table_id, token in ask:
            alone_to_move(api, table_id, token)
        answers: list[httpx.Response] = []
        threads = [
            threading.Thread(target=lambda: answers.append(api.post(f"/api/tables/{ask[0][0]}/hint", headers=bearer(ask[0][1]))))
            for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        wait_until(lambda: api.get("/api/health", headers=OPERATOR).json()["bot_work"]["hint_searches"] == 1, what="the hint search")
        # Another table's hint while the only search place is taken: refused at once, not queued.
        busy = promptly(lambda: api.post(f"/api/tables/{ask[1][0]}/hint", headers=bearer(ask[1][1])))
        assert busy.status_code == 503 and "busy" in busy.json()["detail"]
        for thread in threads:
            thread.join(timeout=30)
        assert [answer.status_code for answer in answers] == [200, 200]
        assert answers[0].json() == answers[1].json()  # one search for both
        again = promptly(lambda: api.post(f"/api/tables/{ask[0][0]}/hint", headers=bearer(ask[0][1])))
        assert again.json() == answers[0].json()  # the same move again: answered from the first, at no cost
        # The address's hint budget (a burst of 3 searches) is spent after a few different moves.
        statuses = [api.post(f"/api/tables/{ask[1][0]}/hint", headers=bearer(ask[1][1])).status_code]
        for created in [new_table(api, seats, "movie-empire") for _ in range(3)]:
            alone_to_move(api, created["table"]["id"], created["seats"][0]["token"])
            statuses.append(
                api.post(f"/api/tables/{created['table']['id']}/hint", headers=bearer(created["seats"][0]["token"])).status_code
            )
        assert statuses.count(429) >= 1, statuses
    finally:
        server.stop()


def alone_to_move(api: httpx.Client, table_id: str, token: str) -> None:
    """Play the person's first choices until the table waits for the person alone (then nothing moves until they do)."""

    def settled() -> bool:
        view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
        if view["decision"]["players"] == [0] and not view["decision"]["simultaneous"]:
            return True
        if view["legal_actions"]:
            api.post(f"/api/tables/{table_id}/actions", json={"action": view["legal_actions"][0]}, headers=bearer(token))
        return False

    wait_until(settled, timeout=30, what="the person's turn alone")


# -- bot work -----------------------------------------------------------------------------------------


def test_a_creator_past_the_search_budget_cannot_create_more_strong_bot_tables(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=["--limit", "search_seconds_per_minute=0.6", "--limit", "search_burst_seconds=0.5"])
    server.start()
    try:
        with client_from(server, "127.0.0.15") as greedy:
            strong = [{"kind": "bot", "bot": "hard"}] * 3
            table_id = new_table(greedy, strong)["table"]["id"]
            wait_until(lambda: greedy.get(f"/api/tables/{table_id}").json()["version"] >= 2, timeout=60, what="two searched moves")
            refused = greedy.post("/api/tables", json={"game": "cinecitta", "seats": strong})
            assert refused.status_code == 429 and "thinking time" in refused.json()["detail"]
            quick = greedy.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "bot", "bot": "medium"}] * 3})
            assert quick.status_code == 201  # quick bots cost no search time
        with client_from(server, "127.0.0.16") as other:
            assert other.post("/api/tables", json={"game": "cinecitta", "seats": strong}).status_code == 201
    finally:
        server.stop()


def test_the_live_table_cap_makes_room_for_a_person_by_pausing_unwatched_bot_tables(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", bot_delay=0.5, extra=["--limit", "max_live_tables=3"])
    server.start()
    try:
        with client_from(server, "127.0.0.17") as bots_only:
            tables = [new_table(bots_only, [{"kind": "bot", "bot": "medium"}] * 3)["table"]["id"] for _ in range(3)]
        with client_from(server, "127.0.0.18") as person:
            mine = new_table(person, [{"kind": "human"}] * 3)  # room is made: an unwatched bot table is paused
            assert person.get("/api/health", headers=OPERATOR).json()["live_tables"] <= 3
            reopened = person.get(f"/api/tables/{mine['table']['id']}/view", headers=bearer(mine["seats"][0]["token"]))
            assert reopened.status_code == 200
            # A paused table plays on once someone looks at it again; the cap still holds.
            for table_id in tables:
                version = person.get(f"/api/tables/{table_id}").json()["version"]
                wait_until(lambda t=table_id, v=version: person.get(f"/api/tables/{t}").json()["version"] > v, timeout=30, what="bots")
                assert person.get("/api/health", headers=OPERATOR).json()["live_tables"] <= 3
    finally:
        server.stop()


# -- bad input -----------------------------------------------------------------------------------------


def test_a_lone_surrogate_is_refused_everywhere_in_words(public: Server) -> None:
    with client_from(public, "127.0.0.19") as api:
        body = '{"game": "cinecitta", "seats": [{"kind": "human", "name": "\\ud800"}, {"kind": "human"}, {"kind": "human"}]}'
        answer = api.post("/api/tables", content=body.encode(), headers={"content-type": "application/json"})
        assert answer.status_code == 400 and "lone surrogate" in answer.json()["detail"]
        created = new_table(api, [{"kind": "human"}] * 3)
    table_id, token = created["table"]["id"], created["seats"][0]["token"]
    with socket_from(public, table_id, "127.0.0.19") as hello:
        hello.send('{"type": "hello", "token": "\\ud800"}')
        refused = json.loads(hello.recv(timeout=5))
        assert refused["status"] == 400
        with pytest.raises(ConnectionClosed) as closing:
            hello.recv(timeout=5)
        assert closing.value.rcvd is not None and closing.value.rcvd.code == 4400
    with socket_from(public, table_id, "127.0.0.19") as seat:
        seat.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(seat.recv(timeout=5))["type"] == "view"
        seat.send('{"type": "chat", "text": "hi \\udc00", "id": 1}')
        error = next(m for m in (json.loads(seat.recv(timeout=5)) for _ in range(5)) if m["type"] == "error")
        assert error["status"] == 400 and "lone surrogate" in error["message"]


def test_look_alike_bot_names_and_bad_file_names_and_seat_numbers_are_refused_in_words(public: Server) -> None:
    with client_from(public, "127.0.0.20") as api:
        for name in ("B\u043et 2 (medium)", "\u0392ot 3 (hard)", "\uff22ot"):
            answer = api.post(
                "/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human", "name": name}, *[{"kind": "human"}] * 2]}
            )
            assert answer.status_code == 400 and "Bot" in answer.json()["detail"], name
        for path in ("/api/games/cinecitta/data/cards.toml%00", "/games/cinecitta/web/table.js%00", "/api/games/cinecitta/data/..%2Fcards"):
            answer = api.get(path)
            assert answer.status_code == 404 and answer.headers["content-type"] == "application/json", path
        created = new_table(api, [{"kind": "human"}] * 3)
        table_id, host = created["table"]["id"], created["host_token"]
        for seat in (-1, 3):
            answer = api.post(f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": "medium"}, headers=bearer(host))
            assert answer.status_code == 404
            assert answer.json()["detail"].startswith(f"there is no seat {seat} at this table: its seats are numbered 0 to 2")


def test_ready_turns_503_while_writes_fail_and_back_once_they_succeed(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=["--write-timeout", "0.5"])
    server.start()
    try:
        with client_from(server, "127.0.0.21") as api:
            created = new_table(api, [{"kind": "human"}] * 3)
            table_id, token = created["table"]["id"], created["seats"][0]["token"]
            assert api.get("/api/ready").status_code == 200
            with write_lock(server.db):
                legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["legal_actions"]
                assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(token)).status_code == 503
                not_ready = api.get("/api/ready")
                assert not_ready.status_code == 503 and "does not take writes" in not_ready.json()["detail"]
            wait_until(lambda: api.get("/api/ready").status_code == 200, timeout=10, what="ready again once writes succeed")
    finally:
        server.stop()
