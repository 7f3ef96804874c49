"""Research interfaces: PettingZoo AEC envs, a Gymnasium single-agent env, and OpenSpiel games.

These need the ``rl`` extra (``pettingzoo``, ``gymnasium``, ``open_spiel``);
importing ``greenlight.rl`` itself does not: each name below is imported from
its layer on first use (PEP 562). When Gymnasium is installed, importing
``greenlight.rl`` registers ``greenlight/<game>-v1`` for every installed game,
so ``gymnasium.make("greenlight/cinecitta-v1")`` works at once.

* :func:`pettingzoo_env` — every seat an agent (``cinecitta_v1``, ...), see :mod:`greenlight.rl.multi_agent`.
* :func:`pettingzoo_parallel_env` — the same agents, every committing seat at once, see :mod:`greenlight.rl.parallel`.
* :func:`gym_env` — one learning seat against bots, action mask in ``info``, see :mod:`greenlight.rl.single_agent`.
* :func:`register_openspiel_games`, :func:`openspiel_game` — ``greenlight_<id>`` OpenSpiel Python games,
  see :mod:`greenlight.rl.openspiel`.

Observations are each game's encoding of ``observe(state, seat)``
(``greenlight.games.<package>.encoding``), documented in ``docs/rl.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from greenlight.rl.multi_agent import pettingzoo_env
    from greenlight.rl.openspiel import openspiel_game, register_openspiel_games
    from greenlight.rl.parallel import pettingzoo_parallel_env
    from greenlight.rl.single_agent import gym_env

__all__ = ["gym_env", "openspiel_game", "pettingzoo_env", "pettingzoo_parallel_env", "register_openspiel_games"]

_LAYER = {
    "pettingzoo_env": "greenlight.rl.multi_agent",
    "pettingzoo_parallel_env": "greenlight.rl.parallel",
    "gym_env": "greenlight.rl.single_agent",
    "openspiel_game": "greenlight.rl.openspiel",
    "register_openspiel_games": "greenlight.rl.openspiel",
}


def _register_gym_ids() -> None:
    """Register the Gymnasium ids if Gymnasium is installed (the ids name games; nothing heavy is imported)."""
    try:
        import gymnasium  # noqa: F401  (only to know that it is installed)
    except ImportError:
        return
    from greenlight.rl.single_agent import register_gym_envs

    register_gym_envs()


_register_gym_ids()


def __getattr__(name: str) -> Any:
    """Import an interface from its layer when it is first used."""
    if name not in _LAYER:
        raise AttributeError(f"module 'greenlight.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAYER[name]), name)
