"""The clocks room's transactions (each runs in one transaction in a worker thread, see :mod:`greenlight.web.rooms`),
and :func:`advance`, the rule that brings a table's seat clocks from one move to the next.

Times are the database's clock (``tx.now()``), the same for every server process sharing the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from greenlight.web.clocks.pace import LIVE, TURN_BASED, Pace, deadline_after, reminder_before
from greenlight.web.rooms import RoomTx

#: The room's notices (every process hears them): a table's clocks changed; ``due`` is their earliest deadline.
CHANNEL = "clocks"
AWAY_EXTEND, AWAY_BOT = "extend", "bot"


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock as stored (see :mod:`.schema`)."""

    seat: int
    remaining: float | None = None
    since: int | None = None
    started_at: float | None = None
    due_at: float | None = None
    remind_at: float | None = None
    fired: int = 0
    away: str | None = None
    away_until: float | None = None
    #: How long this seat's absences with waiting deadlines have held the table so far (scaled seconds).
    away_used: float = 0.0

    @property
    def owes(self) -> bool:
        """Whether the seat owes a decision (its clock runs, or is paused)."""
        return self.since is not None


@dataclass(frozen=True, slots=True)
class TableClocks:
    """A timed table's pace (the durations in force) and its seats' clocks."""

    table_id: str
    chosen: Pace
    pace: Pace
    version: int
    paused_at: float | None
    pause_votes: frozenset[int]
    seats: dict[int, SeatClock]
    ended: bool


@dataclass(frozen=True, slots=True)
class Moment:
    """What the clocks need to know of a table at one move: its move number, the seats a person plays (timed), the
    seats owing a decision, and who made each move so far."""

    version: int
    timed: frozenset[int]
    owing: frozenset[int]
    movers: tuple[int, ...]
    over: bool


def advance(pace: Pace, clocks: dict[int, SeatClock], moment: Moment, now: float, *, paused: bool) -> dict[int, SeatClock]:
    """Every seat's clock after the table reached ``moment`` (``clocks`` as they were at an earlier move).

    A seat that moved, or no longer owes a decision, stops: a live bank is charged the time used and credited the
    increment for each move it made. A seat that owes a decision and was not running starts (its decision dates from
    this move). A seat that still owes the same decision, in a simultaneous step where others commit, runs on.

    >>> live = Pace.live(600, 20)
    >>> start = advance(live, {}, Moment(0, frozenset({0, 1}), frozenset({0}), (), False), 1000.0, paused=False)
    >>> start[0].due_at, start[1].owes
    (1600.0, False)
    >>> after = advance(live, start, Moment(1, frozenset({0, 1}), frozenset({1}), (0,), False), 1100.0, paused=False)
    >>> after[0].remaining, after[0].owes, after[1].due_at
    (520.0, False, 1700.0)
    """
    result: dict[int, SeatClock] = {}
    for seat in sorted(moment.timed | set(clocks)):
        clock = clocks.get(seat) or SeatClock(seat, remaining=pace.bank if pace.kind == LIVE else None)
        owes = not moment.over and seat in moment.owing and seat in moment.timed
        if clock.since is not None:
            moves = sum(1 for mover in moment.movers[clock.since : moment.version] if mover == seat)
            if moves or not owes:
                clock = _stop(pace, clock, moves, now)
        if owes and clock.since is None:
            clock = start_clock(pace, replace(clock, since=moment.version), now, paused=paused)
        result[seat] = clock
    return result


def _stop(pace: Pace, clock: SeatClock, moves: int, now: float) -> SeatClock:
    remaining = clock.remaining
    if pace.kind == LIVE:
        left = remaining if remaining is not None else pace.bank
        if clock.started_at is not None:
            left = max(0.0, left - (now - clock.started_at))
        remaining = left + pace.increment * moves
    else:
        remaining = None
    return replace(clock, remaining=remaining, since=None, started_at=None, due_at=None, remind_at=None)


def start_clock(pace: Pace, clock: SeatClock, now: float, *, paused: bool) -> SeatClock:
    """A seat owing a decision (``since`` set) with its time running from ``now`` (or held, while the table is paused)."""
    if paused:
        return replace(clock, started_at=None, due_at=None, remind_at=None)
    if clock.away == AWAY_BOT and clock.away_until is not None and clock.away_until > now:
        return replace(clock, started_at=now, due_at=now, remind_at=None)  # away, a bot moves: at once
    if pace.kind == LIVE:
        left = clock.remaining if clock.remaining is not None else pace.bank
        return replace(clock, started_at=now, due_at=now + left, remind_at=None)
    base = now
    if clock.away == AWAY_EXTEND and clock.away_until is not None and clock.away_until > now:
        base = clock.away_until
    if clock.remaining is not None:  # resumed after a pause: the time that was left
        due = deadline_after(base, clock.remaining, weekends_off=pace.weekends_off)
    else:
        due = deadline_after(base, pace.deadline, weekends_off=pace.weekends_off)
    remind = due - reminder_before(pace.deadline)
    return replace(clock, remaining=None, started_at=now, due_at=due, remind_at=remind if remind > now else None)


# -- reading and writing ------------------------------------------------------------------------


def pace_from_row(chosen: str) -> Pace:
    """The pace as chosen, from its stored JSON."""
    return Pace.from_json(json.loads(chosen))


def load(tx: RoomTx, table_id: str) -> TableClocks | None:
    """A table's clocks, or None for an untimed table."""
    rows = tx.fetch(
        "SELECT chosen, kind, bank, increment, deadline, weekends_off, on_timeout, bot, version, paused_at, pause_votes, ended_at"
        " FROM clock_paces WHERE table_id = ?",
        (table_id,),
    )
    if not rows:
        return None
    chosen, kind, bank, increment, deadline, weekends_off, on_timeout, bot, version, paused_at, votes, ended_at = rows[0]
    pace = Pace(str(kind), float(bank), float(increment), float(deadline), bool(weekends_off), str(on_timeout), str(bot))
    seats = {}
    for row in tx.fetch(
        "SELECT seat, remaining, since, started_at, due_at, remind_at, fired, away, away_until, away_used"
        " FROM clock_seats WHERE table_id = ?",
        (table_id,),
    ):
        seat = int(row[0])
        times = (_float(row[1]), _int(row[2]), _float(row[3]), _float(row[4]), _float(row[5]))
        seats[seat] = SeatClock(seat, *times, int(row[6]), row[7], _float(row[8]), float(row[9]))
    voted = frozenset(int(part) for part in str(votes).split(",") if part)
    return TableClocks(table_id, pace_from_row(str(chosen)), pace, int(version), _float(paused_at), voted, seats, ended_at is not None)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def create(tx: RoomTx, table_id: str, chosen: Pace, pace: Pace) -> bool:
    """Store a new table's pace (False: it has one already)."""
    if tx.fetch("SELECT 1 FROM clock_paces WHERE table_id = ?", (table_id,)):
        return False
    tx.execute(
        "INSERT INTO clock_paces (table_id, chosen, kind, bank, increment, deadline, weekends_off, on_timeout, bot, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            table_id,
            json.dumps(chosen.to_json()),
            pace.kind,
            pace.bank,
            pace.increment,
            pace.deadline,
            int(pace.weekends_off),
            pace.on_timeout,
            pace.bot,
            tx.now(),
        ),
    )
    return True


def create_and_start(tx: RoomTx, table_id: str, chosen: Pace, pace: Pace, moment: Moment) -> Advanced | None:
    """Store a new table's pace and start its clocks, in one transaction (one disk sync on SQLite)."""
    if not create(tx, table_id, chosen, pace):
        return None
    return bring_to(tx, table_id, moment)


def save_seats(tx: RoomTx, table_id: str, seats: dict[int, SeatClock]) -> None:
    """Write every seat's clock (inserted or replaced)."""
    for clock in seats.values():
        times = (clock.remaining, clock.since, clock.started_at, clock.due_at, clock.remind_at)
        values = (*times, clock.away, clock.away_until, clock.away_used)
        changed = tx.execute(
            "UPDATE clock_seats SET remaining = ?, since = ?, started_at = ?, due_at = ?, remind_at = ?, away = ?, away_until = ?,"
            " away_used = ? WHERE table_id = ? AND seat = ?",
            (*values, table_id, clock.seat),
        )
        if not changed:
            tx.execute(
                "INSERT INTO clock_seats (remaining, since, started_at, due_at, remind_at, away, away_until, away_used, table_id, seat)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, table_id, clock.seat),
            )


def earliest(seats: dict[int, SeatClock]) -> float | None:
    """The earliest deadline or reminder among ``seats``."""
    times = [time for clock in seats.values() for time in (clock.due_at, clock.remind_at) if time is not None]
    return min(times) if times else None


@dataclass(frozen=True, slots=True)
class Advanced:
    """What :func:`bring_to` did: the seats whose decision started now (for reminders and notifications)."""

    started: dict[int, SeatClock]
    due: float | None


def bring_to(tx: RoomTx, table_id: str, moment: Moment) -> Advanced | None:
    """Bring a table's clocks to ``moment`` (None: untimed, or already brought to a later move by another process)."""
    tx.lock(f"clocks/{table_id}")
    clocks = load(tx, table_id)
    if clocks is None or clocks.ended or clocks.version > moment.version:
        return None
    now = tx.now()
    seats = advance(clocks.pace, clocks.seats, moment, now, paused=clocks.paused_at is not None)
    save_seats(tx, table_id, seats)
    if moment.over:
        tx.execute("UPDATE clock_paces SET version = ?, ended_at = ? WHERE table_id = ?", (moment.version, now, table_id))
    else:
        tx.execute("UPDATE clock_paces SET version = ? WHERE table_id = ?", (moment.version, table_id))
    started = {
        seat: clock for seat, clock in seats.items() if clock.since is not None and clocks.seats.get(seat, SeatClock(seat)).since is None
    }
    due = earliest(seats)
    tx.notify(CHANNEL, {"table": table_id, "due": due})
    return Advanced(started, due)


@dataclass(frozen=True, slots=True)
class Claimed:
    """Deadlines and reminders one scheduler claimed (nobody else fires them), and when the next one is due."""

    deadlines: list[tuple[str, int, int, str | None]]
    reminders: list[tuple[str, int, int, float]]
    next_due: float | None
    now: float


def claim_due(tx: RoomTx, batch: int, lease: float) -> Claimed:
    """Claim up to ``batch`` expired deadlines and due reminders: each is taken by exactly one transaction, whatever the
    number of processes (the row is changed only if it still holds the deadline read). A claimed deadline moves
    ``lease`` seconds on, so if its process dies before the time-out is stored, another fires it then."""
    now = tx.now()
    deadlines = []
    for table_id, seat, due_at, since, away in tx.fetch(
        "SELECT table_id, seat, due_at, since, away FROM clock_seats WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?",
        (now, batch),
    ):
        if since is None:
            continue
        if tx.execute(
            "UPDATE clock_seats SET due_at = ?, fired = fired + 1 WHERE table_id = ? AND seat = ? AND due_at = ?",
            (now + lease, table_id, seat, due_at),
        ):
            deadlines.append((str(table_id), int(seat), int(since), None if away is None else str(away)))
    reminders = []
    for table_id, seat, remind_at, since, due_at in tx.fetch(
        "SELECT table_id, seat, remind_at, since, due_at FROM clock_seats WHERE remind_at IS NOT NULL AND remind_at <= ?"
        " ORDER BY remind_at LIMIT ?",
        (now, batch),
    ):
        if (
            tx.execute(
                "UPDATE clock_seats SET remind_at = NULL WHERE table_id = ? AND seat = ? AND remind_at = ?", (table_id, seat, remind_at)
            )
            and since is not None
            and due_at is not None
        ):
            reminders.append((str(table_id), int(seat), int(since), float(due_at)))
    row = tx.fetch(
        "SELECT (SELECT MIN(due_at) FROM clock_seats WHERE due_at IS NOT NULL),"
        " (SELECT MIN(remind_at) FROM clock_seats WHERE remind_at IS NOT NULL)"
    )[0]
    times = [float(value) for value in row if value is not None]
    return Claimed(deadlines, reminders, min(times) if times else None, now)


def log_timeout(tx: RoomTx, table_id: str, seat: int, since: int, outcome: str, action: str | None) -> None:
    """Keep what a time-out did."""
    tx.execute(
        "INSERT INTO clock_timeouts (table_id, seat, since, at, outcome, action) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seat, since, tx.now(), outcome, action),
    )


def timeouts(tx: RoomTx, table_id: str) -> list[dict[str, Any]]:
    """What each time-out of a table did, in the order of the decisions they were for."""
    return [
        {"seat": int(seat), "since": int(since), "at": float(at), "outcome": str(outcome), "action": action}
        for seat, since, at, outcome, action in tx.fetch(
            "SELECT seat, since, at, outcome, action FROM clock_timeouts WHERE table_id = ? ORDER BY since, id", (table_id,)
        )
    ]


def set_pause(tx: RoomTx, table_id: str, seat: int, pause: bool, humans: frozenset[int]) -> TableClocks | None:
    """A seat asks for a pause (paused once every person's seat asked) or ends one (any seat may)."""
    tx.lock(f"clocks/{table_id}")
    clocks = load(tx, table_id)
    if clocks is None:
        return None
    now = tx.now()
    seats = dict(clocks.seats)
    if pause:
        votes = clocks.pause_votes | {seat}
        if clocks.paused_at is None and humans <= votes:
            for number, clock in seats.items():
                if clock.since is not None and clock.due_at is not None:
                    seats[number] = replace(clock, remaining=max(0.0, clock.due_at - now), started_at=None, due_at=None, remind_at=None)
            tx.execute("UPDATE clock_paces SET paused_at = ?, pause_votes = ? WHERE table_id = ?", (now, _votes(votes), table_id))
        else:
            tx.execute("UPDATE clock_paces SET pause_votes = ? WHERE table_id = ?", (_votes(votes), table_id))
    else:
        if clocks.paused_at is not None:
            for number, clock in seats.items():
                if clock.since is not None:
                    seats[number] = start_clock(clocks.pace, clock, now, paused=False)
        tx.execute("UPDATE clock_paces SET paused_at = NULL, pause_votes = '' WHERE table_id = ?", (table_id,))
    save_seats(tx, table_id, seats)
    tx.notify(CHANNEL, {"table": table_id, "due": earliest(seats)})
    return load(tx, table_id)


def _votes(seats: frozenset[int] | set[int]) -> str:
    return ",".join(str(seat) for seat in sorted(seats))


class AbsenceRefused(Exception):
    """An absence with waiting deadlines beyond what the seat has left at this table (``left``: scaled seconds)."""

    def __init__(self, left: float) -> None:
        super().__init__(left)
        self.left = left


def set_away(tx: RoomTx, table_id: str, seat: int, mode: str | None, seconds: float | None, budget: float) -> TableClocks | None:
    """A seat marks itself away for ``seconds`` from now (``extend``: its deadlines wait for it; ``bot``: the table's bot
    decides for it at once), or back (``mode`` None).

    Others wait on an ``extend`` absence, so a seat's such absences at one table add up to at most ``budget`` seconds
    (the part of one not used, by coming back early or replacing it, is given back); beyond it
    :class:`AbsenceRefused` says what is left. A bot deciding makes nobody wait and has no budget.
    """
    tx.lock(f"clocks/{table_id}")
    clocks = load(tx, table_id)
    if clocks is None:
        return None
    now = tx.now()
    clock = clocks.seats.get(seat) or SeatClock(seat, remaining=clocks.pace.bank if clocks.pace.kind == LIVE else None)
    used = clock.away_used
    if clock.away == AWAY_EXTEND and clock.away_until is not None and clock.away_until > now:
        used = max(0.0, used - (clock.away_until - now))  # the rest of the absence it replaces is given back
    if mode == AWAY_EXTEND and seconds is not None:
        if used + seconds > budget + 1e-6:
            raise AbsenceRefused(max(0.0, budget - used))
        used += seconds
    until = now + seconds if mode is not None and seconds is not None else None
    clock = replace(clock, away=mode, away_until=until, away_used=used)
    if clock.since is not None and clocks.paused_at is None:
        if clocks.pace.kind == TURN_BASED:
            clock = start_clock(clocks.pace, replace(clock, remaining=None), now, paused=False)
        elif mode == AWAY_BOT:
            clock = replace(clock, due_at=now)  # the bank keeps running until the bot's move charges it
    save_seats(tx, table_id, {seat: clock})
    seats = {**clocks.seats, seat: clock}
    tx.notify(CHANNEL, {"table": table_id, "due": earliest(seats)})
    return load(tx, table_id)
