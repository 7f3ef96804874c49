"""The SQLite table store, and the rule that an action nobody could store never happened."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from greenlight.core.record import Record
from greenlight.web.storage import (
    AppendAction,
    CloseTable,
    MarkBroken,
    MarkJoined,
    SaveReview,
    SeatRow,
    SqliteStore,
    StorageError,
    StoredTable,
    WriteOp,
    hash_token,
    new_token,
    token_matches,
)
from greenlight.web.tables import Client, SeatRequest, TableError, TableHub


def stored_table(table_id: str = "t1") -> StoredTable:
    record = Record("cinecitta", "1", 3, 7, {"destination_change": False, "movie_awards": True, "data": None}, [])
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
    store.write([AppendAction("t1", 0, 1, "offer D6 30", False), AppendAction("t1", 1, 0, "offer A2 0", False), MarkJoined("t1", 2)])
    store.close()
    again = SqliteStore(path)
    [table] = again.load_all()
    assert table.record.to_json() == {
        "format": 1,
        "game": "cinecitta",
        "version": "1",
        "num_players": 3,
        "seed": 7,
        "options": {"destination_change": False, "movie_awards": True, "data": None},
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


def test_a_seed_of_128_bits_and_more_is_stored_exactly(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    table = stored_table()
    table.record.seed = 2**200 + 12345
    store.create_table(table)
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.record.seed == 2**200 + 12345


def test_an_action_index_is_stored_once_and_in_order(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    store.create_table(stored_table())
    store.append_action("t1", 0, 1, "offer D6 30", finished=False)
    with pytest.raises(StorageError) as taken:
        store.append_action("t1", 0, 0, "offer A2 0", finished=True)
    assert taken.value.conflict
    with pytest.raises(StorageError) as gap:
        store.append_action("t1", 2, 0, "offer A2 0", finished=False)
    assert gap.value.conflict and "does not follow" in gap.value.message
    table = store.load_table("t1")
    assert table is not None and table.record.actions == [(1, "offer D6 30")] and table.finished_at is None


def test_a_batch_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    store.create_table(stored_table("t1"))
    store.create_table(stored_table("t2"))
    with pytest.raises(StorageError):
        store.write([AppendAction("t1", 0, 1, "offer D6 30", False), AppendAction("t2", 5, 0, "offer A2 0", False)])
    assert [t.record.actions for t in store.load_all()] == [[], []]


def test_a_file_of_another_schema_is_refused(tmp_path: Path) -> None:
    SqliteStore(tmp_path / "t.db").close()
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(RuntimeError, match="uses storage schema 99; this server reads schema 3"):
        SqliteStore(tmp_path / "t.db")


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL, num_players INTEGER NOT NULL,
    seed INTEGER NOT NULL, options TEXT NOT NULL, created_at REAL NOT NULL, finished_at REAL);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, kind TEXT NOT NULL, bot TEXT,
    name TEXT NOT NULL, token_hash TEXT, joined_at REAL, PRIMARY KEY (table_id, seat));
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, seat INTEGER NOT NULL,
    text TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, idx));
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO tables VALUES ('old', 'cinecitta', '1', 3, 4567, '{"movie_awards": false}', 10.0, NULL);
INSERT INTO seats VALUES ('old', 0, 'human', NULL, 'Ann', 'abc', 11.0), ('old', 1, 'bot', 'random', 'Bot (random)', NULL, NULL),
    ('old', 2, 'human', NULL, 'Cy', 'def', NULL);
INSERT INTO actions VALUES ('old', 0, 1, 'offer D6 30', 12.0), ('old', 1, 0, 'offer A2 0', 13.0);
"""


def test_a_file_of_schema_1_is_migrated_and_keeps_every_table(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "t.db") as db:
        db.executescript(SCHEMA_1)
    store = SqliteStore(tmp_path / "t.db")
    table = store.load_table("old")
    assert table is not None
    assert table.record.seed == 4567 and table.record.actions == [(1, "offer D6 30"), (0, "offer A2 0")]
    assert table.seed_chosen, "an old table's seed came from the lobby's 31-bit draw: treat it as known"
    assert table.updated_at == 13.0
    [summary] = store.list_tables().tables
    assert (summary.moves, summary.status) == (2, "open")
    store.append_action("old", 2, 2, "offer C3 10", finished=False)
    with sqlite3.connect(tmp_path / "t.db") as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("3",)
    assert store.load_reviews("old") == {} and store.load_table("old").record.start is None  # type: ignore[union-attr]


def test_a_start_position_and_reviews_are_kept(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    table = stored_table("p1")
    table.record.start = {"game": "cinecitta", "num_players": 3, "round": 7}
    store.create_table(table)
    store.write([SaveReview("p1", 1, '{"seat": 1}'), SaveReview("p1", 2, '{"seat": 2}')])
    store.write([SaveReview("p1", 1, '{"seat": 1, "again": true}')])
    store.close()
    reopened = SqliteStore(tmp_path / "t.db")
    loaded = reopened.load_table("p1")
    assert loaded is not None and loaded.record.start == {"game": "cinecitta", "num_players": 3, "round": 7}
    assert reopened.load_reviews("p1") == {1: '{"seat": 1, "again": true}', 2: '{"seat": 2}'}


def test_listing_pages_and_filters_by_status_and_game(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "t.db")
    for number in range(7):
        table = stored_table(f"t{number}")
        table.created_at = float(number)
        if number == 6:
            table.record.game = "maybe-movies"
        store.create_table(table)
    store.write([MarkJoined("t1", 0), MarkJoined("t1", 2), AppendAction("t2", 0, 1, "offer D6 30", True), CloseTable("t3", "expired")])
    store.write([MarkBroken("t4", "does not replay")])
    page = store.list_tables(limit=3, offset=0)
    assert page.total == 7 and [t.id for t in page.tables] == ["t6", "t5", "t4"]
    assert [t.id for t in store.list_tables(limit=3, offset=6).tables] == ["t0"]
    statuses = {t.id: t.status for t in store.list_tables(limit=10).tables}
    assert statuses == {"t0": "open", "t1": "running", "t2": "finished", "t3": "closed", "t4": "broken", "t5": "open", "t6": "open"}
    assert [t.id for t in store.list_tables(status="open", game="cinecitta").tables] == ["t5", "t0"]
    assert store.list_tables(status="open").total == 3
    assert store.list_tables(game="maybe-movies").total == 1
    assert store.abandoned(idle_since=5.5) == ["t0", "t1", "t4", "t5"]


def test_tokens_are_random_and_only_their_digest_matches() -> None:
    first, second = new_token(), new_token()
    assert first != second and len(first) == 32
    assert hash_token(first) == hash_token(first) and len(hash_token(first)) == 64
    assert token_matches(first, hash_token(first))
    assert not token_matches(second, hash_token(first))
    assert not token_matches(first, None)


class FailingStore(SqliteStore):
    """A store whose disk fails on writes while ``fail`` is set."""

    fail = False

    def write(self, ops: Sequence[WriteOp]) -> None:
        if self.fail:
            raise StorageError("the database refused the write (disk I/O error)")
        super().write(ops)


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
        with pytest.raises(TableError) as refused:
            await hub.act(table, 0, legal[0])
        assert refused.value.status == 503 and "not played" in refused.value.message and refused.value.retry_after
        assert table.view(0) == before
        assert table.version == 0 and table.match.record.actions == [] and table.match.events == []
        assert listener.queue.empty()
        store.fail = False
        assert await hub.act(table, 0, legal[1]) == (legal[1], 0)
        assert json.loads(listener.queue.get_nowait())["version"] == 1
        with pytest.raises(TableError) as twice:
            await hub.act(table, 0, legal[2])
        assert twice.value.status == 409
        await hub.stop()
        reloaded = store.load_table(table.id)
        assert reloaded is not None and reloaded.record.actions == [(0, legal[1])]
        store.close()

    asyncio.run(scenario())


class FirstMoveFails(SqliteStore):
    """A store whose disk fails any batch holding a table's first move, once."""

    armed = True

    def write(self, ops: Sequence[WriteOp]) -> None:
        if self.armed and any(isinstance(op, AppendAction) and op.index == 0 for op in ops):
            self.armed = False
            raise StorageError("the database refused the write (disk I/O error)")
        super().write(ops)


def test_moves_stored_together_fail_together_and_leave_no_trace(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = FirstMoveFails(tmp_path / "t.db")
        hub = TableHub(store, bot_delay=0)
        await hub.start()
        table = (await hub.create("cinecitta", [SeatRequest("human")] * 3, {}, seed=4)).table
        before = [table.view(seat) for seat in range(3)]
        offers = [table.view(seat)["legal_actions"][0] for seat in range(3)]
        # Three offers sent at once: the second and third are checked after the first, which the disk refuses.
        results = await asyncio.gather(*(hub.act(table, seat, offers[seat]) for seat in range(3)), return_exceptions=True)
        assert all(isinstance(result, TableError) and result.status == 503 for result in results), results
        assert [table.view(seat) for seat in range(3)] == before and table.pending == []
        reloaded = store.load_table(table.id)
        assert reloaded is not None and reloaded.record.actions == []
        # Sent again, all three land, in order, and the step resolves.
        assert await asyncio.gather(*(hub.act(table, seat, offers[seat]) for seat in range(3))) == [(offers[s], s) for s in range(3)]
        assert table.version == 3 and table.view(0)["decision"]["kind"] != before[0]["decision"]["kind"]
        await hub.stop()
        reloaded = store.load_table(table.id)
        assert reloaded is not None and reloaded.record.actions == [(seat, offers[seat]) for seat in range(3)]
        store.close()

    asyncio.run(scenario())
