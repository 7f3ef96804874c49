"""Nothing is lost: the server process is killed (SIGKILL) mid-game and every acknowledged action is there after restart."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import httpx

from greenlight.core.match import Match
from greenlight.core.record import Record
from tests.web.conftest import Server, bearer, create_table, wait_until

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]


def stored_actions(db: Path | str, table_id: str) -> list[tuple[int, str]]:
    """The action rows of a table, read straight from the SQLite file."""
    assert isinstance(db, Path), "the servers of these tests keep their tables in a SQLite file"
    with sqlite3.connect(db) as connection:
        return [
            (seat, text) for seat, text in connection.execute("SELECT seat, text FROM actions WHERE table_id = ? ORDER BY idx", (table_id,))
        ]


def play_until_stopped(server: Server, table_id: str, tokens: list[str], acks: list[tuple[int, int, str]], stop: threading.Event) -> None:
    """Play random legal actions for every seat, as fast as the server answers, noting each acknowledgement."""
    rng = random.Random(7)
    with server.client() as api:
        try:
            while not stop.is_set():
                for seat, token in enumerate(tokens):
                    legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["legal_actions"]
                    if not legal:
                        continue
                    response = api.post(f"/api/tables/{table_id}/actions", json={"action": rng.choice(legal)}, headers=bearer(token))
                    if response.status_code == 200:
                        answer = response.json()
                        acks.append((answer["index"], seat, answer["action"]))
        except httpx.HTTPError:
            return  # the server was killed under us; whatever was not acknowledged may or may not be stored


def test_every_acknowledged_action_survives_a_kill_and_the_game_goes_on(fresh_server: Server) -> None:
    with fresh_server.client() as api:
        answer = create_table(api, "cinecitta", HUMANS, seed=61)
    table_id = answer["table"]["id"]
    tokens = [seat["token"] for seat in answer["seats"]]
    acks: list[tuple[int, int, str]] = []
    stop = threading.Event()
    player = threading.Thread(target=play_until_stopped, args=(fresh_server, table_id, tokens, acks, stop))
    player.start()
    wait_until(lambda: len(acks) >= 25, what="25 acknowledged actions")
    fresh_server.kill()
    stop.set()
    player.join(timeout=30)
    assert 25 <= len(acks) < 72, "the kill must come mid-game"

    rows = stored_actions(fresh_server.db, table_id)
    for index, seat, action in acks:
        assert rows[index] == (seat, action)

    fresh_server.start()
    with fresh_server.client() as api:
        # The table is rebuilt exactly where it was: each seat sees what the stored actions lead to.
        local = Match.from_record(Record("cinecitta", "1", 3, 61, {"destination_change": False, "movie_awards": False, "data": None}, rows))
        for seat, token in enumerate(tokens):
            view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
            assert view["version"] == len(rows)
            assert view["observation"] == local.observe(seat)
            assert view["legal_actions"] == [str(a) for a in local.legal_actions(seat)]
        stop = threading.Event()
        finisher = threading.Thread(target=play_until_stopped, args=(fresh_server, table_id, tokens, acks, stop))
        finisher.start()
        wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the game to end")
        stop.set()
        finisher.join(timeout=30)
        record = api.get(f"/api/tables/{table_id}/record").json()
    assert len(record["actions"]) == 3 * 3 * 8
    assert record["actions"][: len(rows)] == [list(row) for row in rows]
    for index, seat, action in acks:
        assert record["actions"][index] == [seat, action]
    assert Match.from_record(Record.from_json(record)).is_over()


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_bot_tables_resume_after_a_kill_and_play_exactly_as_without_it(tmp_path: Path) -> None:
    server = Server(tmp_path / "bots.db", bot_delay=0.03)
    server.start()
    bots = [
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "medium"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "easy"},
    ]
    try:
        with server.client() as api:
            table_id = create_table(api, "cinecitta", bots, seed=62, options={"destination_change": True})["table"]["id"]
            wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["version"] >= 20, what="20 bot moves")
        assert server.process is not None
        workers = children(server.process.pid)
        assert workers, "the bots think in worker processes"
        server.kill()
        # The workers notice that the server is gone and stop by themselves.
        wait_until(lambda: not any(running(pid) for pid in workers), what="the bot workers to exit after the kill")
        before = stored_actions(server.db, table_id)
        assert 20 <= len(before) < 3 * 4 * 7
        server.start()
        with server.client() as api:
            # The same table again, never interrupted: each bot move is seeded by table, seat and move number.
            twin_id = create_table(api, "cinecitta", bots, seed=62, options={"destination_change": True})["table"]["id"]
            for table in (table_id, twin_id):
                wait_until(lambda table=table: api.get(f"/api/tables/{table}").json()["status"] == "finished", timeout=60, what="the bots")
            record = api.get(f"/api/tables/{table_id}/record").json()
            twin = api.get(f"/api/tables/{twin_id}/record").json()
        assert len(record["actions"]) == 3 * 4 * 7
        assert record["actions"][: len(before)] == [list(row) for row in before]
        assert record["options"]["destination_change"] is True
        assert record["actions"] == twin["actions"]
    finally:
        server.stop()
