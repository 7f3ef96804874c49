"""Cinecitta 1937 on the table page speaks the player's language: no card code standing alone, nothing that reads like code.

A person plays a whole 4-player game (both variants) against bots in Debian's Chromium, against the real server;
at the start, in the middle and at the end, the visible text of the page, as that seat and as a spectator, is
checked with ``greenlight.core.words``. Screenshots at 1366x900 and 390x844 go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
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
BOARD = ".cc-board"

SEATS = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "bot": "medium"},
    {"kind": "bot", "bot": "medium"},
    {"kind": "bot", "bot": "random"},
]


def test_the_table_page_names_every_card_and_explains_every_figure(browser: Any, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as api:
        created = create_table(api, "cinecitta", SEATS, seed=12, options={"destination_change": True, "movie_awards": True})
        table_id = created["table"]["id"]
        components = [Component(**item) for item in api.get(f"/api/tables/{table_id}/components").json()]
    assert {component.id for component in components} >= {"D2", "P9", "golden-doggy"}
    seat_link = created["seats"][0]["link"]
    spectator_link = created["spectator_link"]
    me = open_table(browser, seat_link, BOARD)
    watcher = open_table(browser, spectator_link, BOARD)

    # The start: the hand in words, the forecast, the partners, the step help.
    wait_for_turn(me)
    start = check_table_words(me, components, "seat, start", BOARD)
    assert "your hand" in start.lower() and "Promotion 1, 3 reels, pen" in start and "Your Studio needs 3 more cards" in start
    names = [seat["name"] for seat in me.evaluate("Greenlight.tablePage.view.table.seats")]
    assert f"This round you send your folder to {names[1]} and receive one from {names[3]}." in start
    assert "Reading a card:" in start  # the step help
    check_table_words(watcher, components, "spectator, start", BOARD)
    screenshot(me, "cinecitta-words-start-wide")
    phone = open_table(browser, seat_link, BOARD, phone=True)
    wait_for_turn(phone)
    check_table_words(phone, components, "seat on a phone, start", BOARD)
    screenshot(phone, "cinecitta-words-start-phone")
    phone.context.close()

    rng = random.Random(4)
    middle_seen = False
    warnings: list[str] = []
    while wait_for_turn(me):
        view = me.evaluate("Greenlight.tablePage.view")
        observation = view["observation"]
        # The words of every choice come from the game (the buttons show them).
        assert len(view["action_words"]) == len(view["legal_actions"])
        if not middle_seen and observation["round"] == 4 and observation["step"] == "respond":
            middle_seen = True
            middle = check_table_words(me, components, "seat, middle", BOARD)
            assert "Folder from " in middle and "Secure" in middle
            check_table_words(watcher, components, "spectator, middle", BOARD)
            screenshot(me, "cinecitta-words-middle-wide")
            screenshot(watcher, "cinecitta-words-middle-spectator")
            phone = open_table(browser, seat_link, BOARD, phone=True)
            wait_for_turn(phone)
            check_table_words(phone, components, "seat on a phone, middle", BOARD)
            screenshot(phone, "cinecitta-words-middle-phone")
            phone.context.close()
        warning = choose_by_menu(me, rng.choice(view["legal_actions"]))
        if warning:
            warnings.append(warning)
    assert middle_seen
    assert all("drop out" in warning for warning in warnings)

    end = check_table_words(me, components, "seat, end", BOARD)
    assert "how each movie scored" in end.lower() and "Winner: " in end
    watcher.wait_for_selector("#final-scores")
    check_table_words(watcher, components, "spectator, end", BOARD)
    screenshot(me, "cinecitta-words-end-wide")
    screenshot(watcher, "cinecitta-words-end-spectator")
    phone = open_table(browser, seat_link, BOARD, phone=True)
    phone.wait_for_selector("#final-scores")
    check_table_words(phone, components, "seat on a phone, end", BOARD)
    screenshot(phone, "cinecitta-words-end-phone")
    for page in (phone, me, watcher):
        page.context.close()
