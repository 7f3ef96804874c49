"""The lab room's tables (one schema for SQLite and PostgreSQL, see :mod:`greenlight.web.rooms`).

- ``lab_data``: card data a designer uploaded or edited, already checked: the game, a name for people, the
  tables and rule parameters as JSON (the game's fields only: data, never code), who sent it (a pseudonym of
  the client address) and when.
- ``lab_studies``: studies, sweeps and comparisons: what was asked (JSON), who asked (pseudonym), the state
  (``queued``, ``running``, ``done``, ``failed``, ``cancelled``), the games done of the games asked, which
  server process runs it and when it last said so (a study whose process fell silent is queued again), and
  the result (JSON: the answers in words, the numbers, the charts).

Ids are 128-bit random tokens: a study's or a data set's link is the key to it, like a seat link.
"""

from __future__ import annotations

from greenlight.web.rooms import RoomSchema

LAB_V1 = (
    """CREATE TABLE lab_data (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        content TEXT NOT NULL,
        size INTEGER NOT NULL,
        owner TEXT NOT NULL,
        created_at {real} NOT NULL
    )""",
    "CREATE INDEX lab_data_by_owner ON lab_data (owner, created_at)",
    """CREATE TABLE lab_studies (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        game TEXT NOT NULL,
        request TEXT NOT NULL,
        owner TEXT NOT NULL,
        status TEXT NOT NULL,
        done INTEGER NOT NULL,
        total INTEGER NOT NULL,
        process TEXT,
        heartbeat {real},
        created_at {real} NOT NULL,
        started_at {real},
        finished_at {real},
        error TEXT,
        result TEXT
    )""",
    "CREATE INDEX lab_studies_by_status ON lab_studies (status, created_at)",
    "CREATE INDEX lab_studies_by_owner ON lab_studies (owner, status)",
)

SCHEMA = RoomSchema("lab", (LAB_V1,))
