"""The clocks room's tables (one schema for SQLite and PostgreSQL, see :mod:`greenlight.web.rooms`).

- ``clock_paces``: one row per timed table (keyed by table id; the table's own row does not grow): the pace as
  chosen, the durations in force (the chosen ones times the server's ``pace_time_scale``), the move number the
  seats' clocks were last brought to (``version``), and a pause: when, and which seats asked for it.
- ``clock_seats``: one row per timed seat: the live bank while it does not run (``remaining``), the move number from
  which the seat has owed its current decision (``since``, NULL when it owes none), when that decision's time began
  and when it runs out (``due_at``, NULL when not running: the scheduler's one index), when its reminder goes out,
  how often it fired, and the seat's absence, with the time its absences have made others wait so far
  (``away_used``, schema 2: a seat's absences with waiting deadlines have a budget per table).
- ``clock_timeouts``: what each time-out did (the record download carries it).
"""

from __future__ import annotations

from greenlight.web.rooms import RoomSchema

CLOCKS_V1 = (
    """CREATE TABLE clock_paces (
        table_id TEXT PRIMARY KEY,
        chosen TEXT NOT NULL,
        kind TEXT NOT NULL,
        bank {real} NOT NULL,
        increment {real} NOT NULL,
        deadline {real} NOT NULL,
        weekends_off INTEGER NOT NULL,
        on_timeout TEXT NOT NULL,
        bot TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT -1,
        paused_at {real},
        pause_votes TEXT NOT NULL DEFAULT '',
        created_at {real} NOT NULL,
        ended_at {real}
    )""",
    """CREATE TABLE clock_seats (
        table_id TEXT NOT NULL REFERENCES clock_paces(table_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        remaining {real},
        since INTEGER,
        started_at {real},
        due_at {real},
        remind_at {real},
        fired INTEGER NOT NULL DEFAULT 0,
        away TEXT,
        away_until {real},
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX clock_seats_due ON clock_seats (due_at) WHERE due_at IS NOT NULL",
    "CREATE INDEX clock_seats_remind ON clock_seats (remind_at) WHERE remind_at IS NOT NULL",
    """CREATE TABLE clock_timeouts (
        id {autoid},
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        since INTEGER NOT NULL,
        at {real} NOT NULL,
        outcome TEXT NOT NULL,
        action TEXT
    )""",
    "CREATE INDEX clock_timeouts_by_table ON clock_timeouts (table_id, id)",
)

CLOCKS_V2 = ("ALTER TABLE clock_seats ADD COLUMN away_used {real} NOT NULL DEFAULT 0",)

SCHEMA = RoomSchema("clocks", (CLOCKS_V1, CLOCKS_V2))
