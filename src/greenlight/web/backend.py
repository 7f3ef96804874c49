"""What the server needs from its storage: the :class:`Backend` interface, and :class:`LocalBackend` for one process.

A backend stores tables (through a group-commit writer) and reads them back,
and it coordinates the server processes that share its tables: it tells each
process when another one changed a table (:class:`Notice`), hands over what
changed (:meth:`Backend.changes`), decides which process moves a table's
bots (:meth:`Backend.own_bots`), and keeps the per-client rate limits and
connection caps for all processes together.

Two implementations:

- :class:`LocalBackend`: one server process over a synchronous
  :class:`~greenlight.web.storage.TableStore` (the SQLite file by default).
  Nobody else writes its tables, so coordination is trivial and the limits
  live in memory.
- :class:`greenlight.web.postgres.PostgresBackend`: PostgreSQL, shared by
  any number of server processes on any number of machines (``LISTEN/NOTIFY``
  between them, advisory locks for bot work, limits in tables).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
import socket
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from greenlight.web.limits import RateLimiter
from greenlight.web.rooms import RoomDatabase, SqliteRooms
from greenlight.web.storage import ChatLine, StoredTable, TablePage, TableStore
from greenlight.web.writer import AsyncWriteQueue, WriteQueue

#: What a notice says changed: the stored table (moves, seats, chat, ...), who is connected, or which bot thinks.
CHANGED = "changed"
PRESENCE = "presence"
THINKING = "thinking"


@dataclass(frozen=True, slots=True)
class Notice:
    """Another server process changed table ``table_id`` (``kind``: CHANGED, PRESENCE or THINKING with ``seat``).

    A CHANGED notice whose transaction only stored moves of the table carries them in ``moves`` ((index, seat,
    text), in order), so a process holding the table can take them without reading them back.
    """

    table_id: str
    kind: str
    seat: int | None = None
    moves: tuple[tuple[int, int, str], ...] | None = None


@dataclass(slots=True)
class TableChanges:
    """What is stored of a table beyond what a process knows: its revision, later moves and later chat lines."""

    revision: int
    #: (index, seat, action text) of each move from the first index the process does not know, in order.
    actions: list[tuple[int, int, str]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is connected to a table through the *other* server processes."""

    seats: frozenset[int] = frozenset()
    spectators: int = 0


class SocketRefused(Exception):
    """A WebSocket over one of the caps (per table or per client); the message says which."""


def process_name() -> str:
    """A name for this server process, unique among the processes sharing a database: host, pid and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Backend(ABC):
    """Storage and coordination for the server's tables (every method is called from the event loop)."""

    #: Whether other server processes serve the same tables (then the hub keeps its copies up to date).
    shared: bool = False

    def __init__(self, writer: WriteQueue | AsyncWriteQueue) -> None:
        self.writer = writer
        self.process_id = process_name()
        self._rooms: RoomDatabase | None = None

    @property
    def rooms(self) -> RoomDatabase:
        """Where the server's rooms (accounts, clocks, ...) keep their tables: the same database (see :mod:`greenlight.web.rooms`)."""
        if self._rooms is None:
            self._rooms = self._open_rooms()
        return self._rooms

    @abstractmethod
    def _open_rooms(self) -> RoomDatabase:
        """The rooms' database on this backend's storage."""

    async def _close_rooms(self) -> None:
        if self._rooms is not None:
            await self._rooms.close()
            self._rooms = None

    # -- life ----------------------------------------------------------------------------------

    async def start(self, on_notice: Callable[[Notice], None]) -> None:  # noqa: B027 - optional hook
        """Begin hearing of other processes' changes (``on_notice`` is called in the event loop)."""

    @abstractmethod
    async def close(self) -> None:
        """Write what is queued and release every connection (and with them every bot lock)."""

    @abstractmethod
    async def ready(self) -> str | None:
        """None when the backend can serve (the database answers, notices arrive); else why not, in words."""

    # -- reads ---------------------------------------------------------------------------------

    @abstractmethod
    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table with all its actions, or None."""

    @abstractmethod
    async def list_tables(self, status: str | None, game: str | None, limit: int, offset: int) -> TablePage:
        """Tables newest first, optionally of one status and one game."""

    @abstractmethod
    async def resumable(self, limit: int) -> list[str]:
        """Unfinished tables with a bot seat, most recently active first."""

    @abstractmethod
    async def abandoned(self, idle_since: float) -> list[str]:
        """Unfinished, unclosed tables idle since ``idle_since``."""

    @abstractmethod
    async def load_chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines, oldest first."""

    @abstractmethod
    async def chat_length(self, table_id: str) -> int:
        """The next chat index of a table."""

    @abstractmethod
    async def load_reviews(self, table_id: str) -> dict[int, str]:
        """The stored reviews of a table by seat."""

    @abstractmethod
    async def count(self) -> int:
        """How many tables are stored."""

    # -- coordination between processes ---------------------------------------------------------

    async def changes(self, table_id: str, moves: int, revision: int, chat: int) -> TableChanges | None:
        """What is stored of the table beyond ``moves`` moves, ``chat`` chat lines and ``revision`` (None: table gone).

        One process alone knows everything it stored, so the local backend never has changes to report.
        """
        return TableChanges(revision)

    async def own_bots(self, table_id: str) -> bool:
        """Become the one process that moves this table's bots; False if another process already does."""
        return True

    async def release_bots(self, table_id: str) -> None:  # noqa: B027 - nothing to release locally
        """Stop being the process that moves this table's bots."""

    async def holds_bot_locks(self) -> bool:
        """Whether every bot lock this process took is still its own (a lost database session loses them all)."""
        return True

    async def orphaned(self, limit: int) -> list[str]:
        """Unfinished tables with bots that no process moves (their process died); none locally."""
        return []

    async def announce(self, table_id: str, kind: str, seat: int | None = None) -> None:  # noqa: B027 - nobody to tell
        """Tell the other processes something that is not stored (who is connected, which bot thinks)."""

    async def presence(self, table_id: str) -> Presence:
        """Who is connected to the table through other processes."""
        return Presence()

    @abstractmethod
    async def wait_needed(self, limiter: str, client: str, per_second: float, burst: int) -> float:
        """Take one request from ``client``'s bucket ``limiter``: 0.0 if allowed, else seconds until a token is free."""

    @abstractmethod
    async def open_socket(self, table_id: str, client: str, seat: int | None, per_table: int, per_client: int) -> int:
        """Count a new WebSocket (a ticket for :meth:`close_socket`), or raise :class:`SocketRefused` over a cap."""

    async def greet_socket(self, ticket: int, table_id: str, seat: int | None) -> None:  # noqa: B027 - presence is local
        """The socket said hello as ``seat`` (None: a spectator); the other processes count it as connected."""

    @abstractmethod
    async def close_socket(self, ticket: int) -> None:
        """A WebSocket counted by :meth:`open_socket` closed."""

    # -- what the writer counts --------------------------------------------------------------------

    def write_stats(self) -> dict[str, int]:
        """Batches committed and ops in them."""
        return {"batches": self.writer.batches, "ops": self.writer.ops}


class LocalBackend(Backend):
    """One server process over a synchronous :class:`TableStore` (SQLite): writes in one thread, reads in threads.

    >>> from greenlight.web.storage import SqliteStore
    >>> async def demo() -> int:
    ...     backend = LocalBackend(SqliteStore(":memory:"))
    ...     count = await backend.count()
    ...     await backend.close()
    ...     return count
    >>> asyncio.run(demo())
    0
    """

    def __init__(self, store: TableStore, *, write_timeout: float = 3.0, owns_store: bool = True) -> None:
        super().__init__(WriteQueue(store, timeout=write_timeout))
        self.store = store
        self.write_timeout = write_timeout
        #: Whether closing the backend closes the store (not when the caller keeps using it, as tests do).
        self.owns_store = owns_store
        self._limiters: dict[str, RateLimiter] = {}
        self._sockets: dict[int, tuple[str, str]] = {}
        self._per_table: Counter[str] = Counter()
        self._per_client: Counter[str] = Counter()
        self._tickets = itertools.count(1)

    def _open_rooms(self) -> RoomDatabase:
        return SqliteRooms(str(getattr(self.store, "path", ":memory:")), timeout=self.write_timeout)

    async def close(self) -> None:
        """Write what is queued, then close the store (if this backend owns it)."""
        assert isinstance(self.writer, WriteQueue)
        await self._close_rooms()
        await asyncio.to_thread(self.writer.close)
        if self.owns_store:
            self.store.close()

    async def ready(self) -> str | None:
        """Whether the store answers a read."""
        try:
            await asyncio.to_thread(self.store.count)
        except Exception as error:
            return f"the database does not answer ({error})"
        return None

    async def _read(self, function: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table."""
        result: StoredTable | None = await self._read(self.store.load_table, table_id)
        return result

    async def list_tables(self, status: str | None, game: str | None, limit: int, offset: int) -> TablePage:
        """A page of tables."""
        result: TablePage = await self._read(self.store.list_tables, status, game, limit, offset)
        return result

    async def resumable(self, limit: int) -> list[str]:
        """Unfinished tables with bots."""
        result: list[str] = await self._read(self.store.resumable, limit)
        return result

    async def abandoned(self, idle_since: float) -> list[str]:
        """Idle unfinished tables."""
        result: list[str] = await self._read(self.store.abandoned, idle_since)
        return result

    async def load_chat(self, table_id: str, limit: int) -> list[ChatLine]:
        """The latest chat lines."""
        result: list[ChatLine] = await self._read(self.store.load_chat, table_id, limit)
        return result

    async def chat_length(self, table_id: str) -> int:
        """The next chat index."""
        result: int = await self._read(self.store.chat_length, table_id)
        return result

    async def load_reviews(self, table_id: str) -> dict[int, str]:
        """Stored reviews."""
        result: dict[int, str] = await self._read(self.store.load_reviews, table_id)
        return result

    async def count(self) -> int:
        """Stored tables."""
        result: int = await self._read(self.store.count)
        return result

    async def wait_needed(self, limiter: str, client: str, per_second: float, burst: int) -> float:
        """A token from the in-memory bucket."""
        bucket = self._limiters.get(limiter)
        if bucket is None or bucket.per_second != per_second or bucket.burst != max(1, burst):
            bucket = self._limiters[limiter] = RateLimiter(per_second, burst)
        return bucket.wait_needed(client)

    async def open_socket(self, table_id: str, client: str, seat: int | None, per_table: int, per_client: int) -> int:
        """Count a socket in memory."""
        if self._per_table[table_id] >= per_table:
            raise SocketRefused(f"this table already has {per_table} connections; try again later")
        if self._per_client[client] >= per_client:
            raise SocketRefused(f"your address already holds {per_client} connections; close some first")
        ticket = next(self._tickets)
        self._sockets[ticket] = (table_id, client)
        self._per_table[table_id] += 1
        self._per_client[client] += 1
        return ticket

    async def close_socket(self, ticket: int) -> None:
        """Forget a socket."""
        found = self._sockets.pop(ticket, None)
        if found is None:
            return
        table_id, client = found
        for counter, key in ((self._per_table, table_id), (self._per_client, client)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
