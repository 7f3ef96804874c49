"""Live tables: the authoritative matches, their connected clients and their bots.

The :class:`TableHub` owns the tables in memory (at most
``max_live_tables``; idle ones are unloaded and loaded again on demand).
Every action, from a person or a bot, goes through :meth:`TableHub.act`:
it is checked and applied to a **copy** of the state, written to the store,
and only once the write is committed does the table's match take the new
state, so no response of any kind ever shows a move that is not stored. A
write that fails leaves no trace and is answered with a 503. Bots think in
worker processes on a copy of the state (:mod:`greenlight.web.thinking`),
shared fairly between the tables' creators, and a bot whose move cannot be
stored tries again with back-off until the store takes writes again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from greenlight.bots import bot_names
from greenlight.core.errors import ActionParseError, GreenlightError, OptionError
from greenlight.core.game import Game
from greenlight.core.match import Match, StagedMove
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.core.rng import Stream, derive_seed
from greenlight.web.backend import CHANGED, PRESENCE, THINKING, Backend, LocalBackend, Notice, Presence, TableChanges
from greenlight.web.errors import TableError as TableError  # re-exported: the routes import it from here
from greenlight.web.inputs import InputError, clean_chat, clean_name
from greenlight.web.limits import ServerSettings, retry_after
from greenlight.web.policies import bot_level, is_policy_level, is_quick_level, policy_problem
from greenlight.web.storage import (
    AddChat,
    AppendAction,
    ChatLine,
    CloseTable,
    CreateTable,
    LinkRematch,
    MarkBroken,
    MarkJoined,
    Probe,
    SeatRow,
    StorageError,
    StoredTable,
    TableStore,
    UpdateHost,
    UpdateSeat,
    WriteOp,
    hash_token,
    new_token,
    op_must_change,
    token_matches,
)
from greenlight.web.thinking import BotPool
from greenlight.web.views import encode_json, lobby_options, log_lines, seat_view, table_info

log = logging.getLogger("greenlight.web")

#: Most messages waiting for one slow client; older views are dropped first (each view is complete).
CLIENT_QUEUE_SIZE = 64
#: Bits of a table's secret seed when the server draws it.
SEED_BITS = 128
#: A bot whose move could not be stored waits this long before trying again, doubling up to the maximum.
BOT_RETRY_FIRST_SECONDS = 0.5
BOT_RETRY_MAX_SECONDS = 30.0
EARLIER_MOVE_LOST = "a move before yours at this table could not be saved, so yours was not played either; try again"
#: Chat lines kept in memory per table and sent to a client that connects.
CHAT_KEPT = 100
#: How often the event loop's lag is probed.
LAG_PROBE_SECONDS = 0.05
#: Longest a view waits for the note that its seat has joined to be stored.
JOIN_WAIT_SECONDS = 0.5
#: With several server processes: how often each looks for tables whose bots nobody moves, and how many it takes at once.
TAKEOVER_SECONDS = 1.0
TAKEOVER_BATCH = 20
#: Least time between two writes that check whether the database takes writes again (``/api/ready``).
PROBE_SECONDS = 1.0
#: How often a move is tried again after another process stored a move at the same index first.
ACT_ATTEMPTS = 4
#: What a client of a seat hears when another server process gave its seat to someone else.
SEAT_HANDED_OVER = "This seat was handed over at the table; this link now only watches."


#: Stands in a view for its log while the view is encoded; no game text holds a NUL character, and names cannot.
LOG_PLACEHOLDER: Any = "\x00log\x00"
LOG_PLACEHOLDER_JSON = encode_json(LOG_PLACEHOLDER)


class MovedOn(TableError):
    """A move was not stored because the table had moved on: another move took its index first (409)."""

    def __init__(self) -> None:
        super().__init__(409, "the table has moved on; refresh and try again")


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """One seat asked for when a table is created: a person (with an optional name), or a bot level.

    ``open`` leaves a person's seat for anyone to take from the lobby.
    """

    kind: str
    bot: str | None = None
    name: str | None = None
    open: bool = False


@dataclass(slots=True)
class CreatedTable:
    """A new table, the secret tokens of its human seats and of its host (shown once, never stored)."""

    table: LiveTable
    tokens: dict[int, str]
    host_token: str = ""


#: What a :class:`TableEvent` reports: a table created, a move stored, a game over, a seat's occupant changed, a table closed.
CREATED, MOVED, FINISHED, SEATED, CLOSED = "created", "moved", "finished", "seated", "closed"


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A change of a table that this server process stored (each change is reported by the one process that stored it).

    ``index`` is the move's index for MOVED and FINISHED, ``seat`` the seat for SEATED.
    """

    kind: str
    index: int | None = None
    seat: int | None = None


#: A room's watcher of tables: called in the event loop right after a change is stored; it must not block.
TableWatcher = Callable[["LiveTable", TableEvent], None]


@dataclass(eq=False)
class PendingMove:
    """A move checked and sent to the store, not yet stored; ``doomed`` once an earlier move of its table failed."""

    staged: StagedMove
    index: int
    finished: bool
    outcome: asyncio.Future[None] | None = None
    doomed: TableError | None = None


@dataclass(eq=False)
class Client:
    """One connected WebSocket client: a seat (``seat`` set) or a spectator, and who it is (``address``).

    Messages are queued as encoded JSON text, so a view sent to many clients is encoded once.
    """

    seat: int | None
    address: str = ""
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(CLIENT_QUEUE_SIZE))
    #: Whether this client holds the host's token (it hears the host's notices).
    host: bool = False
    #: The last view queued for this client (a client asking for the view it has gets nothing new).
    last_view: str | None = None

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message; a client that lags far behind loses its oldest messages (the newest view is complete)."""
        text = message if isinstance(message, str) else encode_json(message)
        while self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(text)

    def push_view(self, text: str) -> None:
        """Queue a view (JSON text from :meth:`LiveTable.view_text`), remembering it as the client's latest."""
        self.last_view = text
        self.push(text)


class LiveTable:
    """One table in memory: its stored description, its match (rebuilt lazily), clients and bots."""

    def __init__(self, stored: StoredTable, match: Match | None = None) -> None:
        self.id = stored.id
        self.stored = stored
        #: Moves checked and sent to the store, oldest first, not yet stored (they are shown to nobody).
        self.pending: list[PendingMove] = []
        self.clients: set[Client] = set()
        self.bot_wakeup = asyncio.Event()
        self.bot_task: asyncio.Task[None] | None = None
        #: The seat whose bot is thinking now, if any (public: shown as "thinking").
        self.thinking: int | None = None
        self.broken: str | None = stored.error
        self._match = match
        self.last_active = time.monotonic()
        self._presence_pending = False
        self._broadcast_pending = False
        #: The latest chat lines (the store keeps them all), and how many lines the table has (None: not read yet).
        self.chat: list[ChatLine] = []
        self.chat_length: int | None = None
        #: One line numbered and stored at a time here (two lines said at once would take the same number).
        self.chat_lock = asyncio.Lock()
        #: With several server processes: the stored revision this copy reflects, who is connected through the
        #: others, which seat's bot another process is thinking for, and the task bringing this copy up to date.
        self.revision = stored.revision
        self.elsewhere = Presence()
        self.thinking_elsewhere: int | None = None
        self.refreshing: asyncio.Task[None] | None = None
        self.refresh_again = False
        #: Changes from elsewhere arrived while this process's own moves were being stored: look again after them.
        self.stale = False
        #: This process's own changes of the table's row (seats, host, hints, closing, rematch): how many are being
        #: stored, and a count bumped as each starts and ends, so a refresh that read the row meanwhile never
        #: puts the older row back over a newer change (``row_stale``: look again once they are stored).
        self.row_writes = 0
        self.row_generation = 0
        self.row_stale = False
        self._row_waiters: list[asyncio.Future[None]] = []
        #: Each viewer's log in words so far: (events described, lines).
        self._logs: dict[int | None, tuple[int, list[str], list[str]]] = {}
        #: Each viewer's latest view as JSON text, with the move number and public facts it was built from.
        self._views: dict[int | None, tuple[int, str, str]] = {}

    # -- the game -----------------------------------------------------------------

    @property
    def game(self) -> Game[Any]:
        """The game played here."""
        return self.match.game

    @property
    def match(self) -> Match:
        """The match, rebuilt from the record on first use (finished tables are only rebuilt when someone looks)."""
        if self._match is None:
            if self.broken is not None:
                raise TableError(409, f"table {self.id} cannot be loaded: {self.broken}")
            try:
                self._match = Match.from_record(Record.from_json(self.stored.record.to_json()))
            except GreenlightError as error:
                self.broken = str(error)
                raise TableError(409, f"table {self.id} cannot be loaded: {error}") from None
        return self._match

    @property
    def version(self) -> int:
        """Number of accepted (stored) actions."""
        return len(self.stored.record.actions)

    @property
    def finished(self) -> bool:
        """Whether the game has ended (known from the store without rebuilding the match)."""
        return self.stored.finished_at is not None

    @property
    def closed(self) -> bool:
        """Whether the table was closed unfinished (expired): it takes no more actions."""
        return self.stored.closed_at is not None and not self.finished

    def touch(self) -> None:
        """Note activity now (idle tables are unloaded from memory)."""
        self.last_active = time.monotonic()

    def begin_row_write(self) -> None:
        """This process starts storing a change of the table's row (see :meth:`TableHub.write_row`)."""
        self.row_writes += 1
        self.row_generation += 1

    def end_row_write(self) -> bool:
        """That change is stored (or failed); True if a refresh set a row aside meanwhile and is owed now."""
        self.row_writes -= 1
        self.row_generation += 1
        if self.row_writes:
            return False
        for waiter in self._row_waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._row_waiters.clear()
        owed, self.row_stale = self.row_stale, False
        return owed

    async def row_writes_ended(self) -> None:
        """Return once none of this process's changes of the table's row is being stored."""
        if self.row_writes:
            waiter = asyncio.get_running_loop().create_future()
            self._row_waiters.append(waiter)
            await waiter

    def seat_for_token(self, token: str) -> int | None:
        """The human seat whose token this is, or None."""
        for row in self.stored.seats:
            if row.kind == "human" and token_matches(token, row.token_hash):
                return row.seat
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is this table's host token."""
        return token is not None and token_matches(token, self.stored.host_hash)

    def bot_seats_to_act(self) -> list[int]:
        """Bot seats the game is waiting for now."""
        if self.broken is not None or self.finished or self.closed:
            return []
        waiting = self.match.decision().players
        return [row.seat for row in self.stored.seats if row.kind == "bot" and row.seat in waiting]

    def bot_seed(self, seat: int) -> int:
        """The seed of ``seat``'s bot for the current move: table seed, seat and move number, so restarts change nothing."""
        return derive_seed("greenlight-web-bot", self.stored.record.seed, seat, self.version)

    def idle(self) -> bool:
        """Nobody connected, nothing being written or thought, and no bot owing a move: safe to unload."""
        if self.clients or self.pending or self.thinking is not None:
            return False
        return self._match is None or not self.bot_seats_to_act()

    def unattended(self) -> bool:
        """Nobody connected (here or through another process) and nothing being written: only bots play on (unloading
        stops them until someone looks)."""
        return not self.clients and not self.pending and not self.elsewhere.seats and not self.elsewhere.spectators

    # -- what clients see ------------------------------------------------------------

    def status(self) -> str:
        """``open`` (a human seat has never been joined), ``running``, ``finished``, ``closed`` or ``broken``."""
        if self.broken is not None:
            return "broken"
        if self.finished:
            return "finished"
        if self.closed:
            return "closed"
        if any(row.kind == "human" and not row.joined for row in self.stored.seats):
            return "open"
        return "running"

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no tokens, nothing hidden)."""
        stored = self.stored
        stored.error = self.broken
        connected = {client.seat for client in self.clients if client.seat is not None} | self.elsewhere.seats
        spectators = sum(1 for client in self.clients if client.seat is None) + self.elsewhere.spectators
        info = table_info(stored, status=self.status(), version=self.version, connected=connected, spectators=spectators)
        info["thinking"] = self.thinking if self.thinking is not None else self.thinking_elsewhere
        info["from_position"] = stored.record.start is not None
        info["hints"] = stored.hints
        return info

    def log_for(self, seat: int | None) -> list[str]:
        """The event log in words as ``seat`` sees it, extended from what was described before."""
        return self._log(seat)[1]

    def _log(self, seat: int | None) -> tuple[int, list[str], list[str]]:
        """(events described, lines, each line JSON-encoded) for ``seat``, brought up to date."""
        match = self.match
        cached = self._logs.get(seat)
        done, lines, encoded = cached if cached is not None else (0, [], [])
        if done < len(match.events):
            new = log_lines(match, seat, done, [row.name for row in self.stored.seats])
            lines, encoded = lines + new, encoded + [encode_json(line) for line in new]
            self._logs[seat] = (len(match.events), lines, encoded)
        return done, lines, encoded

    def view(self, seat: int | None) -> dict[str, Any]:
        """The full view of ``seat`` (None = spectator)."""
        return seat_view(self.match, seat, self.info(), self.log_for(seat))

    def view_text(self, seat: int | None, info: dict[str, Any] | None = None) -> str:
        """The view of ``seat`` as JSON text; the log's lines are encoded once, when they are new.

        A view is built from the state at this move, the seat and the table's public facts alone, so it is built
        once per change: asked again with nothing changed, the same text (the same object) is returned.
        """
        info = info if info is not None else self.info()
        facts = encode_json(info)
        cached = self._views.get(seat)
        if cached is not None and cached[0] == self.version and cached[1] == facts:
            return cached[2]
        view = seat_view(self.match, seat, info, LOG_PLACEHOLDER)
        _, _, encoded = self._log(seat)
        text = encode_json(view).replace(LOG_PLACEHOLDER_JSON, "[" + ",".join(encoded) + "]", 1)
        self._views[seat] = (self.version, facts, text)
        return text

    def broadcast(self) -> None:
        """Queue each connected client its own fresh view (each distinct view encoded once)."""
        if not self.clients:
            return
        info = self.info()
        texts: dict[int | None, str] = {}
        for client in self.clients:
            if client.seat not in texts:
                texts[client.seat] = self.view_text(client.seat, info)
            client.push_view(texts[client.seat])

    def schedule_broadcast(self) -> None:
        """Broadcast once the moves stored together have all been committed (one view per client for them all)."""
        if not self._broadcast_pending:
            self._broadcast_pending = True
            asyncio.get_running_loop().call_soon(self._flush_broadcast)

    def _flush_broadcast(self) -> None:
        self._broadcast_pending = False
        self.broadcast()

    def schedule_presence(self, delay: float) -> None:
        """Tell every client who is connected, once for all joins and leaves within ``delay`` seconds."""
        if self._presence_pending:
            return
        self._presence_pending = True
        asyncio.get_running_loop().call_later(delay, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_pending = False
        if not self.clients:
            return
        text = encode_json({"type": "presence", "table": self.info()})
        for client in self.clients:
            client.push(text)


def no_such_seat(table: LiveTable, seat: int) -> TableError:
    """The 404 for a seat number the table does not have, naming the number as the client sent it (API seats count from 0)."""
    count = len(table.stored.seats)
    return TableError(404, f"there is no seat {seat} at this table: its seats are numbered 0 to {count - 1} (shown as 1 to {count})")


def bot_name(seat: int, level: str) -> str:
    """What the table calls a bot: ``Bot 2 (medium)`` (the seat number tells two bots of one level apart).

    A registered policy is named in words, not by its level's ``policy:`` prefix:

    >>> bot_name(1, "medium")
    'Bot 2 (medium)'
    >>> bot_name(2, "policy:ppo-cinecitta")
    'Bot 3 (policy ppo-cinecitta)'
    """
    prefix, _, policy = level.partition(":")
    return f"Bot {seat + 1} ({f'policy {policy}' if prefix == 'policy' and policy else level})"


def chat_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as clients receive it."""
    return {"index": line.index, "seat": line.seat if line.seat >= 0 else None, "name": line.name, "text": line.text, "at": line.at}


class TableHub:
    """The tables of the server, the backend behind them (storage and the other server processes) and the bot runners.

    ``store`` is a :class:`~greenlight.web.backend.Backend`, or a synchronous
    :class:`~greenlight.web.storage.TableStore` (a SQLite file) that this
    process alone uses. With a shared backend (PostgreSQL), other processes
    serve the same tables: each process keeps its copy of a table up to date
    from the backend's notices and before every request, a move that lost
    its index to another process's is checked again on the new state and
    stored at the next index, and exactly one process moves a table's bots.
    """

    def __init__(
        self,
        store: TableStore | Backend,
        settings: ServerSettings | None = None,
        *,
        bot_delay: float | None = None,
        bot_workers: int | None = None,
    ) -> None:
        settings = settings or ServerSettings()
        self.settings = settings
        self.backend = store if isinstance(store, Backend) else LocalBackend(store, write_timeout=settings.write_timeout, owns_store=False)
        self.bot_delay = settings.bot_delay if bot_delay is None else bot_delay
        self.bot_pool = BotPool(
            settings.bot_workers if bot_workers is None else bot_workers,
            quick_workers=settings.quick_bot_workers,
            search_seconds_per_minute=settings.search_seconds_per_minute,
            search_burst_seconds=settings.search_burst_seconds,
        )
        #: Places in memory promised to tables being loaded or created (counted against ``max_live_tables``).
        self._reserved = 0
        self._last_probe = -PROBE_SECONDS
        self.writer = self.backend.writer
        #: Tables in memory, least recently used first.
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._housekeeping: asyncio.Task[None] | None = None
        self._lag_watch: asyncio.Task[None] | None = None
        #: How late the event loop ran a short timer, recently (ms): the delay every request suffers on top of its own work.
        self.loop_lags: deque[float] = deque(maxlen=400)
        self._joining: dict[tuple[str, int], asyncio.Future[None]] = {}
        self._takeover: asyncio.Task[None] | None = None
        #: Whether :meth:`start` has run (the server is ready once it has, and the backend is).
        self.started = False
        self._watchers: list[TableWatcher] = []

    def watch(self, watcher: TableWatcher) -> None:
        """Call ``watcher(table, event)`` after every change this process stores (rooms: clocks, notifications, ratings)."""
        self._watchers.append(watcher)

    def _tell(self, table: LiveTable, event: TableEvent) -> None:
        for watcher in self._watchers:
            try:
                watcher(table, event)
            except Exception:
                log.exception("a watcher of table %s failed on %s", table.id, event.kind, extra={"table": table.id})

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Connect the backend; rebuild the unfinished tables that have bots (most recently active first), restart their bots.

        With several processes, a process instead takes the tables whose bots
        nobody moves, a few at a time, every :data:`TAKEOVER_SECONDS`.
        """
        await self.backend.start(self._notice)
        if self.backend.shared:
            self._takeover = asyncio.create_task(self._take_over(), name="greenlight-takeover")
        else:
            for table_id in await self.backend.resumable(max(1, self.settings.max_live_tables // 2)):
                table = await self._load(table_id)
                if table is not None and table.broken is None:
                    self._start_bots(table)
        if self.settings.housekeeping_seconds > 0:
            self._housekeeping = asyncio.create_task(self._keep_house(), name="greenlight-housekeeping")
        self._lag_watch = asyncio.create_task(self._watch_lag(), name="greenlight-loop-lag")
        self.started = True

    async def stop(self) -> None:
        """Stop the bot runners and housekeeping, then write what is queued and close the backend."""
        tasks = [table.bot_task for table in self.tables.values() if table.bot_task is not None]
        tasks += [task for task in (self._housekeeping, self._lag_watch, self._takeover) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bot_pool.close()
        await self.backend.close()

    async def ready(self) -> str | None:
        """None when this process can serve tables; else why not, in words (for ``/api/ready``).

        After a write failed (a full disk, a read-only database), the process is not ready until a write is stored
        again: each readiness check (at most one a second) tries a write that changes nothing.
        """
        if not self.started:
            return "the server is starting"
        problem = await self.backend.ready()
        if problem is not None or self.writer.failing is None:
            return problem
        now = time.monotonic()
        if now - self._last_probe >= PROBE_SECONDS:
            self._last_probe = now
            with contextlib.suppress(StorageError):
                await self.writer.write(Probe())
        failing = self.writer.failing
        return None if failing is None else f"the database does not take writes ({failing})"

    # -- tables -------------------------------------------------------------------------

    async def table(self, table_id: str) -> LiveTable:
        """The table called ``table_id`` (loaded from the store if it is not in memory) or a 404 TableError.

        With several server processes, a table already in memory is first brought up to date with what the
        others stored, so a request never reads an older table than one another process has answered from.
        """
        table = self.tables.get(table_id)
        if table is None:
            table = await self._load(table_id)
            if table is None:
                raise TableError(404, f"there is no table {table_id!r}")
            if not table.finished and table.broken is None:
                self._start_bots(table)
        elif self.backend.shared:
            await self.refresh(table)
        self.tables.move_to_end(table_id)
        table.touch()
        return table

    async def _load(self, table_id: str) -> LiveTable | None:
        """Read a table from the store and rebuild its match (once, however many ask at the same time)."""
        if len(table_id) > 64:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._read(table_id)
            future.set_result(table)
            return table
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[table_id]

    async def _read(self, table_id: str) -> LiveTable | None:
        stored = await self._store_call(self.backend.load_table, table_id)
        if stored is None:
            return None
        if table_id in self.tables:
            return self.tables[table_id]
        self._make_room()
        try:
            table = LiveTable(stored)
            if not table.finished and table.broken is None:
                try:
                    table._match = await asyncio.to_thread(Match.from_record, Record.from_json(stored.record.to_json()))
                except GreenlightError as error:
                    table.broken = str(error)
                    log.error("table %s cannot be loaded: %s", table_id, error, extra={"table": table_id})
                    await self._write_quietly(MarkBroken(table_id, str(error)), table_id)
            self.tables[table_id] = table
        finally:
            self._reserved -= 1
        if self.backend.shared:
            # Changes stored by others while this copy was being read sent notices nobody here heard: look once more.
            self._schedule_refresh(table)
            self._schedule_presence_check(table)
        return table

    def _make_room(self) -> None:
        """Promise one more table a place in memory (the caller gives it back with ``self._reserved -= 1`` once the
        table is in, or has failed), unloading tables to make it, or refuse with a 503.

        Idle tables go first (least recently used first), then tables that nobody watches and only bots play (their
        bots stop; they play on once someone opens the table again), least recently used first and thinking ones
        last; tables someone is connected to are never unloaded. Places promised count, so the cap is never passed.
        """
        while len(self.tables) + self._reserved >= self.settings.max_live_tables:
            victim = next((table for table in self.tables.values() if table.idle()), None)
            if victim is None:
                unattended = [table for table in self.tables.values() if table.unattended()]
                victim = next((table for table in unattended if table.thinking is None), None) or next(iter(unattended), None)
            if victim is None:
                raise TableError(
                    503, f"the server holds its maximum of {self.settings.max_live_tables} active tables; try again later", retry_after=30
                )
            self._unload(victim)
        self._reserved += 1

    def _unload(self, table: LiveTable) -> None:
        if table.bot_task is not None:
            table.bot_task.cancel()  # the runner gives the table's bot lock back as it ends
            table.bot_task = None
        self.tables.pop(table.id, None)

    async def create(
        self,
        game_name: str,
        seats: Sequence[SeatRequest],
        options: dict[str, Any],
        seed: int | None = None,
        *,
        creator: str = "",
        rematch_of: str | None = None,
        position: dict[str, Any] | None = None,
    ) -> CreatedTable:
        """Validate and store a new table; return it with the tokens of its human seats.

        Without ``seed`` the server draws a secret one of :data:`SEED_BITS` bits;
        a chosen seed is marked in the table's public facts (its creator may know the deal).
        A ``position`` (``Game.from_position``) sets the game up instead: its creator knows everything in it, which
        the table's public facts say.
        """
        try:
            game = get_game(game_name)
        except OptionError as error:
            raise TableError(404, str(error)) from None
        num_players = len(seats)
        if position is not None:
            match = self._match_from_position(game, position, num_players, options)
        allowed = {spec.name for spec in lobby_options(game)}
        for name in options:
            if name not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise TableError(400, f"{game.spec.title} has no option {name!r} that can be set here (options: {known})")
        seed_chosen = seed is not None or position is not None
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        if position is None:
            try:
                match = Match.start(game, num_players, seed, options)
            except GreenlightError as error:
                raise TableError(400, str(error)) from None
        rows = self._seat_rows(game, seats, self.settings)
        tokens: dict[int, str] = {}
        for row in rows:
            if row.kind == "human":
                token = new_token()
                row.token_hash = hash_token(token)
                if not row.open:
                    tokens[row.seat] = token  # an open seat's token goes to whoever takes it, later
        if any(row.kind == "bot" and not is_quick_level(row.bot or "") for row in rows):
            wait = self.bot_pool.search_wait(creator)
            if wait > 0:
                raise TableError(
                    429,
                    "the strong bots (hard, expert) of tables created from your address have used their share of this server's"
                    f" thinking time; tables with them can be created again in {retry_after(wait)} s (quicker bots can be chosen now)",
                    retry_after=wait,
                )
        host_token = new_token()
        self._make_room()
        table_id = secrets.token_hex(5)  # lower-case hex: never mistaken for a card id in text
        stored = StoredTable(
            table_id,
            Record.from_json(match.record.to_json()),
            rows,
            created_at=time.time(),
            seed_chosen=seed_chosen,
            creator=creator,
            host_hash=hash_token(host_token),
            rematch_of=rematch_of,
        )
        try:
            await self._store_write(CreateTable(stored), table_id)
            table = LiveTable(stored, match)
            self.tables[table_id] = table
        finally:
            self._reserved -= 1
        self._tell(table, TableEvent(CREATED))
        self._start_bots(table)
        return CreatedTable(table, tokens, host_token)

    @staticmethod
    def _match_from_position(game: Game[Any], position: dict[str, Any], num_players: int, options: dict[str, Any]) -> Match:
        """The match a table set up from ``position`` starts; 400 naming the field if the position cannot arise."""
        if options:
            raise TableError(400, "a table set up from a position takes its options from the position; send no options")
        for spec in game.spec.options:
            named = [name for name in (spec.name, *spec.aliases) if (position.get("options") or {}).get(name) is not None]
            if spec.kind == "path" and named:
                raise TableError(
                    400, f"a position with a data file (option {named[0]}) can only be played locally: greenlight play --position"
                )
        if position.get("num_players") != num_players:
            raise TableError(400, f"the position is for {position.get('num_players')} players, but the table has {num_players} seats")
        try:
            return Match.from_position(game, position)
        except GreenlightError as error:
            raise TableError(400, f"the position cannot be played: {error}") from None

    @staticmethod
    def _seat_rows(game: Game[Any], seats: Sequence[SeatRequest], settings: ServerSettings) -> list[SeatRow]:
        levels = bot_names(game)
        rows: list[SeatRow] = []
        for seat, request in enumerate(seats):
            if request.kind == "human":
                try:
                    name = clean_name(request.name) or f"Player {seat + 1}"
                except InputError as error:
                    raise TableError(400, f"seat {seat}: {error}") from None
                rows.append(SeatRow(seat, "human", None, name, open=request.open))
            elif request.kind == "bot":
                level = request.bot or "random"
                if is_policy_level(level) and (problem := policy_problem(settings, game, len(seats), level)) is not None:
                    raise TableError(400, f"seat {seat}: {problem}")
                if level not in levels and not is_policy_level(level):
                    raise TableError(400, f"seat {seat}: {game.spec.title} has no bot {level!r}; choose from {', '.join(levels)}")
                rows.append(SeatRow(seat, "bot", level, bot_name(seat, level)))
            else:
                raise TableError(400, f"seat {seat}: kind must be 'human' or 'bot', not {request.kind!r}")
        return rows

    async def authenticate(self, table: LiveTable, token: str | None) -> int | None:
        """The seat a token stands for (None for no token = spectator); a wrong token is a 403.

        With several processes, a token this process does not know yet may be one another process just gave out
        (a seat taken there a moment ago, its notice still on the way): the table is read again once before the
        token is refused.
        """
        if token is None or token == "":
            return None
        seat = table.seat_for_token(token)
        if seat is None and self.backend.shared:
            await self.refresh(table)
            seat = table.seat_for_token(token)
            if seat is None and table.row_writes:
                # The row read was set aside: this process is storing a change of the table's row just now.
                # Look again once that is stored, rather than refuse a token the other process just gave out.
                with contextlib.suppress(TimeoutError):  # a write ends within its timeout; this is a safety bound
                    await asyncio.wait_for(table.row_writes_ended(), self.settings.write_timeout + 1)
                await self.refresh(table)
                seat = table.seat_for_token(token)
        if seat is None:
            raise TableError(403, "this seat token does not belong to any seat at this table")
        return seat

    async def joined(self, table: LiveTable, seat: int) -> None:
        """Remember that a human seat has been taken (its token used); the table shows it once it is stored.

        The write is waited for at most :data:`JOIN_WAIT_SECONDS`, so a slow or
        failing store never holds up a view for long; if it fails, the seat's
        next request tries again.
        """
        row = table.stored.seats[seat]
        if row.joined:
            return
        pending = self._joining.get((table.id, seat))
        if pending is None:
            table.begin_row_write()  # a change of the seat's row, like those of write_row
            pending = self.writer.submit(MarkJoined(table.id, seat))
            self._joining[(table.id, seat)] = pending

            def stored(done: asyncio.Future[None]) -> None:
                self._joining.pop((table.id, seat), None)
                error = StorageError("the write was cancelled") if done.cancelled() else done.exception()
                if error is None:
                    row.joined = True
                    table.schedule_presence(self.settings.presence_delay_seconds)
                else:
                    log.warning("table %s: could not note that seat %d joined (tried again on its next request): %s", table.id, seat, error)
                if table.end_row_write():
                    self._schedule_refresh(table)

            pending.add_done_callback(stored)
        with contextlib.suppress(TimeoutError, StorageError):
            await asyncio.wait_for(asyncio.shield(pending), JOIN_WAIT_SECONDS)

    # -- table life: seats, host, resign, rematch, chat --------------------------------------

    def host_of(self, table: LiveTable, token: str | None) -> None:
        """Refuse (403) unless ``token`` is the table's host token."""
        if not table.is_host(token):
            raise TableError(403, "only the table's host may do this: use the host link you got when you created the table")

    async def set_seat(self, table: LiveTable, seat: int, row: SeatRow, notice: str) -> None:
        """Store a seat's new occupant, tell its old clients they lost it, and say so in the chat."""
        if not 0 <= seat < len(table.stored.seats):
            raise no_such_seat(table, seat)
        old = table.stored.seats[seat]

        def seated() -> None:
            table.stored.seats[seat] = row

        await self.write_row(table, UpdateSeat(table.id, row, was=(old.kind, old.token_hash)), seated)
        self._tell(table, TableEvent(SEATED, seat=seat))
        for client in list(table.clients):
            if client.seat == seat:
                client.seat = None  # the old link now only watches
                client.push({"type": "revoked", "seat": seat, "message": notice})
        await self.say(table, notice)
        if row.kind == "bot":
            self._start_bots(table)
            table.bot_wakeup.set()
        table.schedule_presence(self.settings.presence_delay_seconds)
        table.broadcast()

    def _editable(self, table: LiveTable) -> None:
        if table.finished or table.closed:
            raise TableError(409, "the game is over; its seats can no longer change")

    async def seat_to_bot(self, table: LiveTable, seat: int, level: str, why: str) -> None:
        """Give a seat to a bot of ``level`` (the host replacing an absent person, or a player resigning)."""
        self._editable(table)
        levels = bot_names(table.game)
        if level not in levels:
            raise TableError(400, f"{table.game.spec.title} has no bot {level!r}; choose from {', '.join(levels)}")
        old = table.stored.seats[seat] if 0 <= seat < len(table.stored.seats) else None
        if old is None:
            raise no_such_seat(table, seat)
        person = old.name if old.kind == "human" and not old.open else old.stands_in_for
        row = SeatRow(seat, "bot", level, bot_name(seat, level), None, True, stands_in_for=person)
        await self.set_seat(table, seat, row, f"{old.name} {why}; a bot ({level}) plays seat {seat + 1} from now on.")

    async def seat_to_person(self, table: LiveTable, seat: int, name: str | None, *, open_seat: bool = False) -> str:
        """Give a seat to a person with a fresh link (the old link stops working); return the new token."""
        self._editable(table)
        if not 0 <= seat < len(table.stored.seats):
            raise no_such_seat(table, seat)
        old = table.stored.seats[seat]
        try:
            shown = clean_name(name) or (old.name if old.kind == "human" else old.stands_in_for or f"Player {seat + 1}")
        except InputError as error:
            raise TableError(400, str(error)) from None
        token = new_token()
        row = SeatRow(seat, "human", None, shown, hash_token(token), False, open_seat)
        if open_seat:
            notice = f"Seat {seat + 1} is open: anyone may take it from the lobby."
        elif old.kind == "bot":
            notice = f"A person ({shown}) takes seat {seat + 1} over from {old.name}."
        else:
            notice = f"Seat {seat + 1} ({shown}) has a new link; the old one no longer works."
        await self.set_seat(table, seat, row, notice)
        return token

    async def rename_seat(self, table: LiveTable, seat: int, name: str) -> None:
        """Change the name a seat is shown under, and nothing else (also once the game is over: an account deleted
        leaves its seats anonymous)."""
        if not 0 <= seat < len(table.stored.seats):
            raise no_such_seat(table, seat)
        old = table.stored.seats[seat]
        row = SeatRow(old.seat, old.kind, old.bot, name, old.token_hash, old.joined, old.open, old.stands_in_for)

        def renamed() -> None:
            table.stored.seats[seat] = row
            table._logs.clear()  # the log names seats: say it again under the new name
            table._views.clear()

        await self.write_row(table, UpdateSeat(table.id, row, was=(old.kind, old.token_hash)), renamed)
        table.broadcast()

    async def take_seat(self, table: LiveTable, seat: int, name: str | None) -> str:
        """Anyone takes an open seat (from the lobby); return its token."""
        if not 0 <= seat < len(table.stored.seats):
            raise no_such_seat(table, seat)
        if not table.stored.seats[seat].open:
            raise TableError(409, f"seat {seat} (shown as seat {seat + 1}) is not open; someone may have just taken it")
        token = await self.seat_to_person(table, seat, name)
        return token

    async def close_table(self, table: LiveTable) -> None:
        """The host ends an unfinished table: no more actions; its record can be downloaded."""
        if table.finished or table.closed:
            raise TableError(409, "this table is already over")
        op = CloseTable(table.id, "closed by the host")

        def closed() -> None:
            table.stored.closed_at, table.stored.closed_reason = op.at, op.reason

        await self.write_row(table, op, closed)
        self._tell(table, TableEvent(CLOSED))
        await self.say(table, "The host closed the table.")
        table.broadcast()

    async def rematch(self, table: LiveTable) -> LiveTable:
        """The rematch of a finished table (created by the first to ask): same game, options and seats, a new secret deal."""
        if not (table.finished or table.closed):
            raise TableError(409, "a rematch can be asked for once the game is over")
        if table.stored.rematch is not None:
            return await self.table(table.stored.rematch)
        requests = [
            SeatRequest("bot", row.bot)
            if row.kind == "bot"
            else SeatRequest("human", name=None if row.name.startswith("Player ") else row.name)
            for row in table.stored.seats
        ]
        record = table.stored.record
        options = {name: value for name, value in record.options.items() if name in {spec.name for spec in lobby_options(table.game)}}
        created = await self.create(record.game, requests, options, creator=table.stored.creator, rematch_of=table.id)

        def linked() -> None:
            table.stored.rematch = created.table.id

        try:
            await self.write_row(table, LinkRematch(table.id, created.table.id), linked)  # on a conflict, refreshed below
        except TableError as error:
            if error.status != 409:
                raise
            # Another server process made the rematch first: this one is never used, so it is closed at once.
            unused = CloseTable(created.table.id, "a rematch made at the same time was used instead")
            await self._write_quietly(unused, created.table.id)
            created.table.stored.closed_at, created.table.stored.closed_reason = unused.at, unused.reason
            await self.refresh(table)
            if table.stored.rematch is None:
                raise
            return await self.table(table.stored.rematch)
        await self.say(table, "A rematch is ready: same seats, a new deal.")
        table.broadcast()
        return created.table

    async def claim_rematch_seat(self, old: LiveTable, new: LiveTable, seat: int) -> str:
        """The person who held ``seat`` at ``old`` gets a fresh link to the same seat of its rematch ``new``."""
        row = new.stored.seats[seat]
        if row.kind != "human":
            raise TableError(409, f"seat {seat + 1} of the rematch is a bot's")
        token = new_token()
        updated = SeatRow(seat, "human", None, row.name, hash_token(token), row.joined, False)

        def seated() -> None:
            new.stored.seats[seat] = updated

        await self.write_row(new, UpdateSeat(new.id, updated, was=(row.kind, row.token_hash)), seated)
        return token

    async def claim_rematch_host(self, new: LiveTable) -> str:
        """The old table's host becomes the rematch's host (a fresh host token)."""
        token = new_token()
        host_hash = hash_token(token)

        def hosted() -> None:
            new.stored.host_hash = host_hash

        await self.write_row(new, UpdateHost(new.id, host_hash), hosted)
        return token

    async def say(self, table: LiveTable, text: str, seat: int = -1, name: str = "Table") -> ChatLine:
        """Add a chat line (``seat`` -1: the table's own notices) and push it to every client.

        Lines said at once in this process are numbered and stored one after another; another server process may
        take the same line number first, and the line is then numbered again after the lines stored meanwhile.
        """
        async with table.chat_lock:
            return await self._say_one(table, text, seat, name)

    async def _say_one(self, table: LiveTable, text: str, seat: int, name: str) -> ChatLine:
        for attempt in range(ACT_ATTEMPTS):
            if table.chat_length is None:
                table.chat_length = await self._store_call(self.backend.chat_length, table.id)
            line = ChatLine(table.chat_length, seat, name, text, time.time())
            try:
                await self.writer.write(AddChat(table.id, line))
            except StorageError as error:
                if error.conflict and self.backend.shared and attempt + 1 < ACT_ATTEMPTS:
                    await self.refresh(table)
                    table.chat_length = None if table.chat_length == line.index else table.chat_length
                    continue
                log.error("table %s: chat line not stored: %s", table.id, error, extra={"table": table.id})
                raise TableError(503, f"the server could not save this ({error.message}); try again shortly", retry_after=2) from None
            self._heard_chat(table, [line])
            return line
        raise TableError(409, "the chat moved on too fast; try again")  # pragma: no cover - bounded by ACT_ATTEMPTS

    def _heard_chat(self, table: LiveTable, lines: list[ChatLine]) -> None:
        """Keep and push chat lines that are stored (said here or by another process)."""
        for line in lines:
            if table.chat_length is not None and line.index < table.chat_length:
                continue
            table.chat.append(line)
            table.chat_length = line.index + 1
            message = encode_json({"type": "chat", "line": chat_json(line)})
            for client in table.clients:
                client.push(message)
        del table.chat[:-CHAT_KEPT]

    async def chat(self, table: LiveTable, seat: int, text: str, client: str) -> ChatLine:
        """A seat says something at the table (text only, length and rate limited)."""
        wait = await self.wait_needed("chat", client, self.settings.chat_per_second, self.settings.chat_burst)
        if wait > 0:
            raise TableError(429, f"you are chatting too fast; wait {retry_after(wait)} s", retry_after=wait)
        line = " ".join(clean_chat(text).split())
        if not line:
            raise TableError(400, "a chat message needs some text")
        if len(line) > self.settings.max_chat_chars:
            raise TableError(400, f"a chat message may have at most {self.settings.max_chat_chars} characters")
        return await self.say(table, line, seat, table.stored.seats[seat].name)

    async def chat_history(self, table: LiveTable) -> list[ChatLine]:
        """The latest chat lines of a table (loaded from the store the first time)."""
        if table.chat_length is None:
            table.chat = await self._store_call(self.backend.load_chat, table.id, CHAT_KEPT)
            table.chat_length = table.chat[-1].index + 1 if table.chat else 0
        return list(table.chat)

    async def wait_needed(self, limiter: str, client: str, per_second: float, burst: int) -> float:
        """Take one request from ``client``'s budget ``limiter`` (shared by every server process): 0.0, or seconds to wait."""
        try:
            return await self.backend.wait_needed(limiter, client, per_second, burst)
        except StorageError as error:
            raise TableError(503, f"the server could not check its limits ({error.message}); try again shortly", retry_after=2) from None

    async def take_budget(self, limiter: str, client: str, per_second: float, burst: int, what: str) -> None:
        """Take one request from ``client``'s budget ``limiter`` or refuse with a 429 saying when to try again (``what``:
        the requests counted, in words: "sign-ins from your address")."""
        wait = await self.wait_needed(limiter, client, per_second, burst)
        if wait > 0:
            raise TableError(429, f"too many {what}; try again in {retry_after(wait)} s", retry_after=wait)

    # -- actions --------------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int, text: str, expect_version: int | None = None) -> tuple[str, int]:
        """Check, store, then apply-and-broadcast one action; return its canonical text and its index in the record.

        With several server processes, another process may store a move at the same index first (two seats
        committing at once, each through its own process). The table is then brought up to date and the move
        checked again on the new state and stored at the next index, unless the client asked for a version.
        """
        attempts = ACT_ATTEMPTS if self.backend.shared and expect_version is None else 1
        for attempt in range(attempts):
            try:
                return await self._act_once(table, seat, text, expect_version)
            except MovedOn:
                if attempt + 1 == attempts:
                    raise
                await self._catch_up(table)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _catch_up(self, table: LiveTable) -> None:
        """Let this process's moves in flight at ``table`` land or fail, then read what other processes stored."""
        while table.pending:
            outcome = table.pending[-1].outcome
            if outcome is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(outcome)
        await self.refresh(table)

    async def _act_once(self, table: LiveTable, seat: int, text: str, expect_version: int | None) -> tuple[str, int]:
        """One try of :meth:`act`.

        A refused action raises TableError (400 unreadable, 409 not legal now,
        503 not stored) and changes nothing. The move is checked against the
        table's state after the moves still being stored (so the three offers
        of one step can share one disk sync), and the table's match only takes
        it once its row is committed, in the order the moves were made. A move
        whose write fails takes every later move of the table down with it
        (they were checked against a state that will never exist).
        """
        if table.closed:
            raise TableError(409, f"this table was closed ({table.stored.closed_reason}); no more actions are taken")
        match = table.match
        waiting = len(table.pending)
        if expect_version is not None and expect_version != table.version + waiting:
            raise TableError(
                409,
                f"the table has moved on (now at move {table.version + waiting}, you expected {expect_version}); refresh and try again",
            )
        last = table.pending[-1] if waiting else None
        if match.game.decision(last.staged.state if last is not None else match.state).is_terminal:
            raise TableError(409, "the game is over; no more actions are taken")
        try:
            staged = match.stage(seat, text, on=last.staged if last is not None else None)
        except GreenlightError as error:
            raise TableError(400 if isinstance(error, ActionParseError) else 409, str(error)) from None
        move = PendingMove(staged, table.version + waiting, match.game.decision(staged.state).is_terminal)
        move.outcome = asyncio.get_running_loop().create_future()
        table.pending.append(move)
        actions = table.stored.record.actions
        previous = (last.staged.seat, last.staged.text) if last is not None else actions[-1] if actions else None
        op = AppendAction(table.id, move.index, seat, staged.text, move.finished, previous=previous)
        self.writer.submit(op, lambda error: self._stored(table, move, error))
        await asyncio.shield(move.outcome)  # a client that goes away changes nothing: the move lands or fails all the same
        return staged.text, move.index

    def _stored(self, table: LiveTable, move: PendingMove, error: StorageError | None) -> None:
        """The write of ``move`` ended (called in the order the moves were made): commit it to the match, or undo it."""
        outcome = move.outcome
        assert outcome is not None
        if move.doomed is not None:
            outcome.set_exception(move.doomed)
        elif error is None:
            assert table.pending and table.pending[0] is move, "moves are stored in the order they were made"
            table.pending.pop(0)
            table.match.commit(move.staged)
            table.stored.record.actions.append((move.staged.seat, move.staged.text))
            if move.finished:
                table.stored.finished_at = time.time()
            table.touch()
            table.schedule_broadcast()  # before the ack: a seat hears of its move in a view first
            table.bot_wakeup.set()
            self._tell(table, TableEvent(MOVED, index=move.index))
            if move.finished:
                self._tell(table, TableEvent(FINISHED, index=move.index))
            outcome.set_result(None)
        else:
            # A conflict is routine with several server processes (the move is checked again and stored next).
            log.log(
                logging.INFO if error.conflict else logging.ERROR,
                "table %s: move %d (seat %d: %s) was not stored, so it was not played: %s",
                table.id,
                move.index,
                move.staged.seat,
                move.staged.text,
                error,
            )
            if move in table.pending:
                later = table.pending[table.pending.index(move) + 1 :]
                del table.pending[table.pending.index(move) :]
                for other in later:
                    # After a conflict the later moves are tried again on the new state; after a failed write, not.
                    other.doomed = MovedOn() if error.conflict else TableError(503, EARLIER_MOVE_LOST, retry_after=2)
            if error.conflict:
                outcome.set_exception(MovedOn())
            else:
                outcome.set_exception(
                    TableError(
                        503, f"your move could not be saved, so it was not played ({error.message}); try again shortly", retry_after=2
                    )
                )
        outcome.exception()  # marks an error retrieved: a caller that went away leaves no "never retrieved" warning
        if table.stale and not table.pending:
            table.stale = False
            self._schedule_refresh(table)

    # -- storage ------------------------------------------------------------------------------

    async def store_write(self, op: WriteOp, table_id: str) -> None:
        """Write ``op`` for ``table_id`` through the write batcher (503 if the store fails)."""
        await self._store_write(op, table_id)

    async def _store_write(self, op: WriteOp, table_id: str, table: LiveTable | None = None) -> None:
        """Write one op or answer 503 (logged with the table id); 409 if it conflicts with what another server
        process stored meanwhile (``table``, if given, is then brought up to date)."""
        try:
            await self.writer.write(op)
        except StorageError as error:
            if error.conflict and (reason := op_must_change(op)) is not None:
                log.info("table %s: %s not stored: %s", table_id, type(op).__name__, error)
                if table is not None:
                    self._schedule_refresh(table)
                raise TableError(409, f"{reason}; look again and try once more") from None
            log.error("table %s: %s not stored: %s", table_id, type(op).__name__, error)
            raise TableError(503, f"the server could not save this ({error.message}); try again shortly", retry_after=2) from None

    async def write_row(self, table: LiveTable, op: WriteOp, change: Callable[[], None]) -> None:
        """Store ``op``, a change of ``table``'s row, then make the same ``change`` to this process's copy.

        A refresh reading the row while this is stored does not apply what it read (it may be the row from
        before ``op``): it looks again once the write has ended. The copy changes in the same step as the
        write is known stored, so no refresh can slip in between.
        """
        table.begin_row_write()
        try:
            await self._store_write(op, table.id, table)
            change()
        finally:
            if table.end_row_write():
                self._schedule_refresh(table)

    async def _write_quietly(self, op: WriteOp, table_id: str) -> None:
        try:
            await self.writer.write(op)
        except StorageError as error:
            log.error("table %s: %s not stored: %s", table_id, type(op).__name__, error)

    async def _store_call(self, function: Any, *args: Any) -> Any:
        """Read from the backend; a failing read is a 503."""
        try:
            return await function(*args)
        except Exception as error:  # StorageError, sqlite3.Error and friends: the store is unavailable
            log.error("reading from the store failed: %s", error)
            raise TableError(503, f"the server could not read its database ({error}); try again shortly", retry_after=2) from None

    async def list_page(self, status: str | None, game: str | None, limit: int, offset: int) -> dict[str, Any]:
        """One page of public table facts, newest first (live tables show who is connected)."""
        page = await self._store_call(self.backend.list_tables, status, game, limit, offset)
        infos = []
        for summary in page.tables:
            live = self.tables.get(summary.id)
            infos.append(live.info() if live is not None else table_info(summary, status=summary.status, version=summary.moves))
        following = offset + len(infos)
        return {"tables": infos, "total": page.total, "offset": offset, "next_offset": following if following < page.total else None}

    # -- housekeeping --------------------------------------------------------------------------

    async def _watch_lag(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(LAG_PROBE_SECONDS)
            self.loop_lags.append((time.perf_counter() - start - LAG_PROBE_SECONDS) * 1000)

    def loop_lag(self) -> dict[str, float]:
        """Median and worst event-loop lag in milliseconds over the last probes (about 20 s), and the worst of the last second."""
        lags = sorted(self.loop_lags) or [0.0]
        last_second = list(self.loop_lags)[-round(1 / LAG_PROBE_SECONDS) :] or [0.0]
        return {"median_ms": round(lags[len(lags) // 2], 2), "max_ms": round(lags[-1], 2), "last_second_max_ms": round(max(last_second), 2)}

    async def _keep_house(self) -> None:
        while True:
            await asyncio.sleep(self.settings.housekeeping_seconds)
            try:
                await self.keep_house()
            except Exception:
                log.exception("housekeeping failed; trying again later")

    async def keep_house(self) -> None:
        """Unload tables idle for ``idle_unload_seconds`` and close those abandoned for ``expire_after_seconds``."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.idle() and now - table.last_active >= self.settings.idle_unload_seconds:
                self._unload(table)
        if self.settings.expire_after_seconds > 0:
            for table_id in await self._store_call(self.backend.abandoned, time.time() - self.settings.expire_after_seconds):
                op = CloseTable(table_id, "expired")
                live = self.tables.get(table_id)
                if live is None:
                    await self._write_quietly(op, table_id)
                else:

                    def expired(live: LiveTable = live, op: CloseTable = op) -> None:
                        if not live.finished:
                            live.stored.closed_at, live.stored.closed_reason = op.at, op.reason

                    with contextlib.suppress(TableError):  # logged; tried again at the next round
                        await self.write_row(live, op, expired)
                        self._tell(live, TableEvent(CLOSED))
                    live.broadcast()
                log.info("table %s expired after %.0f s without a move", table_id, self.settings.expire_after_seconds)

    # -- bots -----------------------------------------------------------------------------

    def _start_bots(self, table: LiveTable) -> None:
        if table.finished or table.closed or table.bot_task is not None or not any(row.kind == "bot" for row in table.stored.seats):
            return
        table.bot_task = asyncio.create_task(self._run_bots(table), name=f"bots-{table.id}")
        table.bot_wakeup.set()

    async def _run_bots(self, table: LiveTable) -> None:
        """Move the table's bots if this process may (with several processes, only the one holding its bot lock)."""
        if self.backend.shared and not await self.backend.own_bots(table.id):
            table.bot_task = None  # another process moves them; tried again if they wait and that process is gone
            return
        try:
            await self._play_bots(table)
        finally:
            if self.backend.shared:
                await asyncio.shield(self.backend.release_bots(table.id))

    async def _play_bots(self, table: LiveTable) -> None:
        """Play the table's bot seats one move at a time, at a pace a person can follow; never give up on a failing store."""
        delay = BOT_RETRY_FIRST_SECONDS
        while not table.finished and not table.closed:
            await table.bot_wakeup.wait()
            table.bot_wakeup.clear()
            while True:
                try:
                    waiting = table.bot_seats_to_act()
                    if not waiting or table.pending:
                        break  # a move being stored wakes the runner again once it lands
                    if self.bot_delay > 0:
                        await asyncio.sleep(self.bot_delay)
                    await self._bot_move(table, waiting[0])
                    delay = BOT_RETRY_FIRST_SECONDS
                except TableError as error:
                    log.warning("table %s: bot move not stored (%s); trying again in %.1f s", table.id, error.message, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, BOT_RETRY_MAX_SECONDS)
                except Exception:
                    log.exception("table %s: bot runner failed; trying again in %.1f s", table.id, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, BOT_RETRY_MAX_SECONDS)

    async def _bot_move(self, table: LiveTable, seat: int) -> None:
        version = table.version
        level = table.stored.seats[seat].bot or "random"
        table.thinking = seat
        if self.backend.shared:
            await self.backend.announce(table.id, THINKING, seat)
        try:
            # A copy, taken now: the real state may move on (another seat commits) while the bot thinks in a worker.
            world = table.match.state.clone()
            seed = table.bot_seed(seat)
            built = bot_level(self.settings, level)  # a registered policy's file, never a path from a request
            text = await self.bot_pool.choose(table.stored.record.game, built, seed, world, seat, owner=table.stored.creator)
        except Exception:
            log.exception("bot %s at table %s seat %d failed; playing a random legal action instead", level, table.id, seat)
            text = str(Stream(table.id, seat, version).choice(table.match.legal_actions(seat)))
        finally:
            table.thinking = None
        if table.version != version and seat not in table.match.decision().players:
            return
        try:
            await self.act(table, seat, text)
        except TableError as error:
            if error.status == 503:
                raise  # not stored: the runner tries again after a pause
            if table.version != version:
                return  # the table moved on while the bot was thinking; it chooses again on the new state
            # A bot that picks an illegal move is a bug; keep the game going with a legal one.
            log.error("bot %s at table %s seat %d chose %s, refused: %s", level, table.id, seat, text, error.message)
            fallback = Stream(table.id, seat, version).choice(table.match.legal_actions(seat))
            await self.act(table, seat, str(fallback))

    async def decide_for(self, table: LiveTable, seat: int, level: str, *, since: int, why: str) -> str | None:
        """A bot of ``level`` makes the one decision a person's ``seat`` owes (its time ran out); the seat stays theirs.

        ``since`` is the move number from which the seat has owed that decision: if the seat has moved since (a later
        decision) or owes none now, nothing is played, so a late or repeated time-out never decides twice. The bot
        thinks in the bot pool under the table creator's budget, like the table's own bots, and the move is stored at
        the move number it was chosen for (another seat's move landing first makes it think again). ``why`` is said
        in the table's chat once the move is stored. Returns the action stored, or None.
        """
        levels = bot_names(table.game)
        if level not in levels:
            raise TableError(400, f"{table.game.spec.title} has no bot {level!r}; choose from {', '.join(levels)}")
        for _ in range(ACT_ATTEMPTS):
            if not self.owes_since(table, seat, since):
                return None
            version = table.version + len(table.pending)
            state = (table.pending[-1].staged.state if table.pending else table.match.state).clone()
            seed = derive_seed("greenlight-web-decide-for", table.stored.record.seed, seat, version)
            table.thinking = seat
            try:
                text = await self.bot_pool.choose(table.stored.record.game, level, seed, state, seat, owner=table.stored.creator)
            except Exception:
                log.exception("bot %s deciding for table %s seat %d failed; a random legal action instead", level, table.id, seat)
                text = str(Stream(table.id, seat, version).choice(table.game.legal_actions(state, seat)))
            finally:
                table.thinking = None
            if table.version + len(table.pending) != version or not self.owes_since(table, seat, since):
                continue  # the table moved on while the bot thought: look again
            try:
                stored, _ = await self.act(table, seat, text, expect_version=version)
            except TableError as error:
                if error.status != 409:
                    raise
                await self._catch_up(table)  # another process stored a move first
                continue
            with contextlib.suppress(TableError):  # the move is stored; a chat line that is not only loses the words
                await self.say(table, why)
            return stored
        return None

    @staticmethod
    def owes_since(table: LiveTable, seat: int, since: int) -> bool:
        """Whether a person's ``seat`` owes a decision now and has made no move from move number ``since`` on."""
        if table.finished or table.closed or table.broken is not None or not 0 <= seat < len(table.stored.seats):
            return False
        if table.stored.seats[seat].kind != "human" or since > table.version:
            return False
        if any(mover == seat for mover, _ in table.stored.record.actions[since:]) or any(p.staged.seat == seat for p in table.pending):
            return False
        state = table.pending[-1].staged.state if table.pending else table.match.state
        return seat in table.game.decision(state).players

    # -- several server processes ---------------------------------------------------------------

    def _notice(self, notice: Notice) -> None:
        """Another process changed a table (or notices may have been missed: ``table_id`` empty means every table)."""
        if not notice.table_id:
            for loaded in list(self.tables.values()):
                self._schedule_refresh(loaded)
                self._schedule_presence_check(loaded)
            return
        table = self.tables.get(notice.table_id)
        if table is None:
            return  # not in memory here: it is read from the store when someone asks
        if notice.kind == CHANGED:
            if not (notice.moves and self._take_moves(table, notice.moves)):
                self._schedule_refresh(table)
        elif notice.kind == PRESENCE:
            self._schedule_presence_check(table)
        elif notice.kind == THINKING:
            table.thinking_elsewhere = notice.seat

    def _take_moves(self, table: LiveTable, moves: tuple[tuple[int, int, str], ...]) -> bool:
        """Apply moves another process stored, carried by its notice, if they follow this copy exactly and nothing of
        the table is in flight here (else False: the table is read back, as for any other change)."""
        if table.pending or table.row_writes or table.stale or moves[0][0] != table.version:
            return False
        if table.refreshing is not None and not table.refreshing.done():
            return False  # a read is under way: let it (and the one after it) bring the copy up to date
        self._apply_changes(table, TableChanges(table.revision, list(moves)), None)
        return True

    def _schedule_refresh(self, table: LiveTable) -> None:
        """Bring ``table`` up to date soon (one refresh at a time; a notice during one asks for another)."""
        if table.refreshing is not None and not table.refreshing.done():
            table.refresh_again = True
            return
        table.refreshing = asyncio.create_task(self._refresh_until_quiet(table), name=f"refresh-{table.id}")

    async def _refresh_until_quiet(self, table: LiveTable) -> None:
        while True:
            table.refresh_again = False
            try:
                await self.refresh(table)
            except TableError as error:
                log.warning("table %s: could not read what other processes stored: %s", table.id, error.message, extra={"table": table.id})
            if not table.refresh_again:
                return

    async def refresh(self, table: LiveTable) -> None:
        """Bring this process's copy of ``table`` up to date with what other processes stored.

        New moves are replayed on the match (they are stored, so they are shown at once), a changed row
        (seats, host, hints, closing, the end) is read again, new chat lines are pushed; then every client of
        the table here gets its fresh view. While this process's own moves of the table are being stored, the
        copy is not touched (the new rows may be those very moves): it is looked at again once they land.
        """
        if not self.backend.shared:
            return
        version, revision, row_generation = table.version, table.revision, table.row_generation
        chat_from = table.chat_length if table.chat_length is not None else 2**31 - 1
        changes = await self._store_call(self.backend.changes, table.id, version, revision, chat_from)
        if changes is None:
            return
        stored = None
        if changes.revision != revision:
            stored = await self._store_call(self.backend.load_table, table.id)
        if table.pending:
            table.stale = True  # this process's own moves are being stored: the rows may be theirs
            return
        if table.version != version:
            self._schedule_refresh(table)  # another refresh moved the copy meanwhile: look again from there
            return
        if stored is not None and (table.row_writes or table.row_generation != row_generation):
            stored = None  # read while this process stored a change of the row: it may be the older row
            if table.row_writes:
                table.row_stale = True
            else:
                self._schedule_refresh(table)
        if stored is not None and len(stored.record.actions) != version + len(changes.actions):
            stored = None  # the row is newer than the moves read (a move landed in between): read both again
            self._schedule_refresh(table)
        self._apply_changes(table, changes, stored)

    def _apply_changes(self, table: LiveTable, changes: TableChanges, stored: StoredTable | None) -> None:
        changed = False
        for index, seat, text in changes.actions:
            if index != table.version:
                break
            if table._match is not None and table.broken is None:
                try:
                    table._match.play(seat, text)
                except GreenlightError as error:
                    table.broken = f"move {index} ({text}) stored by another server process does not replay: {error}"
                    log.error("table %s: %s", table.id, table.broken, extra={"table": table.id})
            table.stored.record.actions.append((seat, text))
            table.thinking_elsewhere = None
            changed = True
        if stored is not None:
            self._take_row(table, stored)
            table.revision = stored.revision
            changed = True
        if changes.chat:
            self._heard_chat(table, changes.chat)
        if changed:
            table.touch()
            table.broadcast()
            table.bot_wakeup.set()
            if table.bot_task is None and table.bot_seats_to_act():
                self._start_bots(table)

    @staticmethod
    def _take_row(table: LiveTable, stored: StoredTable) -> None:
        """Take a table's row and seats as another process stored them; clients of a seat given away lose it."""
        mine = table.stored
        for old, new in zip(mine.seats, stored.seats, strict=True):
            if (old.kind, old.token_hash) != (new.kind, new.token_hash):
                for client in list(table.clients):
                    if client.seat == new.seat:
                        client.seat = None
                        client.push({"type": "revoked", "seat": new.seat, "message": SEAT_HANDED_OVER})
        mine.seats = stored.seats
        mine.finished_at, mine.closed_at, mine.closed_reason = stored.finished_at, stored.closed_at, stored.closed_reason
        mine.host_hash, mine.hints, mine.rematch = stored.host_hash, stored.hints, stored.rematch
        if stored.error is not None:
            table.broken = stored.error

    def _schedule_presence_check(self, table: LiveTable) -> None:
        async def check() -> None:
            try:
                table.elsewhere = await self.backend.presence(table.id)
            except Exception as error:
                log.warning("table %s: could not read who is connected elsewhere: %s", table.id, error, extra={"table": table.id})
                return
            table.schedule_presence(self.settings.presence_delay_seconds)

        asyncio.get_running_loop().create_task(check(), name=f"presence-{table.id}")

    async def _take_over(self) -> None:
        """Every :data:`TAKEOVER_SECONDS`: move the bots of tables no process moves (their process died)."""
        while True:
            await asyncio.sleep(TAKEOVER_SECONDS)
            try:
                await self._take_over_once()
            except Exception:
                log.exception("looking for tables whose bots nobody moves failed; trying again")

    async def _take_over_once(self) -> None:
        if not await self.backend.holds_bot_locks():
            log.warning("the connection holding this process's bot locks was lost; other processes may move those bots now")
            for loaded in self.tables.values():
                if loaded.bot_task is not None:
                    loaded.bot_task.cancel()
                    loaded.bot_task = None
        for table_id in await self.backend.orphaned(TAKEOVER_BATCH):
            table = self.tables.get(table_id)
            if table is None:
                try:
                    table = await self.table(table_id)
                except TableError as error:
                    log.warning("could not take table %s over: %s", table_id, error.message, extra={"table": table_id})
                    return
            if table.bot_task is None and not table.finished and table.broken is None:
                log.info("taking over the bots of table %s", table_id, extra={"table": table_id})
                await self.refresh(table)
                self._start_bots(table)
