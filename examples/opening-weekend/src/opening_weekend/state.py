"""The state of a game of Opening Weekend: plain data; clone() comes from the ``copied`` declaration."""

from __future__ import annotations

from greenlight.core.spec import OptionValue
from greenlight.core.state import DICT, LIST, LISTS, GameState


class OpeningWeekendState(GameState):
    """Everything about one game, hidden parts included (views decide who sees what)."""

    __slots__ = ("calendar", "hands", "num_players", "options", "played", "releases", "round", "scores", "undealt", "won")
    # The slots' types: what clone() and Game.to_position / from_position read (docs/positions.md in Greenlight).
    num_players: int
    options: dict[str, OptionValue]
    #: Each seat's buzz cards still in hand (hidden from the others).
    hands: list[list[str]]
    #: Buzz cards nobody was dealt (hidden from everyone).
    undealt: list[str]
    #: Weekend cards in calendar order; the first ``round`` are revealed (the rest hidden).
    calendar: list[str]
    #: Rounds started (1-based); ``ROUNDS + 1`` once the game is over.
    round: int
    #: This round's sealed releases, one per seat (None until it commits; hidden from the others).
    releases: list[str | None]
    #: Buzz cards each seat has played in earlier rounds, in round order (public).
    played: list[list[str]]
    #: Weekend ids each seat has won (public).
    won: list[list[str]]
    #: Points so far (public).
    scores: list[int]
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
        self.hands = hands
        self.undealt = undealt
        self.calendar = calendar
        self.round = 1
        self.releases = [None] * num_players
        self.played = [[] for _ in range(num_players)]
        self.won = [[] for _ in range(num_players)]
        self.scores = [0] * num_players
