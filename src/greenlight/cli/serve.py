"""``greenlight serve``: run the web server (lobby, tables, bots) on a SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DEFAULT_DB = Path("greenlight.db")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 lets other machines join).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path, typer.Option(help="SQLite file holding every table; created if missing.")] = DEFAULT_DB,
    bot_delay: Annotated[float, typer.Option(min=0.0, help="Seconds a bot waits before each move, so people can follow.")] = 0.6,
    bot_workers: Annotated[
        int | None, typer.Option(min=0, help="Processes bots think in (default: one per core; 0: in the server process).")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level (debug, info, warning, error).")] = "warning",
) -> None:
    """Serve the lobby and live tables in the browser; every move is saved to the SQLite file."""
    import uvicorn

    from greenlight.web import create_app

    app = create_app(db, bot_delay=bot_delay, bot_workers=bot_workers)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Greenlight is serving {db.resolve()}")
    typer.echo(f"Open http://{shown}:{port}/ in your browser (Ctrl+C stops the server).", err=False)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
