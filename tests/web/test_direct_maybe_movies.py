"""Maybe Movies played on the board: a whole game at a desktop's 1366x900 and a phone's 390x844 where every move of
Ann is a click (a tap on the phone) on the thing it names, never a button of the decision menu (#controls).

* ``add M12`` (pitch): the market card; ``vote Y05`` / ``vote C03``: the vote card in the docked hand;
  ``remove M03`` / ``copy M07`` / ``pick M12``: the row card; ``add M40`` (CHANGE edit): the personal card in the
  docked hand; ``slot 2``: the gap in the row.
* Moves that name no component are buttons the renderer draws on the board, by the pitch row: ``finish``,
  ``icon camera`` (a copycat's tied icon), ``profit 2`` (a wildcard's amount). No move uses #controls.
* A move the game warns about (a pitch that certainly fails) asks in the decision first; a second click on the same
  board target confirms it.

The desktop game is the base game; the phone game has all three expansions (CHANGE edits, slots, blockbuster choices,
Trendsetter stacks), so every kind of move can come up. At every decision: every legal action has a highlighted
target in #board or #dock, nothing is wider than the screen, and the target is in view when clicked.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
import pytest

from tests.web.conftest import (
    EVERY_IMPACT,
    Server,
    axe_violations,
    bearer,
    check_moves_read_apart,
    check_what_a_newcomer_reads,
    create_table,
    horizontal_overflow,
    new_page,
    screenshot,
)

pytestmark = pytest.mark.browser

SIZES = {"desktop": False, "phone": True}
OPTIONS = {
    "desktop": {},
    "phone": {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True},
}
SEEDS = {"desktop": 1, "phone": 3}
#: Moves with no component on the table: the renderer draws them as buttons by the pitch row (#board).
BOARD_BUTTONS = {"finish", "icon", "profit"}
TARGETS = "#board [data-play].playable, #dock [data-play].playable"


def page_state(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
              const v = Greenlight.tablePage.view;
              return {version: v ? v.version : -1, legal: v ? v.legal_actions : [], over: Boolean(v && v.outcome),
                      phase: v ? v.observation.phase : null, row: v ? v.observation.row.length : 0};
            }"""
        )
    )


def wait_for_decision(page: Any, after: int) -> dict[str, Any]:
    """Wait for a view newer than ``after`` where Ann may act (her last move acknowledged), or the end of the game."""
    page.wait_for_function(
        """(after) => {
          const v = Greenlight.tablePage.view;
          if (!v || v.version <= after) return false;
          return Boolean(document.querySelector('#final-scores')) ||
            (v.legal_actions.length > 0 && Boolean(document.querySelector('#controls button.choice:not([disabled])')));
        }""",
        arg=after,
        timeout=30_000,
    )
    return page_state(page)


def board_plays(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(TARGETS, "nodes => nodes.map(n => n.dataset.play)"))


def reachable(action: str, plays: list[str]) -> bool:
    return any(action == play or action.startswith(f"{play} ") for play in plays)


def in_view(page: Any, locator: Any) -> bool:
    """The target's centre is inside the window and the target itself is what a click there hits."""
    return bool(
        locator.evaluate(
            """(node) => {
              const box = node.getBoundingClientRect();
              const x = box.left + box.width / 2, y = box.top + box.height / 2;
              if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
              const hit = document.elementFromPoint(x, y);
              return Boolean(hit && (hit === node || node.contains(hit)));
            }"""
        )
    )


def choose(rng: random.Random, legal: list[str], used: dict[str, int]) -> str:
    """A legal move: the verb least used so far (ties at random), then one of its actions at random."""
    verbs = sorted({action.split()[0] for action in legal})
    least = min(used.get(verb, 0) for verb in verbs)
    verb = rng.choice([verb for verb in verbs if used.get(verb, 0) == least or rng.random() < 0.3])
    used[verb] = used.get(verb, 0) + 1
    return rng.choice([action for action in legal if action.split()[0] == verb])


def check_refusal(page: Any, api: httpx.Client, table_id: str, token: str, names: dict[str, str], phone: bool) -> bool:
    """An illegal target on the board explains itself with the engine's refusal (cards by name): hovered on a
    desktop (its title and a tooltip), tapped on a phone (a note at the top of the screen). False if none is drawn."""
    illegal = page.locator("#board [data-play].unplayable, #dock [data-play].unplayable")
    if not illegal.count():
        return False
    target = illegal.first
    action = target.get_attribute("data-play")
    answer = api.get(f"/api/tables/{table_id}/why", params={"action": action}, headers=bearer(token)).json()
    assert answer["legal"] is False
    reason = answer["reason"]
    for code in re.findall(r"\b[A-Z]\d{2}\b", reason):
        assert f"{names[code]} ({code})" in reason, f"the refusal names {code} without its name: {reason!r}"
    # Centred: above the phone's decision bar, which covers the bottom of the screen.
    target.evaluate("(node) => node.scrollIntoView({block: 'center'})")
    if phone:
        target.tap(force=True)  # a target that cannot be played may say so (aria-disabled): tap it anyway
        page.wait_for_selector("#mm-why")
        assert page.locator("#mm-why").inner_text() == reason, action
    else:
        target.hover()
        page.wait_for_function("(node) => node.title && node.title !== '…'", arg=target.element_handle(), timeout=10_000)
        assert target.get_attribute("title") == reason, action
        tooltip = target.evaluate("(node) => getComputedStyle(node, '::after').content")
        assert reason in tooltip, "the refusal is shown beside the target while hovered"
        page.mouse.move(0, 0)
    return True


#: Titles that two different movie cards show on the page (each title stands for one card: §2.6).
SHARED_TITLES = """() => {
  const cards = new Map();
  for (const node of document.querySelectorAll('#board .mm-card.movie[data-card], #dock .mm-card.movie[data-card]')) {
    const title = node.querySelector('.mm-title').textContent.trim();
    cards.set(title, (cards.get(title) || new Set()).add(node.dataset.card));
  }
  return [...cards].filter(([, ids]) => ids.size > 1).map(([title, ids]) => `${title}: ${[...ids].join(', ')}`);
}"""


def accessibility_problems(page: Any) -> list[str]:
    """axe-core's problems of any impact on the page."""
    return axe_violations(page, EVERY_IMPACT)


def check_why_the_winner_won(page: Any) -> None:
    """The end of the game says in one sentence per seat, winners first, how each score adds up, with the points
    the final scores hold."""
    final = page.evaluate("() => Greenlight.tablePage.view.observation.final")
    names = page.evaluate("() => Greenlight.tablePage.view.table.seats.map((seat) => seat.name)")
    lines = page.locator(".mm-final .mm-final-lines li")
    assert lines.count() == len(final["scores"])
    order = sorted(range(len(final["scores"])), key=lambda seat: (final["ranks"][seat], seat))
    for line, seat in zip(lines.all(), order, strict=True):
        text = line.inner_text()
        points = final["scores"][seat]
        assert text.startswith(names[seat]) and re.search(rf": {points} points? (from|: no vote card won)", text), text
        assert ("winner" in (line.get_attribute("class") or "")) == (seat in final["winners"]), text
    assert lines.first.get_attribute("class") == "winner", "the winner's sentence comes first"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_whole_game_played_on_the_board(browser: Any, server: Server, size: str) -> None:
    started = time.monotonic()
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    with server.client() as api:
        created = create_table(api, "maybe-movies", seats, seed=SEEDS[size], options=OPTIONS[size])
        table_id, token = created["table"]["id"], created["seats"][0]["token"]
        names = {item["id"]: item["name"] for item in api.get(f"/api/tables/{table_id}/components").json()}
        movies = [name for code, name in names.items() if code[0] in "MB"]
        assert len(movies) == 60 and len(set(movies)) == 60, "every movie card of the catalogue has its own title"
        page = new_page(browser, phone=SIZES[size])
        page.goto(created["seats"][0]["link"])
        page.wait_for_selector(".mm-board")
        rng = random.Random(f"maybe-movies/{size}")
        used: dict[str, int] = {}
        moves = 0
        explained = shot = False
        placed_shown = 0
        state = wait_for_decision(page, -1)
        problems = accessibility_problems(page)
        assert not problems, problems
        while not state["over"]:
            legal = state["legal"]
            plays = board_plays(page)
            missing = [action for action in legal if not reachable(action, plays)]
            assert not missing, f"legal moves with no target on the board: {missing}"
            assert horizontal_overflow(page) <= 0, "the table page is wider than the screen"
            check_what_a_newcomer_reads(page, f"{size}, move {moves} ({state['phase']})")
            shared = page.evaluate(SHARED_TITLES)
            assert not shared, f"two different cards show the same title: {shared}"
            check_moves_read_apart(page)
            held = page.locator("#dock .mm-hand [data-card]").evaluate_all("nodes => nodes.map((node) => node.dataset.card)")
            assert held == sorted(held, key=lambda card: ("YNC".find(card[0]) % 4, card)), f"the hand is out of its order: {held}"
            if any(action.startswith("slot ") for action in legal):
                # Where does the card go: the card itself stands by the question (it is in no row or hand meanwhile).
                added = page.evaluate("Greenlight.tablePage.view.observation.edit.added")
                assert page.locator(f'.mm-placing [data-card="{added}"]').count() == 1, "the card being placed is not shown"
                assert names[added] in page.locator(".mm-pitch .mm-hint").inner_text()
                placed_shown += 1
            if not explained:
                explained = check_refusal(page, api, table_id, token, names, SIZES[size])
            if not shot and moves >= 6 and state["phase"] == "vote" and state["row"] >= 2:
                # The market and the pitch on a desktop; the pitch above the decision bar on a phone.
                page.locator(".mm-pitch" if SIZES[size] else ".mm-board").evaluate("(node) => node.scrollIntoView({block: 'start'})")
                page.wait_for_timeout(600)  # arrivals settled
                screenshot(page, f"maybe-movies-{size}", full_page=False, docs=True)
                shot = True
            action = choose(rng, legal, used)
            selector = ", ".join(f'{area} [data-play="{action}"].playable' for area in ("#board", "#dock"))
            target = page.locator(selector).first
            # A bot's move may redraw the board between scrolling and looking: scroll again then.
            seen = False
            for _ in range(5):
                target.evaluate("(node) => node.scrollIntoView({block: 'center', inline: 'nearest'})")
                seen = in_view(page, target)
                if seen:
                    break
            assert seen, f"{action}: its target is not in view"
            version = state["version"]
            target.click()
            if page.locator("#controls .confirm").count():
                # A warned move: the decision asks; the same target, clicked again, confirms it.
                assert page.locator("#controls .confirm .warning").inner_text()
                target.click()
            moves += 1
            assert moves < 300, "the game does not end"
            state = wait_for_decision(page, version)
        page.wait_for_selector("#final-scores")
        assert horizontal_overflow(page) <= 0
        check_what_a_newcomer_reads(page, f"{size}, the end")
        check_why_the_winner_won(page)
        assert not page.locator("#board .badge.pitching").count(), "nobody is pitching once the game is over"
        problems = accessibility_problems(page)
        assert not problems, problems
        if not shot:
            screenshot(page, f"maybe-movies-{size}", full_page=False, docs=True)
        assert explained, "no illegal target was hovered"
        kinds = {verb for verb, n in used.items() if n}
        assert {"add", "finish", "vote"} <= kinds, kinds
        if OPTIONS[size].get("breaking_changes"):
            assert kinds & {"remove", "slot"}, f"no CHANGE edit was made on the board: {kinds}"
        errors = page.errors
        page.context.close()
        assert not errors, f"JavaScript errors on the page: {errors}"
    print(f"{size}: {moves} moves on the board ({sorted(kinds)}, {placed_shown} slot steps) in {time.monotonic() - started:.1f} s")
