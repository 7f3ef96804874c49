"""The rooms' storage contract (``greenlight.web.rooms``), run against a real SQLite file and a real PostgreSQL.

A room's tables are created and migrated on their own version; a transaction is all or nothing; a notice reaches
every process once committed (never for a rolled-back one); ``lock`` serialises transactions on one key.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from greenlight.web.backend import Backend, LocalBackend
from greenlight.web.rooms import RoomDatabase, RoomSchema, RoomTx
from greenlight.web.storage import SqliteStore, StorageError
from tests.web.conftest import new_database

NOTES_V1 = ("CREATE TABLE notes (id {autoid}, author TEXT NOT NULL, at {real} NOT NULL)",)
NOTES_V2 = ("ALTER TABLE notes ADD COLUMN text TEXT NOT NULL DEFAULT ''", "CREATE INDEX notes_by_author ON notes (author)")
SCHEMA_V1 = RoomSchema("notes", (NOTES_V1,))
SCHEMA_V2 = RoomSchema("notes", (NOTES_V1, NOTES_V2))

Scenario = Callable[[Callable[[], Awaitable[Backend]]], Awaitable[None]]


@pytest.fixture(params=["sqlite", "postgresql"])
def run(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[Scenario], None]:
    """Run a scenario that may open several backends (server processes) on one fresh database of each kind."""

    def runner(scenario: Scenario) -> None:
        url = new_database(request.getfixturevalue("postgres")) if request.param == "postgresql" else str(tmp_path / "tables.db")

        async def main() -> None:
            opened: list[Backend] = []

            async def open_backend() -> Backend:
                backend: Backend
                if request.param == "sqlite":
                    backend = LocalBackend(SqliteStore(url))
                else:
                    from greenlight.web.postgres import PostgresBackend

                    backend = PostgresBackend(url)
                await backend.start(lambda notice: None)
                opened.append(backend)
                return backend

            try:
                await scenario(open_backend)
            finally:
                for backend in opened:
                    await backend.close()

        asyncio.run(main())

    return runner


def add_note(tx: RoomTx, author: str, text: str = "") -> int:
    tx.execute("INSERT INTO notes (author, at, text) VALUES (?, ?, ?)", (author, tx.now(), text))
    tx.notify("notes", {"author": author})
    return len(tx.fetch("SELECT id FROM notes"))


def notes(tx: RoomTx) -> list[tuple[str, str]]:
    return [(str(author), str(text)) for author, text in tx.fetch("SELECT author, text FROM notes ORDER BY id")]


def test_a_room_is_created_then_migrated_to_its_next_version_keeping_its_rows(run: Callable[[Scenario], None]) -> None:
    async def scenario(open_backend: Callable[[], Awaitable[Backend]]) -> None:
        backend = await open_backend()
        rooms = backend.rooms
        await rooms.prepare([SCHEMA_V1])
        assert rooms.found == {"notes": None}
        await rooms.write(lambda tx: tx.execute("INSERT INTO notes (author, at) VALUES (?, ?)", ("ann", 1.0)))
        await rooms.prepare([SCHEMA_V2])
        assert rooms.found == {"notes": 1}
        assert await rooms.read(notes) == [("ann", "")]
        await rooms.prepare([SCHEMA_V2])  # again: nothing to do
        assert rooms.found == {"notes": 2}
        with pytest.raises(StorageError, match="room notes has schema 2 in the database; this server reads 1"):
            await rooms.prepare([SCHEMA_V1])

    run(scenario)


def test_a_failed_transaction_stores_nothing_and_announces_nothing(run: Callable[[Scenario], None]) -> None:
    async def scenario(open_backend: Callable[[], Awaitable[Backend]]) -> None:
        rooms = (await open_backend()).rooms
        await rooms.prepare([SCHEMA_V2])
        heard: list[dict[str, Any]] = []
        rooms.listen("notes", heard.append)

        def add_then_fail(tx: RoomTx) -> None:
            add_note(tx, "ann")
            raise ValueError("changed my mind")

        with pytest.raises(ValueError, match="changed my mind"):
            await rooms.write(add_then_fail)
        with pytest.raises(StorageError):
            await rooms.write(lambda tx: tx.execute("INSERT INTO missing_table VALUES (1)"))
        assert await rooms.read(notes) == []
        assert heard == []
        assert await rooms.write(add_note, "bob", "hi") == 1
        assert heard == [{"author": "bob"}]
        with pytest.raises(StorageError, match="could not be read"):  # a read may not write (nor announce)
            await rooms.read(add_note, "cy")
        assert await rooms.read(notes) == [("bob", "hi")]

    run(scenario)


def test_a_notice_reaches_every_process_once_committed(run: Callable[[Scenario], None], request: pytest.FixtureRequest) -> None:
    if "sqlite" in request.node.name:
        pytest.skip("one process alone uses a SQLite file")

    async def scenario(open_backend: Callable[[], Awaitable[Backend]]) -> None:
        first, second = (await open_backend()).rooms, (await open_backend()).rooms
        await first.prepare([SCHEMA_V2])
        await second.prepare([SCHEMA_V2])
        heard_first: list[dict[str, Any]] = []
        heard_second: list[dict[str, Any]] = []
        first.listen("notes", heard_first.append)
        second.listen("notes", heard_second.append)
        await first.write(add_note, "ann")
        deadline = time.monotonic() + 10
        while not heard_second and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert heard_first == heard_second == [{"author": "ann"}]
        assert await second.read(notes) == [("ann", "")]

    run(scenario)


def test_a_lock_lets_one_transaction_at_a_time_read_then_write(run: Callable[[Scenario], None]) -> None:
    """Two processes each count the notes and add one under the same lock: no count is ever read twice."""

    async def scenario(open_backend: Callable[[], Awaitable[Backend]]) -> None:
        first = (await open_backend()).rooms
        await first.prepare([SCHEMA_V2])
        databases: list[RoomDatabase] = [first]
        if first.dialect == "postgresql":
            second = (await open_backend()).rooms
            await second.prepare([SCHEMA_V2])
            databases.append(second)
        counts: list[int] = []
        guard = threading.Lock()

        def count_then_add(tx: RoomTx, author: str) -> None:
            tx.lock("notes/count")
            seen = len(tx.fetch("SELECT id FROM notes"))
            time.sleep(0.01)  # widen the window another transaction would slip into without the lock
            tx.execute("INSERT INTO notes (author, at, text) VALUES (?, ?, ?)", (author, 0.0, str(seen)))
            with guard:
                counts.append(seen)

        await asyncio.gather(*(databases[index % len(databases)].write(count_then_add, f"p{index}") for index in range(12)))
        assert sorted(counts) == list(range(12))

    run(scenario)
