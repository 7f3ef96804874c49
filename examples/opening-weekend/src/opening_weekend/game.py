"""The Opening Weekend game: declarations only (the Greenlight contract is answered by rules, view and words)."""

from __future__ import annotations

from greenlight.core.actions import ActionLayout
from greenlight.core.game import Game
from opening_weekend import rules, view, words
from opening_weekend.actions import ACTION_TYPES, Release
from opening_weekend.cards import BUZZ
from opening_weekend.events import EVENT_TYPES
from opening_weekend.observation import OpeningWeekendObservation
from opening_weekend.spec import SPEC
from opening_weekend.state import OpeningWeekendState


class OpeningWeekendGame(Game[OpeningWeekendState]):
    """Opening Weekend (2-4 players, one sealed simultaneous release a round)."""

    spec = SPEC
    action_types = ACTION_TYPES
    #: One code per buzz card: its place among the twenty-four.
    action_layout = ActionLayout([(Release, len(BUZZ), lambda state, action: BUZZ.index(action.card))])
    bot_levels = {"heuristic": "opening_weekend.bots:HeuristicBot"}
    rules = rules
    view = view
    words = words
    observation_type = OpeningWeekendObservation
    event_types = EVENT_TYPES


GAME = OpeningWeekendGame()
