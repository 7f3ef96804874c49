"""What the accounts room reads and writes, as transactions over a :class:`~greenlight.web.rooms.RoomTx`.

Every function here runs in a worker thread inside one transaction (``rooms.write(function, ...)`` or
``rooms.read(...)``); none touches the tables' own storage.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from greenlight.web.rooms import RoomTx

#: How long a session lasts without use, and how often its last use is written down.
SESSION_SECONDS = 30 * 24 * 3600.0
SESSION_TOUCH_SECONDS = 3600.0


def digest(secret: str) -> str:
    """The stored form of a session cookie or a seeker's key (random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Account:
    """A signed-in person (as a session sees them)."""

    id: str
    name: str
    email: str | None
    created_at: float
    csrf: str = ""


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating at one game (OpenSkill's mean and uncertainty)."""

    game: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def shown(self) -> float:
        """The rating shown: the conservative estimate (mean minus three uncertainties), scaled like OpenSkill's ordinal."""
        return self.mu - 3 * self.sigma


# -- accounts and sessions ------------------------------------------------------------------------


def create_account(tx: RoomTx, name: str, key: str, password_hash: str, email: str | None, address: str) -> str | None:
    """A new account's id, or None if the name (or a look-alike of it) is taken."""
    if tx.fetch("SELECT 1 FROM accounts WHERE name_key = ?", (key,)):
        return None
    account_id = secrets.token_hex(8)
    tx.execute(
        "INSERT INTO accounts (id, name, name_key, password_hash, email, created_at, created_from) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (account_id, name, key, password_hash, email, tx.now(), address),
    )
    return account_id


def password_of(tx: RoomTx, key: str) -> tuple[str, str] | None:
    """(account id, password hash) of the account whose name has look-alike ``key``."""
    rows = tx.fetch("SELECT id, password_hash FROM accounts WHERE name_key = ?", (key,))
    return (str(rows[0][0]), str(rows[0][1] or "")) if rows else None


def set_password(tx: RoomTx, account_id: str, password_hash: str) -> None:
    """Store a new password hash (a rehash with newer parameters, or a changed password)."""
    tx.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", (password_hash, account_id))


def open_session(tx: RoomTx, account_id: str, address: str) -> tuple[str, str]:
    """A new session for the account: (cookie value, CSRF token)."""
    cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    now = tx.now()
    tx.execute(
        "INSERT INTO account_sessions (id_hash, account_id, csrf, address, created_at, seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (digest(cookie), account_id, csrf, address, now, now, now + SESSION_SECONDS),
    )
    return cookie, csrf


def session_account(tx: RoomTx, cookie: str) -> tuple[Account, bool] | None:
    """The account a session cookie stands for, and whether its last use should be written down; None if none."""
    rows = tx.fetch(
        "SELECT a.id, a.name, a.email, a.created_at, s.csrf, s.seen_at, s.expires_at FROM account_sessions s"
        " JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ?",
        (digest(cookie),),
    )
    if not rows:
        return None
    account_id, name, email, created_at, csrf, seen_at, expires_at = rows[0]
    now = tx.now()
    if float(expires_at) < now:
        return None
    return Account(str(account_id), str(name), email, float(created_at), str(csrf)), now - float(seen_at) > SESSION_TOUCH_SECONDS


def touch_session(tx: RoomTx, cookie: str) -> None:
    """Note the session's use now (it lasts :data:`SESSION_SECONDS` from its last use)."""
    now = tx.now()
    tx.execute("UPDATE account_sessions SET seen_at = ?, expires_at = ? WHERE id_hash = ?", (now, now + SESSION_SECONDS, digest(cookie)))


def close_session(tx: RoomTx, cookie: str, everywhere: bool) -> None:
    """Sign this browser out (or every browser of the account)."""
    if everywhere:
        tx.execute(
            "DELETE FROM account_sessions WHERE account_id = (SELECT account_id FROM account_sessions WHERE id_hash = ?)", (digest(cookie),)
        )
    else:
        tx.execute("DELETE FROM account_sessions WHERE id_hash = ?", (digest(cookie),))


def account_by_name(tx: RoomTx, key: str) -> dict[str, Any] | None:
    """An account's public facts by its name's look-alike key (its profile's header)."""
    rows = tx.fetch("SELECT id, name, created_at FROM accounts WHERE name_key = ?", (key,))
    if not rows:
        return None
    account_id, name, created_at = rows[0]
    return {"id": str(account_id), "name": str(name), "created_at": float(created_at)}


def delete_account(tx: RoomTx, account_id: str) -> list[tuple[str, int]]:
    """Remove the account and everything kept for it; the (table, seat) pairs it held (to be made anonymous)."""
    seats = [
        (str(table_id), int(seat))
        for table_id, seat in tx.fetch("SELECT table_id, seat FROM account_seats WHERE account_id = ?", (account_id,))
    ]
    for statement in (
        "DELETE FROM account_sessions WHERE account_id = ?",
        "DELETE FROM account_seats WHERE account_id = ?",
        "DELETE FROM rating_history WHERE account_id = ?",
        "DELETE FROM ratings WHERE account_id = ?",
        "UPDATE gathering_members SET account_id = NULL WHERE account_id = ?",
        "DELETE FROM accounts WHERE id = ?",
    ):
        tx.execute(statement, (account_id,))
    return seats


# -- a forgotten password --------------------------------------------------------------------------

#: How long a link to choose a new password works.
RESET_SECONDS = 3600.0


def start_reset(tx: RoomTx, key: str, token: str) -> tuple[str, str] | None:
    """Keep a new password link for the account named alike ``key``: its (name, e-mail), or None when there is no
    such account or it has no e-mail address (then nothing is kept)."""
    rows = tx.fetch("SELECT id, name, email FROM accounts WHERE name_key = ?", (key,))
    if not rows or not rows[0][2]:
        return None
    account_id, name, email = rows[0]
    now = tx.now()
    tx.execute("DELETE FROM password_resets WHERE account_id = ? OR expires_at < ?", (account_id, now))
    tx.execute(
        "INSERT INTO password_resets (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
        (digest(token), account_id, now, now + RESET_SECONDS),
    )
    return str(name), str(email)


def finish_reset(tx: RoomTx, token: str, password_hash: str) -> str | None:
    """Use a password link: the new hash is stored, every session of the account ends; the account's id, or None for a
    link that is unknown, used or too old."""
    rows = tx.fetch("SELECT account_id, expires_at FROM password_resets WHERE token_hash = ?", (digest(token),))
    if not rows:
        return None
    account_id, expires_at = str(rows[0][0]), float(rows[0][1])
    tx.execute("DELETE FROM password_resets WHERE token_hash = ?", (digest(token),))
    if expires_at < tx.now():
        return None
    tx.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", (password_hash, account_id))
    tx.execute("DELETE FROM account_sessions WHERE account_id = ?", (account_id,))
    return account_id


# -- seats -----------------------------------------------------------------------------------------


def hold_seat(tx: RoomTx, account_id: str, table_id: str, seat: int, game: str, players: int, sealed: str) -> str | None:
    """Record that the account holds the seat; None, or why it cannot (another account holds it)."""
    rows = tx.fetch("SELECT account_id FROM account_seats WHERE table_id = ? AND seat = ?", (table_id, seat))
    if rows and str(rows[0][0]) != account_id:
        return "another account holds this seat"
    if rows:
        tx.execute("UPDATE account_seats SET sealed_token = ? WHERE table_id = ? AND seat = ?", (sealed, table_id, seat))
    else:
        tx.execute(
            "INSERT INTO account_seats (table_id, seat, account_id, game, players, sealed_token, claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat, account_id, game, players, sealed, tx.now()),
        )
    return None


def seats_of(tx: RoomTx, account_id: str, limit: int) -> list[dict[str, Any]]:
    """The account's seats, newest first."""
    rows = tx.fetch(
        "SELECT table_id, seat, game, players, sealed_token, claimed_at, finished_at, place, won FROM account_seats"
        " WHERE account_id = ? ORDER BY claimed_at DESC LIMIT ?",
        (account_id, limit),
    )
    return [
        {
            "table": str(table_id),
            "seat": int(seat),
            "game": str(game),
            "players": int(players),
            "sealed": str(sealed),
            "claimed_at": float(claimed_at),
            "finished_at": None if finished_at is None else float(finished_at),
            "place": None if place is None else int(place),
            "won": None if won is None else bool(won),
        }
        for table_id, seat, game, players, sealed, claimed_at, finished_at, place, won in rows
    ]


def holders(tx: RoomTx, table_id: str) -> dict[int, str]:
    """Which account holds each seat of a table (seats nobody's account holds are left out)."""
    return {
        int(seat): str(account) for seat, account in tx.fetch("SELECT seat, account_id FROM account_seats WHERE table_id = ?", (table_id,))
    }


def names_of(tx: RoomTx, account_ids: list[str]) -> dict[str, str]:
    """Account names by id."""
    if not account_ids:
        return {}
    marks = ",".join("?" * len(account_ids))
    return {str(key): str(name) for key, name in tx.fetch(f"SELECT id, name FROM accounts WHERE id IN ({marks})", account_ids)}


def record_results(tx: RoomTx, table_id: str, places: dict[int, int], winners: set[int]) -> None:
    """A finished table: each account-held seat's place and whether it won (for profiles)."""
    now = tx.now()
    for seat, place in places.items():
        tx.execute(
            "UPDATE account_seats SET finished_at = ?, place = ?, won = ? WHERE table_id = ? AND seat = ? AND finished_at IS NULL",
            (now, place, int(seat in winners), table_id, seat),
        )


def record_stats(tx: RoomTx, account_id: str) -> dict[str, int]:
    """Games finished and won by the account."""
    rows = tx.fetch(
        "SELECT COUNT(*), COALESCE(SUM(won), 0) FROM account_seats WHERE account_id = ? AND finished_at IS NOT NULL", (account_id,)
    )
    return {"played": int(rows[0][0]), "won": int(rows[0][1])}


# -- ratings -----------------------------------------------------------------------------------------


def mark_rated(tx: RoomTx, table_id: str, game: str) -> None:
    """A table created rated."""
    tx.execute("INSERT INTO rated_tables (table_id, game, created_at) VALUES (?, ?, ?)", (table_id, game, tx.now()))


def is_rated(tx: RoomTx, table_id: str) -> bool:
    """Whether the table was created rated."""
    return bool(tx.fetch("SELECT 1 FROM rated_tables WHERE table_id = ?", (table_id,)))


def claim_rating(tx: RoomTx, table_id: str) -> bool:
    """Take the table's rating for this transaction: True once, for the first to ask (every process may try)."""
    return tx.execute("UPDATE rated_tables SET rated_at = ? WHERE table_id = ? AND rated_at IS NULL", (tx.now(), table_id)) == 1


def ratings_of(tx: RoomTx, account_ids: list[str], game: str) -> dict[str, Rating]:
    """The current ratings of some accounts at one game (accounts without one are left out)."""
    if not account_ids:
        return {}
    marks = ",".join("?" * len(account_ids))
    rows = tx.fetch(
        f"SELECT account_id, mu, sigma, games, wins FROM ratings WHERE game = ? AND account_id IN ({marks})", [game, *account_ids]
    )
    return {str(account): Rating(game, float(mu), float(sigma), int(games), int(wins)) for account, mu, sigma, games, wins in rows}


def store_rating(tx: RoomTx, account_id: str, rating: Rating, table_id: str, place: int, players: int) -> None:
    """An account's new rating after a rated game, and its history entry."""
    now = tx.now()
    tx.execute(
        "INSERT INTO ratings (account_id, game, mu, sigma, games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (account_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " wins = excluded.wins, updated_at = excluded.updated_at",
        (account_id, rating.game, rating.mu, rating.sigma, rating.games, rating.wins, now),
    )
    tx.execute(
        "INSERT INTO rating_history (account_id, game, table_id, mu, sigma, place, players, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (account_id, rating.game, table_id, rating.mu, rating.sigma, place, players, now),
    )


def all_ratings(tx: RoomTx, account_id: str) -> list[Rating]:
    """Every rating of an account."""
    rows = tx.fetch("SELECT game, mu, sigma, games, wins FROM ratings WHERE account_id = ? ORDER BY game", (account_id,))
    return [Rating(str(game), float(mu), float(sigma), int(games), int(wins)) for game, mu, sigma, games, wins in rows]


def rating_history(tx: RoomTx, account_id: str, limit: int) -> list[dict[str, Any]]:
    """The account's rating after each of its latest rated games, newest first."""
    rows = tx.fetch(
        "SELECT game, table_id, mu, sigma, place, players, at FROM rating_history WHERE account_id = ? ORDER BY at DESC LIMIT ?",
        (account_id, limit),
    )
    return [
        {
            "game": str(game),
            "table": str(table),
            "mu": float(mu),
            "sigma": float(sigma),
            "place": int(place),
            "players": int(players),
            "at": float(at),
        }
        for game, table, mu, sigma, place, players, at in rows
    ]


def leaderboard(tx: RoomTx, game: str, limit: int) -> list[tuple[str, Rating]]:
    """The best-rated accounts at a game, by the rating shown (mean minus three uncertainties)."""
    rows = tx.fetch(
        "SELECT a.name, r.mu, r.sigma, r.games, r.wins FROM ratings r JOIN accounts a ON a.id = r.account_id"
        " WHERE r.game = ? ORDER BY r.mu - 3 * r.sigma DESC, a.name LIMIT ?",
        (game, limit),
    )
    return [(str(name), Rating(game, float(mu), float(sigma), int(games), int(wins))) for name, mu, sigma, games, wins in rows]


# -- the server's key ---------------------------------------------------------------------------------


def server_secret(tx: RoomTx, fresh: str) -> str:
    """The server's stored secret (``fresh`` becomes it if none is stored yet, whichever process asks first)."""
    tx.lock("accounts/key")
    rows = tx.fetch("SELECT secret FROM account_keys WHERE id = 1")
    if rows:
        return str(rows[0][0])
    tx.execute("INSERT INTO account_keys (id, secret) VALUES (1, ?)", (fresh,))
    return fresh


def options_text(options: dict[str, Any]) -> str:
    """Options as stored with a gathering (canonical JSON, so equal options compare equal)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))
