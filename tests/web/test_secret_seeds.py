"""Secret deals: a table's seed has 128 bits, is unrelated to the next table's, and reaches nobody before the game ends."""

from __future__ import annotations

import itertools
import random
import sqlite3
from typing import Any

import httpx
import pytest

from tests.web.conftest import Server, Socket, bearer, create_table

GAMES = {"cinecitta": 3, "maybe-movies": 3, "movie-empire": 2}


def stored_seed(server: Server, table_id: str) -> int:
    with sqlite3.connect(server.db) as db:
        row = db.execute("SELECT seed FROM tables WHERE id = ?", (table_id,)).fetchone()
    return int(row[0])


def test_tables_created_back_to_back_get_unrelated_seeds_of_128_bits(api: httpx.Client, server: Server) -> None:
    seats = [{"kind": "human"}] * 3
    seeds = [stored_seed(server, create_table(api, "cinecitta", seats)["table"]["id"]) for _ in range(6)]
    assert len(set(seeds)) == 6
    assert all(seed < 2**128 for seed in seeds) and sum(seed >= 2**120 for seed in seeds) >= 5
    for first, second in itertools.pairwise(seeds):
        # Independent 128-bit draws differ in about 64 bits (30 is six standard deviations below).
        assert bin(first ^ second).count("1") > 30 and abs(first - second) > 2**64


def test_a_chosen_seed_is_marked_public_and_the_secret_one_is_not(api: httpx.Client) -> None:
    chosen = create_table(api, "cinecitta", [{"kind": "human"}] * 3, seed=5)["table"]
    secret = create_table(api, "cinecitta", [{"kind": "human"}] * 3)["table"]
    assert chosen["seed_chosen"] is True and secret["seed_chosen"] is False


def seed_forms(seed: int) -> list[str]:
    return [str(seed), format(seed, "x"), format(seed, "X")]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_response_before_the_end_holds_the_seed(server: Server, api: httpx.Client, game_id: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (GAMES[game_id] - 1)
    created = create_table(api, game_id, seats)
    table_id, token = created["table"]["id"], created["seats"][0]["token"]
    seed = stored_seed(server, table_id)
    texts: list[str] = [str(created)]
    seat, spectator = Socket(server, table_id, token), Socket(server, table_id, None)
    rng = random.Random(3)
    request = 0
    try:
        view = seat.next("view")
        while view["outcome"] is None:
            for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/view", "/api/tables"):
                texts.append(api.get(path).text)
            record = api.get(f"/api/tables/{table_id}/record")
            if record.status_code != 200:  # a bot may end the game in the meantime; then the record is the record
                texts.append(record.text)
            texts.append(api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).text)
            texts.append(api.get(f"/tables/{table_id}").text)
            if view["legal_actions"]:
                request += 1
                seat.send({"type": "act", "id": request, "action": rng.choice(view["legal_actions"])})
                view = seat.view_at(view["version"] + 1, timeout=30)
            else:
                view = seat.ask_view(request, timeout=30)
        spectator.view_at(view["version"], timeout=30)
        texts += seat.raw + spectator.raw
    finally:
        seat.close()
        spectator.close()
    for text in texts:
        for form in seed_forms(seed):
            assert form not in text, f"the seed reached a client before the end: {text[:200]}"
    # Once the game is over the record may carry it, so a replay is exact.
    assert api.get(f"/api/tables/{table_id}/record").json()["seed"] == seed


def test_an_error_about_a_record_does_not_echo_a_live_tables_seed(server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", [{"kind": "human"}] * 3)
    table_id = created["table"]["id"]
    seed = stored_seed(server, table_id)
    answers: list[Any] = [
        api.get(f"/api/tables/{table_id}/record"),
        api.get(f"/api/tables/{table_id}/replay"),
        api.post(f"/api/tables/{table_id}/actions", json={"action": "dance"}, headers=bearer(created["seats"][0]["token"])),
    ]
    for answer in answers:
        assert answer.status_code in (400, 409) and str(seed) not in answer.text
