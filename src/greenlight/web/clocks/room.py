"""The clocks room: a table's pace, its seats' clocks and deadlines, and what happens when time runs out.

Time is data: each seat's clock is a row (:mod:`.schema`), brought from one move to the next by the process that
stored the move (it hears it through ``hub.watch``), and **one scheduler per process** sleeps until the earliest
deadline of all tables (one indexed query; nothing runs per table between deadlines). When a deadline passes, the
first scheduler to claim its row (one conditional ``UPDATE`` in one transaction) fires it; every other process finds
the row changed and leaves it. A claimed deadline moves a short lease on, so a process that dies before the time-out
is stored leaves it for another. A deadline remembers the move number its decision dates from, so a time-out that
comes after the seat moved (or after a process died between storing a move and bringing the clocks to it) only brings
the clocks up to date.

A time-out makes a bot of the pace's level decide for the seat that once (``TableHub.decide_for``: the bot pool, under
the table creator's budget), or hands the seat to that bot for the rest of the game (``TableHub.seat_to_bot``). On a
rated table (accounts room) a time-out always hands the seat over, and the accounts room ranks such a seat last: none
of the rules files ranks the players of an unfinished game, so the game is finished by the bot and counts as a loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from greenlight.bots import bot_names
from greenlight.web.clocks import store
from greenlight.web.clocks.pace import (
    BOT_TAKES_SEAT,
    LIVE,
    TURN_BASED,
    Pace,
    PaceError,
    check_pace,
    duration_words,
    timeout_words,
)
from greenlight.web.clocks.schema import SCHEMA
from greenlight.web.clocks.store import AWAY_BOT, AWAY_EXTEND, Moment, TableClocks
from greenlight.web.rooms import RoomDatabase
from greenlight.web.storage import StorageError
from greenlight.web.tables import CLOSED, CREATED, FINISHED, MOVED, SEATED, LiveTable, TableError, TableEvent, TableHub

log = logging.getLogger("greenlight.web")

#: Deadlines one scheduler claims per transaction, and time-outs it works on at once.
CLAIM_BATCH = 100
FIRING_AT_ONCE = 32
#: A claimed deadline comes due again after this long if its time-out was not stored (its process died, the store failed).
LEASE_SECONDS = 30.0
#: The longest a scheduler sleeps: a deadline another process wrote and whose notice was lost is found within it.
LONGEST_SLEEP_SECONDS = 300.0
#: Paces remembered per process (the pace of a table never changes once set; None: untimed).
PACES_KEPT = 20_000
#: Longest absence a seat may announce.
AWAY_MOST_DAYS = 30
#: The days a seat's absences with waiting deadlines may add up to at one table (others wait on them).
AWAY_DAYS_PER_TABLE = 30

#: A reminder listener: (table id, seat, the move number its decision dates from, when its time runs out).
ReminderListener = Callable[[str, int, int, float], None]


class PaceIn(BaseModel):
    """A table's pace (``kind``): live clocks, turn-based deadlines or untimed; and what a time-out does."""

    kind: Literal["live", "turn", "untimed"] = "untimed"
    bank_seconds: float = Field(default=600, description="live: each seat's time (60 to 10800 s)")
    increment_seconds: float = Field(default=20, description="live: added after each of the seat's decisions (0 to 600 s)")
    deadline_hours: float = Field(default=24, description="turn-based: time per decision, one of 1, 12, 24, 72")
    weekends_off: bool = Field(default=False, description="turn-based: Saturdays and Sundays (UTC) are not counted")
    on_timeout: Literal["bot_decides", "bot_takes_seat"] = Field(
        default="bot_decides", description="a bot makes that one decision, or takes the seat for the rest of the game"
    )
    bot: str = Field(default="medium", max_length=40, description="the level of that bot")

    def pace(self) -> Pace:
        """The pace as a value."""
        return Pace.from_json(self.model_dump())


class PauseIn(BaseModel):
    """Ask for a pause (every person's seat must ask) or end it (any seat may)."""

    pause: bool


class AwayIn(BaseModel):
    """Mark your seat away for some days (``extend``: your deadlines wait; ``bot``: the table's bot decides for you), or
    back (``mode`` null)."""

    mode: Literal["extend", "bot"] | None
    days: float = Field(default=1, gt=0, le=AWAY_MOST_DAYS)


class ClocksRoom:
    """Paces, clocks, deadlines and time-outs (a :class:`~greenlight.web.rooms.Room`)."""

    schema = SCHEMA

    def __init__(self) -> None:
        self.hub: TableHub | None = None
        self.router = self._routes()
        self._paces: OrderedDict[str, Pace | None] = OrderedDict()
        self._pace_generation: dict[str, int] = {}
        self._scheduler: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._next_due: float | None = None
        self._firing: asyncio.Semaphore | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reminder_listeners: list[ReminderListener] = []
        self._catching_up: set[tuple[str, int]] = set()

    # -- life ---------------------------------------------------------------------------------

    async def start(self, hub: TableHub) -> None:
        """Watch tables and start the scheduler."""
        self.hub = hub
        self._wake = asyncio.Event()
        self._firing = asyncio.Semaphore(FIRING_AT_ONCE)
        hub.watch(self._table_changed)
        hub.backend.rooms.listen(store.CHANNEL, self._heard)
        self._scheduler = asyncio.create_task(self._schedule(), name="greenlight-clocks")

    async def stop(self) -> None:
        """Stop the scheduler and the time-outs being worked on."""
        tasks = [task for task in (self._scheduler, *self._tasks) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def rooms(self) -> RoomDatabase:
        """The rooms' database."""
        return self._hub().backend.rooms

    def _hub(self) -> TableHub:
        assert self.hub is not None, "the clocks room has not started"
        return self.hub

    def on_reminder(self, listener: ReminderListener) -> None:
        """Call ``listener(table_id, seat, since, due_at)`` when a turn-based deadline's reminder is due (once, in one
        process): the notifications room sends it."""
        self._reminder_listeners.append(listener)

    # -- paces ------------------------------------------------------------------------------------

    def check(self, game_id: str, body: PaceIn) -> Pace | None:
        """The pace a new table asks for, checked before the table is created (400 naming the field); None: untimed."""
        from greenlight.core.errors import OptionError
        from greenlight.core.registry import get_game

        try:
            pace = body.pace()
            levels = bot_names(get_game(game_id))
            check_pace(pace, levels)
        except PaceError as error:
            raise TableError(400, str(error)) from None
        except OptionError as error:
            raise TableError(404, str(error)) from None
        return pace if pace.timed else None

    async def set_pace(self, table: LiveTable, pace: Pace) -> None:
        """Give a new table its pace and start its clocks."""
        scale = self._hub().settings.pace_time_scale
        await self._write(store.create_and_start, table.id, pace, pace.scaled(scale), self.moment(table))
        self._forget(table.id)
        self._paces[table.id] = pace.scaled(scale)

    async def pace_of(self, table_id: str) -> Pace | None:
        """A table's pace in force (None: untimed), remembered once read."""
        if table_id in self._paces:
            self._paces.move_to_end(table_id)
            return self._paces[table_id]
        generation = self._pace_generation.get(table_id, 0)
        clocks = await self._read(store.load, table_id)
        pace = clocks.pace if clocks is not None else None
        if self._pace_generation.get(table_id, 0) == generation:  # not set meanwhile (a notice would have said)
            self._paces[table_id] = pace
            while len(self._paces) > PACES_KEPT:
                self._paces.popitem(last=False)
        return pace

    def _forget(self, table_id: str) -> None:
        self._paces.pop(table_id, None)
        self._pace_generation[table_id] = self._pace_generation.get(table_id, 0) + 1
        if len(self._pace_generation) > PACES_KEPT:
            self._pace_generation.clear()

    # -- following the tables ----------------------------------------------------------------------

    def _table_changed(self, table: LiveTable, event: TableEvent) -> None:
        if event.kind == CREATED and table.stored.rematch_of is None:
            return  # a new table's pace comes with set_pace
        self._spawn(self._follow(table, event), f"clocks-{table.id}")

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _follow(self, table: LiveTable, event: TableEvent) -> None:
        try:
            if event.kind == CREATED:
                await self._copy_to_rematch(table)
                return
            if event.kind in (MOVED, FINISHED, SEATED, CLOSED) and await self.pace_of(table.id) is not None:
                await self.bring_to(table)
        except Exception:
            log.exception("table %s: the clocks could not follow a change (%s)", table.id, event.kind, extra={"table": table.id})

    async def _copy_to_rematch(self, table: LiveTable) -> None:
        """A rematch plays at the pace of the game it follows."""
        old = table.stored.rematch_of
        clocks = await self._read(store.load, old) if old else None
        if clocks is not None:
            await self._write(store.create_and_start, table.id, clocks.chosen, clocks.pace, self.moment(table))
            self._forget(table.id)

    @staticmethod
    def moment(table: LiveTable) -> Moment:
        """What the clocks need to know of ``table`` now (its stored moves; moves being stored are not counted)."""
        over = table.finished or table.closed or table.broken is not None
        timed = frozenset(row.seat for row in table.stored.seats if row.kind == "human" and not row.open)
        owing = frozenset() if over else frozenset(table.match.decision().players)
        movers = tuple(seat for seat, _ in table.stored.record.actions)
        return Moment(table.version, timed, owing, movers, over)

    async def bring_to(self, table: LiveTable) -> None:
        """Bring the table's clocks to its current move (every process may; the latest move wins)."""
        await self._write(store.bring_to, table.id, self.moment(table))

    def _heard(self, data: dict[str, Any]) -> None:
        """A table's clocks changed (in any process): forget its pace if it was just set, and wake up for an earlier deadline."""
        table_id = str(data.get("table", ""))
        if table_id and not isinstance(self._paces.get(table_id), Pace):
            self._forget(table_id)  # its pace may have been set just now (a read in flight must not remember "untimed")
        due = data.get("due")
        if isinstance(due, int | float) and (self._next_due is None or due < self._next_due):
            self._next_due = float(due)
            self._wake.set()

    # -- the scheduler -------------------------------------------------------------------------------

    async def _schedule(self) -> None:
        """Sleep until the earliest deadline or reminder; claim what is due; fire it; sleep again."""
        failures = 0
        while True:
            self._wake.clear()
            try:
                claimed = await self.rooms.write(store.claim_due, CLAIM_BATCH, LEASE_SECONDS)
                failures = 0
            except StorageError as error:
                failures += 1
                wait = min(30.0, 0.5 * 2**failures)
                log.warning("the clocks scheduler could not read its deadlines (%s); trying again in %.1f s", error, wait)
                await asyncio.sleep(wait)
                continue
            for table_id, seat, since, away in claimed.deadlines:
                self._spawn(self._fire(table_id, seat, since, away), f"timeout-{table_id}-{seat}")
            for table_id, seat, since, due_at in claimed.reminders:
                for listener in self._reminder_listeners:
                    try:
                        listener(table_id, seat, since, due_at)
                    except Exception:
                        log.exception("a reminder listener failed for table %s", table_id)
            if len(claimed.deadlines) >= CLAIM_BATCH or len(claimed.reminders) >= CLAIM_BATCH:
                continue  # more are due now
            self._next_due = claimed.next_due
            sleep = LONGEST_SLEEP_SECONDS if claimed.next_due is None else max(0.0, claimed.next_due - claimed.now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(sleep, LONGEST_SLEEP_SECONDS) + 0.005)

    async def _fire(self, table_id: str, seat: int, since: int, away: str | None) -> None:
        """A seat's time ran out (this process claimed it): decide for it, or hand the seat over."""
        assert self._firing is not None
        async with self._firing:
            hub = self._hub()
            try:
                table = await hub.table(table_id)
                pace = await self.pace_of(table_id)
                if pace is None:
                    return
                if not hub.owes_since(table, seat, since):
                    await self.bring_to(table)  # the seat moved since (or a process died before bringing the clocks on)
                    return
                name = table.stored.seats[seat].name
                if away == AWAY_BOT:
                    why = f"{name} is away: a bot ({pace.bot}) decided for seat {seat + 1}."
                    action = await hub.decide_for(table, seat, pace.bot, since=since, why=why)
                    outcome = "away"
                elif pace.on_timeout == BOT_TAKES_SEAT or await self.rated(table_id):
                    await hub.seat_to_bot(table, seat, pace.bot, "ran out of time")
                    action, outcome = None, "bot_takes_seat"
                else:
                    why = f"{name}'s time ran out: a bot ({pace.bot}) decided for seat {seat + 1} this once."
                    action = await hub.decide_for(table, seat, pace.bot, since=since, why=why)
                    outcome = "bot_decides"
                if action is None and outcome != "bot_takes_seat":
                    await self.bring_to(table)
                    return
                await self._write(store.log_timeout, table_id, seat, since, outcome, action)
                log.info("table %s seat %d: time-out (%s)", table_id, seat, outcome, extra={"table": table_id})
            except TableError as error:
                log.warning("table %s seat %d: the time-out could not be played yet (%s); tried again soon", table_id, seat, error.message)
            except Exception:
                log.exception("table %s seat %d: the time-out failed; tried again soon", table_id, seat, extra={"table": table_id})

    async def rated(self, table_id: str) -> bool:
        """Whether the accounts room created ``table_id`` rated (False where this server runs no accounts)."""
        try:
            from greenlight.web.accounts import store as accounts

            return bool(await self.rooms.read(accounts.is_rated, table_id))
        except Exception:
            return False

    # -- what the page and the API show ----------------------------------------------------------------

    async def clock_json(self, table: LiveTable) -> dict[str, Any]:
        """A table's clocks as every seat and spectator may see them (nothing here is secret)."""

        def read(tx: Any) -> tuple[float, TableClocks | None, list[dict[str, Any]]]:
            clocks = store.load(tx, table.id)
            return tx.now(), clocks, store.timeouts(tx, table.id) if clocks is not None else []

        now, clocks, timeouts = await self._read(read)
        if clocks is None:
            return {"table": table.id, "pace": Pace().to_json(), "timed": False, "now": now}
        rated = await self.rated(table.id)
        pace = clocks.pace
        seats = []
        for row in table.stored.seats:
            clock = clocks.seats.get(row.seat)
            entry: dict[str, Any] = {"seat": row.seat, "timed": clock is not None and row.kind == "human" and not row.open}
            if clock is not None:
                running = clock.since is not None and clock.started_at is not None and clock.due_at is not None
                if pace.kind == LIVE:
                    left = clock.remaining if clock.remaining is not None else pace.bank
                    if running and clock.started_at is not None:
                        left = max(0.0, left - (now - clock.started_at))
                else:
                    left = max(0.0, clock.due_at - now) if running and clock.due_at is not None else clock.remaining
                entry.update(
                    owes=clock.since is not None,
                    running=running,
                    left_seconds=None if left is None else round(left, 3),
                    due_at=clock.due_at if running else None,
                    away=None if clock.away is None or (clock.away_until or 0) <= now else {"mode": clock.away, "until": clock.away_until},
                )
            seats.append(entry)
        chosen = clocks.chosen.to_json()
        chosen["timeout_words"] = timeout_words(clocks.chosen, rated)
        if pace != clocks.chosen:
            chosen["in_force"] = {"bank_seconds": pace.bank, "increment_seconds": pace.increment, "deadline_seconds": pace.deadline}
        return {
            "table": table.id,
            "timed": True,
            "pace": chosen,
            "rated": rated,
            "version": clocks.version,
            "now": now,
            "paused": clocks.paused_at is not None,
            "pause_votes": sorted(clocks.pause_votes),
            "seats": seats,
            "timeouts": timeouts,
        }

    async def record_notes(self, table: LiveTable) -> dict[str, Any]:
        """What a downloaded record says beside its moves: the pace, and each time-out with the move a bot made."""
        clocks = await self._read(store.load, table.id)
        if clocks is None:
            return {}
        timeouts = await self._read(store.timeouts, table.id)
        return {"pace": clocks.chosen.to_json(), "timeouts": timeouts}

    # -- transactions --------------------------------------------------------------------------------

    async def _write(self, function: Any, *args: Any) -> Any:
        return await self.rooms.write_for_request(function, *args)

    async def _read(self, function: Any, *args: Any) -> Any:
        return await self.rooms.read_for_request(function, *args)

    # -- routes --------------------------------------------------------------------------------------

    def _routes(self) -> APIRouter:
        from greenlight.web.api import Limiters, client_of, seat_from_header

        router = APIRouter(prefix="/api", tags=["clocks"])
        room = self

        async def seat_of(request: Request, table: LiveTable, authorization: str | None) -> int:
            limiters: Limiters = request.app.state.limiters
            await limiters.take("actions", await client_of(request), "requests")
            seat = await seat_from_header(room._hub(), table, authorization, required=True)
            assert seat is not None
            return seat

        @router.get("/tables/{table_id}/clock")
        async def clock(table_id: str) -> dict[str, Any]:
            """Every seat's clock (time left, running or not, away), the pace and what happens at zero, the time-outs so far.

            ``now`` is the server's time, so a page counts down from what it was sent whatever its own clock says.
            """
            return await room.clock_json(await room._hub().table(table_id))

        @router.post("/tables/{table_id}/clock/pause")
        async def pause(
            table_id: str, body: PauseIn, request: Request, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            """Ask to pause a turn-based table (paused once every person's seat has asked), or end the pause (any seat)."""
            hub = room._hub()
            table = await hub.table(table_id)
            seat = await seat_of(request, table, authorization)
            pace = await room.pace_of(table_id)
            if pace is None or pace.kind != TURN_BASED:
                raise TableError(409, "only a turn-based table can be paused")
            if table.finished or table.closed:
                raise TableError(409, "the game is over")
            humans = frozenset(row.seat for row in table.stored.seats if row.kind == "human" and not row.open)
            before = await room._read(store.load, table_id)
            after = await room._write(store.set_pause, table_id, seat, body.pause, humans)
            name = table.stored.seats[seat].name
            if before is not None and after is not None and (before.paused_at is None) != (after.paused_at is None):
                await hub.say(
                    table,
                    "Every player agreed: the table is paused; no deadline runs."
                    if after.paused_at
                    else f"{name} ended the pause: deadlines run again.",
                )
            elif body.pause and before is not None and after is not None and seat not in before.pause_votes:
                missing = len(humans - after.pause_votes)
                await hub.say(table, f"{name} asks to pause the table ({missing} more player{'s' if missing != 1 else ''} must agree).")
            return await room.clock_json(table)

        @router.post("/tables/{table_id}/clock/away")
        async def away(
            table_id: str, body: AwayIn, request: Request, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            """Mark your seat away for some days, or back: ``extend`` makes your deadlines wait (turn-based tables), ``bot``
            has the table's bot decide for you at once."""
            hub = room._hub()
            table = await hub.table(table_id)
            seat = await seat_of(request, table, authorization)
            pace = await room.pace_of(table_id)
            if pace is None:
                raise TableError(409, "this table is untimed: nobody waits on a clock here")
            if body.mode == AWAY_EXTEND and pace.kind != TURN_BASED:
                raise TableError(409, "deadlines wait only at turn-based tables; at a live table choose a bot to decide for you")
            if table.finished or table.closed:
                raise TableError(409, "the game is over")
            scale = hub.settings.pace_time_scale
            seconds = body.days * 86400 * scale if body.mode else None
            try:
                await room._write(store.set_away, table_id, seat, body.mode, seconds, AWAY_DAYS_PER_TABLE * 86400 * scale)
            except store.AbsenceRefused as refused:
                left = duration_words(refused.left / scale) if refused.left >= 60 * scale else "no time"
                raise TableError(
                    409,
                    f"others wait while your deadlines wait: at this table that is {AWAY_DAYS_PER_TABLE} days in all, and you "
                    f"have {left} of it left; choose fewer days, or have a bot decide for you while you are away",
                ) from None
            name = table.stored.seats[seat].name
            if body.mode == AWAY_BOT:
                await hub.say(table, f"{name} is away for {duration_words(body.days * 86400)}: a bot ({pace.bot}) decides for them.")
            elif body.mode == AWAY_EXTEND:
                await hub.say(table, f"{name} is away for {duration_words(body.days * 86400)}: their deadlines wait for them.")
            else:
                await hub.say(table, f"{name} is back.")
            return await room.clock_json(table)

        return router
