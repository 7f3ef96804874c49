"""The JSON API under ``/api``: games, tables, actions and replays (see docs/api.md)."""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from greenlight.core.data import load_data_file
from greenlight.core.errors import GreenlightError, OptionError
from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.registry import get_game
from greenlight.web.clocks.room import ClocksRoom, PaceIn
from greenlight.web.limits import ServerSettings, client_pseudonym
from greenlight.web.messages import MAX_ACTION_LENGTH
from greenlight.web.policies import with_policies
from greenlight.web.replays import replay_json, replay_upload
from greenlight.web.tables import LiveTable, SeatRequest, TableError, TableHub
from greenlight.web.views import FILE_NAME, catalogue, component_json, encode_json, game_data_dir, game_json, guide_html, player_guide

#: Largest seed a creator may choose (the server's own seeds have 128 bits).
MAX_SEED = 2**256 - 1


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=40, description="bot level (see GET /api/games), for kind=bot")
    name: str | None = Field(default=None, max_length=200, description="shown to everyone at the table (at most 40 visible characters)")
    open: bool = Field(default=False, description="for kind=human: a seat anyone may take from the lobby (no link is made for it now)")


class TableIn(BaseModel):
    """A table to create: the game, one entry per seat, options, and optionally the seed."""

    game: str = Field(max_length=60)
    seats: list[SeatIn] = Field(min_length=1, max_length=16)
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)
    seed: int | None = Field(
        default=None, ge=0, le=MAX_SEED, description="leave out for a secret deal; whoever chooses a seed can know every hidden card"
    )
    position: dict[str, Any] | None = Field(
        default=None,
        description="start from this position (docs/positions.md) instead of a deal; its creator knows every hidden card in it",
    )
    pace: PaceIn | None = Field(
        default=None, description="live clocks, turn-based deadlines or untimed (the default), and what a time-out does (docs/play.md)"
    )


class ActionIn(BaseModel):
    """An action in its text form (one of the seat's `legal_actions`)."""

    action: str = Field(min_length=1, max_length=MAX_ACTION_LENGTH)
    expect_version: int | None = Field(default=None, ge=0, description="refuse (409) unless the table is at this move number")


class Limiters:
    """The per-client rate limits of the server: ``create`` (tables, reviews) and ``actions`` (moves and table requests).

    The buckets are kept by the backend, so with several server processes a
    client has one budget whichever process it reaches.
    """

    def __init__(self, settings: ServerSettings, hub: TableHub) -> None:
        self.hub = hub
        self.rates = {
            "create": (settings.create_per_minute / 60.0, settings.create_burst),
            "actions": (settings.actions_per_second, settings.actions_burst),
        }

    async def take(self, limit: str, client: str, what: str) -> None:
        """Take one request from ``client``'s budget ``limit`` or refuse with a 429 saying when to try again."""
        per_second, burst = self.rates[limit]
        await self.hub.take_budget(limit, client, per_second, burst, f"{what} from your address")


async def hub_of(request: Request) -> TableHub:
    """The server's table hub (a dependency of every table route; async, so FastAPI runs it inline, not in a thread)."""
    hub: TableHub = request.app.state.hub
    return hub


async def client_of(request: Request) -> str:
    """Who sent the request: the peer address (or the forwarded one from a trusted proxy)."""
    return request.client.host if request.client is not None else ""


Hub = Annotated[TableHub, Depends(hub_of)]
ClientAddress = Annotated[str, Depends(client_of)]

router = APIRouter(prefix="/api")


def game_or_404(game_id: str) -> Game[Any]:
    """The registered game ``game_id`` or a 404."""
    try:
        return get_game(game_id)
    except OptionError as error:
        raise TableError(404, str(error)) from None


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without a header; 401 for another scheme)."""
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TableError(401, "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


async def seat_from_header(hub: TableHub, table: LiveTable, authorization: str | None, *, required: bool) -> int | None:
    """The seat the request's token stands for; None for a spectator (401 where acting needs a token)."""
    token = bearer(authorization)
    if token is None:
        if required:
            raise TableError(401, "acting needs your seat token: send the header 'Authorization: Bearer <token>' from your seat link")
        return None
    return await hub.authenticate(table, token)


# -- games ------------------------------------------------------------------------------------


@router.get("/health", tags=["server"])
async def health(request: Request, hub: Hub, x_greenlight_operator: Annotated[str | None, Header()] = None) -> dict[str, Any]:
    """Liveness: the process answers (``{"ok": true}``). With the operator's token in ``X-Greenlight-Operator``, also
    which process answers, how many tables it stores and holds in memory, how writes are grouped and the loop's lag."""
    token = hub.settings.operator_token
    if not (token and x_greenlight_operator and hmac.compare_digest(x_greenlight_operator.encode(), token.encode())):
        return {"ok": True}
    try:
        count: int | None = await hub.backend.count()
    except Exception:
        count = None  # the database is away: this process is alive all the same (see /api/ready)
    return {
        "ok": True,
        "process": hub.backend.process_id,
        "tables": count,
        "live_tables": len(hub.tables),
        "writes": hub.backend.write_stats(),
        "loop_lag": hub.loop_lag(),
        "bot_work": {
            "waiting": hub.bot_pool.waiting(),
            "hint_searches": len(request.app.state.hints.running) if hasattr(request.app.state, "hints") else 0,
        },
    }


@router.get("/ready", tags=["server"], responses={503: {"description": "not ready: the reason is in `detail`"}})
async def ready(hub: Hub) -> dict[str, Any]:
    """Readiness: whether this process can serve tables now (started, database answering, hearing the other processes)."""
    problem = await hub.ready()
    if problem is not None:
        raise TableError(503, f"not ready: {problem}", retry_after=1)
    return {"ready": True, "shared": hub.backend.shared}


@router.get("/games", tags=["games"])
async def list_games(request: Request) -> list[dict[str, Any]]:
    """Every game this server offers: players, options (with explanations), bot levels and the operator's policies."""
    return with_policies(catalogue(), request.app.state.settings)


@router.get("/games/{game_id}", tags=["games"])
async def describe_game(game_id: str, request: Request) -> dict[str, Any]:
    """One game's catalogue entry."""
    return with_policies([game_json(game_or_404(game_id))], request.app.state.settings)[0]


@router.get("/games/{game_id}/data/{name}", tags=["games"])
async def game_data(game_id: str, name: str) -> Any:
    """A bundled data file of the game (cards, board) as JSON, for renderers: ``name`` without suffix, e.g. ``cards``."""
    game = game_or_404(game_id)
    folder = game_data_dir(game)
    for suffix in (".toml", ".json") if FILE_NAME.fullmatch(name) else ():
        path = (folder / f"{name}{suffix}").resolve()
        if path.parent == folder and path.is_file():
            return await asyncio.to_thread(load_data_file, path)
    raise TableError(404, f"{game.spec.title} has no data file {name!r}")


@router.get("/games/{game_id}/components", tags=["games"])
async def game_components(game_id: str) -> list[dict[str, str]]:
    """Every printed component of the game (bundled data) in words: kind, code, name and face text."""
    return [component_json(component) for component in game_or_404(game_id).components()]


@router.get("/games/{game_id}/rules", tags=["games"])
async def game_rules(game_id: str) -> dict[str, str]:
    """The rules for players, as Markdown and as HTML (``docs/rules/<game>.md``)."""
    game = game_or_404(game_id)
    text = player_guide(game)
    if text is None:
        raise TableError(404, f"{game.spec.title} has no rules for players yet")
    return {"title": game.spec.title, "markdown": text, "html": guide_html(text)}


# -- tables -----------------------------------------------------------------------------------


@router.post("/positions/tables", status_code=201, tags=["tables"])
async def create_table_from_position(body: TableIn, request: Request, hub: Hub, client: ClientAddress) -> dict[str, Any]:
    """Create a table set up from ``position`` (a whole position may be large: the upload limit applies here)."""
    if body.position is None:
        raise TableError(400, "send the position to set the table up from ('position'), or create a dealt table at /api/tables")
    return await create_table(body, request, hub, client)


@router.post("/tables", status_code=201, tags=["tables"])
async def create_table(body: TableIn, request: Request, hub: Hub, client: ClientAddress) -> dict[str, Any]:
    """Create a table. The response holds each human seat's secret token and link (shown only once).

    A small hand-written ``position`` fits here; a whole one (``greenlight position``) goes to /api/positions/tables.
    """
    limiters: Limiters = request.app.state.limiters
    await limiters.take("create", client, "new tables")
    seats = [SeatRequest(seat.kind, seat.bot, seat.name, seat.open) for seat in body.seats]
    clocks = clocks_of(request) if body.pace is not None and body.pace.kind != "untimed" else None
    pace = clocks.check(body.game, body.pace) if clocks is not None and body.pace is not None else None  # 400 before creating
    created = await hub.create(body.game, seats, dict(body.options), body.seed, creator=client_pseudonym(client), position=body.position)
    table = created.table
    if clocks is not None and pace is not None:
        try:
            await clocks.set_pace(table, pace)
        except TableError:
            await hub.close_table(table)  # a timed table whose clocks could not be stored is never played untimed
            raise
    base = hub.settings.public_url.rstrip("/")
    seat_links = []
    for row in table.stored.seats:
        item: dict[str, Any] = {"seat": row.seat, "kind": row.kind, "bot": row.bot, "name": row.name}
        if row.seat in created.tokens:
            token = created.tokens[row.seat]
            item["token"] = token
            item["link"] = f"{base}/tables/{table.id}#token={token}"
        seat_links.append(item)
    return {
        "table": table.info(),
        "seats": seat_links,
        "spectator_link": f"{base}/tables/{table.id}",
        "host_token": created.host_token,
        "host_link": f"{base}/tables/{table.id}#host={created.host_token}",
        "pace": (pace.to_json() if pace is not None else {"kind": "untimed", "words": "Untimed"}),
    }


def clocks_of(request: Request) -> ClocksRoom:
    """The server's clocks room (a 409 if this server runs none: its tables are untimed)."""
    for room in getattr(request.app.state, "rooms", ()):
        if isinstance(room, ClocksRoom):
            return room
    raise TableError(409, "this server keeps no clocks: its tables are untimed")


@router.get("/tables", tags=["tables"])
async def list_tables(
    hub: Hub,
    status: Literal["open", "running", "finished", "closed", "broken"] | None = None,
    game: Annotated[str | None, Query(max_length=60)] = None,
    limit: Annotated[int, Query(ge=0)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    """Tables newest first, a page at a time (``limit`` at most the server's page size), optionally one status and one game."""
    return await hub.list_page(status, game, min(limit, hub.settings.max_page_size), offset)


@router.get("/tables/{table_id}", tags=["tables"])
async def describe_table(table_id: str, hub: Hub) -> dict[str, Any]:
    """Public facts about one table."""
    return (await hub.table(table_id)).info()


@router.get("/tables/{table_id}/components", tags=["tables"])
async def table_components(table_id: str, hub: Hub) -> list[dict[str, str]]:
    """The printed components of this table's game (its own card data, catalogue or deck) in words."""
    table = await hub.table(table_id)
    return [component_json(component) for component in table.game.components(table.match.state)]


def json_text(text: str) -> Response:
    """An answer whose JSON is already encoded (a view is encoded once, not walked again by the framework)."""
    return Response(content=text, media_type="application/json")


@router.get("/tables/{table_id}/view", tags=["tables"])
async def view_table(table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None) -> Response:
    """What your seat (with a token) or a spectator (without) may see now."""
    hub: TableHub = request.app.state.hub  # not a dependency: this route and actions are the hot path
    table = await hub.table(table_id)
    seat = await seat_from_header(hub, table, authorization, required=False)
    if seat is not None:
        await hub.joined(table, seat)
    return json_text(table.view_text(seat))


@router.get("/tables/{table_id}/why", tags=["tables"])
async def why(
    table_id: str,
    hub: Hub,
    action: Annotated[str, Query(min_length=1, max_length=MAX_ACTION_LENGTH)],
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Whether ``action`` is legal for your seat now and, if not, why, in the game's words (for explaining a target on the board)."""
    table = await hub.table(table_id)
    seat = await seat_from_header(hub, table, authorization, required=True)
    assert seat is not None
    match = table.match
    try:
        parsed = match.game.parse_action(action)
    except GreenlightError as error:
        return {"legal": False, "reason": str(error)}
    if parsed in match.legal_actions(seat):
        return {"legal": True, "reason": None, "words": match.game.describe_action(match.state, seat, parsed)}
    try:
        match.game.check(match.state, seat, parsed)
    except GreenlightError as error:
        return {"legal": False, "reason": str(error)}
    return {"legal": False, "reason": "this is not one of your choices now"}


@router.post("/tables/{table_id}/actions", tags=["tables"])
async def play_action(table_id: str, body: ActionIn, request: Request, authorization: Annotated[str | None, Header()] = None) -> Response:
    """Play one action for your seat. It is stored before this answers; the answer holds your new view."""
    hub: TableHub = request.app.state.hub
    client = await client_of(request)
    table = await hub.table(table_id)
    seat = await seat_from_header(hub, table, authorization, required=True)
    assert seat is not None
    limiters: Limiters = request.app.state.limiters
    await limiters.take("actions", client, "actions")
    await hub.joined(table, seat)
    canonical, index = await hub.act(table, seat, body.action, body.expect_version)
    answer = encode_json({"accepted": True, "action": canonical, "index": index})
    return json_text(f'{answer[:-1]},"view":{table.view_text(seat)}}}')


# -- replays ----------------------------------------------------------------------------------


@router.get("/tables/{table_id}/record", tags=["replays"])
async def download_record(table_id: str, request: Request, hub: Hub) -> Response:
    """The record of a finished (or closed) game (JSON, replayable with `greenlight replay` or /replay)."""
    table = await hub.table(table_id)
    if not (table.finished or table.closed):
        raise TableError(409, "the record can be downloaded once the game is over (it holds every hidden choice)")
    filename = f"greenlight-{table.stored.record.game}-{table.id}.json"
    record = Record.from_json(table.stored.record.to_json())
    record.players = [row.name if row.kind == "human" else f"bot:{row.bot}" for row in table.stored.seats]
    data = record.to_json()
    for room in getattr(request.app.state, "rooms", ()):
        # A room may say more beside the moves (the clocks: the pace and each time-out); replays read only the moves.
        notes = getattr(room, "record_notes", None)
        if notes is not None:
            data.update({key: value for key, value in (await notes(table)).items() if key not in data})
    return Response(
        json.dumps(data, indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/tables/{table_id}/replay", tags=["replays"])
async def table_replay(table_id: str, hub: Hub) -> dict[str, Any]:
    """Every step of a finished (or closed) game as a spectator saw it, with the action taken."""
    table = await hub.table(table_id)
    if not (table.finished or table.closed):
        raise TableError(409, "a table can be replayed once the game is over")
    names = [row.name for row in table.stored.seats]
    return await asyncio.to_thread(replay_json, table.stored.record.to_json(), names)


@router.post("/replay", tags=["replays"])
async def replay_record(request: Request, hub: Hub, client: ClientAddress) -> Response:
    """Replay an uploaded record (the JSON of a finished or unfinished game) step by step.

    The record is parsed and replayed in a worker process, taking the uploader's turn there like a bot move, so a
    large upload holds neither the event loop nor the workers from anyone else for long.
    """
    settings: ServerSettings = request.app.state.settings
    body = await request.body()
    status, text = await hub.bot_pool.run(
        replay_upload, body, settings.max_json_depth, settings.max_json_int_digits, owner=client_pseudonym(client)
    )
    if status != 200:
        raise TableError(status, text)
    return json_text(text)


#: The routes of every move, a seat's view and its actions, are tried first (routes are matched in order;
#: a stable sort keeps the others as declared).
HOT_ROUTES = frozenset({"/api/tables/{table_id}/view", "/api/tables/{table_id}/actions"})
router.routes.sort(key=lambda route: getattr(route, "path", "") not in HOT_ROUTES)
