"""Maybe Movies observation encoding for RL: ``observe(state, seat)`` as a fixed-size vector.

Built from the observation only (never the state). The catalogue is generated
from the game seed, so a card id means a different card in every game: cards
are encoded by their **printed features** (type, icon, value; cost icons,
profit; a blockbuster's cost and profit keys with X and N), read from the
observation's own ``cards`` table, never by id. Seats
are **relative to the viewer** (slot 0 is the viewer, slot k the seat k places
to its left). Every value is in ``[0, 1]``; counts are divided by a stated
scale and clipped at 1. ``docs/rl.md`` documents each field.

>>> from greenlight.games.maybe_movies import GAME
>>> state = GAME.new_state(4, seed=2)
>>> vector = ENCODING.encode(GAME.observe(state, 3))
>>> len(vector) == ENCODING.size(4, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import cast

from greenlight.core.game import Observation
from greenlight.core.spec import OptionValue
from greenlight.core.views import clip01, relative_seat
from greenlight.games.maybe_movies.cards import COST_KEYS, ICONS, PROFIT_KEYS
from greenlight.games.maybe_movies.observation import (
    BlockbusterDetails,
    CardDetails,
    ChangeDetails,
    Final,
    MaybeMoviesObservation,
    MovieDetails,
    StackView,
    VoteDetails,
)

PHASES = ("pitch", "vote", "change_edit", "cost_choice", "profit_choice", "movie_pick", "over")
PLAYER_COUNTS = (3, 4, 5, 6)
VOTE_TYPES = ("YES", "NO")
MAX_VALUE = 4
MARKET_SLOTS = 6
#: A row holds at most 6 + 2N = 18 cards.
ROW_SLOTS = 18
#: Personal movie cards per seat (Breaking Changes).
PERSONAL_SLOTS = 2
#: One movie card: present, cost icons (6, each count / 3), profit / 5, costs double, pays double (Trendsetter),
#: blockbuster (text) card, its cost key one-hot, its X icon one-hot, its N / 3, its profit key one-hot.
MOVIE_FEATURES = 1 + len(ICONS) + 4 + len(COST_KEYS) + len(ICONS) + 1 + len(PROFIT_KEYS)
#: Reveal rounds in one turn (the first vote and each CHANGE re-vote) are divided by this.
REVEAL_SCALE = 8.0
#: One vote card: YES, NO, CHANGE, icon one-hot (6), value / 4.
VOTE_FEATURES = 3 + len(ICONS) + 1
#: Reveal outcomes per seat: YES, NO, CHANGE, no vote.
REVEAL_KINDS = 4
MAX_TURNS = 12
SCORE_SCALE = 40.0


class MaybeMoviesEncoding:
    """Encoder of Maybe Movies observations (see the module docstring and ``docs/rl.md``)."""

    #: Weight per point of the viewer's current public score, for potential-based shaping.
    shaping_weights: Mapping[str, float] = {"score": 0.01}

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """``(name, length)`` of each slice, in order (``n`` = number of players)."""
        n = num_players
        return [
            ("num_players", len(PLAYER_COUNTS)),
            ("options", 3),
            ("turn", 1),
            ("phase", len(PHASES)),
            ("spectator", 1),
            ("active", n),
            ("to_act", n),
            ("committed", n),
            ("hand_sizes", n),
            ("hand", len(VOTE_TYPES) * len(ICONS) * MAX_VALUE + 1),
            ("my_vote", VOTE_FEATURES),
            ("known_in_hand", n * len(VOTE_TYPES) * len(ICONS)),
            ("market", MARKET_SLOTS * MOVIE_FEATURES),
            ("row", ROW_SLOTS * MOVIE_FEATURES),
            ("pitch", len(ICONS) + 2),
            ("movies_made", 2 + len(ICONS)),
            ("won", n * len(ICONS)),
            ("scores", n),
            ("personal", n * PERSONAL_SLOTS * MOVIE_FEATURES),
            ("piles", 3),
            ("pool", len(VOTE_TYPES) * len(ICONS) + 1),
            ("reveals", 1 + n * REVEAL_KINDS),
            ("edits", 3),
            ("final", n * 2),
        ]

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector for ``num_players``."""
        return sum(length for _, length in self.fields(num_players, options))

    def encode(self, observation: Observation) -> list[float]:
        """The vector for one observation (spectator observations leave the private fields at 0)."""
        obs = cast(MaybeMoviesObservation, observation)
        n = obs["num_players"]
        cards = obs["cards"]
        viewer = obs["viewer"]

        def rel(seat: int) -> int:
            return relative_seat(seat, viewer, n)

        def seats(values: list[int]) -> list[float]:
            flags = [0.0] * n
            for seat in values:
                flags[rel(seat)] = 1.0
            return flags

        options = obs["options"]
        out: list[float] = [1.0 if n == count else 0.0 for count in PLAYER_COUNTS]
        out += [float(bool(options.get(name))) for name in ("trendsetter_tricks", "breaking_changes", "blockbuster_budgets")]
        out.append(clip01(obs["turn"] / MAX_TURNS))
        out += [1.0 if obs["phase"] == phase else 0.0 for phase in PHASES]
        out.append(1.0 if viewer is None else 0.0)
        out += seats([obs["active"]] if obs["phase"] != "over" else [])
        out += seats(obs["decision"]["players"])
        out += seats(obs["committed"])
        out += _per_seat([clip01(size / MAX_TURNS) for size in obs["hand_sizes"]], n, rel)
        out += _hand(cards, obs.get("hand") or ())
        vote = obs.get("my_vote")
        out += _vote_features(_hand_card(cards, vote)) if vote else [0.0] * VOTE_FEATURES
        known = [0.0] * (n * len(VOTE_TYPES) * len(ICONS))
        for seat, held in enumerate(obs["known_in_hand"]):
            _count_votes(known, rel(seat) * len(VOTE_TYPES) * len(ICONS), cards, held, scale=4.0)
        out += known
        doubles = _doubling_icons(cards, obs["movies_made"]) if options.get("trendsetter_tricks") else (set(), set())
        out += _movie_slots(cards, obs["market"], MARKET_SLOTS, doubles)
        out += _movie_slots(cards, obs["row"], ROW_SLOTS, doubles)
        pitch = obs["pitch"]
        out += [clip01(pitch["budget"][icon] / 10.0) for icon in ICONS]
        out += [clip01(pitch["profit"] / 30.0), clip01(len(pitch["open_texts"]) / ROW_SLOTS)]
        made = obs["movies_made"]
        out += [clip01(len(made) / MAX_TURNS), clip01(sum(1 for stack in made if stack["result"] == "SUCCESS") / MAX_TURNS)]
        out += [clip01(obs["movies_made_icons"][icon] / 10.0) for icon in ICONS]
        won = [0.0] * (n * len(ICONS))
        for seat, held in enumerate(obs["won"]):
            for card in held:
                slot = rel(seat) * len(ICONS) + ICONS.index(_vote_card(cards, card)["icon"])
                won[slot] = clip01(won[slot] + 1.0 / 6.0)
        out += won
        out += _per_seat([clip01(score / SCORE_SCALE) for score in obs["scores"]], n, rel)
        personal = [0.0] * (n * PERSONAL_SLOTS * MOVIE_FEATURES)
        for seat, held in enumerate(obs["personal"]):
            base = rel(seat) * PERSONAL_SLOTS * MOVIE_FEATURES
            personal[base : base + PERSONAL_SLOTS * MOVIE_FEATURES] = _movie_slots(cards, held, PERSONAL_SLOTS, doubles)
        out += personal
        out += [clip01(obs["draw_pile_size"] / 60.0), clip01(len(obs["discard"]) / 60.0), clip01(len(obs["out_of_play"]) / 12.0)]
        pool = [0.0] * (len(VOTE_TYPES) * len(ICONS))
        _count_votes(pool, 0, cards, obs["pool"], scale=10.0)
        out += [*pool, clip01(len(obs["pool"]) / 60.0)]
        out += _reveals(cards, obs["reveals"], n, rel)
        out += [clip01(obs["K"] / MAX_TURNS), 1.0 if obs["edit"] is not None else 0.0, 1.0 if obs["choice"] is not None else 0.0]
        out += _final(obs.get("final"), n, rel)
        return out

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's current public score (its won vote cards scored against the Movies Made icons)."""
        obs = cast(MaybeMoviesObservation, observation)
        viewer = obs["viewer"]
        return {"score": float(obs["scores"][viewer]) if viewer is not None else 0.0}


def _hand_card(cards: dict[str, CardDetails], card_id: str) -> VoteDetails | ChangeDetails:
    """The details of a card that is held in hand (a vote or CHANGE card)."""
    card = cards[card_id]
    assert "type" in card, f"{card_id} is a vote or CHANGE card"
    return card


def _vote_card(cards: dict[str, CardDetails], card_id: str) -> VoteDetails:
    """The details of a YES or NO vote card."""
    card = _hand_card(cards, card_id)
    assert card["type"] != "CHANGE", f"{card_id} is a vote card"
    return card


def _movie_card(cards: dict[str, CardDetails], card_id: str) -> MovieDetails | BlockbusterDetails:
    """The details of a card that goes into pitches (a movie or blockbuster card)."""
    card = cards[card_id]
    assert "type" not in card, f"{card_id} is a movie or blockbuster card"
    return card


def _per_seat(values: list[float], n: int, rel: Callable[[int], int]) -> list[float]:
    ordered = [0.0] * n
    for seat, value in enumerate(values):
        ordered[rel(seat)] = value
    return ordered


def _hand(cards: dict[str, CardDetails], hand: Iterable[str]) -> list[float]:
    """Counts / 4 of (YES|NO, icon, value) in hand, then CHANGE cards / 2."""
    out = [0.0] * (len(VOTE_TYPES) * len(ICONS) * MAX_VALUE + 1)
    for card_id in hand:
        card = _hand_card(cards, card_id)
        if card["type"] == "CHANGE":
            out[-1] = clip01(out[-1] + 0.5)
            continue
        slot = (VOTE_TYPES.index(card["type"]) * len(ICONS) + ICONS.index(card["icon"])) * MAX_VALUE + min(card["value"], MAX_VALUE) - 1
        out[slot] = clip01(out[slot] + 0.25)
    return out


def _vote_features(card: VoteDetails | ChangeDetails) -> list[float]:
    kind = card["type"]
    icon, value = (None, 0) if card["type"] == "CHANGE" else (card["icon"], card["value"])
    return [
        1.0 if kind == "YES" else 0.0,
        1.0 if kind == "NO" else 0.0,
        1.0 if kind == "CHANGE" else 0.0,
        *(1.0 if icon == name else 0.0 for name in ICONS),
        clip01(value / MAX_VALUE),
    ]


def _count_votes(out: list[float], base: int, cards: dict[str, CardDetails], held: Iterable[str], scale: float) -> None:
    """Add counts / ``scale`` of (YES|NO, icon) for the vote cards in ``held`` (CHANGE cards are skipped)."""
    for card_id in held:
        card = _hand_card(cards, card_id)
        if card["type"] != "CHANGE":
            slot = base + VOTE_TYPES.index(card["type"]) * len(ICONS) + ICONS.index(card["icon"])
            out[slot] = clip01(out[slot] + 1.0 / scale)


def _printed_icons(card: MovieDetails | BlockbusterDetails) -> list[str]:
    """PI(c): the cost icons of an icon card; X (or nothing) for a blockbuster (R37)."""
    if "cost" in card:
        return list(card["cost"])
    return [card["x"]] if card["x"] else []


def _doubling_icons(cards: dict[str, CardDetails], made: list[StackView]) -> tuple[set[str], set[str]]:
    """Trendsetter (R22): printed icons of the failed and of the successful Movies Made tops."""
    failed: set[str] = set()
    succeeded: set[str] = set()
    for stack in made:
        (succeeded if stack["result"] == "SUCCESS" else failed).update(_printed_icons(_movie_card(cards, stack["top"])))
    return failed, succeeded


def _movie_slots(cards: dict[str, CardDetails], slots: list[str], size: int, doubles: tuple[set[str], set[str]]) -> list[float]:
    """Per slot: present, cost icon counts / 3, profit / 5, costs double, pays double, blockbuster, cost key,
    X icon, N / 3, profit key (see ``MOVIE_FEATURES``)."""
    out = [0.0] * (size * MOVIE_FEATURES)
    failed, succeeded = doubles
    for index, card_id in enumerate(slots[:size]):
        card = _movie_card(cards, card_id)
        base = index * MOVIE_FEATURES
        out[base] = 1.0
        icons = set(_printed_icons(card))
        tail = base + 1 + len(ICONS)
        if "cost" in card:
            for icon in card["cost"]:
                slot = base + 1 + ICONS.index(icon)
                out[slot] = clip01(out[slot] + 1.0 / 3.0)
            out[tail] = clip01(card["profit"] / 5.0)
        out[tail + 1] = 1.0 if icons & failed else 0.0
        out[tail + 2] = 1.0 if icons & succeeded else 0.0
        if "cost" in card:
            continue
        out[tail + 3] = 1.0
        text = tail + 4
        if card["cost_key"] in COST_KEYS:
            out[text + COST_KEYS.index(card["cost_key"])] = 1.0
        text += len(COST_KEYS)
        x = card["x"]
        if x in ICONS:
            out[text + ICONS.index(x)] = 1.0
        text += len(ICONS)
        out[text] = clip01((card["n"] or 0) / 3.0)
        if card["profit_key"] in PROFIT_KEYS:
            out[text + 1 + PROFIT_KEYS.index(card["profit_key"])] = 1.0
    return out


def _reveals(cards: dict[str, CardDetails], rounds: list[list[str | None]], n: int, rel: Callable[[int], int]) -> list[float]:
    """Reveal rounds of this turn / 8, then the latest revealed vote per seat: YES, NO, CHANGE, none."""
    out = [clip01(len(rounds) / REVEAL_SCALE)] + [0.0] * (n * REVEAL_KINDS)
    if not rounds:
        return out
    for seat, card_id in enumerate(rounds[-1]):
        kind = 3 if card_id is None else ("YES", "NO", "CHANGE").index(_hand_card(cards, card_id)["type"])
        out[1 + rel(seat) * REVEAL_KINDS + kind] = 1.0
    return out


def _final(final: Final | None, n: int, rel: Callable[[int], int]) -> list[float]:
    """Per seat once the game is over: winner, final score / 40."""
    out = [0.0] * (n * 2)
    if final is None:
        return out
    for seat, score in enumerate(final["scores"]):
        base = rel(seat) * 2
        out[base] = 1.0 if seat in final["winners"] else 0.0
        out[base + 1] = clip01(score / SCORE_SCALE)
    return out


ENCODING = MaybeMoviesEncoding()
