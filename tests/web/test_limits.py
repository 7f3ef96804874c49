"""Limits and bad input against the real server process: 413, 429, deep JSON, huge integers, names, links, connections, memory."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.web.conftest import NO_RATE_LIMITS, OPERATOR, Server, Socket, bearer, create_table, wait_until

HUMANS = [{"kind": "human"}] * 3


def start(tmp_path: Path, *extra: str, name: str = "tables.db") -> Server:
    server = Server(tmp_path / name, extra=list(extra))
    server.start()
    return server


@pytest.fixture
def default_server(tmp_path: Path) -> Iterator[Server]:
    """A server with every default limit."""
    server = start(tmp_path)
    yield server
    server.stop()


def client_from(server: Server, address: str) -> httpx.Client:
    """An HTTP client whose connections come from another loopback address (another client to the server)."""
    return httpx.Client(base_url=server.url, timeout=20, transport=httpx.HTTPTransport(local_address=address))


def raw_request(server: Server, data: bytes, *, read_timeout: float = 10.0) -> bytes:
    """Send raw bytes and return everything the server answers until it closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=read_timeout) as raw:
        raw.sendall(data)
        chunks = []
        try:
            while chunk := raw.recv(65536):
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"content-length" in b"".join(chunks).lower():
                    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                    length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")).split(b":")[1])
                    if len(body) >= length:
                        break
        except TimeoutError:
            pass
        return b"".join(chunks)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- request bodies ---------------------------------------------------------------------------


def test_an_oversized_body_is_refused_from_its_declared_length_before_it_is_sent(default_server: Server) -> None:
    start_time = time.monotonic()
    answer = raw_request(
        default_server,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 90000000\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"larger than this server accepts here (16 KB)" in answer
    assert time.monotonic() - start_time < 5


def test_an_oversized_chunked_body_is_refused_while_it_arrives(default_server: Server) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024

    with default_server.client() as api:
        answer = api.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
        assert answer.status_code == 413 and "16 KB" in answer.json()["detail"]
        upload = api.post("/api/replay", content=b" " * (5 * 1024 * 1024))
        assert upload.status_code == 413 and "4 MB" in upload.json()["detail"]
        fits = api.post("/api/replay", content=b'{"game": "cinecitta"}' + b" " * (2 * 1024 * 1024))
        assert fits.status_code == 400 and "record field" in fits.json()["detail"]


def test_a_body_that_never_arrives_gets_a_408(tmp_path: Path) -> None:
    server = start(tmp_path, "--limit", "body_timeout_seconds=1")
    try:
        answer = raw_request(server, b'POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"ga')
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", '{"game": "cinecitta", "seats": [{"kind": "human"}], "options": {"x": ' + nested(1000) + "}}"),
        ("/api/replay", nested(1000)),
        ("/api/replay", '{"seed": ' + nested(40) + "}"),
        ("/api/tables", '{"game": "cinecitta", "seats": [{"kind": "human"}], "seed": ' + "9" * 5000 + "}"),
        ("/api/replay", '{"game": "cinecitta", "version": "1", "num_players": 3, "seed": ' + "1" * 4400 + ', "actions": []}'),
        ("/api/replay", '{"seed": NaN}'),
    ],
)
def test_deep_json_and_huge_integers_get_a_400_over_http(api: httpx.Client, path: str, body: str) -> None:
    answer = api.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    detail = answer.json()["detail"]
    assert "nested" in detail or "digits" in detail or "not a JSON number" in detail


def test_a_huge_integer_in_an_action_gets_a_400(api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", HUMANS)
    answer = api.post(
        f"/api/tables/{created['table']['id']}/actions",
        content=b'{"action": "offer A1 0", "expect_version": ' + b"7" * 4500 + b"}",
        headers={"Content-Type": "application/json", **bearer(created["seats"][0]["token"])},
    )
    assert answer.status_code == 400 and "digits" in answer.json()["detail"]


def test_deep_json_huge_integers_and_binary_frames_over_a_websocket(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", HUMANS)
    client = Socket(server, created["table"]["id"], created["seats"][0]["token"])
    client.next("view")
    client.ws.send(nested(1000))
    assert "nested" in client.next("error")["message"]
    client.ws.send('{"type": "act", "action": "x", "expect_version": ' + "1" * 5000 + "}")
    assert "digits" in client.next("error")["message"]
    client.send({"type": "ping", "id": 1})
    assert client.next("pong")["id"] == 1, "the connection stays open after refused text"
    client.ws.send(b"\x00\x01binary")
    error = client.next("error")
    assert error["status"] == 400 and "binary" in error["message"]
    with pytest.raises(Exception):  # noqa: B017 - the socket is closed: any receive fails
        client.receive(timeout=5)
    assert client.ws.close_code == 1003  # unsupported data, not an abrupt 1006


def test_a_websocket_message_over_the_size_limit_closes_with_1009(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", HUMANS)
    client = Socket(server, created["table"]["id"], None)
    client.next("view")
    client.ws.send('{"type": "ping", "pad": "' + "x" * 70000 + '"}')
    with pytest.raises(Exception):  # noqa: B017 - the socket is closed: any receive fails (after what was already queued)
        for _ in range(10):
            client.receive(timeout=5)
    assert client.ws.close_code == 1009


# -- names and links --------------------------------------------------------------------------


def test_names_are_cleaned_of_invisible_characters_and_may_not_pass_for_bots(api: httpx.Client) -> None:
    seats = [{"kind": "human", "name": "  Ann\u202e\u200b \t Lee\x07\u2028 "}, {"kind": "human", "name": "\u200b\u200d"}, {"kind": "human"}]
    table = create_table(api, "cinecitta", seats)["table"]
    assert [seat["name"] for seat in table["seats"]] == ["Ann Lee", "Player 2", "Player 3"]
    for name in ("Bot (hard)", "bot:medium", "BOT", "\uff22\uff4f\uff54 (hard)", "Bot\u200b (hard)"):
        answer = api.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human", "name": name}, *HUMANS[1:]]})
        assert answer.status_code == 400 and "only the server names its bots" in answer.json()["detail"], name
    assert create_table(api, "cinecitta", [{"kind": "human", "name": "Botond"}, *HUMANS[1:]])["table"]["seats"][0]["name"] == "Botond"
    assert create_table(api, "cinecitta", [{"kind": "bot", "bot": "random", "name": "Ann"}, *HUMANS[1:]])["table"]["seats"][0]["name"] == (
        "Bot 1 (random)"
    )


def test_seat_links_come_from_the_public_url_never_from_the_host_header(tmp_path: Path) -> None:
    server = start(tmp_path, "--public-url", "https://games.example.org/")
    try:
        with server.client() as api:
            answer = api.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS}, headers={"Host": "evil.example"})
        assert answer.status_code == 201
        body = answer.json()
        assert body["spectator_link"] == f"https://games.example.org/tables/{body['table']['id']}"
        assert all(seat["link"].startswith("https://games.example.org/tables/") for seat in body["seats"])
        assert "evil.example" not in answer.text
    finally:
        server.stop()


def test_by_default_links_point_at_the_address_served(api: httpx.Client, server: Server) -> None:
    answer = api.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS}, headers={"Host": "evil.example"})
    assert answer.json()["spectator_link"].startswith(f"http://127.0.0.1:{server.port}/tables/")


# -- rate limits ------------------------------------------------------------------------------


def test_creating_tables_is_rate_limited_per_client_with_retry_after(default_server: Server) -> None:
    with default_server.client() as api:
        answers = [api.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS}) for _ in range(12)]
        with client_from(default_server, "127.0.0.2") as other:
            assert other.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS}).status_code == 201
    assert [answer.status_code for answer in answers[:10]] == [201] * 10
    refused = answers[10]
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "too many new tables from your address" in refused.json()["detail"]


def test_actions_are_rate_limited_per_client_over_http_and_websocket(default_server: Server) -> None:
    with default_server.client() as api:
        created = api.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS}).json()
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        statuses = [
            api.post(f"/api/tables/{table_id}/actions", json={"action": "offer ZZ 0"}, headers=bearer(token)).status_code for _ in range(60)
        ]
        # A burst of 30, refilled at 10 a second while the requests go out; refused moves count too: spam is spam.
        first_refusal = statuses.index(429)
        assert 30 <= first_refusal <= 45 and set(statuses[:first_refusal]) == {409}
        socket_client = Socket(default_server, table_id, created["seats"][1]["token"])
        socket_client.next("view")
        for number in range(50):
            socket_client.send({"type": "act", "id": number, "action": "offer ZZ 0"})
        errors = [socket_client.next("error", id=number) for number in range(50)]
        limited = [error for error in errors if error["status"] == 429]
        assert limited and all(error["retry_after"] for error in limited)
        socket_client.close()


# -- connections ------------------------------------------------------------------------------


def test_idle_and_slow_header_connections_are_closed(tmp_path: Path) -> None:
    server = start(tmp_path, *NO_RATE_LIMITS, "--limit", "header_timeout_seconds=1")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as idle:
            opened = time.monotonic()
            assert idle.recv(10) == b""  # closed by the server
            assert time.monotonic() - opened < 3
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as slow:
            opened = time.monotonic()
            closed = False
            for byte in b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1234567890\r\n":
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                time.sleep(0.1)
            assert closed or slow.recv(10) == b""
            assert time.monotonic() - opened < 8
        with server.client() as api:
            assert api.get("/api/health").status_code == 200  # a prompt client is served as usual
    finally:
        server.stop()


def test_one_client_cannot_hold_every_connection(tmp_path: Path) -> None:
    server = start(tmp_path, *NO_RATE_LIMITS, "--limit", "max_connections_per_client=5")
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(5)]
    try:
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as extra:
            assert extra.recv(10) == b"", "a sixth connection from the same address is closed at once"
        with client_from(server, "127.0.0.2") as other:
            assert other.get("/api/health").status_code == 200
    finally:
        for connection in held:
            connection.close()
        server.stop()


def test_websockets_are_capped_per_table_and_per_client(tmp_path: Path) -> None:
    server = start(tmp_path, *NO_RATE_LIMITS, "--limit", "max_sockets_per_table=3", "--limit", "max_sockets_per_client=4")
    try:
        with server.client() as api:
            first = create_table(api, "cinecitta", HUMANS)["table"]["id"]
            second = create_table(api, "cinecitta", HUMANS)["table"]["id"]
        watchers = [Socket(server, first, None) for _ in range(3)]
        for watcher in watchers:
            watcher.next("view")
        refused = Socket(server, first, None, hello=False)
        assert refused.next("error")["status"] == 429
        with pytest.raises(Exception):  # noqa: B017
            refused.receive(timeout=5)
        assert refused.ws.close_code == 4429
        fourth = Socket(server, second, None)
        fourth.next("view")
        over = Socket(server, second, None, hello=False)
        assert "your address already holds 4 connections" in over.next("error")["message"]
        for client in [*watchers, fourth]:
            client.close()
    finally:
        server.stop()


def test_presence_changes_are_coalesced_so_many_joins_cost_few_messages(server: Server, api: httpx.Client) -> None:
    table_id = create_table(api, "cinecitta", HUMANS)["table"]["id"]
    first = Socket(server, table_id, None)
    first.next("view")
    joiners = []
    for _ in range(30):
        joiner = connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=10, legacy=True)
        joiner.send(json.dumps({"type": "hello", "token": None}))
        joiners.append(joiner)
    time.sleep(1.0)
    for joiner in joiners:
        joiner.close()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            first.receive(timeout=0.5)
        except TimeoutError:
            continue
    presences: list[dict[str, Any]] = [m for m in first.buffer if m["type"] == "presence"]
    assert 1 <= len(presences) <= 10, f"{len(presences)} presence messages for 60 joins and leaves"
    assert max(p["table"]["spectators"] for p in presences) >= 20
    assert presences[-1]["table"]["spectators"] == 1
    first.close()


# -- tables in memory -------------------------------------------------------------------------


def test_idle_tables_leave_memory_and_come_back_on_demand(tmp_path: Path) -> None:
    server = start(
        tmp_path,
        *NO_RATE_LIMITS,
        *("--limit", "max_live_tables=3", "--limit", "idle_unload_seconds=0.5", "--limit", "housekeeping_seconds=0.3"),
    )
    try:
        with server.client() as api:
            tables = [create_table(api, "cinecitta", HUMANS, seed=seed) for seed in range(5)]
            wait_until(
                lambda: api.get("/api/health", headers=OPERATOR).json()["live_tables"] == 0, timeout=10, what="idle tables to be unloaded"
            )
            assert api.get("/api/health", headers=OPERATOR).json()["tables"] == 5
            for created in tables:
                table_id, token = created["table"]["id"], created["seats"][0]["token"]
                view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
                assert view["version"] == 0 and view["legal_actions"]
                answer = api.post(f"/api/tables/{table_id}/actions", json={"action": view["legal_actions"][0]}, headers=bearer(token))
                assert answer.status_code == 200
                assert api.get("/api/health", headers=OPERATOR).json()["live_tables"] <= 3
            again = api.get(f"/api/tables/{tables[0]['table']['id']}/view", headers=bearer(tables[0]["seats"][0]["token"])).json()
            assert again["version"] == 1 and again["decision"]["committed"] == [0]
            # With every slot held by a table someone watches, a new table must wait.
            watched = [Socket(server, created["table"]["id"], None) for created in tables[2:]]
            for watcher in watched:
                watcher.next("view")
            full = api.post("/api/tables", json={"game": "cinecitta", "seats": HUMANS})
            assert full.status_code == 503 and "maximum of 3 active tables" in full.json()["detail"] and full.headers["Retry-After"]
            for watcher in watched:
                watcher.close()
    finally:
        server.stop()


def test_abandoned_tables_are_closed_and_say_so(tmp_path: Path) -> None:
    server = start(tmp_path, *NO_RATE_LIMITS, "--limit", "expire_after_seconds=1", "--limit", "housekeeping_seconds=0.3")
    try:
        with server.client() as api:
            created = create_table(api, "cinecitta", HUMANS)
            table_id, token = created["table"]["id"], created["seats"][0]["token"]
            wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "closed", timeout=10, what="the table to expire")
            assert api.get(f"/api/tables/{table_id}").json()["closed"] == "expired"
            view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
            refused = api.post(f"/api/tables/{table_id}/actions", json={"action": view["legal_actions"][0]}, headers=bearer(token))
            assert refused.status_code == 409 and "closed (expired)" in refused.json()["detail"]
            assert api.get(f"/api/tables/{table_id}/record").status_code == 200
            assert table_id in [t["id"] for t in api.get("/api/tables", params={"status": "closed"}).json()["tables"]]
    finally:
        server.stop()


def test_the_table_list_is_paginated_and_filtered(api: httpx.Client) -> None:
    mine = [create_table(api, "maybe-movies", HUMANS)["table"]["id"] for _ in range(3)]
    page = api.get("/api/tables", params={"game": "maybe-movies", "limit": 2}).json()
    assert [t["id"] for t in page["tables"]] == mine[::-1][:2] and page["next_offset"] == 2 and page["total"] >= 3
    rest = api.get("/api/tables", params={"game": "maybe-movies", "limit": 2, "offset": 2}).json()
    assert rest["tables"][0]["id"] == mine[0]
    assert len(api.get("/api/tables", params={"limit": 100000}).json()["tables"]) <= 200
    assert api.get("/api/tables", params={"limit": -1}).status_code == 422
