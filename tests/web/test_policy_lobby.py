"""In the lobby (Debian's Chromium through Playwright, against the real server), a person seats the operator's trained
policy as an opponent, starts the table and plays; the policy's seat makes its own moves."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("torch")  # the train extra


from greenlight.bots.policy import PolicyBot
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.rl.policy_file import load_policy
from tests.web.conftest import BROWSER_TESTS, NO_RATE_LIMITS, Server, choose_by_menu, new_page, screenshot, wait_for_turn

pytestmark = BROWSER_TESTS

#: Clicks the person makes at most before the test gives up (a Cinecitta game at 3 players takes 24).
MAX_CLICKS = 100


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A policy trained by the example (examples/train_ppo.py: two PPO updates against random bots) and saved by it."""
    spec = importlib.util.spec_from_file_location("train_ppo", Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # dataclasses look their module up while the class is built
    spec.loader.exec_module(example)
    config = example.Config(game="cinecitta", players=3, envs=2, rollout=32, minibatches=2, epochs=1, hidden=32, seed=5)
    result = example.run(random_updates=2, medium_updates=0, eval_games=0, config=config, log=False)
    path = tmp_path_factory.mktemp("policies") / "cinecitta-3.pt"
    example.save(result.agent, str(path), config, note="PPO, 2 updates")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, policy_file: Path) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "tables.db", extra=[*NO_RATE_LIMITS, "--policy", f"ppo-cinecitta={policy_file}"])
    running.start()
    yield running
    running.stop()


def seat_choices(page: Any, seat: int) -> list[str]:
    return list(page.locator(f'#seat-list li[data-seat="{seat}"] select.seat-kind option').all_inner_texts())


def test_a_person_picks_the_policy_as_an_opponent_and_it_plays_its_turns(browser: Any, server: Server, policy_file: Path) -> None:
    page = new_page(browser)
    page.goto(f"{server.url}/")
    page.click('.game-choice[data-game="cinecitta"]')
    # Offered only at the player count it was trained for.
    page.select_option("#player-count", "4")
    assert not [text for text in seat_choices(page, 1) if text.startswith("Policy")]
    page.select_option("#player-count", "3")
    assert "Policy: ppo-cinecitta (3 players, PPO, 2 updates)" in seat_choices(page, 1)
    page.fill('#seat-list li[data-seat="0"] input.seat-name', "Ada")
    page.select_option('#seat-list li[data-seat="1"] select.seat-kind', "bot:policy:ppo-cinecitta")
    page.select_option('#seat-list li[data-seat="2"] select.seat-kind', "bot:medium")
    page.click("#create-button")
    page.wait_for_selector('.invite-links li[data-seat="0"] a.seat-link')
    screenshot(page, "policy-lobby")
    # The lobby's list names the policy's seat in words, not by its level's code.
    listed = page.locator("#table-lists").inner_text()
    assert "Bot 2 (policy ppo-cinecitta)" in listed and "policy:" not in listed, listed
    page.click('.invite-links li[data-seat="0"] a.seat-link')
    page.wait_for_selector("#seats .seat")
    chip = page.locator('#seats .seat[data-seat="1"]').inner_text()
    assert "Bot 2 (policy ppo-cinecitta)" in chip and "bot, policy ppo-cinecitta" in chip and "policy:" not in chip, chip

    rng = random.Random(4)
    clicks = 0
    while wait_for_turn(page):
        choose_by_menu(page, rng.choice(list(page.evaluate("Greenlight.tablePage.view.legal_actions"))))
        clicks += 1
        assert clicks < MAX_CLICKS
    assert page.locator("#final-scores table.scores tbody tr").count() == 3
    assert not page.errors, f"JavaScript errors on the page: {page.errors}"

    # The game went past every one of the policy seat's turns, each move the greedy policy's own from that seat's view.
    # Every step is simultaneous: the bot chooses as soon as the step opens, and a person's commitment stored while it
    # thinks comes first in the record, so the bot may have seen the step before that commitment (its seat sees who
    # has committed). Each move must be the greedy choice from one of the states since the step opened.
    table_id = page.url.split("/tables/")[1].split("#")[0]
    with server.client() as client:
        record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    game = get_game("cinecitta")
    policy = PolicyBot(load_policy(policy_file, game=game, players=3))
    match = Match.start(game, record.num_players, record.seed, record.options)
    policy_moves = 0
    seen: list[Any] = []  # the states since the current step opened, while the policy's seat owes it
    for seat, text in record.actions:
        seen = [*seen, match.state.clone()] if 1 in match.decision().players else []
        if seat == 1:
            assert text in {str(policy.choose(SeatView(game, state, 1))) for state in seen}
            policy_moves += 1
            seen = []
        match.play(seat, text)
    assert policy_moves == 24  # eight rounds of offer, respond and place, as every seat
    page.context.close()
