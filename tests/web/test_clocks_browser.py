"""Clocks, paces and "my tables" in chromium, at desktop and phone sizes: what a person sees (screenshots, axe-core),
the lobby's pace choice, and the service worker's push flow as far as it runs without the internet (it registers at
the root, a push delivered to it shows a notification; subscribing needs the browser's own push service)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import (
    BROWSER_TESTS,
    EVERY_IMPACT,
    NO_RATE_LIMITS,
    Server,
    axe_violations,
    bearer,
    create_table,
    horizontal_overflow,
    new_page,
    screenshot,
    wait_until,
)

pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def pace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    extra = [*NO_RATE_LIMITS, "--smtp", "smtp://127.0.0.1:9?tls=none", "--smtp-from", "Greenlight <games@example.org>"]
    running = Server(tmp_path_factory.mktemp("pace-browser") / "tables.db", extra=extra)
    running.start()
    yield running
    running.stop()


def first_legal(api: Any, table_id: str, token: str) -> str:
    return str(api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()["legal_actions"][0])


def test_live_clocks_count_down_on_the_table_page_at_both_sizes(pace_server: Server, browser: Any) -> None:
    with pace_server.client() as api:
        pace = {"kind": "live", "bank_seconds": 600, "increment_seconds": 20, "bot": "medium"}
        created = create_table(api, "cinecitta", [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")], pace=pace)
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        bob = first_legal(api, table_id, tokens[1])
        assert api.post(f"/api/tables/{table_id}/actions", json={"action": bob}, headers=bearer(tokens[1])).status_code == 200
        for phone, name in ((False, "clocks-desktop"), (True, "clocks-phone")):
            page = new_page(browser, phone=phone)
            page.goto(created["seats"][0]["link"])
            page.wait_for_selector("#seats li.seat .seat-clock")
            page.wait_for_function("document.querySelectorAll('#seats .seat-clock').length === 3")
            line = page.inner_text("#pace-line")
            assert "Live: 10 min each, plus 20 s per decision" in line
            assert "At zero a bot (medium) makes that one decision; the seat stays the player's." in line
            clocks = page.locator("#seats .seat-clock")
            ann_first = clocks.nth(0).inner_text()
            assert re.fullmatch(r"([89]:\d\d|10:00)", ann_first), ann_first  # running since the table was made
            assert clocks.nth(0).get_attribute("data-running") == "yes"
            assert clocks.nth(1).get_attribute("data-running") == "no"  # Bob has made his offer: his clock stands
            assert re.fullmatch(r"(10:[01]\d|10:20)", clocks.nth(1).inner_text())  # and gained his 20 s
            page.wait_for_function(f"document.querySelector('#seats .seat-clock').textContent !== {json.dumps(ann_first)}", timeout=5000)
            assert horizontal_overflow(page) == 0
            assert axe_violations(page, EVERY_IMPACT) == []
            screenshot(page, name, full_page=False, docs=True)
            page.click("#tab-table")
            page.wait_for_selector("#pace-controls #notify-email")
            assert page.locator("#pace-controls").get_by_text("A bot decides for me").count() == 1
            page.locator("#pace-controls").scroll_into_view_if_needed()
            assert axe_violations(page, EVERY_IMPACT) == []
            screenshot(page, f"{name}-table-panel", full_page=False)
            assert not page.errors, page.errors
            page.context.close()


def test_my_tables_lists_your_turns_first_with_time_left(pace_server: Server, browser: Any) -> None:
    with pace_server.client() as api:
        links = []
        for game, names in (("movie-empire", ("Ann", "Bob")), ("maybe-movies", ("Ann", "Bob", "Cy"))):
            pace = {"kind": "turn", "deadline_hours": 24}
            created = create_table(api, game, [{"kind": "human", "name": name} for name in names], pace=pace)
            links.append(created["seats"][0]["link"])
            if game == "maybe-movies":
                waiting_for_bob = create_table(api, game, [{"kind": "human", "name": n} for n in ("Bob", "Ann", "Cy")], pace=pace)
                links.append(waiting_for_bob["seats"][1]["link"])
        seats = [{"link": link, "table": link.split("/tables/")[1].split("#")[0], "title": "", "seat": 0, "name": "Ann"} for link in links]
        for phone, name in ((False, "my-tables-desktop"), (True, "my-tables-phone")):
            page = new_page(browser, phone=phone)
            page.goto(pace_server.url + "/")
            page.evaluate("(items) => window.localStorage.setItem('greenlight.seats', JSON.stringify(items))", seats)
            page.goto(pace_server.url + "/my-tables")
            page.wait_for_selector(".my-table")
            assert page.inner_text("#my-tables h2") == "Your turn at 2 tables"
            items = page.locator(".my-table")
            assert items.count() == 3
            assert "your turn" in items.nth(0).inner_text() and "your turn" in items.nth(1).inner_text()
            assert "waiting for Bob" in items.nth(2).inner_text()
            assert re.search(r"(23 h 5\d min|1 day) left", items.nth(0).inner_text()), items.nth(0).inner_text()
            assert horizontal_overflow(page) == 0
            assert axe_violations(page, EVERY_IMPACT) == []
            assert not page.errors, page.errors
            screenshot(page, name, full_page=False, docs=True)
            page.context.close()


def test_the_lobby_creates_a_turn_based_table(pace_server: Server, browser: Any) -> None:
    page = new_page(browser)
    page.goto(pace_server.url + "/")
    page.wait_for_selector("#pace-fieldset")
    page.check("input[name=pace][value=turn]")
    page.select_option("#pace-deadline", "12")
    page.check("#pace-weekends")
    page.select_option("#pace-on-timeout", "bot_takes_seat")
    with page.expect_response(lambda response: response.url.endswith("/api/tables") and response.request.method == "POST") as answer:
        page.click("#create-button")
    created = answer.value.json()
    assert created["pace"] == {
        **created["pace"],
        "kind": "turn",
        "deadline_hours": 12.0,
        "weekends_off": True,
        "on_timeout": "bot_takes_seat",
    }
    assert axe_violations(page, EVERY_IMPACT) == []
    page.context.close()


def test_the_service_worker_registers_and_shows_a_push(pace_server: Server, browser: Any) -> None:
    with pace_server.client() as api:
        created = create_table(api, "movie-empire", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    page = new_page(browser)
    page.context.grant_permissions(["notifications"], origin=pace_server.url)
    page.goto(created["seats"][0]["link"])
    page.click("#tab-table")
    page.click("#notify-push")
    # Offline, the browser's own push service cannot be reached: the page says so in words; the worker is registered.
    wait_until(
        lambda: "could not subscribe" in page.inner_text("#pace-note") or "will be told" in page.inner_text("#pace-note"), what="the answer"
    )
    registration = page.evaluate(
        "navigator.serviceWorker.getRegistration('/').then((r) => r && {scope: r.scope, script: r.active && r.active.scriptURL})"
    )
    assert registration == {"scope": pace_server.url + "/", "script": pace_server.url + "/sw.js"}
    # A push delivered to the worker (as the push service would) shows the notification, with the table's link.
    cdp = page.context.new_cdp_session(page)
    versions: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: versions.extend(event["registrations"]))
    cdp.on("ServiceWorker.workerVersionUpdated", lambda event: versions.extend(event["versions"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if versions:
            break
        page.wait_for_timeout(50)  # events arrive while Playwright runs its loop
    assert versions, "no service worker registration seen through the DevTools protocol"
    payload = {"title": "Your turn at Movie Empire", "body": "Keep 1 of the scripts", "url": created["seats"][0]["link"], "tag": "t"}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": pace_server.url, "registrationId": versions[0]["registrationId"], "data": json.dumps(payload)},
    )
    shown = wait_until(
        lambda: page.evaluate(
            "navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications())"
            ".then((list) => list.map((n) => ({title: n.title, body: n.body, url: n.data.url})))"
        ),
        what="the notification",
    )
    assert shown == [{"title": payload["title"], "body": payload["body"], "url": payload["url"]}]
    assert not page.errors, page.errors
    page.context.close()
