"""The ``greenlight`` command: one typer app; each subcommand lives in its own module.

A command module defines ``register(app)``. Modules are listed here once;
a module that is not installed (an optional extra) is skipped.
"""

from __future__ import annotations

import importlib
import sys

import typer

app = typer.Typer(
    name="greenlight",
    help="Movie-making board games: play, serve, simulate, replay and benchmark.",
    no_args_is_help=True,
    add_completion=False,
)

COMMAND_MODULES = ("play", "rules", "replay", "position", "review", "bench", "games", "serve", "db", "arena", "simulate", "sweep", "data")

for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(f"greenlight.cli.{_name}")
    except ModuleNotFoundError as _error:
        if _error.name != f"greenlight.cli.{_name}":
            raise
        continue
    _module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point (``greenlight``)."""
    app(args=resume_without_file(list(sys.argv[1:] if argv is None else argv)))


def resume_without_file(args: list[str]) -> list[str]:
    """Let ``--resume`` stand alone (the latest save): typer options always take a value, so give it one.

    >>> resume_without_file(["play", "--resume"]), resume_without_file(["play", "--resume", "-n", "3"])
    (['play', '--resume', 'latest'], ['play', '--resume', 'latest', '-n', '3'])
    >>> resume_without_file(["play", "cinecitta", "--resume", "game.json"])
    ['play', 'cinecitta', '--resume', 'game.json']
    """
    from greenlight.cli.play import LATEST

    for index, arg in enumerate(args):
        if arg == "--resume" and (index + 1 == len(args) or args[index + 1].startswith("-")):
            return [*args[: index + 1], LATEST, *args[index + 1 :]]
    return args


if __name__ == "__main__":
    main()
