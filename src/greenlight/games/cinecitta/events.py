"""The data of every Cinecitta event, by kind (``EVENT_TYPES``), as ``rules`` makes it and ``words`` reads it."""

from __future__ import annotations

from typing import TypedDict


class Committed(TypedDict):
    """A seat has made its secret choice of this step."""

    seat: int
    step: str


class FolderPassed(TypedDict):
    """A folder went from its sender to its recipient (seen by the two of them)."""

    sender: int
    recipient: int
    card: str
    amount: int


class FolderReturned(FolderPassed):
    """The recipient's answer to a folder: secured or headhunted (seen by the two of them)."""

    response: str


class Placed(TypedDict):
    """A card was placed, moving ``moved_out`` to the Office if any."""

    seat: int
    card: str
    moved_out: str | None


class RoundStarted(TypedDict):
    """A round began; folders go ``offset`` seats to the left."""

    round: int
    offset: int


class GameOver(TypedDict):
    """The game ended."""

    scores: list[float]
    winners: list[int]
    wallets: list[int]


EVENT_TYPES: dict[str, type] = {
    "committed": Committed,
    "folder_passed": FolderPassed,
    "folder_returned": FolderReturned,
    "placed": Placed,
    "round_started": RoundStarted,
    "game_over": GameOver,
}
