"""The accounts room's tables (one schema for SQLite and PostgreSQL, see :mod:`greenlight.web.rooms`).

- ``accounts``: a name (and its look-alike key, unique), an Argon2 password hash, an optional e-mail address.
- ``account_sessions``: signed-in browsers (only a digest of the session's cookie is kept) with their CSRF token.
- ``account_seats``: the seats an account holds, the seat token sealed with the server's key (so the seat follows
  the person to every device), and how the game ended for that seat.
- ``ratings`` and ``rating_history``: one OpenSkill rating per account and game, and its value after each game.
- ``rated_tables``: tables created rated, rated once when they finish.
- ``gatherings`` and ``gathering_members``: people waiting for a table to form (open rated tables and quick play).
- ``account_keys``: the server's key for sealing seat tokens, when ``GREENLIGHT_SECRET_KEY`` does not give one.
- ``password_resets`` (version 2): links sent to choose a new password, by their digest, each good for one use.
"""

from __future__ import annotations

from greenlight.web.rooms import RoomSchema

ACCOUNTS_V1 = (
    """CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        email TEXT,
        created_at {real} NOT NULL,
        created_from TEXT NOT NULL
    )""",
    """CREATE TABLE account_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        csrf TEXT NOT NULL,
        address TEXT NOT NULL,
        created_at {real} NOT NULL,
        seen_at {real} NOT NULL,
        expires_at {real} NOT NULL
    )""",
    "CREATE INDEX account_sessions_by_account ON account_sessions (account_id)",
    """CREATE TABLE account_seats (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        sealed_token TEXT NOT NULL,
        claimed_at {real} NOT NULL,
        finished_at {real},
        place INTEGER,
        won INTEGER,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX account_seats_by_account ON account_seats (account_id, claimed_at)",
    """CREATE TABLE ratings (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        mu {real} NOT NULL,
        sigma {real} NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        updated_at {real} NOT NULL,
        PRIMARY KEY (account_id, game)
    )""",
    "CREATE INDEX ratings_by_game ON ratings (game, mu)",
    """CREATE TABLE rating_history (
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        table_id TEXT NOT NULL,
        mu {real} NOT NULL,
        sigma {real} NOT NULL,
        place INTEGER NOT NULL,
        players INTEGER NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (account_id, game, table_id)
    )""",
    """CREATE TABLE rated_tables (
        table_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        created_at {real} NOT NULL,
        rated_at {real}
    )""",
    """CREATE TABLE gatherings (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL,
        rated INTEGER NOT NULL,
        quick INTEGER NOT NULL,
        created_at {real} NOT NULL,
        status TEXT NOT NULL,
        forming_at {real},
        table_id TEXT
    )""",
    "CREATE INDEX gatherings_waiting ON gatherings (status, game)",
    """CREATE TABLE gathering_members (
        gathering_id TEXT NOT NULL REFERENCES gatherings(id) ON DELETE CASCADE,
        seeker_hash TEXT NOT NULL,
        account_id TEXT,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        joined_at {real} NOT NULL,
        seen_at {real} NOT NULL,
        seat INTEGER,
        sealed_token TEXT,
        PRIMARY KEY (gathering_id, seeker_hash)
    )""",
    "CREATE INDEX gathering_members_by_seeker ON gathering_members (seeker_hash)",
    "CREATE TABLE account_keys (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)",
)

#: Version 2: links to choose a new password, sent to an account's e-mail address (only a digest of each is kept).
ACCOUNTS_V2 = (
    """CREATE TABLE password_resets (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at {real} NOT NULL,
        expires_at {real} NOT NULL
    )""",
    "CREATE INDEX password_resets_by_account ON password_resets (account_id)",
)

SCHEMA = RoomSchema("accounts", (ACCOUNTS_V1, ACCOUNTS_V2))
