"""Maybe Movies: pitch movies from a market, vote on them with secret YES/NO cards, score the icons of the movies made."""

from greenlight.games.maybe_movies.game import GAME, MaybeMoviesGame

__all__ = ["GAME", "MaybeMoviesGame"]
