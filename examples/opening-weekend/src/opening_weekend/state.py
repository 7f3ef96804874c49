"""The state of a game of Opening Weekend: plain data; clone() comes from the ``copied`` declaration."""

from __future__ import annotations

from greenlight.core.spec import OptionValue
from greenlight.core.state import DICT, LIST, LISTS, GameState


class OpeningWeekendState(GameState):
    """Everything about one game, hidden parts included (views decide who sees what)."""

    __slots__ = ("calendar", "hands", "num_players", "options", "played", "releases", "round", "scores", "undealt", "won")
    #: What clone() copies (every other slot holds immutable values and is shared).
    copied = {
        "options": DICT,
        "hands": LISTS,
        "undealt": LIST,
        "calendar": LIST,
        "releases": LIST,
        "played": LISTS,
        "won": LISTS,
        "scores": LIST,
    }

    def __init__(
        self,
        num_players: int,
        options: dict[str, OptionValue],
        hands: list[list[str]],
        undealt: list[str],
        calendar: list[str],
    ) -> None:
        self.num_players = num_players
        self.options = options
        #: Each seat's buzz cards still in hand (hidden from the others).
        self.hands = hands
        #: Buzz cards nobody was dealt (hidden from everyone).
        self.undealt = undealt
        #: Weekend cards in calendar order; the first ``round`` are revealed (the rest hidden).
        self.calendar = calendar
        #: Rounds started (1-based); ``ROUNDS + 1`` once the game is over.
        self.round = 1
        #: This round's sealed releases, one per seat (None until it commits; hidden from the others).
        self.releases: list[str | None] = [None] * num_players
        #: Buzz cards each seat has played in earlier rounds, in round order (public).
        self.played: list[list[str]] = [[] for _ in range(num_players)]
        #: Weekend ids each seat has won (public).
        self.won: list[list[str]] = [[] for _ in range(num_players)]
        #: Points so far (public).
        self.scores = [0] * num_players
