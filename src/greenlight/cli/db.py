"""``greenlight db``: the server's database: create or migrate its schema (``migrate``)."""

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
