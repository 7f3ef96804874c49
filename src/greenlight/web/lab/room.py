"""The designer's lab in the browser: upload or edit card data, change rule parameters, run a study, a comparison or a
sweep with a live progress bar, and read the answer with interactive charts. See docs/simulation.md (The lab in the
browser), docs/api.md (the API) and docs/security.md (its budgets).

Studies run in a **bounded pool** of worker processes (never in the server's event loop), taken from a queue
kept in the database, so several server processes share one queue and one limit on studies running at once.
Every request that causes work has its budget taken **before** the work: an upload or a study start counts
against the client address's rate, a client address may have only so many studies queued or running, the
server only so many in all, and each study's games are capped (far lower with a search bot). An uploaded file
is data: the game's own loader reads it (never runs it); a workbook that would unpack too large is refused
unopened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import shutil
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from greenlight.bots import is_quick
from greenlight.core.errors import DataError, GreenlightError, OptionError
from greenlight.core.registry import all_games, get_game
from greenlight.web.lab import jobs
from greenlight.web.lab.schema import SCHEMA
from greenlight.web.limits import ServerSettings, client_pseudonym
from greenlight.web.pages import PAGE_CSP
from greenlight.web.rooms import RoomDatabase, RoomTx
from greenlight.web.storage import StorageError
from greenlight.web.tables import TableError, TableHub

log = logging.getLogger("greenlight.web")

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
#: The lab's files the browser may fetch, by name: the page's script and style, and Vega (shipped, never a CDN).
STATIC_FILES = {
    "lab.js": "application/javascript",
    "lab.css": "text/css",
    "vendor/vega.min.js": "application/javascript",
    "vendor/vega-lite.min.js": "application/javascript",
    "vendor/vega-embed.min.js": "application/javascript",
    "vendor/vega-interpreter.js": "application/javascript",
}
#: Where files are uploaded (raw bytes) and edited tables sent (JSON): the body guard gives them larger limits.
FILES_ROUTE = "/api/lab/files"
DATA_ROUTE = "/api/lab/data"
QUEUED, RUNNING, DONE, FAILED, CANCELLED, CANCELLING = "queued", "running", "done", "failed", "cancelled", "cancelling"
KINDS = ("study", "compare", "sweep")

templates = Jinja2Templates(directory=[str(HERE / "templates"), str(HERE.parent / "templates")])


@dataclass(frozen=True, slots=True)
class LabLimits:
    """What the lab lets one client, and everyone together, ask of the server (see docs/security.md)."""

    #: Studies (of any kind) one client address may have queued or running at once.
    studies_per_client: int = 2
    #: Studies running at once on the whole server (every process together); the rest wait in the queue.
    studies_running: int = 2
    #: Studies queued or running on the whole server; beyond, a new one is refused (503).
    queue: int = 20
    #: Games one study may play in all (a comparison plays its games twice, a sweep once per value).
    games_per_study: int = 4000
    #: The same with a search bot (``strong``): each of its games costs as much as 100-150 of the heuristic's
    #: (Cinecitta, Movie Empire; games/s per level in docs/simulation.md).
    search_games_per_study: int = 100
    #: Study starts per client address: per minute, burst.
    starts_per_minute: float = 6.0
    starts_burst: int = 3
    #: Largest upload (a data file, or edited tables as JSON).
    upload_bytes: int = 2 * 1024 * 1024
    #: Uploads checked at once by this process (each in a worker thread).
    checks_at_once: int = 2
    #: Seconds without news from a running study's process before it is queued again for another.
    stale_seconds: float = 90.0
    #: Bots a lab study may seat: the quick levels and the one fast search level.
    search_bots: tuple[str, ...] = ("strong",)

    @classmethod
    def from_settings(cls, settings: ServerSettings) -> LabLimits:
        """The limits the server's settings give (``--limit lab_...=VALUE``)."""
        return cls(
            studies_per_client=settings.lab_studies_per_client,
            studies_running=settings.lab_studies_running,
            queue=settings.lab_queue,
            games_per_study=settings.lab_games_per_study,
            search_games_per_study=settings.lab_search_games_per_study,
            starts_per_minute=settings.lab_starts_per_minute,
            starts_burst=settings.lab_starts_burst,
            upload_bytes=settings.lab_upload_bytes,
        )


# -- requests ------------------------------------------------------------------------------------


class TablesIn(BaseModel):
    """Tables edited in the lab's editor: every cell as text, as in a spreadsheet; the rule parameters."""

    game: str = Field(max_length=60)
    name: str = Field(default="edited tables", max_length=120)
    tables: dict[str, list[dict[str, Any]]] = Field(max_length=16)
    parameters: dict[str, int] = Field(default_factory=dict, max_length=32)


class StudyIn(BaseModel):
    """A study, a comparison (B = ``data``, A = ``baseline``, the bundled data when not given) or a sweep (``vary``)."""

    game: str = Field(max_length=60)
    kind: str = Field(default="study", max_length=10)
    players: int = Field(ge=1, le=16)
    bots: list[str] = Field(min_length=1, max_length=16)
    games: int = Field(ge=1, le=100_000)
    seed: int = Field(default=0, ge=0, le=2**48)
    data: str | None = Field(default=None, max_length=64)
    baseline: str | None = Field(default=None, max_length=64)
    parameters: dict[str, int] = Field(default_factory=dict, max_length=32)
    vary: str | None = Field(default=None, max_length=120)


# -- the room ------------------------------------------------------------------------------------


class LabRoom:
    """Card data, studies, comparisons and sweeps for designers, beside the tables (a :class:`~greenlight.web.rooms.Room`)."""

    schema = SCHEMA

    def __init__(self, limits: LabLimits | None = None, workdir: str | Path | None = None) -> None:
        self.limits = limits or LabLimits()
        self.workdir = Path(workdir) if workdir is not None else Path(tempfile.gettempdir()) / f"greenlight-lab-{os.getpid()}"
        self.hub: TableHub | None = None
        self.pool: ProcessPoolExecutor | None = None
        self.running: dict[str, Future[dict[str, Any]]] = {}
        self._wake = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None
        self._checks: asyncio.Semaphore | None = None
        self._finishing: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.router = self._routes()
        #: Upload routes and their limits, for the server's body guard: (bytes, whether the body must be JSON).
        self.uploads = {FILES_ROUTE: (self.limits.upload_bytes, False), DATA_ROUTE: (self.limits.upload_bytes, True)}

    # -- life -----------------------------------------------------------------------------------

    async def start(self, hub: TableHub) -> None:
        """Start the worker pool and the dispatcher (studies queued before a restart run again from the start)."""
        self.hub = hub
        self._checks = asyncio.Semaphore(self.limits.checks_at_once)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.pool = ProcessPoolExecutor(max_workers=max(1, self.limits.studies_running), mp_context=multiprocessing.get_context("spawn"))
        self.rooms.listen("lab", lambda data: self._wake.set())
        # One process alone (SQLite): a study running when it stopped runs again now; shared: once its process falls silent.
        await self._write(_requeue_stale, self._process(), self.limits.stale_seconds, not hub.backend.shared)
        self._dispatcher = asyncio.create_task(self._dispatch(), name="greenlight-lab-dispatcher")

    async def stop(self) -> None:
        """Stop the running studies (they are queued again for the next start) and the pool."""
        self._stopping = True
        stopped = list(self.running)
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)
        for study_id in list(self.running):
            (self.workdir / study_id).mkdir(parents=True, exist_ok=True)
            (self.workdir / study_id / jobs.CANCEL_FILE).touch()
        if self.pool is not None:
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
        if stopped:
            try:
                await self.rooms.write(_requeue_mine, self._process(), stopped)
            except StorageError:
                log.warning("the lab could not queue its running studies again")
        self.running.clear()
        shutil.rmtree(self.workdir, ignore_errors=True)

    @property
    def rooms(self) -> RoomDatabase:
        """The rooms' database."""
        assert self.hub is not None, "the room has not started"
        return self.hub.backend.rooms

    def _hub(self) -> TableHub:
        assert self.hub is not None, "the room has not started"
        return self.hub

    def _process(self) -> str:
        return str(self._hub().backend.process_id)

    async def _write(self, function: Any, *args: Any) -> Any:
        return await self.rooms.write_for_request(function, *args)

    async def _read(self, function: Any, *args: Any) -> Any:
        return await self.rooms.read_for_request(function, *args)

    async def _budget(self, name: str, who: str, per_second: float, burst: int, what: str) -> None:
        await self._hub().take_budget(name, who, per_second, burst, what)

    # -- the queue ------------------------------------------------------------------------------

    async def _dispatch(self) -> None:
        """Claim queued studies while this process has room, report progress, notice stale ones."""
        last_stale = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=1.0)
            self._wake.clear()
            try:
                while len(self.running) < max(1, self.limits.studies_running):
                    claimed = await self.rooms.write(_claim, self._process(), self.limits.studies_running)
                    if claimed is None:
                        break
                    self._launch(*claimed)
                await self._report()
                if time.monotonic() - last_stale > self.limits.stale_seconds / 3:
                    last_stale = time.monotonic()
                    await self.rooms.write(_requeue_stale, self._process(), self.limits.stale_seconds, False)
            except StorageError as error:
                log.warning("the lab's queue could not be read: %s", error)
            except Exception:
                log.exception("the lab's dispatcher failed a round")

    def _launch(self, study_id: str, request: dict[str, Any], data: dict[str, Any] | None, baseline: dict[str, Any] | None) -> None:
        assert self.pool is not None
        folder = self.workdir / study_id
        future = self.pool.submit(jobs.run_job_safely, request, data, baseline, str(folder))
        self.running[study_id] = future
        loop = asyncio.get_running_loop()
        future.add_done_callback(lambda done: loop.call_soon_threadsafe(self._finished, study_id, done))

    def _finished(self, study_id: str, future: Future[dict[str, Any]]) -> None:
        task = asyncio.create_task(self._store(study_id, future))
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    async def _store(self, study_id: str, future: Future[dict[str, Any]]) -> None:
        self.running.pop(study_id, None)
        if future.cancelled() or self._stopping:
            return  # the server is stopping: the study is queued again, not cancelled
        try:
            outcome = future.result()
        except Exception as error:  # a worker that died (out of memory, killed): the study failed
            log.exception("lab study %s failed in its worker", study_id)
            outcome = {"error": f"the study stopped unexpectedly ({type(error).__name__})"}
        try:
            await self.rooms.write(_finish, study_id, self._process(), outcome)
        except StorageError:
            log.exception("lab study %s finished but could not be stored", study_id)
        self._wake.set()

    async def _report(self) -> None:
        """Write the progress of this process's running studies (their heartbeat), and pass on cancellations."""
        if not self.running:
            return
        figures = {study_id: jobs.read_progress(self.workdir / study_id) for study_id in self.running}
        cancelling = await self.rooms.write(_progress, self._process(), figures)
        for study_id in cancelling:
            folder = self.workdir / study_id
            if folder.exists():
                (folder / jobs.CANCEL_FILE).touch()

    # -- routes ---------------------------------------------------------------------------------

    def _routes(self) -> APIRouter:
        router = APIRouter(tags=["lab"])
        room = self

        @router.get("/lab", response_class=HTMLResponse, include_in_schema=False)
        async def lab_page(request: Request) -> HTMLResponse:
            """The lab: pick a game, bring data, change parameters, run, read the answer."""
            response = templates.TemplateResponse(request, "lab.html", {"boot": {"games": lab_games(room.limits)}})
            response.headers["Content-Security-Policy"] = PAGE_CSP
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response

        @router.get("/lab/static/{name:path}", include_in_schema=False)
        async def lab_static(name: str) -> FileResponse:
            """The lab's script and style, and the Vega files it draws with."""
            kind = STATIC_FILES.get(name)
            if kind is None:
                raise TableError(404, "no such file")
            headers = {
                "Cache-Control": "public, max-age=86400" if name.startswith("vendor/") else "no-cache",
                "X-Content-Type-Options": "nosniff",
            }
            return FileResponse(STATIC / name, media_type=kind, headers=headers)

        @router.get("/api/lab/games")
        async def games() -> list[dict[str, Any]]:
            """Every game with data files: players, bots the lab seats, rule parameters, data tables, and the lab's limits."""
            return lab_games(room.limits)

        @router.get("/api/lab/games/{game_id}/data")
        async def bundled(game_id: str) -> dict[str, Any]:
            """The game's bundled data (the editor's starting point), with what every column holds."""
            game = _game(game_id)
            return await asyncio.to_thread(jobs.bundled_tables, game.spec.id)

        @router.post(FILES_ROUTE, status_code=201)
        async def upload(
            request: Request, game: Annotated[str, Query(max_length=60)], name: Annotated[str, Query(max_length=120)]
        ) -> dict[str, Any]:
            """Upload one data file (the body: its bytes; ``name`` says its kind: .toml, .json, .csv or .xlsx), checked."""
            found = _game(game)
            address = _address(request)
            body = await request.body()
            if len(body) > room.limits.upload_bytes:
                raise TableError(413, f"a data file is at most {room.limits.upload_bytes // 1024} KB")
            checked = await room._check(jobs.check_upload, found.spec.id, name, body)
            return await room._keep(checked, name, len(body), address)

        @router.post(DATA_ROUTE, status_code=201)
        async def edited(body: TablesIn, request: Request) -> dict[str, Any]:
            """Tables edited in the lab (every cell as text) and rule parameters, checked like an upload."""
            found = _game(body.game)
            address = _address(request)
            checked = await room._check(jobs.check_tables, found.spec.id, body.tables, body.parameters)
            return await room._keep(checked, body.name, len(json.dumps(body.tables)), address)

        @router.get("/api/lab/data/{data_id}")
        async def data(data_id: str) -> dict[str, Any]:
            """Checked data by its id (the id is the key: only who holds it can read it)."""
            found = await room._read(_data, data_id)
            if found is None:
                raise TableError(404, "no such data in the lab")
            return {"id": data_id, **found}

        @router.post("/api/lab/studies", status_code=202)
        async def start(body: StudyIn, request: Request) -> dict[str, Any]:
            """Queue a study, comparison or sweep; its budget is taken now, before any game (see docs/security.md)."""
            address = _address(request)
            study = await room._validated(body)
            await room._budget("lab-start", address, room.limits.starts_per_minute / 60, room.limits.starts_burst, "studies started")
            study_id = secrets.token_urlsafe(16)
            answer = await room._write(_queue, study_id, study, client_pseudonym(address), room.limits)
            if answer is not None:
                status, words = answer
                raise TableError(status, words, retry_after=5 if status == 503 else None)
            room._wake.set()
            return {"id": study_id, "status": QUEUED, "total": study["total"], "link": f"/lab#study={study_id}"}

        @router.get("/api/lab/studies/{study_id}")
        async def status(study_id: str) -> dict[str, Any]:
            """A study's state and progress, and once done its answer (the id is the key)."""
            found = await room._read(_study, study_id)
            if found is None:
                raise TableError(404, "no such study in the lab")
            return dict(found)

        @router.post("/api/lab/studies/{study_id}/cancel")
        async def cancel(study_id: str) -> dict[str, Any]:
            """Stop a queued or running study (a running one stops within a second)."""
            state = await room._write(_cancel, study_id)
            if state is None:
                raise TableError(404, "no such study in the lab")
            if study_id in room.running:
                (room.workdir / study_id).mkdir(parents=True, exist_ok=True)
                (room.workdir / study_id / jobs.CANCEL_FILE).touch()
            return {"id": study_id, "status": state}

        return router

    async def _check(self, function: Any, *args: Any) -> dict[str, Any]:
        """Run a data check in a worker thread, at most ``checks_at_once`` at a time (503 beyond); errors name file, row, column."""
        assert self._checks is not None, "the room has not started"
        if self._checks.locked():
            raise TableError(503, "the lab is checking other data; try again shortly", retry_after=2)
        async with self._checks:
            try:
                result: dict[str, Any] = await asyncio.to_thread(function, *args)
            except (DataError, OptionError) as error:
                raise TableError(400, str(error)) from None
            except GreenlightError as error:
                raise TableError(400, str(error)) from None
        return result

    async def _keep(self, checked: dict[str, Any], name: str, size: int, address: str) -> dict[str, Any]:
        data_id = secrets.token_urlsafe(16)
        content = {key: checked[key] for key in ("tables", "custom", "parameters")}
        await self._write(_store_data, data_id, checked["game"], name[:120], content, size, client_pseudonym(address))
        return {
            "id": data_id,
            "game": checked["game"],
            "name": name[:120],
            "custom": checked["custom"],
            "parameters": checked["parameters"],
            "records": checked["records"],
        }

    async def _validated(self, body: StudyIn) -> dict[str, Any]:
        """The study as stored: every field checked (the game, bots, players, parameters, data, what varies, the caps)."""
        game = _game(body.game)
        if body.kind not in KINDS:
            raise TableError(400, f"a lab study is one of {', '.join(KINDS)}, not {body.kind!r}")
        searching = [bot for bot in body.bots if not is_quick(bot)]
        unknown = [bot for bot in searching if bot not in self.limits.search_bots]
        if unknown:
            allowed = ", ".join(["random", "easy", "medium", "heuristic", *self.limits.search_bots])
            raise TableError(400, f"the lab seats only these bots: {allowed} (not {unknown[0]})")
        try:
            game.spec.resolve_options(body.players, dict(body.parameters))
        except OptionError as error:
            raise TableError(400, str(error)) from None
        data = await self._read(_data, body.data) if body.data else None
        baseline = await self._read(_data, body.baseline) if body.baseline else None
        for label, item, given in (("data", data, body.data), ("baseline", baseline, body.baseline)):
            if given and item is None:
                raise TableError(400, f"no such {label} in the lab: upload it (or save the edited tables) first")
            if item is not None and item["game"] != game.spec.id:
                raise TableError(400, f"the {label} is for {item['game']}, not {game.spec.id}")
        if body.kind == "compare" and data is None:
            raise TableError(400, "a comparison compares your data (data) with the bundled data or a baseline: upload data first")
        if body.kind == "sweep":
            if not body.vary:
                raise TableError(400, "a sweep needs what to vary: vary = TABLE.CARD.FIELD=A..B or PARAMETER=A..B")
            try:
                await asyncio.to_thread(_check_vary, game.spec.id, body.vary)
            except OptionError as error:
                raise TableError(400, str(error)) from None
        request = {
            "kind": body.kind,
            "game": game.spec.id,
            "players": body.players,
            "bots": body.bots,
            "games": body.games,
            "seed": body.seed,
            "parameters": dict(body.parameters),
            "vary": body.vary,
            "data": body.data,
            "baseline": body.baseline,
        }
        try:
            total = jobs.games_in_all(request)
        except OptionError as error:
            raise TableError(400, str(error)) from None
        cap = self.limits.search_games_per_study if searching else self.limits.games_per_study
        if total > cap:
            bots = "with a search bot " if searching else ""
            raise TableError(400, f"a lab study {bots}plays at most {cap} games in all; this one would play {total}")
        return {"request": request, "total": total}


def _check_vary(game_id: str, vary: str) -> None:
    from greenlight.sim.sweep import parse_vary

    parse_vary(get_game(game_id), vary)


def _game(game_id: str) -> Any:
    try:
        game = get_game(game_id)
    except OptionError:
        raise TableError(404, f"no game {game_id!r}") from None
    if game.data is None:
        raise TableError(404, f"{game.spec.title} has no data files for the lab")
    return game


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def lab_games(limits: LabLimits) -> list[dict[str, Any]]:
    """What the lab page offers per game."""
    entries = []
    for game in all_games().values():
        if game.data is None:
            continue
        entries.append(
            {
                "id": game.spec.id,
                "title": game.spec.title,
                "min_players": game.spec.min_players,
                "max_players": game.spec.max_players,
                "bots": ["medium", "easy", "random", *limits.search_bots],
                "tables": game.data.names(),
                "bundled_is_default": game.data.bundled_is_default,
                "parameters": [
                    {
                        "name": spec.name,
                        "default": spec.default,
                        "minimum": spec.minimum,
                        "maximum": spec.maximum,
                        "help": spec.help,
                        "rule": spec.rule,
                    }
                    for spec in game.spec.parameters
                ],
            }
        )
    return entries


# -- transactions (run in a worker thread, one transaction each) ------------------------------------


def _store_data(tx: RoomTx, data_id: str, game: str, name: str, content: dict[str, Any], size: int, owner: str) -> None:
    tx.execute(
        "INSERT INTO lab_data (id, game, name, content, size, owner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (data_id, game, name, json.dumps(content), size, owner, tx.now()),
    )


def _data(tx: RoomTx, data_id: str) -> dict[str, Any] | None:
    rows = tx.fetch("SELECT game, name, content, created_at FROM lab_data WHERE id = ?", (data_id,))
    if not rows:
        return None
    game, name, content, created_at = rows[0]
    return {"game": game, "name": name, "created_at": created_at, **json.loads(content)}


def _queue(tx: RoomTx, study_id: str, study: dict[str, Any], owner: str, limits: LabLimits) -> tuple[int, str] | None:
    """Queue a study unless its client has too many, or the server's queue is full: (status, words) of a refusal."""
    tx.lock("lab-queue")
    mine = tx.fetch("SELECT COUNT(*) FROM lab_studies WHERE owner = ? AND status IN (?, ?, ?)", (owner, QUEUED, RUNNING, CANCELLING))[0][0]
    if mine >= limits.studies_per_client:
        return 429, f"you have {mine} studies queued or running (at most {limits.studies_per_client}); wait for one to finish"
    waiting = tx.fetch("SELECT COUNT(*) FROM lab_studies WHERE status IN (?, ?, ?)", (QUEUED, RUNNING, CANCELLING))[0][0]
    if waiting >= limits.queue:
        return 503, f"the lab's queue is full ({waiting} studies); try again in a few minutes"
    request = study["request"]
    tx.execute(
        "INSERT INTO lab_studies (id, kind, game, request, owner, status, done, total, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (study_id, request["kind"], request["game"], json.dumps(request), owner, QUEUED, study["total"], tx.now()),
    )
    tx.notify("lab", {"queued": study_id})
    return None


def _claim(
    tx: RoomTx, process: str, running_at_most: int
) -> tuple[str, dict[str, Any], dict[str, Any] | None, dict[str, Any] | None] | None:
    """The oldest queued study, now running in ``process``, if fewer than ``running_at_most`` run on the server."""
    tx.lock("lab-queue")
    running = tx.fetch("SELECT COUNT(*) FROM lab_studies WHERE status IN (?, ?)", (RUNNING, CANCELLING))[0][0]
    if running >= running_at_most:
        return None
    rows = tx.fetch("SELECT id, request FROM lab_studies WHERE status = ? ORDER BY created_at, id LIMIT 1", (QUEUED,))
    if not rows:
        return None
    study_id, text = rows[0]
    now = tx.now()
    tx.execute(
        "UPDATE lab_studies SET status = ?, process = ?, heartbeat = ?, started_at = ?, done = 0 WHERE id = ?",
        (RUNNING, process, now, now, study_id),
    )
    request = json.loads(text)
    data = _data(tx, request["data"]) if request.get("data") else None
    baseline = _data(tx, request["baseline"]) if request.get("baseline") else None
    return study_id, request, data, baseline


def _progress(tx: RoomTx, process: str, figures: dict[str, tuple[int, int] | None]) -> list[str]:
    """Store this process's running studies' progress and heartbeat; the ones asked to stop."""
    now = tx.now()
    for study_id, figure in figures.items():
        if figure is None:
            tx.execute("UPDATE lab_studies SET heartbeat = ? WHERE id = ? AND process = ?", (now, study_id, process))
        else:
            tx.execute("UPDATE lab_studies SET heartbeat = ?, done = ? WHERE id = ? AND process = ?", (now, figure[0], study_id, process))
    if not figures:
        return []
    marks = ", ".join("?" for _ in figures)
    rows = tx.fetch(
        f"SELECT id FROM lab_studies WHERE status = ? AND id IN ({marks})", (CANCELLING, *figures)
    )  # the IN list is made of placeholders only
    return [row[0] for row in rows]


def _finish(tx: RoomTx, study_id: str, process: str, outcome: dict[str, Any]) -> None:
    now = tx.now()
    if "ok" in outcome:
        tx.execute(
            "UPDATE lab_studies SET status = ?, done = total, finished_at = ?, result = ? WHERE id = ? AND process = ?",
            (DONE, now, json.dumps(outcome["ok"]), study_id, process),
        )
    elif outcome.get("cancelled"):
        tx.execute("UPDATE lab_studies SET status = ?, finished_at = ? WHERE id = ? AND process = ?", (CANCELLED, now, study_id, process))
    else:
        words = str(outcome.get("error", "the study failed"))[:2000]
        tx.execute(
            "UPDATE lab_studies SET status = ?, finished_at = ?, error = ? WHERE id = ? AND process = ?",
            (FAILED, now, words, study_id, process),
        )
    tx.notify("lab", {"finished": study_id})


def _cancel(tx: RoomTx, study_id: str) -> str | None:
    rows = tx.fetch("SELECT status FROM lab_studies WHERE id = ?", (study_id,))
    if not rows:
        return None
    state = rows[0][0]
    if state == QUEUED:
        tx.execute("UPDATE lab_studies SET status = ?, finished_at = ? WHERE id = ?", (CANCELLED, tx.now(), study_id))
        return CANCELLED
    if state == RUNNING:
        tx.execute("UPDATE lab_studies SET status = ? WHERE id = ?", (CANCELLING, study_id))
        tx.notify("lab", {"cancel": study_id})
        return CANCELLING
    return str(state)


def _requeue_stale(tx: RoomTx, process: str, stale_seconds: float, every_one: bool) -> int:
    """Queue again the running studies whose process fell silent (``every_one``: all of them, the server being alone)."""
    limit = tx.now() + 1 if every_one else tx.now() - stale_seconds
    count = tx.execute(
        "UPDATE lab_studies SET status = ?, process = NULL, done = 0 "
        "WHERE status IN (?, ?) AND heartbeat < ? AND (process IS NULL OR process != ?)",
        (QUEUED, RUNNING, CANCELLING, limit, process),
    )
    if count:
        tx.notify("lab", {"requeued": count})
    return count


def _requeue_mine(tx: RoomTx, process: str, studies: list[str]) -> None:
    for study_id in studies:
        tx.execute(
            "UPDATE lab_studies SET status = ?, process = NULL, done = 0 WHERE id = ? AND process = ? AND status = ?",
            (QUEUED, study_id, process, RUNNING),
        )


def _study(tx: RoomTx, study_id: str) -> dict[str, Any] | None:
    rows = tx.fetch(
        "SELECT kind, game, request, status, done, total, created_at, started_at, finished_at, error, result FROM lab_studies WHERE id = ?",
        (study_id,),
    )
    if not rows:
        return None
    kind, game, request, state, done, total, created, started, finished, error, result = rows[0]
    ahead = None
    if state == QUEUED:
        ahead = tx.fetch("SELECT COUNT(*) FROM lab_studies WHERE status = ? AND created_at < ?", (QUEUED, created))[0][0]
    return {
        "id": study_id,
        "kind": kind,
        "game": game,
        "request": json.loads(request),
        "status": state,
        "done": done,
        "total": total,
        "queued_ahead": ahead,
        "created_at": created,
        "started_at": started,
        "finished_at": finished,
        "error": error,
        "result": json.loads(result) if result else None,
    }
