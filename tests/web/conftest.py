"""Fixtures that run the real server (``greenlight serve``) as a subprocess on a free port with a temporary SQLite file."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from greenlight.core.words import Component, bare_codes, jargon

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
DOC_SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


#: The marks of a module of browser tests: selected by ``-m browser``, skipped where Debian's chromium is missing.
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: Most tests create many tables and play fast from one address: the rate limits are lifted for them
#: (tests/web/test_limits.py runs servers with the real defaults).
NO_RATE_LIMITS = [
    *("--limit", "create_per_minute=0", "--limit", "actions_per_second=0", "--limit", "requests_per_second=0"),
    *("--limit", "socket_messages_per_second=0", "--limit", "socket_opens_per_minute=0", "--limit", "uploads_per_minute=0"),
    *("--limit", "hints_per_minute=0"),
]


#: The operator's token every test server runs with: ``/api/health`` shows its figures only to a request carrying it.
OPERATOR_TOKEN = "test-operator-token"
OPERATOR = {"X-Greenlight-Operator": OPERATOR_TOKEN}


class Server:
    """One ``greenlight serve`` process; ``kill`` ends it with SIGKILL, ``start`` runs it again on the same database and port.

    ``db`` is a SQLite file, or a PostgreSQL address (then ``log`` names the log file).
    """

    def __init__(self, db: Path | str, bot_delay: float = 0.0, extra: list[str] | None = None, log: Path | None = None) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.extra = NO_RATE_LIMITS if extra is None else extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        if log is None:
            assert isinstance(db, Path), "a server on PostgreSQL needs a log file"
            log = db.with_suffix(".log")
        self.log = log

    def start(self) -> None:
        command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--port", str(self.port), "--db", str(self.db)]
        command += ["--bot-delay", str(self.bot_delay), *self.extra]
        with self.log.open("ab") as log:
            env = {**os.environ, "PYTHONUNBUFFERED": "1", "GREENLIGHT_OPERATOR_TOKEN": OPERATOR_TOKEN}
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.log.parent, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)

    def query(self, statement: str, values: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows read straight from the server's database (``?`` placeholders, on SQLite and PostgreSQL alike)."""
        if isinstance(self.db, Path):
            import sqlite3

            with sqlite3.connect(self.db) as db:
                return list(db.execute(statement, values))
        import psycopg

        with psycopg.connect(self.db) as db:
            return list(db.execute(statement.replace("?", "%s"), values).fetchall())

    def dump(self) -> str:
        """Everything the database holds, as text (to show that a secret is nowhere in it)."""
        if isinstance(self.db, Path):
            import sqlite3

            with sqlite3.connect(self.db) as db:
                return "\n".join(db.iterdump())
        result = subprocess.run(["pg_dump", "--data-only", self.db], capture_output=True, text=True, check=True, timeout=60)
        return result.stdout


# -- PostgreSQL (a real server in a temporary folder, one per test process) ------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throw-away PostgreSQL server (``greenlight.testing.postgres``); scripts/test installs Debian's postgresql."""
    from greenlight.testing.postgres import PostgresUnavailable, TemporaryPostgres

    try:
        server = TemporaryPostgres().start()
    except PostgresUnavailable as error:
        pytest.skip(str(error))
    yield server
    server.stop()


def new_database(postgres: Any) -> str:
    """A fresh, empty database on the test PostgreSQL server; its address."""
    import uuid

    import psycopg

    name = f"t{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres.url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return str(postgres.url.rsplit("/", 1)[0]) + f"/{name}"


@pytest.fixture
def database(postgres: Any) -> str:
    """The address of an empty database of the test's own."""
    return new_database(postgres)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module that sets ``BACKENDS = ("sqlite", "postgresql")`` runs its tests against a server on each."""
    if "server_backend" in metafunc.fixturenames:
        metafunc.parametrize("server_backend", getattr(metafunc.module, "BACKENDS", ("sqlite",)), scope="module")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, server_backend: str) -> Iterator[Server]:
    """A server shared by a test module (bots move without delay), on a SQLite file or on PostgreSQL."""
    folder = tmp_path_factory.mktemp("web")
    if server_backend == "postgresql":
        running = Server(new_database(request.getfixturevalue("postgres")), log=folder / "server.log")
    else:
        running = Server(folder / "tables.db")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (for restarts)."""
    running = Server(tmp_path / "tables.db")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def create_table(api: httpx.Client, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """POST /api/tables and return the answer (asserting 201)."""
    response = api.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_until(predicate: Any, timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Socket:
    """A WebSocket client of one table (a seat with its token, or a spectator with None).

    ``raw`` keeps every text received (for leak checks); ``next`` and ``view_at``
    take messages out of a buffer, so a message skipped by one call is still
    there for the next.
    """

    def __init__(self, server: Server, table_id: str, token: str | None, hello: bool = True) -> None:
        from websockets.sync.client import connect

        self.ws = connect(f"{server.ws_url}/ws/tables/{table_id}", open_timeout=10, legacy=True)
        self.raw: list[str] = []
        self.buffer: list[dict[str, Any]] = []
        #: The last view that came off the wire (what a ``view_unchanged`` answer refers to).
        self.latest_view: dict[str, Any] | None = None
        if hello:
            self.send({"type": "hello", "token": token})

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message off the wire (also kept in the buffer)."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message = dict(json.loads(text))
        self.buffer.append(message)
        if message["type"] == "view":
            self.latest_view = message
        return message

    def ask_view(self, request_id: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Ask for the view again: the view that comes (the first buffered one first), or, when the server answers that
        this client already has the current view (``view_unchanged``), the last view received."""
        self.send({"type": "view", "id": request_id})
        self.buffer = [m for m in self.buffer if m["type"] != "view"]  # views from before the question: not its answer
        answer = self._take(lambda m: m["type"] == "view" or (m["type"] == "view_unchanged" and m.get("id") == request_id), timeout)
        if answer["type"] == "view":
            return answer
        assert self.latest_view is not None and answer["version"] == self.latest_view["version"], answer
        return self.latest_view

    def _take(self, match: Any, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.buffer):
                if match(message):
                    del self.buffer[index]
                    return message
            self.receive(timeout=max(0.01, deadline - time.monotonic()))

    def next(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """The first buffered or coming message of type ``kind`` whose fields match ``fields``."""
        return self._take(lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()), timeout)

    def view_at(self, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first view at ``version`` or later (older views are dropped)."""
        view = self._take(lambda m: m["type"] == "view" and m["version"] >= version, timeout)
        self.buffer = [m for m in self.buffer if m["type"] != "view" or m["version"] > view["version"]]
        return view

    def close(self) -> None:
        self.ws.close()


# -- browsers (Playwright driving Debian's chromium) ----------------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless chromium per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def new_page(browser: Any, *, phone: bool = False) -> Any:
    """A page in a fresh context: a 1366x900 desktop, or a 390x844 phone (touch, mobile viewport).

    ``bypass_csp`` lets the test evaluate its own JavaScript (axe-core); it also means an escaping bug could not
    hide behind the Content Security Policy.
    """
    size = {"width": 390, "height": 844} if phone else {"width": 1366, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, bypass_csp=True, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def screenshot(page: Any, name: str, *, full_page: bool = True, docs: bool = False) -> Path:
    """Save a screenshot into test-artifacts/screenshots/ and return its path.

    ``docs`` also saves it as docs/screenshots/<name>.png: the pictures the README links, refreshed by every run.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if docs:
        DOC_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (DOC_SCREENSHOTS / f"{name}.png").write_bytes(path.read_bytes())
    return path


def open_table(browser: Any, url: str, board: str, *, phone: bool = False) -> Any:
    """``new_page`` at the table ``url``, once its board (the CSS selector ``board``) is drawn."""
    page = new_page(browser, phone=phone)
    page.goto(url)
    page.wait_for_selector(board)
    return page


def check_table_words(page: Any, components: list[Component], where: str, board: str) -> str:
    """The visible text of a table page, its step help opened: no card code alone, nothing that reads like code,
    no script error (``where`` names the moment in the message); returns the text."""
    page.wait_for_selector(board)
    # The step help (a side tab, or a folded panel) is part of what a person reads: open it.
    if page.locator("#tab-help").count():
        page.click("#tab-help")
    elif page.locator("#step-help").count() and page.locator("#step-help").get_attribute("open") is None:
        page.click("#step-help summary")
    text = str(page.inner_text("main"))
    assert not bare_codes(text, components), f"{where}: bare codes {bare_codes(text, components)} in:\n{text}"
    assert not jargon(text), f"{where}: code-like text {jargon(text)} in:\n{text}"
    assert not page.errors, f"{where}: JavaScript errors {page.errors}"
    return text


def wait_for_turn(page: Any) -> bool:
    """Wait until the seat of the page may choose (True) or the game is over (False)."""
    page.wait_for_function(
        "document.querySelector('#final-scores') || document.querySelector('#controls button.choice:not([disabled])')",
        timeout=30_000,
    )
    return page.query_selector("#final-scores") is None


def check_moves_read_apart(page: Any) -> None:
    """No two moves the decision menu offers read alike (two alike cards in a hand are one choice, not two)."""
    offered = page.evaluate(
        """() => [...document.querySelectorAll('#controls .choices button.choice')]
            .filter((button) => button.dataset.action)
            .map((button) => {
                const seen = button.cloneNode(true);  // the words a person reads: without the key number
                seen.querySelectorAll("kbd, .visually-hidden").forEach((node) => node.remove());
                return seen.textContent.trim();
            })"""
    )
    assert len(offered) == len(set(offered)), f"moves offered in the same words: {offered}"


def choose_by_menu(page: Any, target: str) -> str | None:
    """Click through the decision menu to ``target`` (a legal action), as a person would; confirm it if the game
    warns first. Returns the warning shown, if any."""
    tokens = target.split()
    while True:
        path = page.evaluate("Greenlight.tablePage.path")
        assert tokens[: len(path)] == path, f"the chooser went to {path}, not towards {target}"
        check_moves_read_apart(page)
        # A move in the same words as one before it (two alike cards) is offered by that one's button.
        shown = page.evaluate(
            """(target) => {
                for (const button of document.querySelectorAll('#controls button.choice[data-action]'))
                    if (button.dataset.action === target || JSON.parse(button.dataset.alike || "[]").includes(target))
                        return button.dataset.action;
                return null;
            }""",
            target,
        )
        if shown:
            page.locator(f'#controls button.choice[data-action="{shown}"]').first.click()
            break
        page.locator(f'#controls button.choice[data-token="{tokens[len(path)]}"]').first.click()
    confirm = page.locator("#controls .confirm")
    if confirm.count():
        warning = str(confirm.locator("p").first.inner_text())
        confirm.locator("button.danger").click()
        return warning
    return None


#: Every impact axe-core reports: a newcomer's pages have none of any (lobby and tables, playing and finished).
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page now, as "rule: target" lines."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: scripts/test installs it with npm ci")
    # Measure the page at rest: arrival animations start faded, which would read as low contrast.
    page.evaluate("Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null)))")
    if not page.evaluate("Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node.get('failureSummary', '')[:160]}"
        for violation in result["violations"]
        if violation["impact"] in impacts
        for node in violation["nodes"]
    ]


def horizontal_overflow(page: Any) -> int:
    """How many pixels the page is wider than the window (0: nothing to scroll sideways)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


# -- what a newcomer reads: nothing cut off, nothing tiny, the decision's subject in view ------------------------------

#: The smallest text a table shows, in CSS pixels (legible on a phone without zooming).
SMALLEST_TEXT_PX = 11.5

_TEXT_PROBLEMS = """(smallest) => {
  const clipped = [], tiny = [];
  for (const area of document.querySelectorAll('#board, #dock, #seats, #outcome')) {
    for (const node of area.querySelectorAll('*')) {
      const own = [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim());
      if (!own || node.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)')) continue;
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' || node.getClientRects().length === 0) continue;
      const text = node.textContent.trim().slice(0, 60);
      // Text cut off: more to show than the box shows, and the box does not scroll to it.
      const scrolls = (value) => value === 'auto' || value === 'scroll';
      const cut = (axis) => style[`overflow${axis}`] !== 'visible' && !scrolls(style[`overflow${axis}`]);
      if (node.scrollWidth > node.clientWidth + 1 && cut('X')) clipped.push(`${node.className}: ${text} (wider than its box)`);
      if (node.scrollHeight > node.clientHeight + 1 && cut('Y')) clipped.push(`${node.className}: ${text} (taller than its box)`);
      if (style.textOverflow === 'ellipsis' && node.scrollWidth > node.clientWidth) clipped.push(`${node.className}: ${text} (ellipsis)`);
      // Text cut off by a box around it (a card that hides what overflows it): the words' own rectangle against
      // every enclosing box that clips without scrolling.
      const range = document.createRange();
      range.selectNodeContents(node);
      const words = range.getBoundingClientRect();
      for (let box = node.parentElement; box && box !== area.parentElement; box = box.parentElement) {
        const boxStyle = getComputedStyle(box);
        const clipsX = boxStyle.overflowX === 'hidden' || boxStyle.overflowX === 'clip';
        const clipsY = boxStyle.overflowY === 'hidden' || boxStyle.overflowY === 'clip';
        if (!clipsX && !clipsY) continue;
        const edge = box.getBoundingClientRect();
        const outX = clipsX && (words.left < edge.left - 1 || words.right > edge.right + 1);
        const outY = clipsY && (words.top < edge.top - 1 || words.bottom > edge.bottom + 1);
        if (outX || outY) {
          const at = [words.left, words.right, words.top, words.bottom].map(Math.round).join(' ');
          const around = [edge.left, edge.right, edge.top, edge.bottom].map(Math.round).join(' ');
          clipped.push(`${node.className}: ${text} (cut off by ${box.className || box.tagName}: words at ${at}, box at ${around})`);
          break;
        }
      }
      if (parseFloat(style.fontSize) < smallest) tiny.push(`${node.className}: ${text} (${style.fontSize})`);
    }
  }
  return {clipped, tiny};
}"""

#: On a phone, the decision's subject (what the prompt talks about) stands above the decision bar.
_SUBJECT_IN_VIEW = """() => {
  const decision = document.querySelector('#decision');
  if (getComputedStyle(decision).position !== 'fixed') return true;
  const node = Greenlight.tablePage.subject();
  if (!node) return true;
  const bottom = decision.classList.contains('folded') ? innerHeight : decision.getBoundingClientRect().top;
  const box = node.getBoundingClientRect();
  return box.top >= 0 && box.top + Math.min(box.height, bottom - 8) <= bottom + 1;
}"""


def check_what_a_newcomer_reads(page: Any, where: str) -> None:
    """No text of the table cut off (each element's scroll size against its box), none smaller than
    ``SMALLEST_TEXT_PX``, and on a phone the subject of the decision above the decision bar."""
    found = page.evaluate(_TEXT_PROBLEMS, SMALLEST_TEXT_PX)
    assert not found["clipped"], f"{where}: text cut off: {found['clipped'][:8]}"
    assert not found["tiny"], f"{where}: text smaller than {SMALLEST_TEXT_PX} px: {found['tiny'][:8]}"
    try:
        page.wait_for_function(_SUBJECT_IN_VIEW, timeout=3_000)
    except Exception:
        subject = page.evaluate(
            """(() => { const n = Greenlight.tablePage.subject(), bar = document.querySelector('#decision');
                return n ? [n.className, n.getBoundingClientRect().top, bar.getBoundingClientRect().top] : null; })()"""
        )
        screenshot(page, "subject-out-of-view", full_page=False)
        raise AssertionError(f"{where}: the decision's subject is not above the decision bar: {subject}") from None
