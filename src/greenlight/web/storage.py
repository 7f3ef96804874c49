"""Where tables live between server restarts: a small interface and its SQLite implementation.

A stored table is its :class:`~greenlight.core.record.Record` (game, version,
options, players, seed, actions) plus its seats. Seat tokens are never stored:
only their SHA-256 digests are. Every change is a :data:`WriteOp`; the server
hands the store a batch of them (moves of many tables, say) and the store
applies the whole batch in **one** committed transaction, so one disk sync
covers many moves (group commit, see :mod:`greenlight.web.writer`). Nothing is
acknowledged before its batch is committed.

>>> store = SqliteStore(":memory:")
>>> record = Record("cinecitta", "1", 3, 7, {"movie_awards": False}, [])
>>> seats = [SeatRow(0, "human", None, "Ann", hash_token("t0")), SeatRow(1, "bot", "random", "Bot"), SeatRow(2, "bot", "random", "Bot")]
>>> store.write([CreateTable(StoredTable("abc", record, seats, created_at=1.0))])
>>> store.write([AppendAction("abc", 0, 2, "offer D6 30", finished=False)])
>>> store.load_table("abc").record.actions
[(2, 'offer D6 30')]
>>> [summary.status for summary in store.list_tables().tables]
['open']
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlight.core.record import Record

SCHEMA_VERSION = 3

#: Most moves in one INSERT statement (five bound values each, far below SQLite's limit on bound values).
APPEND_CHUNK = 1000

#: Table statuses a listing can filter on.
STATUSES = ("open", "running", "finished", "closed", "broken")

#: The tables every SQL store keeps, the same in SQLite and PostgreSQL; ``{real}`` is each one's 64-bit float type.
TABLES_SQL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    version TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    seed TEXT NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0,
    options TEXT NOT NULL,
    created_at {real} NOT NULL,
    finished_at {real},
    creator TEXT NOT NULL DEFAULT '',
    closed_at {real},
    closed_reason TEXT,
    error TEXT,
    host_hash TEXT,
    rematch_of TEXT,
    rematch TEXT,
    start TEXT,
    hints INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tables_by_creation ON tables (created_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot TEXT,
    name TEXT NOT NULL,
    token_hash TEXT,
    joined_at {real},
    open INTEGER NOT NULL DEFAULT 0,
    stands_in_for TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    review TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""
SCHEMA = TABLES_SQL.format(real="REAL")

#: Schema 3 keeps the position a table started from (a game set up from a position), whether its host allows hints for
#: everyone, and the reviews of finished games (the reviews table is made by SCHEMA).
MIGRATE_2_TO_3 = ("ALTER TABLE tables ADD COLUMN start TEXT", "ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0")

#: Schema 1 kept the seed in an INTEGER column (at most 64 bits); schema 2 keeps it as decimal text
#: (secret seeds have 128 bits) and adds what listing, unloading and expiry need without replaying.
MIGRATE_1_TO_2 = """
CREATE TABLE tables_v2 (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL, num_players INTEGER NOT NULL,
    seed TEXT NOT NULL, seed_chosen INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL,
    created_at REAL NOT NULL, finished_at REAL,
    creator TEXT NOT NULL DEFAULT '', closed_at REAL, closed_reason TEXT, error TEXT,
    host_hash TEXT, rematch_of TEXT, rematch TEXT
);
INSERT INTO tables_v2 (id, game, version, num_players, seed, seed_chosen, options, created_at, finished_at)
    SELECT t.id, t.game, t.version, t.num_players, CAST(t.seed AS TEXT), 1, t.options, t.created_at, t.finished_at
    FROM tables t;
DROP TABLE tables;
ALTER TABLE tables_v2 RENAME TO tables;
CREATE INDEX IF NOT EXISTS tables_by_creation ON tables (created_at DESC, id DESC);
ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN stands_in_for TEXT;
"""

#: A table's number of moves and its last activity, read through the actions' primary key (a move writes only its own row).
MOVES_SQL = "(SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id)"
LAST_ACTIVE_SQL = "COALESCE((SELECT a.at FROM actions a WHERE a.table_id = t.id ORDER BY a.idx DESC LIMIT 1), t.created_at)"

#: A table's status from its row alone (seats decide between open and running).
STATUS_SQL = """CASE
    WHEN t.error IS NOT NULL THEN 'broken'
    WHEN t.finished_at IS NOT NULL THEN 'finished'
    WHEN t.closed_at IS NOT NULL THEN 'closed'
    WHEN EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'human' AND s.joined_at IS NULL) THEN 'open'
    ELSE 'running' END"""


class StorageError(Exception):
    """A write the store could not make (disk full, database locked, I/O error); nothing of it was stored.

    ``conflict`` marks a write refused because of what is already stored (an
    action index taken): retrying the same write can never succeed. ``tables``
    names the tables whose writes conflicted, when the store could tell (the
    other writes of the batch can then be tried again together).
    """

    def __init__(self, message: str, *, conflict: bool = False, tables: frozenset[str] = frozenset()) -> None:
        super().__init__(message)
        self.message = message
        self.conflict = conflict
        self.tables = tables


def new_token() -> str:
    """A fresh secret seat token (URL-safe, 192 bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256 hex digest (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Whether ``token`` is the one whose digest is ``token_hash`` (constant-time comparison)."""
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


@dataclass(slots=True)
class SeatRow:
    """One seat of a stored table: a human (with a hashed token) or a bot level."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None = None
    joined: bool = False
    #: A human seat anyone may take from the lobby (nobody holds its link yet).
    open: bool = False
    #: For a bot that took a person's seat: that person's name (a person given the seat back gets it again).
    stands_in_for: str | None = None


@dataclass(slots=True)
class ChatLine:
    """One chat message at a table (text only; a seat's, or the server's with ``seat`` -1)."""

    index: int
    seat: int
    name: str
    text: str
    at: float


@dataclass(slots=True)
class StoredTable:
    """A table as the store keeps it: the record plus its seats and life-cycle facts."""

    id: str
    record: Record
    seats: list[SeatRow]
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    #: Whether the creator chose the seed (and so may know every hidden card).
    seed_chosen: bool = False
    #: Who created the table (a digest of the client's address), for fair bot work.
    creator: str = ""
    #: When the last move (or the creation) happened; read from the actions, never written.
    updated_at: float | None = None
    closed_at: float | None = None
    closed_reason: str | None = None
    error: str | None = None
    #: Digest of the host's token (the creator's link to manage the table).
    host_hash: str | None = None
    #: The table this one is a rematch of, and the rematch of this one.
    rematch_of: str | None = None
    rematch: str | None = None
    #: Whether the host allows hints for everyone (without it, only a seat whose every opponent is a bot may ask).
    hints: bool = False
    #: How many times the table's row, seats or chat changed other than by a move (kept by shared stores only).
    revision: int = 0


@dataclass(slots=True)
class TableSummary:
    """What a listing shows of a table, read without its actions."""

    id: str
    game: str
    version: str
    num_players: int
    options: dict[str, object]
    seats: list[SeatRow]
    created_at: float
    finished_at: float | None
    updated_at: float
    moves: int
    status: str
    seed_chosen: bool
    closed_reason: str | None
    error: str | None


@dataclass(slots=True)
class TablePage:
    """One page of a listing and how many tables match in all."""

    tables: list[TableSummary]
    total: int


# -- writes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateTable:
    """Store a new table with its seats (and any actions its record already holds)."""

    table: StoredTable


@dataclass(frozen=True, slots=True)
class AppendAction:
    """Store action number ``index``; ``finished`` marks the game as over.

    Refused (conflict) if ``index`` is taken, if move ``index - 1`` is not
    stored, or if it is not ``previous`` (its seat and text), the move this one
    was checked after: a server process never stores a move computed on a
    state that another process's move replaced.
    """

    table_id: str
    index: int
    seat: int
    text: str
    finished: bool
    at: float = field(default_factory=time.time)
    previous: tuple[int, str] | None = None


@dataclass(frozen=True, slots=True)
class MarkJoined:
    """Note that a human seat's token has been used at least once."""

    table_id: str
    seat: int
    at: float = field(default_factory=time.time)


@dataclass(frozen=True, slots=True)
class MarkBroken:
    """Note that the stored record no longer replays on this engine, and why."""

    table_id: str
    error: str


@dataclass(frozen=True, slots=True)
class CloseTable:
    """End an unfinished table without a result (``reason``: for example ``expired``)."""

    table_id: str
    reason: str
    at: float = field(default_factory=time.time)


@dataclass(frozen=True, slots=True)
class UpdateSeat:
    """Change who sits at a seat: a person or a bot, the name, the token's digest, whether it is open to anyone.

    ``was`` is the seat's occupant (kind and token digest) the change was decided on: if the stored seat has
    another by then (someone took it through another server process), the write is a conflict and changes
    nothing. None changes the seat whoever holds it (copying tables).
    """

    table_id: str
    seat: SeatRow
    was: tuple[str, str | None] | None = None


@dataclass(frozen=True, slots=True)
class UpdateHost:
    """A new host token's digest."""

    table_id: str
    host_hash: str


@dataclass(frozen=True, slots=True)
class AddChat:
    """Store one chat line."""

    table_id: str
    line: ChatLine


@dataclass(frozen=True, slots=True)
class LinkRematch:
    """Note that ``rematch_id`` is the rematch of ``table_id`` (a conflict if it already has one)."""

    table_id: str
    rematch_id: str


@dataclass(frozen=True, slots=True)
class UpdateHints:
    """The host allows (or stops) hints for every seat."""

    table_id: str
    on: bool


@dataclass(frozen=True, slots=True)
class SaveReview:
    """Store (or replace) the review of one seat of a finished table, as ``review.json`` text."""

    table_id: str
    seat: int
    review: str
    at: float = field(default_factory=time.time)


@dataclass(frozen=True, slots=True)
class Probe:
    """A write that changes nothing: whether the database takes writes now (``/api/ready`` after writes failed)."""

    table_id: str = ""


WriteOp = (
    Probe
    | CreateTable
    | AppendAction
    | MarkJoined
    | MarkBroken
    | CloseTable
    | UpdateSeat
    | UpdateHost
    | AddChat
    | LinkRematch
    | SaveReview
    | UpdateHints
)


class TableStore(ABC):
    """The storage interface the server uses; every method is synchronous and thread-safe."""

    @abstractmethod
    def write(self, ops: Sequence[WriteOp]) -> None:
        """Apply every op in one committed transaction, or none of them (raising :class:`StorageError`)."""

    @abstractmethod
    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with all its actions, or None."""

    @abstractmethod
    def load_all(self) -> list[StoredTable]:
        """Every table with all its actions, oldest first (for tools and tests; the server loads tables one at a time)."""

    @abstractmethod
    def resumable(self, limit: int) -> list[str]:
        """Ids of unfinished, unclosed tables with a bot seat, most recently active first (bots to restart at start-up)."""

    @abstractmethod
    def list_tables(self, status: str | None = None, game: str | None = None, limit: int = 50, offset: int = 0) -> TablePage:
        """Tables newest first, optionally of one status and one game."""

    @abstractmethod
    def abandoned(self, idle_since: float) -> list[str]:
        """Ids of unfinished, unclosed tables with no move (and no creation) since ``idle_since``."""

    @abstractmethod
    def load_chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of a table, oldest first."""

    @abstractmethod
    def chat_length(self, table_id: str) -> int:
        """How many chat lines a table has (the next line's index)."""

    @abstractmethod
    def load_reviews(self, table_id: str) -> dict[int, str]:
        """The stored reviews of a table (``review.json`` text) by seat."""

    def count(self) -> int:
        """How many tables are stored."""
        return self.list_tables(limit=0).total

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""

    # Single-op conveniences (tools, tests).

    def create_table(self, table: StoredTable) -> None:
        """Store a new table."""
        self.write([CreateTable(table)])

    def append_action(self, table_id: str, index: int, seat: int, text: str, *, finished: bool) -> None:
        """Store one action."""
        self.write([AppendAction(table_id, index, seat, text, finished)])


class SqliteStore(TableStore):
    """SQLite storage (stdlib ``sqlite3``): WAL journal, full sync, one writing and one reading connection.

    ``busy_timeout`` bounds how long a write waits for a lock held by another
    process before it fails with :class:`StorageError`. Reads run on their own
    connection (WAL lets them proceed while a write is being synced).
    """

    def __init__(self, path: str | Path, *, busy_timeout: float = 3.0) -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        if not memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()
        #: The schema the file had when it was opened (None: a new file) and the one it has now (after migrating).
        self.schema_found: int | None = None
        self.schema_version = SCHEMA_VERSION
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=busy_timeout)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed action survives even a power cut, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        bound_wal(self._db)
        #: A write failed for want of disk space: the next write first checkpoints and truncates the write-ahead log.
        self._checkpoint_owed = False
        with self._write_lock:
            self._prepare_schema()
        if memory:
            self._read_db, self._read_lock = self._db, self._write_lock  # a second connection would be another database
        else:
            self._read_db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=busy_timeout)
            self._read_lock = threading.Lock()

    def _prepare_schema(self) -> None:
        exists = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is not None
        if not exists:
            self._db.executescript(SCHEMA)
            self._db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            return
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        found = int(row[0]) if row is not None else SCHEMA_VERSION
        self.schema_found = found
        if found == 1:
            self._migrate_from_1()
            found = 2
        if found == 2:
            self._db.execute("BEGIN IMMEDIATE")
            for statement in MIGRATE_2_TO_3:
                self._db.execute(statement)
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
            self._db.execute("COMMIT")
        elif found != SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} uses storage schema {found}; this server reads schema {SCHEMA_VERSION}")
        self._db.executescript(SCHEMA)

    def _migrate_from_1(self) -> None:
        # SQLite cannot change a column's type: rebuild the table (foreign keys off while the referenced table is replaced).
        self._db.execute("PRAGMA foreign_keys=OFF")
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATE_1_TO_2.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        finally:
            self._db.execute("PRAGMA foreign_keys=ON")

    # -- writes -------------------------------------------------------------------------------

    def write(self, ops: Sequence[WriteOp]) -> None:
        """Apply ``ops`` in one transaction (one sync for all of them)."""
        if not ops:
            return
        with self._write_lock:
            if self._checkpoint_owed:
                self._checkpoint()
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                self._note_full(error)
                raise StorageError(_describe(error)) from error
            try:
                run: list[AppendAction] = []
                for op in ops:
                    if isinstance(op, AppendAction):
                        run.append(op)
                        continue
                    self._append(run)
                    run = []
                    self._apply(op)
                self._append(run)
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                self._note_full(error)
                raise StorageError(_describe(error), conflict=isinstance(error, sqlite3.IntegrityError)) from error
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _note_full(self, error: sqlite3.Error) -> None:
        if "full" in str(error).lower() or "disk i/o" in str(error).lower():
            self._checkpoint_owed = True

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database and truncate it to nothing, giving its space back to the disk.

        After a full disk the log may hold the space the next write needs; this succeeds once the disk has room for
        the pages the log carries, and is tried before every write until it does.
        """
        try:
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            return
        self._checkpoint_owed = bool(busy)

    def _append(self, run: list[AppendAction]) -> None:
        """Insert a run of moves with one statement, then check that each table's moves still run 0, 1, 2, ...

        Few SQLite calls per batch matter: each one hands the GIL to the event
        loop and has to get it back.
        """
        if not run:
            return
        for start in range(0, len(run), APPEND_CHUNK):
            chunk = run[start : start + APPEND_CHUNK]
            rows = ", ".join(["(?, ?, ?, ?, ?)"] * len(chunk))
            values = [value for op in chunk for value in (op.table_id, op.index, op.seat, op.text, op.at)]
            self._db.execute(f"INSERT INTO actions (table_id, idx, seat, text, at) VALUES {rows}", values)
        tables = sorted({op.table_id for op in run})
        marks = ",".join("?" * len(tables))
        # The primary key refuses a second move N; this refuses a move N without a move N-1 before it.
        gaps = self._db.execute(
            f"SELECT table_id FROM actions WHERE table_id IN ({marks}) GROUP BY table_id HAVING COUNT(*) != MAX(idx) + 1", tables
        ).fetchall()
        if gaps:
            raise sqlite3.IntegrityError(f"a move does not follow its table's last move (table {', '.join(row[0] for row in gaps)})")
        checked = [op for op in run if op.previous is not None and op.index > 0]
        for start in range(0, len(checked), APPEND_CHUNK):
            chunk = checked[start : start + APPEND_CHUNK]
            rows = ", ".join(["(?, ?, ?, ?)"] * len(chunk))
            values = [value for op in chunk for value in (op.table_id, op.index - 1, *op.previous)]  # type: ignore[misc]
            wrong = self._db.execute(
                f"WITH expected (table_id, idx, seat, text) AS (VALUES {rows}) SELECT e.table_id FROM expected e"
                " LEFT JOIN actions a ON a.table_id = e.table_id AND a.idx = e.idx WHERE a.seat IS NOT e.seat OR a.text IS NOT e.text",
                values,
            ).fetchall()
            if wrong:
                raise sqlite3.IntegrityError(f"a move was checked after a move that is not the one stored (table {wrong[0][0]})")
        finished = [(op.at, op.table_id) for op in run if op.finished]
        if finished:
            self._db.executemany("UPDATE tables SET finished_at = ? WHERE id = ?", finished)

    def _apply(self, op: WriteOp) -> None:
        changed = -1
        for statement, values in op_statements(op):
            changed = self._db.execute(statement, values).rowcount
        if changed == 0 and (reason := op_must_change(op)) is not None:
            # Named like PostgreSQL's conflicts, so the writer stores the rest of the batch together.
            raise StorageError(f"{reason} (table {op_table(op)})", conflict=True, tables=frozenset({op_table(op)}))

    # -- reads --------------------------------------------------------------------------------

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table."""
        found = self._load("WHERE t.id = ?", (table_id,))
        return found[0] if found else None

    def load_all(self) -> list[StoredTable]:
        """Every table."""
        return self._load("", ())

    def resumable(self, limit: int) -> list[str]:
        """Unfinished tables with a bot seat, most recently active first."""
        with self._read_lock:
            rows = self._read_db.execute(
                "SELECT t.id FROM tables t WHERE t.finished_at IS NULL AND t.closed_at IS NULL AND t.error IS NULL"
                " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'bot')"
                f" ORDER BY {LAST_ACTIVE_SQL} DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [row[0] for row in rows]

    def abandoned(self, idle_since: float) -> list[str]:
        """Unfinished, unclosed tables idle since ``idle_since``."""
        with self._read_lock:
            rows = self._read_db.execute(
                f"SELECT t.id FROM tables t WHERE t.finished_at IS NULL AND t.closed_at IS NULL AND {LAST_ACTIVE_SQL} < ?"
                f" ORDER BY {LAST_ACTIVE_SQL}",
                (idle_since,),
            ).fetchall()
        return [row[0] for row in rows]

    def list_tables(self, status: str | None = None, game: str | None = None, limit: int = 50, offset: int = 0) -> TablePage:
        """A page of table summaries, newest first."""
        where, params = [], []
        if status is not None:
            where.append(f"({STATUS_SQL}) = ?")
            params.append(status)
        if game is not None:
            where.append("t.game = ?")
            params.append(game)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with self._read_lock:
            total = self._read_db.execute(f"SELECT COUNT(*) FROM tables t {clause}", params).fetchone()[0]
            rows = self._read_db.execute(
                f"SELECT {SUMMARY_COLUMNS} FROM tables t {clause} ORDER BY t.created_at DESC, t.id DESC LIMIT ? OFFSET ?",
                [*params, limit, offset],
            ).fetchall()
            seats = self._seats([row[0] for row in rows])
        return TablePage([summary_from_row(row, seats[row[0]]) for row in rows], int(total))

    def _seats(self, ids: list[str]) -> dict[str, list[SeatRow]]:
        seats: dict[str, list[SeatRow]] = {table_id: [] for table_id in ids}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self._read_db.execute(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat", chunk
            ):
                seats[row[0]].append(seat_from_row(row))
        return seats

    def _load(self, where: str, params: tuple[object, ...]) -> list[StoredTable]:
        with self._read_lock:
            rows = self._read_db.execute(f"SELECT {TABLE_COLUMNS} FROM tables t {where} ORDER BY t.created_at, t.id", params).fetchall()
            ids = [row[0] for row in rows]
            seats = self._seats(ids)
            actions: dict[str, list[tuple[int, str]]] = {}
            for table_id in ids:
                actions[table_id] = [
                    (seat, text)
                    for seat, text in self._read_db.execute("SELECT seat, text FROM actions WHERE table_id = ? ORDER BY idx", (table_id,))
                ]
        return [stored_from_row(row, seats[row[0]], actions[row[0]]) for row in rows]

    def load_chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of a table, oldest first."""
        with self._read_lock:
            rows = self._read_db.execute(
                "SELECT idx, seat, name, text, at FROM chat WHERE table_id = ? ORDER BY idx DESC LIMIT ?", (table_id, limit)
            ).fetchall()
        return [ChatLine(*row) for row in reversed(rows)]

    def chat_length(self, table_id: str) -> int:
        """The next chat index of a table."""
        with self._read_lock:
            row = self._read_db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM chat WHERE table_id = ?", (table_id,)).fetchone()
        return int(row[0])

    def load_reviews(self, table_id: str) -> dict[int, str]:
        """The stored reviews of a table by seat."""
        with self._read_lock:
            rows = self._read_db.execute("SELECT seat, review FROM reviews WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()
        return {int(seat): str(review) for seat, review in rows}

    def close(self) -> None:
        """Close the connections."""
        with self._write_lock:
            self._db.close()
        if self._read_db is not self._db:
            with self._read_lock:
                self._read_db.close()


#: The write-ahead log is checkpointed once it holds this many pages, and truncated to this size after a checkpoint:
#: SQLite's own defaults (1,000 pages, never truncated) let the log alone fill a small disk, and then no checkpoint
#: can run to empty it.
WAL_CHECKPOINT_PAGES = 256
WAL_SIZE_LIMIT_BYTES = 1024 * 1024


def bound_wal(db: sqlite3.Connection) -> None:
    """Keep a connection's write-ahead log small (see :data:`WAL_CHECKPOINT_PAGES`)."""
    db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
    db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT_BYTES}")


def op_table(op: WriteOp) -> str:
    """The id of the table ``op`` writes to."""
    return op.table.id if isinstance(op, CreateTable) else op.table_id


# -- the SQL of each write (standard SQL with ? placeholders: SQLite runs it as is, PostgreSQL with %s) ------------------


def op_statements(op: WriteOp) -> list[tuple[str, Sequence[object]]]:
    """The statements that store ``op`` (every op but :class:`AppendAction`, which stores are free to write in runs)."""
    if isinstance(op, CreateTable):
        return _create_statements(op.table)
    if isinstance(op, Probe):
        return [("UPDATE meta SET value = value WHERE key = 'schema'", ())]
    if isinstance(op, UpdateHints):
        return [("UPDATE tables SET hints = ? WHERE id = ?", (int(op.on), op.table_id))]
    if isinstance(op, SaveReview):
        statement = (
            "INSERT INTO reviews (table_id, seat, review, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET review = excluded.review, at = excluded.at"
        )
        return [(statement, (op.table_id, op.seat, op.review, op.at))]
    if isinstance(op, UpdateSeat):
        row = op.seat
        statement = (
            "UPDATE seats SET kind = ?, bot = ?, name = ?, token_hash = ?, open = ?, stands_in_for = ?,"
            " joined_at = CASE WHEN ? = 1 THEN COALESCE(joined_at, ?) ELSE NULL END WHERE table_id = ? AND seat = ?"
        )
        values = (row.kind, row.bot, row.name, row.token_hash, int(row.open), row.stands_in_for, int(row.joined), time.time())
        if op.was is None:
            return [(statement, (*values, op.table_id, row.seat))]
        kind, token_hash = op.was
        guarded = f"{statement} AND kind = ? AND COALESCE(token_hash, '') = ?"
        return [(guarded, (*values, op.table_id, row.seat, kind, token_hash or ""))]
    if isinstance(op, AddChat):
        line = op.line
        statement = "INSERT INTO chat (table_id, idx, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)"
        return [(statement, (op.table_id, line.index, line.seat, line.name, line.text, line.at))]
    if isinstance(op, UpdateHost):
        return [("UPDATE tables SET host_hash = ? WHERE id = ?", (op.host_hash, op.table_id))]
    if isinstance(op, LinkRematch):
        return [("UPDATE tables SET rematch = ? WHERE id = ? AND rematch IS NULL", (op.rematch_id, op.table_id))]
    if isinstance(op, MarkJoined):
        return [("UPDATE seats SET joined_at = ? WHERE table_id = ? AND seat = ? AND joined_at IS NULL", (op.at, op.table_id, op.seat))]
    if isinstance(op, MarkBroken):
        return [("UPDATE tables SET error = ? WHERE id = ?", (op.error, op.table_id))]
    if isinstance(op, CloseTable):
        statement = "UPDATE tables SET closed_at = ?, closed_reason = ? WHERE id = ? AND closed_at IS NULL AND finished_at IS NULL"
        return [(statement, (op.at, op.reason, op.table_id))]
    raise TypeError(f"{type(op).__name__} is written in runs, not one by one")


def op_must_change(op: WriteOp) -> str | None:
    """Why ``op`` conflicts if its statement changes no row (it was decided on a seat or table that has since
    changed), or None for an op that may change nothing."""
    if isinstance(op, UpdateSeat) and op.was is not None:
        return f"seat {op.seat.seat + 1} changed meanwhile (someone may have just taken it)"
    if isinstance(op, LinkRematch):
        return "the table already has a rematch"
    return None


def _create_statements(table: StoredTable) -> list[tuple[str, Sequence[object]]]:
    record = table.record
    now = time.time()
    statements: list[tuple[str, Sequence[object]]] = [
        (
            "INSERT INTO tables (id, game, version, num_players, seed, seed_chosen, options, created_at, finished_at, creator,"
            " host_hash, rematch_of, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(table.id, record.game, record.version, record.num_players, str(record.seed), int(table.seed_chosen)),
                *(json.dumps(record.options), table.created_at, table.finished_at, table.creator, table.host_hash, table.rematch_of),
                json.dumps(record.start) if record.start is not None else None,
            ),
        )
    ]
    statements += [
        (
            f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table.id, s.seat, s.kind, s.bot, s.name, s.token_hash, now if s.joined else None, int(s.open), s.stands_in_for),
        )
        for s in table.seats
    ]
    statements += [
        ("INSERT INTO actions (table_id, idx, seat, text, at) VALUES (?, ?, ?, ?, ?)", (table.id, index, seat, text, now))
        for index, (seat, text) in enumerate(record.actions)
    ]
    return statements


# -- rows shared by every SQL store (the same columns in SQLite and PostgreSQL) ---------------------

#: What a loaded table reads of its row (see :func:`stored_from_row`).
TABLE_COLUMNS = (
    "t.id, t.game, t.version, t.num_players, t.seed, t.options, t.created_at, t.finished_at, t.seed_chosen, t.creator,"
    f" {LAST_ACTIVE_SQL}, t.closed_at, t.closed_reason, t.error, t.host_hash, t.rematch_of, t.rematch, t.start, t.hints"
)
#: What a listing reads of a table's row (see :func:`summary_from_row`).
SUMMARY_COLUMNS = (
    f"t.id, t.game, t.version, t.num_players, t.options, t.created_at, t.finished_at, {LAST_ACTIVE_SQL}, {MOVES_SQL},"
    f" {STATUS_SQL}, t.seed_chosen, t.closed_reason, t.error"
)
#: What a seat reads of its row (see :func:`seat_from_row`).
SEAT_COLUMNS = "table_id, seat, kind, bot, name, token_hash, joined_at, open, stands_in_for"


def seat_from_row(row: Sequence[Any]) -> SeatRow:
    """A seat from the columns of :data:`SEAT_COLUMNS`."""
    _, seat, kind, bot, name, token_hash, joined_at, is_open, stands_in_for = row
    return SeatRow(seat, kind, bot, name, token_hash, joined_at is not None, bool(is_open), stands_in_for)


def stored_from_row(row: Sequence[Any], seats: list[SeatRow], actions: list[tuple[int, str]]) -> StoredTable:
    """A table from the columns of :data:`TABLE_COLUMNS`, its seats and its actions."""
    table_id, game, version, num_players, seed, options, created_at, finished_at, chosen, creator, updated = row[:11]
    closed, why, error, host_hash, rematch_of, rematch, start, hints = row[11:19]
    record = Record(game, version, num_players, int(seed), json.loads(options), actions, start=json.loads(start) if start else None)
    return StoredTable(
        table_id,
        record,
        seats,
        created_at,
        finished_at,
        bool(chosen),
        creator,
        updated,
        closed,
        why,
        error,
        host_hash,
        rematch_of,
        rematch,
        bool(hints),
    )


def summary_from_row(row: Sequence[Any], seats: list[SeatRow]) -> TableSummary:
    """A listing's entry from the columns of :data:`SUMMARY_COLUMNS` and the table's seats."""
    table_id, game, version, num_players, options, created_at, finished_at, updated, moves, status, chosen, why, error = row
    return TableSummary(
        table_id,
        game,
        version,
        num_players,
        json.loads(options),
        seats,
        created_at,
        finished_at,
        updated,
        int(moves),
        status,
        bool(chosen),
        why,
        error,
    )


def _describe(error: sqlite3.Error) -> str:
    """A storage failure in words (SQLite's own message names the cause: locked, full, I/O)."""
    return f"the database refused the write ({error})"
