"""Where tables live between server restarts: a small interface and its SQLite implementation.

A stored table is its :class:`~greenlight.core.record.Record` (game, version,
options, players, seed, actions) plus its seats. Seat tokens are never stored:
only their SHA-256 digests are. The server writes each accepted action here
(in a committed transaction) before it acknowledges or broadcasts it, and on
start-up rebuilds every table from these rows.

>>> store = SqliteStore(":memory:")
>>> record = Record("cinecitta", "1", 3, 7, {"movie_awards": False}, [])
>>> seats = [SeatRow(0, "human", None, "Ann", hash_token("t0")), SeatRow(1, "bot", "random", "Bot"), SeatRow(2, "bot", "random", "Bot")]
>>> store.create_table(StoredTable("abc", record, seats, created_at=1.0))
>>> store.append_action("abc", 0, 2, "offer D6 30", finished=False)
>>> store.load_table("abc").record.actions
[(2, 'offer D6 30')]
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
from dataclasses import dataclass, field
from pathlib import Path

from greenlight.core.record import Record

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    version TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    created_at REAL NOT NULL,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot TEXT,
    name TEXT NOT NULL,
    token_hash TEXT,
    joined_at REAL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


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


@dataclass(slots=True)
class StoredTable:
    """A table as the store keeps it: the record plus its seats."""

    id: str
    record: Record
    seats: list[SeatRow]
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None


class TableStore(ABC):
    """The storage interface the server uses; every method is synchronous and thread-safe."""

    @abstractmethod
    def create_table(self, table: StoredTable) -> None:
        """Store a new table (its record must have no actions yet)."""

    @abstractmethod
    def append_action(self, table_id: str, index: int, seat: int, text: str, *, finished: bool) -> None:
        """Durably store action number ``index``; ``finished`` marks the game as over. Raises if ``index`` is taken."""

    @abstractmethod
    def mark_joined(self, table_id: str, seat: int) -> None:
        """Note that a human seat's token has been used at least once."""

    @abstractmethod
    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with all its actions, or None."""

    @abstractmethod
    def load_all(self) -> list[StoredTable]:
        """Every table with all its actions, oldest first."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources."""


class SqliteStore(TableStore):
    """SQLite storage (stdlib ``sqlite3``): WAL journal, full sync, one connection behind a lock.

    One connection shared under a lock keeps the code simple; writes are a
    single small row and the server runs them off the event loop.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed action survives even a power cut, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise RuntimeError(f"{self.path} uses storage schema {row[0]}; this server reads schema {SCHEMA_VERSION}")

    def create_table(self, table: StoredTable) -> None:
        """Insert the table and its seats in one transaction."""
        record = table.record
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO tables (id, game, version, num_players, seed, options, created_at, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.id,
                        record.game,
                        record.version,
                        record.num_players,
                        record.seed,
                        json.dumps(record.options),
                        table.created_at,
                        None,
                    ),
                )
                self._db.executemany(
                    "INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, joined_at) VALUES (?, ?, ?, ?, ?, ?, NULL)",
                    [(table.id, s.seat, s.kind, s.bot, s.name, s.token_hash) for s in table.seats],
                )
                for index, (seat, text) in enumerate(record.actions):
                    self._db.execute(
                        "INSERT INTO actions (table_id, idx, seat, text, at) VALUES (?, ?, ?, ?, ?)",
                        (table.id, index, seat, text, time.time()),
                    )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def append_action(self, table_id: str, index: int, seat: int, text: str, *, finished: bool) -> None:
        """Insert one action row (and the finish time) in one committed transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO actions (table_id, idx, seat, text, at) VALUES (?, ?, ?, ?, ?)", (table_id, index, seat, text, time.time())
                )
                if finished:
                    self._db.execute("UPDATE tables SET finished_at = ? WHERE id = ?", (time.time(), table_id))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def mark_joined(self, table_id: str, seat: int) -> None:
        """Set the join time once."""
        with self._lock:
            self._db.execute(
                "UPDATE seats SET joined_at = ? WHERE table_id = ? AND seat = ? AND joined_at IS NULL", (time.time(), table_id, seat)
            )

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table."""
        found = self._load("WHERE id = ?", (table_id,))
        return found[0] if found else None

    def load_all(self) -> list[StoredTable]:
        """Every table."""
        return self._load("", ())

    def _load(self, where: str, params: tuple[object, ...]) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, version, num_players, seed, options, created_at, finished_at"
                f" FROM tables {where} ORDER BY created_at, id",
                params,
            ).fetchall()
            ids = [row[0] for row in rows]
            seats: dict[str, list[SeatRow]] = {table_id: [] for table_id in ids}
            actions: dict[str, list[tuple[int, str]]] = {table_id: [] for table_id in ids}
            for table_id in ids:
                for seat, kind, bot, name, token_hash, joined_at in self._db.execute(
                    "SELECT seat, kind, bot, name, token_hash, joined_at FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
                ):
                    seats[table_id].append(SeatRow(seat, kind, bot, name, token_hash, joined_at is not None))
                actions[table_id] = [
                    (seat, text)
                    for seat, text in self._db.execute("SELECT seat, text FROM actions WHERE table_id = ? ORDER BY idx", (table_id,))
                ]
        tables = []
        for table_id, game, version, num_players, seed, options, created_at, finished_at in rows:
            record = Record(game, version, num_players, seed, json.loads(options), actions[table_id])
            tables.append(StoredTable(table_id, record, seats[table_id], created_at, finished_at))
        return tables

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
