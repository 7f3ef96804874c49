"""People waiting for a table: open rated tables and quick play (transactions over a :class:`~greenlight.web.rooms.RoomTx`).

A *gathering* is a table to be: a game, a number of players, options, rated or not. People join it (quick play
joins the next one that fits, or starts one); once it is full, one server process forms the table (any process
may: the first to claim it, under a row update that only one can win) and each member's seat link is kept for
them until they come to fetch it. A member who stops asking (a closed tab) is dropped after
:data:`MEMBER_TIMEOUT_SECONDS`, so nobody is seated at a table with someone long gone.

Joining runs under a lock per game, so two processes never put the same person in two gatherings nor fill one
gathering twice.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from greenlight.web.accounts.store import digest, options_text
from greenlight.web.rooms import RoomTx

#: A member not heard from for this long is dropped from a gathering still waiting; a member's asking is written down at
#: most this often (each ask is a read; a write only now and then).
MEMBER_TIMEOUT_SECONDS = 45.0
TOUCH_SECONDS = 10.0
#: A gathering claimed for forming but not formed within this long (its process died) may be formed by another.
FORMING_TIMEOUT_SECONDS = 20.0
#: Statuses.
WAITING, FULL, FORMED, GONE = "waiting", "full", "formed", "gone"


@dataclass(frozen=True, slots=True)
class Seeker:
    """Who joins a gathering: a name, an account (None for an anonymous person: unrated only) and an address pseudonym."""

    name: str
    account_id: str | None
    address: str


@dataclass(frozen=True, slots=True)
class Wish:
    """What a seeker wants: a game, a number of players (None: any), rated or not, options (quick play: none)."""

    game: str
    players: int | None
    rated: bool
    options: dict[str, Any]


def join_quick(tx: RoomTx, wish: Wish, seeker: Seeker, default_players: int) -> tuple[str, str]:
    """Put ``seeker`` in the first gathering that fits ``wish`` (the fullest first), or start one; (gathering id, seeker key)."""
    tx.lock(f"gatherings/{wish.game}")
    drop_stale(tx, wish.game)
    candidates = tx.fetch(
        "SELECT g.id, g.players, (SELECT COUNT(*) FROM gathering_members m WHERE m.gathering_id = g.id) AS seated"
        " FROM gatherings g WHERE g.status = ? AND g.game = ? AND g.quick = 1 AND g.rated = ? AND g.options = ?"
        " ORDER BY seated DESC, g.created_at",
        (WAITING, wish.game, int(wish.rated), options_text(wish.options)),
    )
    for gathering_id, players, _ in candidates:
        if wish.players is not None and int(players) != wish.players:
            continue
        if _may_join(tx, str(gathering_id), seeker, wish.rated):
            return str(gathering_id), _add(tx, str(gathering_id), seeker)
    gathering_id = _start(tx, wish, wish.players or default_players, quick=True)
    return gathering_id, _add(tx, gathering_id, seeker)


def open_gathering(tx: RoomTx, wish: Wish, players: int, seeker: Seeker) -> tuple[str, str]:
    """A gathering anyone may join from the lobby (a rated table waiting for players), its creator in it."""
    tx.lock(f"gatherings/{wish.game}")
    gathering_id = _start(tx, wish, players, quick=False)
    return gathering_id, _add(tx, gathering_id, seeker)


def join(tx: RoomTx, gathering_id: str, seeker: Seeker) -> str:
    """Join a given gathering; the seeker's key. Raises ValueError (with the reason) if it cannot be joined."""
    rows = tx.fetch("SELECT game, rated FROM gatherings WHERE id = ?", (gathering_id,))
    if not rows:
        raise ValueError("there is no such table waiting for players")
    game, rated = str(rows[0][0]), bool(rows[0][1])
    tx.lock(f"gatherings/{game}")
    drop_stale(tx, game)
    status = tx.fetch("SELECT status FROM gatherings WHERE id = ?", (gathering_id,))
    if not status or status[0][0] != WAITING:
        raise ValueError("this table is no longer waiting for players")
    if rated and seeker.account_id is None:
        raise ValueError("a rated table is for signed-in players: sign in (or create an account) first")
    if not _may_join(tx, gathering_id, seeker, rated):
        raise ValueError("you cannot join this table: you are at it already, or a rated table already has a player from your address")
    return _add(tx, gathering_id, seeker)


def _start(tx: RoomTx, wish: Wish, players: int, *, quick: bool) -> str:
    gathering_id = secrets.token_hex(6)
    tx.execute(
        "INSERT INTO gatherings (id, game, players, options, rated, quick, created_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (gathering_id, wish.game, players, options_text(wish.options), int(wish.rated), int(quick), tx.now(), WAITING),
    )
    return gathering_id


def _may_join(tx: RoomTx, gathering_id: str, seeker: Seeker, rated: bool) -> bool:
    """Nobody twice (an account once), and at a rated table nobody from an address already there."""
    for account_id, address in tx.fetch("SELECT account_id, address FROM gathering_members WHERE gathering_id = ?", (gathering_id,)):
        if seeker.account_id is not None and account_id == seeker.account_id:
            return False
        if rated and address == seeker.address:
            return False
    return True


def _add(tx: RoomTx, gathering_id: str, seeker: Seeker) -> str:
    key = secrets.token_urlsafe(24)
    now = tx.now()
    tx.execute(
        "INSERT INTO gathering_members (gathering_id, seeker_hash, account_id, name, address, joined_at, seen_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (gathering_id, digest(key), seeker.account_id, seeker.name, seeker.address, now, now),
    )
    _fill_check(tx, gathering_id)
    return key


def _fill_check(tx: RoomTx, gathering_id: str) -> None:
    rows = tx.fetch(
        "SELECT g.players, (SELECT COUNT(*) FROM gathering_members m WHERE m.gathering_id = g.id) FROM gatherings g WHERE g.id = ?",
        (gathering_id,),
    )
    if rows and int(rows[0][1]) >= int(rows[0][0]):
        tx.execute("UPDATE gatherings SET status = ? WHERE id = ? AND status = ?", (FULL, gathering_id, WAITING))


def drop_stale(tx: RoomTx, game: str) -> None:
    """Drop members of waiting gatherings of ``game`` not heard from lately; gatherings left empty are gone."""
    since = tx.now() - MEMBER_TIMEOUT_SECONDS
    tx.execute(
        "DELETE FROM gathering_members WHERE seen_at < ? AND gathering_id IN (SELECT id FROM gatherings WHERE game = ? AND status = ?)",
        (since, game, WAITING),
    )
    tx.execute(
        "UPDATE gatherings SET status = ? WHERE game = ? AND status = ?"
        " AND NOT EXISTS (SELECT 1 FROM gathering_members m WHERE m.gathering_id = gatherings.id)",
        (GONE, game, WAITING),
    )


def leave(tx: RoomTx, gathering_id: str, key: str) -> None:
    """A member stops waiting (a gathering left empty is gone)."""
    rows = tx.fetch("SELECT game FROM gatherings WHERE id = ? AND status = ?", (gathering_id, WAITING))
    if not rows:
        return
    tx.lock(f"gatherings/{rows[0][0]}")
    tx.execute("DELETE FROM gathering_members WHERE gathering_id = ? AND seeker_hash = ?", (gathering_id, digest(key)))
    tx.execute(
        "UPDATE gatherings SET status = ? WHERE id = ? AND status = ?"
        " AND NOT EXISTS (SELECT 1 FROM gathering_members m WHERE m.gathering_id = ?)",
        (GONE, gathering_id, WAITING, gathering_id),
    )


def look(tx: RoomTx, gathering_id: str, key: str | None) -> dict[str, Any] | None:
    """A gathering as its members (and the lobby) see it, and what it holds for the member whose key this is."""
    rows = tx.fetch(
        "SELECT game, players, options, rated, quick, created_at, status, table_id, forming_at FROM gatherings WHERE id = ?",
        (gathering_id,),
    )
    if not rows:
        return None
    game, players, options, rated, quick, created_at, status, table_id, forming_at = rows[0]
    members = tx.fetch(
        "SELECT seeker_hash, account_id, name, seen_at, seat, sealed_token FROM gathering_members"
        " WHERE gathering_id = ? ORDER BY joined_at",
        (gathering_id,),
    )
    mine = next((member for member in members if member[0] == digest(key)), None) if key is not None else None
    return {
        "id": gathering_id,
        "game": str(game),
        "players": int(players),
        "options": json.loads(options),
        "rated": bool(rated),
        "quick": bool(quick),
        "created_at": float(created_at),
        "status": str(status),
        "table_id": table_id,
        "forming_at": forming_at,
        "members": [{"name": str(name), "account_id": account_id} for _, account_id, name, _, _, _ in members],
        "member": mine is not None,
        "seen_at": None if mine is None else float(mine[3]),
        "seat": None if mine is None or mine[4] is None else int(mine[4]),
        "sealed": None if mine is None else mine[5],
    }


def touch(tx: RoomTx, gathering_id: str, key: str) -> None:
    """Note that a member is still there (asked about the gathering)."""
    tx.execute("UPDATE gathering_members SET seen_at = ? WHERE gathering_id = ? AND seeker_hash = ?", (tx.now(), gathering_id, digest(key)))


def is_member(tx: RoomTx, gathering_id: str, key: str) -> bool:
    """Whether ``key`` is the key of someone waiting in the gathering."""
    return bool(tx.fetch("SELECT 1 FROM gathering_members WHERE gathering_id = ? AND seeker_hash = ?", (gathering_id, digest(key))))


def waiting_list(tx: RoomTx, limit: int) -> list[str]:
    """Ids of gatherings the lobby lists (not quick play's: those fill by themselves), oldest first."""
    since = tx.now() - MEMBER_TIMEOUT_SECONDS
    rows = tx.fetch(
        "SELECT g.id FROM gatherings g WHERE g.status = ? AND g.quick = 0"
        " AND EXISTS (SELECT 1 FROM gathering_members m WHERE m.gathering_id = g.id AND m.seen_at >= ?) ORDER BY g.created_at LIMIT ?",
        (WAITING, since, limit),
    )
    return [str(row[0]) for row in rows]


def claim_forming(tx: RoomTx, gathering_id: str, with_bots: bool = False) -> list[tuple[str, str | None, str]] | None:
    """Take the right to form a full gathering's table (or a waiting one's with bots); its members (seeker digest,
    account, name) in the order they joined, or None if another process forms it (or it is not ready)."""
    now = tx.now()
    ready = (WAITING, FULL) if with_bots else (FULL,)
    marks = ",".join("?" * len(ready))
    changed = tx.execute(
        f"UPDATE gatherings SET status = ?, forming_at = ? WHERE id = ? AND status IN ({marks}) AND (forming_at IS NULL OR forming_at < ?)",
        (FULL, now, gathering_id, *ready, now - FORMING_TIMEOUT_SECONDS),
    )
    if changed != 1:
        return None
    rows = tx.fetch(
        "SELECT seeker_hash, account_id, name FROM gathering_members WHERE gathering_id = ? ORDER BY joined_at", (gathering_id,)
    )
    return [(str(seeker), None if account is None else str(account), str(name)) for seeker, account, name in rows]


def formed(tx: RoomTx, gathering_id: str, table_id: str, seats: dict[str, tuple[int, str]]) -> bool:
    """Record the table formed for a gathering and each member's seat and sealed link; False if another process did first."""
    if (
        tx.execute("UPDATE gatherings SET status = ?, table_id = ? WHERE id = ? AND table_id IS NULL", (FORMED, table_id, gathering_id))
        != 1
    ):
        return False
    for seeker, (seat, sealed) in seats.items():
        tx.execute(
            "UPDATE gathering_members SET seat = ?, sealed_token = ? WHERE gathering_id = ? AND seeker_hash = ?",
            (seat, sealed, gathering_id, seeker),
        )
    return True


def release_forming(tx: RoomTx, gathering_id: str) -> None:
    """Forming failed (the table could not be created): another try may come."""
    tx.execute("UPDATE gatherings SET forming_at = NULL WHERE id = ? AND status = ?", (gathering_id, FULL))
