"""Live tables: the authoritative matches, their connected clients and their bots.

The :class:`TableHub` owns one :class:`~greenlight.core.match.Match` per table.
Every action, from a person or a bot, goes through :meth:`TableHub.act`, which
checks it with the game's rules, writes it to the store (a committed
transaction) and only then acknowledges it and pushes each connected client
its own fresh view. Bots think in worker processes on a copy of the state
(:mod:`greenlight.web.thinking`), so the event loop keeps serving every
other table at full speed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from greenlight.bots import bot_names
from greenlight.core.errors import ActionParseError, GreenlightError, OptionError
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.core.rng import make_rng
from greenlight.web.storage import SeatRow, StoredTable, TableStore, hash_token, new_token, token_matches
from greenlight.web.thinking import BotPool
from greenlight.web.views import lobby_options, seat_view

log = logging.getLogger("greenlight.web")

#: Most messages waiting for one slow client; older views are dropped first (each view is complete).
CLIENT_QUEUE_SIZE = 64
MAX_NAME_LENGTH = 40


class TableError(Exception):
    """A request about a table was refused; ``status`` is the HTTP status that fits."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """One seat asked for when a table is created: a person (with an optional name) or a bot level."""

    kind: str
    bot: str | None = None
    name: str | None = None


@dataclass(slots=True)
class CreatedTable:
    """A new table and the secret tokens of its human seats (shown once, never stored)."""

    table: LiveTable
    tokens: dict[int, str]


@dataclass(eq=False)
class Client:
    """One connected WebSocket client: a seat (``seat`` set) or a spectator."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(CLIENT_QUEUE_SIZE))

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message; a client that lags far behind loses its oldest messages (the newest view is complete)."""
        while self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(message)


class LiveTable:
    """One table in memory: its stored description, its match (rebuilt lazily), clients and bots."""

    def __init__(self, stored: StoredTable) -> None:
        self.id = stored.id
        self.stored = stored
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bot_wakeup = asyncio.Event()
        self.bot_task: asyncio.Task[None] | None = None
        self.broken: str | None = None
        self._match: Match | None = None

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
        """Number of accepted actions."""
        return len(self.stored.record.actions)

    @property
    def finished(self) -> bool:
        """Whether the game has ended (known from the store without rebuilding the match)."""
        return self.stored.finished_at is not None

    def seat_for_token(self, token: str) -> int | None:
        """The human seat whose token this is, or None."""
        for row in self.stored.seats:
            if row.kind == "human" and token_matches(token, row.token_hash):
                return row.seat
        return None

    def bot_seats_to_act(self) -> list[int]:
        """Bot seats the game is waiting for now."""
        if self.broken is not None or self.finished:
            return []
        waiting = self.match.decision().players
        return [row.seat for row in self.stored.seats if row.kind == "bot" and row.seat in waiting]

    def bot_seed(self, seat: int) -> int:
        """The seed of ``seat``'s bot for the current move: table seed, seat and move number, so restarts change nothing."""
        return make_rng("greenlight-web-bot", self.stored.record.seed, seat, self.version).randrange(2**31)

    # -- what clients see ------------------------------------------------------------

    def status(self) -> str:
        """``open`` (a human seat has never been joined), ``running``, ``finished`` or ``broken``."""
        if self.broken is not None:
            return "broken"
        if self.finished:
            return "finished"
        if any(row.kind == "human" and not row.joined for row in self.stored.seats):
            return "open"
        return "running"

    def info(self) -> dict[str, Any]:
        """Public facts about the table (no tokens, nothing hidden)."""
        record = self.stored.record
        connected = {client.seat for client in self.clients}
        try:
            title = get_game(record.game).spec.title
        except OptionError:
            title = record.game
        return {
            "id": self.id,
            "game": record.game,
            "title": title,
            "num_players": record.num_players,
            "options": dict(record.options),
            "status": self.status(),
            "version": self.version,
            "created_at": self.stored.created_at,
            "finished_at": self.stored.finished_at,
            "spectators": sum(1 for client in self.clients if client.seat is None),
            "seats": [
                {
                    "seat": row.seat,
                    "kind": row.kind,
                    "bot": row.bot,
                    "name": row.name,
                    "joined": row.joined if row.kind == "human" else True,
                    "connected": row.seat in connected if row.kind == "human" else True,
                }
                for row in self.stored.seats
            ],
            "error": self.broken,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """The full view of ``seat`` (None = spectator)."""
        return seat_view(self.match, seat, self.info())

    def broadcast(self) -> None:
        """Queue each connected client its own fresh view."""
        if not self.clients:
            return
        info = self.info()
        views: dict[int | None, dict[str, Any]] = {}
        for client in self.clients:
            if client.seat not in views:
                views[client.seat] = seat_view(self.match, client.seat, info)
            client.push(views[client.seat])

    def broadcast_presence(self) -> None:
        """Tell every client who is connected (public)."""
        message = {"type": "presence", "table": self.info()}
        for client in self.clients:
            client.push(message)


class TableHub:
    """Every table of the server, the store behind them, and the bot runners."""

    def __init__(self, store: TableStore, *, bot_delay: float = 0.6, bot_workers: int | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.bot_pool = BotPool(bot_workers)
        self.tables: dict[str, LiveTable] = {}
        self._started = False

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Load every stored table; rebuild the unfinished ones and restart their bots."""
        stored = await asyncio.to_thread(self.store.load_all)
        for item in stored:
            table = LiveTable(item)
            self.tables[table.id] = table
            if not table.finished:
                try:
                    table.match  # noqa: B018 - rebuild now so a broken table is reported at start-up
                except TableError as error:
                    log.error("%s", error.message)
                    continue
                self._start_bots(table)
        self._started = True

    async def stop(self) -> None:
        """Stop every bot runner."""
        tasks = [table.bot_task for table in self.tables.values() if table.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bot_pool.close()

    # -- tables -------------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        """The table called ``table_id`` or a 404 TableError."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(404, f"there is no table {table_id!r}")
        return table

    async def create(self, game_name: str, seats: Sequence[SeatRequest], options: dict[str, Any], seed: int | None = None) -> CreatedTable:
        """Validate and store a new table; return it with the tokens of its human seats."""
        try:
            game = get_game(game_name)
        except OptionError as error:
            raise TableError(404, str(error)) from None
        num_players = len(seats)
        allowed = {spec.name for spec in lobby_options(game)}
        for name in options:
            if name not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise TableError(400, f"{game.spec.title} has no option {name!r} that can be set here (options: {known})")
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            match = Match.start(game, num_players, seed, options)
        except GreenlightError as error:
            raise TableError(400, str(error)) from None
        levels = bot_names(game)
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for seat, request in enumerate(seats):
            if request.kind == "human":
                token = new_token()
                tokens[seat] = token
                name = (request.name or "").strip()[:MAX_NAME_LENGTH] or f"Player {seat + 1}"
                rows.append(SeatRow(seat, "human", None, name, hash_token(token)))
            elif request.kind == "bot":
                level = request.bot or "random"
                if level not in levels:
                    raise TableError(400, f"seat {seat}: {game.spec.title} has no bot {level!r}; choose from {', '.join(levels)}")
                rows.append(SeatRow(seat, "bot", level, f"Bot ({level})"))
            else:
                raise TableError(400, f"seat {seat}: kind must be 'human' or 'bot', not {request.kind!r}")
        table_id = secrets.token_hex(5)  # lower-case hex: never mistaken for a card id in text
        stored = StoredTable(table_id, Record.from_json(match.record.to_json()), rows, created_at=time.time())
        await asyncio.to_thread(self.store.create_table, stored)
        table = LiveTable(stored)
        table._match = match
        self.tables[table_id] = table
        self._start_bots(table)
        return CreatedTable(table, tokens)

    def authenticate(self, table: LiveTable, token: str | None) -> int | None:
        """The seat a token stands for (None for no token = spectator); a wrong token is a 403."""
        if token is None or token == "":
            return None
        seat = table.seat_for_token(token)
        if seat is None:
            raise TableError(403, "this seat token does not belong to any seat at this table")
        return seat

    async def joined(self, table: LiveTable, seat: int) -> None:
        """Remember that a human seat has been taken (its token used)."""
        row = table.stored.seats[seat]
        if not row.joined:
            row.joined = True
            await asyncio.to_thread(self.store.mark_joined, table.id, seat)

    # -- actions --------------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int, text: str, expect_version: int | None = None) -> tuple[str, int]:
        """Check, store, then apply-and-broadcast one action; return its canonical text and its index in the record.

        A refused action raises TableError (400 unreadable, 409 not legal now)
        and changes nothing. The action row is committed to the store before
        anyone is told about it.
        """
        async with table.lock:
            match = table.match
            if expect_version is not None and expect_version != table.version:
                raise TableError(
                    409, f"the table has moved on (now at move {table.version}, you expected {expect_version}); refresh and try again"
                )
            if match.is_over():
                raise TableError(409, "the game is over; no more actions are taken")
            state_before = match.state.clone()
            events_before = len(match.events)
            try:
                action = match.game.parse_action(text)
                match.play(seat, action)
            except GreenlightError as error:
                raise TableError(400 if isinstance(error, ActionParseError) else 409, str(error)) from None
            except BaseException:
                self._restore(match, state_before, events_before, played=False)
                raise
            canonical = str(action)
            finished = match.is_over()
            index = table.version
            try:
                await asyncio.to_thread(self.store.append_action, table.id, index, seat, canonical, finished=finished)
            except BaseException:
                # Not stored, so it never happened: put the match back and tell nobody.
                self._restore(match, state_before, events_before, played=True)
                raise
            table.stored.record.actions.append((seat, canonical))
            if finished:
                table.stored.finished_at = time.time()
            table.broadcast()
            table.bot_wakeup.set()
            return canonical, index

    @staticmethod
    def _restore(match: Match, state: Any, events: int, *, played: bool) -> None:
        match.state = state
        del match.events[events:]
        if played:
            match.record.actions.pop()

    # -- bots -----------------------------------------------------------------------------

    def _start_bots(self, table: LiveTable) -> None:
        if table.finished or not any(row.kind == "bot" for row in table.stored.seats):
            return
        table.bot_task = asyncio.create_task(self._run_bots(table), name=f"bots-{table.id}")
        table.bot_wakeup.set()

    async def _run_bots(self, table: LiveTable) -> None:
        """Play the table's bot seats one move at a time, at a pace a person can follow."""
        while not table.finished:
            await table.bot_wakeup.wait()
            table.bot_wakeup.clear()
            while True:
                waiting = table.bot_seats_to_act()
                if not waiting:
                    break
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                await self._bot_move(table, waiting[0])

    async def _bot_move(self, table: LiveTable, seat: int) -> None:
        version = table.version
        level = table.stored.seats[seat].bot or "random"
        try:
            # A copy, taken now: the real state may move on (another seat commits) while the bot thinks in a worker.
            world = table.match.state.clone()
            text = await self.bot_pool.choose(table.stored.record.game, level, table.bot_seed(seat), world, seat)
        except Exception:
            log.exception("bot %s at table %s seat %d failed; playing a random legal action instead", level, table.id, seat)
            text = str(make_rng(table.id, seat, version).choice(table.match.legal_actions(seat)))
        if table.version != version and seat not in table.match.decision().players:
            return
        try:
            await self.act(table, seat, text)
        except TableError as error:
            if table.version != version:
                return  # the table moved on while the bot was thinking; it chooses again on the new state
            # A bot that picks an illegal move is a bug; keep the game going with a legal one.
            log.error("bot %s at table %s seat %d chose %s, refused: %s", level, table.id, seat, text, error.message)
            fallback = make_rng(table.id, seat, version).choice(table.match.legal_actions(seat))
            await self.act(table, seat, str(fallback))
