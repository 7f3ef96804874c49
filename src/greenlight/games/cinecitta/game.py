"""The Cinecitta 1937 game: declarations only (the engine contract is answered by rules, view and words)."""

from __future__ import annotations

from greenlight.core.game import Game
from greenlight.games.cinecitta import positions, rules, view, words
from greenlight.games.cinecitta.actions import ACTION_TYPES
from greenlight.games.cinecitta.codes import LAYOUT
from greenlight.games.cinecitta.events import EVENT_TYPES
from greenlight.games.cinecitta.observation import CinecittaObservation
from greenlight.games.cinecitta.spec import SPEC
from greenlight.games.cinecitta.state import CinecittaState


class CinecittaGame(Game[CinecittaState]):
    """Cinecitta 1937 (3-5 players, simultaneous sealed offers)."""

    spec = SPEC
    action_types = ACTION_TYPES
    action_layout = LAYOUT
    bot_levels = {"heuristic": "greenlight.games.cinecitta.bots:HeuristicBot"}
    rules = rules
    view = view
    words = words
    positions = positions
    observation_type = CinecittaObservation
    event_types = EVENT_TYPES


GAME = CinecittaGame()
