"""Guards in front of the app: request bodies (size, time, JSON safety) and connections (count, header time).

:class:`BodyGuard` is ASGI middleware. It answers 413 as soon as a body is
known to be too large (from ``Content-Length``, or while reading a body
without one) and 400 for JSON nested too deeply or holding an overlong
integer, before the route ever runs. A body that is slower to arrive than
``body_timeout_seconds`` gets a 408.

:func:`guarded_protocol` makes uvicorn's HTTP protocol close a connection
that does not finish sending a request's headers within
``header_timeout_seconds`` (idle and slow-header sockets), answer 431 to
headers larger than ``max_header_bytes`` (or a line longer than
``max_header_line_bytes``, or more than ``max_headers`` of them) as soon as
the excess arrives, without buffering it, and refuse more than
``max_connections_per_client`` connections from one address.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from greenlight.web.inputs import InputError, may_hold_surrogates, parse_json
from greenlight.web.limits import RateLimiter, ServerSettings, retry_after

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Uploads: an uploaded record (parsed and replayed in a worker process, not here), a table set up from a whole position.
RECORD_UPLOAD = "/api/replay"
POSITION_UPLOAD = "/api/positions/tables"


class RequestBudget:
    """ASGI middleware: at most ``requests_per_second`` HTTP requests (burst ``requests_burst``) per client address.

    Taken before anything of the request is read or routed, in this process's memory (no database round trip):
    a flood from one address costs the server one bucket lookup per request and a short 429.
    """

    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.limiter = RateLimiter(settings.requests_per_second, settings.requests_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request over the budget with a 429, or hand it on."""
        if scope["type"] == "http":
            client = scope.get("client")
            wait = self.limiter.wait_needed(str(client[0]) if client else "")
            if wait > 0:
                await _answer(
                    send, 429, f"too many requests from your address; try again in {retry_after(wait)} s", retry=retry_after(wait)
                )
                return
        await self.app(scope, receive, send)


class BodyGuard:
    """Bounded, well-formed request bodies for every route (see the module docstring)."""

    def __init__(self, app: ASGIApp, settings: ServerSettings, rooms_uploads: Mapping[str, tuple[int, bool]] | None = None) -> None:
        self.app = app
        self.settings = settings
        self.uploads = RateLimiter(settings.uploads_per_minute / 60.0, settings.uploads_burst)
        self.uploading = 0
        #: Upload routes rooms declare (the lab's data files): path -> (largest body, whether it must be JSON).
        self.rooms_uploads = dict(rooms_uploads or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read and check the body, then hand it to the app."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path not in (RECORD_UPLOAD, POSITION_UPLOAD) and path not in self.rooms_uploads:
            await self._guarded(scope, receive, send, self.settings.max_body_bytes)
            return
        # An upload: its budget is taken before a byte of it is read, and only so many are held at once.
        client = scope.get("client")
        wait = self.uploads.wait_needed(str(client[0]) if client else "")
        if wait > 0:
            await _answer(send, 429, f"too many uploads from your address; try again in {retry_after(wait)} s", retry=retry_after(wait))
            return
        if self.uploading >= self.settings.max_uploads_at_once > 0:
            await _answer(send, 503, "the server is busy with other uploads; try again shortly", retry="2")
            return
        self.uploading += 1
        try:
            if path in self.rooms_uploads:
                limit, check_json = self.rooms_uploads[path]
            else:
                limit = self.settings.max_upload_bytes if path == RECORD_UPLOAD else self.settings.max_position_bytes
                check_json = path != RECORD_UPLOAD
            await self._guarded(scope, receive, send, limit, check_json=check_json)
        finally:
            self.uploading -= 1

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, limit: int, *, check_json: bool = True) -> None:
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
        # A record upload is parsed (with the same checks) in a worker process: parsing 4 MB here would stall every table.
        if check_json and body and scope["path"].startswith("/api/") and not self._plainly_safe(body):
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

        Fewer brackets than the depth limit, no digit run longer than the integer limit, no
        ``NaN``/``Infinity`` anywhere (even inside a string, where they would be harmless) and no escaped
        surrogate (a lone one is text no database can store) settle it.
        """
        if body.count(b"[") + body.count(b"{") > self.settings.max_json_depth or b"NaN" in body or b"Infinity" in body:
            return False
        if b"\\u" in body and may_hold_surrogates(body):
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


async def _answer(send: Send, status: int, detail: str, *, close: bool = False, retry: str | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry is not None:
        headers.append((b"retry-after", retry.encode()))
    if close:
        headers.append((b"connection", b"close"))  # the unread rest of the body must not be taken for a next request
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# -- connections ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeaderLimits:
    """How large a request's headers may be: all of them (with the request line), one line, and how many lines."""

    total_bytes: int
    line_bytes: int
    lines: int


class HeaderCount:
    """The headers of one request as they arrive, measured chunk by chunk (only the bytes before the blank line count).

    >>> count = HeaderCount(HeaderLimits(total_bytes=64, line_bytes=20, lines=3))
    >>> count.add(b"GET / HTTP/1.1\\r\\nHost: a\\r\\n") is None
    True
    >>> count.add(b"X-Long: " + b"y" * 30)
    'a request header line is longer than 20 bytes'
    >>> HeaderCount(HeaderLimits(64, 40, 2)).add(b"GET / HTTP/1.1\\r\\nA: 1\\r\\nB: 2\\r\\nC: 3\\r\\n\\r\\n")
    'the request has more than 2 header lines'
    """

    __slots__ = ("_done", "_line", "_lines", "_tail", "_total", "limits")

    def __init__(self, limits: HeaderLimits) -> None:
        self.limits = limits
        self._total = 0
        self._lines = 0
        self._line = 0
        self._tail = b""
        self._done = False

    def add(self, data: bytes) -> str | None:
        """Count a chunk; what is too large, in words, or None."""
        if self._done:
            return None
        seen = self._tail + data
        end = seen.find(b"\r\n\r\n")
        if end >= 0:
            data = data[: max(0, end + 4 - len(self._tail))]
            self._done = True
        self._tail = seen[-3:]
        self._total += len(data)
        limits = self.limits
        if self._total > limits.total_bytes:
            return f"the request's headers are larger than {limits.total_bytes} bytes"
        breaks = data.count(b"\n")
        # The blank line that ends the headers is not a header; nor is the request line.
        self._lines += breaks
        if self._lines - (2 if self._done else 1) > limits.lines:
            return f"the request has more than {limits.lines} header lines"
        if breaks == 0:
            self._line += len(data)
        else:
            first = data.find(b"\n")
            longest = max(self._line + first, *(len(line) for line in data[first + 1 :].split(b"\n")))
            self._line = len(data) - data.rfind(b"\n") - 1
            if longest > limits.line_bytes:
                return f"a request header line is longer than {limits.line_bytes} bytes"
        if self._line > limits.line_bytes:
            return f"a request header line is longer than {limits.line_bytes} bytes"
        return None


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
    header_limits = HeaderLimits(settings.max_header_bytes, settings.max_header_line_bytes, settings.max_headers)

    class GuardedProtocol(Base):  # type: ignore[valid-type, misc]
        """One HTTP connection that must send bounded headers in time, from a client below its connection cap."""

        _guard_address: str | None = None
        _guard_timer: asyncio.TimerHandle | None = None
        _guard_cycle: object = None
        _guard_headers: HeaderCount | None = None

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
            if self._guard_timer is not None and self._guard_headers is not None:
                problem = self._guard_headers.add(data)
                if problem is not None:
                    self._too_large(problem)
                    return  # never handed to the parser: nothing of the excess is kept
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
            self._guard_headers = HeaderCount(header_limits)

        def _too_large(self, problem: str) -> None:
            self._disarm()
            transport = getattr(self, "transport", None)
            if transport is not None and not transport.is_closing():
                body = json.dumps({"detail": problem}).encode()
                transport.write(
                    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
                    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
                )
                transport.close()

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
