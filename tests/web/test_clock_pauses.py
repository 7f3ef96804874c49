"""Pausing a turn-based table and being away, with the real server (``greenlight serve`` as a subprocess).

Durations are shortened by the server setting ``pace_time_scale`` (a one-hour deadline lasts 10 s, a day 240 s); the
clocks run on real time and nothing in the server is mocked. Times are compared with the server's own answers (its
``now``, ``due_at`` and the rows it stored), and in the safe direction on a loaded machine: a deadline never fires
early; how late it fires is bounded only loosely.

- A pause needs every person's seat (a bot's seat is not asked; one seat asking, even twice, is not enough); while
  paused no deadline runs, past the one that was set; ending it gives the seat back exactly the time it had left.
- Away (``extend``) moves the seat's deadline to after its return; beyond the 30-day budget it is refused and nothing
  changes; ``bot`` has the table's bot decide at once; back restarts the deadline.
- Bad requests (no token, a wrong token, a table without a clock or of the wrong pace, a finished game, a malformed
  body) are refused with a 4xx and a message, and change nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import Server, bearer, create_table, wait_until
from tests.web.test_clocks import clock, scaled_server

#: A one-hour deadline lasts 10 s (a day 240 s): long enough for a few requests on a loaded machine.
SCALE = 10 / 3600
DEADLINE = 3600 * SCALE
DAY = 86400 * SCALE
#: How late a time-out may come on a loaded machine (it may never come early).
LATE = 20.0

PACE = {"kind": "turn", "deadline_hours": 1, "on_timeout": "bot_decides", "bot": "random"}
#: Where a test need not wait for a deadline: 12 h (120 s), so none passes while it runs on a loaded machine.
SLOW_PACE = {**PACE, "deadline_hours": 12}
#: Two people and a bot: Ann owes the first decision of Maybe Movies.
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def turn_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module, every pace shortened by ``SCALE``."""
    running = scaled_server(tmp_path_factory.mktemp("pauses"), SCALE)
    yield running
    running.stop()


def new_table(api: httpx.Client, pace: dict[str, Any] | None = PACE) -> tuple[str, list[str], str]:
    """A Maybe Movies table with ``SEATS`` at ``pace`` (None: untimed): its id, Ann's and Bob's tokens, the host's token."""
    created = create_table(api, "maybe-movies", SEATS, **({} if pace is None else {"pace": pace}))
    return created["table"]["id"], [seat["token"] for seat in created["seats"][:2]], created["host_token"]


def pause(api: httpx.Client, table_id: str, token: str, wanted: bool) -> dict[str, Any]:
    """POST /clock/pause as the seat of ``token`` (asserting 200); the clocks it answers with."""
    answer = api.post(f"/api/tables/{table_id}/clock/pause", json={"pause": wanted}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def away(api: httpx.Client, table_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST /clock/away as the seat of ``token`` (asserting 200); the clocks it answers with."""
    answer = api.post(f"/api/tables/{table_id}/clock/away", json=body, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def stored_seat(server: Server, table_id: str, seat: int) -> dict[str, Any]:
    """A seat's clock row as the server stored it."""
    columns = ("remaining", "since", "started_at", "due_at", "remind_at", "fired", "away", "away_until", "away_used")
    rows = server.query(f"SELECT {', '.join(columns)} FROM clock_seats WHERE table_id = ? AND seat = ?", (table_id, seat))
    assert len(rows) == 1, rows
    return dict(zip(columns, rows[0], strict=True))


def close(api: httpx.Client, table_id: str, host: str) -> None:
    """The host closes the table (its clocks stop; nothing keeps firing in the module's server)."""
    answer = api.post(f"/api/tables/{table_id}/close", headers=bearer(host))
    assert answer.status_code == 200, answer.text


def chat(api: httpx.Client, table_id: str) -> list[str]:
    return [str(line["text"]) for line in api.get(f"/api/tables/{table_id}/chat").json()]


def wait_for_server_time(api: httpx.Client, table_id: str, moment: float) -> dict[str, Any]:
    """Poll the table's clocks until the server's own ``now`` is past ``moment``; the last answer."""
    return dict(wait_until(lambda: (shown := clock(api, table_id))["now"] > moment and shown, timeout=60, what="the server's time"))


# -- pausing -------------------------------------------------------------------------------------------


def test_a_pause_needs_every_persons_seat_holds_the_deadline_and_gives_back_the_time_left(turn_server: Server) -> None:
    with turn_server.client() as api:
        table_id, (ann, bob), host = new_table(api)
        start = clock(api, table_id)
        first_due = start["seats"][0]["due_at"]
        assert start["paused"] is False and start["pause_votes"] == []
        assert (
            start["seats"][0]["running"] is True and start["seats"][1]["owes"] is False and start["seats"][2] == {"seat": 2, "timed": False}
        )

        # Ann asks, then asks again: one seat is not every seat; nothing is held.
        for _ in range(2):
            asked = pause(api, table_id, ann, True)
            assert (asked["paused"], asked["pause_votes"]) == (False, [0])
            assert asked["seats"][0]["running"] is True and asked["seats"][0]["due_at"] == first_due
        assert turn_server.query("SELECT paused_at, pause_votes FROM clock_paces WHERE table_id = ?", (table_id,)) == [(None, "0")]

        # Bob asks too: every person's seat has (the bot's seat is not asked); Ann's deadline is held.
        paused = pause(api, table_id, bob, True)
        assert (paused["paused"], paused["pause_votes"]) == (True, [0, 1])
        [(paused_at,)] = turn_server.query("SELECT paused_at FROM clock_paces WHERE table_id = ?", (table_id,))
        held = stored_seat(turn_server, table_id, 0)
        assert held["remaining"] == first_due - paused_at  # exactly the time left when the pause began
        assert held["remaining"] > 0, "the deadline passed before the pause (the machine is too slow for this test)"
        assert (held["since"], held["started_at"], held["due_at"], held["remind_at"], held["fired"]) == (0, None, None, None, 0)
        assert paused["now"] >= paused_at
        assert paused["seats"][0] == {
            "seat": 0,
            "timed": True,
            "owes": True,
            "running": False,
            "left_seconds": round(held["remaining"], 3),
            "due_at": None,
            "away": None,
        }

        # Past the deadline that was set, nothing fires and the time left does not run down.
        later = wait_for_server_time(api, table_id, first_due + 1.0)
        time.sleep(0.5)  # the scheduler had its chance at the old deadline
        later = clock(api, table_id)
        assert later["paused"] is True and later["timeouts"] == []
        assert later["seats"][0]["left_seconds"] == round(held["remaining"], 3) and later["seats"][0]["running"] is False
        assert stored_seat(turn_server, table_id, 0) == held

        # Bob ends the pause (any seat may): Ann's deadline is the time she had left, from the pause's end.
        ended = pause(api, table_id, bob, False)
        assert (ended["paused"], ended["pause_votes"]) == (False, [])
        resumed = stored_seat(turn_server, table_id, 0)
        assert resumed["started_at"] is not None and resumed["remaining"] is None and resumed["since"] == 0
        assert resumed["due_at"] == resumed["started_at"] + held["remaining"]
        assert ended["seats"][0]["running"] is True and ended["seats"][0]["due_at"] == resumed["due_at"]
        assert turn_server.query("SELECT paused_at, pause_votes FROM clock_paces WHERE table_id = ?", (table_id,)) == [(None, "")]
        # The deadline moved by exactly the paused time; that time covers what the server showed while paused.
        moved = resumed["due_at"] - first_due
        assert moved == pytest.approx(resumed["started_at"] - paused_at, abs=1e-6)
        assert later["now"] - paused["now"] <= moved <= ended["now"] - start["now"]

        # The clock runs again: Ann's time runs out at the new deadline, never before.
        timeouts = wait_until(lambda: clock(api, table_id)["timeouts"], timeout=held["remaining"] + LATE, what="Ann's time-out")
        assert [(t["seat"], t["since"], t["outcome"]) for t in timeouts] == [(0, 0, "bot_decides")]
        assert resumed["due_at"] <= timeouts[0]["at"] < resumed["due_at"] + LATE
        assert stored_seat(turn_server, table_id, 0)["fired"] == 1
        lines = wait_until(lambda: (said := chat(api, table_id))[3:] and said, timeout=LATE, what="the time-out's chat line")
        assert lines == [
            "Ann asks to pause the table (1 more player must agree).",
            "Every player agreed: the table is paused; no deadline runs.",
            "Bob ended the pause: deadlines run again.",
            "Ann's time ran out: a bot (random) decided for seat 1 this once.",
        ]
        close(api, table_id, host)


def test_three_people_must_all_ask_for_a_pause(turn_server: Server) -> None:
    with turn_server.client() as api:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
        created = create_table(api, "maybe-movies", seats, pace=SLOW_PACE)
        table_id = created["table"]["id"]
        ann, bob, cy = (seat["token"] for seat in created["seats"])
        assert [(a["paused"], a["pause_votes"]) for a in (pause(api, table_id, token, True) for token in (cy, ann))] == [
            (False, [2]),
            (False, [0, 2]),
        ]
        assert clock(api, table_id)["seats"][0]["running"] is True
        assert (done := pause(api, table_id, bob, True))["paused"] is True and done["pause_votes"] == [0, 1, 2]
        assert done["seats"][0]["running"] is False and done["seats"][0]["owes"] is True
        assert chat(api, table_id) == [
            "Cy asks to pause the table (2 more players must agree).",
            "Ann asks to pause the table (1 more player must agree).",
            "Every player agreed: the table is paused; no deadline runs.",
        ]
        close(api, table_id, created["host_token"])


# -- being away ------------------------------------------------------------------------------------------


def test_away_within_the_budget_moves_the_deadline_beyond_it_is_refused_and_back_restarts_it(turn_server: Server) -> None:
    with turn_server.client() as api:
        table_id, (ann, bob), host = new_table(api)
        first_due = clock(api, table_id)["seats"][0]["due_at"]

        # Ann is away for a day: her deadline is a full decision's time after her return.
        gone = away(api, table_id, ann, {"mode": "extend", "days": 1})
        stored = stored_seat(turn_server, table_id, 0)
        until = stored["away_until"]
        assert gone["seats"][0]["away"] == {"mode": "extend", "until": until}
        assert stored["due_at"] == until + DEADLINE and gone["seats"][0]["due_at"] == stored["due_at"]
        assert gone["now"] - LATE <= until - DAY <= gone["now"]  # a day from the request, by the server's clock
        assert stored["since"] == 0 and stored["away"] == "extend"

        # Thirty days is the most; 31 is refused with the reason, and nothing changes.
        for days, detail in ((31, "days: Input should be less than or equal to 30"), (0, "days: Input should be greater than 0")):
            refused = api.post(f"/api/tables/{table_id}/clock/away", json={"mode": "extend", "days": days}, headers=bearer(ann))
            assert (refused.status_code, refused.json()["detail"]) == (422, detail)
        assert stored_seat(turn_server, table_id, 0) == stored
        longest = away(api, table_id, bob, {"mode": "extend", "days": 30})
        bob_until = stored_seat(turn_server, table_id, 1)["away_until"]
        assert longest["seats"][1]["away"] == {"mode": "extend", "until": bob_until}
        assert longest["now"] - LATE <= bob_until - 30 * DAY <= longest["now"]
        assert longest["seats"][1]["owes"] is False and longest["seats"][1]["due_at"] is None  # Bob owes nothing yet

        # The deadline Ann had before she left passes: nothing fires.
        wait_for_server_time(api, table_id, first_due + 1.0)
        time.sleep(0.5)
        quiet = clock(api, table_id)
        assert quiet["timeouts"] == [] and quiet["seats"][0]["due_at"] == until + DEADLINE
        assert stored_seat(turn_server, table_id, 0)["fired"] == 0

        # Ann is back early: her deadline starts again from now.
        back = away(api, table_id, ann, {"mode": None})
        returned = stored_seat(turn_server, table_id, 0)
        assert (returned["away"], returned["away_until"]) == (None, None)
        assert returned["due_at"] == returned["started_at"] + DEADLINE and returned["started_at"] > stored["started_at"]
        assert back["seats"][0]["away"] is None and back["seats"][0]["due_at"] == returned["due_at"]
        assert chat(api, table_id) == [
            "Ann is away for 1 day: their deadlines wait for them.",
            "Bob is away for 30 days: their deadlines wait for them.",
            "Ann is back.",
        ]
        close(api, table_id, host)


def test_absences_with_waiting_deadlines_add_up_to_thirty_days_a_table_and_unused_days_come_back(turn_server: Server) -> None:
    with turn_server.client() as api:
        table_id, (ann, _), host = new_table(api)
        away(api, table_id, ann, {"mode": "extend", "days": 20})
        assert stored_seat(turn_server, table_id, 0)["away_used"] == pytest.approx(20 * DAY)
        # A new absence replaces the one under way: the rest of the old one is given back.
        away(api, table_id, ann, {"mode": "extend", "days": 15})
        used = stored_seat(turn_server, table_id, 0)["away_used"]
        assert 15 * DAY <= used <= 15 * DAY + LATE
        # Back early: only the time actually away stays counted.
        away(api, table_id, ann, {"mode": None})
        back = stored_seat(turn_server, table_id, 0)["away_used"]
        assert 0 < back <= LATE
        # What is left is less than 30 days now: 30 are refused with what is left, and nothing changes.
        before = stored_seat(turn_server, table_id, 0)
        refused = api.post(f"/api/tables/{table_id}/clock/away", json={"mode": "extend", "days": 30}, headers=bearer(ann))
        assert refused.status_code == 409
        detail = refused.json()["detail"]
        assert detail.startswith("others wait while your deadlines wait: at this table that is 30 days in all, and you have 29 days")
        assert detail.endswith("left; choose fewer days, or have a bot decide for you while you are away")
        assert stored_seat(turn_server, table_id, 0) == before
        away(api, table_id, ann, {"mode": "extend", "days": 29})
        again = api.post(f"/api/tables/{table_id}/clock/away", json={"mode": "extend", "days": 30}, headers=bearer(ann))
        assert again.status_code == 409
        # A bot deciding makes nobody wait: it has no such budget.
        instead = api.post(f"/api/tables/{table_id}/clock/away", json={"mode": "bot", "days": 30}, headers=bearer(ann))
        assert instead.status_code == 200 and instead.json()["seats"][0]["away"]["mode"] == "bot"
        close(api, table_id, host)


def test_away_with_a_bot_has_the_bot_decide_at_once(turn_server: Server) -> None:
    with turn_server.client() as api:
        table_id, (ann, _), _ = new_table(api, SLOW_PACE)
        due = clock(api, table_id)["seats"][0]["due_at"]
        gone = away(api, table_id, ann, {"mode": "bot", "days": 2})
        until = stored_seat(turn_server, table_id, 0)["away_until"]
        assert gone["seats"][0]["away"] == {"mode": "bot", "until": until}
        # Due at once, not at Ann's deadline (120 s on): the first time-out comes well before it.
        # (A time-out is logged after its move is stored, so a later decision's may be listed a moment before.)
        timeouts = wait_until(
            lambda: [t for t in clock(api, table_id)["timeouts"] if t["since"] == 0], timeout=LATE, what="the bot's move for Ann"
        )
        assert (timeouts[0]["seat"], timeouts[0]["since"], timeouts[0]["outcome"]) == (0, 0, "away")
        assert gone["now"] - LATE <= timeouts[0]["at"] < due, "the bot waited for the deadline instead of deciding at once"
        assert isinstance(timeouts[0]["action"], str) and timeouts[0]["action"]
        later = [t["outcome"] for t in clock(api, table_id)["timeouts"] if t["seat"] == 0]
        assert set(later) == {"away"}  # Ann's later decisions too, while she is away (Bob's own deadline may pass meanwhile)
        assert api.get(f"/api/tables/{table_id}").json()["seats"][0]["kind"] == "human"  # the seat stays Ann's
        lines = wait_until(lambda: (said := chat(api, table_id))[1:] and said, timeout=LATE, what="the chat line of the bot's move")
        assert lines[:2] == ["Ann is away for 2 days: a bot (random) decides for them.", "Ann is away: a bot (random) decided for seat 1."]
        # Not closed: the bot may be saying a line for Ann's next decision, and two chat lines written at once on one
        # table can take the same line number (the close then fails with 503); once Bob owes, the table waits 120 s.


# -- bad requests ----------------------------------------------------------------------------------------


def test_bad_pause_and_away_requests_are_refused_with_a_reason_and_change_nothing(turn_server: Server) -> None:
    with turn_server.client() as api:
        table_id, (ann, _), host = new_table(api, SLOW_PACE)
        before = clock(api, table_id)
        refusals: list[tuple[str, dict[str, str], Any, int, str]] = [
            (
                "pause",
                {},
                {"pause": True},
                401,
                "acting needs your seat token: send the header 'Authorization: Bearer <token>' from your seat link",
            ),
            ("pause", bearer("not-a-seat-token"), {"pause": True}, 403, "this seat token does not belong to any seat at this table"),
            ("away", bearer("not-a-seat-token"), {"mode": "extend"}, 403, "this seat token does not belong to any seat at this table"),
            ("pause", bearer(ann), {"pause": "maybe"}, 422, "pause: Input should be a valid boolean, unable to interpret input"),
            ("pause", bearer(ann), {}, 422, "pause: Field required"),
            ("away", bearer(ann), {"mode": "sleep"}, 422, "mode: Input should be 'extend' or 'bot'"),
            (
                "away",
                bearer(ann),
                {"mode": "extend", "days": "soon"},
                422,
                "days: Input should be a valid number, unable to parse string as a number",
            ),
            ("away", bearer(ann), {"days": 1}, 422, "mode: Field required"),
            ("pause", bearer(ann), b"{not json", 422, "1: JSON decode error"),
        ]
        for route, headers, body, status, detail in refusals:
            url = f"/api/tables/{table_id}/clock/{route}"
            if isinstance(body, bytes):
                answer = api.post(url, content=body, headers={**headers, "Content-Type": "application/json"})
            else:
                answer = api.post(url, json=body, headers=headers)
            assert (answer.status_code, answer.json()["detail"]) == (status, detail), (route, body, answer.text)
        missing = api.post("/api/tables/nosuchtable/clock/pause", json={"pause": True}, headers=bearer(ann))
        assert (missing.status_code, missing.json()["detail"]) == (404, "there is no table 'nosuchtable'")
        after = clock(api, table_id)
        assert (after["paused"], after["pause_votes"], after["seats"][0]["due_at"], after["seats"][0]["away"]) == (
            False,
            [],
            before["seats"][0]["due_at"],
            None,
        )
        assert chat(api, table_id) == []

        # A table without a clock: nothing to pause, nothing waits.
        untimed, (someone, _), _ = new_table(api, None)
        for route, body, detail in (
            ("pause", {"pause": True}, "only a turn-based table can be paused"),
            ("away", {"mode": "extend", "days": 1}, "this table is untimed: nobody waits on a clock here"),
            ("away", {"mode": "bot", "days": 1}, "this table is untimed: nobody waits on a clock here"),
        ):
            answer = api.post(f"/api/tables/{untimed}/clock/{route}", json=body, headers=bearer(someone))
            assert (answer.status_code, answer.json()["detail"]) == (409, detail), answer.text
        shown = clock(api, untimed)
        assert shown == {"table": untimed, "pace": {"kind": "untimed", "words": "Untimed"}, "timed": False, "now": shown["now"]}

        # A live table is not paused, and its deadlines cannot wait.
        # The longest bank (3 h, 30 s here): it does not run out before the table is closed.
        live = {"kind": "live", "bank_seconds": 10800, "increment_seconds": 0, "on_timeout": "bot_decides", "bot": "random"}
        live_id, (player, _), live_host = new_table(api, live)
        for route, body, detail in (
            ("pause", {"pause": True}, "only a turn-based table can be paused"),
            (
                "away",
                {"mode": "extend", "days": 1},
                "deadlines wait only at turn-based tables; at a live table choose a bot to decide for you",
            ),
        ):
            answer = api.post(f"/api/tables/{live_id}/clock/{route}", json=body, headers=bearer(player))
            assert (answer.status_code, answer.json()["detail"]) == (409, detail), answer.text
        assert clock(api, live_id)["pause_votes"] == [] and clock(api, live_id)["seats"][0]["away"] is None
        close(api, live_id, live_host)

        # A game that is over.
        close(api, table_id, host)
        for route, body in (("pause", {"pause": True}), ("away", {"mode": "extend", "days": 1})):
            answer = api.post(f"/api/tables/{table_id}/clock/{route}", json=body, headers=bearer(ann))
            assert (answer.status_code, answer.json()["detail"]) == (409, "the game is over"), answer.text
