"""The notifications room: "your turn" by e-mail and Web Push, reminders before a deadline, and "my tables".

How a message comes to be, and goes:

1. The process that stores a move hears of it (``hub.watch``) and, if anyone listens at that table (a seat's
   subscription, or an account keeping one of its seats: remembered per table), owes a message to each seat whose
   turn began: a row in the outbox, unique per (subscription, table, seat, turn), so a turn is told once however many
   processes hear of it. A seat's *turn* is counted by its own moves: a seat that owes a decision after making n moves
   is at turn n, so the further commitments of others in a simultaneous step tell it nothing new. A seat that has just
   moved (and owes the next part of a compound move) is at its table, and is not told.
2. Each process runs one sender that sleeps until the first message is due (``notify_delay_seconds`` after the turn
   began, so turns at several tables go out in one e-mail and a move made meanwhile sends nothing), claims every
   message due to one destination in one transaction (an e-mail address, or a browser's push subscription), checks
   each is still owed (the seat still owes that turn), and sends. A failed send is tried again with a back-off; a
   claim lapses if its process dies. Sending runs in worker threads, e-mail and push apart, so a failing mail server
   holds up neither moves nor pushes.
3. Budgets: confirmation e-mails and messages per address per day, messages per table per day, subscriptions per
   client address; e-mail addresses are used only once confirmed; every e-mail has an unsubscribe link for its table
   and one for every message from this server (RFC 8058 one-click as well). Nobody but the subscriber sees an address.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import BaseModel, Field

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.web.notify import push, store
from greenlight.web.notify.mail import SmtpServer, Waiting, confirm_message, turn_message
from greenlight.web.notify.push import GONE, PushSender
from greenlight.web.notify.schema import SCHEMA
from greenlight.web.notify.store import CONFIRM, EMAIL, PUSH, REMINDER, TURN, Owed, Subscription
from greenlight.web.rooms import RoomDatabase
from greenlight.web.storage import StorageError
from greenlight.web.tables import CREATED, MOVED, SEATED, LiveTable, TableError, TableEvent, TableHub

if TYPE_CHECKING:
    from greenlight.web.accounts import AccountsRoom
    from greenlight.web.clocks.room import ClocksRoom

log = logging.getLogger("greenlight.web")

STATIC = Path(__file__).resolve().parents[1] / "static"
#: Destinations one sender claims per transaction; sends at once per channel; how long a claim holds.
CLAIM_BATCH = 50
EMAILS_AT_ONCE, PUSHES_AT_ONCE = 2, 8
LEASE_SECONDS = 120.0
LONGEST_SLEEP_SECONDS = 300.0
#: How long "nobody listens at this table" is believed without looking again (an account may keep a seat meanwhile).
QUIET_TABLE_SECONDS = 30.0
TABLES_KEPT = 20_000
#: Seat links one "my tables" request may carry.
MY_TABLES_LINKS = 50


class PushKeys(BaseModel):
    """A browser's push subscription keys (``PushSubscription.toJSON().keys``)."""

    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class PushSubscriptionIn(BaseModel):
    """A browser's push subscription (``PushSubscription.toJSON()``)."""

    endpoint: str = Field(max_length=1000)
    keys: PushKeys


class SubscribeIn(BaseModel):
    """Hear of your turn: by e-mail (``address``) or by Web Push (``subscription``)."""

    channel: Literal["email", "push"]
    address: str | None = Field(default=None, max_length=200)
    subscription: PushSubscriptionIn | None = None


class LinksIn(BaseModel):
    """Seat links this browser holds."""

    links: list[str] = Field(max_length=MY_TABLES_LINKS)


class NotifyRoom:
    """E-mail and push notifications, reminders and "my tables" (a :class:`~greenlight.web.rooms.Room`)."""

    schema = SCHEMA

    def __init__(self, clocks: ClocksRoom | None = None, accounts: AccountsRoom | None = None) -> None:
        self.clocks = clocks
        self.accounts = accounts
        self.hub: TableHub | None = None
        self.router = self._routes()
        self.smtp: SmtpServer | None = None
        self.pusher: PushSender | None = None
        self.push_key: str | None = None
        self.with_accounts = False
        self._key = b""
        self._vault: Any = None
        self._listening: OrderedDict[str, tuple[bool, float]] = OrderedDict()
        self._wake = asyncio.Event()
        self._next_due: float | None = None
        self._sender: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._lanes: dict[str, asyncio.Semaphore] = {}

    # -- life ----------------------------------------------------------------------------------

    async def start(self, hub: TableHub) -> None:
        """Read the settings, take the server's keys, watch tables, start the sender."""
        from greenlight.web.accounts.vault import Vault, key_from_environment

        self.hub = hub
        settings = hub.settings
        self._wake = asyncio.Event()
        self._lanes = {EMAIL: asyncio.Semaphore(EMAILS_AT_ONCE), PUSH: asyncio.Semaphore(PUSHES_AT_ONCE)}
        self.with_accounts = "accounts" in self.rooms.found
        if settings.smtp_url:
            self.smtp = SmtpServer.from_url(settings.smtp_url, settings.smtp_password, settings.smtp_sender, settings.smtp_timeout_seconds)
        key = key_from_environment()
        if key is None:
            fresh = secrets.token_urlsafe(32)
            if self.with_accounts:
                from greenlight.web.accounts import store as accounts

                secret = await self.rooms.write(accounts.server_secret, fresh)
            else:
                secret = await self.rooms.write(store.link_secret, fresh)
            key = hashlib.sha256(secret.encode()).digest()
        self._vault = Vault(key)
        self._key = hashlib.sha256(key + b"/greenlight-notify-links").digest()
        if push.available():
            private, public = await self.rooms.write(store.vapid_keys, push.new_keys())
            contact = settings.push_contact or (
                f"mailto:{settings.smtp_sender.rpartition('<')[2].strip('> ')}" if settings.smtp_sender else ""
            )
            if not contact:
                contact = settings.public_url if settings.public_url.startswith("https://") else "mailto:operator@localhost"
            self.pusher = PushSender(private, contact, settings.smtp_timeout_seconds)
            self.push_key = public
        hub.watch(self._table_changed)
        self.rooms.listen(store.CHANNEL, self._heard)
        if self.clocks is not None:
            self.clocks.on_reminder(self._reminder)
        self._sender = asyncio.create_task(self._send_loop(), name="greenlight-notify")

    async def stop(self) -> None:
        """Stop the sender and the sends in flight (their claims lapse; another process sends them)."""
        tasks = [task for task in (self._sender, *self._tasks) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def rooms(self) -> RoomDatabase:
        """The rooms' database."""
        return self._hub().backend.rooms

    def _hub(self) -> TableHub:
        assert self.hub is not None, "the notifications room has not started"
        return self.hub

    def _spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- tokens in links ---------------------------------------------------------------------------

    def token(self, purpose: str, sub_id: str) -> str:
        """The token of a confirmation or unsubscribe link: the subscription and a MAC of it under the server's key."""
        mac = hmac.new(self._key, f"{purpose}/{sub_id}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{sub_id}.{mac}"

    def token_subscription(self, purpose: str, token: str) -> str | None:
        """The subscription a link's token stands for, or None if it is not one of this server's."""
        sub_id, _, _ = token.partition(".")
        return sub_id if sub_id and hmac.compare_digest(self.token(purpose, sub_id), token) else None

    def _url(self, path: str) -> str:
        return f"{self._hub().settings.public_url.rstrip('/')}{path}"

    def seat_link(self, table_id: str, seat: int, sealed: str | None) -> str:
        """The seat's link (it opens the seat), or the page of the person's tables if the link is not known."""
        token = self._vault.open(sealed, f"{table_id}/{seat}") if sealed else None
        return self._url(f"/tables/{table_id}#token={token}") if token else self._url("/my-tables")

    # -- who is to be told ----------------------------------------------------------------------------

    def _table_changed(self, table: LiveTable, event: TableEvent) -> None:
        if event.kind == SEATED and event.seat is not None:
            self._spawn(self._write(store.seat_changed_hands, table.id, event.seat), f"notify-seated-{table.id}")
        if event.kind in (MOVED, SEATED, CREATED):
            turns = self.turns(table, event.index if event.kind == MOVED else None)
            if turns:
                self._spawn(self._enqueue(table.id, turns, TURN, self._hub().settings.notify_delay_seconds), f"notify-{table.id}")

    @staticmethod
    def turns(table: LiveTable, moved: int | None) -> list[tuple[int, int]]:
        """(seat, turn) of each person whose turn began at this move (the mover, still at the table, is left out)."""
        if table.finished or table.closed or table.broken is not None:
            return []
        actions = table.stored.record.actions
        mover = actions[moved][0] if moved is not None and moved < len(actions) else None
        owing = set(table.match.decision().players)
        return [
            (row.seat, sum(1 for seat, _ in actions if seat == row.seat))
            for row in table.stored.seats
            if row.kind == "human" and not row.open and row.seat in owing and row.seat != mover
        ]

    async def _listens(self, table_id: str) -> bool:
        known = self._listening.get(table_id)
        if known is not None and (known[0] or time.monotonic() - known[1] < QUIET_TABLE_SECONDS):
            return known[0]
        listens = bool(await self.rooms.read(store.table_listens, table_id, self.with_accounts))
        self._listening[table_id] = (listens, time.monotonic())
        while len(self._listening) > TABLES_KEPT:
            self._listening.popitem(last=False)
        return listens

    async def _enqueue(self, table_id: str, turns: list[tuple[int, int]], kind: str, delay: float) -> None:
        try:
            if await self._listens(table_id):
                await self.rooms.write(store.enqueue, table_id, turns, kind, delay, self.with_accounts)
        except StorageError as error:
            log.warning("table %s: the turn's notifications could not be queued: %s", table_id, error, extra={"table": table_id})

    def _reminder(self, table_id: str, seat: int, since: int, due_at: float) -> None:
        async def remind() -> None:
            try:
                table = await self._hub().table(table_id)
            except TableError:
                return
            if self._hub().owes_since(table, seat, since):
                turn = sum(1 for mover, _ in table.stored.record.actions if mover == seat)
                await self._enqueue(table_id, [(seat, turn)], REMINDER, 0.0)

        self._spawn(remind(), f"notify-reminder-{table_id}")

    def _heard(self, data: dict[str, Any]) -> None:
        table_id = data.get("table")
        if isinstance(table_id, str):
            self._listening.pop(table_id, None)
        if data.get("account"):
            self._listening.clear()  # an account listens at every table where it keeps a seat
        due = data.get("due")
        if isinstance(due, int | float) and (self._next_due is None or due < self._next_due):
            self._next_due = float(due)
            self._wake.set()

    # -- the sender -------------------------------------------------------------------------------

    async def _send_loop(self) -> None:
        settings = self._hub().settings
        budgets = (settings.notify_emails_per_address_per_day, settings.notify_per_table_per_day)
        failures = 0
        while True:
            self._wake.clear()
            try:
                claimed = await self.rooms.write(store.claim, CLAIM_BATCH, LEASE_SECONDS, budgets, self.with_accounts)
                failures = 0
            except StorageError as error:
                failures += 1
                wait = min(30.0, 0.5 * 2**failures)
                log.warning("the notifications sender could not read its queue (%s); trying again in %.1f s", error, wait)
                await asyncio.sleep(wait)
                continue
            for destination, owed in claimed.batches.items():
                self._spawn(self._deliver(owed), f"notify-send-{destination[:20]}")
            if len(claimed.batches) >= CLAIM_BATCH:
                continue
            self._next_due = claimed.next_due
            sleep = LONGEST_SLEEP_SECONDS if claimed.next_due is None else max(0.0, claimed.next_due - claimed.now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(sleep, LONGEST_SLEEP_SECONDS) + 0.005)

    async def _deliver(self, owed: list[Owed]) -> None:
        """Send what one destination is owed (one e-mail, or one push), or note why not."""
        sub = owed[0].subscription
        async with self._lanes[sub.channel]:
            try:
                confirms = [item for item in owed if item.kind == CONFIRM]
                if confirms:
                    await self._send(confirms, self._confirmation(confirms[0]))
                for kind in (TURN, REMINDER):
                    items = [item for item in owed if item.kind == kind]
                    if items:
                        await self._deliver_turns(items, reminder=kind == REMINDER)
            except Exception:
                log.exception("notifications to one destination failed; tried again later")

    async def _deliver_turns(self, owed: list[Owed], *, reminder: bool) -> None:
        still: list[tuple[Owed, LiveTable]] = []
        gone: list[int] = []
        seen: set[tuple[str, int]] = set()
        for item in owed:
            table = await self._still_owed(item, reminder=reminder)
            if table is None or (item.table_id, item.seat) in seen:
                gone.append(item.id)
            else:
                seen.add((item.table_id, item.seat))
                still.append((item, table))
        if gone:
            await self._write(store.dropped, gone, "no longer owed")
        if still:
            await self._send([item for item, _ in still], await self._turns_message(still, reminder=reminder))

    async def _still_owed(self, item: Owed, *, reminder: bool) -> LiveTable | None:
        """The table, if the seat still owes the decision of that turn (and, for a turn, its page is not open)."""
        try:
            table = await self._hub().table(item.table_id)
        except TableError:
            return None
        if table.finished or table.closed or table.broken is not None or table.stored.seats[item.seat].kind != "human":
            return None
        if item.seat not in table.match.decision().players:
            return None
        if sum(1 for seat, _ in table.stored.record.actions if seat == item.seat) != item.turn:
            return None
        if not reminder and table.info()["seats"][item.seat].get("connected"):
            return None  # the seat's page is open: it hears of its turn there
        return table

    async def _send(self, owed: list[Owed], message: Any) -> None:
        sub = owed[0].subscription
        ids = [item.id for item in owed]
        try:
            if sub.channel == EMAIL:
                if self.smtp is None:
                    raise OSError("no SMTP server is set up (--smtp)")
                await asyncio.to_thread(self.smtp.send, message)
                outcome = "sent"
            else:
                if self.pusher is None or sub.push_keys is None:
                    raise OSError("Web Push is not installed on this server")
                outcome = await asyncio.to_thread(self.pusher.send, sub.address, sub.push_keys, message)
        except Exception as error:  # OSError, smtplib's errors: the message waits and is tried again
            settings = self._hub().settings
            log.warning("a %s notification failed (%s); tried again later", sub.channel, error)
            await self._write(store.failed, ids, str(error), settings.notify_retry_seconds, settings.notify_attempts)
            return
        if outcome == GONE:
            await self._write(store.unsubscribe, sub.id, everything=False)
            return
        await self._write(store.sent, ids, outcome)

    # -- the messages ----------------------------------------------------------------------------------

    def _confirmation(self, item: Owed) -> Any:
        sub = item.subscription
        where = "a Greenlight table" if sub.table_id else "any table where you keep a seat with your account"
        confirm = self._url(f"/notify/confirm/{self.token('confirm', sub.id)}")
        never = self._url(f"/notify/unsubscribe/{self.token('unsubscribe', sub.id)}?everything=1")
        return confirm_message(self._hub().settings.smtp_sender, sub.address, confirm, never, where)

    async def _turns_message(self, still: list[tuple[Owed, LiveTable]], *, reminder: bool) -> Any:
        waiting = []
        for item, table in still:
            names = [row.name for row in table.stored.seats]
            others = ", ".join(name for seat, name in enumerate(names) if seat != item.seat)
            link = self.seat_link(
                item.table_id, item.seat, item.account_link if item.subscription.account_id else item.subscription.sealed_link
            )
            unsubscribe = self._url(f"/notify/unsubscribe/{self.token('unsubscribe', item.subscription.id)}")
            waiting.append(
                Waiting(
                    table.game.spec.title,
                    names[item.seat],
                    others,
                    table.match.decision().prompt,
                    await self._deadline(table, item.seat),
                    link,
                    unsubscribe,
                )
            )
        sub = still[0][0].subscription
        if sub.channel == PUSH:
            first = waiting[0]
            title = ("Your time runs out soon" if reminder else "Your turn") + (
                f" at {first.title}" if len(waiting) == 1 else f" at {len(waiting)} tables"
            )
            body = f"{first.asked} {first.deadline}".strip() if len(waiting) == 1 else ", ".join(item.title for item in waiting)
            url = first.link if len(waiting) == 1 else self._url("/my-tables")
            return {
                "title": title,
                "body": body,
                "url": url,
                "tag": f"greenlight-{still[0][0].table_id}" if len(waiting) == 1 else "greenlight",
            }
        never = self._url(f"/notify/unsubscribe/{self.token('unsubscribe', sub.id)}?everything=1")
        return turn_message(self._hub().settings.smtp_sender, sub.address, waiting, never, reminder=reminder)

    async def _deadline(self, table: LiveTable, seat: int) -> str:
        if self.clocks is None:
            return ""
        with contextlib.suppress(TableError):
            shown = await self.clocks.clock_json(table)
            entry = shown["seats"][seat] if shown.get("timed") else {}
            if entry.get("due_at"):
                when = time.strftime("%a %d %b %H:%M UTC", time.gmtime(entry["due_at"]))
                from greenlight.web.clocks.pace import duration_words

                left = duration_words(max(0.0, entry["due_at"] - shown["now"]))
                return f"Decide within {left} (by {when}). {shown['pace']['timeout_words']}"
        return ""

    # -- storage helpers ------------------------------------------------------------------------------

    async def _write(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await self.rooms.write_for_request(functools.partial(function, **kwargs) if kwargs else function, *args)

    async def _read(self, function: Callable[..., Any], *args: Any) -> Any:
        return await self.rooms.read_for_request(function, *args)

    # -- subscribing -------------------------------------------------------------------------------------

    async def subscribe(
        self, request: Request, body: SubscribeIn, *, table: LiveTable | None, seat: int | None, account: Any, sealed: str | None
    ) -> None:
        """Keep a subscription of a seat (``table``, ``seat``) or of an account, after checking it and taking the budget."""
        from greenlight.web.limits import client_pseudonym, retry_after

        hub = self._hub()
        settings = hub.settings
        address = request.client.host if request.client else ""
        wait = await hub.wait_needed(
            "notify-subscribe", address, settings.notify_subscriptions_per_hour / 3600, settings.notify_subscriptions_burst
        )
        if wait > 0:
            raise TableError(429, f"too many notification requests from your address; try again in {retry_after(wait)} s", retry_after=wait)
        sub_id = secrets.token_hex(8)
        if body.channel == EMAIL:
            if self.smtp is None:
                raise TableError(409, "this server sends no e-mail (its operator has not set up an SMTP server)")
            if account is not None:
                email = account.email
                if not email:
                    raise TableError(409, "your account has no e-mail address; add one on the Account page first")
            else:
                from greenlight.web.accounts.room import clean_email

                email = clean_email(body.address)
                if email is None:
                    raise TableError(400, "send the e-mail address to write to ('address')")
            digest = hashlib.sha256(f"greenlight-email/{email.strip().lower()}".encode()).hexdigest()
            sub = Subscription(
                sub_id, EMAIL, table.id if table else None, seat, account.id if account else None, email, digest, None, sealed, False
            )
        else:
            if self.pusher is None:
                raise TableError(409, "this server sends no push notifications (pip install 'greenlight-boardgames[notify]')")
            if body.subscription is None:
                raise TableError(400, "send the browser's push subscription ('subscription': endpoint and keys)")
            keys = body.subscription.keys.model_dump()
            problem = push.endpoint_problem(body.subscription.endpoint, settings.push_hosts) or push.keys_problem(keys)
            if problem is not None:
                raise TableError(400, problem)
            digest = hashlib.sha256(body.subscription.endpoint.encode()).hexdigest()
            sub = Subscription(
                sub_id,
                PUSH,
                table.id if table else None,
                seat,
                account.id if account else None,
                body.subscription.endpoint,
                digest,
                keys,
                sealed,
                True,
            )
        problem = await self._write(store.subscribe, sub, client_pseudonym(address), settings.notify_confirmations_per_address_per_day)
        if problem is not None:
            raise TableError(409, problem)
        if table is not None:
            self._listening.pop(table.id, None)

    # -- my tables -------------------------------------------------------------------------------------------

    async def my_tables(self, links: list[str]) -> list[dict[str, Any]]:
        """Every table a link opens, with whether it is that seat's turn and how long it has (turns first, soonest first)."""
        from greenlight.web.accounts.room import parse_link

        hub = self._hub()
        found: dict[tuple[str, int], dict[str, Any]] = {}
        for link in links:
            table_id, token = parse_link(link)
            if table_id is None or token is None:
                continue
            try:
                table = await hub.table(table_id)
                seat = table.seat_for_token(token)
            except TableError:
                continue
            if seat is None or (table_id, seat) in found:
                continue
            found[(table_id, seat)] = await self._entry(table, seat, link)
        entries = list(found.values())
        entries.sort(key=lambda entry: (not entry["your_turn"], entry["due_at"] or float("inf"), entry["title"]))
        return entries

    async def _entry(self, table: LiveTable, seat: int, link: str) -> dict[str, Any]:
        over = table.finished or table.closed or table.broken is not None
        owing = [] if over else list(table.match.decision().players)
        clock: dict[str, Any] = await self.clocks.clock_json(table) if self.clocks is not None else {"timed": False}
        seat_clock = clock["seats"][seat] if clock.get("timed") else {}
        names = [row.name for row in table.stored.seats]
        return {
            "table": table.id,
            "seat": seat,
            "link": link,
            "title": table.game.spec.title,
            "name": names[seat],
            "others": [name for number, name in enumerate(names) if number != seat],
            "status": table.status(),
            "your_turn": seat in owing,
            "waiting_for": [names[number] for number in owing if number != seat],
            "asked": table.match.decision().prompt if seat in owing else None,
            "pace": clock.get("pace", {"kind": "untimed", "words": "Untimed"}),
            "left_seconds": seat_clock.get("left_seconds"),
            "running": bool(seat_clock.get("running")),
            "due_at": seat_clock.get("due_at"),
            "now": clock.get("now", time.time()),
        }

    # -- routes ------------------------------------------------------------------------------------------------

    def _routes(self) -> APIRouter:
        from greenlight.web.api import Limiters, client_of, seat_from_header
        from greenlight.web.pages import page

        router = APIRouter(tags=["notifications"])
        room = self

        async def seat_of(request: Request, table: LiveTable, authorization: str | None) -> int:
            limiters: Limiters = request.app.state.limiters
            await limiters.take("actions", await client_of(request), "requests")
            seat = await seat_from_header(room._hub(), table, authorization, required=True)
            assert seat is not None
            return seat

        def seat_token(authorization: str | None) -> str:
            return (authorization or "").strip().partition(" ")[2].strip()

        @router.get("/api/notify")
        async def what_is_offered() -> dict[str, Any]:
            """Which notifications this server sends (e-mail needs its operator's SMTP server) and the key browsers
            subscribe to push with (``applicationServerKey``)."""
            return {"email": room.smtp is not None, "push": room.pusher is not None, "push_key": room.push_key}

        @router.get("/api/tables/{table_id}/notify")
        async def seat_subscriptions(
            table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            """Your seat's subscriptions (an e-mail address is shown half hidden, and only to the seat)."""
            table = await room._hub().table(table_id)
            seat = await seat_of(request, table, authorization)
            subs = await room._read(store.subscriptions_of_seat, table_id, seat)
            return {"subscriptions": [sub.public() for sub in subs]}

        @router.post("/api/tables/{table_id}/notify", status_code=201)
        async def subscribe_seat(
            table_id: str, body: SubscribeIn, request: Request, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            """Hear of your seat's turns outside the table: an e-mail address (used once it is confirmed by the link sent
            to it) or this browser's push subscription."""
            table = await room._hub().table(table_id)
            seat = await seat_of(request, table, authorization)
            if table.finished or table.closed:
                raise TableError(409, "the game is over")
            sealed = room._vault.seal(seat_token(authorization), f"{table_id}/{seat}")
            await room.subscribe(request, body, table=table, seat=seat, account=None, sealed=sealed)
            subs = await room._read(store.subscriptions_of_seat, table_id, seat)
            return {"subscriptions": [sub.public() for sub in subs]}

        @router.delete("/api/tables/{table_id}/notify/{sub_id}")
        async def unsubscribe_seat(
            table_id: str, sub_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            """Stop one of your seat's subscriptions."""
            table = await room._hub().table(table_id)
            seat = await seat_of(request, table, authorization)
            sub = await room._read(store.subscription, sub_id)
            if sub is None or sub.table_id != table_id or sub.seat != seat:
                raise TableError(404, "your seat has no such subscription")
            await room._write(store.unsubscribe, sub_id, everything=False)
            subs = await room._read(store.subscriptions_of_seat, table_id, seat)
            return {"subscriptions": [item.public() for item in subs]}

        async def signed_in(request: Request, *, changing: bool) -> Any:
            if room.accounts is None:
                raise TableError(404, "this server has no accounts")
            return await room.accounts.signed_in(request, changing=changing)

        @router.get("/api/notify/account")
        async def account_subscriptions(request: Request) -> dict[str, Any]:
            """Your account's subscriptions (for every seat you keep with it)."""
            account = await signed_in(request, changing=False)
            return {"subscriptions": [sub.public() for sub in await room._read(store.subscriptions_of_account, account.id)]}

        @router.post("/api/notify/account", status_code=201)
        async def subscribe_account(body: SubscribeIn, request: Request) -> dict[str, Any]:
            """Hear of your turn at every seat you keep with your account: at your account's e-mail address (once
            confirmed), or at this browser (push)."""
            account = await signed_in(request, changing=True)
            await room.subscribe(request, body, table=None, seat=None, account=account, sealed=None)
            return {"subscriptions": [sub.public() for sub in await room._read(store.subscriptions_of_account, account.id)]}

        @router.delete("/api/notify/account/{sub_id}")
        async def unsubscribe_account(sub_id: str, request: Request) -> dict[str, Any]:
            """Stop one of your account's subscriptions."""
            account = await signed_in(request, changing=True)
            sub = await room._read(store.subscription, sub_id)
            if sub is None or sub.account_id != account.id:
                raise TableError(404, "your account has no such subscription")
            await room._write(store.unsubscribe, sub_id, everything=False)
            return {"subscriptions": [item.public() for item in await room._read(store.subscriptions_of_account, account.id)]}

        @router.post("/api/my-tables")
        async def my_tables(body: LinksIn, request: Request) -> dict[str, Any]:
            """The tables of the seat links this browser holds (and, signed in, of every seat kept with the account): whose
            turn it is, and the time each seat has left; your turns first."""
            limiters: Limiters = request.app.state.limiters
            client = await client_of(request)
            links = list(body.links)
            if room.accounts is not None:
                account = await room.accounts.account(request, changing=False)
                if account is not None:
                    links += [
                        seat["link"] for seat in await room.accounts.my_seats(account) if seat.get("link") and not seat.get("finished_at")
                    ]
            for _ in range(0, max(1, len(links)), 10):
                await limiters.take("actions", client, "requests")  # a token per ten tables looked at
            return {"tables": await room.my_tables(links[: 2 * MY_TABLES_LINKS])}

        @router.get("/notify/confirm/{token}", response_class=HTMLResponse, include_in_schema=False)
        async def confirm(token: str, request: Request) -> HTMLResponse:
            """Confirm an e-mail address (the link in the confirmation message)."""
            sub_id = room.token_subscription("confirm", token)
            sub = await room._write(store.confirm, sub_id) if sub_id else None
            if sub is None:
                return page(
                    request,
                    "notify.html",
                    {
                        "title": "Link not valid",
                        "heading": "This link is not valid",
                        "text": "It may have been used to unsubscribe already.",
                        "boot": {},
                    },
                    status_code=404,
                )
            return page(
                request,
                "notify.html",
                {"title": "Confirmed", "heading": "Confirmed", "text": "You will be e-mailed when it is your turn.", "boot": {}},
            )

        @router.get("/notify/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
        async def unsubscribe_page(token: str, request: Request, everything: bool = False) -> HTMLResponse:
            """Ask before unsubscribing (a link opened by a mail scanner changes nothing)."""
            if room.token_subscription("unsubscribe", token) is None:
                return page(
                    request,
                    "notify.html",
                    {"title": "Link not valid", "heading": "This link is not valid", "text": "", "boot": {}},
                    status_code=404,
                )
            what = "every message from this server to this address" if everything else "messages about this table"
            return page(
                request,
                "notify.html",
                {
                    "title": "Unsubscribe",
                    "heading": "Unsubscribe",
                    "text": f"Stop {what}?",
                    "form": f"/notify/unsubscribe/{token}" + ("?everything=1" if everything else ""),
                    "boot": {},
                },
            )

        @router.post("/notify/unsubscribe/{token}", include_in_schema=False)
        async def unsubscribe(token: str, request: Request, everything: bool = False) -> Response:
            """Unsubscribe (the page's button, or a mail program's one-click POST, RFC 8058)."""
            sub_id = room.token_subscription("unsubscribe", token)
            if sub_id is not None:
                await room._write(store.unsubscribe, sub_id, everything=everything)
            if "text/html" not in request.headers.get("accept", ""):
                return Response(status_code=204 if sub_id else 404)
            text = "No more e-mail from this server will reach this address." if everything else "No more messages about this table."
            return page(
                request,
                "notify.html",
                {"title": "Unsubscribed", "heading": "Unsubscribed", "text": text if sub_id else "This link is not valid.", "boot": {}},
            )

        @router.get("/my-tables", response_class=HTMLResponse, include_in_schema=False)
        async def my_tables_page(request: Request) -> HTMLResponse:
            """Every table where it is your turn (from the seat links this browser holds, and your account's)."""
            return page(request, "my_tables.html", {"title": "My tables", "boot": {}})

        @router.get("/sw.js", include_in_schema=False)
        async def service_worker() -> FileResponse:
            """The service worker that shows push notifications (served at the root, so its scope is every page)."""
            return FileResponse(
                STATIC / "sw.js", media_type="text/javascript", headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"}
            )

        return router


def game_title(game_id: str) -> str:
    """A game's title (its id for a game this server no longer has)."""
    try:
        return get_game(game_id).spec.title
    except OptionError:
        return game_id
