"""The game-agnostic engine contract. No I/O beyond reading data files, no game names."""

from greenlight.core.actions import Action, ActionCodec
from greenlight.core.bot import Bot, RandomBot, SeatView
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.errors import (
    ActionParseError,
    DataError,
    GreenlightError,
    IllegalActionError,
    OptionError,
    RecordError,
)
from greenlight.core.events import Event, events_for
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome, competition_ranks, outcome_from_keys
from greenlight.core.spec import GameSpec, Options, OptionSpec, OptionValue
from greenlight.core.state import GameState, state_digest

__all__ = [
    "GAME_OVER",
    "Action",
    "ActionCodec",
    "ActionParseError",
    "Bot",
    "DataError",
    "Decision",
    "Event",
    "Game",
    "GameSpec",
    "GameState",
    "GreenlightError",
    "IllegalActionError",
    "Observation",
    "OptionError",
    "OptionSpec",
    "OptionValue",
    "Options",
    "Outcome",
    "RandomBot",
    "RecordError",
    "SeatView",
    "competition_ranks",
    "events_for",
    "outcome_from_keys",
    "state_digest",
]
