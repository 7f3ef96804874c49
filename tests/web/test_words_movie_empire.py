"""Movie Empire on the table page speaks the player's language: no card or space code standing alone, nothing that reads like code.

A person plays a whole 3-player game against bots in Debian's Chromium, against the real server: the first
moves and the moves at the checkpoints by clicking (warned moves confirmed), the others through the HTTP API
to keep the test short. At the start, in the middle and at the end, the visible text of the page, as that seat
and as a spectator, is checked with ``greenlight.core.words``. Screenshots at 1366x900 and 390x844 go to
``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from greenlight.core.words import Component
from tests.web.conftest import (
    BROWSER_TESTS,
    Server,
    bearer,
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
BOARD = ".me-board"

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "medium"}]


def play_by_clicking(page: Any, target: str) -> str | None:
    """Click through to ``target`` as a person would (confirming a warned move) and wait for the next view."""
    version = page.evaluate("Greenlight.tablePage.view.version")
    warning = choose_by_menu(page, target)
    page.wait_for_function(f"Greenlight.tablePage.view.version > {version}", timeout=30_000)
    return warning


def pick(rng: random.Random, actions: list[str]) -> str:
    """A random legal action that keeps the game lively: producing and placing before passing or discarding more."""
    preferred = [action for action in actions if action.split()[0] in ("produce", "lay", "script", "star", "stack", "market", "keep")]
    if preferred and rng.random() < 0.8:
        return rng.choice(preferred)
    useful = [action for action in actions if action not in ("pass", "stop") and not action.startswith("discard")]
    if "stop" in actions:
        return "stop"
    return rng.choice(useful or actions)


def seat_view(api: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    """The seat's view once it owes a move or the game is over (bots move on the server meanwhile)."""
    deadline = time.monotonic() + 60
    while True:
        view = dict(api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json())
        if view["legal_actions"] or view["outcome"]:
            return view
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.05)


def test_the_table_page_words_every_card_space_and_score(browser: Any, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as api:
        created = create_table(api, "movie-empire", SEATS, seed=21)
        table_id = created["table"]["id"]
        token = created["seats"][0]["token"]
        components = [Component(**item) for item in api.get(f"/api/tables/{table_id}/components").json()]
        assert {component.id for component in components} >= {"PY03", "SA09", "TR01", "AP07", "RL1", "EUR"}
        seat_link, spectator_link = created["seats"][0]["link"], created["spectator_link"]
        me = open_table(browser, seat_link, BOARD)
        watcher = open_table(browser, spectator_link, BOARD)

        # The start: the three scripts dealt are shown in words, and each keep choice says what it keeps.
        wait_for_turn(me)
        start = check_table_words(me, components, "seat, start", BOARD)
        view = me.evaluate("Greenlight.tablePage.view")
        dealt = view["observation"]["dealt"]
        assert len(dealt) == 3 and "scripts dealt to you: keep 1, the others go back" in start.lower()
        names = {component.id: component.name for component in components}
        for script in dealt:
            assert names[script] in start
        # A button reads its shortcut key (a <kbd>, hidden from screen readers) and then its words.
        labels = me.locator("#controls button.choice").evaluate_all(
            "buttons => buttons.map(b => [...b.childNodes].filter(n => n.nodeName !== 'KBD').map(n => n.textContent).join(''))"
        )
        assert labels == view["action_words"] and all(label.startswith("Keep ") for label in labels)
        check_table_words(watcher, components, "spectator, start", BOARD)
        screenshot(me, "movie-empire-words-start-wide")
        phone = open_table(browser, seat_link, BOARD, phone=True)
        wait_for_turn(phone)
        check_table_words(phone, components, "seat on a phone, start", BOARD)
        screenshot(phone, "movie-empire-words-start-phone")
        phone.context.close()

        rng = random.Random(4)
        clicks = 0
        warnings: list[str] = []
        middle_seen = False
        while True:
            view = seat_view(api, table_id, token)
            if view["outcome"]:
                break
            observation = view["observation"]
            assert len(view["action_words"]) == len(view["legal_actions"])
            target = pick(rng, view["legal_actions"])
            lines = [line for line in observation["players"][0]["lines"] if line is not None]
            if not middle_seen and observation["round"] >= 5 and lines and view["decision"]["kind"] == "turn":
                middle_seen = True
                wait_for_turn(me)
                middle = check_table_words(me, components, "seat, middle", BOARD)
                assert "Premiere now: " in middle or "; once released: " in middle
                assert "Script " in middle and "your hand" in middle.lower()
                check_table_words(watcher, components, "spectator, middle", BOARD)
                screenshot(me, "movie-empire-words-middle-wide")
                screenshot(watcher, "movie-empire-words-middle-spectator")
                phone = open_table(browser, seat_link, BOARD, phone=True)
                wait_for_turn(phone)
                check_table_words(phone, components, "seat on a phone, middle", BOARD)
                screenshot(phone, "movie-empire-words-middle-phone")
                phone.context.close()
            if clicks < 12 or (middle_seen and clicks < 30) or target in view["action_warnings"]:
                wait_for_turn(me)
                me.wait_for_function(f"Greenlight.tablePage.view.version >= {view['version']}")
                warning = play_by_clicking(me, target)
                if target in view["action_warnings"]:
                    assert warning == view["action_warnings"][target]
                    assert warning is not None  # the text the page showed
                    warnings.append(warning)
                clicks += 1
            else:
                answer = api.post(f"/api/tables/{table_id}/actions", json={"action": target}, headers=bearer(token))
                assert answer.status_code == 200, answer.text
        assert middle_seen and clicks >= 12

        # The end: the final scores in words, category by category, for the seat and the spectator.
        me.wait_for_selector("#final-scores")
        watcher.wait_for_selector("#final-scores")
        end = check_table_words(me, components, "seat, end", BOARD)
        assert "final scores in detail" in end.lower() and "King of the world: the USA, Europe and China (5)" in end
        check_table_words(watcher, components, "spectator, end", BOARD)
        screenshot(me, "movie-empire-words-end-wide")
        screenshot(watcher, "movie-empire-words-end-spectator")
        phone = open_table(browser, seat_link, BOARD, phone=True)
        phone.wait_for_selector("#final-scores")
        check_table_words(phone, components, "seat on a phone, end", BOARD)
        screenshot(phone, "movie-empire-words-end-phone")
        phone.context.close()
    assert warnings, "no warned move was confirmed in the game"
