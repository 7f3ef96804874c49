"""The notifications room's transactions (each one transaction in a worker thread, see :mod:`greenlight.web.rooms`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from greenlight.web.rooms import RoomTx

EMAIL, PUSH = "email", "push"
#: Outbox kinds: a seat's turn began, its deadline comes soon, an e-mail address to confirm.
TURN, REMINDER, CONFIRM = "turn", "reminder", "confirm"
CHANNEL = "notify"
#: Push subscriptions one seat (or account) keeps (its browsers); the oldest goes when another comes.
PUSH_PER_OWNER = 5
DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Subscription:
    """Who hears of a turn, and how (see :mod:`.schema`)."""

    id: str
    channel: str
    table_id: str | None
    seat: int | None
    account_id: str | None
    address: str
    address_hash: str
    push_keys: dict[str, str] | None
    sealed_link: str | None
    confirmed: bool

    @property
    def destination(self) -> str:
        """Messages to one destination go out together (one e-mail for every table waiting)."""
        return f"{self.channel}:{self.address_hash}" if self.channel == EMAIL else f"{self.channel}:{self.id}"

    def public(self) -> dict[str, Any]:
        """What the subscriber sees of it (an e-mail address half hidden; nobody else sees it at all)."""
        shown = mask_email(self.address) if self.channel == EMAIL else "this browser" if self.channel == PUSH else ""
        return {"id": self.id, "channel": self.channel, "to": shown, "confirmed": self.confirmed, "table": self.table_id, "seat": self.seat}


def mask_email(address: str) -> str:
    """An address as its owner recognises it and a passer-by learns little from.

    >>> mask_email("ann.smith@example.org")
    'a…h@example.org'
    """
    local, _, domain = address.rpartition("@")
    return f"{local[0]}…{local[-1]}@{domain}" if len(local) > 1 else f"…@{domain}"


COLUMNS = "id, channel, table_id, seat, account_id, address, address_hash, push_keys, sealed_link, confirmed_at"


def _subscription(row: tuple[Any, ...]) -> Subscription:
    sub_id, channel, table_id, seat, account_id, address, address_hash, push_keys, sealed_link, confirmed_at = row
    return Subscription(
        str(sub_id),
        str(channel),
        None if table_id is None else str(table_id),
        None if seat is None else int(seat),
        None if account_id is None else str(account_id),
        str(address),
        str(address_hash),
        json.loads(push_keys) if push_keys else None,
        None if sealed_link is None else str(sealed_link),
        confirmed_at is not None,
    )


def suppressed(tx: RoomTx, address_hash: str) -> bool:
    """Whether an e-mail address asked never to be written to again."""
    return bool(tx.fetch("SELECT 1 FROM notify_addresses WHERE address_hash = ?", (address_hash,)))


def subscribe(tx: RoomTx, sub: Subscription, created_from: str, confirmations_per_day: int) -> str | None:
    """Keep a subscription (replacing the same owner's earlier one to the same address); a problem in words, or None.

    A new e-mail address gets a confirmation message first (at most ``confirmations_per_day`` a day per address).
    """
    now = tx.now()
    owner_sql, owner = (
        ("table_id = ? AND seat = ?", (sub.table_id, sub.seat))
        if sub.table_id
        else ("account_id = ? AND table_id IS NULL", (sub.account_id,))
    )
    if sub.channel == EMAIL:
        if suppressed(tx, sub.address_hash):
            return "this address asked never to be e-mailed by this server"
        confirmed = tx.fetch(
            "SELECT 1 FROM notify_subscriptions WHERE address_hash = ? AND channel = ? AND confirmed_at IS NOT NULL",
            (sub.address_hash, EMAIL),
        )
        tx.execute(f"DELETE FROM notify_subscriptions WHERE {owner_sql} AND channel = ?", (*owner, EMAIL))
        if not confirmed:
            asked = tx.fetch(
                "SELECT COUNT(*) FROM notify_outbox WHERE destination = ? AND kind = ? AND due_at > ?",
                (f"{EMAIL}:{sub.address_hash}", CONFIRM, now - DAY),
            )[0][0]
            if int(asked) >= confirmations_per_day:
                return "this address was sent enough confirmation messages today; try again tomorrow"
    else:
        tx.execute(f"DELETE FROM notify_subscriptions WHERE {owner_sql} AND channel = ? AND address = ?", (*owner, PUSH, sub.address))
        kept = tx.fetch(f"SELECT id FROM notify_subscriptions WHERE {owner_sql} AND channel = ? ORDER BY created_at", (*owner, PUSH))
        for (old,) in kept[: max(0, len(kept) - PUSH_PER_OWNER + 1)]:
            tx.execute("DELETE FROM notify_subscriptions WHERE id = ?", (old,))
        confirmed = [(1,)]
    tx.execute(
        f"INSERT INTO notify_subscriptions ({COLUMNS}, created_at, created_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            sub.id,
            sub.channel,
            sub.table_id,
            sub.seat,
            sub.account_id,
            sub.address,
            sub.address_hash,
            json.dumps(sub.push_keys) if sub.push_keys else None,
            sub.sealed_link,
            now if confirmed else None,
            now,
            created_from,
        ),
    )
    if not confirmed:
        tx.execute(
            "INSERT INTO notify_outbox (subscription_id, destination, table_id, seat, turn, kind, due_at) VALUES (?, ?, ?, ?, 0, ?, ?)",
            (sub.id, sub.destination, sub.table_id or "", sub.seat if sub.seat is not None else -1, CONFIRM, now),
        )
    tx.notify(CHANNEL, {"table": sub.table_id, "account": sub.account_id is not None, "due": now})
    return None


def subscription(tx: RoomTx, sub_id: str) -> Subscription | None:
    """One subscription."""
    rows = tx.fetch(f"SELECT {COLUMNS} FROM notify_subscriptions WHERE id = ?", (sub_id,))
    return _subscription(rows[0]) if rows else None


def subscriptions_of_seat(tx: RoomTx, table_id: str, seat: int) -> list[Subscription]:
    """A seat's subscriptions."""
    return [
        _subscription(row)
        for row in tx.fetch(f"SELECT {COLUMNS} FROM notify_subscriptions WHERE table_id = ? AND seat = ?", (table_id, seat))
    ]


def subscriptions_of_account(tx: RoomTx, account_id: str) -> list[Subscription]:
    """An account's own subscriptions (for every seat it keeps)."""
    return [
        _subscription(row)
        for row in tx.fetch(f"SELECT {COLUMNS} FROM notify_subscriptions WHERE account_id = ? AND table_id IS NULL", (account_id,))
    ]


def confirm(tx: RoomTx, sub_id: str) -> Subscription | None:
    """Confirm an e-mail address (every subscription of the same address is confirmed with it)."""
    sub = subscription(tx, sub_id)
    if sub is None:
        return None
    tx.execute(
        "UPDATE notify_subscriptions SET confirmed_at = ? WHERE address_hash = ? AND confirmed_at IS NULL", (tx.now(), sub.address_hash)
    )
    return subscription(tx, sub_id)


def unsubscribe(tx: RoomTx, sub_id: str, *, everything: bool) -> Subscription | None:
    """End one subscription; with ``everything``, every subscription of its address, and never write to it again."""
    sub = subscription(tx, sub_id)
    if sub is None:
        return None
    tx.execute("DELETE FROM notify_subscriptions WHERE id = ?", (sub_id,))
    if everything and sub.channel == EMAIL:
        tx.execute("DELETE FROM notify_subscriptions WHERE address_hash = ?", (sub.address_hash,))
        if not suppressed(tx, sub.address_hash):
            tx.execute("INSERT INTO notify_addresses (address_hash, suppressed_at) VALUES (?, ?)", (sub.address_hash, tx.now()))
    tx.execute(
        "UPDATE notify_outbox SET given_up_at = ?, outcome = 'unsubscribed' WHERE subscription_id = ? AND sent_at IS NULL",
        (tx.now(), sub_id),
    )
    tx.notify(CHANNEL, {"table": sub.table_id})
    return sub


def seat_changed_hands(tx: RoomTx, table_id: str, seat: int) -> None:
    """A seat has a new occupant: the subscriptions of the person who held it end."""
    for (sub_id,) in tx.fetch("SELECT id FROM notify_subscriptions WHERE table_id = ? AND seat = ?", (table_id, seat)):
        unsubscribe(tx, str(sub_id), everything=False)


def table_listens(tx: RoomTx, table_id: str, with_accounts: bool) -> bool:
    """Whether anyone would hear of a turn at this table (a seat's subscription, or an account keeping one of its seats)."""
    if tx.fetch("SELECT 1 FROM notify_subscriptions WHERE table_id = ? LIMIT 1", (table_id,)):
        return True
    if not with_accounts:
        return False
    return bool(
        tx.fetch(
            "SELECT 1 FROM account_seats a JOIN notify_subscriptions s ON s.account_id = a.account_id AND s.table_id IS NULL"
            " WHERE a.table_id = ? LIMIT 1",
            (table_id,),
        )
    )


def enqueue(tx: RoomTx, table_id: str, turns: list[tuple[int, int]], kind: str, delay: float, with_accounts: bool) -> int:
    """Owe a message of ``kind`` to every confirmed subscription of each (seat, turn): once, however often it is asked."""
    now = tx.now()
    holders: dict[int, str] = {}
    if with_accounts:
        holders = {
            int(seat): str(account)
            for seat, account in tx.fetch("SELECT seat, account_id FROM account_seats WHERE table_id = ?", (table_id,))
        }
    added = 0
    for seat, turn in turns:
        subs = subscriptions_of_seat(tx, table_id, seat)
        if seat in holders:
            subs += subscriptions_of_account(tx, holders[seat])
        for sub in subs:
            if not sub.confirmed:
                continue
            added += tx.execute(
                "INSERT INTO notify_outbox (subscription_id, destination, table_id, seat, turn, kind, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (subscription_id, table_id, seat, turn, kind) DO NOTHING",
                (sub.id, sub.destination, table_id, seat, turn, kind, now + delay),
            )
    if added:
        tx.notify(CHANNEL, {"due": now + delay})
    return added


@dataclass(frozen=True, slots=True)
class Owed:
    """One message owed, as claimed."""

    id: int
    table_id: str
    seat: int
    turn: int
    kind: str
    subscription: Subscription
    #: The seat's link sealed for an account's subscription (from the accounts room's kept seat).
    account_link: str | None = None


@dataclass(frozen=True, slots=True)
class Claimed:
    """Messages one sender claimed, by destination (nobody else sends them), and when the next is due."""

    batches: dict[str, list[Owed]]
    next_due: float | None
    now: float


def claim(tx: RoomTx, batch: int, lease: float, budgets: tuple[int, int], with_accounts: bool) -> Claimed:
    """Claim the messages due, a destination at a time: with the first one due, every message still owed to that
    destination, due yet or not, so one e-mail tells of every table waiting (a turn that began after the first is told
    with it, not in a second message a moment later). A message beyond its address's or its table's daily budget is
    given up here."""
    now = tx.now()
    per_address, per_table = budgets
    unsent = "sent_at IS NULL AND given_up_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)"
    destinations = [
        str(row[0])
        for row in tx.fetch(
            f"SELECT destination FROM notify_outbox WHERE {unsent} AND due_at <= ? ORDER BY due_at LIMIT ?", (now, now, batch)
        )
    ]
    batches: dict[str, list[Owed]] = {}
    for destination in dict.fromkeys(destinations):
        rows = tx.fetch(f"SELECT id FROM notify_outbox WHERE destination = ? AND {unsent}", (destination, now))
        owed = []
        for (row_id,) in rows:
            if not tx.execute(
                f"UPDATE notify_outbox SET claimed_until = ?, attempts = attempts + 1 WHERE id = ? AND {unsent}",
                (now + lease, row_id, now),
            ):
                continue  # another process claimed it first
            found = tx.fetch("SELECT subscription_id, table_id, seat, turn, kind FROM notify_outbox WHERE id = ?", (row_id,))[0]
            sub = subscription(tx, str(found[0]))
            if sub is None:
                tx.execute("UPDATE notify_outbox SET given_up_at = ?, outcome = 'unsubscribed' WHERE id = ?", (now, row_id))
                continue
            if found[4] != CONFIRM and _over_budget(tx, destination, str(found[1]), now, per_address, per_table):
                tx.execute("UPDATE notify_outbox SET given_up_at = ?, outcome = 'over the daily budget' WHERE id = ?", (now, row_id))
                continue
            account_link = None
            if sub.account_id is not None and with_accounts:
                sealed = tx.fetch("SELECT sealed_token FROM account_seats WHERE table_id = ? AND seat = ?", (found[1], found[2]))
                account_link = str(sealed[0][0]) if sealed else None
            owed.append(Owed(int(row_id), str(found[1]), int(found[2]), int(found[3]), str(found[4]), sub, account_link))
        if owed:
            batches[destination] = owed
    return Claimed(batches, next_due(tx), now)


def _over_budget(tx: RoomTx, destination: str, table_id: str, now: float, per_address: int, per_table: int) -> bool:
    if per_address and destination.startswith(f"{EMAIL}:"):
        sent = tx.fetch(
            "SELECT COUNT(DISTINCT sent_at) FROM notify_outbox WHERE destination = ? AND sent_at > ?", (destination, now - DAY)
        )[0][0]
        if int(sent) >= per_address:
            return True
    if per_table:
        sent = tx.fetch("SELECT COUNT(*) FROM notify_outbox WHERE table_id = ? AND sent_at > ?", (table_id, now - DAY))[0][0]
        if int(sent) >= per_table:
            return True
    return False


def next_due(tx: RoomTx) -> float | None:
    """When the next waiting message is due (or may be tried again)."""
    row = tx.fetch(
        "SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due_at THEN claimed_until ELSE due_at END)"
        " FROM notify_outbox WHERE sent_at IS NULL AND given_up_at IS NULL"
    )
    return None if not row or row[0][0] is None else float(row[0][0])


def sent(tx: RoomTx, ids: list[int], outcome: str) -> None:
    """Messages sent (or found no longer owed: ``outcome`` says which)."""
    now = tx.now()
    for row_id in ids:
        tx.execute("UPDATE notify_outbox SET sent_at = ?, claimed_until = NULL, outcome = ? WHERE id = ?", (now, outcome, row_id))


def dropped(tx: RoomTx, ids: list[int], outcome: str) -> None:
    """Messages no longer owed (the seat moved, the table ended): nothing sent."""
    now = tx.now()
    for row_id in ids:
        tx.execute("UPDATE notify_outbox SET given_up_at = ?, claimed_until = NULL, outcome = ? WHERE id = ?", (now, outcome, row_id))


def failed(tx: RoomTx, ids: list[int], error: str, first_retry: float, attempts: int) -> float | None:
    """A send failed: try again after a back-off doubling with each attempt, or give up after ``attempts``."""
    now = tx.now()
    retry: float | None = None
    for row_id in ids:
        rows = tx.fetch("SELECT attempts FROM notify_outbox WHERE id = ?", (row_id,))
        tried = int(rows[0][0]) if rows else attempts
        if tried >= attempts:
            tx.execute("UPDATE notify_outbox SET given_up_at = ?, outcome = ? WHERE id = ?", (now, f"gave up: {error}"[:300], row_id))
            continue
        retry = now + first_retry * 2 ** (tried - 1)
        tx.execute("UPDATE notify_outbox SET claimed_until = ?, outcome = ? WHERE id = ?", (retry, f"failed: {error}"[:300], row_id))
    if retry is not None:
        tx.notify(CHANNEL, {"due": retry})
    return retry


def vapid_keys(tx: RoomTx, fresh: tuple[str, str]) -> tuple[str, str]:
    """The server's VAPID key pair (private, public); ``fresh`` becomes it if none is stored, whichever process asks first."""
    tx.lock("notify/keys")
    rows = tx.fetch("SELECT private_key, public_key FROM notify_keys WHERE id = 1")
    if rows:
        return str(rows[0][0]), str(rows[0][1])
    tx.execute("INSERT INTO notify_keys (id, private_key, public_key) VALUES (1, ?, ?)", fresh)
    return fresh


def link_secret(tx: RoomTx, fresh: str) -> str:
    """The server's secret for the links of messages, where no accounts room keeps one (``fresh`` if none is stored)."""
    tx.lock("notify/keys")
    rows = tx.fetch("SELECT private_key FROM notify_keys WHERE id = 2")
    if rows:
        return str(rows[0][0])
    tx.execute("INSERT INTO notify_keys (id, private_key, public_key) VALUES (2, ?, '')", (fresh,))
    return fresh
