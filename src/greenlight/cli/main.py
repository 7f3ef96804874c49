"""The ``greenlight`` command: one typer app; each subcommand lives in its own module.

A command module defines ``register(app)``. Modules are listed here once;
a module that is not installed (an optional extra) is skipped.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="greenlight",
    help="Movie-making board games: play, serve, simulate, replay and benchmark.",
    no_args_is_help=True,
    add_completion=False,
)

COMMAND_MODULES = ("play", "rules", "replay", "bench", "games", "serve", "arena", "simulate")

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"greenlight.cli.{_name}")
    except ModuleNotFoundError as _error:
        if _error.name != f"greenlight.cli.{_name}":
            raise
        continue
    _module.register(app)


def main() -> None:
    """Entry point."""
    app()


if __name__ == "__main__":
    main()
