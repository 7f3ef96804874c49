"""Movie Empire (rules: ``shared/rules/movie_empire.md``): worker placement, production lines, premieres."""

from greenlight.games.movie_empire.game import GAME

__all__ = ["GAME"]
