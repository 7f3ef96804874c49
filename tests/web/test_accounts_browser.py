"""Accounts in a real browser (Debian's chromium): sign up, keep this browser's seats, sign in on another device and
see them, quick play seating three browsers, profile, leaderboard; axe-clean pages at desktop and phone sizes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import NO_RATE_LIMITS, Server, axe_violations, bearer, horizontal_overflow, new_page, screenshot, wait_until
from tests.web.test_accounts import PASSWORD, play_to_the_end, token_of

pytestmark = pytest.mark.browser


def sign_up_in_page(page: Any, server: Server, name: str) -> None:
    page.goto(f"{server.url}/account")
    form = page.locator("#sign-up-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#signed-in:not([hidden])")
    assert page.inner_text("#account-name") == name


def test_an_account_keeps_this_browsers_seats_and_shows_them_on_another_device(browser: Any, server: Server) -> None:
    laptop = new_page(browser)
    laptop.goto(server.url)
    laptop.wait_for_selector("#create-form")
    # A table made in the lobby without an account: the browser remembers its seat links.
    laptop.click("#create-button")
    laptop.wait_for_selector("#created:not([hidden])")
    table_link = laptop.locator("#created a[href*='#token=']").first.get_attribute("href")
    assert table_link
    sign_up_in_page(laptop, server, "Nora Park")
    assert laptop.locator("#account-nav .account-name").inner_text() == "Nora Park"
    laptop.wait_for_selector("#claim-box:not([hidden])")
    laptop.locator("#claim-list input[type=checkbox]").first.check()
    laptop.click("#claim-button")
    laptop.wait_for_selector("#claim-result:not([hidden])")
    assert "1 of 1 seat kept" in laptop.inner_text("#claim-result")
    laptop.wait_for_selector("#account-seats a")
    assert not axe_violations(laptop, ("minor", "moderate", "serious", "critical")), "account page"
    screenshot(laptop, "account-desktop", docs=True)

    phone = new_page(browser, phone=True)
    phone.goto(f"{server.url}/account")
    form = phone.locator("#sign-in-form")
    form.locator("input[name=name]").fill("nora park")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    phone.wait_for_selector("#account-seats a")
    link = phone.locator("#account-seats a").first.get_attribute("href")
    assert link is not None and token_of(link) == token_of(table_link)
    assert horizontal_overflow(phone) == 0
    assert not axe_violations(phone, ("minor", "moderate", "serious", "critical")), "account page on a phone"
    screenshot(phone, "account-phone", docs=True)
    phone.goto(link)
    phone.wait_for_selector("#controls")
    assert not laptop.errors and not phone.errors
    laptop.context.close()
    phone.context.close()


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that trusts this machine as its proxy: each browser says who it is in X-Forwarded-For (three players
    from three addresses, as a rated table needs)."""
    running = Server(tmp_path_factory.mktemp("proxy") / "tables.db", extra=[*NO_RATE_LIMITS, "--forwarded-allow-ips", "127.0.0.1"])
    running.start()
    yield running
    running.stop()


def test_a_rated_quick_play_game_in_three_browsers_then_profile_leaderboard_and_deletion(browser: Any, behind_proxy: Server) -> None:
    server = behind_proxy
    pages = [new_page(browser, phone=number == 2) for number in range(3)]
    for number, page in enumerate(pages):
        page.context.set_extra_http_headers({"X-Forwarded-For": f"198.51.100.{number + 1}"})
        sign_up_in_page(page, server, f"Quick {'XYZ'[number]}")
    # A change without the page's CSRF token is refused, even from the signed-in browser itself.
    refused = pages[0].evaluate(
        """async () => (await fetch('/api/accounts/me/seats', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                              body: JSON.stringify({links: []})})).status"""
    )
    assert refused == 403
    # Three people, each on their own, ask for a rated game now.
    for page in pages:
        page.goto(server.url)
        page.wait_for_selector("#play-now form")
        page.select_option("#play-now select[name=game]", "cinecitta")
        page.select_option("#play-now select[name=players]", "3")
        page.check("#play-now input[name=rated]")
    pages[0].click("#play-now button[type=submit]")
    pages[0].wait_for_selector(".seeking-status")
    assert not axe_violations(pages[0], ("minor", "moderate", "serious", "critical")), "lobby while waiting"
    screenshot(pages[0], "play-now-waiting-desktop", docs=True)
    for page in pages[1:]:
        page.click("#play-now button[type=submit]")
    for page in pages:
        page.wait_for_url("**/tables/*#token=*", timeout=30_000)
        page.wait_for_selector("#controls")
    links = [page.url for page in pages]
    table_id = links[0].split("/tables/")[1].split("#")[0]
    assert all(table_id in link for link in links) and len({token_of(link) for link in links}) == 3
    with server.client() as api:
        assert api.get(f"/api/accounts/tables/{table_id}").json()["rated"] is True
        seat_of = {token_of(link): api.get(f"/api/tables/{table_id}/view", headers=bearer(token_of(link))).json()["seat"] for link in links}
    play_to_the_end(server, table_id, {seat: token for token, seat in seat_of.items()})
    with server.client() as api:
        ranks = api.get(f"/api/tables/{table_id}/view").json()["outcome"]["ranks"]

        def rated_holders() -> dict[str, Any] | None:
            seats: dict[str, Any] = api.get(f"/api/accounts/tables/{table_id}").json()["seats"]
            return seats if all(holder["rating"] for holder in seats.values()) else None

        holders = wait_until(rated_holders, what="the ratings")
    for seat, holder in holders.items():
        rating = holder["rating"]
        assert rating["games"] == 1
        if ranks[int(seat)] == min(ranks):
            assert rating["mu"] > 25, (seat, ranks, rating)
        elif ranks[int(seat)] == max(ranks):
            assert rating["mu"] < 25, (seat, ranks, rating)
    profile = pages[0]
    profile.goto(f"{server.url}/players/Quick X")
    profile.wait_for_selector("table.ratings")
    assert "provisional" in profile.inner_text("table.ratings")
    assert profile.locator("svg.sparkline polyline").count() == 1
    assert not axe_violations(profile, ("minor", "moderate", "serious", "critical")), "profile page"
    screenshot(profile, "profile-desktop", docs=True)
    board = pages[2]
    board.goto(f"{server.url}/leaderboard?game=cinecitta")
    board.wait_for_selector("table.leaderboard")
    assert sorted(board.locator("table.leaderboard tbody th a").all_inner_texts()) == ["Quick X", "Quick Y", "Quick Z"]
    assert horizontal_overflow(board) == 0
    assert not axe_violations(board, ("minor", "moderate", "serious", "critical")), "leaderboard on a phone"
    screenshot(board, "leaderboard-phone", docs=True)
    # Deleting an account from its page: its seat at the table becomes anonymous.
    leaver = pages[1]
    leaver.goto(f"{server.url}/account")
    leaver.wait_for_selector("#signed-in:not([hidden])")
    leaver.click("#signed-in details.account-settings summary")
    leaver.locator("#delete-form input[name=password]").fill(PASSWORD)
    leaver.once("dialog", lambda dialog: dialog.accept())
    leaver.click("#delete-form button[type=submit]")
    leaver.wait_for_url(f"{server.url}/")
    with server.client() as api:
        names = [seat["name"] for seat in api.get(f"/api/tables/{table_id}").json()["seats"]]
        assert "Quick Y" not in names and any(name.startswith("Player ") for name in names)
        assert api.get("/api/players/Quick Y").status_code == 404
    for page in pages:
        assert not page.errors
        page.context.close()
