"""The WebSocket protocol of a table (see docs/api.md): hello, then act / view / ping, with views pushed after every move."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from greenlight.web.api import Limiters
from greenlight.web.backend import SocketRefused
from greenlight.web.inputs import InputError, parse_json
from greenlight.web.limits import RateLimiter, ServerSettings, retry_after
from greenlight.web.messages import Act, Chat, Ping, ViewAgain, read_hello, read_message, request_id
from greenlight.web.storage import StorageError
from greenlight.web.tables import Client, LiveTable, TableError, TableHub, chat_json

#: Seconds a new socket has to say hello.
HELLO_SECONDS = 20
#: Close codes for frames the protocol does not take (RFC 6455 section 7.4.1), and for a client over its budget.
CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_TOO_MANY = 4429
#: Messages over the budget a socket may send within a window (dropped unread) before it is closed; one warning a window.
MAX_DROPPED = 200
DROP_WINDOW_SECONDS = 10.0

router = APIRouter()


class SocketBudgets:
    """What one client address may make this process do over WebSockets: open sockets and send messages.

    Kept in memory per process (a message's budget is taken before the message is even parsed, so it must cost
    no database round trip); the socket caps, kept by the backend, hold across processes.
    """

    def __init__(self, settings: ServerSettings) -> None:
        self.messages = RateLimiter(settings.socket_messages_per_second, settings.socket_messages_burst)
        self.opens = RateLimiter(settings.socket_opens_per_minute / 60.0, settings.socket_opens_burst)


class _Binary(Exception):
    """The client sent a binary frame."""


class _NotJson(Exception):
    """The client sent text that is not JSON, or JSON the server refuses (with the reason)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One client of a table: a seat (token in the hello) or a spectator."""
    hub: TableHub = websocket.app.state.hub
    settings: ServerSettings = websocket.app.state.settings
    address = websocket.client.host if websocket.client is not None else ""
    budgets: SocketBudgets = websocket.app.state.socket_budgets
    await websocket.accept()
    wait = budgets.opens.wait_needed(address)
    if wait > 0:
        await _refuse(websocket, 429, f"your address opens connections too often; try again in {retry_after(wait)} s")
        return
    try:
        table = await hub.table(table_id)
    except TableError as error:
        await _refuse(websocket, error.status, error.message)
        return
    try:
        ticket = await hub.backend.open_socket(
            table.id, address, None, per_table=settings.max_sockets_per_table, per_client=settings.max_sockets_per_client
        )
    except SocketRefused as refusal:
        await _refuse(websocket, 429, str(refusal))
        return
    except StorageError as error:
        await _refuse(websocket, 503, f"the server could not count this connection ({error.message}); try again shortly")
        return
    try:
        await _serve(websocket, hub, settings, table, address, ticket)
    finally:
        await hub.backend.close_socket(ticket)


async def _serve(websocket: WebSocket, hub: TableHub, settings: ServerSettings, table: LiveTable, address: str, ticket: int) -> None:
    hello_text = 'say hello first: {"type": "hello", "token": "<seat token or null>"}'
    try:
        hello = await asyncio.wait_for(_receive(websocket, settings), timeout=HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect, _NotJson):
        await _refuse(websocket, 400, hello_text)
        return
    except _Binary:
        await _refuse(websocket, 400, hello_text, code=CLOSE_UNSUPPORTED_DATA)
        return
    greeting = read_hello(hello)
    if greeting is None:
        await _refuse(websocket, 400, 'the first message must be {"type": "hello", "token": "<seat token or null>"}')
        return
    try:
        seat = await hub.authenticate(table, greeting.token)
        first_view = table.view_text(seat)
        if seat is not None:
            await hub.joined(table, seat)
    except TableError as error:
        await _refuse(websocket, error.status, error.message)
        return
    client = Client(seat, address, host=table.is_host(greeting.host) if greeting.host is not None else False)
    client.push_view(first_view)
    with contextlib.suppress(TableError):  # the chat could not be read now: the game goes on without it
        client.push({"type": "chat_history", "lines": [chat_json(line) for line in await hub.chat_history(table)]})
    table.clients.add(client)
    table.schedule_presence(settings.presence_delay_seconds)
    await hub.backend.greet_socket(ticket, table.id, seat)
    writer = asyncio.create_task(_pump(websocket, client))
    budget: SocketBudgets = websocket.app.state.socket_budgets
    dropped, window = 0, 0.0
    try:
        while True:
            frame = await websocket.receive()
            wait = budget.messages.wait_needed(address)
            if wait > 0 and frame["type"] != "websocket.disconnect":
                # Over the address's budget: dropped unread. The first of a window says so; a socket that keeps
                # sending (however the budget refills meanwhile) is closed.
                now = time.monotonic()
                if now - window > DROP_WINDOW_SECONDS:
                    dropped, window = 0, now
                dropped += 1
                if dropped == 1:
                    client.push(_over_budget(wait))
                elif dropped >= MAX_DROPPED:
                    writer.cancel()
                    await _flush(websocket, client)  # what is queued (the warning among it) goes out before the close
                    await websocket.close(code=CLOSE_TOO_MANY, reason="too many messages; slow down and connect again")
                    return
                continue
            try:
                message = _read(frame, settings)
            except _NotJson as problem:
                client.push({"type": "error", "id": None, "status": 400, "message": problem.reason})
                continue
            except _Binary:
                await websocket.send_json(
                    {"type": "error", "id": None, "status": 400, "message": "send JSON text messages, not binary ones"}
                )
                await websocket.close(code=CLOSE_UNSUPPORTED_DATA, reason="binary messages are not part of this protocol")
                return
            await _handle(hub, table, client, message, websocket.app.state.limiters)
    except WebSocketDisconnect:
        pass
    finally:
        table.clients.discard(client)
        writer.cancel()
        table.schedule_presence(settings.presence_delay_seconds)


def _over_budget(wait: float) -> dict[str, Any]:
    return {
        "type": "error",
        "id": None,
        "status": 429,
        "message": f"too many messages from your address; they are dropped for {retry_after(wait)} s",
        "retry_after": retry_after(wait),
    }


async def _receive(websocket: WebSocket, settings: ServerSettings) -> Any:
    """The next client message as JSON (raises _Binary, _NotJson or WebSocketDisconnect)."""
    return _read(await websocket.receive(), settings)


def _read(message: Any, settings: ServerSettings) -> Any:
    """A received frame as JSON (raises _Binary, _NotJson or WebSocketDisconnect)."""
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise _Binary
    try:
        return parse_json(text, max_depth=settings.max_json_depth, max_int_digits=settings.max_json_int_digits)
    except InputError as error:
        raise _NotJson(str(error)) from None
    except json.JSONDecodeError:
        raise _NotJson("messages must be JSON objects") from None


async def _refuse(websocket: WebSocket, status: int, message: str, *, code: int | None = None) -> None:
    await websocket.send_json({"type": "error", "status": status, "message": message})
    await websocket.close(code=code or 4000 + status, reason=message[:120])


async def _flush(websocket: WebSocket, client: Client) -> None:
    """Send what is queued for the client now (its pump is stopped)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not client.queue.empty():
            await websocket.send_text(client.queue.get_nowait())


async def _pump(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages in order."""
    try:
        while True:
            await websocket.send_text(await client.queue.get())
    except (WebSocketDisconnect, RuntimeError):
        return


async def _handle(hub: TableHub, table: LiveTable, client: Client, message: Any, limiters: Limiters) -> None:
    """One client message: ``act``, ``view`` (send my view again), ``chat`` or ``ping``."""
    answer_id = request_id(message)

    def refuse(status: int, text: str, retry: float | None = None) -> None:
        answer: dict[str, Any] = {"type": "error", "id": answer_id, "status": status, "message": text}
        if retry is not None:
            answer["retry_after"] = retry_after(retry)
        client.push(answer)

    request = read_message(message, max_chat_chars=hub.settings.max_chat_chars)
    if isinstance(request, str):
        refuse(400, request)
    elif isinstance(request, Ping):
        client.push({"type": "pong", "id": answer_id})
    elif isinstance(request, ViewAgain):
        try:
            text = table.view_text(client.seat)
        except TableError as error:
            refuse(error.status, error.message)
        else:
            if text is client.last_view:
                client.push({"type": "view_unchanged", "id": answer_id, "version": table.version})
            else:
                client.push_view(text)
    elif client.seat is None:
        refuse(
            403,
            "spectators cannot act; open your seat link to play"
            if isinstance(request, Act)
            else "spectators can read the chat but not write in it",
        )
    elif isinstance(request, Act):
        try:
            await limiters.take("actions", client.address, "actions")
            canonical, index = await hub.act(table, client.seat, request.action, request.expect_version)
        except TableError as error:
            refuse(error.status, error.message, error.retry_after)
        else:
            client.push({"type": "ack", "id": answer_id, "action": canonical, "index": index})
    elif isinstance(request, Chat):
        try:
            await hub.chat(table, client.seat, request.text, client.address)
        except TableError as error:
            refuse(error.status, error.message, error.retry_after)
