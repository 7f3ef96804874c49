"""PostgreSQL storage shared by several server processes: ``greenlight serve --db postgresql://...``.

Everything a process needs to share with the others goes through the database:

- **Tables and moves.** The same rows as the SQLite file (``actions`` has one
  row per (table, move index), so two processes can never both store move N:
  the primary key refuses the second). Moves are group-committed by one
  asynchronous writer per process (:class:`~greenlight.web.writer.AsyncWriteQueue`),
  through a pool of psycopg 3 connections.
- **Who changed what.** A transaction that changes a table ends with
  ``pg_notify('greenlight', ...)`` naming the table and the process; every
  other process ``LISTEN``\\ s on one dedicated connection, and the server
  brings its copy of the table up to date (:meth:`PostgresBackend.changes`).
  Notices are delivered only for committed transactions, so nothing unstored
  is ever announced.
- **Bot work.** A session-level advisory lock per table, held on one
  dedicated connection, makes exactly one process move a table's bots. A
  process that dies loses its connection and so its locks at once (TCP
  keep-alives bound how long a vanished machine keeps them), and another
  process takes the table over on its next sweep (:meth:`PostgresBackend.orphaned`).
- **Limits.** Rate-limit buckets and the WebSocket counts are rows, so a
  client's budget and caps are the same whichever process it reaches.
  Processes announce themselves and refresh a heartbeat; the sockets of a
  process not seen for :data:`PROCESS_TIMEOUT_SECONDS` no longer count.

Clocks: every time kept here for coordination is the database server's
clock, so machines whose clocks differ still agree.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from greenlight.web.backend import CHANGED, PRESENCE, Backend, Notice, Presence, SocketRefused, TableChanges
from greenlight.web.rooms import PostgresRooms, RoomDatabase
from greenlight.web.storage import (
    LAST_ACTIVE_SQL,
    SCHEMA_VERSION,
    SEAT_COLUMNS,
    STATUS_SQL,
    STATUSES,
    SUMMARY_COLUMNS,
    TABLE_COLUMNS,
    TABLES_SQL,
    AddChat,
    AppendAction,
    ChatLine,
    Probe,
    StorageError,
    StoredTable,
    TablePage,
    WriteOp,
    op_must_change,
    op_statements,
    op_table,
    seat_from_row,
    stored_from_row,
    summary_from_row,
)
from greenlight.web.writer import AsyncWriteQueue

log = logging.getLogger("greenlight.web")

#: The channel every process listens on.
CHANNEL = "greenlight"
#: A process whose heartbeat is older than this no longer counts (its sockets are forgotten).
PROCESS_TIMEOUT_SECONDS = 15.0
#: How often a process refreshes its heartbeat and checks its bot-lock connection.
HEARTBEAT_SECONDS = 2.0
#: First and longest wait before the listener connects again.
RECONNECT_FIRST_SECONDS = 0.2
RECONNECT_MAX_SECONDS = 5.0
#: Tokens of a fast budget (one a second or more) taken at once from the shared bucket, and how long they are kept.
LEASE_TOKENS = 4
LEASE_SECONDS = 1.0
#: Longest notice payload sent with the moves it carries (PostgreSQL refuses payloads of 8000 bytes and more).
NOTICE_BYTES = 7000
#: A transaction that meets another process's in a deadlock is tried again this many times.
DEADLOCK_RETRIES = 3
#: Advisory lock key held while the schema is created or migrated (so two processes never migrate at once).
SCHEMA_LOCK = 0x6772_6E6C_6967_6874  # "grnlight"
#: Keep-alives on the connection that holds the bot locks: a machine that vanishes loses them in about 11 s.
KEEPALIVE_OPTIONS = "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3"
#: Statements that run longer than this are cancelled by the server (so the outcome of a write is never in doubt).
STATEMENT_TIMEOUT_MS = 10_000

NOW = "extract(epoch FROM clock_timestamp())"

#: Schema 3 in PostgreSQL: the SQLite file's tables and columns (same names, same meaning; flags are 0/1
#: integers as there), plus what several processes need: a revision per table (bumped by every change but a
#: move), the bot lock's key, which process last took each table's bots, processes, sockets and rate-limit buckets.
SCHEMA = (
    TABLES_SQL.format(real="DOUBLE PRECISION")
    + """
ALTER TABLE tables ADD COLUMN IF NOT EXISTS revision BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS bot_lock BIGINT
    GENERATED ALWAYS AS (('x' || substr(md5('greenlight-bots/' || id), 1, 15))::bit(60)::bigint) STORED;
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables (id) WHERE finished_at IS NULL AND closed_at IS NULL;
CREATE TABLE IF NOT EXISTS server_processes (
    id TEXT PRIMARY KEY,
    started_at DOUBLE PRECISION NOT NULL,
    seen_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS sockets (
    process TEXT NOT NULL REFERENCES server_processes(id) ON DELETE CASCADE,
    ticket BIGINT NOT NULL,
    table_id TEXT NOT NULL,
    client TEXT NOT NULL,
    seat INTEGER,
    greeted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (process, ticket)
);
CREATE INDEX IF NOT EXISTS sockets_by_table ON sockets (table_id);
CREATE INDEX IF NOT EXISTS sockets_by_client ON sockets (client);
CREATE TABLE IF NOT EXISTS bot_owners (
    table_id TEXT PRIMARY KEY,
    process TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rate_buckets (
    name TEXT NOT NULL,
    client TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    taken INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (name, client)
);
"""
)


def bot_lock_key(table_id: str) -> int:
    """The advisory lock key of a table's bot work (the same as the ``tables.bot_lock`` column computes).

    >>> bot_lock_key("abc") == int(hashlib.md5(b"greenlight-bots/abc").hexdigest()[:15], 16)
    True
    """
    return int(hashlib.md5(f"greenlight-bots/{table_id}".encode()).hexdigest()[:15], 16)


def _pg(statement: str) -> str:
    """A statement written with ``?`` placeholders (as the SQLite store writes them) for psycopg."""
    return statement.replace("%", "%%").replace("?", "%s")


class _Conflict(Exception):
    """Moves of ``tables`` conflict with what is stored (their transaction is rolled back)."""

    def __init__(self, tables: set[str], reason: str) -> None:
        super().__init__(f"{reason} (table {', '.join(sorted(tables))})")
        self.tables = tables


def _cut(error: psycopg.OperationalError) -> bool:
    """Whether an error says the connection itself was lost (rather than the statement failing)."""
    return error.sqlstate is None or error.sqlstate.startswith(("08", "57P"))


def _describe(error: Exception) -> str:
    return f"the database refused the write ({str(error).strip() or type(error).__name__})"


class PostgresBackend(Backend):
    """Tables in PostgreSQL, served by any number of server processes (see the module's description).

    ``url`` is a libpq connection string (``postgresql://user@host:port/db``).
    Call :meth:`start` in the event loop before use (it creates the schema in
    an empty database) and :meth:`close` at the end.
    """

    shared = True

    def __init__(self, url: str, *, write_timeout: float = 3.0, pool_size: int = 8) -> None:
        super().__init__(AsyncWriteQueue(self._commit, timeout=write_timeout))
        self.url = url
        self.write_timeout = write_timeout
        self.pool = AsyncConnectionPool(
            url,
            min_size=2,
            max_size=pool_size,
            open=False,
            kwargs={"autocommit": True, "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}"},
            name="greenlight",
            timeout=max(write_timeout, 1.0),
        )
        self._on_notice: Callable[[Notice], None] = lambda notice: None
        self._listener: asyncio.Task[None] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._listening = False
        #: Set when the database is seen answering while the notice connection is down: connect again now,
        #: not at the end of the backoff (a process is not ready until it hears the others again).
        self._listen_now = asyncio.Event()
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._locks_guard = asyncio.Lock()
        #: Tables whose bots this process moves (it holds their advisory locks).
        self.owned: set[str] = set()
        self._tickets = 0
        #: Tokens of fast budgets this process took ahead from the shared buckets: (limiter, client) -> (left, until),
        #: and the round trip under way for a bucket (the others asking at the same time wait for it).
        self._leases: dict[tuple[str, str], tuple[int, float]] = {}
        self._asking: dict[tuple[str, str], asyncio.Future[None]] = {}

    # -- life ----------------------------------------------------------------------------------

    async def start(self, on_notice: Callable[[Notice], None]) -> None:
        """Open the pool, create or check the schema, register this process, and listen for the others' notices."""
        self._on_notice = on_notice
        try:
            await self.pool.open(wait=True, timeout=10)
        except PoolTimeout:
            raise StorageError(f"cannot connect to PostgreSQL at {_safe_url(self.url)}") from None
        async with self.pool.connection() as conn:
            await prepare_schema(conn)
            await conn.execute(
                f"INSERT INTO server_processes (id, started_at, seen_at) VALUES (%s, {NOW}, {NOW})"
                f" ON CONFLICT (id) DO UPDATE SET seen_at = {NOW}",
                (self.process_id,),
            )
        self._listener = asyncio.create_task(self._listen(), name="greenlight-listen")
        self._heartbeat = asyncio.create_task(self._beat(), name="greenlight-heartbeat")
        deadline = asyncio.get_running_loop().time() + 10
        while not self._listening and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)

    def _open_rooms(self) -> RoomDatabase:
        return PostgresRooms(self.url, channel=CHANNEL, process=self.process_id, timeout=self.write_timeout)

    async def close(self) -> None:
        """Write what is queued, forget this process's sockets, release the bot locks, close every connection."""
        assert isinstance(self.writer, AsyncWriteQueue)
        await self._close_rooms()
        await self.writer.close()
        for task in (self._listener, self._heartbeat):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            async with self.pool.connection(timeout=2) as conn:
                await conn.execute("DELETE FROM server_processes WHERE id = %s", (self.process_id,))
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
            self._locks = None
        self.owned.clear()
        await self.pool.close()

    async def ready(self) -> str | None:
        """Ready when the database answers and this process hears the others' notices."""
        try:
            async with self.pool.connection(timeout=2) as conn:
                await conn.execute("SELECT 1")
        except Exception as error:
            return f"the database does not answer ({error})"
        if not self._listening:
            self._listen_now.set()
            return "not listening for the other server processes' changes yet"
        return None

    # -- writes ----------------------------------------------------------------------------------

    async def _commit(self, ops: list[WriteOp]) -> None:
        """One transaction for the whole batch; its notices go out when it commits."""
        reconnected = False
        for attempt in range(DEADLOCK_RETRIES + 1):
            began = False
            try:
                async with self.pool.connection() as conn, conn.transaction():
                    began = True
                    await self._write_batch(conn, ops)
                if not self._listening:
                    self._listen_now.set()  # the database is back: so may the notice connection be
                return
            except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure) as error:
                if attempt == DEADLOCK_RETRIES:
                    raise StorageError(_describe(error)) from error
                log.info("a write met another process's in a deadlock; trying again (%d)", attempt + 1)
            except psycopg.OperationalError as error:
                # Cut before its BEGIN went through (a connection the database dropped while idle): nothing was
                # written, so it is safe to write again on a fresh connection. Cut later, it may have committed.
                if began or reconnected or attempt == DEADLOCK_RETRIES or not _cut(error):
                    raise StorageError(_describe(error)) from error
                reconnected = True
                await self.pool.check()
            except _Conflict as conflict:
                raise StorageError(str(conflict), conflict=True, tables=frozenset(conflict.tables)) from None
            except psycopg.errors.IntegrityError as error:
                raise StorageError(_describe(error), conflict=True) from error
            except (psycopg.Error, PoolTimeout, OSError) as error:
                raise StorageError(_describe(error)) from error

    async def _write_batch(self, conn: psycopg.AsyncConnection[Any], ops: list[WriteOp]) -> None:
        touched: set[str] = set()
        revised: set[str] = set()
        run: list[AppendAction] = []
        for op in ops:
            if isinstance(op, Probe):
                await conn.execute(_pg(op_statements(op)[0][0]))
                continue
            touched.add(op_table(op))
            if isinstance(op, AppendAction):
                run.append(op)
                continue
            await self._append(conn, run, revised)
            run = []
            changed = -1
            for statement, values in op_statements(op):
                changed = (await conn.execute(_pg(statement), values)).rowcount
            if changed == 0 and (reason := op_must_change(op)) is not None:
                raise _Conflict({op_table(op)}, reason)
            if not isinstance(op, AddChat):
                revised.add(op_table(op))
        await self._append(conn, run, revised)
        if revised:
            # In one order for every process: two batches touching the same tables never wait for each other in a circle.
            await conn.execute("UPDATE tables SET revision = revision + 1 WHERE id = ANY(%s)", (sorted(revised),))
        payloads = self._payloads(ops, touched, revised)
        await conn.execute("SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload", (CHANNEL, payloads))

    def _payloads(self, ops: list[WriteOp], touched: set[str], revised: set[str]) -> list[str]:
        """One notice per table the batch changed; a table whose only change is new moves gets them in its notice
        (the other processes then need not read them back: measured with bench/bench_capacity.py, a read per move)."""
        moves: dict[str, list[tuple[int, int, str]]] = {}
        only_moves = set(touched) - revised
        for op in ops:
            if isinstance(op, AppendAction):
                moves.setdefault(op.table_id, []).append((op.index, op.seat, op.text))
            else:
                only_moves.discard(op_table(op))  # a chat line, a seat: read it back as before
        payloads = []
        for table_id in sorted(touched):
            message: dict[str, Any] = {"table": table_id, "kind": CHANGED, "process": self.process_id}
            if table_id in only_moves and table_id in moves:
                message["moves"] = sorted(moves[table_id])
            payload = json.dumps(message)
            if len(payload) > NOTICE_BYTES:  # PostgreSQL's limit is 8000 bytes: a long batch is read back instead
                payload = json.dumps({"table": table_id, "kind": CHANGED, "process": self.process_id})
            payloads.append(payload)
        return payloads

    async def _append(self, conn: psycopg.AsyncConnection[Any], run: list[AppendAction], revised: set[str]) -> None:
        """Insert a run of moves with one statement (sorted, so concurrent batches lock rows in one order), then check gaps."""
        if not run:
            return
        run = sorted(run, key=lambda op: (op.table_id, op.index))
        inserted = await (
            await conn.execute(
                "INSERT INTO actions (table_id, idx, seat, text, at)"
                " SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::float8[])"
                " ON CONFLICT (table_id, idx) DO NOTHING RETURNING table_id, idx",
                (
                    [op.table_id for op in run],
                    [op.index for op in run],
                    [op.seat for op in run],
                    [op.text for op in run],
                    [op.at for op in run],
                ),
            )
        ).fetchall()
        # Every check names its tables, so the writer can fail just those and store the rest of the batch.
        landed = {(table_id, int(index)) for table_id, index in inserted}
        taken = {op.table_id for op in run if (op.table_id, op.index) not in landed}
        tables = sorted({op.table_id for op in run})
        gaps = await (
            await conn.execute(
                "SELECT table_id FROM actions WHERE table_id = ANY(%s) GROUP BY table_id HAVING COUNT(*) != MAX(idx) + 1", (tables,)
            )
        ).fetchall()
        checked = [op for op in run if op.previous is not None and op.index > 0 and op.table_id not in taken]
        wrong: list[tuple[Any, ...]] = []
        if checked:
            wrong = await (
                await conn.execute(
                    "SELECT e.table_id FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[]) AS e (table_id, idx, seat, text)"
                    " LEFT JOIN actions a ON a.table_id = e.table_id AND a.idx = e.idx"
                    " WHERE a.seat IS DISTINCT FROM e.seat OR a.text IS DISTINCT FROM e.text",
                    (
                        [op.table_id for op in checked],
                        [op.index - 1 for op in checked],
                        [op.previous[0] for op in checked if op.previous is not None],
                        [op.previous[1] for op in checked if op.previous is not None],
                    ),
                )
            ).fetchall()
        if taken:
            raise _Conflict(taken, "another server process stored a move at the same index first")
        if gaps:
            raise _Conflict({row[0] for row in gaps}, "a move does not follow its table's last move")
        if wrong:
            raise _Conflict({row[0] for row in wrong}, "a move was checked after a move that is not the one stored")
        finished = [op for op in run if op.finished]
        for op in finished:
            await conn.execute("UPDATE tables SET finished_at = %s WHERE id = %s", (op.at, op.table_id))
            revised.add(op.table_id)

    # -- reads -----------------------------------------------------------------------------------

    async def _fetch(self, statement: str | sql.Composed, values: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read; a read that met a connection the database had cut (after its restart) is made once more
        on a fresh one, since a read can always be repeated (a write cannot: it may have committed)."""
        for attempt in (0, 1):
            try:
                async with self.pool.connection() as conn:
                    return await (await conn.execute(statement, values)).fetchall()
            except psycopg.OperationalError as error:
                if attempt == 0 and _cut(error):
                    await self.pool.check()  # replace the pool's other dead connections too
                    continue
                raise StorageError(f"the database could not be read ({error})") from error
            except (psycopg.Error, PoolTimeout) as error:
                raise StorageError(f"the database could not be read ({error})") from error
        raise AssertionError("unreachable")

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its seats, actions and revision."""
        rows = await self._fetch(f"SELECT {TABLE_COLUMNS}, t.revision FROM tables t WHERE t.id = %s", (table_id,))
        if not rows:
            return None
        seats = await self._seats([table_id])
        actions = [
            (seat, text) for seat, text in await self._fetch("SELECT seat, text FROM actions WHERE table_id = %s ORDER BY idx", (table_id,))
        ]
        stored = stored_from_row(rows[0][:-1], seats[table_id], actions)
        stored.revision = int(rows[0][-1])
        return stored

    async def _seats(self, ids: list[str]) -> dict[str, list[Any]]:
        seats: dict[str, list[Any]] = {table_id: [] for table_id in ids}
        for row in await self._fetch(f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id = ANY(%s) ORDER BY table_id, seat", (ids,)):
            seats[row[0]].append(seat_from_row(row))
        return seats

    async def list_tables(self, status: str | None, game: str | None, limit: int, offset: int) -> TablePage:
        """A page of table summaries, newest first."""
        where, values = [], []
        if status is not None:
            if status not in STATUSES:
                return TablePage([], 0)
            where.append(f"({STATUS_SQL}) = %s")
            values.append(status)
        if game is not None:
            where.append("t.game = %s")
            values.append(game)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = (await self._fetch(f"SELECT COUNT(*) FROM tables t {clause}", values))[0][0]
        rows = await self._fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM tables t {clause} ORDER BY t.created_at DESC, t.id DESC LIMIT %s OFFSET %s",
            [*values, limit, offset],
        )
        seats = await self._seats([row[0] for row in rows])
        return TablePage([summary_from_row(row, seats[row[0]]) for row in rows], int(total))

    async def resumable(self, limit: int) -> list[str]:
        """Unfinished tables with a bot seat, most recently active first."""
        rows = await self._fetch(
            "SELECT t.id FROM tables t WHERE t.finished_at IS NULL AND t.closed_at IS NULL AND t.error IS NULL"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'bot')"
            f" ORDER BY {LAST_ACTIVE_SQL} DESC LIMIT %s",
            (limit,),
        )
        return [row[0] for row in rows]

    async def abandoned(self, idle_since: float) -> list[str]:
        """Unfinished, unclosed tables idle since ``idle_since``."""
        rows = await self._fetch(
            f"SELECT t.id FROM tables t WHERE t.finished_at IS NULL AND t.closed_at IS NULL AND {LAST_ACTIVE_SQL} < %s"
            f" ORDER BY {LAST_ACTIVE_SQL}",
            (idle_since,),
        )
        return [row[0] for row in rows]

    async def load_chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines, oldest first."""
        rows = await self._fetch(
            "SELECT idx, seat, name, text, at FROM chat WHERE table_id = %s ORDER BY idx DESC LIMIT %s", (table_id, limit)
        )
        return [ChatLine(*row) for row in reversed(rows)]

    async def chat_length(self, table_id: str) -> int:
        """The next chat index of a table."""
        return int((await self._fetch("SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = %s", (table_id,)))[0][0])

    async def load_reviews(self, table_id: str) -> dict[int, str]:
        """The stored reviews of a table by seat."""
        rows = await self._fetch("SELECT seat, review FROM reviews WHERE table_id = %s ORDER BY seat", (table_id,))
        return {int(seat): str(review) for seat, review in rows}

    async def count(self) -> int:
        """How many tables are stored."""
        return int((await self._fetch("SELECT COUNT(*) FROM tables"))[0][0])

    # -- what other processes changed -------------------------------------------------------------

    async def changes(self, table_id: str, moves: int, revision: int, chat: int) -> TableChanges | None:
        """The table's revision, its moves from index ``moves`` and chat lines from ``chat``, in one round trip."""
        rows = await self._fetch(
            "SELECT t.revision,"
            " (SELECT json_agg(json_build_array(a.idx, a.seat, a.text) ORDER BY a.idx) FROM actions a"
            "  WHERE a.table_id = t.id AND a.idx >= %s),"
            " (SELECT json_agg(json_build_array(c.idx, c.seat, c.name, c.text, c.at) ORDER BY c.idx) FROM chat c"
            "  WHERE c.table_id = t.id AND c.idx >= %s)"
            " FROM tables t WHERE t.id = %s",
            (moves, chat, table_id),
        )
        if not rows:
            return None
        stored_revision, actions, lines = rows[0]
        return TableChanges(
            int(stored_revision),
            [(int(index), int(seat), str(text)) for index, seat, text in actions or []],
            [ChatLine(int(index), int(seat), name, text, float(at)) for index, seat, name, text, at in lines or []],
        )

    async def _listen(self) -> None:
        """Hear the other processes' notices for as long as this process runs, connecting again after a failure."""
        delay = RECONNECT_FIRST_SECONDS
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True, options=KEEPALIVE_OPTIONS) as conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    self._listening = True
                    delay = RECONNECT_FIRST_SECONDS
                    if not first:
                        self._on_notice(Notice("", CHANGED))  # notices may have been missed: every table is looked at again
                    first = False
                    async for notify in conn.notifies():
                        self._heard(notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("lost the notice connection to PostgreSQL (%s); connecting again in %.1f s", error, delay)
            self._listening = False
            self._listen_now.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listen_now.wait(), delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    def _heard(self, payload: str) -> None:
        try:
            message = json.loads(payload)
        except json.JSONDecodeError:
            return
        if not isinstance(message, dict) or message.get("process") == self.process_id:
            return  # this process's own change: it knows it already
        if "room" in message:
            data = message.get("data")
            if self._rooms is not None and isinstance(data, dict):
                self._rooms.heard(str(message["room"]), data)
            return
        seat = message.get("seat")
        moves = message.get("moves")
        carried = None
        if isinstance(moves, list) and all(isinstance(move, list) and len(move) == 3 for move in moves):
            carried = tuple((int(index), int(at), str(text)) for index, at, text in moves)
        kind = str(message.get("kind", CHANGED))
        self._on_notice(Notice(str(message.get("table", "")), kind, seat if isinstance(seat, int) else None, carried))

    async def announce(self, table_id: str, kind: str, seat: int | None = None) -> None:
        """Tell the other processes (not stored: who is connected, which bot thinks)."""
        payload = json.dumps({"table": table_id, "kind": kind, "seat": seat, "process": self.process_id})
        with contextlib.suppress(psycopg.Error, PoolTimeout):
            async with self.pool.connection() as conn:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    # -- bot work ----------------------------------------------------------------------------------

    async def _lock_connection(self) -> psycopg.AsyncConnection[Any]:
        if self._locks is None or self._locks.closed:
            self.owned.clear()  # a new session holds no lock
            self._locks = await psycopg.AsyncConnection.connect(
                self.url,
                autocommit=True,
                keepalives=1,
                keepalives_idle=5,
                keepalives_interval=2,
                keepalives_count=3,
                options=KEEPALIVE_OPTIONS,
            )
        return self._locks

    async def own_bots(self, table_id: str) -> bool:
        """Take the table's bot lock if nobody holds it (already held by this process: True)."""
        async with self._locks_guard:
            if table_id in self.owned and self._locks is not None and not self._locks.closed:
                return True
            try:
                conn = await self._lock_connection()
                row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (bot_lock_key(table_id),))).fetchone()
            except psycopg.Error as error:
                log.warning("could not ask for the bot lock of table %s: %s", table_id, error, extra={"table": table_id})
                return False
            if row is not None and row[0]:
                self.owned.add(table_id)
                await self._note_owner(table_id)
                return True
            return False

    async def _note_owner(self, table_id: str) -> None:
        """Write down that this process moves the table's bots: if it dies holding them, another takes them over."""
        with contextlib.suppress(psycopg.Error, PoolTimeout):
            async with self.pool.connection() as conn:
                await conn.execute(
                    "INSERT INTO bot_owners (table_id, process) VALUES (%s, %s)"
                    " ON CONFLICT (table_id) DO UPDATE SET process = excluded.process",
                    (table_id, self.process_id),
                )

    async def release_bots(self, table_id: str) -> None:
        """Give the table's bot lock back."""
        async with self._locks_guard:
            if table_id not in self.owned:
                return
            self.owned.discard(table_id)
            with contextlib.suppress(psycopg.Error, PoolTimeout):
                async with self.pool.connection() as conn:  # let go on purpose: nobody is to take it over
                    await conn.execute("DELETE FROM bot_owners WHERE table_id = %s AND process = %s", (table_id, self.process_id))
            if self._locks is None or self._locks.closed:
                return
            with contextlib.suppress(psycopg.Error):
                await self._locks.execute("SELECT pg_advisory_unlock(%s)", (bot_lock_key(table_id),))

    async def holds_bot_locks(self) -> bool:
        """Whether the connection holding this process's bot locks is alive (if not, the locks are gone)."""
        async with self._locks_guard:
            if self._locks is None or self._locks.closed:
                return not self.owned
            try:
                await self._locks.execute("SELECT 1")
            except psycopg.Error:
                with contextlib.suppress(Exception):
                    await self._locks.close()
                return False
            return True

    async def orphaned(self, limit: int) -> list[str]:
        """Unfinished tables whose bots a process took and nobody holds now: that process died (or lost its session).

        A process that lets a table's bots go on purpose (the table went idle) erases its note, so tables
        waiting for people are not taken over: whichever process a person's move reaches takes them then.
        """
        rows = await self._fetch(
            "SELECT t.id FROM bot_owners o JOIN tables t ON t.id = o.table_id"
            " WHERE o.process <> %s AND t.finished_at IS NULL AND t.closed_at IS NULL AND t.error IS NULL"
            " AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1"
            "   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            "   AND l.classid::bigint = t.bot_lock >> 32 AND l.objid::bigint = t.bot_lock & 4294967295)"
            " ORDER BY random() LIMIT %s",
            (self.process_id, limit),
        )
        return [row[0] for row in rows]

    # -- limits shared by every process -------------------------------------------------------------

    async def wait_needed(self, limiter: str, client: str, per_second: float, burst: int) -> float:
        """A token bucket kept in a row: refilled and taken in one statement, on the database's clock.

        For a fast budget (a token a second or more: the actions budget, taken by every move) the process takes up
        to :data:`LEASE_TOKENS` tokens at once and spends them within :data:`LEASE_SECONDS`: one round trip serves
        several moves (bench/bench_capacity.py measured one per move otherwise). Tokens taken are gone from the
        shared bucket whether spent or not, so the budget across processes is never looser for it.
        """
        if per_second <= 0:
            return 0.0
        burst = max(1, burst)
        key = (limiter, client)
        while (asking := self._asking.get(key)) is not None:
            await asyncio.shield(asking)  # one round trip at a time per bucket: the others spend what it brings
        now = asyncio.get_running_loop().time()
        left, until = self._leases.get(key, (0, 0.0))
        if left > 0 and now < until:
            self._leases[key] = (left - 1, until)
            return 0.0
        asking = self._asking[key] = asyncio.get_running_loop().create_future()
        try:
            return await self._take_tokens(key, per_second, burst, now)
        finally:
            del self._asking[key]
            asking.set_result(None)

    async def _take_tokens(self, key: tuple[str, str], per_second: float, burst: int, now: float) -> float:
        limiter, client = key
        lease = max(1, min(LEASE_TOKENS, int(per_second), burst))
        refill = "LEAST(%(burst)s::float8, b.tokens + (excluded.at - b.at) * %(rate)s::float8)"
        grant = f"CASE WHEN {refill} >= 1 THEN LEAST(%(lease)s::float8, FLOOR({refill})) ELSE 0 END"
        rows = await self._fetch(
            "INSERT INTO rate_buckets AS b (name, client, tokens, at, taken)"
            f" VALUES (%(name)s, %(client)s, %(burst)s::float8 - %(lease)s, {NOW}, %(lease)s)"
            f" ON CONFLICT (name, client) DO UPDATE SET tokens = {refill} - {grant}, taken = {grant}, at = excluded.at"
            " RETURNING taken, tokens",
            {"name": limiter, "client": client, "burst": burst, "rate": per_second, "lease": lease},
        )
        taken, tokens = int(rows[0][0]), float(rows[0][1])
        if taken >= 1:
            if taken > 1:
                self._leases[key] = (taken - 1, now + LEASE_SECONDS)
                if len(self._leases) > 10_000:
                    self._leases = {k: v for k, v in self._leases.items() if v[1] > now}
            else:
                self._leases.pop(key, None)
            return 0.0
        return (1.0 - tokens) / per_second

    async def open_socket(self, table_id: str, client: str, seat: int | None, per_table: int, per_client: int) -> int:
        """Count the socket in the shared table, under locks on the table's and the client's counts."""
        self._tickets += 1
        ticket = self._tickets
        live = f"p.seen_at > {NOW} - {PROCESS_TIMEOUT_SECONDS}"
        try:
            async with self.pool.connection() as conn, conn.transaction():
                # Always the table's lock first, then the client's: two openings never wait for each other in a circle.
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtext('greenlight-sockets/table/' || %s)),"
                    " pg_advisory_xact_lock(hashtext('greenlight-sockets/client/' || %s))",
                    (table_id, client),
                )
                counts = await (
                    await conn.execute(
                        "SELECT COUNT(*) FILTER (WHERE s.table_id = %s), COUNT(*) FILTER (WHERE s.client = %s)"
                        f" FROM sockets s JOIN server_processes p ON p.id = s.process WHERE (s.table_id = %s OR s.client = %s) AND {live}",
                        (table_id, client, table_id, client),
                    )
                ).fetchone()
                assert counts is not None
                if counts[0] >= per_table:
                    raise SocketRefused(f"this table already has {per_table} connections; try again later")
                if counts[1] >= per_client:
                    raise SocketRefused(f"your address already holds {per_client} connections; close some first")
                await conn.execute(
                    "INSERT INTO sockets (process, ticket, table_id, client, seat) VALUES (%s, %s, %s, %s, %s)",
                    (self.process_id, ticket, table_id, client, seat),
                )
        except (psycopg.Error, PoolTimeout) as error:
            raise StorageError(f"the database could not count the connection ({error})") from error
        return ticket

    async def greet_socket(self, ticket: int, table_id: str, seat: int | None) -> None:
        """The socket said hello as ``seat`` (None: a spectator): it now counts as connected, and the others hear of it."""
        with contextlib.suppress(psycopg.Error, PoolTimeout):
            async with self.pool.connection() as conn:
                await conn.execute(
                    "UPDATE sockets SET seat = %s, greeted = 1 WHERE process = %s AND ticket = %s", (seat, self.process_id, ticket)
                )
        await self.announce(table_id, PRESENCE)

    async def close_socket(self, ticket: int) -> None:
        """Forget the socket, and tell the others who is connected now."""
        rows: list[tuple[Any, ...]] = []
        with contextlib.suppress(psycopg.Error, PoolTimeout):
            async with self.pool.connection() as conn:
                rows = await (
                    await conn.execute(
                        "DELETE FROM sockets WHERE process = %s AND ticket = %s RETURNING table_id, greeted", (self.process_id, ticket)
                    )
                ).fetchall()
        for table_id, greeted in rows:
            if greeted:
                await self.announce(table_id, PRESENCE)

    async def presence(self, table_id: str) -> Presence:
        """Seats and spectators connected to the table through the other live processes."""
        rows = await self._fetch(
            "SELECT s.seat FROM sockets s JOIN server_processes p ON p.id = s.process"
            f" WHERE s.table_id = %s AND s.greeted = 1 AND s.process <> %s AND p.seen_at > {NOW} - {PROCESS_TIMEOUT_SECONDS}",
            (table_id, self.process_id),
        )
        seats = frozenset(int(row[0]) for row in rows if row[0] is not None)
        return Presence(seats, sum(1 for row in rows if row[0] is None))

    async def _beat(self) -> None:
        """Refresh this process's heartbeat; forget processes long gone and rate buckets long full."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                async with self.pool.connection() as conn:
                    await conn.execute(
                        f"INSERT INTO server_processes (id, started_at, seen_at) VALUES (%s, {NOW}, {NOW})"
                        f" ON CONFLICT (id) DO UPDATE SET seen_at = {NOW}",
                        (self.process_id,),
                    )
                    await conn.execute(f"DELETE FROM server_processes WHERE seen_at < {NOW} - %s", (PROCESS_TIMEOUT_SECONDS * 4,))
                    await conn.execute(f"DELETE FROM rate_buckets WHERE at < {NOW} - 3600")
                    await conn.execute(
                        "DELETE FROM bot_owners o USING tables t WHERE t.id = o.table_id"
                        " AND (t.finished_at IS NOT NULL OR t.closed_at IS NOT NULL OR t.error IS NOT NULL)"
                    )
            except Exception as error:
                log.warning("could not refresh this process's heartbeat: %s", error)


async def prepare_schema(conn: psycopg.AsyncConnection[Any]) -> tuple[int | None, int]:
    """Create the schema in an empty database, or check it is the one this server reads; (found, now) versions.

    Runs under an advisory lock, so processes starting together never create it twice.
    """
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        exists = await (await conn.execute("SELECT to_regclass('meta') IS NOT NULL")).fetchone()
        found: int | None = None
        if exists is not None and exists[0]:
            row = await (await conn.execute("SELECT value FROM meta WHERE key = 'schema'")).fetchone()
            found = int(row[0]) if row is not None else None
        if found is not None and found != SCHEMA_VERSION:
            raise StorageError(f"the PostgreSQL database uses storage schema {found}; this server reads schema {SCHEMA_VERSION}")
        await conn.execute(SCHEMA)  # type: ignore[arg-type]  # a fixed script: no parameters
        await conn.execute("INSERT INTO meta (key, value) VALUES ('schema', %s) ON CONFLICT (key) DO NOTHING", (str(SCHEMA_VERSION),))
    return found, SCHEMA_VERSION


async def migrate(url: str) -> tuple[int | None, int]:
    """Create or migrate the schema of the PostgreSQL database at ``url`` (``greenlight db migrate``); (found, now)."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        return await prepare_schema(conn)


def _safe_url(url: str) -> str:
    """The connection string without its password (for messages and logs)."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    info.pop("password", None)
    return " ".join(f"{key}={value}" for key, value in info.items())
