"""``greenlight serve``: run the web server (lobby, tables, bots) on a SQLite file."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import resource
import socket
import sys
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from greenlight.cli.common import fail
from greenlight.web.limits import ServerSettings

DEFAULT_DB = Path("greenlight.db")
#: Settings with options of their own (the rest are set with --limit NAME=VALUE).
OWN_OPTIONS = ("public_url", "bot_delay", "bot_workers", "write_timeout")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 lets other machines join).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path, typer.Option(help="SQLite file holding every table; created if missing.")] = DEFAULT_DB,
    public_url: Annotated[
        str | None,
        typer.Option(help="The address people use to reach this server; seat links are built from it (default: the address served)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(min=0.0, help="Seconds a bot waits before each move, so people can follow.")] = 0.6,
    bot_workers: Annotated[
        int | None, typer.Option(min=0, help="Processes bots think in (default: one per core; 0: in the server process).")
    ] = None,
    write_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a move may wait for the database before it is refused with a 503.")
    ] = 3.0,
    limit: Annotated[
        list[str] | None,
        typer.Option(metavar="NAME=VALUE", help="Set any other limit, e.g. --limit actions_per_second=20 (all names: docs/security.md)."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Proxies trusted to say who the client is (X-Forwarded-For), comma-separated; none by default."),
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level (debug, info, warning, error).")] = "warning",
) -> None:
    """Serve the lobby and live tables in the browser; every move is saved to the SQLite file before anyone sees it."""
    import uvicorn

    from greenlight.web import create_app
    from greenlight.web.guard import guarded_protocol

    address = public_url or default_public_url(host, port)
    check_public_url(address)
    settings = dataclasses.replace(
        apply_limits(ServerSettings(), limit or []),
        public_url=address.rstrip("/"),
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        write_timeout=write_timeout,
    )
    raise_file_limit()
    # Each move's write is a few SQLite calls in the writer thread, and after each the thread must get the GIL
    # back from the busy event loop. At the default 5 ms switch interval a batch waited for several such turns
    # (measured with bench/bench_load.py: 39 commits/s and p50 28 ms; at 0.2 ms, 89 commits/s and p50 17 ms).
    sys.setswitchinterval(0.0002)
    app = create_app(db, settings=settings)
    tune_garbage_collector()
    typer.echo(f"Greenlight is serving {db.resolve()}")
    typer.echo(f"Open {settings.public_url}/ in your browser (Ctrl+C stops the server).")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=guarded_protocol(settings),
        timeout_keep_alive=settings.keep_alive_seconds,
        ws_max_size=settings.max_message_bytes,
        # The sans-I/O implementation of the websockets library: under load (bench/bench_load.py, 100 tables) its
        # p99 acknowledgement was 82-99 ms against 126-164 ms for uvicorn's default one.
        ws="websockets-sansio",
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def default_public_url(host: str, port: int) -> str:
    """The address served: this machine's network address when listening on every interface."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def lan_address() -> str:
    """The address other machines on the network reach this one by (127.0.0.1 if there is no network)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent, the OS only picks a route
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def check_public_url(url: str) -> None:
    """Refuse a public URL that is not ``http(s)://host[:port][/path]``."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise fail(f"--public-url must look like https://games.example.org or http://192.168.1.20:8000, not {url!r}")


def apply_limits(settings: ServerSettings, assignments: list[str]) -> ServerSettings:
    """``settings`` with each ``NAME=VALUE`` applied (the value read as the field's type)."""
    fields = {item.name: item for item in dataclasses.fields(ServerSettings) if item.name not in OWN_OPTIONS}
    changes: dict[str, Any] = {}
    for assignment in assignments:
        name, equals, text = assignment.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in fields:
            raise fail(f"--limit takes NAME=VALUE with NAME one of: {', '.join(sorted(fields))} (got {assignment!r})")
        default = getattr(settings, name)
        try:
            value: Any = float(text) if isinstance(default, float) else int(text)
        except ValueError:
            raise fail(f"--limit {name} needs a {'number' if isinstance(default, float) else 'whole number'}, not {text!r}") from None
        if value < 0:
            raise fail(f"--limit {name} cannot be negative")
        changes[name] = value
    return dataclasses.replace(settings, **changes)


def tune_garbage_collector() -> None:
    """Collect rarely and leave start-up objects alone, so collections do not stall the event loop.

    With Python's defaults a full collection ran every few seconds under load
    and paused every table for 80-130 ms; with these settings the longest
    pause measured was 17 ms (bench/bench_load.py, docs/performance.md).
    Cyclic garbage is still collected, only less often.
    """
    gc.collect()
    gc.freeze()  # modules, card tables and other start-up objects are never garbage
    gc.set_threshold(20_000, 100, 100)


def raise_file_limit() -> None:
    """Allow as many open files as the system lets this process have (each connection is one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):  # not allowed here: keep what we have
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))
