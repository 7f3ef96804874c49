"""The game registry: every game registered in the ``greenlight.games`` entry-point group.

A game is a plugin. Its distribution names its :class:`~greenlight.core.game.Game`
object in its ``pyproject.toml``::

    [project.entry-points."greenlight.games"]
    opening-weekend = "opening_weekend:GAME"

and, once installed, it is in every interface. The three built-in games
register the same way, so nothing here (or anywhere in ``core``) imports or
names a game. A plugin that fails to load is left out with a warning that
names it and says why (:func:`plugin_problems`); the other games still work.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.game import Game

#: The entry-point group games register in.
ENTRY_POINT_GROUP = "greenlight.games"

log = logging.getLogger("greenlight")

#: The package each registered game came from (its entry point's module), by game id.
_packages: dict[str, str] = {}
#: Why an installed plugin was left out, one sentence per plugin.
_problems: list[str] = []


@cache
def all_games() -> dict[str, Game[Any]]:
    """Every registered game by id, in id order."""
    found: dict[str, Game[Any]] = {}
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda entry: entry.name):
        origin = f"game plugin {entry.name!r} ({entry.value})"
        try:
            game = entry.load()
        except Exception as error:  # any failure of a third-party import: leave that game out, say why
            _left_out(f"{origin} could not be loaded: {type(error).__name__}: {error}")
            continue
        if not isinstance(game, Game):
            _left_out(f"{origin} is a {type(game).__name__}, not a greenlight Game object")
            continue
        if game.spec.id in found:
            _left_out(f"{origin} has the id {game.spec.id!r} of a game already registered by {_packages[game.spec.id]}")
            continue
        found[game.spec.id] = game
        _packages[game.spec.id] = entry.module
    if not found:
        log.warning("no games are registered in the %r entry points: is greenlight installed (pip install -e .)?", ENTRY_POINT_GROUP)
    return dict(sorted(found.items()))


def _left_out(problem: str) -> None:
    _problems.append(problem)
    log.warning("%s; it is left out", problem)


def plugin_problems() -> list[str]:
    """Why installed game plugins were left out of :func:`all_games` (empty when every one loaded)."""
    all_games()
    return list(_problems)


def _aliases(game_id: str) -> set[str]:
    short = game_id.split("-")[0]
    return {game_id, game_id.replace("-", "_"), game_id.replace("-", ""), short}


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (its id, or an obvious alias: ``my_game`` or ``mygame`` for ``my-game``).

    >>> get_game("no such game")
    Traceback (most recent call last):
    ...
    greenlight.core.errors.OptionError: unknown game 'no such game'; known games: ...
    """
    games = all_games()
    key = name.strip().lower()
    for game_id, game in games.items():
        if key in _aliases(game_id):
            return game
    known = ", ".join(games) or "none"
    raise OptionError(f"unknown game {name!r}; known games: {known}")


def game_package(game: Game[Any]) -> str:
    """The package that defines ``game``: its entry point's module, or the package of its class for an unregistered game."""
    registered = _packages.get(game.spec.id)
    if registered is not None and all_games().get(game.spec.id) is game:
        return registered
    module = type(game).__module__
    return module.rpartition(".")[0] or module


def companion_file(game: Game[Any], name: str) -> Path | None:
    """The file ``name`` in ``game``'s package folder (for example ``guide.md``, the rules for players), or None."""
    module = importlib.import_module(game_package(game))
    folder = Path(module.__file__).resolve().parent if module.__file__ else Path(inspect.getfile(type(game))).resolve().parent
    path = folder / name
    return path if path.is_file() else None


def companion_module(game: Game[Any], name: str) -> ModuleType | None:
    """The optional module ``<package>.<name>`` of ``game``'s package, or None if it has none.

    Interfaces find their per-game parts this way (``encoding`` for RL,
    ``stats`` for the simulator, ``search`` for the search bots), so a game
    package never imports the interfaces that use it.
    """
    return _import_companion(game_package(game), name)


@cache
def _import_companion(package: str, name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{name}":
            raise  # the module exists but something it imports is missing
        return None
