"""Shared helpers for the RL tests: which games and player counts to cover."""

from __future__ import annotations

from typing import Any

from greenlight.core.game import Game
from greenlight.core.registry import all_games
from greenlight.rl.encoding import has_encoding


def encoded_games() -> list[Game[Any]]:
    """Every registered game that ships an encoder (all of them once each game's encoding lands)."""
    return [game for game in all_games().values() if has_encoding(game)]


def game_counts() -> list[tuple[str, int]]:
    """(game id, player count) for every encoded game and every allowed count."""
    return [(game.spec.id, n) for game in encoded_games() for n in game.spec.player_counts]
