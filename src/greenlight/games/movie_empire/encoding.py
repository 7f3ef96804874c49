"""Movie Empire observation encoding for RL: ``observe(state, seat)`` as a fixed-size vector.

Built from the observation only (never the state). Seats are **relative to
the viewer** (slot 0 is the viewer, slot k the seat k places to its left).
This first version encodes the public board and every player's public
figures (money, points, sympathy, lines, hand sizes by kind), the board
spaces with their occupants, and the viewer's own counts; it does not yet
encode card identities (hand, production lines' cards beyond their colour
counts, scripts and stars). Every value is in ``[0, 1]``; counts are divided
by a stated scale and clipped at 1. ``docs/rl.md`` documents each field.

>>> from greenlight.games.movie_empire import GAME
>>> state = GAME.new_state(3, seed=2)
>>> vector = ENCODING.encode(GAME.observe(state, 1))
>>> len(vector) == ENCODING.size(3, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from greenlight.core.game import Observation
from greenlight.core.spec import OptionValue

PLAYER_COUNTS = (2, 3, 4)
PHASES = ("setup", "grumpy", "gift", "working", "premiere", "internet", "upkeep", "over")
TASKS = (
    "production",
    "script",
    "star",
    "credit",
    "overtime",
    "sabotage",
    "denounce",
    "nice",
    "nice_dossier",
    "reveal",
    "first_player",
    "release",
)
CARD_KINDS = ("production", "star", "script")
STAGES = ("G", "B", "Y", "R")
#: Board spaces in use (22 at 4 players with the bundled board); extra spaces are ignored.
MAX_SPACES = 24
MAX_LINES = 3
#: One production line: present, cards per stage colour / 5 (4), stars / 3, shut, locked, script met, period / 3.
LINE_FEATURES = 1 + len(STAGES) + 5
#: Public figures of one player (see ``_player``).
PLAYER_FEATURES = 19 + MAX_LINES * LINE_FEATURES
MAX_ROUNDS = 12


def _clip(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


class MovieEmpireEncoding:
    """Encoder of Movie Empire observations (see the module docstring and ``docs/rl.md``)."""

    #: Weights for potential-based shaping: points and money of the viewer.
    shaping_weights: Mapping[str, float] = {"points": 0.01, "money": 0.005}

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """``(name, length)`` of each slice, in order (``n`` = number of players)."""
        n = num_players
        return [
            ("num_players", len(PLAYER_COUNTS)),
            ("options", 2),
            ("round", 2),
            ("phase", len(PHASES)),
            ("spectator", 1),
            ("first_player", n),
            ("to_act", n),
            ("committed", n),
            ("turn_seat", n),
            ("plan", 2),
            ("trends", 3),
            ("spaces", MAX_SPACES * (len(TASKS) + n + 5)),
            ("piles", 2 * len(CARD_KINDS)),
            ("players", n * PLAYER_FEATURES),
            ("premieres", 1),
            ("own", 4),
            ("final", n * 2),
        ]

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector for ``num_players``."""
        return sum(length for _, length in self.fields(num_players, options))

    def encode(self, observation: Observation) -> list[float]:
        """The vector for one observation (spectator observations leave the private fields at 0)."""
        obs = observation
        n: int = obs["num_players"]
        viewer: int | None = obs["viewer"]
        me = viewer if viewer is not None else 0

        def rel(seat: int) -> int:
            return (seat - me) % n

        def seats(values: list[int]) -> list[float]:
            flags = [0.0] * n
            for seat in values:
                flags[rel(seat)] = 1.0
            return flags

        options = obs["options"]
        out: list[float] = [1.0 if n == count else 0.0 for count in PLAYER_COUNTS]
        out += [float(bool(options.get("shoot_a_short"))), float(bool(options.get("clean_hands")))]
        out += [_clip(obs["round"] / MAX_ROUNDS), _clip(obs["last_round"] / MAX_ROUNDS)]
        out += [1.0 if obs["phase"] == phase else 0.0 for phase in PHASES]
        out.append(1.0 if viewer is None else 0.0)
        out += seats([obs["first_player"]])
        out += seats(obs["decision"]["players"])
        out += seats(obs["decision"]["committed"])
        turn = obs.get("turn")
        out += seats([turn["seat"]] if turn and turn.get("seat") is not None else [])
        plan = obs["plan"]
        out += [_clip(len(plan["revealed"]) / MAX_ROUNDS), _clip(plan["pile"] / MAX_ROUNDS)]
        trends = obs["trends"]
        out += [1.0 if trends["hit"] else 0.0, _clip(trends["pile"] / MAX_ROUNDS), _clip(trends["removed"] / MAX_ROUNDS)]
        out += _spaces(obs["spaces"], n, rel)
        out += [_clip(obs["piles"][kind] / 60.0) for kind in CARD_KINDS]
        out += [_clip(len(obs["discards"][kind]) / 60.0) for kind in CARD_KINDS]
        players = [0.0] * (n * PLAYER_FEATURES)
        for player in obs["players"]:
            base = rel(player["seat"]) * PLAYER_FEATURES
            players[base : base + PLAYER_FEATURES] = _player(player)
        out += players
        out.append(_clip(len(obs["premieres"]) / MAX_ROUNDS))
        if viewer is None:
            out += [0.0] * 4
        else:
            commitment = obs.get("my_commitment")
            out += [
                _clip(len(obs.get("drawn") or ()) / 5.0),
                _clip(len(obs.get("dealt") or ()) / 5.0),
                1.0 if commitment is not None else 0.0,
                _clip(len(obs.get("gifted") or ()) / 5.0),
            ]
        out += _final(obs.get("final"), n, rel)
        return out

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's points and money (public figures of its own seat)."""
        viewer = observation["viewer"]
        if viewer is None:
            return {"points": 0.0, "money": 0.0}
        player = observation["players"][viewer]
        return {"points": float(player["pp"]), "money": float(player["money"])}


def _spaces(spaces: list[dict[str, Any]], n: int, rel: Any) -> list[float]:
    """Per space in use: task one-hot, occupant (relative seat), blocked, money on it, price / 6, a card on it, present."""
    width = len(TASKS) + n + 5
    out = [0.0] * (MAX_SPACES * width)
    for index, space in enumerate(spaces[:MAX_SPACES]):
        base = index * width
        if space["task"] in TASKS:
            out[base + TASKS.index(space["task"])] = 1.0
        if space["assistant"] is not None:
            out[base + len(TASKS) + rel(space["assistant"])] = 1.0
        tail = base + len(TASKS) + n
        out[tail] = 1.0 if space["blocked_by"] is not None else 0.0
        out[tail + 1] = _clip((space.get("money") or 0) / 10.0 + 0.5)
        out[tail + 2] = _clip((space.get("price") or 0) / 6.0)
        out[tail + 3] = 1.0 if space.get("card") is not None else 0.0
        out[tail + 4] = 1.0
    return out


def _player(player: dict[str, Any]) -> list[float]:
    """Public figures of one player, then its production lines."""
    counts = player["hand_counts"]
    out = [
        _clip(player["money"] / 20.0),
        _clip(player["pp"] / 30.0),
        _clip((player["sympathy"] + 5) / 10.0),
        _clip(player["budget"] / 10.0),
        _clip(player["lines_allowed"] / MAX_LINES),
        _clip(player["hand_size"] / 10.0),
        *(_clip(counts.get(kind, 0) / 5.0) for kind in CARD_KINDS),
        _clip(len(player["known_cards"]) / 5.0),
        _clip(player["assistants_placed"] / 5.0),
        1.0 if player["passed"] else 0.0,
        1.0 if player["dossier_usable"] else 0.0,
        _clip(player["dossiers_spent"] / 3.0),
        1.0 if player["exempt"] else 0.0,
        _clip(player["statues"] / 5.0),
        _clip(len(player["released"]) / 5.0),
        _clip(player["drawn_count"] / 5.0),
        _clip(player["dealt_count"] / 5.0),
    ]
    for slot in range(MAX_LINES):
        line = player["lines"][slot] if slot < len(player["lines"]) else None
        if line is None:
            out += [0.0] * LINE_FEATURES
            continue
        out += [1.0, *(_clip(line["counts"].get(stage, 0) / 5.0) for stage in STAGES)]
        out += [
            _clip(len(line["stars"]) / 3.0),
            1.0 if line["shut"] else 0.0,
            1.0 if line["locked"] else 0.0,
            1.0 if line["script_met"] else 0.0,
            _clip((line["period"] or 0) / 3.0),
        ]
    return out


def _final(final: dict[str, Any] | None, n: int, rel: Any) -> list[float]:
    """Per seat once the game is over: winner, (final score + 20) / 60."""
    out = [0.0] * (n * 2)
    if final is None:
        return out
    for seat, score in enumerate(final["scores"]):
        base = rel(seat) * 2
        out[base] = 1.0 if seat in final["winners"] else 0.0
        out[base + 1] = _clip((score + 20.0) / 60.0)
    return out


ENCODING = MovieEmpireEncoding()
