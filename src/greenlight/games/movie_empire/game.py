"""The Movie Empire game: declarations only (the engine contract is answered by rules, view and words)."""

from __future__ import annotations

from greenlight.core.game import Game
from greenlight.games.movie_empire import positions, rules, view, words
from greenlight.games.movie_empire.actions import ACTION_TYPES
from greenlight.games.movie_empire.codes import LAYOUT
from greenlight.games.movie_empire.events import EVENT_TYPES
from greenlight.games.movie_empire.observation import MovieEmpireObservation
from greenlight.games.movie_empire.spec import SPEC
from greenlight.games.movie_empire.state import MovieEmpireState


class MovieEmpireGame(Game[MovieEmpireState]):
    """Movie Empire (2-4 players, worker placement and production lines)."""

    spec = SPEC
    action_types = ACTION_TYPES
    action_layout = LAYOUT
    bot_levels = {"heuristic": "greenlight.games.movie_empire.bots:HeuristicBot"}
    rules = rules
    view = view
    words = words
    positions = positions
    observation_type = MovieEmpireObservation
    event_types = EVENT_TYPES


GAME = MovieEmpireGame()
