"""The WebSocket protocol with two human seats at one table, checked move by move against a local copy of the game."""

from __future__ import annotations

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from greenlight.core.match import Match
from greenlight.core.registry import get_game
from tests.web.conftest import Server, Socket, bearer, create_table

#: Every test here runs against a server on SQLite and on PostgreSQL (the same API on both storage backends).
BACKENDS = ("sqlite", "postgresql")

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]


NAMES = [seat["name"] for seat in HUMANS]


def expected_view(local: Match, seat: int | None, names: list[str] | None = None) -> dict[str, object]:
    """The parts of a view that come from the game, computed locally (seats called by the table's ``names``)."""
    over = local.is_over()
    return {
        "version": len(local.record.actions),
        "observation": local.observe(seat),
        "legal_actions": [] if seat is None or over else [str(a) for a in local.legal_actions(seat)],
        "decision": local.decision().to_json(),
        "log": local.log(seat, names),
        "outcome": local.outcome().to_json() if over else None,
    }


def game_part(view: dict[str, object]) -> dict[str, object]:
    return {key: view[key] for key in ("version", "observation", "legal_actions", "decision", "log", "outcome")}


def test_two_seats_play_over_websockets_and_each_sees_its_own_view(server: Server, api: httpx.Client) -> None:
    answer = create_table(api, "cinecitta", HUMANS, seed=41)
    table_id = answer["table"]["id"]
    tokens = [seat["token"] for seat in answer["seats"]]
    local = Match.start(get_game("cinecitta"), 3, 41)
    ann, bob = Socket(server, table_id, tokens[0]), Socket(server, table_id, tokens[1])
    try:
        first_ann, first_bob = ann.next("view"), bob.next("view")
        assert first_ann["seat"] == 0 and first_bob["seat"] == 1
        assert game_part(first_ann) == expected_view(local, 0, NAMES) and game_part(first_bob) == expected_view(local, 1, NAMES)
        presence = ann.next("presence", timeout=5)
        assert presence["table"]["seats"][0]["connected"] is True

        for round_step in range(6):  # two full rounds: offer, respond, place, twice
            for seat, socket in ((0, ann), (1, bob)):
                action = str(local.legal_actions(seat)[round_step % len(local.legal_actions(seat))])
                socket.send({"type": "act", "action": action, "id": f"m{round_step}-{seat}"})
                ack = socket.next("ack", id=f"m{round_step}-{seat}")
                local.play(seat, action)
                assert ack["action"] == action and ack["index"] == len(local.record.actions) - 1
                # Every accepted action reaches both seats at once, each with its own view.
                version = len(local.record.actions)
                assert game_part(ann.view_at(version)) == expected_view(local, 0, NAMES)
                assert game_part(bob.view_at(version)) == expected_view(local, 1, NAMES)
            third = str(local.legal_actions(2)[0])
            assert api.post(f"/api/tables/{table_id}/actions", json={"action": third}, headers=bearer(tokens[2])).status_code == 200
            local.play(2, third)
            version = len(local.record.actions)
            assert game_part(ann.view_at(version)) == expected_view(local, 0, NAMES)
            assert game_part(bob.view_at(version)) == expected_view(local, 1, NAMES)
        assert local.observe(0)["round"] == 3

        # Refusals come back as errors with the reason; the table does not move.
        action = str(local.legal_actions(0)[0])
        ann.send({"type": "act", "action": action, "id": 1})
        ann.next("ack", id=1)
        local.play(0, action)
        ann.send({"type": "act", "action": action, "id": 2})
        refused = ann.next("error", id=2)
        assert refused["status"] == 409 and refused["message"] == "seat 0 has already made its choice in this step; waiting for the others"
        bob.send({"type": "act", "action": "offer", "id": 3})
        assert bob.next("error", id=3)["message"] == "'offer' takes 2 value(s): offer <card> <amount>"
        bob.send({"type": "act", "action": "", "id": 4})
        assert bob.next("error", id=4)["status"] == 400
        bob.send({"type": "dance", "id": 5})
        assert bob.next("error", id=5)["message"] == "unknown message type 'dance'; use act, view, chat or ping"
        bob.ws.send("not json")
        assert bob.next("error")["message"] == "messages must be JSON objects"
        bob.send({"type": "ping", "id": 6})
        assert bob.next("pong", id=6)["id"] == 6
        assert game_part(bob.ask_view(7)) == expected_view(local, 1, NAMES)
        # Asked again with nothing changed, the view is not built or sent again: the client has it.
        bob.buffer.clear()
        bob.send({"type": "view", "id": 8})
        assert bob.next("view_unchanged", id=8)["version"] == len(local.record.actions)
        assert api.get(f"/api/tables/{table_id}").json()["version"] == len(local.record.actions)

        # Leaving is public: the other seat sees who is online.
        bob.close()
        left = ann._take(lambda m: m["type"] == "presence" and not m["table"]["seats"][1]["connected"], timeout=5)
        assert left["table"]["seats"][0]["connected"] is True
    finally:
        ann.close()


def test_a_spectator_follows_the_game_but_cannot_act(server: Server, api: httpx.Client) -> None:
    answer = create_table(api, "cinecitta", HUMANS, seed=42)
    table_id = answer["table"]["id"]
    tokens = [seat["token"] for seat in answer["seats"]]
    watcher = Socket(server, table_id, None)
    try:
        view = watcher.next("view")
        assert view["seat"] is None and "hand" not in view["observation"]
        legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["legal_actions"]
        watcher.send({"type": "act", "action": legal[0], "id": "x"})
        assert watcher.next("error", id="x") == {
            "type": "error",
            "id": "x",
            "status": 403,
            "message": "spectators cannot act; open your seat link to play",
        }
        api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[0]))
        moved = watcher.view_at(1)
        assert moved["decision"]["committed"] == [0] and "my_commitment" not in moved["observation"]
    finally:
        watcher.close()


@pytest.mark.parametrize(
    ("hello", "code", "words"),
    [
        ({"type": "hello", "token": "not-a-token"}, 4403, "does not belong to any seat"),
        ({"type": "hi"}, 4400, "the first message must be"),
        ({"type": "hello", "token": 12}, 4400, "the first message must be"),
    ],
)
def test_a_bad_hello_is_refused_and_the_socket_closed(
    server: Server, api: httpx.Client, hello: dict[str, object], code: int, words: str
) -> None:
    table_id = create_table(api, "cinecitta", HUMANS, seed=43)["table"]["id"]
    socket = Socket(server, table_id, None, hello=False)
    socket.send(hello)
    error = socket.next("error")
    assert words in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        socket.receive(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code


def test_an_unknown_table_closes_the_socket_with_404(server: Server) -> None:
    socket = Socket(server, "no-such-table", None, hello=False)
    assert socket.next("error") == {"type": "error", "status": 404, "message": "there is no table 'no-such-table'"}
    with pytest.raises(ConnectionClosed) as closed:
        socket.receive(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
