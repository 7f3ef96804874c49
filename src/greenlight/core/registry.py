"""The game registry: every package under ``greenlight.games`` that exposes ``GAME``.

Adding a game means adding its package; nothing else needs to change.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.game import Game


@cache
def all_games() -> dict[str, Game[Any]]:
    """Every registered game by id, in id order."""
    import greenlight.games as games_package

    found: dict[str, Game[Any]] = {}
    for module_info in pkgutil.iter_modules(games_package.__path__):
        if not module_info.ispkg:
            continue
        module = importlib.import_module(f"greenlight.games.{module_info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.spec.id] = game
    return dict(sorted(found.items()))


def _aliases(game_id: str) -> set[str]:
    short = game_id.split("-")[0]
    return {game_id, game_id.replace("-", "_"), game_id.replace("-", ""), short}


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (its id, or an obvious alias such as ``maybe_movies``).

    >>> get_game("cinecitta").spec.title
    'Cinecitta 1937'
    """
    games = all_games()
    key = name.strip().lower()
    for game_id, game in games.items():
        if key in _aliases(game_id):
            return game
    known = ", ".join(games) or "none"
    raise OptionError(f"unknown game {name!r}; known games: {known}")


def game_package(game: Game[Any]) -> str | None:
    """The package that defines ``game`` (``greenlight.games.<name>``), or None for a game defined elsewhere."""
    prefix = "greenlight.games."
    module = type(game).__module__
    if not module.startswith(prefix):
        return None
    return prefix + module[len(prefix) :].split(".")[0]


def companion_file(game: Game[Any], name: str) -> Path | None:
    """The file ``name`` in ``game``'s package folder (for example ``guide.md``, the rules for players), or None.

    >>> companion_file(get_game("cinecitta"), "no-such-file.txt") is None
    True
    """
    path = Path(inspect.getfile(type(game))).resolve().parent / name
    return path if path.is_file() else None


def companion_module(game: Game[Any], name: str) -> ModuleType | None:
    """The optional per-game module ``greenlight.games.<package>.<name>`` of ``game``, or None if it has none.

    Interfaces find their per-game parts this way (``encoding`` for RL,
    ``stats`` for the simulator, ``search`` for the search bots), so a game
    package never imports the interfaces that use it.

    >>> companion_module(get_game("cinecitta"), "encoding").__name__
    'greenlight.games.cinecitta.encoding'
    >>> companion_module(get_game("cinecitta"), "nothing_here") is None
    True
    """
    package = game_package(game)
    return _import_companion(package, name) if package is not None else None


@cache
def _import_companion(package: str, name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{name}":
            raise  # the module exists but something it imports is missing
        return None
