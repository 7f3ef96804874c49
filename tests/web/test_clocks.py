"""Paces and clocks with the real server (``greenlight serve`` as a subprocess), durations shortened by the server
setting ``pace_time_scale`` (the clocks run on real time; nothing in the server is mocked).

- A live table: in a simultaneous step each seat that has not committed is timed on its own, and a seat whose bank
  runs out has a bot decide for it (the chat, the clocks and the downloaded record say so).
- A turn-based table on PostgreSQL served by two processes: a deadline fires once, after a restart of the process
  that stored the move.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import NO_RATE_LIMITS, Server, bearer, create_table, new_database, wait_until

#: Live banks and turn-based deadlines at 1/20: a 60 s bank lasts 3 s.
LIVE_SCALE = 0.05


def scaled_server(folder: Path, scale: float) -> Server:
    """A started server whose paces last ``scale`` times as long (an hour is ``3600 * scale`` seconds)."""
    running = Server(folder / "tables.db", extra=[*NO_RATE_LIMITS, "--limit", f"pace_time_scale={scale}"])
    running.start()
    return running


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = scaled_server(tmp_path_factory.mktemp("clocks"), LIVE_SCALE)
    yield running
    running.stop()


def first_legal(api: httpx.Client, table_id: str, token: str) -> str:
    view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
    return str(view["legal_actions"][0])


def play(api: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    answer = api.post(f"/api/tables/{table_id}/actions", json={"action": first_legal(api, table_id, token)}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def clock(api: httpx.Client, table_id: str) -> dict[str, Any]:
    answer = api.get(f"/api/tables/{table_id}/clock")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_pace_is_checked_before_the_table_is_created(live_server: Server) -> None:
    with live_server.client() as api:
        before = api.get("/api/tables").json()["total"]
        for pace, field in (
            ({"kind": "turn", "deadline_hours": 5}, "deadline_hours"),
            ({"kind": "live", "bank_seconds": 5}, "bank_seconds"),
            ({"kind": "live", "bot": "grandmaster"}, "pace.bot"),
        ):
            answer = api.post("/api/tables", json={"game": "cinecitta", "seats": [{"kind": "human"}] * 3, "pace": pace})
            assert answer.status_code == 400 and field in answer.json()["detail"], answer.text
        assert api.get("/api/tables").json()["total"] == before
        untimed = create_table(api, "cinecitta", [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
        assert untimed["pace"]["kind"] == "untimed"
        assert clock(api, untimed["table"]["id"])["timed"] is False


def test_live_simultaneous_step_times_each_seat_and_a_bot_decides_for_the_seat_out_of_time(live_server: Server) -> None:
    with live_server.client() as api:
        pace = {"kind": "live", "bank_seconds": 60, "increment_seconds": 0, "on_timeout": "bot_decides", "bot": "random"}
        created = create_table(api, "cinecitta", [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")], pace=pace)
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        assert created["pace"]["words"] == "Live: 1 min each, no time added per decision"
        bank = 60 * LIVE_SCALE
        start = clock(api, table_id)
        assert [seat["running"] for seat in start["seats"]] == [True, True, True]  # the offers are simultaneous: all three run
        play(api, table_id, tokens[0])
        time.sleep(bank / 3)
        play(api, table_id, tokens[1])
        shown = wait_until(lambda: (c := clock(api, table_id))["version"] == 2 and c, what="the clocks brought to move 2")
        ann, bob, cy = shown["seats"]
        assert not ann["running"] and not bob["running"] and cy["running"]
        assert bank * 0.6 < ann["left_seconds"] <= bank  # stopped at her move
        assert bob["left_seconds"] < ann["left_seconds"] - bank / 4  # ran on while Ann's had stopped
        assert cy["left_seconds"] < bob["left_seconds"]  # ran at least as long as Bob's, and runs on
        assert "a bot (random) makes that one decision" in shown["pace"]["timeout_words"]
        # Cy's bank runs out: a bot decides for seat 3 once; the seat stays Cy's.
        timeouts = wait_until(lambda: clock(api, table_id)["timeouts"], timeout=15, what="Cy's time-out")
        assert (timeouts[0]["seat"], timeouts[0]["outcome"], timeouts[0]["since"]) == (2, "bot_decides", 0)
        assert bank - 0.2 <= timeouts[0]["at"] - start["now"] < bank + 20  # never early; late only by the machine's load
        actions = api.get(f"/api/tables/{table_id}").json()
        assert actions["seats"][2]["kind"] == "human"
        chat = api.get(f"/api/tables/{table_id}/chat").json()
        assert any(line["text"] == "Cy's time ran out: a bot (random) decided for seat 3 this once." for line in chat)
        close = api.post(f"/api/tables/{table_id}/close", headers=bearer(created["host_token"]))
        assert close.status_code == 200, close.text
        record = api.get(f"/api/tables/{table_id}/record").json()
        assert record["pace"]["kind"] == "live"
        decided = record["timeouts"][0]
        assert decided["seat"] == 2 and decided["outcome"] == "bot_decides"
        assert [2, decided["action"]] in record["actions"]  # the bot's move is the seat's, and the record says a bot made it


# -- turn-based, two processes on PostgreSQL ---------------------------------------------------------

#: A one-hour deadline lasts 10 s (longer than a restart takes).
TURN_SCALE = 10 / 3600


def restart_both(first: Server, second: Server) -> None:
    """Start two server processes at once (each waits for its own health answer)."""
    import threading

    threads = [threading.Thread(target=server.start) for server in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert first.process is not None and second.process is not None


def test_turn_based_deadline_fires_once_across_two_processes_and_survives_a_restart(postgres: Any, tmp_path: Path) -> None:
    url = new_database(postgres)
    extra = [*NO_RATE_LIMITS, "--limit", f"pace_time_scale={TURN_SCALE}"]
    first = Server(url, extra=extra, log=tmp_path / "first.log")
    second = Server(url, extra=extra, log=tmp_path / "second.log")
    restart_both(first, second)
    try:
        with first.client() as api, second.client() as other:
            pace = {"kind": "turn", "deadline_hours": 1, "on_timeout": "bot_takes_seat", "bot": "random"}
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "bot": "random"}]
            created = create_table(api, "maybe-movies", seats, pace=pace)
            table_id = created["table"]["id"]
            tokens = [seat["token"] for seat in created["seats"][:2]]
            assert created["pace"]["words"] == "Turn-based: 1 h per decision"
            play(other, table_id, tokens[0])  # stored by the second process; Ann owes her next decision from move 1
            moved = clock(other, table_id)
            ann = moved["seats"][0]
            assert ann["running"] and 4 < ann["due_at"] - moved["now"] <= 10.05  # ten seconds from her move, read a moment later
            # Both processes die between the move and the deadline, and come back: the deadline is in the database.
            first.kill()
            second.kill()
            down = time.time()
            restart_both(first, second)
            back = time.time()

            def seat_kind() -> str:
                return str(api.get(f"/api/tables/{table_id}").json()["seats"][0]["kind"])

            wait_until(lambda: seat_kind() == "bot", timeout=20, what="Ann's seat handed to a bot at her deadline")
            time.sleep(1.0)  # both schedulers had every chance to fire it again
            rows = first.query("SELECT seat, since, outcome, at FROM clock_timeouts WHERE table_id = ?", (table_id,))
            mine = [row for row in rows if row[0] == 0]
            assert [row[:3] for row in mine] == [(0, 1, "bot_takes_seat")], rows
            # Fired once, after the restart: at the deadline, or as soon as a process was back if none was at the deadline.
            assert float(mine[0][3]) > down
            assert float(mine[0][3]) == pytest.approx(max(ann["due_at"], back), abs=2.0)
            assert first.query("SELECT fired FROM clock_seats WHERE table_id = ? AND seat = 0", (table_id,)) == [(1,)]
            chat = [line["text"] for line in api.get(f"/api/tables/{table_id}/chat").json()]
            assert sum("Ann ran out of time" in line for line in chat) == 1, chat
    finally:
        first.stop()
        second.stop()
