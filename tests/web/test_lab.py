"""The designer's lab in the browser (a room of the server): upload data, run a small study with a live progress bar,
read the answer and an interactive chart (under the pages' real Content Security Policy), axe-clean at desktop and
phone sizes; its API refuses bad data naming file, row and column, and takes every budget before any game."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("matplotlib")  # the lab's studies use the sim extra

from collections.abc import Iterator

from greenlight.core.registry import get_game
from tests.web.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NO_RATE_LIMITS,
    Server,
    axe_violations,
    horizontal_overflow,
    new_page,
    screenshot,
    wait_until,
)

STARS = get_game("movie-empire").data.bundled / "stars.toml"  # type: ignore[union-attr]


def stars_csv(cost_of_jasper: str = "0") -> bytes:
    """The bundled stars as a CSV file, Jasper Vale (ST16) at another cost."""
    dataset = get_game("movie-empire").data
    assert dataset is not None
    table = dataset.table("stars")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([field.name for field in table.fields])
    for record in dataset.read(None)["stars"]:
        cells = [field.to_cell(record[field.name]) for field in table.fields]
        if record["id"] == "ST16":
            cells[[field.name for field in table.fields].index("cost")] = cost_of_jasper
        writer.writerow(["" if cell is None else cell for cell in cells])
    return out.getvalue().encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server for the lab's tests, on SQLite, without the rate of study starts (every other lab budget as shipped)."""
    running = Server(tmp_path_factory.mktemp("lab") / "tables.db", extra=[*NO_RATE_LIMITS, "--limit", "lab_starts_per_minute=0"])
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def upload(api: httpx.Client, name: str, content: bytes, game: str = "movie-empire") -> httpx.Response:
    return api.post(
        "/api/lab/files", params={"game": game, "name": name}, content=content, headers={"Content-Type": "application/octet-stream"}
    )


def upload_in_the_page(page: Any, server: Server, file: Path) -> None:
    """Open the lab, pick Movie Empire and upload ``file`` with the page's own controls."""
    page.goto(f"{server.url}/lab")
    page.select_option("#lab-game", "movie-empire")
    page.set_input_files("#lab-file", str(file))
    page.click("#lab-upload")


def _progress_seen(page: Any, timeout: float) -> tuple[list[str], float]:
    """The progress texts shown until the study is done, and the bar's last value over its maximum."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = page.inner_text("#lab-progress-text")
        if not seen or seen[-1] != text:
            seen.append(text)
        if text.startswith(("Done", "Failed", "Cancelled")):
            break
        page.wait_for_timeout(150)
    value = page.evaluate("document.getElementById('lab-progress').value / document.getElementById('lab-progress').max")
    return seen, float(value)


@pytest.mark.browser
def test_a_designer_uploads_data_runs_a_study_and_reads_the_answer(server: Server, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium")
    file = tmp_path / "stars.csv"
    file.write_bytes(stars_csv())
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The page's own Content Security Policy (no eval, no inline style) applies: the charts must draw under it.
        context = chromium.new_context(viewport={"width": 1366, "height": 900}, device_scale_factor=1)
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: console.append(str(error)))
        upload_in_the_page(page, server, file)
        page.wait_for_selector("#lab-data-now:has-text('Your data: stars.csv')")
        page.click("text=Edit the cards in a table")
        page.select_option("#lab-table", "stars")
        cell = page.locator('#lab-grid input[data-row="15"][data-column="cost"]')
        assert cell.input_value() == "0"  # Jasper Vale's cost, as uploaded
        cell.fill("-1")
        cell.dispatch_event("change")
        page.click("#lab-save")
        page.wait_for_selector("#lab-data-error:has-text('row 17, card ST16, column cost: must be at least 0, got -1')")
        cell.fill("1")
        cell.dispatch_event("change")
        page.click("#lab-save")
        page.wait_for_selector("#lab-data-now:has-text('Your data: the tables edited in the lab')")
        page.select_option("#lab-players", "2")
        page.fill("#lab-games", "12")
        page.click("#lab-run")
        page.wait_for_selector("#lab-status:not([hidden])")
        seen, fraction = _progress_seen(page, timeout=120)
        assert seen[-1] == "Done: 12 games." and fraction == 1.0, seen
        assert any(" of 12 games played" in text for text in seen), seen  # the bar moved while the games were played
        answers = page.locator("#lab-answer li").all_inner_texts()
        assert answers[0].startswith("The first player wins") and any("A game lasts" in text for text in answers)
        page.wait_for_selector("#chart-cards svg .mark-symbol path")
        point = page.locator("#chart-cards svg .mark-symbol path").first
        point.hover(force=True)
        tooltip = page.wait_for_selector("#vg-tooltip-element.visible")
        words = tooltip.inner_text()
        names = {component.name for component in get_game("movie-empire").components(None)}
        assert "win share" in words and "game-seats" in words and any(name in words for name in names), words
        assert not [line for line in console if "Content Security Policy" in line or "EvalError" in line], console
        link = page.evaluate("window.location.href")
        assert "#study=" in link and page.locator("#lab-history-list a").count() == 1
        screenshot(page, "lab-desktop")
        context.close()
        chromium.close()
    stored = json.loads(server.query("SELECT request FROM lab_studies ORDER BY created_at DESC LIMIT 1")[0][0])
    assert stored["games"] == 12 and stored["data"]


@pytest.mark.browser
def test_the_lab_is_axe_clean_and_fits_a_phone(server: Server, browser: Any) -> None:
    with server.client() as api:
        data = upload(api, "stars.csv", stars_csv()).json()["id"]
        study = api.post(
            "/api/lab/studies", json={"game": "movie-empire", "players": 2, "bots": ["medium"], "games": 6, "seed": 9, "data": data}
        ).json()
        wait_until(lambda: api.get(f"/api/lab/studies/{study['id']}").json()["status"] == "done", 120, "the study")
    for phone in (False, True):
        page = new_page(browser, phone=phone)
        page.goto(f"{server.url}/lab#study={study['id']}")
        page.wait_for_selector("#chart-cards svg")
        page.click("text=Edit the cards in a table")
        page.wait_for_selector("#lab-grid input")
        assert axe_violations(page) == []
        assert horizontal_overflow(page) == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= (390 if phone else 1366)  # nothing wider than the screen
        screenshot(page, "lab-phone" if phone else "lab-desktop-answer")
        assert page.errors == []
        page.context.close()


@pytest.mark.browser
def test_a_designer_compares_her_cards_with_the_printed_game_and_sweeps_a_cost(server: Server, browser: Any, tmp_path: Path) -> None:
    """The comparison and the sweep, run from the page: progress, the answer in sentences, a chart each."""
    file = tmp_path / "stars.csv"
    file.write_bytes(stars_csv("0"))
    context = browser.new_context(viewport={"width": 1366, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    console: list[str] = []
    page.on("pageerror", lambda error: console.append(str(error)))
    upload_in_the_page(page, server, file)
    # The page says which table the file replaces and that the others are the printed ones.
    page.wait_for_selector("#lab-data-now:has-text('Your data: stars.csv (checked: stars (24 rows); every other table as printed).')")
    page.select_option("#lab-players", "2")

    # A comparison: the printed game (A) against the uploaded stars (B), on the same deals.
    page.check('input[name="kind"][value="compare"]')
    assert page.locator("#lab-vary-label").is_hidden()
    page.fill("#lab-games", "12")
    page.click("#lab-run")
    page.wait_for_selector("#lab-status:not([hidden])")
    seen, fraction = _progress_seen(page, timeout=180)
    # Both studies are played: 12 games each, counted together by the bar.
    assert seen[-1] == "Done: 24 games." and fraction == 1.0, seen
    headings = page.locator("#lab-answer h3").all_text_contents()  # as written (the style shows them in capitals)
    assert headings[:2] == ["What differs between A and B", "What changed (significant after correcting for every test)"], headings
    assert "How the studies were compared" in headings
    differs = page.locator("#lab-answer h3:has-text('What differs') + ul li").all_inner_texts()
    # The changed card is named by its title, with the field and both values.
    assert any("Jasper Vale" in text and "cost" in text for text in differs), differs
    assert page.locator("#lab-charts svg").count() >= 1
    assert page.locator("#lab-history-list a:has-text('comparison')").count() == 1

    # A sweep of a rule parameter: a study per value, a suggested value in one sentence, a chart of the values.
    # (A sweep over one star's cost needs thousands of games before that star is played often enough to judge.)
    page.check('input[name="kind"][value="sweep"]')
    assert page.locator("#lab-vary-label").is_visible()
    page.fill("#lab-vary", "rounds=8..10")
    page.fill("#lab-games", "10")
    page.click("#lab-run")
    page.wait_for_selector("#lab-progress-text:not(:has-text('Done: 24 games.'))")
    seen, fraction = _progress_seen(page, timeout=240)
    assert seen[-1] == "Done: 30 games." and fraction == 1.0, seen  # 10 games at each of 3 values
    summary = page.locator("#lab-answer h3:has-text('Summary') + p").inner_text()
    openings = ("Suggested the rule parameter rounds: ", "No tested value of the rule parameter rounds reaches parity")
    assert summary.startswith(openings), summary
    assert "the first player's win share is" in summary and "the the" not in summary, summary
    page.wait_for_selector("#lab-charts svg")
    assert page.locator("#lab-history-list a:has-text('sweep')").count() == 1
    screenshot(page, "lab-sweep-desktop")
    assert not console, console
    context.close()
    kinds = [row[0] for row in server.query("SELECT kind FROM lab_studies ORDER BY created_at")]
    assert kinds[-2:] == ["compare", "sweep"]
