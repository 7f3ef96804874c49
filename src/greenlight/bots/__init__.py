"""Bots by name: generic ones (``random``) and each game's own (``heuristic``, ...).

>>> from greenlight.core.registry import get_game
>>> make_bot("random", get_game("cinecitta"), seed=3).name
'random'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from greenlight.core.bot import Bot, RandomBot
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

GENERIC_BOTS: dict[str, Callable[[Game[Any], int], Bot]] = {
    "random": lambda game, seed: RandomBot(seed),
}


def bot_names(game: Game[Any]) -> list[str]:
    """Every bot level this game offers."""
    return [*GENERIC_BOTS, *(name for name in game.bots() if name not in GENERIC_BOTS)]


def make_bot(name: str, game: Game[Any], seed: int) -> Bot:
    """Build the bot called ``name`` for ``game`` with ``seed``."""
    own = game.bots()
    if name in own:
        return own[name](seed)
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](game, seed)
    raise OptionError(f"unknown bot {name!r} for {game.spec.title}; choose from {', '.join(bot_names(game))}")
