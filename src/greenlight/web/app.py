"""The FastAPI application: lobby and table pages, the JSON API and the WebSocket protocol.

``create_app(db_path, settings=...)`` builds the app on a SQLite file;
``greenlight serve`` runs it with uvicorn behind :mod:`greenlight.web.guard`.
The routes live in :mod:`greenlight.web.api`, :mod:`greenlight.web.pages`
and :mod:`greenlight.web.sockets`; the protocol is documented in
``docs/api.md`` and at ``/docs`` (OpenAPI), the limits in docs/security.md.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

import greenlight
from greenlight.web import api, coach, life, pages, sockets
from greenlight.web.backend import Backend, LocalBackend
from greenlight.web.database import open_backend
from greenlight.web.guard import BodyGuard, RequestBudget
from greenlight.web.limits import ServerSettings, retry_after
from greenlight.web.rooms import Room, RoomDatabase
from greenlight.web.storage import TableStore
from greenlight.web.tables import TableError, TableHub

log = logging.getLogger("greenlight.web")

HERE = Path(__file__).resolve().parent
API_DESCRIPTION = """Play Greenlight's board games over the network.

Seat tokens go in the `Authorization: Bearer <token>` header (HTTP) or in the
`hello` message (WebSocket). Every error is a JSON body `{"detail": "..."}`
that says what was wrong; a refused request changes nothing. See `docs/api.md`
and `docs/security.md` (limits: 413, 429 and 503 answers).
"""


def default_rooms(settings: ServerSettings) -> list[Room]:
    """The rooms every server runs beside its tables (see :mod:`greenlight.web.rooms`)."""
    from greenlight.web.accounts import AccountsRoom
    from greenlight.web.clocks.room import ClocksRoom
    from greenlight.web.lab import LabLimits, LabRoom
    from greenlight.web.notify.room import NotifyRoom

    accounts, clocks = AccountsRoom(), ClocksRoom()
    return [accounts, clocks, NotifyRoom(clocks=clocks, accounts=accounts), LabRoom(LabLimits.from_settings(settings))]


async def prepare_rooms(rooms_db: RoomDatabase, rooms: Sequence[Room]) -> None:
    """Create or migrate the tables of ``rooms`` (``greenlight db migrate`` and every server's start)."""
    await rooms_db.prepare([room.schema for room in rooms if room.schema is not None])


def create_app(
    db_path: str | Path | None = None,
    *,
    store: TableStore | Backend | None = None,
    settings: ServerSettings | None = None,
    bot_delay: float | None = None,
    bot_workers: int | None = None,
    rooms: Sequence[Room] | None = None,
) -> FastAPI:
    """The web app on ``db_path`` (a SQLite file, or a ``postgresql://`` address shared with other server processes)
    or an explicit ``store``, with ``settings`` (limits, bots, public URL).

    ``bot_delay`` and ``bot_workers`` override the settings' values; ``rooms`` replaces :func:`default_rooms`.
    """
    settings = settings or ServerSettings()
    if bot_delay is not None:
        settings = dataclasses.replace(settings, bot_delay=bot_delay)
    if bot_workers is not None:
        settings = dataclasses.replace(settings, bot_workers=bot_workers)
    if store is None:
        if db_path is None:
            raise ValueError("create_app needs a db_path or a store")
        store = open_backend(str(db_path), write_timeout=settings.write_timeout)
    elif isinstance(store, TableStore):
        store = LocalBackend(store, write_timeout=settings.write_timeout)  # the app closes it when it stops
    hub = TableHub(store, settings)
    rooms = list(default_rooms(settings) if rooms is None else rooms)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        started: list[Room] = []
        try:
            await prepare_rooms(hub.backend.rooms, rooms)
            for room in rooms:
                await room.start(hub)
                started.append(room)
            yield
        finally:
            for room in reversed(started):
                try:
                    await room.stop()
                except Exception:
                    log.exception("room %s did not stop cleanly", type(room).__name__)
            await hub.stop()

    app = FastAPI(title="Greenlight", version=greenlight.__version__, description=API_DESCRIPTION, lifespan=lifespan)
    app.state.hub = hub
    app.state.settings = settings
    app.state.limiters = api.Limiters(settings, hub)
    app.state.socket_budgets = sockets.SocketBudgets(settings)
    uploads = {path: limit for room in rooms for path, limit in getattr(room, "uploads", {}).items()}
    app.add_middleware(BodyGuard, settings=settings, rooms_uploads=uploads)
    app.add_middleware(RequestBudget, settings=settings)  # added last, so it runs first: before any body is read
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(coach.router)
    app.include_router(life.router)
    app.include_router(pages.router)
    app.include_router(sockets.router)
    for room in rooms:
        if room.router is not None:
            app.include_router(room.router)
    app.state.rooms = rooms

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> JSONResponse:
        headers = {"Retry-After": retry_after(error.retry_after)} if error.retry_after is not None else None
        return JSONResponse({"detail": error.message}, status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_text(error), "errors": _jsonable_errors(error)}, status_code=422)

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return JSONResponse({"detail": "the server failed on this request; the failure was logged"}, status_code=500)

    return app


def _validation_text(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "request"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


def _jsonable_errors(error: RequestValidationError) -> list[dict[str, object]]:
    return [{"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", ""))} for item in error.errors()]
