"""The FastAPI application: lobby and table pages, the JSON API and the WebSocket protocol.

``create_app(db_path)`` builds the app on a SQLite file; ``greenlight serve``
runs it with uvicorn. The protocol is documented in ``docs/api.md`` and at
``/docs`` (OpenAPI).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from greenlight.core.data import load_data_file
from greenlight.core.errors import OptionError
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.web.replays import replay_json
from greenlight.web.storage import SqliteStore, TableStore
from greenlight.web.tables import Client, LiveTable, SeatRequest, TableError, TableHub
from greenlight.web.views import WEB_FILE_TYPES, catalogue, game_data_dir, game_json, game_web_dir

log = logging.getLogger("greenlight.web")

HERE = Path(__file__).resolve().parent
MAX_ACTION_LENGTH = 500
#: Content Security Policy of the HTML pages: scripts and styles only from this server, nothing inline.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
API_DESCRIPTION = """Play Greenlight's board games over the network.

Seat tokens go in the `Authorization: Bearer <token>` header (HTTP) or in the
`hello` message (WebSocket). Every error is a 4xx JSON body `{"detail": "..."}`
that says what was wrong; a refused request changes nothing. See `docs/api.md`.
"""


# -- request bodies ---------------------------------------------------------------------


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=40, description="bot level (see GET /api/games), for kind=bot")
    name: str | None = Field(default=None, max_length=40, description="shown to everyone at the table, for kind=human")


class TableIn(BaseModel):
    """A table to create: the game, one entry per seat, options, and optionally the seed."""

    game: str = Field(max_length=60)
    seats: list[SeatIn] = Field(min_length=1, max_length=16)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)
    seed: int | None = Field(default=None, ge=0, le=2**62)


class ActionIn(BaseModel):
    """An action in its text form (one of the seat's `legal_actions`)."""

    action: str = Field(min_length=1, max_length=MAX_ACTION_LENGTH)
    expect_version: int | None = Field(default=None, ge=0, description="refuse (409) unless the table is at this move number")


# -- the app ----------------------------------------------------------------------------


def create_app(
    db_path: str | Path | None = None, *, store: TableStore | None = None, bot_delay: float = 0.6, bot_workers: int | None = None
) -> FastAPI:
    """The web app on the SQLite file ``db_path`` (or an explicit ``store``).

    Bots wait ``bot_delay`` seconds per move and think in ``bot_workers``
    processes (default: one per core; 0 thinks in a thread of the server).
    """
    if store is None:
        if db_path is None:
            raise ValueError("create_app needs a db_path or a store")
        store = SqliteStore(db_path)
    hub = TableHub(store, bot_delay=bot_delay, bot_workers=bot_workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="Greenlight", version="1", description=API_DESCRIPTION, lifespan=lifespan)
    app.state.hub = hub
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_text(error), "errors": _jsonable_errors(error)}, status_code=422)

    def page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
        response = templates.TemplateResponse(request, name, context, status_code=status_code)
        response.headers["Content-Security-Policy"] = PAGE_CSP
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    def table_or_404(table_id: str) -> LiveTable:
        return hub.get(table_id)

    def seat_from_header(table: LiveTable, authorization: str | None, *, required: bool) -> int | None:
        token = _bearer(authorization)
        if token is None:
            if required:
                raise TableError(401, "acting needs your seat token: send the header 'Authorization: Bearer <token>' from your seat link")
            return None
        return hub.authenticate(table, token)

    # -- pages --------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        return page(request, "lobby.html", {"boot": {"games": catalogue()}})

    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        table = hub.tables.get(table_id)
        if table is None:
            return page(request, "missing.html", {"what": f"There is no table {table_id}.", "boot": {}}, status_code=404)
        return page(request, "table.html", _page_boot(table, replay=False))

    @app.get("/tables/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        table = hub.tables.get(table_id)
        if table is None:
            return page(request, "missing.html", {"what": f"There is no table {table_id}.", "boot": {}}, status_code=404)
        return page(request, "replay.html", _page_boot(table, replay=True))

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_upload_page(request: Request) -> HTMLResponse:
        games = {entry["id"]: entry for entry in catalogue()}
        return page(request, "replay.html", {"boot": {"table_id": None, "games": games}, "title": "Replay a record"})

    @app.get("/games/{game_id}/web/{name}", include_in_schema=False)
    async def game_web_file(game_id: str, name: str) -> FileResponse:
        game = _game_or_404(game_id)
        suffix = Path(name).suffix
        folder = game_web_dir(game)
        path = (folder / name).resolve()
        if suffix not in WEB_FILE_TYPES or path.parent != folder or not path.is_file():
            raise TableError(404, f"{game.spec.title} has no web file {name!r}")
        return FileResponse(path, media_type=WEB_FILE_TYPES[suffix], headers={"Cache-Control": "no-cache"})

    # -- API: games -----------------------------------------------------------------------

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Whether the server is up, and how many tables it holds."""
        return {"ok": True, "tables": len(hub.tables)}

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game this server offers: players, options (with explanations) and bot levels."""
        return catalogue()

    @app.get("/api/games/{game_id}", tags=["games"])
    async def describe_game(game_id: str) -> dict[str, Any]:
        """One game's catalogue entry."""
        return game_json(_game_or_404(game_id))

    @app.get("/api/games/{game_id}/data/{name}", tags=["games"])
    async def game_data(game_id: str, name: str) -> Any:
        """A bundled data file of the game (cards, board) as JSON, for renderers: ``name`` without suffix, e.g. ``cards``."""
        game = _game_or_404(game_id)
        folder = game_data_dir(game)
        for suffix in (".toml", ".json"):
            path = (folder / f"{name}{suffix}").resolve()
            if path.parent == folder and path.is_file():
                return await asyncio.to_thread(load_data_file, path)
        raise TableError(404, f"{game.spec.title} has no data file {name!r}")

    # -- API: tables ----------------------------------------------------------------------

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
        """Create a table. The response holds each human seat's secret token and link (shown only once)."""
        seats = [SeatRequest(seat.kind, seat.bot, seat.name) for seat in body.seats]
        created = await hub.create(body.game, seats, dict(body.options), body.seed)
        table = created.table
        base = str(request.base_url).rstrip("/")
        seat_links = []
        for row in table.stored.seats:
            item: dict[str, Any] = {"seat": row.seat, "kind": row.kind, "bot": row.bot, "name": row.name}
            if row.seat in created.tokens:
                token = created.tokens[row.seat]
                item["token"] = token
                item["link"] = f"{base}/tables/{table.id}#token={token}"
            seat_links.append(item)
        return {"table": table.info(), "seats": seat_links, "spectator_link": f"{base}/tables/{table.id}"}

    @app.get("/api/tables", tags=["tables"])
    async def list_tables(status: Literal["open", "running", "finished", "broken"] | None = None) -> list[dict[str, Any]]:
        """Every table, newest first (optionally only those with one status)."""
        tables = sorted(hub.tables.values(), key=lambda t: t.stored.created_at, reverse=True)
        infos = [table.info() for table in tables]
        return [info for info in infos if status is None or info["status"] == status]

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def describe_table(table_id: str) -> dict[str, Any]:
        """Public facts about one table."""
        return table_or_404(table_id).info()

    @app.get("/api/tables/{table_id}/view", tags=["tables"])
    async def view_table(table_id: str, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """What your seat (with a token) or a spectator (without) may see now."""
        table = table_or_404(table_id)
        seat = seat_from_header(table, authorization, required=False)
        if seat is not None:
            await hub.joined(table, seat)
        return table.view(seat)

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def play_action(table_id: str, body: ActionIn, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Play one action for your seat. It is stored before this answers; the answer holds your new view."""
        table = table_or_404(table_id)
        seat = seat_from_header(table, authorization, required=True)
        assert seat is not None
        await hub.joined(table, seat)
        canonical, index = await hub.act(table, seat, body.action, body.expect_version)
        return {"accepted": True, "action": canonical, "index": index, "view": table.view(seat)}

    @app.get("/api/tables/{table_id}/record", tags=["replays"])
    async def download_record(table_id: str) -> Response:
        """The record of a finished game (JSON, replayable with `greenlight replay` or /replay)."""
        table = table_or_404(table_id)
        if not table.finished:
            raise TableError(409, "the record can be downloaded once the game is over (it holds every hidden choice)")
        filename = f"greenlight-{table.stored.record.game}-{table.id}.json"
        record = Record.from_json(table.stored.record.to_json())
        record.players = [row.name if row.kind == "human" else f"bot:{row.bot}" for row in table.stored.seats]
        return Response(
            record.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/tables/{table_id}/replay", tags=["replays"])
    async def table_replay(table_id: str) -> dict[str, Any]:
        """Every step of a finished game as a spectator saw it, with the action taken."""
        table = table_or_404(table_id)
        if not table.finished:
            raise TableError(409, "a table can be replayed once the game is over")
        return await asyncio.to_thread(replay_json, table.stored.record.to_json())

    @app.post("/api/replay", tags=["replays"])
    async def replay_record(request: Request) -> dict[str, Any]:
        """Replay an uploaded record (the JSON of a finished or unfinished game) step by step."""
        body = await request.body()
        if len(body) > 4_000_000:
            raise TableError(413, "a record file may be at most 4 MB")
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise TableError(400, f"the record must be JSON: {error}") from None
        return await asyncio.to_thread(replay_json, data)

    # -- WebSocket ----------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = hub.tables.get(table_id)
        if table is None:
            await _refuse(websocket, 404, f"there is no table {table_id!r}")
            return
        try:
            hello = await asyncio.wait_for(_receive_message(websocket), timeout=20)
        except (TimeoutError, WebSocketDisconnect):
            await _refuse(websocket, 400, 'say hello first: {"type": "hello", "token": "<seat token or null>"}')
            return
        if not isinstance(hello, dict) or hello.get("type") != "hello" or not isinstance(hello.get("token", None), (str, type(None))):
            await _refuse(websocket, 400, 'the first message must be {"type": "hello", "token": "<seat token or null>"}')
            return
        try:
            seat = hub.authenticate(table, hello.get("token"))
            first_view = table.view(seat)
            if seat is not None:
                await hub.joined(table, seat)
        except TableError as error:
            await _refuse(websocket, error.status, error.message)
            return
        client = Client(seat)
        client.push(first_view)
        table.clients.add(client)
        table.broadcast_presence()
        writer = asyncio.create_task(_pump(websocket, client))
        try:
            while True:
                message = await _receive_message(websocket)
                await _handle_message(hub, table, client, message)
        except WebSocketDisconnect:
            pass
        finally:
            table.clients.discard(client)
            writer.cancel()
            table.broadcast_presence()

    def _page_boot(table: LiveTable, *, replay: bool) -> dict[str, Any]:
        record = table.stored.record
        try:
            entry = game_json(get_game(record.game))
        except OptionError:
            entry = {"id": record.game, "title": record.game, "renderer": False, "stylesheet": False}
        return {"boot": {"table_id": table.id, "game": entry, "replay": replay}, "game": entry, "title": entry["title"]}

    return app


# -- helpers ------------------------------------------------------------------------------


def _game_or_404(game_id: str) -> Any:
    try:
        return get_game(game_id)
    except OptionError as error:
        raise TableError(404, str(error)) from None


def _bearer(authorization: str | None) -> str | None:
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TableError(401, "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


def _validation_text(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "request"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


def _jsonable_errors(error: RequestValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", ""))} for item in error.errors()]


async def _receive_message(websocket: WebSocket) -> Any:
    """The next client message as JSON; text that is not JSON becomes a marker the handler refuses."""
    text = await websocket.receive_text()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {"type": "__not_json__"}


async def _refuse(websocket: WebSocket, status: int, message: str) -> None:
    await websocket.send_json({"type": "error", "status": status, "message": message})
    await websocket.close(code=4000 + status, reason=message[:120])


async def _pump(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages in order."""
    try:
        while True:
            message = await client.queue.get()
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _handle_message(hub: TableHub, table: LiveTable, client: Client, message: Any) -> None:
    """One client message: ``act``, ``view`` (send my view again) or ``ping``."""
    kind = message.get("type") if isinstance(message, dict) else None
    request_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(request_id, (int, str, type(None))):
        request_id = None

    def refuse(status: int, text: str) -> None:
        client.push({"type": "error", "id": request_id, "status": status, "message": text})

    if kind == "ping":
        client.push({"type": "pong", "id": request_id})
    elif kind == "view":
        client.push(table.view(client.seat))
    elif kind == "act":
        action = message.get("action")
        expect = message.get("expect_version")
        if client.seat is None:
            refuse(403, "spectators cannot act; open your seat link to play")
        elif not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_LENGTH:
            refuse(400, f"'action' must be a non-empty text of at most {MAX_ACTION_LENGTH} characters")
        elif expect is not None and (not isinstance(expect, int) or isinstance(expect, bool)):
            refuse(400, "'expect_version' must be a whole number")
        else:
            try:
                canonical, index = await hub.act(table, client.seat, action, expect)
            except TableError as error:
                refuse(error.status, error.message)
            else:
                client.push({"type": "ack", "id": request_id, "action": canonical, "index": index})
    elif kind == "__not_json__":
        refuse(400, "messages must be JSON objects")
    else:
        refuse(400, f"unknown message type {kind!r}; use act, view or ping")
