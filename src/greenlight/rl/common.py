"""Pieces the PettingZoo, Gymnasium and OpenSpiel layers share: game lookup, env ids, masks, shaping, text.

Nothing here imports PettingZoo or OpenSpiel; numpy and Gymnasium's spaces are
the only third-party dependencies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from greenlight.core.game import Game, Observation
from greenlight.core.registry import all_games, get_game
from greenlight.rl.encoding import ObservationEncoding

#: Version of the environment interface; bump it when observations, actions or rewards change meaning.
ENV_VERSION = 0

Shaping = bool | Mapping[str, float]


def env_id(game: Game[Any]) -> str:
    """The versioned environment id of ``game``.

    >>> env_id(get_game("cinecitta"))
    'cinecitta_v0'
    """
    return f"{game.spec.id.replace('-', '_')}_v{ENV_VERSION}"


def resolve_game(game: Game[Any] | str) -> Game[Any]:
    """A game object from a game, a game id or alias, or a versioned env id such as ``cinecitta_v0``.

    >>> resolve_game("cinecitta_v0").spec.id
    'cinecitta'
    """
    if isinstance(game, Game):
        return game
    for candidate in all_games().values():
        if game == env_id(candidate):
            return candidate
    return get_game(game)


def action_mask(game: Game[Any], state: Any, seat: int) -> npt.NDArray[np.int8]:
    """1 at every legal action code of ``seat`` now, 0 elsewhere (all 0 when the seat does not owe an action)."""
    mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
    codes = game.legal_action_codes(state, seat)
    if codes:
        mask[codes] = 1
    return mask


def agent_observation_space(encoding: ObservationEncoding, game: Game[Any], num_players: int, options: Mapping[str, Any]) -> spaces.Dict:
    """``Dict(observation=Box(float32, [0, 1]), action_mask=Box(int8, {0, 1}))``, the space every agent observes."""

    size = encoding.size(num_players, options)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions,), dtype=np.int8),
        }
    )


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
