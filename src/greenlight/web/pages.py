"""The HTML pages (lobby, table, replay) and the files a game ships for its table renderer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.templating import Jinja2Templates

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.web.api import Hub, game_or_404
from greenlight.web.policies import with_policies
from greenlight.web.tables import LiveTable, TableError
from greenlight.web.views import FILE_NAME, WEB_FILE_TYPES, catalogue, game_json, game_web_dir, guide_html, player_guide

HERE = Path(__file__).resolve().parent
#: Content Security Policy of the HTML pages: scripts and styles only from this server, nothing inline.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

templates = Jinja2Templates(directory=str(HERE / "templates"))
router = APIRouter(include_in_schema=False)


def page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """A rendered template with the pages' security headers."""
    response = templates.TemplateResponse(request, name, context, status_code=status_code)
    response.headers["Content-Security-Policy"] = PAGE_CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


async def table_or_missing(request: Request, hub: Any, table_id: str) -> LiveTable | HTMLResponse:
    """The table, or the "no such table" page."""
    try:
        return await hub.table(table_id)  # type: ignore[no-any-return]
    except TableError as error:
        if error.status != 404:
            raise
        return page(request, "missing.html", {"what": f"There is no table {table_id}.", "boot": {}}, status_code=404)


def page_boot(table: LiveTable, *, replay: bool) -> dict[str, Any]:
    """What the table and replay pages start from."""
    record = table.stored.record
    try:
        entry = game_json(get_game(record.game))
    except OptionError:
        entry = {"id": record.game, "title": record.game, "renderer": False, "stylesheet": False}
    return {"boot": {"table_id": table.id, "game": entry, "replay": replay}, "game": entry, "title": entry["title"]}


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: create a table, see the open and running ones."""
    return page(request, "lobby.html", {"boot": {"games": with_policies(catalogue(), request.app.state.settings)}})


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str, hub: Hub) -> HTMLResponse:
    """One table, for a seat (token in the fragment) or a spectator."""
    table = await table_or_missing(request, hub, table_id)
    return table if isinstance(table, HTMLResponse) else page(request, "table.html", page_boot(table, replay=False))


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, table_id: str, hub: Hub) -> HTMLResponse:
    """A finished table, step by step."""
    table = await table_or_missing(request, hub, table_id)
    return table if isinstance(table, HTMLResponse) else page(request, "replay.html", page_boot(table, replay=True))


@router.get("/replay", response_class=HTMLResponse)
async def replay_upload_page(request: Request) -> HTMLResponse:
    """Replay a record file from disk."""
    games = {entry["id"]: entry for entry in catalogue()}
    return page(request, "replay.html", {"boot": {"table_id": None, "games": games}, "title": "Replay a record"})


@router.get("/games/{game_id}/rules", response_class=HTMLResponse)
async def rules_page(request: Request, game_id: str) -> HTMLResponse:
    """The rules for players of one game, as a page of its own."""
    game = game_or_404(game_id)
    text = player_guide(game)
    if text is None:
        return page(request, "missing.html", {"what": f"{game.spec.title} has no rules for players yet.", "boot": {}}, status_code=404)
    return page(request, "rules.html", {"title": f"Rules of {game.spec.title}", "rules_html": guide_html(text), "boot": {}})


@router.get("/games/{game_id}/web/{name}")
async def game_web_file(game_id: str, name: str) -> FileResponse:
    """A file of the game's ``web/`` folder (its table renderer and stylesheet)."""
    game = game_or_404(game_id)
    if not FILE_NAME.fullmatch(name):
        raise TableError(404, f"{game.spec.title} has no web file {name!r}")
    suffix = Path(name).suffix
    folder = game_web_dir(game)
    path = (folder / name).resolve()
    if suffix not in WEB_FILE_TYPES or path.parent != folder or not path.is_file():
        raise TableError(404, f"{game.spec.title} has no web file {name!r}")
    return FileResponse(path, media_type=WEB_FILE_TYPES[suffix], headers={"Cache-Control": "no-cache"})
