"""The JSON API against the real server process: every endpoint, and every way a request can be refused."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.registry import all_games, get_game
from greenlight.web.storage import hash_token
from tests.web.conftest import OPERATOR, Server, bearer, create_table, wait_until

#: Every test here runs against a server on SQLite and on PostgreSQL (the same API on both storage backends).
BACKENDS = ("sqlite", "postgresql")

HUMANS_3 = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]


def three_humans(api: httpx.Client, seed: int = 11, **extra: Any) -> tuple[str, list[str]]:
    answer = create_table(api, "cinecitta", HUMANS_3, seed=seed, **extra)
    return answer["table"]["id"], [seat["token"] for seat in answer["seats"]]


def play(api: httpx.Client, table_id: str, token: str, action: str) -> httpx.Response:
    return api.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=bearer(token))


def assert_refused(response: httpx.Response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert words in response.json()["detail"], response.json()


# -- games ---------------------------------------------------------------------------------------


def test_health_tells_anyone_only_that_the_server_is_up(api: httpx.Client) -> None:
    response = api.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"ok": True}  # no host name, process id or figures for an anonymous client
    assert api.get("/api/health", headers={"X-Greenlight-Operator": "a guess"}).json() == {"ok": True}
    figures = api.get("/api/health", headers=OPERATOR).json()
    assert figures["ok"] is True and figures["process"].count(":") == 2 and "live_tables" in figures


def test_games_lists_every_registered_game_with_options_and_bots(api: httpx.Client) -> None:
    games = api.get("/api/games").json()
    assert [game["id"] for game in games] == list(all_games())  # every registered game, in id order
    cinecitta = next(game for game in games if game["id"] == "cinecitta")
    assert (cinecitta["min_players"], cinecitta["max_players"]) == (3, 5)
    # The card-file path option is never offered to a browser: the server does not open client-named files.
    # Rule parameters are offered too (number fields with their bounds); a table that changes one says so (changed_parameters).
    assert [option["name"] for option in cinecitta["options"]] == ["destination_change", "movie_awards", "starting_money", "extra_rounds"]
    assert [option["parameter"] for option in cinecitta["options"]] == [False, False, True, True]
    assert cinecitta["options"][0]["allowed_players"] == [4, 5]
    assert "partner turns" in cinecitta["options"][0]["help"]
    assert cinecitta["bots"][0] == "random" and "medium" in cinecitta["bots"]
    assert "heuristic" not in cinecitta["bots"], "the heuristic is the medium level: each bot is offered once"
    assert cinecitta["renderer"] is True


def test_one_game_and_an_unknown_game(api: httpx.Client) -> None:
    assert api.get("/api/games/cinecitta").json()["title"] == "Cinecitta 1937"
    assert_refused(api.get("/api/games/chess"), 404, "unknown game 'chess'")


def test_game_data_serves_the_bundled_card_file_as_json(api: httpx.Client) -> None:
    cards = api.get("/api/games/cinecitta/data/cards").json()["card"]
    assert len(cards) == 35
    assert cards[0] == {"id": "D2", "occupation": "Director", "number": 2, "promotion": 1, "reels": 3, "pen": True, "removed_at": []}
    assert_refused(api.get("/api/games/cinecitta/data/missing"), 404, "no data file 'missing'")
    assert api.get("/api/games/cinecitta/data/..%2F..%2Fgame").status_code == 404


def test_game_web_files_are_served_from_the_game_package(api: httpx.Client) -> None:
    response = api.get("/games/cinecitta/web/table.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert 'registerRenderer("cinecitta"' in response.text
    assert api.get("/games/cinecitta/web/game.py").status_code == 404
    assert api.get("/games/cinecitta/web/..%2Fgame.py").status_code == 404


# -- creating and listing tables --------------------------------------------------------------------


def test_create_returns_one_token_and_link_per_human_seat_and_stores_only_hashes(api: httpx.Client, server: Server) -> None:
    answer = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}], seed=5)
    table = answer["table"]
    assert table["game"] == "cinecitta" and table["num_players"] == 3 and table["status"] == "open"
    assert table["options"] == {"destination_change": False, "movie_awards": False, "data": None}
    assert table["changed_parameters"] == {}  # the game as printed
    seats = answer["seats"]
    assert [seat["kind"] for seat in seats] == ["human", "bot", "human"]
    assert [seat["name"] for seat in seats] == ["Ann", "Bot 2 (random)", "Player 3"]
    assert "token" not in seats[1] and "link" not in seats[1]
    tokens = [seats[0]["token"], seats[2]["token"]]
    assert len(set(tokens)) == 2 and all(len(token) >= 32 for token in tokens)
    assert seats[0]["link"] == f"{server.url}/tables/{table['id']}#token={tokens[0]}"
    assert answer["spectator_link"] == f"{server.url}/tables/{table['id']}"
    # The database holds SHA-256 digests, never the tokens.
    stored = [row[0] for row in server.query("SELECT token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table["id"],))]
    dump = server.dump()
    assert stored == [hash_token(tokens[0]), None, hash_token(tokens[1])]
    assert tokens[0] not in dump and tokens[1] not in dump
    assert table["id"] in json.dumps(api.get("/api/tables").json())
    assert tokens[0] not in api.get("/api/tables").text


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "seats": HUMANS_3}, 404, "unknown game 'chess'"),
        ({"game": "cinecitta", "seats": HUMANS_3[:2]}, 400, "Cinecitta 1937 is for 3 to 5 players, not 2"),
        ({"game": "cinecitta", "seats": [*HUMANS_3, {"kind": "bot", "bot": "grandmaster"}]}, 400, "has no bot 'grandmaster'"),
        ({"game": "cinecitta", "seats": HUMANS_3, "options": {"destination_change": True}}, 400, "only for 4, 5 players, not 3"),
        ({"game": "cinecitta", "seats": HUMANS_3, "options": {"data": "/etc/passwd"}}, 400, "no option 'data' that can be set here"),
        ({"game": "cinecitta", "seats": HUMANS_3, "options": {"speed": 3}}, 400, "no option 'speed'"),
        ({"game": "cinecitta", "seats": HUMANS_3, "options": {"movie_awards": "maybe"}}, 400, "movie_awards must be true or false"),
        ({"game": "cinecitta", "seats": [{"kind": "alien"}] * 3}, 422, "seats.0.kind"),
        ({"game": "cinecitta"}, 422, "seats: Field required"),
        ({"game": "cinecitta", "seats": HUMANS_3, "seed": -1}, 422, "seed"),
        ({"game": "cinecitta", "seats": [{"kind": "human", "name": "x" * 41}, *HUMANS_3[1:]]}, 400, "at most 40 characters"),
    ],
)
def test_create_refuses_bad_requests_and_creates_nothing(api: httpx.Client, body: dict[str, Any], status: int, words: str) -> None:
    before = api.get("/api/tables").json()["total"]
    assert_refused(api.post("/api/tables", json=body), status, words)
    assert api.get("/api/tables").json()["total"] == before


def test_a_table_with_changed_rule_parameters_says_so(api: httpx.Client) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = create_table(api, "cinecitta", seats, options={"starting_money": 120, "extra_rounds": 0})["table"]
    assert table["changed_parameters"] == {"starting_money": 120} and table["options"]["starting_money"] == 120
    refused = api.post("/api/tables", json={"game": "cinecitta", "seats": seats, "options": {"starting_money": 125}})
    assert refused.status_code == 400 and "multiple of 10" in refused.text


def test_create_refuses_a_body_that_is_not_json(api: httpx.Client) -> None:
    response = api.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert "JSON" in response.json()["detail"]


def test_list_filters_by_status_and_describes_one_table(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api)
    assert table_id in [t["id"] for t in api.get("/api/tables", params={"status": "open"}).json()["tables"]]
    assert table_id not in [t["id"] for t in api.get("/api/tables", params={"status": "running"}).json()["tables"]]
    for token in tokens:
        api.get(f"/api/tables/{table_id}/view", headers=bearer(token))
    info = api.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "running"
    assert [seat["joined"] for seat in info["seats"]] == [True, True, True]
    assert table_id in [t["id"] for t in api.get("/api/tables", params={"status": "running"}).json()["tables"]]
    assert api.get("/api/tables", params={"status": "sleeping"}).status_code == 422
    assert_refused(api.get("/api/tables/nope"), 404, "there is no table 'nope'")


# -- views and actions ----------------------------------------------------------------------------------


def test_seat_view_shows_the_seats_own_hand_and_legal_actions(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=21)
    local = Match.start(get_game("cinecitta"), 3, 21)
    view = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[1])).json()
    assert view["seat"] == 1 and view["version"] == 0
    assert view["observation"] == local.observe(1)
    assert view["legal_actions"] == [str(action) for action in local.legal_actions(1)]
    prompt = local.decision().prompt
    assert view["decision"] == {"players": [0, 1, 2], "kind": "offer", "simultaneous": True, "committed": [], "prompt": prompt}
    assert view["log"] == [] and view["outcome"] is None


def test_spectator_view_has_no_hand_and_no_actions(api: httpx.Client) -> None:
    table_id, _ = three_humans(api, seed=22)
    view = api.get(f"/api/tables/{table_id}/view").json()
    assert view["seat"] is None and view["legal_actions"] == []
    assert "hand" not in view["observation"] and "wallet" not in view["observation"]


def test_an_accepted_action_is_answered_with_its_index_and_the_new_view(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=23)
    legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["legal_actions"]
    response = play(api, table_id, tokens[0], "  " + legal[3].replace(" ", "   ") + " ")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["accepted"] is True and answer["action"] == legal[3] and answer["index"] == 0
    assert answer["view"]["version"] == 1
    assert answer["view"]["decision"]["committed"] == [0]
    assert answer["view"]["observation"]["my_commitment"] == legal[3]
    assert answer["view"]["legal_actions"] == []


@pytest.mark.parametrize(
    ("action", "status", "words"),
    [
        ("dance", 400, "unknown action 'dance'; actions start with one of: offer, place, respond"),
        ("offer D2", 400, "'offer' takes 2 value(s): offer <card> <amount>"),
        ("offer D2 ten", 400, "amount must be a whole number, not 'ten'"),
        ("offer ZZ 10", 409, "ZZ is not in your hand"),
        ("respond secure", 409, "responses are made in step 2"),
    ],
)
def test_illegal_or_unreadable_actions_are_refused_and_change_nothing(api: httpx.Client, action: str, status: int, words: str) -> None:
    table_id, tokens = three_humans(api, seed=24)
    before = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()
    assert_refused(play(api, table_id, tokens[0], action), status, words)
    assert api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json() == before


def test_amount_above_the_wallet_is_refused(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=25)
    card = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["observation"]["hand"][0]
    assert_refused(play(api, table_id, tokens[0], f"offer {card} 110"), 409, "you have only 100 in your wallet")
    assert_refused(play(api, table_id, tokens[0], f"offer {card} 15"), 409, "multiple of 10")


def test_a_seat_cannot_commit_twice_in_one_step(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=26)
    legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[2])).json()["legal_actions"]
    assert play(api, table_id, tokens[2], legal[0]).status_code == 200
    assert_refused(play(api, table_id, tokens[2], legal[1]), 409, "seat 2 has already made its choice in this step")


def test_acting_needs_a_valid_token_of_this_table(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=27)
    other_id, other_tokens = three_humans(api, seed=28)
    legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["legal_actions"]
    url = f"/api/tables/{table_id}/actions"
    assert_refused(api.post(url, json={"action": legal[0]}), 401, "acting needs your seat token")
    assert_refused(api.post(url, json={"action": legal[0]}, headers={"Authorization": tokens[0]}), 401, "must be 'Bearer <seat token>'")
    assert_refused(api.post(url, json={"action": legal[0]}, headers=bearer("guess")), 403, "does not belong to any seat")
    assert_refused(api.post(url, json={"action": legal[0]}, headers=bearer(other_tokens[0])), 403, "does not belong to any seat")
    assert_refused(api.get(f"/api/tables/{table_id}/view", headers=bearer(other_tokens[1])), 403, "does not belong")
    missing = api.post(f"/api/tables/{other_id}x/actions", json={"action": legal[0]}, headers=bearer(tokens[0]))
    assert_refused(missing, 404, "there is no table")
    assert api.get(f"/api/tables/{table_id}").json()["version"] == 0


def test_malformed_action_bodies_are_refused(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=29)
    url = f"/api/tables/{table_id}/actions"
    assert_refused(api.post(url, json={"act": "x"}, headers=bearer(tokens[0])), 422, "action: Field required")
    assert_refused(api.post(url, json={"action": ""}, headers=bearer(tokens[0])), 422, "action: String should have at least 1 character")
    assert_refused(api.post(url, json={"action": "x" * 501}, headers=bearer(tokens[0])), 422, "at most 500 characters")
    assert_refused(api.post(url, json={"action": 7}, headers=bearer(tokens[0])), 422, "action: Input should be a valid string")
    assert_refused(api.post(url, json=["offer"], headers=bearer(tokens[0])), 422, "valid dictionary")


def test_expect_version_refuses_a_stale_action(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=30)
    legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[1])).json()["legal_actions"]
    first = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["legal_actions"][0]
    assert play(api, table_id, tokens[0], first).status_code == 200
    response = api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0], "expect_version": 0}, headers=bearer(tokens[1]))
    assert_refused(response, 409, "the table has moved on (now at move 1, you expected 0)")
    response = api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0], "expect_version": 1}, headers=bearer(tokens[1]))
    assert response.status_code == 200 and response.json()["index"] == 1


# -- a whole game, records and replays -----------------------------------------------------------------------


def play_to_the_end(api: httpx.Client, table_id: str, tokens: list[str]) -> list[tuple[int, str]]:
    """Every seat plays its first legal action until the game ends; return the actions played."""
    played: list[tuple[int, str]] = []
    while True:
        views = [api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json() for token in tokens]
        if views[0]["outcome"] is not None:
            return played
        for seat, view in enumerate(views):
            if view["legal_actions"]:
                action = view["legal_actions"][len(played) % len(view["legal_actions"])]
                answer = play(api, table_id, tokens[seat], action)
                assert answer.status_code == 200, answer.text
                played.append((seat, action))


def test_a_finished_game_has_a_record_a_replay_and_refuses_further_actions(api: httpx.Client) -> None:
    table_id, tokens = three_humans(api, seed=31, options={"movie_awards": True})
    assert_refused(api.get(f"/api/tables/{table_id}/record"), 409, "once the game is over")
    assert_refused(api.get(f"/api/tables/{table_id}/replay"), 409, "once the game is over")
    played = play_to_the_end(api, table_id, tokens)
    assert len(played) == 3 * 3 * 8
    local = Match.start(get_game("cinecitta"), 3, 31, {"movie_awards": True})
    for seat, action in played:
        local.play(seat, action)
    final = api.get(f"/api/tables/{table_id}/view").json()
    assert final["outcome"] == local.outcome().to_json()
    assert final["decision"]["players"] == []
    assert api.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    assert_refused(play(api, table_id, tokens[0], "place"), 409, "the game is over")

    response = api.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="greenlight-cinecitta-{table_id}.json"'
    record = response.json()
    assert record == local.record.to_json() | {"players": ["Ann", "Bob", "Cy"]}

    replay = api.get(f"/api/tables/{table_id}/replay").json()
    assert replay["finished"] is True and replay["outcome"] == local.outcome().to_json()
    assert len(replay["steps"]) == len(played) + 1
    assert replay["steps"][0]["action"] is None
    assert replay["steps"][0]["observation"] == Match.start(get_game("cinecitta"), 3, 31, {"movie_awards": True}).observe(None)
    assert [(step["seat"], step["action"]) for step in replay["steps"][1:]] == played
    assert replay["steps"][-1]["observation"] == local.observe(None)
    # Spectator replay: nobody's hand, and only public events.
    assert all("hand" not in step["observation"] for step in replay["steps"])
    assert all("passed a folder" not in line for step in replay["steps"] for line in step["log"])

    uploaded = api.post("/api/replay", json=record).json()
    assert uploaded["steps"] == replay["steps"]


def record_bytes(**fields: Any) -> bytes:
    record = {"game": "cinecitta", "version": "1", "num_players": 3, "seed": 1, "options": {}, "actions": []} | fields
    return json.dumps({key: value for key, value in record.items() if value is not None}).encode()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[1, 2", "the record must be JSON"),
        (b"[]", "a record must be a JSON object"),
        (record_bytes(actions=None), "record field 'actions' is missing"),
        (record_bytes(game="chess"), "unknown game 'chess'"),
        (record_bytes(version="0"), "version 0, this engine has 1"),
        (record_bytes(actions=[[0, "dance"]]), "record action 0 (0: dance)"),
        (record_bytes(options={"data": "/etc/passwd"}), "custom data file"),
        (record_bytes(options={"cards": "/etc/passwd"}), "custom data file"),
        (record_bytes(actions=[[0, "place"]] * 121), "at most 120"),
    ],
)
def test_uploaded_records_are_checked(api: httpx.Client, body: bytes, words: str) -> None:
    assert_refused(api.post("/api/replay", content=body), 400, words)


def test_an_unfinished_uploaded_record_replays_to_where_it_stopped(api: httpx.Client) -> None:
    match = Match.start(get_game("cinecitta"), 4, 3)
    for seat in range(4):
        match.play(seat, match.legal_actions(seat)[seat])
    answer = api.post("/api/replay", json=match.record.to_json()).json()
    assert answer["finished"] is False and answer["outcome"] is None
    assert [step["index"] for step in answer["steps"]] == [0, 1, 2, 3, 4]
    assert answer["steps"][-1]["observation"] == match.observe(None)


# -- pages -------------------------------------------------------------------------------------------------


def test_pages_escape_names_and_set_a_content_security_policy(api: httpx.Client) -> None:
    answer = create_table(api, "cinecitta", [{"kind": "human", "name": "<img src=x onerror=alert(1)>"}, *HUMANS_3[1:]], seed=3)
    lobby = api.get("/")
    assert lobby.status_code == 200 and "script-src 'self'" in lobby.headers["content-security-policy"]
    page = api.get(f"/tables/{answer['table']['id']}")
    assert page.status_code == 200
    assert "/games/cinecitta/web/table.js" in page.text and "/games/cinecitta/web/table.css" in page.text
    assert "<img" not in page.text
    assert api.get(f"/tables/{answer['table']['id']}/replay").status_code == 200
    assert api.get("/replay").status_code == 200
    missing = api.get("/tables/nope")
    assert missing.status_code == 404 and "There is no table nope." in missing.text


def test_bots_play_their_seats_by_themselves(api: httpx.Client) -> None:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "easy"}]
    answer = create_table(api, "cinecitta", bots, seed=8)
    table_id = answer["table"]["id"]
    wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots to finish")
    record = api.get(f"/api/tables/{table_id}/record").json()
    assert len(record["actions"]) == 3 * 3 * 8
    assert Match.from_record(Record.from_json(record)).is_over()


def test_a_thinking_bot_does_not_block_the_server(fresh_server: Server) -> None:
    """Search bots think for about a second a move in worker processes; meanwhile other tables' requests are answered.

    No timing in the assertion (the machine may be shared): while the first
    ``hard`` move is being thought out, requests to another table keep being
    answered, many of them. (A server of its own, so the search bots stop with the test.)
    """
    with fresh_server.client() as api:
        hard = [{"kind": "bot", "bot": "hard"}] * 3
        table_id = create_table(api, "cinecitta", hard, seed=9)["table"]["id"]
        other_id, tokens = three_humans(api, seed=10)
        answered = 0
        deadline = time.monotonic() + 120  # only a guard against a hang
        while api.get(f"/api/tables/{table_id}").json()["version"] == 0:
            assert time.monotonic() < deadline, "the bots made no move"
            assert api.get(f"/api/tables/{other_id}/view", headers=bearer(tokens[0])).status_code == 200
            answered += 1
    assert answered >= 20, f"only {answered} requests were answered while the first bot move was thought out"
