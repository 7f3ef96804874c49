"""The SQLite table store, and the rule that an action nobody could store never happened."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from greenlight.core.record import Record
from greenlight.web.storage import SeatRow, SqliteStore, StoredTable, hash_token, new_token, token_matches
from greenlight.web.tables import Client, SeatRequest, TableError, TableHub


def stored_table(table_id: str = "t1") -> StoredTable:
    record = Record("cinecitta", "1", 3, 7, {"destination_change": False, "movie_awards": True, "cards": None}, [])
    seats = [
        SeatRow(0, "human", None, "Ann", hash_token("secret-0")),
        SeatRow(1, "bot", "random", "Bot (random)"),
        SeatRow(2, "human", None, "Cy", hash_token("secret-2")),
    ]
    return StoredTable(table_id, record, seats, created_at=100.0)


def test_tables_seats_and_actions_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tables.db"
    store = SqliteStore(path)
    store.create_table(stored_table())
    store.append_action("t1", 0, 1, "offer D6 30", finished=False)
    store.append_action("t1", 1, 0, "offer A2 0", finished=False)
    store.mark_joined("t1", 2)
    store.close()
    again = SqliteStore(path)
    [table] = again.load_all()
    assert table.record.to_json() == {
        "format": 1,
        "game": "cinecitta",
        "version": "1",
        "num_players": 3,
        "seed": 7,
        "options": {"destination_change": False, "movie_awards": True, "cards": None},
        "actions": [[1, "offer D6 30"], [0, "offer A2 0"]],
    }
    assert [(s.seat, s.kind, s.bot, s.name, s.joined) for s in table.seats] == [
        (0, "human", None, "Ann", False),
        (1, "bot", "random", "Bot (random)", False),
        (2, "human", None, "Cy", True),
    ]
    assert table.created_at == 100.0 and table.finished_at is None
    again.append_action("t1", 2, 2, "offer C3 10", finished=True)
    finished = again.load_table("t1")
    assert finished is not None and finished.finished_at is not None
    assert again.load_table("nope") is None
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_action_index_is_stored_once(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    store.create_table(stored_table())
    store.append_action("t1", 0, 1, "offer D6 30", finished=False)
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action("t1", 0, 0, "offer A2 0", finished=True)
    table = store.load_table("t1")
    assert table is not None and table.record.actions == [(1, "offer D6 30")] and table.finished_at is None


def test_a_file_of_another_schema_is_refused(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "t.db").close()
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(RuntimeError, match="uses storage schema 99; this server reads schema 1"):
        SqliteStore(tmp_path / "t.db")


def test_tokens_are_random_and_only_their_digest_matches() -> None:
    first, second = new_token(), new_token()
    assert first != second and len(first) == 32
    assert hash_token(first) == hash_token(first) and len(hash_token(first)) == 64
    assert token_matches(first, hash_token(first))
    assert not token_matches(second, hash_token(first))
    assert not token_matches(first, None)


class FailingStore(SqliteStore):
    """A store whose disk fails on the next action write."""

    fail = False

    def append_action(self, table_id: str, index: int, seat: int, text: str, *, finished: bool) -> None:
        if self.fail:
            raise sqlite3.OperationalError("disk I/O error")
        super().append_action(table_id, index, seat, text, finished=finished)


def test_an_action_that_cannot_be_stored_is_undone_and_told_to_nobody(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FailingStore(tmp_path / "t.db")
        hub = TableHub(store, bot_delay=0)
        await hub.start()
        created = await hub.create("cinecitta", [SeatRequest("human")] * 3, {}, seed=4)
        table = created.table
        listener = Client(seat=1)
        table.clients.add(listener)
        before = table.view(0)
        legal = before["legal_actions"]
        store.fail = True
        with pytest.raises(sqlite3.OperationalError):
            await hub.act(table, 0, legal[0])
        assert table.view(0) == before
        assert table.version == 0 and table.match.record.actions == [] and table.match.events == []
        assert listener.queue.empty()
        store.fail = False
        assert await hub.act(table, 0, legal[1]) == (legal[1], 0)
        assert listener.queue.get_nowait()["version"] == 1
        with pytest.raises(TableError) as refused:
            await hub.act(table, 0, legal[2])
        assert refused.value.status == 409
        await hub.stop()
        reloaded = store.load_table(table.id)
        assert reloaded is not None and reloaded.record.actions == [(0, legal[1])]
        store.close()

    asyncio.run(scenario())
