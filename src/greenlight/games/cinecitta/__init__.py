"""Cinecitta 1937: sealed offers of staff and money, a Studio for quality, an Office for box office."""

from greenlight.games.cinecitta.game import GAME, CinecittaGame

__all__ = ["GAME", "CinecittaGame"]
