"""The designer's lab's API, on SQLite and on PostgreSQL: uploads are checked as data and refused naming file, row and
column; every study's budget is taken before any game; a study runs in the worker pool and is kept."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("matplotlib")  # the lab's studies use the sim extra

from tests.web.conftest import NO_RATE_LIMITS, Server, new_database, wait_until
from tests.web.test_lab import STARS, stars_csv, upload

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, server_backend: str) -> Iterator[Server]:
    """A server for the lab, without the rate of study starts (every other lab budget as shipped), on each database."""
    folder = tmp_path_factory.mktemp("lab")
    extra = [*NO_RATE_LIMITS, "--limit", "lab_starts_per_minute=0"]
    if server_backend == "postgresql":
        running = Server(new_database(request.getfixturevalue("postgres")), extra=extra, log=folder / "server.log")
    else:
        running = Server(folder / "tables.db", extra=extra)
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def test_uploads_are_checked_as_data_and_refused_with_file_row_and_column(api: httpx.Client) -> None:
    good = upload(api, "stars.csv", stars_csv())
    assert good.status_code == 201, good.text
    body = good.json()
    assert body["custom"] == ["stars"] and body["records"]["stars"] == 24 and len(body["id"]) >= 20
    stored = api.get(f"/api/lab/data/{body['id']}").json()
    assert next(card for card in stored["tables"]["stars"] if card["id"] == "ST16")["cost"] == 0
    bad = upload(api, "stars.csv", stars_csv("free"))
    assert (
        bad.status_code == 400 and bad.json()["detail"] == "stars.csv: row 17, card ST16, column cost: must be a whole number, got 'free'"
    )
    assert upload(api, "star.toml", STARS.read_bytes()).json()["detail"].startswith("data: Movie Empire reads no file called star.toml")
    assert "a data file is .toml, .json, .csv or .xlsx" in upload(api, "cards.py", b"import os").json()["detail"]
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/huge.xml", b"0" * (30 * 1024 * 1024))
    assert "unpacks to more than the lab reads" in upload(api, "stars.xlsx", bomb.getvalue()).json()["detail"]
    edited = api.post("/api/lab/data", json={"game": "cinecitta", "tables": {"cards": [{"id": "D2", "occupation": "Director"}]}})
    assert edited.status_code == 400 and "cards.csv: row 2, card D2, column number: is missing" in edited.json()["detail"]
    assert api.get("/api/lab/data/nope").status_code == 404


def test_every_study_takes_its_budget_before_any_game(api: httpx.Client) -> None:
    data = upload(api, "stars.csv", stars_csv()).json()["id"]
    base = {"game": "movie-empire", "players": 2, "bots": ["medium"], "games": 4, "seed": 1}
    refusals = [
        ({**base, "games": 5000}, 400, "at most 4000 games"),
        ({**base, "bots": ["strong"], "games": 200}, 400, "with a search bot plays at most 100 games"),
        ({**base, "bots": ["hard"]}, 400, "the lab seats only these bots"),
        ({**base, "players": 7}, 400, "is for 2 to 4 players"),
        ({**base, "parameters": {"hand_limit": 99}}, 400, "hand_limit must be at most 8"),
        ({**base, "kind": "compare"}, 400, "a comparison compares your data"),
        ({**base, "kind": "sweep", "vary": "stars.ST99.cost=1..3"}, 400, "stars has no card ST99"),
        (
            {**base, "kind": "sweep", "vary": "stars.ST16.cost=0..40", "games": 100},
            400,
            "plays at most 4000 games in all; this one would play 4100",
        ),
        ({**base, "data": data, "game": "cinecitta", "players": 3}, 400, "the data is for movie-empire, not cinecitta"),
    ]
    for body, status, words in refusals:
        answer = api.post("/api/lab/studies", json=body)
        assert answer.status_code == status and words in answer.json()["detail"], (body, answer.text)
    started = [api.post("/api/lab/studies", json={**base, "seed": seed, "data": data}) for seed in (1, 2)]
    assert [answer.status_code for answer in started] == [202, 202]
    third = api.post("/api/lab/studies", json={**base, "seed": 3})
    assert third.status_code == 429 and "you have 2 studies queued or running (at most 2)" in third.json()["detail"]
    for answer in started:
        study = answer.json()["id"]
        assert api.post(f"/api/lab/studies/{study}/cancel").json()["status"] in ("cancelled", "cancelling", "done")
    wait_until(
        lambda: all(api.get(f"/api/lab/studies/{a.json()['id']}").json()["status"] in ("cancelled", "done") for a in started),
        30,
        "cancelled",
    )
    again = api.post("/api/lab/studies", json={**base, "seed": 4})
    assert again.status_code == 202, again.text  # the client's places came back
    wait_until(lambda: api.get(f"/api/lab/studies/{again.json()['id']}").json()["status"] == "done", 60, "the study")


@pytest.mark.slow
def test_a_study_is_kept_and_one_cut_by_a_restart_runs_again(fresh_server: Server) -> None:
    base = {"game": "cinecitta", "players": 3, "bots": ["medium"], "seed": 5}
    with fresh_server.client() as api:
        done = api.post("/api/lab/studies", json={**base, "games": 6}).json()["id"]
        wait_until(lambda: api.get(f"/api/lab/studies/{done}").json()["status"] == "done", 60, "the first study")
        long = api.post("/api/lab/studies", json={**base, "games": 3000}).json()["id"]
        wait_until(lambda: api.get(f"/api/lab/studies/{long}").json()["done"] > 0, 60, "the second study to start")
    fresh_server.stop()  # the running study is queued again, not lost
    assert fresh_server.query("SELECT status FROM lab_studies WHERE id = ?", (long,)) == [("queued",)]
    fresh_server.start()
    with fresh_server.client() as api:
        kept = api.get(f"/api/lab/studies/{done}").json()
        assert kept["status"] == "done" and kept["result"]["answers"][0].startswith("No seat moves first")
        wait_until(lambda: api.get(f"/api/lab/studies/{long}").json()["status"] == "running", 60, "the cut study to run again")
        assert api.post(f"/api/lab/studies/{long}/cancel").json()["status"] in ("cancelling", "cancelled")
        wait_until(lambda: api.get(f"/api/lab/studies/{long}").json()["status"] == "cancelled", 60, "the cancellation")
