"""The rules of time as pure values (``greenlight.web.clocks.pace`` and ``store.advance``): no server, no clock."""

from __future__ import annotations

import datetime

import pytest

from greenlight.web.clocks.pace import Pace, PaceError, check_pace, deadline_after, reminder_before
from greenlight.web.clocks.store import AWAY_BOT, AWAY_EXTEND, Moment, SeatClock, advance, start_clock

LEVELS = ["random", "easy", "medium", "hard"]


def at(text: str) -> float:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()


def test_weekends_off_skip_saturday_and_sunday_and_count_weekdays_only() -> None:
    friday_noon = at("2026-12-04T12:00")
    assert deadline_after(friday_noon, 24 * 3600, weekends_off=True) == at("2026-12-07T12:00")  # Monday noon
    assert deadline_after(friday_noon, 24 * 3600, weekends_off=False) == at("2026-12-05T12:00")
    saturday = at("2026-12-05T09:00")
    assert deadline_after(saturday, 3600, weekends_off=True) == at("2026-12-07T01:00")  # counting starts Monday
    assert deadline_after(at("2026-12-01T10:00"), 72 * 3600, weekends_off=True) == at("2026-12-04T10:00")  # Tue to Fri


def test_a_pace_the_lobby_does_not_offer_is_refused_naming_the_field() -> None:
    for pace, field in (
        (Pace.turn_based(5), "deadline_hours"),
        (Pace.live(30, 0), "bank_seconds"),
        (Pace.live(600, 900), "increment_seconds"),
        (Pace.live(600, 0, bot="grandmaster"), "pace.bot"),
        (Pace.live(600, 0, on_timeout="shrug"), "on_timeout"),
    ):
        with pytest.raises(PaceError, match=field):
            check_pace(pace, LEVELS)
    check_pace(Pace.turn_based(72, weekends_off=True), LEVELS)


def test_a_live_bank_is_charged_what_the_seat_used_and_credited_its_increment() -> None:
    pace = Pace.live(600, 20)
    everyone = frozenset({0, 1})
    clocks = advance(pace, {}, Moment(0, everyone, everyone, (), False), 0.0, paused=False)  # a simultaneous step
    clocks = advance(pace, clocks, Moment(1, everyone, frozenset({1}), (0,), False), 100.0, paused=False)
    assert clocks[0].remaining == 520.0 and not clocks[0].owes  # 600 - 100 + 20
    assert clocks[1].due_at == 600.0 and clocks[1].since == 0  # still running from the start of the step
    clocks = advance(pace, clocks, Moment(2, everyone, frozenset({1}), (0, 1), False), 700.0, paused=False)
    assert clocks[1].remaining == 20.0 and clocks[1].since == 2 and clocks[1].due_at == 720.0  # out of time, then the increment
    over = advance(pace, clocks, Moment(3, everyone, frozenset(), (0, 1, 1), True), 710.0, paused=False)
    assert not any(clock.owes for clock in over.values())


def test_a_turn_based_deadline_starts_each_decision_and_pauses_and_absences_hold_it() -> None:
    pace = Pace.turn_based(24)
    seats = frozenset({0, 1})
    clocks = advance(pace, {}, Moment(0, seats, frozenset({0}), (), False), 0.0, paused=False)
    assert clocks[0].due_at == 86400.0 and clocks[0].remind_at == 86400.0 - reminder_before(86400.0)
    held = advance(pace, {}, Moment(0, seats, frozenset({0}), (), False), 0.0, paused=True)
    assert held[0].owes and held[0].due_at is None  # a paused table starts no deadline
    resumed = start_clock(pace, SeatClock(0, remaining=3600.0, since=0), 1000.0, paused=False)
    assert resumed.due_at == 4600.0  # the time that was left when the pause began
    away = start_clock(pace, SeatClock(0, since=0, away=AWAY_EXTEND, away_until=50_000.0), 1000.0, paused=False)
    assert away.due_at == 50_000.0 + 86400.0
    bot = start_clock(pace, SeatClock(0, since=0, away=AWAY_BOT, away_until=50_000.0), 1000.0, paused=False)
    assert bot.due_at == 1000.0  # due at once: the bot decides
    back = start_clock(pace, SeatClock(0, since=0, away=AWAY_EXTEND, away_until=500.0), 1000.0, paused=False)
    assert back.due_at == 1000.0 + 86400.0  # an absence that is over changes nothing


def test_bots_and_open_seats_are_not_timed() -> None:
    clocks = advance(Pace.turn_based(1), {}, Moment(0, frozenset({0}), frozenset({0, 1}), (), False), 0.0, paused=False)
    assert set(clocks) == {0}
