"""Movie Empire played on the board: a whole game against a bot where every move of Ann is a click or a tap on what it is about.

At a desktop's 1366x900 and on a phone's 390x844 (touch), Ann plays a two-player Shoot a Short game (7 rounds) against
a random bot on the real server. Each of her moves is made by clicking or tapping elements of the board (#board) or
of her docked hand (#dock): a space, a line, a line end, a joker's stage, a hand card, a dealt script, a market, or a
board button for a move with no component of its own (pass, end the turn, done, Purge, an exemption, stop
discarding, skip the Internet). Never a button of the decision menu (#controls), with one named exception:
``CONFIRM_IN_CONTROLS``, the "Do it anyway" confirmation the page asks for a warned move (a move that cannot be undone
and gains nothing), which is not a move of its own. At every decision the test checks that every legal action can be
reached from the board (some playable target's ``data-play`` is a start of it, beyond its first word, or for a pair
of cards both cards are pickable), that nothing is wider than the screen, that the decision area is in view, and that
each target is in view and receives the click without scrolling once it is scrolled to. Hovering (or tapping) an
illegal target shows the engine's refusal; axe-core finds nothing serious at the start and at the end.

Moves a short random game seldom meets (a joker's stage, a placement spending the black dossier, an AP12 gift of two
cards, an exemption from the annual plan, Purge / Block / Cut!) are reached through the API first, then made on the
board at the desktop size.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
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

pytestmark = pytest.mark.browser

GAME_ID = "movie-empire"
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
OPTIONS = {"shoot_a_short": True}
#: The one thing clicked outside the board: confirming a warned move in the decision (it is not a move of its own).
CONFIRM_IN_CONTROLS = "#controls .confirm button.danger"
TARGETS = "#board .playable, #dock .playable"


def wait_for_decision(page: Any, after: int) -> dict[str, Any] | None:
    """The seat's view once it may act at a version after ``after`` (None once the game is over)."""
    page.wait_for_function(
        """after => {
            if (document.querySelector('#final-scores')) return true;
            const view = Greenlight.tablePage.view;
            return Boolean(view && view.version > after && view.legal_actions.length
                && document.querySelector('#controls .choices button.choice:not([disabled])'));
        }""",
        arg=after,
        timeout=30_000,
    )
    if page.query_selector("#final-scores"):
        return None
    return dict(page.evaluate("Greenlight.tablePage.view"))


def in_window(page: Any, box: dict[str, float] | None) -> bool:
    size = page.viewport_size
    if box is None:
        return False
    return (
        box["y"] >= 0
        and box["y"] + min(box["height"], 40) <= size["height"]
        and box["x"] >= 0
        and box["x"] + min(box["width"], 40) <= size["width"]
    )


def decision_in_view(page: Any) -> bool:
    """Whether the decision area shows in the window as it is (at least 150 pixels of it, or all of it)."""
    box = page.locator("#decision").bounding_box()
    height = page.viewport_size["height"]
    if box is None:
        return False
    shown = min(box["y"] + box["height"], height) - max(box["y"], 0)
    return bool(shown >= min(box["height"], 150) and box["x"] >= 0)


def board_targets(page: Any) -> list[dict[str, Any]]:
    """Every playable target on the board and in the dock: its data-play, data-pick and whether it plays at once."""
    return list(
        page.evaluate(
            """selector => [...document.querySelectorAll(selector)].map(node => ({
                play: node.dataset.play || null, pick: node.dataset.pick || null, final: node.dataset.final === 'yes'}))""",
            TARGETS,
        )
    )


def is_prefix(start: list[str], tokens: list[str]) -> bool:
    return len(start) <= len(tokens) and tokens[: len(start)] == start


def reachable(action: str, targets: list[dict[str, Any]]) -> bool:
    """Whether the board offers a way to ``action``: a target starting it (beyond its verb), or both cards of a pair."""
    tokens = action.split()
    if len(tokens) == 2 and "," in tokens[1]:
        picks = {target["pick"] for target in targets}
        return all(f"{tokens[0]} {code}" in picks for code in tokens[1].split(","))
    need = min(2, len(tokens))
    return any(target["play"] and len(target["play"].split()) >= need and is_prefix(target["play"].split(), tokens) for target in targets)


def click(page: Any, locator: Any) -> None:
    """Bring a board target into view (above the phone's decision bar), check it is visible and hit there, and click or tap it."""
    inside_dock = bool(locator.evaluate("node => Boolean(node.closest('#dock'))"))
    if inside_dock:
        locator.scroll_into_view_if_needed()
    else:
        locator.evaluate("node => { const r = node.getBoundingClientRect(); window.scrollBy(0, r.top - 110); }")
    box = locator.bounding_box()
    assert in_window(page, box), f"a target is not in view: {box}"
    hit = locator.evaluate(
        """node => { const r = node.getBoundingClientRect();
                     const x = r.left + Math.min(r.width / 2, 30), y = r.top + Math.min(r.height / 2, 20);
                     const top = document.elementFromPoint(x, y); return Boolean(top && (top === node || node.contains(top))); }"""
    )
    assert hit, "a target is covered by something else where it would be clicked"
    locator.click()


def play_on_board(page: Any, action: str, view: dict[str, Any]) -> list[str]:
    """Make ``action`` by clicking board targets; returns what was clicked (data-play / data-pick values)."""
    tokens = action.split()
    version = view["version"]
    clicked: list[str] = []
    if len(tokens) == 2 and "," in tokens[1]:
        verb = tokens[0]
        for code in tokens[1].split(","):
            free = f'[data-pick="{verb} {code}"]:not(.selected)'
            pick = page.locator(f"#board {free}, #dock {free}").first
            click(page, pick)
            clicked.append(f"pick {verb} {code}")
        confirm = page.locator(f'#board [data-play="{action}"][data-final="yes"], #dock [data-play="{action}"][data-final="yes"]').first
        click(page, confirm)
        clicked.append(action)
    else:
        for _ in range(6):
            path = list(page.evaluate("Greenlight.tablePage.path"))
            targets = board_targets(page)
            chosen = None
            for index, target in enumerate(targets):
                if target["final"] and target["play"] == action:
                    chosen = index
                    break
            if chosen is None:
                best = -1
                for index, target in enumerate(targets):
                    play = (target["play"] or "").split()
                    if target["final"] or not play or not is_prefix(play, tokens) or (len(play) <= len(path) and play != tokens):
                        continue
                    if len(play) > best:
                        best, chosen = len(play), index
            now = page.evaluate("(v => [v.version, v.decision.kind, v.legal_actions])(Greenlight.tablePage.view)")
            assert chosen is not None, (
                f"nothing on the board leads to {action!r} (path {path}, view {version}, page {now}); on the board: {targets}"
            )
            click(page, page.locator(TARGETS).nth(chosen))
            clicked.append(targets[chosen]["play"])
            page.wait_for_function(
                """([version, path]) => Greenlight.tablePage.view.version > version || document.querySelector('#controls .confirm')
                    || JSON.stringify(Greenlight.tablePage.path) !== path""",
                arg=[version, json.dumps(path, separators=(",", ":"))],
                timeout=10_000,
            )
            if page.evaluate(f"Greenlight.tablePage.view.version > {version}"):
                return clicked
            if page.locator("#controls .confirm").count():
                break
    if page.locator("#controls .confirm").count():
        page.locator(CONFIRM_IN_CONTROLS).click()
        clicked.append("confirm")
    page.wait_for_function(f"Greenlight.tablePage.view.version > {version}", timeout=10_000)
    return clicked


def pick(rng: random.Random, view: dict[str, Any]) -> str:
    """A varied legal move: a kind of move first (passing rarely), then one of its actions; warned moves only sometimes."""
    actions = list(view["legal_actions"])
    warned = view.get("action_warnings") or {}
    calm = [action for action in actions if action not in warned]
    if calm and (len(calm) < len(actions)) and rng.random() < 0.85:
        actions = calm
    verbs = sorted({action.split()[0] for action in actions})
    weights = [0.15 if verb in ("pass", "stop", "end") and len(verbs) > 1 else 1.0 for verb in verbs]
    verb = rng.choices(verbs, weights)[0]
    return str(rng.choice([action for action in actions if action.split()[0] == verb]))


def check_refusal_on_hover(page: Any, api: httpx.Client, table_id: str, token: str, phone: bool) -> bool:
    """Hover (or tap) an illegal target: its title becomes the engine's refusal for it."""
    node = page.locator("#board .unplayable[data-play]").first
    if not node.count():
        return False
    action = str(node.get_attribute("data-play"))
    node.evaluate("node => { const r = node.getBoundingClientRect(); window.scrollBy(0, r.top - 110); }")
    if phone:
        node.dispatch_event("touchstart")
    else:
        node.hover()
    page.wait_for_function("node => node.title && node.title !== '…'", arg=node.element_handle(), timeout=10_000)
    reason = api.get(f"/api/tables/{table_id}/why", params={"action": action}, headers=bearer(token)).json()
    assert reason["legal"] is False
    assert node.get_attribute("title") == reason["reason"], (action, reason)
    page.evaluate("window.scrollTo(0, 0)")
    return True


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_whole_game_played_on_the_board(browser: Any, server: Server, size: str) -> None:
    phone = size == "phone"
    started = time.monotonic()
    with httpx.Client(base_url=server.url, timeout=20) as api:
        created = create_table(api, GAME_ID, SEATS, options=OPTIONS, seed=5 if phone else 11)
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        page = new_page(browser, phone=phone)
        page.goto(created["seats"][0]["link"])
        page.wait_for_selector(".me-board")
        view = wait_for_decision(page, -1)
        assert view is not None
        assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)

        rng = random.Random(20 if phone else 10)
        played: Counter[str] = Counter()
        refusal_checked = False
        shot = False
        moves = 0
        while view is not None:
            assert horizontal_overflow(page) <= 0, "the table is wider than the screen"
            assert decision_in_view(page), "the decision is not in view"
            check_what_a_newcomer_reads(page, f"{size}, move {moves} ({view['decision']['kind']})")
            targets = board_targets(page)
            missing = [action for action in view["legal_actions"] if not reachable(action, targets)]
            assert not missing, f"legal moves with no target on the board: {missing}"
            if not refusal_checked and view["decision"]["kind"] == "turn":
                refusal_checked = check_refusal_on_hover(page, api, table_id, token, phone)
            observation = view["observation"]
            mine = [line for line in observation["players"][0]["lines"] if line is not None]
            if not shot and observation["round"] >= 3 and mine and view["decision"]["kind"] == "turn":
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(700)  # let the arrivals finish fading in
                screenshot(page, f"{GAME_ID}-{size}", full_page=False, docs=True)
                shot = True
            action = pick(rng, view)
            play_on_board(page, action, view)
            played[action.split()[0]] += 1
            moves += 1
            view = wait_for_decision(page, view["version"])

        page.wait_for_selector("#final-scores")
        # The game ended under the player's eyes: its final scores come into view, wherever the page was scrolled.
        page.wait_for_function(
            "() => { const top = document.querySelector('#final-scores').getBoundingClientRect().top; "
            "return top > -2 && top < innerHeight / 2; }",
            timeout=5_000,
        )
        assert page.locator(".me-final").count() == 1
        assert not page.locator("#dock .me-hand").count(), "no hand once the game is over"
        check_what_a_newcomer_reads(page, f"{size}, the end")
        assert not axe_violations(page, EVERY_IMPACT), axe_violations(page, EVERY_IMPACT)
        assert not page.errors, page.errors
        page.context.close()
    assert refusal_checked and shot
    assert {"keep", "place", "produce"} <= set(played) and {"lay", "script"} & set(played), played
    print(f"{size}: {moves} moves on the board in {time.monotonic() - started:.1f} s: {dict(played)}")


def joker_stage(view: dict[str, Any], action: str) -> bool:
    return action.startswith("lay ") and len(action.split()) == 4


def dossier_place(view: dict[str, Any], action: str) -> bool:
    return action.startswith("place ") and action.endswith(" dossier") and action.rsplit(" ", 1)[0] in view["legal_actions"]


def gift(view: dict[str, Any], action: str) -> bool:
    return bool(view["decision"]["kind"] == "give")


def exemption(view: dict[str, Any], action: str) -> bool:
    return action.startswith("exempt ") and action != "exempt decline"


def dossier_free_action(view: dict[str, Any], action: str) -> bool:
    return action == "purge" or action.startswith(("block ", "cut "))


#: Rarer moves, each reached by playing through the API first: (Shoot a Short?, which action, which spaces to prefer).
RARE = {
    "joker": (True, joker_stage, ()),
    "dossier": (True, dossier_place, ("RV1", "BN2")),
    "gift": (False, gift, ()),
    "exemption": (False, exemption, ("RV1",)),
    "purge-block-cut": (True, dossier_free_action, ("RV1",)),
}


def reach(api: httpx.Client, case: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A table where Ann may make the rare move ``case`` (played there through the API, seed after seed)."""
    short, wanted, spaces = RARE[case]
    for seed in range(60):
        created = create_table(api, GAME_ID, SEATS, options={"shoot_a_short": short}, seed=seed)
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        rng = random.Random(seed)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            view = dict(api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json())
            if view["outcome"]:
                break
            actions = view["legal_actions"]
            if not actions:
                time.sleep(0.02)
                continue
            hits = [action for action in actions if wanted(view, action)]
            if hits:
                return created, hits[0], view
            busy = [action for action in actions if action.split()[0] in ("produce", "lay", "script", "keep", "place", "take")]
            busy = [action for action in actions if any(space in action for space in spaces)] or busy
            answer = api.post(f"/api/tables/{table_id}/actions", json={"action": rng.choice(busy or actions)}, headers=bearer(token))
            assert answer.status_code == 200, answer.text
    raise AssertionError(f"no game reached a {case} move")


@pytest.mark.parametrize("case", sorted(RARE))
def test_a_rare_move_is_made_on_the_board(browser: Any, server: Server, case: str) -> None:
    """A joker's stage, a placement that spends the black dossier and an AP12 gift of two cards, each by clicks on the board."""
    with httpx.Client(base_url=server.url, timeout=20) as api:
        created, action, view = reach(api, case)
        token = created["seats"][0]["token"]
        page = new_page(browser)
        page.goto(created["seats"][0]["link"])
        page.wait_for_selector(".me-board")
        shown = wait_for_decision(page, -1)
        assert shown is not None and action in shown["legal_actions"]
        assert all(reachable(legal, board_targets(page)) for legal in shown["legal_actions"])
        clicked = play_on_board(page, action, shown)
        assert page.locator("#refusal").is_hidden(), page.locator("#refusal").inner_text()
        after = dict(api.get(f"/api/tables/{created['table']['id']}/view", headers=bearer(token)).json())
        me = after["observation"]["players"][0]
        if case == "joker":
            _, joker, _, stage = action.split()
            assert len(clicked) >= 2 and clicked[-1] == action, clicked
            cells = [cell for line in me["lines"] if line for cell in line["cards"]]
            assert any(cell["card"] == joker and cell["stage"] == stage for cell in cells), cells
        elif case == "dossier":
            assert clicked == [action.rsplit(" ", 1)[0], action], clicked
            assert me["dossiers_spent"] == view["observation"]["players"][0]["dossiers_spent"] + 1
        elif case == "gift":
            assert clicked[-1] == action and len(clicked) == 3, clicked
        else:
            assert clicked == [action], clicked
        assert not page.errors, page.errors
        page.context.close()
