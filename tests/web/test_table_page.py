"""The table page as a person meets it, in Debian's chromium at a desktop's 1366x900 and a phone's 390x844.

Layout (nothing wider than the screen, the decision visible without scrolling), table life through the page
(the host's controls, resigning, rematch, an open seat taken from the lobby), the chat between two browsers,
and axe-core finding no serious or critical accessibility problem.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from greenlight.core.registry import all_games
from tests.web.conftest import (
    EVERY_IMPACT,
    Server,
    axe_violations,
    check_what_a_newcomer_reads,
    create_table,
    horizontal_overflow,
    new_page,
    screenshot,
    wait_until,
)

pytestmark = pytest.mark.browser

PLAYERS = {"cinecitta": 3, "maybe-movies": 3, "movie-empire": 2}
SIZES = {"desktop": False, "phone": True}
BOT = {"kind": "bot", "bot": "random"}
PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, BOT]


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Pages opened by a test; closed (and checked for JavaScript errors) at its end."""
    opened: list[Any] = []
    yield opened
    for page in opened:
        errors = page.errors
        page.context.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def open_page(browser: Any, pages: list[Any], url: str, *, phone: bool = False) -> Any:
    page = new_page(browser, phone=phone)
    pages.append(page)
    page.goto(url)
    return page


def wait_for_choices(page: Any) -> None:
    page.wait_for_selector("#controls .choices button.choice:not([disabled])", timeout=30_000)


def visible_in_window(page: Any, selector: str) -> bool:
    """Whether the element is inside the window as it is now (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= size["height"] and box["x"] >= 0


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_table_fits_the_screen_and_the_decision_is_in_view(
    browser: Any, pages: list[Any], server: Server, api: httpx.Client, game_id: str, size: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (PLAYERS[game_id] - 1)
    created = create_table(api, game_id, seats)
    page = open_page(browser, pages, created["seats"][0]["link"], phone=SIZES[size])
    wait_for_choices(page)
    assert horizontal_overflow(page) <= 0, "the table page is wider than the screen"
    screenshot(page, f"table-{game_id}-{size}", full_page=False)
    # The decision (your move) holds the docked hand, whose cards are played by a tap, above the menu of choices
    # (the fallback): what to do and a way to do it must both be in view.
    # (A view arriving meanwhile, a bot's move, redraws the page: the layout is judged once it is drawn.)
    layout = (
        "({scrolled: window.scrollY, prompt: document.querySelector('#controls .prompt').getBoundingClientRect().top,"
        " dock: document.querySelector('#dock').getBoundingClientRect().height,"
        " decision: document.querySelector('#decision').getBoundingClientRect().height, path: Greenlight.tablePage.path})"
    )
    try:
        wait_until(lambda: visible_in_window(page, "#controls .prompt"), timeout=5, what="the prompt in view")
    except AssertionError:
        screenshot(page, f"table-{game_id}-{size}-prompt-out-of-view", full_page=False)
        raise AssertionError(f"the seat must act: what to do is in view without scrolling ({page.evaluate(layout)})") from None
    wait_until(
        lambda: visible_in_window(page, "#decision .playable, #controls .choices button.choice"), timeout=5, what="a way to act in view"
    )
    assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
    check_what_a_newcomer_reads(page, f"{game_id}, {size}, the first move")
    seat_names = page.locator("#seats .seat-name")
    cut = seat_names.evaluate_all("nodes => nodes.filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)")
    assert not cut, f"seat names cut off: {cut}"
    if not SIZES[size]:
        # A desktop shows the side panels (Log, Chat, Help, Table) without scrolling, and the page stays where it is.
        assert visible_in_window(page, "#tab-log") and visible_in_window(page, "#panel-log"), "the side panels are below the fold"
        page.wait_for_timeout(400)
        assert page.evaluate("window.scrollY") == 0, "the page scrolled by itself"
    # From the keyboard: the first Tab reaches a skip link that leads to the move, whose first choice is a Tab or two on.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    for _ in range(4):
        page.keyboard.press("Tab")
        if page.evaluate("Boolean(document.activeElement.closest('#decision .playable, #decision button.choice'))"):
            break
    else:
        raise AssertionError(f"no choice within 4 Tabs of the skip link: {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')}")
    # Any card on the table is read whole, with no hover: a long press (a right click) opens its printed words in a
    # sheet, Escape closes it.
    card = page.locator("#board [data-card]:visible, #dock [data-card]:visible").first
    code = card.get_attribute("data-card")
    component = next(item for item in api.get(f"/api/tables/{created['table']['id']}/components").json() if item["id"] == code)
    card.evaluate("(node) => node.scrollIntoView({block: 'center'})")
    if SIZES[size]:
        card.dispatch_event("contextmenu")  # what a long press on a phone fires
    else:
        card.click(button="right")
    sheet = page.locator("#card-sheet[open]")
    sheet.wait_for()
    assert sheet.locator("h2").inner_text() == component["name"] and sheet.locator(".card-sheet-text").inner_text() == component["text"]
    assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
    page.keyboard.press("Escape")
    assert not page.locator("#card-sheet[open]").count()
    watcher = open_page(browser, pages, created["spectator_link"], phone=SIZES[size])
    watcher.wait_for_selector("#board > *")
    assert horizontal_overflow(watcher) <= 0
    assert not axe_violations(watcher, EVERY_IMPACT), axe_violations(watcher, EVERY_IMPACT)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_lobby_fits_the_screen(browser: Any, pages: list[Any], server: Server, size: str) -> None:
    page = open_page(browser, pages, f"{server.url}/", phone=SIZES[size])
    page.wait_for_selector(".game-choice")
    assert horizontal_overflow(page) <= 0, "the lobby is wider than the screen"
    screenshot(page, f"lobby-{size}", full_page=False)
    assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
    # Each bot is offered once (the game's heuristic is its medium level), for every game.
    for game_id in sorted(all_games()):
        page.click(f'.game-choice[data-game="{game_id}"]')
        offered = page.locator('#seat-list li[data-seat="1"] select.seat-kind option').all_inner_texts()
        assert len(offered) == len(set(offered)) and "Bot: heuristic" not in offered and "Bot: medium" in offered, offered


def test_the_host_gives_a_seat_to_a_bot_and_makes_a_new_link(browser: Any, pages: list[Any], api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    bob_link, bob_token = created["seats"][1]["link"], created["seats"][1]["token"]
    bob = open_page(browser, pages, bob_link)
    wait_for_choices(bob)
    host = open_page(browser, pages, created["host_link"])
    host.wait_for_selector('.host-seat[data-seat="1"] button.host-bot')
    host.wait_for_function("Greenlight.tablePage.view.table.seats[1].connected")
    host.select_option('.host-seat[data-seat="1"] select', "random")
    # Bob is at the table: the host is asked first, and may think again (nothing changes then).
    host.click('.host-seat[data-seat="1"] button.host-bot')
    confirm = host.locator('.host-seat[data-seat="1"] .host-confirm')
    assert "Bob is at the table now" in confirm.inner_text() and "(random)" in confirm.inner_text()
    host.click('.host-seat[data-seat="1"] button.host-no')
    assert not host.locator(".host-confirm").count()
    assert api.get(f"/api/tables/{created['table']['id']}").json()["seats"][1]["kind"] == "human"
    host.click('.host-seat[data-seat="1"] button.host-bot')
    host.click('.host-seat[data-seat="1"] button.host-yes')
    # Bob's page now only watches, and says why; the bot plays Bob's seat.
    bob.wait_for_selector("#refusal:not([hidden])")
    assert "Bob is away" in bob.locator("#refusal").inner_text()
    wait_until(lambda: bob.evaluate("Greenlight.tablePage.view.seat") is None, what="Bob's page to become a spectator's")
    host.wait_for_selector('.host-seat[data-seat="1"] button.host-person')
    # The host gives the seat back to a person with a new link; the old link is refused.
    host.click('.host-seat[data-seat="1"] button.host-person')
    host.wait_for_selector("#host-new-link .link-field")
    new_link = host.locator("#host-new-link .link-field").input_value()
    assert "#token=" in new_link and bob_token not in new_link
    assert api.get(f"/api/tables/{created['table']['id']}/view", headers={"Authorization": f"Bearer {bob_token}"}).status_code == 403
    again = open_page(browser, pages, new_link)
    again.wait_for_selector("#seats .seat.mine")
    assert again.locator("#seats .seat.mine .seat-name").inner_text() == "Bob (you)"
    # The old link, opened again, says what happened and what to do next (watch, or ask the host), at both sizes.
    for phone in (False, True):
        old = open_page(browser, pages, bob_link, phone=phone)
        old.wait_for_selector("#gone:not([hidden])")
        assert "This seat link no longer works" in old.locator("#gone h2").inner_text()
        assert "Ask the host" in old.locator("#gone").inner_text()
        watch = old.locator("#gone a.primary")
        assert watch.get_attribute("href").endswith(f"/tables/{created['table']['id']}") and visible_in_window(old, "#gone a.primary")
        assert not old.locator("#refusal:not([hidden])").count(), "no bare refusal: the page explains itself"
        assert not axe_violations(old, EVERY_IMPACT), axe_violations(old, EVERY_IMPACT)
    # The seat changes stand in the log panel too (not only in the chat).
    notes = again.locator("#table-notes li").all_inner_texts()
    assert any("Bob is away" in note for note in notes) and any("takes seat 2 over" in note for note in notes), notes


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_host_is_asked_before_a_new_link_or_opening_the_seat_of_a_person_at_the_table(
    browser: Any, pages: list[Any], api: httpx.Client, phone: bool
) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    table_id, bob_token = created["table"]["id"], created["seats"][1]["token"]
    bob = open_page(browser, pages, created["seats"][1]["link"])
    wait_for_choices(bob)
    host = open_page(browser, pages, created["host_link"], phone=phone)
    seat = '.host-seat[data-seat="1"]'
    host.wait_for_selector(f"{seat} button.host-link")
    host.wait_for_function("Greenlight.tablePage.view.table.seats[1].connected")
    asked = {
        "host-link": ("Bob is at the table now. Make a new link for this seat? The old link stops working at once", "Make a new link"),
        "host-open": ("Bob is at the table now. Open this seat to anyone?", "Open it to anyone"),
    }
    for button, (question, label) in asked.items():
        # Asked first; thinking again changes nothing: Bob's link still plays.
        host.click(f"{seat} button.{button}")
        confirm = host.locator(f"{seat} .host-confirm")
        assert question in confirm.inner_text() and label in confirm.inner_text()
        assert visible_in_window(host, f"{seat} .host-confirm"), (
            "the question is in view where the host clicked",
            confirm.bounding_box(),
            host.evaluate("[window.scrollY, document.body.scrollHeight, document.activeElement.outerHTML.slice(0, 80)]"),
        )
        assert not axe_violations(host, EVERY_IMPACT), axe_violations(host, EVERY_IMPACT)
        host.click(f"{seat} button.host-no")
        assert not host.locator(".host-confirm").count()
        seats = api.get(f"/api/tables/{table_id}").json()["seats"]
        assert seats[1]["kind"] == "human" and not seats[1].get("open")
        assert api.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {bob_token}"}).status_code == 200
    # Confirmed, opening the seat takes it from Bob at once; the lobby may now take it.
    host.click(f"{seat} button.host-open")
    host.click(f"{seat} button.host-yes")
    wait_until(lambda: api.get(f"/api/tables/{table_id}").json()["seats"][1].get("open"), what="the seat to be open to anyone")
    assert api.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {bob_token}"}).status_code == 403


def three(first: dict[str, Any]) -> list[dict[str, Any]]:
    return [first, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def test_a_player_resigns_and_a_bot_plays_on(browser: Any, pages: list[Any], api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", three({"kind": "human", "name": "Ann"}))
    ann = open_page(browser, pages, created["seats"][0]["link"])
    wait_for_choices(ann)
    ann.click("#tab-table")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.select_option("#seat-controls select", "random")
    ann.click("#seat-controls button.danger")
    ann.wait_for_selector("#final-scores", timeout=60_000)
    assert ann.evaluate("Greenlight.tablePage.view.seat") is None
    assert ann.evaluate("Greenlight.tablePage.view.table.seats[0].kind") == "bot"
    # The resignation stands in the log panel and in the final scores (the bot played for Ann)...
    assert any("Ann resigned" in note for note in ann.locator("#table-notes li").all_inner_texts())
    assert "Bot 1 (random) for Ann" in ann.locator("#final-scores .score-bars").inner_text()
    # ... and the lobby's list of finished tables still names Ann.
    lobby = open_page(browser, pages, ann.url.split("/tables/")[0] + "/")
    entry = lobby.locator(f'#table-lists li[data-table="{created["table"]["id"]}"]')
    entry.wait_for()
    assert "Bot 1 (random) for Ann" in entry.inner_text()


def test_the_bot_level_picked_to_take_your_seat_stays_picked_while_the_table_moves(
    browser: Any, pages: list[Any], api: httpx.Client
) -> None:
    """The Table panel is drawn again at every view and presence change; the level a person picked in "Leave the game
    and let a bot play on" stays picked (it went back to medium, so Resign gave the seat to another bot than chosen)."""
    created = create_table(api, "cinecitta", PEOPLE)
    ann = open_page(browser, pages, created["seats"][0]["link"])
    wait_for_choices(ann)
    ann.click("#tab-table")
    ann.select_option("#seat-controls select", "random")
    ann.evaluate("document.querySelector('#seat-controls select').dataset.before = 'yes'")
    open_page(browser, pages, created["seats"][1]["link"])  # Bob comes online: Ann's page draws the panel again
    ann.wait_for_function("!document.querySelector('#seat-controls select').dataset.before", timeout=20_000)
    assert ann.locator("#seat-controls select").input_value() == "random"
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#seat-controls button.danger")
    table_id = created["table"]["id"]
    seat = wait_until(
        lambda: (row := api.get(f"/api/tables/{table_id}").json()["seats"][0])["kind"] == "bot" and row, what="Ann's seat to a bot"
    )
    assert seat["bot"] == "random", seat


def test_a_rematch_from_the_final_scores(browser: Any, pages: list[Any], api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", three({"kind": "human", "name": "Ann"}))
    ann = open_page(browser, pages, created["seats"][0]["link"])
    for _ in range(200):
        ann.wait_for_function(
            "document.querySelector('#final-scores') || document.querySelector('#controls button.choice:not([disabled])')", timeout=30_000
        )
        if ann.query_selector("#final-scores"):
            break
        ann.locator("#controls button.choice:not([disabled])").first.click()
        confirm = ann.locator("#controls .confirm button.danger")
        if confirm.count():
            confirm.first.click()
    ann.click(".after-game button.primary")
    ann.wait_for_function(f"!location.href.includes('{created['table']['id']}')")
    ann.wait_for_selector("#seats .seat.mine")
    assert ann.locator("#seats .seat.mine .seat-name").inner_text() == "Ann (you)"
    wait_for_choices(ann)


def test_an_open_seat_is_taken_from_the_lobby(browser: Any, pages: list[Any], server: Server, api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}, BOT])
    table_id = created["table"]["id"]
    lobby = open_page(browser, pages, f"{server.url}/")
    button = f'li[data-table="{table_id}"] button.take-seat[data-seat="1"]'
    lobby.wait_for_selector(button)
    # The table is named by its game and when it began, not by its id (a code that means nothing to a person).
    entry = lobby.locator(f'li[data-table="{table_id}"]').inner_text()
    assert table_id not in entry and entry.startswith("Cinecitta 1937 · started just now"), entry
    lobby.once("dialog", lambda dialog: dialog.accept("Dee"))
    lobby.click(button)
    lobby.wait_for_selector("#seats .seat.mine")
    assert lobby.locator("#seats .seat.mine .seat-name").inner_text() == "Dee (you)"
    assert api.get(f"/api/tables/{table_id}").json()["seats"][1]["open"] is False


def test_two_browsers_chat_and_a_spectator_reads_along(browser: Any, pages: list[Any], api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", PEOPLE)
    ann = open_page(browser, pages, created["seats"][0]["link"])
    bob = open_page(browser, pages, created["seats"][1]["link"], phone=True)
    watcher = open_page(browser, pages, created["spectator_link"])
    for page in (ann, bob, watcher):
        page.wait_for_selector("#seats .seat")
    ann.click("#tab-chat")
    text = '<img src=x onerror="window.__xss=1"> good luck'
    ann.fill("#chat-text", text)
    ann.click("#chat-form button")
    bob.wait_for_selector("#chat-unread:not([hidden])")
    # Not just a number on the Chat tab: the line itself shows above the panels for a while.
    toast = bob.locator("#chat-toast")
    assert toast.is_visible() and toast.inner_text() == f"Ann: {text}"
    bob.click("#tab-chat")
    assert toast.is_hidden()
    bob.wait_for_selector("#chat li")
    assert bob.locator("#chat li").last.inner_text() == f"Ann: {text}"
    assert bob.evaluate("window.__xss") is None and bob.locator("#chat img").count() == 0
    watcher.click("#tab-chat")
    watcher.wait_for_selector("#chat li")
    assert watcher.locator("#chat li").last.inner_text() == f"Ann: {text}"
    assert watcher.locator("#chat-form").is_hidden() and watcher.locator("#chat-readonly").is_visible()
    bob.fill("#chat-text", "thanks")
    bob.click("#chat-form button")
    ann.wait_for_function("[...document.querySelectorAll('#chat li')].some(li => li.textContent === 'Bob: thanks')")


def test_your_turn_shows_in_the_tab_title_and_is_announced(browser: Any, pages: list[Any], api: httpx.Client) -> None:
    created = create_table(api, "cinecitta", three({"kind": "human", "name": "Ann"}))
    ann = open_page(browser, pages, created["seats"][0]["link"])
    wait_for_choices(ann)
    assert ann.title().startswith("● Your turn")
    assert "Your turn" in ann.locator("#announce").inner_text()
    # Every choice button is named in words (its text, which a screen reader reads), never by a bare code.
    names = ann.locator("#controls .choices button").all_inner_texts()
    codes = {component["id"] for component in api.get(f"/api/tables/{created['table']['id']}/components").json()}
    assert names and all(name.strip() and not set(name.split()) & codes for name in names), names


RULES_TITLES = {"cinecitta": "Cinecitta 1937", "maybe-movies": "Maybe Movies", "movie-empire": "Movie Empire"}


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_rules_open_in_the_lobby_at_the_table_and_on_their_own_page(
    browser: Any, pages: list[Any], server: Server, api: httpx.Client, game_id: str
) -> None:
    title = RULES_TITLES[game_id]
    lobby = open_page(browser, pages, f"{server.url}/")
    lobby.click(f'.game-choice[data-game="{game_id}"]')
    lobby.click("#game-rules .rules-panel summary")
    lobby.wait_for_selector("#game-rules .rules-text h1")
    assert lobby.locator("#game-rules .rules-text h1").inner_text().startswith(title)
    assert len(lobby.locator("#game-rules .rules-text").inner_text()) > 4000

    seats = [{"kind": "human", "name": "Ann"}] + [BOT] * (PLAYERS[game_id] - 1)
    table = open_page(browser, pages, create_table(api, game_id, seats)["seats"][0]["link"], phone=True)
    wait_for_choices(table)
    table.click("#tab-help")
    # The help of the step in hand comes first, then the whole rules on demand.
    assert table.locator("#step-help-text").inner_text().strip()
    table.click("#panel-help .rules-panel summary")
    table.wait_for_selector("#panel-help .rules-text h1")
    assert table.locator("#panel-help .rules-text h1").inner_text().startswith(title)
    assert horizontal_overflow(table) <= 0, "the rules are wider than the phone's screen"

    own = open_page(browser, pages, f"{server.url}/games/{game_id}/rules")
    assert own.locator("h1").first.inner_text().startswith(title)
    assert not axe_violations(own), axe_violations(own)


@pytest.mark.parametrize("game_id", ["cinecitta", "movie-empire"])
def test_on_a_phone_other_players_fold_to_a_summary_that_opens_on_tap(
    browser: Any, pages: list[Any], api: httpx.Client, game_id: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [BOT] * 2
    created = create_table(api, game_id, seats)
    phone = open_page(browser, pages, created["seats"][0]["link"], phone=True)
    wait_for_choices(phone)
    folds = phone.locator("#board details.gl-collapse")
    assert folds.count() == 2, "each other player's area is folded"
    assert folds.evaluate_all("nodes => nodes.map((node) => node.open)") == [False, False]
    assert "Bot 2 (random)" in folds.first.locator("summary").inner_text()
    folds.first.locator("summary").tap()
    assert folds.first.evaluate("node => node.open")
    # The reader's choice outlives the next view.
    phone.locator("#controls .choices button.choice:not([disabled])").first.click()
    wait_until(lambda: phone.evaluate("Greenlight.tablePage.view.version") > 0, what="the next view")
    wait_for_choices(phone)
    assert phone.locator("#board details.gl-collapse").first.evaluate("node => node.open")
    # On a desktop everything is open.
    desk = open_page(browser, pages, created["spectator_link"])
    desk.wait_for_selector("#board details.gl-collapse")
    assert all(desk.locator("#board details.gl-collapse").evaluate_all("nodes => nodes.map((node) => node.open)"))


def test_your_own_seat_never_says_you_have_not_joined_while_you_are_at_the_table(
    browser: Any, pages: list[Any], server: Server, api: httpx.Client
) -> None:
    """The person looking at the table is online from the first view on: every text the page's own seat shows while
    connected (recorded by a MutationObserver from before the first view) says "online", never "not joined yet" or
    "away", which the server's presence list said for a moment before it counted this page."""
    created = create_table(api, "cinecitta", [{"kind": "human", "name": "Ann"}, *[{"kind": "bot", "bot": "random"}] * 2])
    page = new_page(browser)
    pages.append(page)
    page.add_init_script(
        """
        window.mineSeen = [];
        new MutationObserver(() => {
          const mine = document.querySelector('#seats .seat.mine');
          const live = document.querySelector('#connection')?.dataset.state === 'live';
          const text = mine ? `${mine.innerText} dot:${mine.querySelector('.dot')?.className}` : '';
          if (mine && live && window.mineSeen[window.mineSeen.length - 1] !== text) window.mineSeen.push(text);
        }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        """
    )
    page.goto(created["seats"][0]["link"])
    wait_for_choices(page)
    page.wait_for_timeout(1500)  # past the server's presence update
    seen = page.evaluate("window.mineSeen")
    assert seen and all("online" in text and text.endswith("dot:dot on") for text in seen), seen
    assert not any("not joined yet" in text or "away" in text for text in seen), seen


def test_a_lost_connection_is_said_and_nobody_shows_online(browser: Any, pages: list[Any], fresh_server: Server) -> None:
    """The server goes down mid-game: both pages say so (a phone and a desktop), no seat claims to be online, a move
    is not sent (and not called refused); once the server is back everything is as before."""
    with fresh_server.client() as api:
        created = create_table(api, "maybe-movies", PEOPLE, seed=3)
    ann = open_page(browser, pages, created["seats"][0]["link"])
    bob = open_page(browser, pages, created["seats"][1]["link"], phone=True)
    wait_for_choices(ann)
    for page in (ann, bob):
        page.wait_for_function("document.querySelectorAll('#seats .seat .dot.on').length === 3")
    fresh_server.kill()
    for page in (ann, bob):
        page.wait_for_selector("#offline:not([hidden])")
        assert "connection lost" in page.locator("#connection").inner_text()
        assert "Reconnecting" in page.locator("#offline").inner_text()
        # Only the bot is sure to be there: people's presence is not known while this page is cut off.
        assert page.locator("#seats .seat .dot.on").count() == 1
        assert "online" not in page.locator("#seats").inner_text()
    assert ann.locator("#controls .choices button.choice:not([disabled])").count() == 0, "no choice is offered to send"
    # A move made on the board anyway is not sent, and says so in those words.
    ann.locator("#board .mm-market [data-play].playable").first.click()
    ann.wait_for_selector("#refusal:not([hidden])")
    assert ann.locator("#refusal").inner_text().startswith("Not sent: the server cannot be reached")
    screenshot(ann, "connection-lost-desktop", full_page=False)
    screenshot(bob, "connection-lost-phone", full_page=False)
    fresh_server.start()
    for page in (ann, bob):
        page.wait_for_function("document.querySelector('#connection').dataset.state === 'live'", timeout=20_000)
        page.wait_for_selector("#offline", state="hidden")
        page.wait_for_function("document.querySelectorAll('#seats .seat .dot.on').length === 3", timeout=10_000)
    assert ann.locator("#refusal").is_hidden(), "the connection's message goes once it is back"
    wait_for_choices(ann)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_new_question_opens_at_its_top_however_far_the_last_one_was_scrolled(
    browser: Any, pages: list[Any], api: httpx.Client, size: str
) -> None:
    """The move panel scrolls (a phone's bar, a desktop's box): a person scrolls down to a card, clicks it, and the
    next question (how much money goes with it) opens at its top, its words in view, not where the last one was."""
    created = create_table(api, "cinecitta", three({"kind": "human", "name": "Ann"}))
    page = open_page(browser, pages, created["seats"][0]["link"], phone=SIZES[size])
    wait_for_choices(page)
    page.set_viewport_size({"width": page.viewport_size["width"], "height": 600})  # short enough for the panel to scroll
    page.wait_for_function("document.getElementById('decision').scrollHeight > document.getElementById('decision').clientHeight")
    to_the_bottom = "() => { const box = document.getElementById('decision'); box.scrollTop = box.scrollHeight; return box.scrollTop; }"
    scrolled = page.evaluate(to_the_bottom)
    assert scrolled > 0
    page.evaluate("() => document.querySelector('#controls .choices button.choice:not([disabled])').click()")
    page.wait_for_function("document.querySelector('#controls .prompt').innerText.startsWith('How much money')")
    page.wait_for_timeout(200)  # past the frame in which the panel restores a kept scroll
    assert page.evaluate("document.getElementById('decision').scrollTop") == 0
    assert visible_in_window(page, "#controls .prompt")
