"""Maybe Movies in the browser speaks words: no card code alone and nothing that reads like code, at the start, in the
middle and at the end of a game, for a seat and for a spectator (Debian's Chromium through Playwright, real server).

Screenshots (1366x900 and 390x844) go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from greenlight.core.words import Component
from tests.web.conftest import (
    BROWSER_TESTS,
    Server,
    check_table_words,
    choose_by_menu,
    create_table,
    open_table,
    screenshot,
    wait_for_turn,
)

pytest.importorskip("playwright.sync_api")

pytestmark = BROWSER_TESTS

#: The selector of the drawn board: the page is ready when it is there.
BOARD = ".mm-board"

ALL_OPTIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def test_the_table_page_shows_words_not_codes_for_a_seat_and_a_spectator(browser: Any, server: Server) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "medium", "name": name} for name in ("Bob", "Cy", "Di")]
    answer = create_table(server.client(), "maybe-movies", seats, seed=4, options=ALL_OPTIONS)
    table_id = answer["table"]["id"]
    with server.client() as api:
        components = [Component(**item) for item in api.get(f"/api/tables/{table_id}/components").json()]
    assert {component.kind for component in components} == {"vote card", "CHANGE card", "movie card", "blockbuster card"}
    pages = {
        "seat-wide": open_table(browser, answer["seats"][0]["link"], BOARD),
        "seat-phone": open_table(browser, answer["seats"][0]["link"], BOARD, phone=True),
        "spectator-wide": open_table(browser, answer["spectator_link"], BOARD),
        "spectator-phone": open_table(browser, answer["spectator_link"], BOARD, phone=True),
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
                check_table_words(page, components, f"{moments[moves]}, {who}", BOARD)
            for who, page in pages.items():
                screenshot(page, f"maybe-movies-words-{moments[moves]}-{who}")
        actions = list(seat.evaluate("Greenlight.tablePage.view.legal_actions"))
        choose_by_menu(seat, rng.choice(actions))
        moves += 1
        assert moves < 400
    for who, page in pages.items():
        if who != "seat-wide":
            page.reload()
            page.wait_for_selector("#final-scores")
        check_table_words(page, components, f"end, {who}", BOARD)
    for who, page in pages.items():
        screenshot(page, f"maybe-movies-words-end-{who}")
    for who, page in pages.items():
        assert not page.errors, f"JavaScript errors on {who}: {page.errors}"
        page.context.close()
