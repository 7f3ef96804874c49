"""The storage contract, run against both backends: the SQLite file (one process) and PostgreSQL (several).

Every test here is parametrised over the two implementations of
:class:`greenlight.web.backend.Backend`, so they keep meaning the same thing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.record import Record
from greenlight.web.backend import Backend, LocalBackend, SocketRefused
from greenlight.web.storage import (
    AddChat,
    AppendAction,
    ChatLine,
    CloseTable,
    CreateTable,
    LinkRematch,
    MarkBroken,
    MarkJoined,
    SaveReview,
    SeatRow,
    SqliteStore,
    StorageError,
    StoredTable,
    UpdateHints,
    UpdateHost,
    UpdateSeat,
    hash_token,
)
from tests.web.conftest import new_database

Scenario = Callable[[Backend], Awaitable[None]]


@pytest.fixture(params=["sqlite", "postgresql"])
def run(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[Scenario], None]:
    """Run an async scenario against a fresh backend of each kind."""

    def runner(scenario: Scenario) -> None:
        async def main() -> None:
            backend: Backend
            if request.param == "sqlite":
                backend = LocalBackend(SqliteStore(tmp_path / "tables.db"))
            else:
                from greenlight.web.postgres import PostgresBackend

                backend = PostgresBackend(new_database(request.getfixturevalue("postgres")))
            await backend.start(lambda notice: None)
            try:
                await scenario(backend)
            finally:
                await backend.close()

        asyncio.run(main())

    return runner


def table(table_id: str = "t1", seed: int = 7, created_at: float = 100.0, seats: list[SeatRow] | None = None) -> StoredTable:
    record = Record("cinecitta", "1", 3, seed, {"destination_change": False, "movie_awards": True, "data": None}, [])
    rows = seats or [
        SeatRow(0, "human", None, "Ann", hash_token("secret-0")),
        SeatRow(1, "bot", "random", "Bot 2 (random)"),
        SeatRow(2, "human", None, "Cy", hash_token("secret-2"), open=True),
    ]
    return StoredTable(table_id, record, rows, created_at=created_at, seed_chosen=True, creator="c1")


async def expect_conflict(backend: Backend, *ops: Any) -> StorageError:
    with pytest.raises(StorageError) as refused:
        for op in ops:
            await backend.writer.write(op)
    assert refused.value.conflict, refused.value.message
    return refused.value


def test_a_table_round_trips_with_its_seats_moves_and_a_seed_of_any_size(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        await backend.writer.write(CreateTable(table(seed=2**200 + 12345)))
        await backend.writer.write(AppendAction("t1", 0, 1, "offer D6 30", False))
        await backend.writer.write(AppendAction("t1", 1, 0, "offer A2 0", False, previous=(1, "offer D6 30")))
        await backend.writer.write(MarkJoined("t1", 0))
        loaded = await backend.load_table("t1")
        assert loaded is not None
        assert loaded.record.seed == 2**200 + 12345 and loaded.record.actions == [(1, "offer D6 30"), (0, "offer A2 0")]
        assert loaded.record.options == {"destination_change": False, "movie_awards": True, "data": None}
        assert [(s.seat, s.kind, s.bot, s.name, s.joined, s.open) for s in loaded.seats] == [
            (0, "human", None, "Ann", True, False),
            (1, "bot", "random", "Bot 2 (random)", False, False),
            (2, "human", None, "Cy", False, True),
        ]
        assert loaded.seed_chosen and loaded.creator == "c1" and loaded.created_at == 100.0 and loaded.finished_at is None
        assert await backend.load_table("missing") is None
        assert await backend.count() == 1

    run(scenario)


def test_a_move_index_is_stored_once_and_only_after_the_move_it_was_checked_after(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        await backend.writer.write(CreateTable(table()))
        await backend.writer.write(AppendAction("t1", 0, 0, "offer A1 0", False))
        await expect_conflict(backend, AppendAction("t1", 0, 1, "offer B1 0", False))  # index taken
        await expect_conflict(backend, AppendAction("t1", 2, 1, "offer B1 0", False))  # move 1 missing
        await expect_conflict(backend, AppendAction("t1", 1, 1, "offer B1 0", False, previous=(2, "offer A1 0")))  # another move 0
        await backend.writer.write(AppendAction("t1", 1, 1, "offer B1 0", True, previous=(0, "offer A1 0")))
        loaded = await backend.load_table("t1")
        assert loaded is not None and loaded.record.actions == [(0, "offer A1 0"), (1, "offer B1 0")]
        assert loaded.finished_at is not None

    run(scenario)


def test_one_refused_move_in_a_batch_leaves_the_others_stored(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        await backend.writer.write(CreateTable(table("a")))
        await backend.writer.write(CreateTable(table("b")))
        await backend.writer.write(AppendAction("a", 0, 0, "offer A1 0", False))
        batches = backend.writer.batches
        writes = [
            backend.writer.submit(AppendAction("a", 0, 1, "offer B1 0", False)),  # refused: index taken
            backend.writer.submit(AppendAction("b", 0, 1, "offer B1 0", False)),
            backend.writer.submit(AppendAction("a", 1, 2, "offer C1 0", False, previous=(1, "offer B1 0"))),  # after the refused
            backend.writer.submit(AddChat("b", ChatLine(0, 1, "Bob", "hi", 5.0))),
            backend.writer.submit(AppendAction("b", 1, 2, "offer C1 0", False, previous=(1, "offer B1 0"))),
        ]
        results = await asyncio.gather(*writes, return_exceptions=True)
        assert all(isinstance(results[i], StorageError) and results[i].conflict for i in (0, 2)), results  # type: ignore[union-attr]
        assert [results[i] for i in (1, 3, 4)] == [None, None, None]
        stored_a, stored_b = await backend.load_table("a"), await backend.load_table("b")
        assert stored_a is not None and stored_a.record.actions == [(0, "offer A1 0")]
        assert stored_b is not None and stored_b.record.actions == [(1, "offer B1 0"), (2, "offer C1 0")]
        assert [line.text for line in await backend.load_chat("b", 10)] == ["hi"]
        if backend.shared:
            # PostgreSQL names the conflicting table, so the rest of the batch is stored together, not op by op.
            assert isinstance(results[0], StorageError) and results[0].tables == {"a"}
            assert backend.writer.batches == batches + 1

    run(scenario)


def test_seats_host_hints_rematch_reviews_chat_and_closing(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        await backend.writer.write(CreateTable(table()))
        await backend.writer.write(UpdateSeat("t1", SeatRow(1, "human", None, "Bo", hash_token("new"), joined=True)))
        # A seat change decided on an occupant who has left since (another process gave the seat away) changes nothing.
        stale = UpdateSeat("t1", SeatRow(1, "human", None, "Al", hash_token("al")), was=("bot", None))
        assert "seat 2 changed meanwhile" in (await expect_conflict(backend, stale)).message
        await expect_conflict(backend, UpdateSeat("t1", SeatRow(1, "bot", "random", "Bot"), was=("human", hash_token("old"))))
        await backend.writer.write(
            UpdateSeat("t1", SeatRow(2, "human", None, "Cy", hash_token("cy")), was=("human", hash_token("secret-2")))
        )
        await backend.writer.write(UpdateHost("t1", hash_token("host")))
        await backend.writer.write(UpdateHints("t1", True))
        await backend.writer.write(LinkRematch("t1", "t2"))
        await expect_conflict(backend, LinkRematch("t1", "t3"))  # one rematch per table, whoever asks first
        for index, text in enumerate(["one", "two", "three"]):
            await backend.writer.write(AddChat("t1", ChatLine(index, -1, "Table", text, float(index))))
        await expect_conflict(backend, AddChat("t1", ChatLine(2, 0, "Ann", "taken", 9.0)))
        await backend.writer.write(SaveReview("t1", 0, "first"))
        await backend.writer.write(SaveReview("t1", 0, "second"))
        await backend.writer.write(CloseTable("t1", "closed by the host", at=500.0))
        loaded = await backend.load_table("t1")
        assert loaded is not None
        assert (loaded.seats[1].kind, loaded.seats[1].name, loaded.seats[1].token_hash, loaded.seats[1].joined) == (
            "human",
            "Bo",
            hash_token("new"),
            True,
        )
        assert (loaded.seats[2].name, loaded.seats[2].token_hash, loaded.seats[2].open) == ("Cy", hash_token("cy"), False)
        assert loaded.host_hash == hash_token("host") and loaded.hints and loaded.rematch == "t2"
        assert (loaded.closed_at, loaded.closed_reason) == (500.0, "closed by the host")
        assert [line.text for line in await backend.load_chat("t1", 2)] == ["two", "three"]
        assert await backend.chat_length("t1") == 3
        assert await backend.load_reviews("t1") == {0: "second"}
        await backend.writer.write(MarkBroken("t1", "does not replay"))
        broken = await backend.load_table("t1")
        assert broken is not None and broken.error == "does not replay"

    run(scenario)


def test_listing_filters_pages_and_finds_tables_to_resume_or_expire(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        humans = [SeatRow(0, "human", None, "Ann", hash_token("x")), SeatRow(1, "human", None, "Bo", hash_token("y"))]
        await backend.writer.write(CreateTable(table("open", created_at=1.0, seats=humans)))
        await backend.writer.write(CreateTable(table("bots", created_at=2.0)))
        await backend.writer.write(CreateTable(table("done", created_at=3.0)))
        await backend.writer.write(AppendAction("done", 0, 0, "offer A1 0", True))
        page = await backend.list_tables(None, None, 2, 0)
        assert page.total == 3 and [summary.id for summary in page.tables] == ["done", "bots"]
        assert [summary.id for summary in (await backend.list_tables("finished", None, 50, 0)).tables] == ["done"]
        opened = [summary.id for summary in (await backend.list_tables("open", None, 50, 0)).tables]
        assert sorted(opened) == ["bots", "open"]  # both have a human seat never joined
        assert (await backend.list_tables(None, "movie-empire", 50, 0)).total == 0
        assert (await backend.list_tables(None, None, 50, 0)).tables[0].moves == 1
        assert await backend.resumable(10) == ["bots"]
        assert sorted(await backend.abandoned(idle_since=10.0)) == ["bots", "open"]

    run(scenario)


def test_a_fast_budget_taken_ahead_is_never_looser(run: Callable[[Scenario], None]) -> None:
    """The actions budget (10 a second, burst 30) taken ahead a few tokens at a time (PostgreSQL): at most the burst and
    what refills meanwhile is ever allowed, here through two processes sharing the bucket."""

    async def scenario(backend: Backend) -> None:
        others: list[Backend] = [backend]
        if backend.shared:
            from greenlight.web.postgres import PostgresBackend

            assert isinstance(backend, PostgresBackend)
            second = PostgresBackend(backend.url)
            await second.start(lambda notice: None)
            others.append(second)
        start = asyncio.get_running_loop().time()
        allowed = 0
        for number in range(60):
            if await others[number % len(others)].wait_needed("actions", "flood", 10.0, 30) == 0.0:
                allowed += 1
        elapsed = asyncio.get_running_loop().time() - start
        assert 30 <= allowed <= 30 + 10 * elapsed + 1, (allowed, elapsed)
        for other in others[1:]:
            await other.close()

    run(scenario)


def test_rate_limits_and_socket_caps(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        waits = [await backend.wait_needed("create", "ann", 0.5, 2) for _ in range(3)]
        assert waits[:2] == [0.0, 0.0] and 1.0 < waits[2] <= 2.0
        assert await backend.wait_needed("create", "bob", 0.5, 2) == 0.0
        assert await backend.wait_needed("create", "ann", 0.0, 2) == 0.0  # no limit
        first = await backend.open_socket("t1", "ann", None, per_table=2, per_client=2)
        await backend.open_socket("t1", "bob", None, per_table=2, per_client=2)
        with pytest.raises(SocketRefused, match="2 connections"):
            await backend.open_socket("t1", "cy", None, per_table=2, per_client=2)
        await backend.open_socket("t2", "ann", None, per_table=2, per_client=2)
        with pytest.raises(SocketRefused, match="your address"):
            await backend.open_socket("t3", "ann", None, per_table=2, per_client=2)
        await backend.close_socket(first)
        await backend.open_socket("t1", "cy", None, per_table=2, per_client=2)

    run(scenario)


def test_a_backend_reports_what_is_stored_beyond_what_a_process_knows(run: Callable[[Scenario], None]) -> None:
    async def scenario(backend: Backend) -> None:
        await backend.writer.write(CreateTable(table()))
        await backend.writer.write(AppendAction("t1", 0, 0, "offer A1 0", False))
        await backend.writer.write(AddChat("t1", ChatLine(0, 0, "Ann", "hi", 1.0)))
        changes = await backend.changes("t1", 0, 0, 0)
        assert changes is not None
        if backend.shared:  # several processes: the moves and lines the caller does not know yet
            assert changes.actions == [(0, 0, "offer A1 0")] and [line.text for line in changes.chat] == ["hi"]
            await backend.writer.write(UpdateHints("t1", True))
            later = await backend.changes("t1", 1, changes.revision, 1)
            assert later is not None and later.actions == [] and later.chat == [] and later.revision > changes.revision
            assert await backend.changes("missing", 0, 0, 0) is None
        else:  # one process knows everything it stored
            assert changes.actions == [] and changes.chat == []

    run(scenario)


def test_only_one_process_moves_a_tables_bots_and_only_a_dead_ones_tables_are_taken_over(postgres: Any) -> None:
    from greenlight.web.postgres import PostgresBackend

    database = new_database(postgres)

    async def scenario() -> None:
        first, second = PostgresBackend(database), PostgresBackend(database)
        for backend in (first, second):
            await backend.start(lambda notice: None)
        await first.writer.write(CreateTable(table("t1")))
        assert await first.own_bots("t1") and not await second.own_bots("t1")
        assert await second.orphaned(10) == []  # held by a live process
        await first.release_bots("t1")
        assert await second.orphaned(10) == []  # let go on purpose: nothing to take over
        assert await second.own_bots("t1") and not await first.own_bots("t1")
        assert second._locks is not None
        await second._locks.close()  # the session holding the lock ends, as when its process is killed
        assert not await second.holds_bot_locks()
        # The database ends the closed session's locks a moment later (the takeover looks every second, so may this).
        for _ in range(50):
            orphaned = await first.orphaned(10)
            if orphaned:
                break
            await asyncio.sleep(0.1)
        assert orphaned == ["t1"]
        assert await first.own_bots("t1") and await first.orphaned(10) == []
        await first.close()
        await second.close()

    asyncio.run(scenario())
