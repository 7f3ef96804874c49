"""Which database ``--db`` names, and the backend for it (imported lazily: the CLI reads this without loading the web app).

>>> is_database_url("postgresql://games@db.example/greenlight"), is_database_url("greenlight.db")
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from greenlight.web.backend import Backend
    from greenlight.web.rooms import RoomDatabase


def is_database_url(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL server (``postgresql://...`` or ``postgres://...``) rather than a SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_backend(db: str, *, write_timeout: float = 3.0) -> Backend:
    """The backend ``db`` names: PostgreSQL (shared by several server processes) or a SQLite file (this process alone)."""
    if is_database_url(db):
        from greenlight.web.postgres import PostgresBackend  # psycopg is needed only here

        return PostgresBackend(db, write_timeout=write_timeout)
    from greenlight.web.backend import LocalBackend
    from greenlight.web.storage import SqliteStore

    return LocalBackend(SqliteStore(db, busy_timeout=write_timeout), write_timeout=write_timeout)


def open_rooms(db: str, *, write_timeout: float = 3.0) -> RoomDatabase:
    """The rooms' database on ``db`` without a server's backend (``greenlight db migrate``; a server uses ``backend.rooms``)."""
    if is_database_url(db):
        from greenlight.web.postgres import CHANNEL
        from greenlight.web.rooms import PostgresRooms

        return PostgresRooms(db, channel=CHANNEL, process="migrate", timeout=write_timeout)
    from greenlight.web.rooms import SqliteRooms

    return SqliteRooms(db, timeout=write_timeout)
