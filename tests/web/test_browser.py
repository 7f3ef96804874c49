"""A person plays through the pages in Debian's Chromium (Playwright), against the real server.

Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from greenlight.core.registry import all_games
from tests.web.conftest import BROWSER_TESTS, EVERY_IMPACT, SCREENSHOTS, Server, axe_violations, choose_by_menu, wait_for_turn

pytest.importorskip("playwright.sync_api")

pytestmark = BROWSER_TESTS

NAME = '<img src=x onerror="window.__xss=1">'
#: Clicks a person makes at most in one game before the test gives up.
MAX_CLICKS = 1500


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # bypass_csp lets the test evaluate its own JavaScript; it also means an escaping bug could not hide behind the CSP.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def create_in_lobby(page: Any, server: Server, game_id: str, players: int, name: str, options: tuple[str, ...] = ()) -> None:
    """Set up a table in the lobby (seat 0 a person, the others the default bots) and open seat 0."""
    page.goto(f"{server.url}/")
    page.click(f'.game-choice[data-game="{game_id}"]')
    page.select_option("#player-count", str(players))
    page.fill('#seat-list li[data-seat="0"] input.seat-name', name)
    for option in options:
        page.check(f'.option[data-option="{option}"] input')
    page.click("#create-button")
    page.wait_for_selector('.invite-links li[data-seat="0"] a.seat-link')
    screenshot(page, f"{game_id}-lobby")
    page.click('.invite-links li[data-seat="0"] a.seat-link')
    page.wait_for_selector("#seats .seat")


def play_one_action(page: Any, target: str) -> None:
    """Click through the choices that make up ``target`` (one of the seat's legal actions), as a person would."""
    choose_by_menu(page, target)


def legal_actions(page: Any) -> list[str]:
    return list(page.evaluate("Greenlight.tablePage.view.legal_actions"))


def test_a_person_plays_a_whole_game_of_cinecitta_against_bots(page: Any, server: Server) -> None:
    create_in_lobby(page, server, "cinecitta", 3, NAME, options=("movie_awards",))
    assert page.locator("#connection").inner_text() in ("connected", "connecting…")
    # The creator's own seat page carries the host's controls (under Table): no separate host page is needed.
    page.click("#tab-table")
    page.wait_for_selector("#host-controls .host-seat")
    assert page.locator("#host-controls h2").inner_text() == "Host"
    page.click("#tab-log")
    # The name is shown as text, never run as markup.
    assert page.locator('#seats .seat[data-seat="0"] .seat-name').inner_text() == f"{NAME} (you)"
    assert page.evaluate("window.__xss") is None
    assert page.locator(".cc-private .cc-row.hand .cc-card").count() == 8

    rng = random.Random(3)
    clicks = 0
    verbs: Counter[str] = Counter()
    while wait_for_turn(page):
        actions = legal_actions(page)
        target = rng.choice(actions)
        play_one_action(page, target)
        verbs[target.split()[0]] += 1
        clicks += 1
        if clicks == 10:
            screenshot(page, "cinecitta-table")
        assert clicks < MAX_CLICKS
    # 8 rounds of offer, respond and place.
    assert verbs == Counter({"offer": 8, "respond": 8, "place": 8})
    scores = page.locator("#final-scores table.scores tbody tr")
    assert scores.count() == 3
    assert page.locator("#final-scores .winner-line").inner_text().startswith("Winner: ")
    # A bar per player as long as its score against the best (not a stack of breakdown figures, which hold
    # totals and tie-breakers); every figure on demand.
    assert page.locator("#final-scores .score-bars li").count() == 3
    final = page.evaluate("Greenlight.tablePage.view.outcome.scores")
    bars = page.locator("#final-scores .score-bars li")
    for index in range(bars.count()):
        bar = bars.nth(index)
        seat = int(bar.get_attribute("data-seat"))
        width = float(bar.locator(".segment").evaluate("span => span.style.width").removesuffix("%"))
        assert width == pytest.approx(100 * max(0, final[seat]) / max(final), abs=0.01), (seat, width, final)
    page.click("#final-scores .score-details summary")
    assert page.locator("#final-scores thead th").all_inner_texts()[3:] == [
        "Status",
        "Quality",
        "Promotion",
        "Wages due",
        "Money",
        "Reels",
        "Box office",
        "Award",
        "Value",
    ]
    assert page.locator("body").get_attribute("data-over") == "yes"
    screenshot(page, "cinecitta-final")

    # The finished game replays step by step.
    page.click("text=Replay this game step by step")
    page.wait_for_selector("#replay:not([hidden])")
    assert page.locator("#step-label").inner_text() == "step 0 of 72"
    for _ in range(3):
        page.click("#next")
    assert page.locator("#step-label").inner_text() == "step 3 of 72"
    # Each step says what was played in words (a replay is of a finished game: the offers are no secret now).
    assert re.match(r".+: Offer [A-Z][a-z]+ \d+ with (\d+|no money) to your partner", page.locator("#step-action").inner_text())
    assert page.locator(".cc-seat").count() == 3
    assert page.locator(".cc-private").count() == 0  # a replay is the spectator's view
    assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
    page.click("#last")
    page.wait_for_selector("#final-scores")
    screenshot(page, "cinecitta-replay")
    assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)


def test_a_refused_action_is_explained_and_a_spectator_sees_no_hand(page: Any, server: Server) -> None:
    create_in_lobby(page, server, "cinecitta", 4, "Bea")
    wait_for_turn(page)
    page.click("#controls details.typed-action summary")
    page.fill("#controls form.typed input", "offer ZZ 10")
    page.click("#controls form.typed button")
    page.wait_for_selector("#refusal:not([hidden])")
    assert page.locator("#refusal").inner_text() == "Refused: ZZ is not in your hand"
    table_url = page.url.split("#")[0]
    page.goto(table_url)
    page.wait_for_selector(".cc-seat")
    assert page.locator("#status .who").inner_text() == "You are watching: only public information is shown."
    assert page.locator(".cc-private").count() == 0
    assert page.locator("#controls button").count() == 0


@pytest.mark.parametrize("game_id", [game_id for game_id in all_games() if game_id != "cinecitta"])
def test_a_person_makes_moves_of_every_kind(page: Any, server: Server, game_id: str) -> None:
    """Create a table of the game in the lobby and play until every kind of move offered has been made (or 60 moves)."""
    game = all_games()[game_id]
    create_in_lobby(page, server, game_id, game.spec.min_players, "Dee")
    rng = random.Random(5)
    made: Counter[str] = Counter()
    offered: set[str] = set()
    moves = 0
    while moves < 60 and wait_for_turn(page):
        actions = legal_actions(page)
        kinds = {action.split()[0] for action in actions}
        offered |= kinds
        # Prefer the kind of move made least so far, so every kind gets played.
        kind = min(sorted(kinds), key=lambda verb: made[verb])
        target = rng.choice([action for action in actions if action.split()[0] == kind])
        play_one_action(page, target)
        made[kind] += 1
        moves += 1
        if moves == 8:
            screenshot(page, f"{game_id}-table")
        if offered == set(made) and min(made.values()) >= 3 and moves >= 12:
            break
    assert moves >= 8, f"only {moves} moves were possible"
    assert set(made) == offered
    screenshot(page, f"{game_id}-table-end")


def test_the_generic_renderer_draws_a_game_readably_and_it_can_be_played(page: Any, server: Server) -> None:
    """What a new game without its own renderer gets: every observation field, and the same choices."""
    create_in_lobby(page, server, "cinecitta", 3, "Gil")
    page.goto(page.url.replace("#", "?view=generic#"))
    page.wait_for_selector(".generic")
    assert page.locator(".cc-board").count() == 0
    assert page.locator('.generic-section[data-key="studios"] table.per-seat tr').count() == 3
    hand = page.evaluate("Greenlight.tablePage.view.observation.hand")
    assert page.locator(".generic .facts").inner_text().count(hand[0]) == 1
    wait_for_turn(page)
    target = legal_actions(page)[0]
    play_one_action(page, target)
    page.wait_for_function("(view => view.decision.committed.includes(0) || view.decision.kind !== 'offer')(Greenlight.tablePage.view)")
    # Every seat has offered, so the folder P0 sent is now in its view, drawn by the generic renderer too.
    page.wait_for_selector('.generic-section[data-key="folder_sent"]')
    assert page.locator('.generic-section[data-key="folder_sent"]').inner_text().count(target.split()[1]) == 1
    screenshot(page, "generic-renderer")


@pytest.mark.parametrize("game_id", [game_id for game_id in all_games() if game_id != "cinecitta"])
def test_a_person_plays_a_whole_game_of_every_other_title_against_bots(page: Any, server: Server, game_id: str) -> None:
    """As a new user would: lobby, seat link, random legal choices by clicking, until the final scores."""
    game = all_games()[game_id]
    create_in_lobby(page, server, game_id, game.spec.min_players, "Eve")
    rng = random.Random(1)
    moves = 0
    while wait_for_turn(page):
        play_one_action(page, rng.choice(legal_actions(page)))
        moves += 1
        assert moves < MAX_CLICKS
    assert moves >= 5
    assert page.locator("#final-scores table.scores tbody tr").count() == game.spec.min_players
    assert page.locator("#final-scores .winner-line").inner_text().startswith("Winner: ")
    screenshot(page, f"{game_id}-final")
