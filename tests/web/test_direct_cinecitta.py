"""Cinecitta 1937 played on the board itself, at a desktop's 1366x900 and a phone's 390x844.

Ann plays a whole 3-player game against random bots, and every one of her moves is a click (a tap on the phone) on
something drawn in the board (#board) or the docked hand (#dock), never a button of the menu (#controls):

* step 1, ``offer D6 30``: the hand card, then the amount stepper's minus and plus, then "Offer Director 6 for 30";
* step 2, ``respond secure`` / ``respond headhunt``: the two buttons beside the folder received;
* step 3, ``place``, ``place C3``, ``place S9:D5``, ``place C3 C8``: the cards to place in order and, where a full
  Studio has no card of the occupation, the Studio card pushed out (in the dock or on the seat's own board);
  the plain ``place`` is the "place as is" button.

No Cinecitta move lacks a thing on the table, so the test names no exception. At each decision it checks that every
legal action is reachable from the board (some playable element's ``data-play`` starts it), that the page is no
wider than the screen and that the decision and the clicked target are in view. It also checks that hovering a
card that cannot be offered now shows the engine's refusal, and axe-core at the start and the end.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from tests.web.conftest import (
    EVERY_IMPACT,
    Server,
    axe_violations,
    bearer,
    check_what_a_newcomer_reads,
    create_table,
    horizontal_overflow,
    new_page,
    screenshot,
)

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]

#: Moves with no component on the table to click (they would use a board-side button or the menu): none here.
NO_COMPONENT: set[str] = set()

MY_TURN = (
    "document.querySelector('#final-scores') || (document.body.dataset.myTurn === 'yes' && "
    "document.querySelector('#dock .cc-dock') && !document.querySelector('#controls .choices button.choice[disabled]'))"
)
PLAYS = "[...document.querySelectorAll('#board .playable[data-play], #dock .playable[data-play]')].map((n) => n.dataset.play)"


#: Where each thing to click in the dock is with the note of why shown, and with it hidden (its move and its box).
DOCK_TARGETS = """() => {
    const boxes = () => [...document.querySelectorAll('#dock [data-play]')].map((node) => {
        const box = node.getBoundingClientRect();
        return [node.dataset.play, Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)];
    });
    const note = document.querySelector('#dock .cc-why');
    const shown = boxes();
    note.hidden = true;
    const hidden = boxes();
    note.hidden = false;
    return [shown, hidden];
}"""


def reachable(action: str, plays: list[str]) -> bool:
    """Whether a board target starts ``action``: whole tokens, or a card to place that waits for its push-out (``C3:``)."""
    return any(action == p or action.startswith(f"{p} ") or (p.endswith(":") and action.startswith(p)) for p in plays)


def in_window(page: Any, locator: Any) -> bool:
    """Whether the element is inside the window now and not hidden under something else (the phone's decision bar)."""
    return bool(
        locator.evaluate(
            """(node) => {
                const box = node.getBoundingClientRect();
                if (box.width === 0 || box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) return false;
                const hit = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
                return hit !== null && (hit === node || node.contains(hit));
            }"""
        )
    )


def click(page: Any, selector: str, *, target_of_a_move: bool = True) -> None:
    """Click (tap) a board target: scrolled into view if needed, then checked to be in view and uncovered.

    A view can arrive while Ann chooses (a bot commits), redrawing the board: the target is then found again.
    """
    for attempt in range(5):
        target = page.locator(selector).first
        try:
            target.wait_for(state="visible", timeout=10_000)
            target.scroll_into_view_if_needed(timeout=5_000)
            if not in_window(page, target):
                screenshot(page, "cinecitta-direct-failed", full_page=False)
            assert in_window(page, target), f"{selector} is not in view (or is covered) when it is clicked"
            if target_of_a_move:
                assert "playable" in (target.get_attribute("class") or ""), f"{selector} is not a legal target"
            target.click(timeout=5_000)
            return
        except playwright_api.Error as error:
            if attempt == 4 or ("attached" not in str(error) and "Timeout" not in str(error)):
                # Say what was moving: an element "not stable" for this long is a board that never settles.
                moving = page.evaluate(
                    "() => document.getAnimations().map((a) => `${a.animationName || a.transitionProperty} on "
                    "${a.effect && a.effect.target ? a.effect.target.className : '?'}`)"
                )
                raise AssertionError(f"{selector} could not be clicked; running animations: {moving}") from error
            # A board redrawn by a view that arrived meanwhile, or a machine too busy to draw: give it a moment.
            page.wait_for_timeout(100 if "attached" in str(error) else 1_000)


def make_offer(page: Any, action: str, shoot: str | None) -> None:
    _, card, amount = action.split()
    click(page, f'#dock .cc-hand-row [data-play="offer {card}"]')
    page.wait_for_selector(f'#dock .cc-stepper .cc-offer-go[data-play^="offer {card} "]')
    for _ in range(60):
        now = int(page.locator("#dock .cc-step-amount").get_attribute("data-amount"))
        if now == int(amount):
            break
        click(page, "#dock .cc-step-plus" if now < int(amount) else "#dock .cc-step-minus", target_of_a_move=False)
    assert int(page.locator("#dock .cc-step-amount").get_attribute("data-amount")) == int(amount)
    if shoot:
        screenshot(page, shoot, full_page=False, docs=True)
    click(page, f'#dock .cc-offer-go[data-play="{action}"]')


def make_placement(page: Any, action: str, on_board: bool) -> None:
    tokens = action.split()[1:]
    if not tokens:
        click(page, '#dock .cc-place-as-is[data-play="place"]')
        return
    for i, token in enumerate(tokens):
        prefix = " ".join(["place", *tokens[:i]])
        placed, _, out = token.partition(":")
        if not out:
            click(page, f'#dock .cc-row.pending [data-play="{prefix} {placed}"]')
            continue
        click(page, f'#dock .cc-row.pending [data-play="{prefix} {placed}:"]')
        # The Studio card pushed out: on the seat's own board (desktop, now and then) or in the dock.
        board = page.locator(f'#board .cc-seat.mine .playable[data-play="{prefix} {token}"]')
        where = "#board .cc-seat.mine" if on_board and board.count() else "#dock .cc-push"
        click(page, f'{where} [data-play="{prefix} {token}"]')


def check_refusal_shown(page: Any, api: httpx.Client, table_id: str, token: str, phone: bool) -> None:
    """A card in hand cannot be offered in step 2: hovering it (tapping it on a phone) shows the engine's words for why,
    in its title and in the dock's note.

    With a mouse, showing the words moves nothing that can be clicked in the dock: a note that pushed the hand down
    took the card from under a resting pointer, and the next card's shorter words pulled it back, every frame.

    (A view arriving meanwhile redraws the hand, and the fresh card is hovered again.)
    """
    explained = "#dock .cc-hand-row .cc-card.unplayable[data-why]:not([data-why='…'])"
    for _ in range(5):
        target = page.locator("#dock .cc-hand-row .cc-card.unplayable").first
        try:
            target.scroll_into_view_if_needed(timeout=5_000)
            if phone:
                target.tap(timeout=5_000)
            else:
                page.mouse.move(0, 0)
                target.hover(timeout=5_000)
            page.wait_for_selector(explained, timeout=5_000)
            page.wait_for_selector("#dock .cc-why:not([hidden])", timeout=5_000)
            if not phone:
                shown, hidden = page.evaluate(DOCK_TARGETS)
                moved = [(h, s) for h, s in zip(hidden, shown, strict=True) if h != s]
                assert not moved, f"showing why moves things to click in the dock: {moved}"
            break
        except playwright_api.Error:
            continue
    shown = page.locator(explained).first.get_attribute("title")
    action = page.locator(explained).first.get_attribute("data-play")
    answer = api.get(f"/api/tables/{table_id}/why", params={"action": action}, headers=bearer(token)).json()
    assert not answer["legal"] and shown == answer["reason"] and "step 1" in shown, (shown, answer)
    note = page.locator("#dock .cc-why")
    assert answer["reason"] in note.inner_text() and in_window(page, note), note.inner_text()


def play_a_whole_game(browser: Any, server: Server, phone: bool) -> dict[str, int]:
    size = "phone" if phone else "desktop"
    with httpx.Client(base_url=server.url, timeout=20) as api:
        created = create_table(api, "cinecitta", SEATS)
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        page = new_page(browser, phone=phone)
        page.goto(created["seats"][0]["link"])
        rng = random.Random(11 if phone else 5)
        kinds: dict[str, int] = {}
        first = True
        hovered = False
        shot = False
        while True:
            page.wait_for_function(MY_TURN, timeout=30_000)
            if page.query_selector("#final-scores"):
                break
            view = page.evaluate("Greenlight.tablePage.view")
            legal: list[str] = view["legal_actions"]
            observation = view["observation"]
            if first:
                assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
                first = False
            check_what_a_newcomer_reads(page, f"{size}, round {observation['round']}, {observation['step']}")
            assert horizontal_overflow(page) <= 0, f"{size}: the page is wider than the screen"
            assert not page.errors, page.errors
            decision = page.locator("#decision")
            assert decision.bounding_box()["y"] < page.viewport_size["height"], "the decision is out of view"
            plays = page.evaluate(PLAYS)
            missing = [a for a in legal if a.split()[0] not in NO_COMPONENT and not reachable(a, plays)]
            assert not missing, f"legal actions with no target on the board: {missing} (targets: {plays})"
            if not hovered and observation["step"] == "respond":
                check_refusal_shown(page, api, table_id, token, phone)
                hovered = True
            if observation["step"] == "offer" and len({action.split()[1] for action in legal}) > 1:
                # The hand is drawn once, in the dock: the choice list only names its cards, still numbered for the keys.
                listed = page.locator("#controls .choices.in-dock button.choice")
                assert listed.count() > 1, page.locator("#controls").inner_text()
                assert page.locator("#controls .choices .cc-card").count() == 0, "the hand is drawn twice"
                words = "nodes => nodes.map((node) => [node.dataset.token, [...node.childNodes].filter((n) => n.nodeType === 3)"
                named = listed.evaluate_all(words + ".map((n) => n.textContent).join('').trim()])")
                hand = set(page.locator("#dock .cc-hand-row [data-card]").evaluate_all("nodes => nodes.map((node) => node.dataset.card)"))
                assert all(token in hand and name and token not in name for token, name in named), (named, hand)
            if observation["step"] == "place" and legal == ["place"]:
                # Nothing to place: the question and its one choice say so (they read "Place your cards").
                assert "no card to place" in page.locator("#controls .prompt").inner_text()
                assert "Nothing to place" in page.locator("#controls .choices button.choice").first.inner_text()
                kinds["nothing to place"] = kinds.get("nothing to place", 0) + 1
            # A seeded choice among the moves; moves the game warns about (certain drop-outs) are left aside.
            warned = view.get("action_warnings") or {}
            choices = [a for a in legal if a not in warned] or legal
            if observation["step"] == "offer":
                # Vary the amount but keep it short to click: an even spread over the cards, amounts up to 60.
                cheap = [a for a in choices if int(a.split()[2]) <= 60]
                choices = cheap or choices
            action = rng.choice(choices)
            version = view["version"]
            step = action.split()[0]
            kind = {"offer": step, "respond": action}.get(step, f"place {len(action.split()) - 1}" + (" push" if ":" in action else ""))
            kinds[kind] = kinds.get(kind, 0) + 1
            shoot = None
            if not shot and observation["round"] == 4 and step == "offer":
                shoot, shot = f"cinecitta-{size}", True
            if step == "offer" and not phone and observation["round"] == 2:
                # From the keyboard: Enter on a hand card opens the stepper and the focus moves on to its Offer button.
                # (A view arriving in between redraws the hand and drops the focus: then again.)
                for attempt in range(3):
                    page.locator(f'#dock .cc-hand-row [data-play="offer {action.split()[1]}"]').focus()
                    page.keyboard.press("Enter")
                    try:
                        page.wait_for_function("document.activeElement.matches('#dock .cc-offer-go')", timeout=3_000)
                        break
                    except playwright_api.Error:
                        assert attempt < 2, "Enter on a hand card did not move the focus to the Offer button"
            if step == "offer":
                make_offer(page, action, shoot)
            elif step == "respond":
                click(page, f'#dock .cc-answers [data-play="{action}"]')
            else:
                make_placement(page, action, on_board=not phone and rng.random() < 0.5)
            assert not page.locator("#controls .confirm").count(), "a move asked for confirmation"
            moved_on = f"Greenlight.tablePage.view.version !== {version} || document.querySelector('#final-scores')"
            page.wait_for_function(moved_on, timeout=30_000)
        assert shot and hovered
        assert page.locator("#final-scores").is_visible()
        # On a phone no bar is left over the page's last lines once the game is over.
        assert not phone or not page.locator("#decision").is_visible(), "the phone's decision bar stays over the end screen"
        assert horizontal_overflow(page) <= 0
        check_what_a_newcomer_reads(page, f"{size}, the end")
        assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
        assert not page.errors, page.errors
        page.context.close()
    return kinds


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_whole_game_played_on_the_board(browser: Any, server: Server, phone: bool) -> None:
    started = time.monotonic()
    kinds = play_a_whole_game(browser, server, phone)
    # Every kind of step came up, offers, responses and placements, by clicks on the table alone.
    assert kinds.get("offer", 0) == 8 and kinds.get("respond secure", 0) + kinds.get("respond headhunt", 0) == 8, kinds
    assert sum(count for kind, count in kinds.items() if kind.startswith("place")) == 8, kinds
    assert time.monotonic() - started < 120, "the game took too long"
