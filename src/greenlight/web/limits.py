"""The server's limits: every knob in one place, and the per-client rate limiter.

Each limit has a safe default for a server on the open internet and a
``greenlight serve`` option (see docs/security.md for the list). A client is
known by its address (the peer address, or the forwarded one when the
request comes through a proxy trusted with ``--forwarded-allow-ips``).

>>> limiter = RateLimiter(per_second=1.0, burst=2)
>>> [limiter.wait_needed("ann", now=0.0) for _ in range(3)]
[0.0, 0.0, 1.0]
>>> limiter.wait_needed("ann", now=1.0), limiter.wait_needed("bob", now=1.0)
(0.0, 0.0)
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Everything ``greenlight serve`` can tune; the defaults are what a public server should run with."""

    #: Where people reach this server (seat links are built from it, never from request headers).
    public_url: str = "http://127.0.0.1:8000"
    #: A secret that shows ``/api/health``'s figures to whoever sends it in ``X-Greenlight-Operator`` (from the
    #: ``GREENLIGHT_OPERATOR_TOKEN`` environment variable; empty: the figures are shown to nobody).
    operator_token: str = ""
    bot_delay: float = 0.6
    #: Worker processes for searches (hard and expert bots, hints, reviews, uploaded replays; default: one per CPU),
    #: and for quick bots (random, easy, medium), which never wait behind a search.
    bot_workers: int | None = None
    quick_bot_workers: int = 1
    #: Search seconds each table creator's tables (and hints) may use: a steady rate per minute and a credit to
    #: start from. A creator past it waits behind everyone within theirs and cannot create tables with searching
    #: bots until the credit is back above zero (0: no budget).
    search_seconds_per_minute: float = 60.0
    search_burst_seconds: float = 600.0
    #: A write that the database has not taken within this many seconds fails with a 503 (nothing stored).
    write_timeout: float = 3.0
    #: Tables kept in memory at once; idle ones are unloaded first, and loaded again when someone looks.
    max_live_tables: int = 500
    #: A table with no client, no bot to move and no move for this long is unloaded from memory.
    idle_unload_seconds: float = 600.0
    #: An unfinished table with no move for this long is closed for good (0: never).
    expire_after_seconds: float = 30 * 24 * 3600.0
    #: How often idle tables are unloaded and abandoned ones expired.
    housekeeping_seconds: float = 30.0
    #: Tables one client may create: a sustained rate per minute and a burst.
    create_per_minute: float = 20.0
    create_burst: int = 10
    #: Actions one client may send (HTTP and WebSocket together): per second and a burst.
    actions_per_second: float = 10.0
    actions_burst: int = 30
    #: Request bodies: actions and table creation; record uploads (``/api/replay``); whole positions (``/api/positions/tables``).
    max_body_bytes: int = 16 * 1024
    max_upload_bytes: int = 4 * 1024 * 1024
    max_position_bytes: int = 256 * 1024
    #: Uploads (records and positions) one client address may send: per minute, burst; and uploads read or worked
    #: on at once by this process (503 beyond), so uploads never hold more than that many bodies in memory.
    uploads_per_minute: float = 10.0
    uploads_burst: int = 5
    max_uploads_at_once: int = 4
    #: The designer's lab (docs/security.md): studies one client address may have queued or running; running at once on
    #: the whole server; queued or running in all; games per study (with a search bot); starts per client per minute
    #: and burst; largest data upload.
    lab_studies_per_client: int = 2
    lab_studies_running: int = 2
    lab_queue: int = 20
    lab_games_per_study: int = 4000
    lab_search_games_per_study: int = 100
    lab_starts_per_minute: float = 6.0
    lab_starts_burst: int = 3
    lab_upload_bytes: int = 2 * 1024 * 1024
    #: JSON from clients: deepest nesting and longest integer (digits) accepted.
    max_json_depth: int = 32
    max_json_int_digits: int = 80
    #: WebSockets open on one table, and by one client over all tables.
    max_sockets_per_table: int = 200
    max_sockets_per_client: int = 32
    #: Largest WebSocket message a client may send.
    max_message_bytes: int = 64 * 1024
    #: HTTP connections one client may hold open; seconds to send a request's headers; idle keep-alive.
    max_connections_per_client: int = 64
    header_timeout_seconds: float = 10.0
    #: A request's headers: all of them with the request line (bytes), the longest line, and how many (431 beyond).
    max_header_bytes: int = 16 * 1024
    max_header_line_bytes: int = 8 * 1024
    max_headers: int = 100
    keep_alive_seconds: int = 5
    #: Seconds to send a request body once its headers are in.
    body_timeout_seconds: float = 20.0
    #: Largest page of ``GET /api/tables``.
    max_page_size: int = 200
    #: Chat: messages one client may send (per second, burst) and the longest message.
    chat_per_second: float = 1.0
    chat_burst: int = 5
    max_chat_chars: int = 300
    #: Presence changes (joins and leaves) within this many seconds go out as one message.
    presence_delay_seconds: float = 0.25
    #: Seconds of search for a hint, and for each decision of a review; reviews running at once on the server.
    hint_seconds: float = 2.0
    review_seconds: float = 1.0
    max_reviews: int = 2
    #: Hints one client address may ask for (per minute, burst; a hint asked again for the same move is answered from
    #: the first and costs nothing), and hints searched or waiting for a worker at once on this process (503 beyond).
    hints_per_minute: float = 10.0
    hints_burst: int = 3
    max_hints_at_once: int = 2
    #: HTTP requests one client address may make to this process (every route, pages and files too): per second, burst.
    requests_per_second: float = 30.0
    requests_burst: int = 120
    #: WebSocket messages one client address may send to this process over all its sockets: per second, burst. Messages
    #: beyond are dropped unread (the first gets an ``error``); a socket that goes on sending is closed (4429).
    socket_messages_per_second: float = 20.0
    socket_messages_burst: int = 60
    #: WebSockets one client address may open on this process: per minute, burst.
    socket_opens_per_minute: float = 60.0
    socket_opens_burst: int = 20
    #: Every pace's durations (live banks and increments, turn-based deadlines, absences) are multiplied by this: 1 on a
    #: real server; tests and demonstrations shorten a day to seconds with it (the clocks still run on real time).
    pace_time_scale: float = 1.0
    #: E-mail ("your turn"): the SMTP server (``smtp://user@host:587``, ``smtps://host:465``, ``smtp://host:25?tls=none``;
    #: empty: no e-mail), its password (from ``GREENLIGHT_SMTP_PASSWORD``), the sender, and the seconds one SMTP
    #: conversation may take.
    smtp_url: str = ""
    smtp_password: str = ""
    smtp_sender: str = ""
    smtp_timeout_seconds: float = 15.0
    #: Web Push: the contact push services may write to about this server (``mailto:`` or ``https:``; default: the
    #: sender's address, else the public URL), and the push services' hosts the server may post to (comma-separated).
    push_contact: str = ""
    push_hosts: str = "fcm.googleapis.com,*.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com"
    #: A "your turn" message waits this long before it goes (turns at several tables go out as one message, and no
    #: message goes if the move was made meanwhile).
    notify_delay_seconds: float = 60.0
    #: Messages at most: e-mails to one address a day, messages about one table a day, confirmation e-mails to one address a day.
    notify_emails_per_address_per_day: int = 40
    notify_per_table_per_day: int = 200
    notify_confirmations_per_address_per_day: int = 3
    #: Subscriptions one client address may ask for (per hour, burst).
    notify_subscriptions_per_hour: float = 20.0
    notify_subscriptions_burst: int = 10
    #: A failed send is tried again after this many seconds, doubling each time, at most this many times in all.
    notify_retry_seconds: float = 30.0
    notify_attempts: int = 6
    #: Trained policies the lobby offers as bots, as (name, file) pairs (``greenlight serve --policy NAME=FILE``); visitors
    #: name them only by these names, never by a file (``greenlight.web.policies``).
    policies: tuple[tuple[str, str], ...] = ()


class RateLimiter:
    """A token bucket per client: ``burst`` requests at once, then ``per_second`` on average."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = max(1, burst)
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait_needed(self, client: str, now: float | None = None) -> float:
        """Take one token for ``client``: 0.0 if allowed, else the seconds until a token is free (nothing taken)."""
        if self.per_second <= 0:
            return 0.0  # no limit
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.per_second)
        if tokens >= 1.0:
            self._buckets[client] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._forget(now)
            return 0.0
        self._buckets[client] = (tokens, now)
        return (1.0 - tokens) / self.per_second

    def _forget(self, now: float) -> None:
        """Drop clients whose bucket is full again (they are indistinguishable from new ones)."""
        refill = self.burst / self.per_second
        self._buckets = {client: (tokens, last) for client, (tokens, last) in self._buckets.items() if now - last < refill}


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def client_pseudonym(address: str) -> str:
    """What the store keeps of a table creator's address: a short digest (a pseudonym for fair bot work, not a secret)."""
    return hashlib.sha256(f"greenlight-creator/{address}".encode()).hexdigest()[:16]
