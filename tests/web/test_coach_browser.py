"""In chromium: a table set up from an uploaded position, a hint at the table, a review of the finished game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import BROWSER_TESTS, NO_RATE_LIMITS, Server, new_page, screenshot, wait_until

pytest.importorskip("playwright.sync_api")

pytestmark = BROWSER_TESTS

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "positions" / "cinecitta.json"


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    extra = [*NO_RATE_LIMITS, "--limit", "hint_seconds=0.3", "--limit", "review_seconds=0.05", "--bot-workers", "1"]
    running = Server(tmp_path_factory.mktemp("coach-browser") / "tables.db", extra=extra)
    running.start()
    yield running
    running.stop()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_person_uploads_a_position_asks_a_hint_plays_it_and_reviews_the_game(browser: Any, coach_server: Server, phone: bool) -> None:
    page = new_page(browser, phone=phone)
    page.goto(coach_server.url)
    page.wait_for_selector("#game-choices input")
    page.click("#position-fieldset summary")
    page.set_input_files("#position-file", str(EXAMPLE))
    note = page.wait_for_selector("#position-note:not([hidden])")
    assert "You know every hidden card in it" in note.inner_text()
    assert page.is_disabled("#player-count") and page.input_value("#player-count") == "3"
    page.click("#create-button")
    page.wait_for_selector(".seat-link")
    assert "This table starts from your position" in page.inner_text("#created")
    page.goto(page.get_attribute(".seat-link", "href"))
    page.wait_for_selector(".notice")
    assert "set up from a position: its creator knows every hidden card" in page.inner_text("#status")
    tag = "phone" if phone else "desktop"
    while page.query_selector(".hint-button") is None or page.is_disabled(".hint-button"):
        page.wait_for_timeout(100)
    page.click(".hint-button")
    page.wait_for_selector(".hint-moves li")
    moves = page.query_selector_all(".hint-moves li")
    assert len(moves) == 3 and all("wins about" in move.inner_text() and "Offer" in move.inner_text() for move in moves)
    screenshot(page, f"hint-{tag}", full_page=False)
    # Play the suggested moves to the end: the hint's buttons are moves.
    for _ in range(30):
        if page.get_attribute("body", "data-over") == "yes":
            break
        hint = page.query_selector(".hint-moves .hint-move")
        button = hint or page.query_selector("#controls .choice.final")
        if button is None:
            page.wait_for_timeout(100)
            continue
        button.click()
        page.wait_for_timeout(150)
        if (
            page.query_selector(".hint-button")
            and not page.query_selector(".hint-moves")
            and page.get_attribute("body", "data-over") != "yes"
        ):
            page.click(".hint-button")
            page.wait_for_selector(".hint-moves li, body[data-over='yes']")
    wait_until(lambda: page.get_attribute("body", "data-over") == "yes", timeout=60, what="the end of the game")
    page.click(".review-list li[data-seat='0'] .review-button")
    page.wait_for_selector(".review-list li[data-seat='0'] .review-link", timeout=60000)
    screenshot(page, f"review-offer-{tag}", full_page=False)
    page.click(".review-list li[data-seat='0'] .review-link")
    page.wait_for_selector("svg")
    assert "Review of Player 1 in Cinecitta 1937" in page.inner_text("h1")
    screenshot(page, f"review-page-{tag}", full_page=False)
    assert not page.errors
    table_id = page.url.split("/tables/")[1].split("/")[0]
    stored = httpx.get(f"{coach_server.url}/api/tables/{table_id}/reviews/0").json()
    assert stored["status"] == "done" and stored["review"]["seat_name"] == "Player 1"


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "positions").glob("*.json"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_each_documented_example_position_is_drawn_at_the_table_and_plays_to_the_end(
    browser: Any, coach_server: Server, example: Path
) -> None:
    import json

    data = json.loads(example.read_text())
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (data["num_players"] - 1)
    created = httpx.post(f"{coach_server.url}/api/tables", json={"game": data["game"], "seats": seats, "position": data}).json()
    page = new_page(browser)
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector("#board *")
    assert "set up from a position" in page.inner_text("#status")
    screenshot(page, f"position-{example.stem}", full_page=False)
    assert not page.errors
    table_id = created["table"]["id"]
    host = httpx.Client(base_url=coach_server.url)
    host.post(f"/api/tables/{table_id}/seats/0/bot", json={"bot": "random"}, headers={"Authorization": f"Bearer {created['host_token']}"})
    # The person's seat goes to a bot: the game from the position plays to its end.
    wait_until(lambda: host.get(f"/api/tables/{table_id}").json()["status"] == "finished", timeout=60, what="the bots to finish")
