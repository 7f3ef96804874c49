"""Bots by name: the difficulty levels, each game's own bots (``heuristic``, ...), and parametric searches.

The CLI and the web lobby build every bot through :func:`make_bot`, always
with a seed, so a game with bots is reproducible.

>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> make_bot("random", game, seed=3).name
'random'
>>> bot_names(game)[:5]
['random', 'easy', 'medium', 'hard', 'expert']
>>> make_bot("search:50", game, seed=3).config.iterations
50
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from greenlight.bots.analysis import MoveEstimate, analyse
from greenlight.bots.ismcts import ISMCTSBot
from greenlight.bots.levels import LEVEL_FACTORIES, parse_search
from greenlight.core.bot import Bot
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

#: Bots every game offers, in the order shown to players.
GENERIC_BOTS: dict[str, Callable[[Game[Any], int], Bot]] = dict(LEVEL_FACTORIES)

SEARCH_PREFIX = "search:"

__all__ = ["GENERIC_BOTS", "ISMCTSBot", "MoveEstimate", "analyse", "bot_names", "make_bot"]


def bot_names(game: Game[Any]) -> list[str]:
    """Every bot level this game offers by name (parametric ``search:...`` bots are accepted too)."""
    return [*GENERIC_BOTS, *(name for name in game.bots() if name not in GENERIC_BOTS)]


def make_bot(name: str, game: Game[Any], seed: int) -> Bot:
    """Build the bot called ``name`` for ``game`` with ``seed``."""
    own = game.bots()
    if name in own:  # a game may supply its own version of a level
        return own[name](seed)
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](game, seed)
    if name.startswith(SEARCH_PREFIX):
        return ISMCTSBot(seed, parse_search(name, game), name=name)
    raise OptionError(f"unknown bot {name!r} for {game.spec.title}; choose from {', '.join(bot_names(game))} or search:ITERATIONS")
