"""Guards in front of the app: request bodies (size, time, JSON safety) and connections (count, header time).

:class:`BodyGuard` is ASGI middleware. It answers 413 as soon as a body is
known to be too large (from ``Content-Length``, or while reading a body
without one) and 400 for JSON nested too deeply or holding an overlong
integer, before the route ever runs. A body that is slower to arrive than
``body_timeout_seconds`` gets a 408.

:func:`guarded_protocol` makes uvicorn's HTTP protocol close a connection
that does not finish sending a request's headers within
``header_timeout_seconds`` (idle and slow-header sockets), and refuse more
than ``max_connections_per_client`` connections from one address.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from greenlight.web.inputs import InputError, parse_json
from greenlight.web.limits import ServerSettings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Paths whose bodies may be as large as an uploaded record.
UPLOAD_PATHS = ("/api/replay", "/api/positions/tables")  # a record; a table set up from a whole position


class BodyGuard:
    """Bounded, well-formed request bodies for every route (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read and check the body, then hand it to the app."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        limit = self.settings.max_upload_bytes if scope["path"] in UPLOAD_PATHS else self.settings.max_body_bytes
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _answer(send, 413, _too_large(limit), close=True)
            return
        try:
            async with asyncio.timeout(self.settings.body_timeout_seconds):  # no extra task, unlike wait_for
                body = await _read_body(receive, limit)
        except _TooLarge:
            await _answer(send, 413, _too_large(limit), close=True)
            return
        except TimeoutError:
            await _answer(send, 408, f"the request body did not arrive within {self.settings.body_timeout_seconds:g} s", close=True)
            return
        except _Disconnected:
            return
        if body and scope["path"].startswith("/api/") and not self._plainly_safe(body):
            try:
                parse_json(body, max_depth=self.settings.max_json_depth, max_int_digits=self.settings.max_json_int_digits)
            except InputError as error:
                await _answer(send, 400, str(error))
                return
            except (ValueError, UnicodeDecodeError):
                pass  # not JSON at all: the route says so in its own words
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _plainly_safe(self, body: bytes) -> bool:
        """Whether ``body`` cannot break the JSON limits, seen without parsing it (most actions and tables).

        Fewer brackets than the depth limit, no digit run longer than the integer limit and no
        ``NaN``/``Infinity`` anywhere (even inside a string, where they would be harmless) settle it.
        """
        if body.count(b"[") + body.count(b"{") > self.settings.max_json_depth or b"NaN" in body or b"Infinity" in body:
            return False
        return _long_digits(self.settings.max_json_int_digits).search(body) is None


@functools.cache
def _long_digits(limit: int) -> re.Pattern[bytes]:
    return re.compile(rb"[0-9]{%d}" % (limit + 1))


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _too_large(limit: int) -> str:
    return f"the request body is larger than this server accepts here ({_size(limit)})"


def _size(count: int) -> str:
    return f"{count // (1024 * 1024)} MB" if count >= 1024 * 1024 else f"{count // 1024} KB"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1").strip()
    return None


async def _answer(send: Send, status: int, detail: str, *, close: bool = False) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))  # the unread rest of the body must not be taken for a next request
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# -- connections ------------------------------------------------------------------------------


class ConnectionCounter:
    """Open HTTP connections per client address (shared by every connection of one server)."""

    def __init__(self) -> None:
        self.open: Counter[str] = Counter()


def guarded_protocol(settings: ServerSettings, counter: ConnectionCounter | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with a header deadline and a per-address connection cap."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # httptools is optional in uvicorn; h11 is always there
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]
    connections: ConnectionCounter = counter or ConnectionCounter()
    header_timeout = settings.header_timeout_seconds
    per_client = settings.max_connections_per_client

    class GuardedProtocol(Base):  # type: ignore[valid-type, misc]
        """One HTTP connection that must send its headers in time, from a client below its connection cap."""

        _guard_address: str | None = None
        _guard_timer: asyncio.TimerHandle | None = None
        _guard_cycle: object = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if connections.open[address] >= per_client:
                transport.close()  # over the cap: refuse before reading anything
                return
            connections.open[address] += 1
            self._guard_address = address
            self._arm()

        def data_received(self, data: bytes) -> None:
            cycle = getattr(self, "cycle", None)
            if self._guard_timer is None and (cycle is None or cycle.response_complete):
                self._arm()  # a new request begins: its headers must arrive in time
            super().data_received(data)
            cycle = getattr(self, "cycle", None)
            if cycle is not None and cycle is not self._guard_cycle:
                self._guard_cycle = cycle  # headers complete
                self._disarm()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._release()  # the WebSocket protocol takes the transport over (sockets are capped by the app)
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._guard_timer = asyncio.get_running_loop().call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None

        def _too_slow(self) -> None:
            self._guard_timer = None
            transport = getattr(self, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.close()

        def _release(self) -> None:
            self._disarm()
            if self._guard_address is not None:
                connections.open[self._guard_address] -= 1
                if connections.open[self._guard_address] <= 0:
                    del connections.open[self._guard_address]
                self._guard_address = None

    return GuardedProtocol
