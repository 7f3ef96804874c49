"""Bots by name: the difficulty levels, each game's own bots (``heuristic``, ...), parametric searches, and foreign bots.

A trained policy plays as ``policy:FILE`` (a file saved by
:func:`greenlight.rl.policy_file.save_policy`; ``policy:FILE/sample`` draws
its moves instead of taking the best, see :mod:`greenlight.bots.policy`).

Search levels take a time per move (``hard:0.05``, see
:func:`~greenlight.bots.levels.parse_timed_level`). Bots that need an
optional extra are named in :data:`EXTRA_BOTS` by prefix (such as
``openspiel-ismcts:0.5``, OpenSpiel's ISMCTS through the RL adapter) and
imported only when asked for, with a clear error when the extra is missing.

The CLI and the web lobby build every bot through :func:`make_bot`, always
with a seed, so a game with bots is reproducible.

>>> from greenlight.core.registry import get_game
>>> game = get_game("cinecitta")
>>> make_bot("random", game, seed=3).name
'random'
>>> bot_names(game)[:6]
['random', 'easy', 'medium', 'strong', 'hard', 'expert']
>>> make_bot("search:50", game, seed=3).config.iterations
50
>>> make_bot("hard:0.05", game, seed=3).config.seconds
0.05
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from greenlight.bots.analysis import MoveEstimate, analyse
from greenlight.bots.hooks import HEURISTIC
from greenlight.bots.ismcts import ISMCTSBot
from greenlight.bots.levels import LEVEL_FACTORIES, QUICK_BOTS, TIMED_LEVELS, parse_search, parse_timed_level
from greenlight.bots.policy import PREFIX as POLICY_PREFIX
from greenlight.bots.policy import make_policy_bot
from greenlight.core.bot import Bot
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

#: Bots every game offers, in the order shown to players.
GENERIC_BOTS: dict[str, Callable[[Game[Any], int], Bot]] = dict(LEVEL_FACTORIES)

SEARCH_PREFIX = "search:"

#: Bots from optional extras by name prefix: ("module:function", what to install). The function takes
#: (name, game, seed). They live in higher layers (the OpenSpiel bot uses the RL adapter, which imports bots),
#: so they are named here and imported on first use, as a game names its bots.
EXTRA_BOTS: dict[str, tuple[str, str]] = {
    "openspiel-ismcts": ("greenlight.rl.openspiel_bot:make_openspiel_bot", "OpenSpiel (pip install -e '.[rl]')"),
}

__all__ = ["GENERIC_BOTS", "ISMCTSBot", "MoveEstimate", "analyse", "bot_choices", "bot_names", "is_quick", "make_bot"]


def bot_names(game: Game[Any]) -> list[str]:
    """Every bot level this game offers by name (parametric ``search:...`` bots are accepted too)."""
    return [*GENERIC_BOTS, *(name for name in game.bots() if name not in GENERIC_BOTS)]


def bot_choices(game: Game[Any]) -> list[str]:
    """Each bot once, as the lobby and the table page offer them: the game's own ``heuristic`` *is* its ``medium``
    level, so it is left out under its own name (``make_bot`` still takes it).

    >>> from greenlight.core.registry import get_game
    >>> bot_choices(get_game("cinecitta"))
    ['random', 'easy', 'medium', 'strong', 'hard', 'expert']
    """
    return [name for name in bot_names(game) if not (name == HEURISTIC and "medium" in GENERIC_BOTS)]


def is_quick(name: str) -> bool:
    """Whether the bot called ``name`` chooses in milliseconds (no search): every other bot counts as one that thinks long.

    >>> is_quick("medium"), is_quick("hard"), is_quick("search:50")
    (True, False, False)

    A ``policy:`` bot is quick too, but is not named here: the web server's
    rooms accept a quick bot's name without further checks, and a policy name
    there must be one the operator registered (``greenlight.web.policies``).
    """
    return name in QUICK_BOTS


def make_bot(name: str, game: Game[Any], seed: int) -> Bot:
    """Build the bot called ``name`` for ``game`` with ``seed``."""
    own = game.bots()
    if name in own:  # a game may supply its own version of a level
        return own[name](seed)
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](game, seed)
    if name.startswith(SEARCH_PREFIX):
        return ISMCTSBot(seed, parse_search(name, game), name=name)
    prefix = name.partition(":")[0]
    if prefix in TIMED_LEVELS and ":" in name:
        return ISMCTSBot(seed, parse_timed_level(name, game), name=name)
    if prefix == POLICY_PREFIX:
        return make_policy_bot(name, game, seed)
    if prefix in EXTRA_BOTS:
        return _extra_bot(prefix, name, game, seed)
    raise OptionError(
        f"unknown bot {name!r} for {game.spec.title}; choose from {', '.join(bot_names(game))}, "
        f"search:ITERATIONS, hard:SECONDS, {POLICY_PREFIX}:FILE or {', '.join(f'{extra}:...' for extra in EXTRA_BOTS)}"
    )


def _extra_bot(prefix: str, name: str, game: Game[Any], seed: int) -> Bot:
    """Import the maker of an :data:`EXTRA_BOTS` bot and build it; an error names the missing extra."""
    reference, needs = EXTRA_BOTS[prefix]
    module, _, function = reference.partition(":")
    try:
        maker = getattr(importlib.import_module(module), function)
    except ImportError as error:
        raise OptionError(f"bot {name!r} needs {needs}: {error}") from None
    bot: Bot = maker(name, game, seed)
    return bot
