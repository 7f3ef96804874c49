"""``greenlight db``: the server's database: create or migrate its schema (``migrate``), copy a SQLite file's tables (``copy``)."""

from __future__ import annotations

from typing import Annotated

import typer

from greenlight.cli.common import fail
from greenlight.cli.serve import DEFAULT_DB, describe_db, prepare_database

db_app = typer.Typer(help="The server's database (a SQLite file or PostgreSQL): create or migrate its schema.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add the ``db`` command group to ``app``."""
    app.add_typer(db_app, name="db")


@db_app.command("migrate")
def migrate(
    db: Annotated[str, typer.Option(help="A SQLite file or postgresql://user@host/database.")] = str(DEFAULT_DB),
) -> None:
    """Create the schema in an empty database or bring an older one up to this version (safe to run again)."""
    try:
        found, now = prepare_database(db)
    except Exception as error:
        raise fail(f"could not migrate {describe_db(db)}: {error}") from None
    if found is None:
        typer.echo(f"{describe_db(db)}: created storage schema {now}")
    elif found == now:
        typer.echo(f"{describe_db(db)}: storage schema {now}, nothing to do")
    else:
        typer.echo(f"{describe_db(db)}: migrated storage schema {found} to {now}")


@db_app.command("copy")
def copy(
    source: Annotated[str, typer.Argument(help="The SQLite file to copy from.")],
    target: Annotated[str, typer.Argument(help="The database to copy into: postgresql://user@host/database (or another SQLite file).")],
) -> None:
    """Copy every table (seats, moves, chat, reviews, host, hints, closing) from a SQLite file into another database.

    For moving a server from one SQLite file to PostgreSQL: stop the server first. Tables already in the
    target are refused (nothing of them is changed). A copied table's last activity is the time of the copy.
    """
    import asyncio
    from pathlib import Path

    from greenlight.web.database import is_database_url

    if is_database_url(source) or not Path(source).is_file():
        raise fail(f"the source must be an existing SQLite file, not {source!r}")
    try:
        copied = asyncio.run(copy_tables(source, target))
    except Exception as error:
        raise fail(f"could not copy into {describe_db(target)}: {error}") from None
    typer.echo(f"copied {copied} tables from {describe_db(source)} into {describe_db(target)}")


async def copy_tables(source: str, target: str) -> int:
    """Copy every table of the SQLite file ``source`` into ``target``; how many were copied."""
    import asyncio

    from greenlight.web.database import open_backend
    from greenlight.web.storage import (
        AddChat,
        CloseTable,
        CreateTable,
        LinkRematch,
        MarkBroken,
        SaveReview,
        SqliteStore,
        UpdateHints,
        WriteOp,
    )

    store = SqliteStore(source)
    backend = open_backend(target)
    await backend.start(lambda notice: None)
    try:
        tables = store.load_all()
        for table in tables:
            ops: list[WriteOp] = [CreateTable(table)]
            if table.closed_at is not None and table.finished_at is None:
                ops.append(CloseTable(table.id, table.closed_reason or "closed", at=table.closed_at))
            if table.error is not None:
                ops.append(MarkBroken(table.id, table.error))
            if table.hints:
                ops.append(UpdateHints(table.id, True))
            if table.rematch is not None:
                ops.append(LinkRematch(table.id, table.rematch))
            ops += [AddChat(table.id, line) for line in store.load_chat(table.id, 1_000_000)]
            ops += [SaveReview(table.id, seat, review) for seat, review in store.load_reviews(table.id).items()]
            # Submitted together, in order: the writer commits them in one transaction.
            await asyncio.gather(*(backend.writer.submit(op) for op in ops))
        return len(tables)
    finally:
        await backend.close()
        store.close()
