"""Trained policies on the web server: the operator registers files by name; visitors choose among those names only.

``policy:FILE`` plays a saved policy as a bot in the CLI, the arena and the
simulator (:mod:`greenlight.bots.policy`). On a server, a visitor naming a
file would make the server open and run any file it can read, so the server
accepts no path: the operator registers policies at start
(``greenlight serve --policy NAME=FILE``, the ``policies`` setting), each
file's metadata is read then (a file that is missing or not a policy stops
the start), and the lobby offers ``policy:NAME`` only for the game and the
player count the policy was trained for. A table asking for any other
``policy:...`` is refused with a 400. The name is stored with the table; the
bot's worker receives the registered file's path, never text from a request.

A policy chooses in milliseconds (one forward pass a move), so it thinks in
the quick bots' lane and needs no search budget.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from greenlight.bots import is_quick
from greenlight.bots.policy import PREFIX, TRAIN_EXTRA, PolicyFileError, PolicyInfo, read_policy_info
from greenlight.core.game import Game
from greenlight.web.limits import ServerSettings

#: What a registered name may be: plain, no path, and short enough that ``policy:NAME`` fits a seat's 40-character bot field.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,32}$")
#: How a table's seat names a registered policy.
LEVEL_PREFIX = PREFIX + ":"


def parse_registration(text: str) -> tuple[str, str]:
    """``NAME=FILE`` as (name, absolute path); ValueError naming what is wrong. The file is read by :func:`registered`.

    >>> parse_registration("ppo=runs/ppo.pt")[0]
    'ppo'
    >>> parse_registration("../x=ppo.pt")
    Traceback (most recent call last):
    ValueError: a policy's name is 1 to 33 letters, digits, '.', '-' or '_' (not '../x'); write --policy NAME=FILE
    """
    name, equals, path = text.partition("=")
    if not equals or not path:
        raise ValueError(f"--policy takes NAME=FILE, not {text!r}")
    if not NAME.match(name):
        raise ValueError(f"a policy's name is 1 to 33 letters, digits, '.', '-' or '_' (not {name!r}); write --policy NAME=FILE")
    return name, os.path.abspath(path)


@cache
def registered(policies: tuple[tuple[str, str], ...]) -> dict[str, PolicyInfo]:
    """The metadata of each registered policy by name (read once; PolicyFileError naming a bad file, or PyTorch missing)."""
    if policies and importlib.util.find_spec("torch") is None:
        raise PolicyFileError(f"policy files need {TRAIN_EXTRA}")
    found: dict[str, PolicyInfo] = {}
    for name, path in policies:
        if name in found:
            raise PolicyFileError(f"the policy name {name!r} is registered twice")
        found[name] = read_policy_info(path)
    return found


def check_policies(settings: ServerSettings) -> None:
    """Read every registered policy's metadata now (a server refuses to start with a bad one)."""
    registered(settings.policies)


def is_policy_level(level: str) -> bool:
    """Whether a seat's bot level names a policy (``policy:NAME``)."""
    return level.startswith(LEVEL_PREFIX)


def is_quick_level(level: str) -> bool:
    """Whether a bot level chooses in milliseconds: the quick levels, and policies."""
    return is_quick(level) or is_policy_level(level)


def policy_problem(settings: ServerSettings, game: Game[Any], num_players: int, level: str) -> str | None:
    """Why a table of ``game`` at ``num_players`` cannot seat the policy ``level`` (None: it can)."""
    name = level.removeprefix(LEVEL_PREFIX)
    info = registered(settings.policies).get(name)
    if info is None:
        return f"no policy named {name!r} is registered on this server"
    if info.game != game.spec.id or info.players != num_players:
        return f"the policy {name!r} plays {info.describe()}, not {game.spec.id} at {num_players} players"
    return None


def bot_level(settings: ServerSettings, level: str) -> str:
    """The name the bot is built with in a worker: ``policy:NAME`` becomes ``policy:REGISTERED_FILE``; others unchanged.

    Raises PolicyFileError for a policy name that is not (or no longer) registered: a stored table outlives a
    server's settings.
    """
    if not is_policy_level(level):
        return level
    name = level.removeprefix(LEVEL_PREFIX)
    info = registered(settings.policies).get(name)
    if info is None:
        raise PolicyFileError(f"no policy named {name!r} is registered on this server")
    return LEVEL_PREFIX + info.path


def policy_choices(settings: ServerSettings, game_id: str) -> list[dict[str, Any]]:
    """The registered policies of one game, as the lobby offers them (each for its player count)."""
    return [
        {"bot": LEVEL_PREFIX + name, "label": f"Policy: {name}", "players": info.players, "note": info.note}
        for name, info in sorted(registered(settings.policies).items())
        if info.game == game_id
    ]


def with_policies(entries: Iterable[dict[str, Any]], settings: ServerSettings) -> list[dict[str, Any]]:
    """Catalogue entries with each game's registered policies added under ``policies``."""
    return [{**entry, "policies": policy_choices(settings, entry["id"])} for entry in entries]
