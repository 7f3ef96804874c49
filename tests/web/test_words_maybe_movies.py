"""Maybe Movies in the browser speaks words: no card code alone and nothing that reads like code, at the start, in the
middle and at the end of a game, for a seat and for a spectator (Debian's Chromium through Playwright, real server).

Screenshots (1366x900 and 390x844) go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.words import Component, bare_codes, jargon
from tests.web.conftest import CHROMIUM, SCREENSHOTS, Server, choose_by_menu, create_table, wait_for_turn

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"),
]

SIZES = {"wide": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
ALL_OPTIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def open_page(browser: Any, url: str, size: str) -> Any:
    context = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector(".mm-board")
    return page


def check_words(page: Any, components: list[Component], where: str) -> None:
    page.wait_for_selector(".mm-board")
    text = page.inner_text("main")
    assert not bare_codes(text, components), f"{where}: bare card codes {bare_codes(text, components)}"
    assert not jargon(text), f"{where}: reads like code: {jargon(text)}"


def shoot(pages: dict[str, Any], moment: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for who, page in pages.items():
        page.screenshot(path=str(SCREENSHOTS / f"maybe-movies-words-{moment}-{who}.png"), full_page=True)


def test_the_table_page_shows_words_not_codes_for_a_seat_and_a_spectator(browser: Any, server: Server) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "medium", "name": name} for name in ("Bob", "Cy", "Di")]
    answer = create_table(server.client(), "maybe-movies", seats, seed=4, options=ALL_OPTIONS)
    table_id = answer["table"]["id"]
    with server.client() as api:
        components = [Component(**item) for item in api.get(f"/api/tables/{table_id}/components").json()]
    assert {component.kind for component in components} == {"vote card", "CHANGE card", "movie card", "blockbuster card"}
    pages = {
        "seat-wide": open_page(browser, answer["seats"][0]["link"], "wide"),
        "seat-phone": open_page(browser, answer["seats"][0]["link"], "phone"),
        "spectator-wide": open_page(browser, answer["spectator_link"], "wide"),
        "spectator-phone": open_page(browser, answer["spectator_link"], "phone"),
    }
    seat = pages["seat-wide"]
    rng = random.Random(3)
    moves = 0
    moments = {0: "start", 12: "middle"}
    while wait_for_turn(seat):
        if moves in moments:
            for who, page in pages.items():
                if who != "seat-wide":
                    page.reload()
                check_words(page, components, f"{moments[moves]}, {who}")
            shoot(pages, moments[moves])
        actions = list(seat.evaluate("Greenlight.tablePage.view.legal_actions"))
        choose_by_menu(seat, rng.choice(actions))
        moves += 1
        assert moves < 400
    for who, page in pages.items():
        if who != "seat-wide":
            page.reload()
            page.wait_for_selector("#final-scores")
        check_words(page, components, f"end, {who}")
    shoot(pages, "end")
    for who, page in pages.items():
        assert not page.errors, f"JavaScript errors on {who}: {page.errors}"
        page.context.close()
