"""A table's pace, chosen at creation: live clocks, turn-based deadlines, or untimed; and what a time-out does.

Pure values and arithmetic (no I/O), so the rules of time are easy to read and to test:

>>> pace = Pace.live(600, 20)
>>> pace.words()
'Live: 10 min each, plus 20 s per decision'
>>> Pace.turn_based(24, weekends_off=True).words()
'Turn-based: 1 day per decision, weekends not counted'
>>> import datetime
>>> friday_evening = datetime.datetime(2026, 12, 4, 22, 0, tzinfo=datetime.UTC).timestamp()
>>> due = deadline_after(friday_evening, 3 * 3600, weekends_off=True)
>>> datetime.datetime.fromtimestamp(due, datetime.UTC).strftime("%a %H:%M")
'Mon 01:00'
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import Any

LIVE, TURN_BASED, UNTIMED = "live", "turn", "untimed"
#: What a seat's time-out does: a bot makes that one decision (the seat stays the person's), or takes the seat for
#: the rest of the game. On a rated table a time-out is always a loss (see :func:`timeout_words`).
BOT_DECIDES, BOT_TAKES_SEAT = "bot_decides", "bot_takes_seat"
TIMEOUTS = (BOT_DECIDES, BOT_TAKES_SEAT)
#: The deadlines a turn-based table may choose (hours per decision).
DEADLINE_HOURS = (1, 12, 24, 72)
#: Live clocks: the bank (seconds) and the increment per decision (seconds) a table may choose.
BANK_RANGE = (60, 3 * 3600)
INCREMENT_RANGE = (0, 600)
#: A reminder goes out this share of a turn-based deadline before it expires, at most six hours before.
REMINDER_SHARE = 0.25
REMINDER_MOST_SECONDS = 6 * 3600.0


class PaceError(ValueError):
    """A pace that cannot be played; the message names the field."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A table's pace as chosen (real durations; the server's ``pace_time_scale`` shortens them only for tests)."""

    kind: str = UNTIMED
    #: Live: the bank each seat starts with and the increment added after each of its decisions (seconds).
    bank: float = 0.0
    increment: float = 0.0
    #: Turn-based: the time for each decision (seconds), and whether Saturdays and Sundays (UTC) are not counted.
    deadline: float = 0.0
    weekends_off: bool = False
    #: What a time-out does, and the level of the bot that does it.
    on_timeout: str = BOT_DECIDES
    bot: str = "medium"

    @classmethod
    def live(cls, bank: float, increment: float, on_timeout: str = BOT_DECIDES, bot: str = "medium") -> Pace:
        """A live pace: ``bank`` seconds each plus ``increment`` seconds per decision."""
        return cls(LIVE, bank=float(bank), increment=float(increment), on_timeout=on_timeout, bot=bot)

    @classmethod
    def turn_based(cls, hours: float, weekends_off: bool = False, on_timeout: str = BOT_DECIDES, bot: str = "medium") -> Pace:
        """A turn-based pace: ``hours`` per decision."""
        return cls(TURN_BASED, deadline=float(hours) * 3600, weekends_off=weekends_off, on_timeout=on_timeout, bot=bot)

    @property
    def timed(self) -> bool:
        """Whether seats have a clock or a deadline."""
        return self.kind != UNTIMED

    def scaled(self, scale: float) -> Pace:
        """The same pace with every duration multiplied by ``scale`` (the server's ``pace_time_scale``)."""
        if scale == 1.0:
            return self
        return replace(self, bank=self.bank * scale, increment=self.increment * scale, deadline=self.deadline * scale)

    def to_json(self) -> dict[str, Any]:
        """The pace as the API shows it."""
        data: dict[str, Any] = {"kind": self.kind, "words": self.words()}
        if self.kind == LIVE:
            data.update(bank_seconds=self.bank, increment_seconds=self.increment)
        elif self.kind == TURN_BASED:
            data.update(deadline_hours=self.deadline / 3600, weekends_off=self.weekends_off)
        if self.timed:
            data.update(on_timeout=self.on_timeout, bot=self.bot)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pace:
        """The pace the API sent (checked by :func:`check_pace` afterwards)."""
        kind = data.get("kind", UNTIMED)
        if kind == LIVE:
            return cls.live(
                float(data.get("bank_seconds", 600)),
                float(data.get("increment_seconds", 0)),
                str(data.get("on_timeout", BOT_DECIDES)),
                str(data.get("bot", "medium")),
            )
        if kind == TURN_BASED:
            return cls.turn_based(
                float(data.get("deadline_hours", 24)),
                bool(data.get("weekends_off", False)),
                str(data.get("on_timeout", BOT_DECIDES)),
                str(data.get("bot", "medium")),
            )
        if kind == UNTIMED:
            return cls()
        raise PaceError(f"pace.kind must be 'live', 'turn' or 'untimed', not {kind!r}")

    def words(self) -> str:
        """The pace in a person's words."""
        if self.kind == LIVE:
            plus = f", plus {duration_words(self.increment)} per decision" if self.increment else ", no time added per decision"
            return f"Live: {duration_words(self.bank)} each{plus}"
        if self.kind == TURN_BASED:
            weekends = ", weekends not counted" if self.weekends_off else ""
            return f"Turn-based: {duration_words(self.deadline)} per decision{weekends}"
        return "Untimed"


def check_pace(pace: Pace, bot_levels: list[str]) -> None:
    """Refuse (PaceError naming the field) a pace the lobby does not offer."""
    if pace.kind == LIVE:
        if not BANK_RANGE[0] <= pace.bank <= BANK_RANGE[1]:
            raise PaceError(f"pace.bank_seconds must be between {BANK_RANGE[0]} and {BANK_RANGE[1]}")
        if not INCREMENT_RANGE[0] <= pace.increment <= INCREMENT_RANGE[1]:
            raise PaceError(f"pace.increment_seconds must be between {INCREMENT_RANGE[0]} and {INCREMENT_RANGE[1]}")
    elif pace.kind == TURN_BASED and pace.deadline / 3600 not in DEADLINE_HOURS:
        raise PaceError(f"pace.deadline_hours must be one of {', '.join(str(hours) for hours in DEADLINE_HOURS)}")
    if pace.timed:
        if pace.on_timeout not in TIMEOUTS:
            raise PaceError(f"pace.on_timeout must be one of {', '.join(TIMEOUTS)}, not {pace.on_timeout!r}")
        if pace.bot not in bot_levels:
            raise PaceError(f"pace.bot must be one of this game's bot levels ({', '.join(bot_levels)}), not {pace.bot!r}")


def timeout_words(pace: Pace, rated: bool) -> str:
    """What happens when a seat's time runs out, in a person's words."""
    if not pace.timed:
        return ""
    if rated or pace.on_timeout == BOT_TAKES_SEAT:
        loss = " and the game counts as lost for that player" if rated else ""
        return f"At zero a bot ({pace.bot}) takes the seat for the rest of the game{loss}."
    return f"At zero a bot ({pace.bot}) makes that one decision; the seat stays the player's."


def duration_words(seconds: float) -> str:
    """A duration as a person says it.

    >>> [duration_words(s) for s in (20, 90, 600, 3600, 5400, 86400, 259200, 0.5)]
    ['20 s', '1 min 30 s', '10 min', '1 h', '1 h 30 min', '1 day', '3 days', '0.5 s']
    """
    if seconds < 1:
        return f"{seconds:g} s"
    whole = round(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day" + ("s" if days > 1 else ""))
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if secs:
        parts.append(f"{secs} s")
    return " ".join(parts[:2])


def deadline_after(start: float, seconds: float, *, weekends_off: bool) -> float:
    """When ``seconds`` of decision time that began at ``start`` run out (Saturdays and Sundays in UTC not counted if
    ``weekends_off``)."""
    if not weekends_off:
        return start + seconds
    moment, left = start, seconds
    while True:
        day = datetime.datetime.fromtimestamp(moment, datetime.UTC)
        midnight = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC) + datetime.timedelta(days=1)
        next_day = midnight.timestamp()
        if day.weekday() < 5:
            if left <= next_day - moment:
                return moment + left
            left -= next_day - moment
        moment = next_day


def reminder_before(deadline: float) -> float:
    """How long before a turn-based deadline its reminder goes out."""
    return min(deadline * REMINDER_SHARE, REMINDER_MOST_SECONDS)
