"""Hints at the table and reviews of finished games, thought out in the bot workers (see docs/api.md).

**Hints.** A seat may ask for the search's best three moves when every other
seat is a bot; at a table with other people only once the host has allowed
hints for everyone (a hint would help one person against another). The
search runs from the asking seat's own view, in the bot worker pool, taking
its turn like a bot move.

**Reviews.** Anyone may ask for the review of a seat of a finished (or
closed) game: the game is over, so nothing in it is secret any more. A
review runs one search per decision of that seat, each as its own job in the
bot worker pool (bots of running tables keep their turns in between); its
progress can be polled, and the result is stored with the table. With
several server processes the progress is stored too (in the review's row,
until the review replaces it), so any process reports it and none starts the
same review twice; a review that failed is stored as failed, so every process
reports why and any may start it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from greenlight.bots.analysis import MoveEstimate
from greenlight.bots.review import AnalysisRequest, Review, ReviewSteps, review_steps
from greenlight.bots.review_page import review_html
from greenlight.core.record import Record
from greenlight.web.api import ClientAddress, Hub, Limiters, bearer
from greenlight.web.limits import ServerSettings, retry_after
from greenlight.web.storage import SaveReview, UpdateHints
from greenlight.web.tables import LiveTable, TableError, TableHub
from greenlight.web.thinking import hint, review_search

R = TypeVar("R")
log = logging.getLogger(__name__)

router = APIRouter(tags=["hints and reviews"])
Authorization = Annotated[str | None, Header()]
#: Moves a hint shows.
HINT_MOVES = 3
#: A review's stored progress older than this belongs to a process that stopped: the review may be asked for again.
PROGRESS_STALE_SECONDS = 30.0


class HintsIn(BaseModel):
    """Whether every seat may ask for hints."""

    on: bool


@dataclass(slots=True)
class ReviewJob:
    """A review being made: how far it has got, and why it failed if it did."""

    #: The server process making it.
    by: str = ""
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The job's progress as the API reports it."""
        if self.error is not None:
            return {"status": "failed", "error": self.error}
        return {"status": "running", "done": self.done, "total": self.total, "by": self.by}


def jobs_of(request: Request) -> dict[tuple[str, int], ReviewJob]:
    """The server's reviews in progress, by (table, seat)."""
    state = request.app.state
    if not hasattr(state, "reviews"):
        state.reviews = {}
    jobs: dict[tuple[str, int], ReviewJob] = state.reviews
    return jobs


def hints_allowed(table: LiveTable, seat: int) -> bool:
    """Whether ``seat`` may ask for hints: every other seat is a bot, or the host allows hints for everyone."""
    return table.stored.hints or all(row.kind == "bot" for row in table.stored.seats if row.seat != seat)


class Hints:
    """The hints of one server process: one search per (table, seat, move), shared by whoever asks for it, at most
    ``max_hints_at_once`` searching or waiting for a worker, and each given up once nobody waits for it any more."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        #: Searches under way, and the latest answer, by (table, seat, move number).
        self.running: dict[tuple[str, int, int], HintSearch] = {}
        self.answered: dict[tuple[str, int], tuple[int, list[dict[str, Any]]]] = {}

    async def moves(self, hub: TableHub, table: LiveTable, seat: int, request: Request) -> list[dict[str, Any]]:
        """The hint's moves: the latest answer for this move, the search under way for it, or a new search."""
        version = table.version
        answered = self.answered.get((table.id, seat))
        if answered is not None and answered[0] == version:
            return answered[1]
        key = (table.id, seat, version)
        search = self.running.get(key)
        if search is None:
            if len(self.running) >= self.settings.max_hints_at_once:
                raise TableError(
                    503, "the server's hint searches are all busy; ask again in a few seconds", retry_after=self.settings.hint_seconds
                )
            state = table.match.state.clone()
            task = asyncio.ensure_future(
                hub.bot_pool.run(hint, table.game.spec.id, state, seat, self.settings.hint_seconds, HINT_MOVES, owner=table.stored.creator)
            )
            search = self.running[key] = HintSearch(task)
            task.add_done_callback(lambda done: self._ended(key, done))
        search.waiting += 1
        try:
            return await until_disconnected(request, asyncio.shield(search.task))
        finally:
            search.waiting -= 1
            if search.waiting == 0 and not search.task.done():
                search.task.cancel()  # nobody waits for it: a search still queued never runs

    def _ended(self, key: tuple[str, int, int], task: asyncio.Future[list[dict[str, Any]]]) -> None:
        self.running.pop(key, None)
        if not task.cancelled() and task.exception() is None:
            table_id, seat, version = key
            self.answered[(table_id, seat)] = (version, task.result())
            if len(self.answered) > 1000:
                self.answered.pop(next(iter(self.answered)))


@dataclass(eq=False)
class HintSearch:
    """One hint search and how many requests wait for it."""

    task: asyncio.Future[list[dict[str, Any]]]
    waiting: int = 0


async def until_disconnected(request: Request, work: asyncio.Future[R]) -> R:
    """``work``'s result, or CancelledError once the client has gone (its request is answered by nobody then)."""

    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    watcher: asyncio.Future[None] = asyncio.ensure_future(gone())
    try:
        futures: list[asyncio.Future[Any]] = [work, watcher]
        await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
        if work.done():
            return work.result()
        raise asyncio.CancelledError("the client went away")
    finally:
        watcher.cancel()


def hints_of(request: Request) -> Hints:
    """The server's hints."""
    state = request.app.state
    if not hasattr(state, "hints"):
        state.hints = Hints(state.settings)
    hints: Hints = state.hints
    return hints


@router.post("/api/tables/{table_id}/hint")
async def ask_hint(table_id: str, request: Request, hub: Hub, client: ClientAddress, authorization: Authorization = None) -> dict[str, Any]:
    """A seat: the search's three best moves for it now, in words, with their estimated win shares (from its own view)."""
    limiters: Limiters = request.app.state.limiters
    await limiters.take("actions", client, "requests")
    table = await hub.table(table_id)
    seat = await hub.authenticate(table, bearer(authorization))
    if seat is None:
        raise TableError(401, "a hint is for a seat: send the header 'Authorization: Bearer <token>' from your seat link")
    if table.finished or table.closed:
        raise TableError(409, "the game is over: ask for a review of it instead")
    if not hints_allowed(table, seat):
        raise TableError(403, "hints are off at this table: other people play here, and only the host can allow hints for everyone")
    if not table.match.legal_actions(seat):
        raise TableError(409, "you have nothing to decide now; ask again when it is your turn")
    settings: ServerSettings = hub.settings
    hints = hints_of(request)
    answered = hints.answered.get((table.id, seat))
    if answered is None or answered[0] != table.version:  # a hint already found for this move is free
        wait = await hub.wait_needed("hints", client, settings.hints_per_minute / 60.0, settings.hints_burst)
        if wait > 0:
            raise TableError(429, f"too many hints asked from your address; try again in {retry_after(wait)} s", retry_after=wait)
    version = table.version
    moves = await hints.moves(hub, table, seat, request)
    return {"seat": seat, "version": version, "seconds": settings.hint_seconds, "moves": moves}


@router.post("/api/tables/{table_id}/hints")
async def allow_hints(
    table_id: str, body: HintsIn, request: Request, hub: Hub, client: ClientAddress, authorization: Authorization = None
) -> dict[str, Any]:
    """Host: allow (or stop) hints for every seat, people included; everyone at the table sees the change."""
    limiters: Limiters = request.app.state.limiters
    await limiters.take("actions", client, "requests")
    table = await hub.table(table_id)
    hub.host_of(table, bearer(authorization))
    if table.stored.hints != body.on:

        def allowed() -> None:
            table.stored.hints = body.on

        await hub.write_row(table, UpdateHints(table.id, body.on), allowed)
        await hub.say(table, "The host allowed hints for everyone." if body.on else "The host turned hints off for tables with people.")
        table.broadcast()
    return {"table": table.info()}


@router.post("/api/tables/{table_id}/reviews/{seat}", status_code=202)
async def start_review(table_id: str, seat: int, request: Request, hub: Hub, client: ClientAddress) -> dict[str, Any]:
    """Anyone, once the game is over: start the review of ``seat`` (or report it, if it is made or being made)."""
    table = await hub.table(table_id)
    check_reviewable(table, seat)
    jobs = jobs_of(request)
    key = (table.id, seat)
    if await stored_review(hub, table, seat) is not None:
        return {"status": "done"}
    job = jobs.get(key)
    if job is not None and job.error is None:
        return job.to_json()
    elsewhere = await progress_elsewhere(hub, table, seat)
    if elsewhere is not None and elsewhere["status"] == "running":
        return elsewhere
    running = sum(1 for item in jobs.values() if item.error is None)
    if running >= hub.settings.max_reviews:
        raise TableError(429, f"{running} reviews are being made on this server; try again in a minute", retry_after=60.0)
    limiters: Limiters = request.app.state.limiters
    await limiters.take("create", client, "reviews")
    job = jobs[key] = ReviewJob(by=hub.backend.process_id)
    job.task = asyncio.create_task(make_review(hub, table, seat, job, jobs, key))
    return job.to_json()


@router.get("/api/tables/{table_id}/reviews/{seat}")
async def get_review(table_id: str, seat: int, request: Request, hub: Hub) -> dict[str, Any]:
    """The review of ``seat`` (``status`` done, with ``review``), its progress (running) or why it failed."""
    table = await hub.table(table_id)
    check_reviewable(table, seat)
    stored = await stored_review(hub, table, seat)
    if stored is not None:
        return {"status": "done", "review": stored["json"]}
    job = jobs_of(request).get((table.id, seat))
    if job is None:
        elsewhere = await progress_elsewhere(hub, table, seat)
        if elsewhere is not None:
            return elsewhere
        raise TableError(404, "this seat has not been reviewed yet; POST to this address to start the review")
    return job.to_json()


@router.get("/api/tables/{table_id}/reviews")
async def list_reviews(table_id: str, request: Request, hub: Hub) -> dict[str, Any]:
    """Every seat's review status at once (``done``, ``running`` with its progress, ``failed``, or ``none``), without the
    reviews themselves: what the finished table's page shows, in one read instead of one request per seat."""
    table = await hub.table(table_id)
    check_reviewable(table, 0)
    rows = await hub.backend.load_reviews(table.id)
    jobs = jobs_of(request)
    statuses: list[dict[str, Any]] = []
    for seat in range(table.stored.record.num_players):
        stored = None if (text := rows.get(seat)) is None else dict(json.loads(text))
        job = jobs.get((table.id, seat))
        if stored is not None and "progress" not in stored:
            status: dict[str, Any] | None = {"status": "done"}
        elif job is not None:
            status = job.to_json()
        else:
            status = _stored_progress(stored)
        statuses.append({"seat": seat, **(status or {"status": "none"})})
    return {"reviews": statuses}


@router.get("/tables/{table_id}/reviews/{seat}", response_class=HTMLResponse, include_in_schema=False)
async def review_page(table_id: str, seat: int, hub: Hub) -> HTMLResponse:
    """The review of ``seat`` as a page (review.html)."""
    table = await hub.table(table_id)
    check_reviewable(table, seat)
    stored = await stored_review(hub, table, seat)
    if stored is None:
        raise TableError(404, "this seat has not been reviewed yet: open the table and choose “Review this game”")
    return HTMLResponse(stored["html"])


def check_reviewable(table: LiveTable, seat: int) -> None:
    """404 for a seat the table does not have; 409 while the game is still being played (it would reveal secrets)."""
    if not 0 <= seat < table.stored.record.num_players:
        raise TableError(404, f"this table has seats 0 to {table.stored.record.num_players - 1}")
    if not (table.finished or table.closed):
        raise TableError(409, "a game can be reviewed once it is over (a review sees every move, secret ones included)")


async def stored_review(hub: TableHub, table: LiveTable, seat: int) -> dict[str, Any] | None:
    """The stored review of ``seat`` (``json`` and ``html``), if it has been made."""
    stored = await _review_row(hub, table, seat)
    return None if stored is None or "progress" in stored else stored


async def progress_elsewhere(hub: TableHub, table: LiveTable, seat: int) -> dict[str, Any] | None:
    """The progress of a review of ``seat`` that another server process is making now, or why it failed there."""
    return _stored_progress(await _review_row(hub, table, seat))


def _stored_progress(stored: dict[str, Any] | None) -> dict[str, Any] | None:
    """A review row's progress as the API reports it (None: no row, a finished review, or a stopped process's)."""
    if stored is None or "progress" not in stored:
        return None
    progress: dict[str, Any] = stored["progress"]
    if "error" in progress:
        return {"status": "failed", "error": str(progress["error"])}
    if time.time() - float(progress["at"]) > PROGRESS_STALE_SECONDS:
        return None  # its process stopped: the review may be asked for again
    return {"status": "running", "done": int(progress["done"]), "total": int(progress["total"]), "by": str(progress["by"])}


async def _review_row(hub: TableHub, table: LiveTable, seat: int) -> dict[str, Any] | None:
    reviews: dict[int, str] = await hub.backend.load_reviews(table.id)
    text = reviews.get(seat)
    return None if text is None else dict(json.loads(text))


async def share_progress(hub: TableHub, table: LiveTable, seat: int, job: ReviewJob) -> None:
    """Store how far a review has got, or why it failed, for the other server processes (only when there are any)."""
    if hub.backend.shared:
        progress: dict[str, Any] = {"done": job.done, "total": job.total, "by": job.by, "at": time.time()}
        if job.error is not None:
            progress["error"] = job.error
        await hub.store_write(SaveReview(table.id, seat, json.dumps({"progress": progress})), table.id)


async def make_review(
    hub: TableHub, table: LiveTable, seat: int, job: ReviewJob, jobs: dict[tuple[str, int], ReviewJob], key: tuple[str, int]
) -> None:
    """Run the review's searches one by one in the bot workers, then store it with the table."""
    record = Record.from_json(table.stored.record.to_json())
    record.players = [row.name if row.kind == "human" else f"bot:{row.bot}" for row in table.stored.seats]
    game = table.game
    try:
        steps = review_steps(game, record, seat, seconds=hub.settings.review_seconds)
        request, review = await asyncio.to_thread(advance, steps, None)
        while request is not None:
            job.done, job.total = request.done, request.total
            with contextlib.suppress(TableError):  # progress is a courtesy to the other processes: a store hiccup must not cost the review
                await share_progress(hub, table, seat, job)
            result = await hub.bot_pool.run(review_search, game.spec.id, request, owner=table.stored.creator)
            request, review = await asyncio.to_thread(advance, steps, result)
        assert review is not None
        job.done = job.total = len(review.decisions)
        text = json.dumps({"json": review.to_json(), "html": review_html(review)})
        await hub.store_write(SaveReview(table.id, seat, text), table.id)
        jobs.pop(key, None)
    except Exception as error:
        log.warning("table %s: the review of seat %d failed", table.id, seat, exc_info=True)
        job.error = f"the review could not be made: {error}"
        with contextlib.suppress(TableError):  # the store fails too: this process still reports why, others see the progress go stale
            await share_progress(hub, table, seat, job)


def advance(steps: ReviewSteps, result: list[MoveEstimate] | None) -> tuple[AnalysisRequest | None, Review | None]:
    """The review's next search, or the finished review (a StopIteration cannot cross into an asyncio future)."""
    try:
        return (next(steps) if result is None else steps.send(result)), None
    except StopIteration as finished:
        return None, finished.value
