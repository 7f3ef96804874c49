"""Pieces the PettingZoo, Gymnasium and OpenSpiel layers share: game lookup, env ids, shaping, text.

Nothing here imports PettingZoo, OpenSpiel or NumPy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from greenlight.core.game import Game, Observation
from greenlight.core.registry import all_games, get_game
from greenlight.rl.encoding import ObservationEncoding

#: Version of the environment interface; bump it when observations, actions or rewards change meaning.
ENV_VERSION = 1

Shaping = bool | Mapping[str, float]


def env_id(game: Game[Any]) -> str:
    """The versioned environment id of ``game``.

    >>> env_id(get_game("cinecitta"))
    'cinecitta_v1'
    """
    return f"{game.spec.id.replace('-', '_')}_v{ENV_VERSION}"


def resolve_game(game: Game[Any] | str) -> Game[Any]:
    """A game object from a game, a game id or alias, or a versioned env id such as ``cinecitta_v1``.

    >>> resolve_game("cinecitta_v1").spec.id
    'cinecitta'
    >>> resolve_game("cinecitta_v0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cinecitta_v0 is an earlier version of this interface (...); this release has cinecitta_v1
    """
    if isinstance(game, Game):
        return game
    for candidate in all_games().values():
        current = env_id(candidate)
        if game == current:
            return candidate
        if game.startswith(current.rsplit("_v", 1)[0] + "_v") and game[len(current.rsplit("_v", 1)[0]) + 2 :].isdigit():
            raise ValueError(
                f"{game} is an earlier version of this interface (actions, observations or rewards meant something else); "
                f"this release has {current}"
            )
    return get_game(game)


def shaping_weights(encoding: ObservationEncoding, shaping: Shaping) -> dict[str, float]:
    """Weights per scoring category: none when ``shaping`` is False, the game's defaults when True.

    An explicit mapping must name categories the game's ``potentials`` reports.
    """
    if shaping is False:
        return {}
    if shaping is True:
        return dict(encoding.shaping_weights)
    unknown = set(shaping) - set(encoding.shaping_weights)
    if unknown:
        known = ", ".join(sorted(encoding.shaping_weights))
        raise ValueError(f"unknown shaping categories {sorted(unknown)}; this game has {known}")
    return {name: float(weight) for name, weight in shaping.items()}


def potential(encoding: ObservationEncoding, weights: Mapping[str, float], observation: Observation) -> float:
    """Weighted sum of the viewer's provisional category values (the shaping potential)."""
    if not weights:
        return 0.0
    values = encoding.potentials(observation)
    return float(sum(weight * values[name] for name, weight in weights.items()))


def plain_text(game: Game[Any], observation: Observation) -> str:
    """The game's terminal rendering with rich markup removed."""
    from rich.errors import MarkupError
    from rich.text import Text

    text = game.render_text(observation)
    try:
        return Text.from_markup(text).plain
    except MarkupError:
        return text
