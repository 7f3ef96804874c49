"""A game from outside the project, pip-installed into a fresh virtual environment, is in every interface.

``examples/opening-weekend`` is installed (a real ``pip install`` with build
isolation, as its README says) into a new virtual environment that sees this
project's installed packages but not the example's source. Nothing of
Greenlight is edited: the game's entry point alone puts it in the CLI, the
conformance harness, the bots, the simulator, the RL environments and the web
lobby and tables.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "opening-weekend"


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interpreter of a fresh venv with the example installed and this project's packages visible.

    Built once per test run: under pytest-xdist the workers' temporary folders share a parent, and the first worker
    to need the venv builds it there under a lock while the others wait for it (a build is a real pip install).
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    venv = shared / "plugin-venv"
    with open(shared / "plugin-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (venv / "built").exists():
            _build_venv(venv)
            (venv / "built").touch()
    return venv / "bin" / "python"


def _build_venv(venv: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)], check=True)
    interpreter = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(interpreter), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True
    ).stdout.strip()
    # addsitedir (not a bare path) so the project's own .pth files, its editable install among them, are read too.
    Path(purelib, "greenlight-project.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    installed = subprocess.run(
        [str(interpreter), "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check", str(EXAMPLE)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]


def run(python: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the venv's python with ``args`` outside the source tree (so only the installed copy can be imported)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([str(python), *args], capture_output=True, text=True, timeout=timeout, cwd=python.parent, env=env)


def test_the_cli_lists_the_installed_game_and_it_comes_from_the_venv(python: Path) -> None:
    listed = run(python, "-m", "greenlight.cli.main", "games")
    assert listed.returncode == 0, listed.stderr
    assert "Opening Weekend  (greenlight play opening-weekend), 2-4 players" in listed.stdout
    assert "sneak_previews" in listed.stdout
    where = run(python, "-c", "import opening_weekend; print(opening_weekend.__file__)")
    assert where.returncode == 0 and str(EXAMPLE) not in where.stdout, where.stdout + where.stderr
    # ...and the project's own environment knows nothing of it: the plugin lives only where it was installed.
    assert (
        "opening-weekend"
        not in subprocess.run([sys.executable, "-m", "greenlight.cli.main", "games"], capture_output=True, text=True).stdout
    )


def test_the_plugin_passes_the_conformance_harness(python: Path) -> None:
    tested = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(EXAMPLE), str(EXAMPLE / "tests"), timeout=600)
    assert tested.returncode == 0, tested.stdout[-4000:] + tested.stderr[-2000:]
    assert " passed" in tested.stdout and "failed" not in tested.stdout


def test_the_rules_and_a_whole_terminal_game_with_bots(python: Path) -> None:
    rules = run(python, "-m", "greenlight.cli.main", "rules", "opening-weekend", "--plain")
    assert rules.returncode == 0 and "# Opening Weekend" in rules.stdout
    bots = [arg for _ in range(3) for arg in ("--seat", "bot:medium")]
    played = run(python, "-m", "greenlight.cli.main", "play", "opening-weekend", "-n", "3", *bots, "--seed", "4", "-o", "flops")
    assert played.returncode == 0, played.stderr
    assert "Winner" in played.stdout or "Winners" in played.stdout
    assert "wins it and scores" in played.stdout  # the game's own log words


def test_every_bot_level_plays_it_in_the_arena(python: Path) -> None:
    arena = run(
        python, "-m", "greenlight.cli.main", "arena", "opening-weekend", "-n", "2", "-b", "hard", "-b", "random", "-g", "6", "--json"
    )
    assert arena.returncode == 0, arena.stderr
    report = json.loads(arena.stdout)
    assert report["games"] == 6


def test_the_simulator_reports_the_games_own_statistics(python: Path, tmp_path: Path) -> None:
    out = tmp_path / "study"
    simulated = run(
        python, "-m", "greenlight.cli.main", "simulate", "opening-weekend", "-n", "3", "--games", "30", "--out", str(out), "--workers", "1"
    )
    assert simulated.returncode == 0, simulated.stderr
    summary = (out / "summary.json").read_text()
    assert "weekends_won" in summary and "winning_buzz" in summary


def test_the_rl_environments_take_it(python: Path) -> None:
    script = (
        "from pettingzoo.test import api_test\n"
        "from greenlight.rl import gym_env, pettingzoo_env\n"
        "api_test(pettingzoo_env('opening-weekend', 3, seed=1), num_cycles=40)\n"
        "env = gym_env('opening-weekend', seat=0, opponents=['random'])\n"
        "observation, info = env.reset(seed=3)\n"
        "print('vector', len(observation['observation']) if isinstance(observation, dict) else len(observation))\n"
    )
    checked = run(python, "-c", script)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-3000:]
    assert "vector 0" not in checked.stdout and "vector" in checked.stdout


@pytest.fixture
def server(python: Path, tmp_path: Path) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    command = [str(python), "-m", "greenlight.cli.main", "serve", "--port", str(port), "--db", str(tmp_path / "t.db"), "--bot-delay", "0"]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server in the plugin venv did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_web_lobby_offers_it_and_bots_play_a_table_to_the_end(server: str) -> None:
    games = {game["id"]: game for game in httpx.get(f"{server}/api/games").json()}
    assert games["opening-weekend"]["title"] == "Opening Weekend"
    lobby = httpx.get(f"{server}/")
    assert lobby.status_code == 200
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "opening-weekend", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "medium"}]},
    ).json()
    token = created["seats"][0]["token"]
    table = created["table"]["id"]
    headers = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{server}/tables/{table}").status_code == 200  # the table page (the generic drawing, the game's words)
    for _ in range(5):
        view = httpx.get(f"{server}/api/tables/{table}/view", headers=headers).json()
        assert view["action_words"] and all(words.startswith("Release with Buzz ") for words in view["action_words"])
        answer = httpx.post(f"{server}/api/tables/{table}/actions", json={"action": view["legal_actions"][0]}, headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            view = httpx.get(f"{server}/api/tables/{table}/view", headers=headers).json()
            if view["outcome"] is not None or (view["legal_actions"] and view["observation"]["my_release"] is None):
                break
            time.sleep(0.1)
    assert view["outcome"] is not None
    assert any("wins it and scores" in line for line in view["log"])


def test_the_plugins_own_table_drawing_is_played_in_a_browser(server: str, tmp_path: Path) -> None:
    """The game's web/table.js is served from its package and a person plays a round by clicking a card."""
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

    script = httpx.get(f"{server}/games/opening-weekend/web/table.js")
    assert script.status_code == 200 and 'G.registerRenderer("opening-weekend"' in script.text
    created = httpx.post(
        f"{server}/api/tables",
        json={"game": "opening-weekend", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "medium"}]},
    ).json()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page(viewport={"width": 1366, "height": 900})
        page.goto(created["seats"][0]["link"])
        page.wait_for_selector(".ow-stake .ow-weekend")
        at_stake = page.inner_text(".ow-stake .ow-weekend-name")
        first = page.locator(".ow-dock .ow-buzz.playable").first
        number = first.inner_text().split()[0]
        first.click()
        page.wait_for_selector(f".ow-seat.mine .ow-buzz.played:has-text('{number}')", timeout=15_000)
        page.screenshot(path=str(tmp_path / "opening-weekend-desktop.png"))
        log = page.inner_text("body")
        chromium.close()
    assert f"{at_stake}:" in log and f"Buzz {number}" in log
