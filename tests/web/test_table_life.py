"""Table life against the real server: the host's controls, open seats, resigning, rematches and the chat."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

from tests.web.conftest import Server, Socket, bearer, create_table, wait_until

#: Every test here runs against a server on SQLite and on PostgreSQL (the same API on both storage backends).
BACKENDS = ("sqlite", "postgresql")

PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]


def view(api: httpx.Client, table_id: str, token: str | None = None) -> dict[str, Any]:
    return dict(api.get(f"/api/tables/{table_id}/view", headers=bearer(token) if token else {}).json())


def act(api: httpx.Client, table_id: str, token: str, action: str) -> httpx.Response:
    return api.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=bearer(token))


def test_the_host_gives_an_absent_persons_seat_to_a_bot_and_back(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    table_id, host = created["table"]["id"], created["host_token"]
    assert created["host_link"].endswith(f"/tables/{table_id}#host={host}")
    cy = created["seats"][2]["token"]
    watcher = Socket(server, table_id, cy)
    watcher.next("view")
    # Only the host may.
    refused = api.post(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random"}, headers=bearer(cy))
    assert refused.status_code == 403 and "host" in refused.json()["detail"]
    answer = api.post(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random"}, headers=bearer(host))
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["seats"][2] == {
        **answer.json()["table"]["seats"][2],
        "kind": "bot",
        "bot": "random",
        "name": "Bot 3 (random)",
    }
    # Cy's link now only watches; the bot makes Cy's offer.
    revoked = watcher.next("revoked")
    assert "Cy is away" in revoked["message"]
    assert act(api, table_id, cy, "offer A1 0").status_code == 403
    wait_until(lambda: 2 in view(api, table_id)["decision"]["committed"], what="the bot's offer")
    lines = api.get(f"/api/tables/{table_id}/chat").json()
    assert lines[-1]["seat"] is None and "a bot (random) plays seat 3" in lines[-1]["text"]
    # The host gives the seat back to a person, with a fresh link.
    back = api.post(f"/api/tables/{table_id}/seats/2/person", json={"name": "Cy"}, headers=bearer(host)).json()
    assert back["link"].endswith(f"#token={back['token']}") and back["token"] != cy
    assert view(api, table_id, back["token"])["seat"] == 2
    assert api.get(f"/api/tables/{table_id}/view", headers=bearer(cy)).status_code == 403
    watcher.close()


def test_a_fresh_link_for_a_seat_makes_the_old_one_stop_working(api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    table_id, host, ann = created["table"]["id"], created["host_token"], created["seats"][0]["token"]
    fresh = api.post(f"/api/tables/{table_id}/seats/0/person", json={}, headers=bearer(host)).json()
    assert fresh["table"]["seats"][0]["name"] == "Ann"
    assert api.get(f"/api/tables/{table_id}/view", headers=bearer(ann)).status_code == 403
    legal = view(api, table_id, fresh["token"])["legal_actions"]
    assert act(api, table_id, fresh["token"], legal[0]).status_code == 200


def test_an_open_seat_is_listed_and_taken_once(api: httpx.Client) -> None:
    created = create_table(
        api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}]
    )
    table_id = created["table"]["id"]
    assert "token" not in created["seats"][1], "nobody holds an open seat's link"
    listed = next(t for t in api.get("/api/tables", params={"status": "open"}).json()["tables"] if t["id"] == table_id)
    assert [seat["open"] for seat in listed["seats"]] == [False, True, False]
    taken = api.post(f"/api/tables/{table_id}/seats/1/take", json={"name": "Dee"})
    assert taken.status_code == 200 and taken.json()["table"]["seats"][1]["name"] == "Dee"
    assert view(api, table_id, taken.json()["token"])["seat"] == 1
    again = api.post(f"/api/tables/{table_id}/seats/1/take", json={"name": "Eve"})
    assert again.status_code == 409 and "not open" in again.json()["detail"]
    assert api.post(f"/api/tables/{table_id}/seats/0/take", json={}).status_code == 409


def test_the_host_closes_a_table(api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    table_id, host, ann = created["table"]["id"], created["host_token"], created["seats"][0]["token"]
    assert api.post(f"/api/tables/{table_id}/close", headers=bearer(ann)).status_code == 403
    assert api.post(f"/api/tables/{table_id}/close", headers=bearer(host)).json()["table"]["closed"] == "closed by the host"
    legal = view(api, table_id, ann)["legal_actions"]
    refused = act(api, table_id, ann, legal[0])
    assert refused.status_code == 409 and "closed" in refused.json()["detail"]
    assert api.get(f"/api/tables/{table_id}/record").status_code == 200


def play_to_the_end(api: httpx.Client, table_id: str, token: str) -> None:
    """The seat plays random legal moves until the game is over (the bots play at their own pace meanwhile)."""
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        seen = view(api, table_id, token)
        if seen["outcome"] is not None:
            return
        if seen["legal_actions"]:
            act(api, table_id, token, rng.choice(seen["legal_actions"]))
        else:
            time.sleep(0.02)  # the bots' turn
    raise AssertionError("the game did not end within 2 minutes")


def test_a_player_resigns_and_a_bot_plays_on(api: httpx.Client) -> None:
    created = create_table(
        api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    )
    table_id, ann = created["table"]["id"], created["seats"][0]["token"]
    answer = api.post(f"/api/tables/{table_id}/resign", json={"bot": "random"}, headers=bearer(ann))
    assert answer.status_code == 200 and answer.json()["table"]["seats"][0]["kind"] == "bot"
    wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots to finish")
    assert "Ann resigned" in " ".join(line["text"] for line in api.get(f"/api/tables/{table_id}/chat").json())


def test_a_rematch_keeps_the_seats_with_a_new_deal(api: httpx.Client) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "medium"}]
    created = create_table(api, "cinecitta", seats)
    table_id, ann, host = created["table"]["id"], created["seats"][0]["token"], created["host_token"]
    assert api.post(f"/api/tables/{table_id}/rematch", headers=bearer(ann)).status_code == 409, "only once the game is over"
    play_to_the_end(api, table_id, ann)
    first = api.post(f"/api/tables/{table_id}/rematch", headers=bearer(ann)).json()
    new_id = first["table"]["id"]
    assert new_id != table_id and first["seat"] == 0
    assert [(s["kind"], s["bot"], s["name"]) for s in first["table"]["seats"]] == [
        ("human", None, "Ann"),
        ("bot", "random", "Bot 2 (random)"),
        ("bot", "medium", "Bot 3 (medium)"),
    ]
    assert api.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
    assert view(api, new_id, first["token"])["seat"] == 0
    # Asking again gives the same rematch and a fresh link; the host becomes the rematch's host.
    second = api.post(f"/api/tables/{table_id}/rematch", headers=bearer(ann)).json()
    assert second["table"]["id"] == new_id and api.get(f"/api/tables/{new_id}/view", headers=bearer(first["token"])).status_code == 403
    hosted = api.post(f"/api/tables/{table_id}/rematch", headers=bearer(host)).json()
    assert hosted["table"]["id"] == new_id
    assert api.post(f"/api/tables/{new_id}/close", headers=bearer(hosted["host_token"])).status_code == 200


def test_seats_chat_and_spectators_read_along(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    table_id = created["table"]["id"]
    ann, bob = (Socket(server, table_id, created["seats"][n]["token"]) for n in (0, 1))
    spectator = Socket(server, table_id, None)
    for client in (ann, bob, spectator):
        client.next("view")
        assert client.next("chat_history")["lines"] == []
    ann.send({"type": "chat", "text": "  good <b>luck</b>\u202e  "})
    line = bob.next("chat")["line"]
    assert (line["seat"], line["name"], line["text"]) == (0, "Ann", "good <b>luck</b>")
    assert spectator.next("chat")["line"]["text"] == "good <b>luck</b>"
    spectator.send({"type": "chat", "id": 1, "text": "hi"})
    assert spectator.next("error", id=1)["status"] == 403
    bob.send({"type": "chat", "id": 2, "text": "x" * 301})
    assert "at most 300 characters" in bob.next("error", id=2)["message"]
    for number in range(8):
        bob.send({"type": "chat", "id": 10 + number, "text": f"spam {number}"})
    assert any(bob.next("error", id=10 + number, timeout=5)["status"] == 429 for number in range(5, 8))
    late = Socket(server, table_id, None)
    late.next("view")
    assert late.next("chat_history")["lines"][0]["text"] == "good <b>luck</b>"
    for client in (ann, bob, spectator, late):
        client.close()


def test_chat_lines_said_at_the_same_moment_are_all_kept_in_order(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "maybe-movies", [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")])
    table_id, tokens = created["table"]["id"], [seat["token"] for seat in created["seats"]]
    answers: list[int] = []

    def say(number: int) -> None:
        with server.client() as client:
            answer = client.post(f"/api/tables/{table_id}/chat", json={"text": f"line {number}"}, headers=bearer(tokens[number % 3]))
            answers.append(answer.status_code)

    time.sleep(6)  # this address's chat budget (5 lines at once, 1 a second) refills after the module's earlier tests
    talkers = [threading.Thread(target=say, args=(number,)) for number in range(5)]
    for talker in talkers:
        talker.start()
    for talker in talkers:
        talker.join()
    # Five lines from one address stay within the chat's burst: every one is stored, each under its own number.
    assert sorted(answers) == [200] * 5
    lines = api.get(f"/api/tables/{table_id}/chat").json()
    assert sorted(line["text"] for line in lines) == sorted(f"line {number}" for number in range(5))
