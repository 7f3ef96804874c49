"""Trained policies on a real server: registered by the operator (``greenlight serve --policy NAME=FILE``), offered by
name for their game and player count, refused otherwise with a 400, never named by a file; a policy seat plays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

pytest.importorskip("torch")  # the train extra

import torch

from greenlight.bots.policy import PolicyBot
from greenlight.cli.main import app
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.rl.policy_file import load_policy, policy_sizes, save_policy
from tests.bots.linear_policy import Linear
from tests.web.conftest import NO_RATE_LIMITS, Server, create_table, wait_until


def linear_policy(folder: Path, game_id: str, players: int) -> Path:
    """Save a seeded linear policy for ``game_id`` at ``players`` seats."""
    torch.manual_seed(3)
    path = folder / f"{game_id}-{players}.pt"
    size, count = policy_sizes(get_game(game_id), players)
    save_policy(Linear(size, count), path, game=game_id, players=players, note="untrained")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("policies")
    return {"ppo-cinecitta": linear_policy(folder, "cinecitta", 3), "ppo-maybe": linear_policy(folder, "maybe-movies", 4)}


@pytest.fixture(scope="module")
def policy_server(tmp_path_factory: pytest.TempPathFactory, files: dict[str, Path]) -> Iterator[Server]:
    registrations = [item for name, path in files.items() for item in ("--policy", f"{name}={path}")]
    running = Server(tmp_path_factory.mktemp("web") / "tables.db", extra=[*NO_RATE_LIMITS, *registrations])
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(policy_server: Server) -> Iterator[httpx.Client]:
    with policy_server.client() as client:
        yield client


def test_the_catalogue_offers_each_registered_policy_for_its_game_and_player_count(api: httpx.Client) -> None:
    games = {game["id"]: game for game in api.get("/api/games").json()}
    assert games["cinecitta"]["policies"] == [
        {"bot": "policy:ppo-cinecitta", "label": "Policy: ppo-cinecitta", "players": 3, "note": "untrained"}
    ]
    assert games["maybe-movies"]["policies"] == [
        {"bot": "policy:ppo-maybe", "label": "Policy: ppo-maybe", "players": 4, "note": "untrained"}
    ]
    assert games["movie-empire"]["policies"] == []
    assert api.get("/api/games/cinecitta").json()["policies"] == games["cinecitta"]["policies"]
    assert "policy:ppo-cinecitta" not in games["cinecitta"]["bots"]  # the levels stay the levels


@pytest.mark.parametrize(
    ("game", "players", "bot", "words"),
    [
        (
            "cinecitta",
            4,
            "policy:ppo-cinecitta",
            "seat 1: the policy 'ppo-cinecitta' plays cinecitta, 3 players, not cinecitta at 4 players",
        ),
        ("cinecitta", 3, "policy:ppo-maybe", "seat 1: the policy 'ppo-maybe' plays maybe-movies, 4 players, not cinecitta at 3 players"),
        ("cinecitta", 3, "policy:ppo", "seat 1: no policy named 'ppo' is registered on this server"),
        ("cinecitta", 3, "policy:module.path:factory", "seat 1: no policy named 'module.path:factory' is registered on this server"),
    ],
)
def test_a_policy_the_operator_did_not_register_for_this_table_is_refused(
    api: httpx.Client, game: str, players: int, bot: str, words: str
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}, *([{"kind": "bot", "bot": "random"}] * (players - 2))]
    response = api.post("/api/tables", json={"game": game, "seats": seats})
    assert (response.status_code, response.json()["detail"]) == (400, words)


def test_a_file_path_is_never_accepted_not_even_a_registered_file(api: httpx.Client, files: dict[str, Path]) -> None:
    registered_file = f"policy:{files['ppo-cinecitta'].relative_to(files['ppo-cinecitta'].parents[1])}"  # short enough to be read
    for bot in (registered_file, "policy:/etc/passwd", "policy:../policies/x.pt"):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}, {"kind": "bot", "bot": "random"}]
        response = api.post("/api/tables", json={"game": "cinecitta", "seats": seats})
        name = bot.removeprefix("policy:")
        assert (response.status_code, response.json()["detail"]) == (400, f"seat 1: no policy named {name!r} is registered on this server")


def test_a_policy_seat_plays_its_own_greedy_moves_to_the_end(api: httpx.Client, files: dict[str, Path]) -> None:
    """Every move of the policy's seat in the finished record is the one the greedy policy chooses from that seat's
    view: the server played the registered file (not a fallback random move)."""
    seats = [{"kind": "bot", "bot": "policy:ppo-cinecitta"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "random"}]
    table = create_table(api, "cinecitta", seats)
    table_id = table["table"]["id"]
    assert [seat["bot"] for seat in table["seats"]] == ["policy:ppo-cinecitta", "medium", "random"]
    wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots' game to end")
    record = Record.from_json(api.get(f"/api/tables/{table_id}/record").json())
    game = get_game("cinecitta")
    policy = PolicyBot(load_policy(files["ppo-cinecitta"], game=game, players=3))
    match = Match.start(game, record.num_players, record.seed, record.options)
    policy_moves = 0
    for seat, text in record.actions:
        if seat == 0:
            assert str(policy.choose(SeatView(game, match.state, 0))) == text
            policy_moves += 1
        match.play(seat, text)
    assert policy_moves >= 16


def test_serve_refuses_to_start_with_a_bad_registration(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["serve", "--db", str(tmp_path / "t.db"), "--policy", f"ppo={tmp_path}/none.pt"])
    assert missing.exit_code == 2
    assert f"policy file {tmp_path}/none.pt does not exist" in " ".join(missing.output.split())
    named = runner.invoke(app, ["serve", "--db", str(tmp_path / "t.db"), "--policy", "../ppo=x.pt"])
    assert named.exit_code == 2
    assert "a policy's name is 1 to 33 letters" in " ".join(named.output.split())
    assert not (tmp_path / "t.db").exists()  # refused before anything was made


def test_the_lab_seats_no_policy_not_even_a_registered_one(api: httpx.Client, files: dict[str, Path]) -> None:
    """The lab accepts a quick bot's name without further checks; a policy name is not one of those."""
    for bot in ("policy:ppo-cinecitta", f"policy:{files['ppo-cinecitta']}", "policy:os:system"):
        body = {"game": "cinecitta", "players": 3, "bots": [bot], "games": 4, "seed": 1}
        response = api.post("/api/lab/studies", json=body)
        assert response.status_code == 400 and response.json()["detail"].startswith("the lab seats only these bots"), response.text


def test_worker_processes_get_the_same_registrations() -> None:
    """``serve --workers N`` starts N servers with the supervisor's options spelled out: the policies among them."""
    from greenlight.cli.serve import read_policies, worker_options
    from greenlight.web.limits import ServerSettings

    settings = ServerSettings(policies=(("ppo", "/srv/ppo.pt"), ("other", "/srv/other.pt")))
    options = worker_options(settings, [], None, "warning", "text")
    assert [options[index + 1] for index, item in enumerate(options) if item == "--policy"] == ["ppo=/srv/ppo.pt", "other=/srv/other.pt"]
    assert read_policies([]) == ()
