"""Small helpers every game's view and encoding use: the observation header, relative seats, unit clipping.

>>> observation_header("demo", 1, 3, {"fast": True})
{'game': 'demo', 'viewer': 1, 'num_players': 3, 'options': {'fast': True}}
>>> [relative_seat(seat, viewer=2, num_players=4) for seat in range(4)]
[2, 3, 0, 1]
>>> clip01(1.7), clip01(-0.2), clip01(0.25)
(1.0, 0.0, 0.25)
"""

from __future__ import annotations

from collections.abc import Mapping

# typing_extensions for PEP 728 ``closed``: spreading a closed header into a game's observation literal lets mypy
# check the rest of the literal (an open TypedDict might carry any key, so mypy would refuse the spread).
from typing_extensions import TypedDict

from greenlight.core.spec import OptionValue


class ObservationHeader(TypedDict):
    """The keys every observation starts with; a game's observation type extends it."""

    game: str
    viewer: int | None
    num_players: int
    options: dict[str, OptionValue]


class HeaderItems(ObservationHeader, closed=True):
    """Exactly the header keys, to spread into a game's observation: ``{**observation_header(...), "round": 1, ...}``."""


def observation_header(game_id: str, viewer: int | None, num_players: int, options: Mapping[str, OptionValue]) -> HeaderItems:
    """The first four keys of every observation: the game, who is looking (None: a spectator), the seats, the options."""
    return {"game": game_id, "viewer": viewer, "num_players": num_players, "options": dict(options)}


def relative_seat(seat: int, viewer: int | None, num_players: int) -> int:
    """Where ``seat`` sits counted from ``viewer`` (0: the viewer; a spectator counts from seat 0)."""
    return (seat - (viewer if viewer is not None else 0)) % num_players


def clip01(value: float) -> float:
    """``value`` limited to ``[0, 1]`` (encodings divide by a stated scale and clip the rest)."""
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
