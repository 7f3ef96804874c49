"""Research interfaces: PettingZoo AEC envs, a Gymnasium single-agent env, and OpenSpiel games.

These need the ``rl`` extra (``pettingzoo``, ``gymnasium``, ``open_spiel``);
importing ``greenlight.rl`` itself does not, so the functions below import
their layer only when called.

* :func:`pettingzoo_env` — every seat an agent (``cinecitta_v0``, ...).
* :func:`gym_env` — one learning seat against bots, action mask in ``info``.
* :func:`register_openspiel_games` — ``greenlight_<id>`` OpenSpiel Python games.

Observations are each game's encoding of ``observe(state, seat)``
(``greenlight.games.<package>.encoding``), documented in ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from greenlight.core.game import Game
from greenlight.core.spec import Options

if TYPE_CHECKING:
    from greenlight.rl.common import Shaping
    from greenlight.rl.multi_agent import GreenlightAECEnv
    from greenlight.rl.single_agent import GreenlightGymEnv, Opponent

__all__ = ["gym_env", "openspiel_game", "pettingzoo_env", "register_openspiel_games"]


def pettingzoo_env(
    game: Game[Any] | str,
    num_players: int,
    options: Options | None = None,
    seed: int | None = None,
    *,
    render_mode: str | None = None,
    shaping: Shaping = False,
) -> GreenlightAECEnv:
    """The PettingZoo AEC env of ``game`` (see :mod:`greenlight.rl.multi_agent`)."""
    from greenlight.rl.multi_agent import pettingzoo_env as make

    return make(game, num_players, options, seed, render_mode=render_mode, shaping=shaping)


def gym_env(
    game: Game[Any] | str,
    seat: int = 0,
    opponents: Sequence[Opponent] = ("random", "random"),
    options: Options | None = None,
    *,
    render_mode: str | None = None,
    shaping: Shaping = False,
    illegal_action: str = "lose",
) -> GreenlightGymEnv:
    """A Gymnasium env for one seat against bots (see :mod:`greenlight.rl.single_agent`)."""
    from greenlight.rl.single_agent import gym_env as make

    return make(game, seat, opponents, options, render_mode=render_mode, shaping=shaping, illegal_action=illegal_action)


def register_openspiel_games() -> list[str]:
    """Register every game with OpenSpiel as ``greenlight_<id>`` (see :mod:`greenlight.rl.openspiel`)."""
    from greenlight.rl.openspiel import register_openspiel_games as register

    return register()


def openspiel_game(game: Game[Any] | str, num_players: int, options: Options | None = None, seed: int = 0, deals: int | None = None) -> Any:
    """The loaded OpenSpiel game (``pyspiel.Game``) of ``game`` at ``num_players``."""
    from greenlight.rl.openspiel import DEFAULT_DEALS
    from greenlight.rl.openspiel import openspiel_game as load

    return load(game, num_players, dict(options or {}), seed, DEFAULT_DEALS if deals is None else deals)
