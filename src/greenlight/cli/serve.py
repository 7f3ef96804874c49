"""``greenlight serve``: run the web server (lobby, tables, bots) on a SQLite file or on PostgreSQL with several workers."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import resource
import socket
import sys
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from greenlight.cli.common import fail
from greenlight.web.database import is_database_url
from greenlight.web.limits import ServerSettings

DEFAULT_DB = Path("greenlight.db")
#: Settings with options of their own (the rest are set with --limit NAME=VALUE).
OWN_OPTIONS = (
    *("public_url", "bot_delay", "bot_workers", "write_timeout", "operator_token"),
    *("smtp_url", "smtp_password", "smtp_sender", "push_contact", "push_hosts", "policies"),
)
#: The environment variable holding the operator's token (a secret: never on the command line, where ``ps`` shows it).
OPERATOR_TOKEN_VARIABLE = "GREENLIGHT_OPERATOR_TOKEN"
#: The environment variable holding the SMTP server's password (a secret, as above).
SMTP_PASSWORD_VARIABLE = "GREENLIGHT_SMTP_PASSWORD"


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 lets other machines join).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="Where tables are kept: a SQLite file (created if missing), or postgresql://user@host/database to share them"
            " between several server processes (docs/deploy.md)."
        ),
    ] = str(DEFAULT_DB),
    workers: Annotated[
        int, typer.Option(min=1, help="Server processes on this machine, all serving every table (more than 1 needs PostgreSQL).")
    ] = 1,
    public_url: Annotated[
        str | None,
        typer.Option(help="The address people use to reach this server; seat links are built from it (default: the address served)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(min=0.0, help="Seconds a bot waits before each move, so people can follow.")] = 0.6,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Processes bots think in, per server process (default: the cores over the workers; 0: in the server process).",
        ),
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
    log_level: Annotated[str, typer.Option(help="Log level (debug, info, warning, error).")] = "warning",
    log_format: Annotated[str, typer.Option(help="Log lines as 'text' or as 'json' (one object per line, for a log collector).")] = "text",
    smtp: Annotated[
        str | None,
        typer.Option(
            help="Send 'your turn' e-mails through this SMTP server: smtp://user@host:587 (STARTTLS), smtps://host:465,"
            " smtp://host:25?tls=none; the password comes from GREENLIGHT_SMTP_PASSWORD (docs/deploy.md)."
        ),
    ] = None,
    smtp_from: Annotated[str | None, typer.Option(help="The sender of those e-mails: 'Greenlight <games@example.org>'.")] = None,
    push_contact: Annotated[
        str | None, typer.Option(help="Web Push: how push services reach this server's operator (mailto:... or https://...).")
    ] = None,
    push_hosts: Annotated[
        str | None,
        typer.Option(help="Web Push: the push services' hosts the server may post to, comma-separated (default: the browsers' own)."),
    ] = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=FILE",
            help="Offer a trained policy file (saved with greenlight.rl.policy_file.save_policy) as the bot 'policy:NAME' in the lobby,"
            " for its game and player count; repeatable. Visitors can name only these (docs/security.md).",
        ),
    ] = None,
    listen_fd: Annotated[int | None, typer.Option(hidden=True, help="A listening socket handed down by --workers.")] = None,
) -> None:
    """Serve the lobby and live tables in the browser; every move is saved to the database before anyone sees it."""
    if log_format not in ("text", "json"):
        raise fail(f"--log-format is 'text' or 'json', not {log_format!r}")
    address = public_url or default_public_url(host, port)
    check_public_url(address)
    if workers > 1 and not is_database_url(db):
        raise fail("several --workers share their tables through PostgreSQL: use --db postgresql://user@host/database (docs/deploy.md)")
    if bot_workers is None and workers > 1:
        bot_workers = max(1, (os.cpu_count() or 1) // workers)
    settings = dataclasses.replace(
        apply_limits(ServerSettings(), limit or []),
        public_url=address.rstrip("/"),
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        write_timeout=write_timeout,
        operator_token=os.environ.get(OPERATOR_TOKEN_VARIABLE, ""),
        smtp_url=smtp or "",
        smtp_password=os.environ.get(SMTP_PASSWORD_VARIABLE, ""),
        smtp_sender=smtp_from or "",
        push_contact=push_contact or "",
        push_hosts=push_hosts if push_hosts is not None else ServerSettings().push_hosts,
        policies=read_policies(policy or []),
    )
    if smtp:
        from greenlight.web.notify.mail import SmtpServer

        try:
            SmtpServer.from_url(smtp, "", smtp_from or "", 1.0)
        except ValueError as error:
            raise fail(str(error)) from None
    where = describe_db(db)
    if listen_fd is None:  # a worker's supervisor has done this already
        try:
            prepare_database(db)
        except Exception as error:
            raise fail(f"cannot use the database {where}: {str(error).strip()}") from None
    if workers > 1:
        from greenlight.cli.workers import supervise

        typer.echo(f"Greenlight is serving {where} with {workers} worker processes")
        typer.echo(f"Open {settings.public_url}/ in your browser (Ctrl+C stops the server).")
        options = worker_options(settings, limit or [], forwarded_allow_ips, log_level, log_format)
        raise typer.Exit(supervise(host, port, db, workers, options))
    run_server(host, port, db, settings, forwarded_allow_ips, log_level, log_format, listen_fd, quiet=listen_fd is not None, where=where)


def run_server(
    host: str,
    port: int,
    db: str,
    settings: ServerSettings,
    forwarded_allow_ips: str | None,
    log_level: str,
    log_format: str,
    listen_fd: int | None,
    *,
    quiet: bool,
    where: str,
) -> None:
    """Run one server process (on ``listen_fd`` when a supervisor opened the socket)."""
    import uvicorn

    from greenlight.web import create_app
    from greenlight.web.guard import guarded_protocol
    from greenlight.web.logs import logging_config

    raise_file_limit()
    # Each move's write is a few SQLite calls in the writer thread, and after each the thread must get the GIL
    # back from the busy event loop. At the default 5 ms switch interval a batch waited for several such turns
    # (measured with bench/bench_load.py: 39 commits/s and p50 28 ms; at 0.2 ms, 89 commits/s and p50 17 ms).
    sys.setswitchinterval(0.0002)
    app = create_app(db, settings=settings)
    tune_garbage_collector()
    if not quiet:
        typer.echo(f"Greenlight is serving {where}")
        typer.echo(f"Open {settings.public_url}/ in your browser (Ctrl+C stops the server).")
    uvicorn.run(
        app,
        host=host,
        port=port,
        fd=listen_fd,
        log_level=log_level,
        log_config=logging_config(log_level, log_format),
        http=guarded_protocol(settings),
        timeout_keep_alive=settings.keep_alive_seconds,
        ws_max_size=settings.max_message_bytes,
        # The sans-I/O implementation of the websockets library: under load (bench/bench_load.py, 100 tables) its
        # p99 acknowledgement was 82-99 ms against 126-164 ms for uvicorn's default one.
        ws="websockets-sansio",
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def describe_db(db: str) -> str:
    """The database in words, without a password: the SQLite file's full path, or the PostgreSQL server and database."""
    if is_database_url(db):
        parts = urlsplit(db)
        return f"PostgreSQL {parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"
    return str(Path(db).resolve())


def prepare_database(db: str) -> tuple[int | None, int]:
    """Create or migrate the database's schema, the tables' and every room's (before workers start, so they never race
    to do it); the tables' schema (found, now)."""
    import asyncio

    from greenlight.web.app import default_rooms, prepare_rooms
    from greenlight.web.database import open_rooms

    if is_database_url(db):
        from greenlight.web.postgres import migrate

        found, now = asyncio.run(migrate(db))
    else:
        from greenlight.web.storage import SqliteStore

        store = SqliteStore(db)
        store.close()
        found, now = store.schema_found, store.schema_version

    async def rooms() -> None:
        rooms_db = open_rooms(db)
        try:
            await prepare_rooms(rooms_db, default_rooms(ServerSettings()))
        finally:
            await rooms_db.close()

    asyncio.run(rooms())
    return found, now


def worker_options(
    settings: ServerSettings, limits: list[str], forwarded_allow_ips: str | None, log_level: str, log_format: str
) -> list[str]:
    """The ``greenlight serve`` options every worker process runs with (the supervisor's own, spelled out)."""
    options = ["--public-url", settings.public_url, "--bot-delay", str(settings.bot_delay), "--write-timeout", str(settings.write_timeout)]
    if settings.bot_workers is not None:
        options += ["--bot-workers", str(settings.bot_workers)]
    for assignment in limits:
        options += ["--limit", assignment]
    for name, value in (("--smtp", settings.smtp_url), ("--smtp-from", settings.smtp_sender), ("--push-contact", settings.push_contact)):
        if value:
            options += [name, value]
    options += ["--push-hosts", settings.push_hosts]
    for name, path in settings.policies:
        options += ["--policy", f"{name}={path}"]
    if forwarded_allow_ips is not None:
        options += ["--forwarded-allow-ips", forwarded_allow_ips]
    return [*options, "--log-level", log_level, "--log-format", log_format]


def read_policies(registrations: list[str]) -> tuple[tuple[str, str], ...]:
    """The ``--policy NAME=FILE`` registrations, each file's metadata read now: a bad one stops the server's start."""
    from greenlight.bots.policy import PolicyFileError
    from greenlight.web.policies import parse_registration, registered

    try:
        policies = tuple(parse_registration(text) for text in registrations)
        registered(policies)
    except (ValueError, PolicyFileError) as error:
        raise fail(str(error)) from None
    return policies


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
