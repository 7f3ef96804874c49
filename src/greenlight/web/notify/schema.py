"""The notifications room's tables (one schema for SQLite and PostgreSQL, see :mod:`greenlight.web.rooms`).

- ``notify_subscriptions``: who wants to hear of their turn, and how: per seat (``table_id``, ``seat``; anonymous seats
  too) or per account (``account_id``, no table: every seat the account keeps). An e-mail address is used only once
  confirmed (a link sent to it); a push subscription holds the browser's endpoint and keys. The seat's link is kept
  sealed with the server's key (the message links to the seat). Confirmation and unsubscribe links carry a token
  derived from the subscription's id with the server's key (HMAC), so no token is stored.
- ``notify_addresses``: each e-mail address (by digest) that asked never to be written to again.
- ``notify_outbox``: the queue. One row per message owed (a subscription, a table, a seat, the seat's turn, the kind):
  unique, so a turn is told once however many processes hear of it; sent by whichever process claims it, retried
  with back-off.
- ``notify_keys``: the server's VAPID key pair for Web Push, drawn by the first process that needs it.
"""

from __future__ import annotations

from greenlight.web.rooms import RoomSchema

NOTIFY_V1 = (
    """CREATE TABLE notify_subscriptions (
        id TEXT PRIMARY KEY,
        channel TEXT NOT NULL,
        table_id TEXT,
        seat INTEGER,
        account_id TEXT,
        address TEXT NOT NULL,
        address_hash TEXT NOT NULL,
        push_keys TEXT,
        sealed_link TEXT,
        confirmed_at {real},
        created_at {real} NOT NULL,
        created_from TEXT NOT NULL
    )""",
    "CREATE INDEX notify_subscriptions_by_seat ON notify_subscriptions (table_id, seat)",
    "CREATE INDEX notify_subscriptions_by_account ON notify_subscriptions (account_id)",
    "CREATE INDEX notify_subscriptions_by_address ON notify_subscriptions (address_hash)",
    "CREATE TABLE notify_addresses (address_hash TEXT PRIMARY KEY, suppressed_at {real} NOT NULL)",
    """CREATE TABLE notify_outbox (
        id {autoid},
        subscription_id TEXT NOT NULL,
        destination TEXT NOT NULL,
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due_at {real} NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        claimed_until {real},
        sent_at {real},
        given_up_at {real},
        outcome TEXT,
        UNIQUE (subscription_id, table_id, seat, turn, kind)
    )""",
    "CREATE INDEX notify_outbox_waiting ON notify_outbox (due_at) WHERE sent_at IS NULL AND given_up_at IS NULL",
    "CREATE INDEX notify_outbox_by_destination ON notify_outbox (destination, sent_at)",
    "CREATE INDEX notify_outbox_by_table ON notify_outbox (table_id, sent_at)",
    "CREATE TABLE notify_keys (id INTEGER PRIMARY KEY, private_key TEXT NOT NULL, public_key TEXT NOT NULL)",
)

SCHEMA = RoomSchema("notify", (NOTIFY_V1,))
