"""Table life over HTTP: the host's controls, open seats, resigning, rematches and the chat (see docs/api.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from greenlight.web.api import ClientAddress, Hub, Limiters, bearer
from greenlight.web.tables import LiveTable, TableError, TableHub, chat_json

router = APIRouter(prefix="/api/tables/{table_id}", tags=["table life"])
Authorization = Annotated[str | None, Header()]


class BotIn(BaseModel):
    """A bot level to hand a seat to."""

    bot: str = Field(default="medium", max_length=40)


class PersonIn(BaseModel):
    """A person to give a seat to: a name, or an open seat anyone may take from the lobby."""

    name: str | None = Field(default=None, max_length=200)
    open: bool = False


class NameIn(BaseModel):
    """The name of whoever takes an open seat."""

    name: str | None = Field(default=None, max_length=200)


class ChatIn(BaseModel):
    """A chat message (text only)."""

    text: str = Field(min_length=1, max_length=2000)


def link(hub: TableHub, table_id: str, fragment: str) -> str:
    """A link to a table page, built from the server's public address."""
    return f"{hub.settings.public_url.rstrip('/')}/tables/{table_id}#{fragment}"


def seat_answer(hub: TableHub, table: LiveTable, seat: int, token: str) -> dict[str, Any]:
    """A seat's new token and link (shown once)."""
    return {"table": table.info(), "seat": seat, "token": token, "link": link(hub, table.id, f"token={token}")}


async def seat_of(hub: TableHub, table: LiveTable, authorization: str | None) -> int:
    """The seat of the request's token (401 without one)."""
    seat = await hub.authenticate(table, bearer(authorization))
    if seat is None:
        raise TableError(401, "this needs your seat token: send the header 'Authorization: Bearer <token>' from your seat link")
    return seat


async def take_budget(request: Request, client: str) -> None:
    """Table-life requests share the per-client action budget."""
    limiters: Limiters = request.app.state.limiters
    await limiters.take("actions", client, "requests")


@router.post("/seats/{seat}/bot")
async def seat_to_bot(
    table_id: str,
    seat: int,
    body: BotIn,
    request: Request,
    hub: Hub,
    client: ClientAddress,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: a bot of the given level takes the seat (for a person who is away); the seat's link stops working."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    hub.host_of(table, bearer(authorization))
    await hub.seat_to_bot(table, seat, body.bot, "is away")
    return {"table": table.info()}


@router.post("/seats/{seat}/person")
async def seat_to_person(
    table_id: str,
    seat: int,
    body: PersonIn,
    request: Request,
    hub: Hub,
    client: ClientAddress,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Host: a person takes the seat back from a bot, or the seat gets a fresh link (the old one stops working), or opens to anyone."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    hub.host_of(table, bearer(authorization))
    token = await hub.seat_to_person(table, seat, body.name, open_seat=body.open)
    if body.open:
        return {"table": table.info(), "seat": seat}
    return seat_answer(hub, table, seat, token)


@router.post("/seats/{seat}/take")
async def take_seat(table_id: str, seat: int, body: NameIn, request: Request, hub: Hub, client: ClientAddress) -> dict[str, Any]:
    """Anyone: take an open seat (listed in the lobby); the answer holds the seat's link (shown once)."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    token = await hub.take_seat(table, seat, body.name)
    return seat_answer(hub, table, seat, token)


@router.post("/close")
async def close_table(
    table_id: str, request: Request, hub: Hub, client: ClientAddress, authorization: Authorization = None
) -> dict[str, Any]:
    """Host: end the table before the game is over (no more moves; the record can be downloaded)."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    hub.host_of(table, bearer(authorization))
    await hub.close_table(table)
    return {"table": table.info()}


@router.post("/resign")
async def resign(
    table_id: str, body: BotIn, request: Request, hub: Hub, client: ClientAddress, authorization: Authorization = None
) -> dict[str, Any]:
    """A player gives their seat to a bot of the given level and stops playing (their link now only watches)."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    seat = await seat_of(hub, table, authorization)
    await hub.seat_to_bot(table, seat, body.bot, "resigned")
    return {"table": table.info()}


@router.post("/rematch")
async def rematch(table_id: str, request: Request, hub: Hub, client: ClientAddress, authorization: Authorization = None) -> dict[str, Any]:
    """A player (or the host) of a finished table: the rematch (made by the first to ask) and a link to the same seat in it."""
    await take_budget(request, client)
    table = await hub.table(table_id)
    token = bearer(authorization)
    is_host = table.is_host(token)
    seat = None if is_host else await seat_of(hub, table, authorization)
    new = await hub.rematch(table)
    if is_host:
        host_token = await hub.claim_rematch_host(new)
        return {"table": new.info(), "host_token": host_token, "host_link": link(hub, new.id, f"host={host_token}")}
    assert seat is not None
    if new.stored.seats[seat].kind != "human":
        return {"table": new.info(), "seat": seat}
    return seat_answer(hub, new, seat, await hub.claim_rematch_seat(table, new, seat))


@router.get("/chat")
async def chat_history(table_id: str, hub: Hub) -> list[dict[str, Any]]:
    """The latest chat lines (anyone may read them; only seats may write)."""
    table = await hub.table(table_id)
    return [chat_json(line) for line in await hub.chat_history(table)]


@router.post("/chat")
async def chat(table_id: str, body: ChatIn, hub: Hub, client: ClientAddress, authorization: Authorization = None) -> dict[str, Any]:
    """A seat says something at the table (at most 300 characters, about one message a second)."""
    table = await hub.table(table_id)
    seat = await seat_of(hub, table, authorization)
    return chat_json(await hub.chat(table, seat, body.text, client))
