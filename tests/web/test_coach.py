"""Tables from positions, hints at the table and reviews of finished games, on the real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import NO_RATE_LIMITS, Server, bearer, create_table, wait_until

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "cinecitta.json"
FAST = [*NO_RATE_LIMITS, "--limit", "hint_seconds=0.3", "--limit", "review_seconds=0.05", "--bot-workers", "1"]


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("coach") / "tables.db", extra=FAST)
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(coach_server: Server) -> Iterator[httpx.Client]:
    with coach_server.client() as http:
        yield http


def position() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def test_a_table_starts_from_a_position_and_says_its_creator_knows_everything(client: httpx.Client) -> None:
    created = create_table(client, "cinecitta", [{"kind": "human", "name": "Ann"}, *BOTS], position=position())
    table = created["table"]
    assert table["from_position"] is True and table["seed_chosen"] is True
    token = created["seats"][0]["token"]
    view = client.get(f"/api/tables/{table['id']}/view", headers=bearer(token)).json()
    assert view["observation"]["round"] == 7 and view["observation"]["hand"] == ["C9", "S5"]
    assert view["observation"]["wallet"] == 150


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"wallets": [150, -10, 60]}, "the position cannot be played: wallets[1]: is -10"),
        ({"num_players": 4}, "the position is for 4 players, but the table has 3 seats"),
        ({"options": {"data": "/etc/passwd"}}, "a position with a data file (option data) can only be played locally"),
        ({"hands": [["C9", "S5"], ["A3", "C9"], ["D3", "A5"]]}, "hands[1]: C9 is also in hands[0]"),
    ],
)
def test_an_impossible_position_is_refused_with_the_field(client: httpx.Client, change: dict[str, Any], message: str) -> None:
    body = {"game": "cinecitta", "seats": [{"kind": "human"}, *BOTS], "position": {**position(), **change}}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400 and message in answer.json()["detail"]


def test_hints_for_a_seat_whose_opponents_are_bots_and_only_with_the_hosts_leave_otherwise(client: httpx.Client) -> None:
    solo = create_table(client, "cinecitta", [{"kind": "human"}, *BOTS])
    token = solo["seats"][0]["token"]
    answer = client.post(f"/api/tables/{solo['table']['id']}/hint", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    assert len(moves) == 3 and all(move["words"] and 0 <= move["win_share"] <= 1 for move in moves)
    assert client.post(f"/api/tables/{solo['table']['id']}/hint").status_code == 401
    shared = create_table(client, "cinecitta", [{"kind": "human"}, {"kind": "human"}, BOTS[0]])
    table_id, first = shared["table"]["id"], shared["seats"][0]["token"]
    refused = client.post(f"/api/tables/{table_id}/hint", headers=bearer(first))
    assert refused.status_code == 403 and "only the host can allow hints for everyone" in refused.json()["detail"]
    assert client.post(f"/api/tables/{table_id}/hints", json={"on": True}, headers=bearer(first)).status_code in (401, 403)
    allowed = client.post(f"/api/tables/{table_id}/hints", json={"on": True}, headers=bearer(shared["host_token"]))
    assert allowed.status_code == 200 and allowed.json()["table"]["hints"] is True
    assert client.post(f"/api/tables/{table_id}/hint", headers=bearer(first)).status_code == 200


def test_a_finished_game_is_reviewed_in_the_workers_with_progress_and_the_review_is_kept(client: httpx.Client) -> None:
    created = create_table(client, "cinecitta", [*BOTS, {"kind": "bot", "bot": "random"}], position=position())
    table_id = created["table"]["id"]
    early = client.post(f"/api/tables/{table_id}/reviews/0")
    if early.status_code == 409:  # the bots may not have finished yet
        assert "once it is over" in early.json()["detail"]
        listed = client.get(f"/api/tables/{table_id}/reviews")
        assert listed.status_code in (200, 409)  # (finished meanwhile, or still refused)
        if listed.status_code == 409:
            assert "once it is over" in listed.json()["detail"]
    wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "finished", what="the bots to finish")
    assert client.get(f"/api/tables/{table_id}/reviews/0").status_code == 404
    # Every seat's status in one read (the finished table's page asks this way, with no 404 per seat).
    assert client.get(f"/api/tables/{table_id}/reviews").json() == {"reviews": [{"seat": seat, "status": "none"} for seat in range(3)]}
    started = client.post(f"/api/tables/{table_id}/reviews/0")
    assert started.status_code == 202 and started.json()["status"] in ("running", "done")
    done = wait_until(lambda: (r := client.get(f"/api/tables/{table_id}/reviews/0").json())["status"] == "done" and r, what="the review")
    review = done["review"]
    assert review["seat"] == 0 and review["decisions"] and set(review["counts"]) == {"good", "inaccuracy", "mistake", "blunder"}
    page = client.get(f"/tables/{table_id}/reviews/0")
    assert page.status_code == 200 and "<svg" in page.text and "Review of Bot 1 (random)" in page.text
    assert client.post(f"/api/tables/{table_id}/reviews/0").json() == {"status": "done"}
    listed = client.get(f"/api/tables/{table_id}/reviews").json()["reviews"]
    assert listed == [{"seat": 0, "status": "done"}, {"seat": 1, "status": "none"}, {"seat": 2, "status": "none"}]
    assert client.get(f"/api/tables/{table_id}/reviews/5").status_code == 404


def test_a_whole_position_is_uploaded_where_the_upload_limit_applies(client: httpx.Client) -> None:
    from greenlight.core.registry import get_game

    game = get_game("maybe-movies")
    state = game.new_state(6, 5)
    for _ in range(60):
        seat = min(game.decision(state).players)
        game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert not game.is_terminal(state)
    body = {"game": "maybe-movies", "seats": [{"kind": "human"}, *BOTS, *BOTS, BOTS[0]], "position": game.to_position(state)}
    text = json.dumps(body, indent=2)  # as a file written by hand or by a tool may be laid out
    assert len(text) > 16 * 1024
    headers = {"Content-Type": "application/json"}
    small_door = client.post("/api/tables", content=text, headers=headers)
    assert small_door.status_code == 413 and "16 KB" in small_door.json()["detail"]
    created = client.post("/api/positions/tables", content=text, headers=headers)
    assert created.status_code == 201, created.text
    view = client.get(f"/api/tables/{created.json()['table']['id']}/view", headers=bearer(created.json()["seats"][0]["token"])).json()
    assert view["observation"]["turn"] == state.turn
    missing = client.post("/api/positions/tables", json={"game": "cinecitta", "seats": [{"kind": "human"}, *BOTS]})
    assert missing.status_code == 400 and "send the position" in missing.json()["detail"]
