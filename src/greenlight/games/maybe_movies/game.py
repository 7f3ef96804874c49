"""The Maybe Movies game: declarations only (the engine contract is answered by rules, view and describe)."""

from __future__ import annotations

from greenlight.core.game import Game
from greenlight.games.maybe_movies import describe, positions, rules, view
from greenlight.games.maybe_movies.actions import ACTION_TYPES
from greenlight.games.maybe_movies.codes import LAYOUT
from greenlight.games.maybe_movies.events import EVENT_TYPES
from greenlight.games.maybe_movies.observation import MaybeMoviesObservation
from greenlight.games.maybe_movies.spec import SPEC
from greenlight.games.maybe_movies.state import MaybeMoviesState


class MaybeMoviesGame(Game[MaybeMoviesState]):
    """Maybe Movies (3-6 players, pitches and secret simultaneous votes), with its three expansions."""

    spec = SPEC
    action_types = ACTION_TYPES
    action_layout = LAYOUT
    bot_levels = {"heuristic": "greenlight.games.maybe_movies.bots:HeuristicBot"}
    rules = rules
    view = view
    words = describe
    positions = positions
    observation_type = MaybeMoviesObservation
    event_types = EVENT_TYPES


GAME = MaybeMoviesGame()
