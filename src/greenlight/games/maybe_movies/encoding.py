"""Maybe Movies observation encoding for RL: ``observe(state, seat)`` as a fixed-size vector.

Built from the observation only (never the state). The catalogue is generated
from the game seed, so a card id means a different card in every game: cards
are encoded by their **printed features** (type, icon, value; cost icons,
profit; a blockbuster's cost and profit keys with X and N), read from the
observation's own ``cards`` table, never by id. Seats
are **relative to the viewer** (slot 0 is the viewer, slot k the seat k places
to its left). Every value is in ``[0, 1]``; counts are divided by a stated
scale and clipped at 1. ``docs/rl.md`` documents each field.

``encode`` (from the observation) is the reference. ``state_writer`` is the
fast path the RL environments use: it writes the same vector straight from
the state, reading of the hidden parts only who has voted (never what), and
``greenlight.rl.encoding.check_state_writer`` checks it against the reference
on every step of seeded games, also after ``determinize``.

>>> from greenlight.games.maybe_movies import GAME
>>> state = GAME.new_state(4, seed=2)
>>> vector = ENCODING.encode(GAME.observe(state, 3))
>>> len(vector) == ENCODING.size(4, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence
from functools import cache, partial
from typing import Any, TypeVar, cast

from greenlight.core.block_cache import BlockCache
from greenlight.core.game import Observation
from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from greenlight.core.views import clip01, relative_seat
from greenlight.games.maybe_movies import rules
from greenlight.games.maybe_movies.cards import CHANGE, COST_KEYS, ICONS, PROFIT_KEYS, Catalogue, VoteCard
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
from greenlight.games.maybe_movies.state import CHANGE_EDIT, OVER, MaybeMoviesState, Stack

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
#: Length of the ``hand`` field: (YES|NO, icon, value) counts, then CHANGE cards.
HAND_WIDTH = len(VOTE_TYPES) * len(ICONS) * MAX_VALUE + 1
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

    def state_writer(
        self, num_players: int, options: Mapping[str, OptionValue]
    ) -> Callable[[MaybeMoviesState, int, MutableSequence[float]], None]:
        """The fast path: writes ``encode(observe(state, seat))`` from the state into a zeroed buffer."""
        flags = tuple(bool(options.get(name)) for name in ("trendsetter_tricks", "breaking_changes", "blockbuster_budgets"))
        return _writer(num_players, flags)

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


# -- the fast path ---------------------------------------------------------------------------

#: Catalogues (one per game: each game generates its own) the fast path keeps blocks for before it starts again.
CATALOGUE_LIMIT = 64
#: Card faces (printed fields, under doubling icons for movie cards) whose parts are kept before starting again.
FACE_LIMIT = 100_000


def _repeated(step: float, times: int) -> list[float]:
    """``clip01`` of 0 plus ``step`` added ``k`` times, for every k: the sums the reference builds one card at a time."""
    values = [0.0]
    for _ in range(times):
        values.append(clip01(values[-1] + step))
    return values


#: k vote cards of one icon won (the reference adds 1/6 per card), k cards of one kind in the pool (1/10 each).
_SIXTHS = _repeated(1.0 / 6.0, 80)
_TENTHS = _repeated(1.0 / 10.0, 80)

K = TypeVar("K")
V = TypeVar("V")


@cache
def _writer(num_players: int, flags: tuple[bool, ...]) -> _StateWriter:
    return _StateWriter(num_players, flags)


#: A movie card's slot block, its Budget per icon (doubled as the pitch preview doubles it), its Profit and
#: whether it is a blockbuster (whose text the preview leaves open).
_MovieFacts = tuple["array[float]", tuple[int, ...], int, bool]


class _StateWriter(BlockCache):
    """Writes a seat's vector from a Maybe Movies state: the same numbers ``encode`` computes from ``observe``.

    Card ids name different cards in every game (each generates its own
    catalogue), so everything cached is kept per catalogue, and the catalogue
    itself is kept alive with it so that its id stays its own. A card's part
    of the vector is computed once by the reference's own functions from the
    catalogue's printed details; a place (the market, the row, a seat's won
    cards...) is cached by exactly the cards in it, for every viewer, and
    written at the viewer's relative position.
    """

    def __init__(self, num_players: int, flags: tuple[bool, ...]) -> None:
        n = self.n = num_players
        self.trendsetter = flags[0]
        self.flags = flags
        self.at = dict(_starts(ENCODING.fields(n, {})))
        self.order = [[(seat - viewer) % n for seat in range(n)] for viewer in range(n)]
        self._catalogues: dict[int, Catalogue] = {}
        #: The last table parts seen: name -> (catalogue, a copy of the cards, what was made of them); see ``_same``.
        self._memo: dict[str, Any] = {"row doubles": None, "won counts": None}
        #: The last finished game seen and its (winner, score) figures per seat (kept alive, so ``is`` is safe).
        self._over: tuple[MaybeMoviesState, list[tuple[float, float]]] | None = None
        #: What depends only on a card's printed face (its fields but the id), whatever catalogue it is in.
        self._faces: dict[tuple[Any, ...], Any] = {}
        #: Per catalogue id: each hand card's slot in ``hand``, and per doubling icons each movie card's facts.
        self._cards: dict[int, tuple[dict[str, int], dict[tuple[frozenset[str], frozenset[str]], dict[str, _MovieFacts]]]] = {}
        super().__init__()

    def __call__(self, state: MaybeMoviesState, seat: int, out: MutableSequence[float]) -> None:
        at = self.at
        table = state.table
        catalogue = id(table)
        per_card = self._cards.get(catalogue)
        if per_card is None:
            if len(self._catalogues) >= CATALOGUE_LIMIT:
                # Blocks are keyed by catalogue ids: they go with the catalogues that keep those ids theirs.
                self._catalogues.clear()
                self._cards.clear()
                self._blocks.clear()
                self._old.clear()
            self._catalogues[catalogue] = table
            per_card = self._cards[catalogue] = ({}, {})
        hand_slots, movie_facts = per_card
        cached = self._cached
        order = self.order[seat]
        phase = state.phase
        header = cached(("header", state.turn, phase), lambda: self._header(state.turn, phase))
        out[: len(header)] = header
        players = rules.decision(state).players
        votes = state.votes
        committed = tuple([voter for voter in state.voters if votes[voter] is not None])
        active = state.active if phase != OVER else -1
        key: tuple[Any, ...] = ("seats", seat, active, players, committed, tuple(map(len, state.hands)))
        block = cached(key, lambda: self._seat_block(seat, active, players, committed, state.hands))
        start = at["active"]
        out[start : start + len(block)] = block
        # hand: k cards of one kind count k/4, k CHANGE cards k/2, up to 1 (exact in float32, as the reference's sums).
        start = at["hand"]
        change = start + HAND_WIDTH - 1
        for held_card in state.hands[seat]:
            slot = hand_slots.get(held_card)
            if slot is None:
                slot = hand_slots[held_card] = self._hand_slot(table.vote(held_card))
            if slot < 0:
                value = out[change] + 0.5
                out[change] = value if value < 1.0 else 1.0
            else:
                value = out[start + slot] + 0.25
                out[start + slot] = value if value < 1.0 else 1.0
        vote = votes[seat]
        if vote:
            block = cached(("vote", catalogue, vote), lambda: array("f", _vote_features(_hand_card(_details(table, (vote,)), vote))))
            start = at["my_vote"]
            out[start : start + len(block)] = block
        if any(state.known):
            self._known(state, order, out)
        # What the whole table shares (Movies Made, the row, won cards, the pool) changes a few times a turn: each is
        # looked up again only when it differs from the last one seen (``_same``), else from the block caches.
        memo = self._memo
        made_facts = self._same("made", table, state.made)
        if made_facts is None:
            made = tuple(state.made)
            made_facts = self._keep("made", table, made, cached(("made", catalogue, made), lambda: self._made(table, made)))
        made_block, counts, doubles = made_facts
        movies = movie_facts.get(doubles)
        if movies is None:
            movies = movie_facts[doubles] = {}
        start = at["market"]
        for movie in state.market[:MARKET_SLOTS]:
            facts = movies.get(movie)
            if facts is None:
                facts = movies[movie] = self._movie(table, movie, doubles)
            out[start : start + MOVIE_FEATURES] = facts[0]
            start += MOVIE_FEATURES
        row_blocks = self._same("row", table, state.row)
        if row_blocks is None or memo["row doubles"] is not doubles:
            row = tuple(state.row)
            row_blocks = self._keep(
                "row", table, row, cached(("row", catalogue, row, doubles), lambda: self._slots(table, row, ROW_SLOTS, doubles, movies))
            )
            memo["row doubles"] = doubles
        row_block, pitch_block = row_blocks
        start = at["row"]
        out[start : start + len(row_block)] = row_block
        start = at["pitch"]
        out[start : start + len(pitch_block)] = pitch_block
        start = at["movies_made"]
        out[start : start + len(made_block)] = made_block
        won_start, scores_start, icons = at["won"], at["scores"], len(ICONS)
        won_blocks = self._same("won", table, state.won)
        if won_blocks is None or memo["won counts"] != counts:
            won_blocks = self._keep("won", table, [*map(list, state.won)], self._won_blocks(table, state.won, counts))
            memo["won counts"] = counts
        for other, found in enumerate(won_blocks):
            if found is not None:
                where = order[other]
                out[won_start + where * icons : won_start + (where + 1) * icons] = found[0]
                out[scores_start + where] = found[1]
        personal_start, width = at["personal"], PERSONAL_SLOTS * MOVIE_FEATURES
        for other, held in enumerate(state.personal):
            if held:
                personal = tuple(held)
                block = cached(("personal", catalogue, personal, doubles), partial(self._personal, table, personal, doubles, movies))
                base = personal_start + order[other] * width
                out[base : base + width] = block
        start = at["piles"]
        out[start] = clip01(len(state.draw_pile) / 60.0)
        out[start + 1] = clip01(len(state.discard) / 60.0)
        out[start + 2] = clip01(len(state.out_of_play) / 12.0)
        block = self._same("pool", table, state.pool)
        if block is None:
            pool = tuple(state.pool)
            block = self._keep("pool", table, pool, cached(("pool", catalogue, pool), lambda: self._pool(table, pool)))
        start = at["pool"]
        out[start : start + len(block)] = block
        if state.rounds:
            start = at["reveals"]
            out[start] = clip01(len(state.rounds) / REVEAL_SCALE)
            for other, card in enumerate(state.rounds[-1]):
                kind = 3 if card is None else ("YES", "NO", "CHANGE").index(table.vote(card).kind)
                out[start + 1 + order[other] * REVEAL_KINDS + kind] = 1.0
        start = at["edits"]
        out[start] = clip01(state.edits / MAX_TURNS)
        out[start + 1] = 1.0 if phase == CHANGE_EDIT else 0.0
        out[start + 2] = 1.0 if state.choice_point is not None else 0.0
        if phase == OVER:
            # A game that is over changes no more: its result is worked out once for every seat that looks at it.
            over = self._over
            if over is None or over[0] is not state:
                result = rules.rank_breakdowns(rules.final_breakdowns(state))
                figures = [
                    (1.0 if other in result.winners else 0.0, clip01(score / SCORE_SCALE)) for other, score in enumerate(result.scores)
                ]
                over = self._over = (state, figures)
            start = at["final"]
            for other, (winner, final_score) in enumerate(over[1]):
                base = start + order[other] * 2
                out[base] = winner
                out[base + 1] = final_score

    # -- the last table parts seen ---------------------------------------------------------------

    def _same(self, name: str, table: Catalogue, now: list[Any]) -> Any:
        """What was kept under ``name`` if it was kept for this catalogue and cards equal to ``now``, else None."""
        found = self._memo.get(name)
        if found is not None and found[0] is table and found[1] == now:
            return found[2]
        return None

    def _keep(self, name: str, table: Catalogue, cards: tuple[Any, ...] | list[list[str]], value: V) -> V:
        """Keep ``value`` under ``name`` for this catalogue and (a copy of) ``cards``; return it."""
        self._memo[name] = (table, list(cards), value)
        return value

    def _won_blocks(self, table: Catalogue, won: list[list[str]], counts: tuple[int, ...]) -> list[tuple[array[float], float] | None]:
        """Per seat: its part of ``won`` and its entry of ``scores`` (None when it has won nothing)."""
        blocks: list[tuple[array[float], float] | None] = []
        for held in won:
            if held:
                cards = tuple(held)
                blocks.append(self._cached(("won", id(table), cards, counts), partial(self._won, table, cards, counts)))
            else:
                blocks.append(None)
        return blocks

    # -- blocks, each computed once per key by the reference's own functions ----------------------

    def _header(self, turn: int, phase: str) -> array[float]:
        """num_players, options, turn, phase, spectator."""
        block = [1.0 if self.n == count else 0.0 for count in PLAYER_COUNTS]
        block += [float(flag) for flag in self.flags]
        block.append(clip01(turn / MAX_TURNS))
        block += [1.0 if phase == name else 0.0 for name in PHASES]
        block.append(0.0)
        return array("f", block)

    def _seat_block(
        self, seat: int, active: int, players: tuple[int, ...], committed: tuple[int, ...], hands: list[list[str]]
    ) -> array[float]:
        """active, to_act, committed, hand sizes."""
        n = self.n
        order = self.order[seat]
        block = [0.0] * (4 * n)
        if active >= 0:
            block[order[active]] = 1.0
        for other in players:
            block[n + order[other]] = 1.0
        for other in committed:
            block[2 * n + order[other]] = 1.0
        for other, hand in enumerate(hands):
            block[3 * n + order[other]] = clip01(len(hand) / MAX_TURNS)
        return array("f", block)

    def _hand_slot(self, card: VoteCard) -> int:
        """Where one hand card counts in ``hand`` (the reference's ``_hand`` of it alone); -1 for a CHANGE card.

        Computed once per printed face (every catalogue draws its cards from the same few faces).
        """
        face = card[1:]
        found = self._faces.get(face)
        if found is None:
            details = {card.id: cast(CardDetails, card.to_json())}
            alone = _hand(details, (card.id,))
            found = alone.index(0.25) if 0.25 in alone else -1
            self._remember(face, found)
        return cast(int, found)

    def _remember(self, face: tuple[Any, ...], found: Any) -> None:
        if len(self._faces) >= FACE_LIMIT:
            self._faces.clear()
        self._faces[face] = found

    def _known(self, state: MaybeMoviesState, order: list[int], out: MutableSequence[float]) -> None:
        start = self.at["known_in_hand"]
        width = len(VOTE_TYPES) * len(ICONS)
        for other, held in enumerate(state.known):
            if held:
                known = [0.0] * width
                _count_votes(known, 0, _details(state.table, held), held, scale=4.0)
                base = start + order[other] * width
                out[base : base + width] = array("f", known)

    def _made(
        self, table: Catalogue, made: tuple[Stack, ...]
    ) -> tuple[array[float], tuple[int, ...], tuple[frozenset[str], frozenset[str]]]:
        """movies_made, the Movies Made icon counts and the Trendsetter doubling icons (by name)."""
        counts = [0] * len(ICONS)
        for stack in made:
            for icon in table.movie(stack.top).printed_icons:
                counts[icon] += 1
        block = [clip01(len(made) / MAX_TURNS), clip01(sum(1 for stack in made if stack.success) / MAX_TURNS)]
        block += [clip01(count / 10.0) for count in counts]
        doubles: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        if self.trendsetter:
            tops = [stack.top for stack in made]
            views: list[StackView] = [{"cards": [], "top": stack.top, "result": "SUCCESS" if stack.success else "FAIL"} for stack in made]
            failed, succeeded = _doubling_icons(_details(table, tops), views)
            doubles = (frozenset(failed), frozenset(succeeded))
        return array("f", block), tuple(counts), doubles

    def _movie(self, table: Catalogue, card_id: str, doubles: tuple[frozenset[str], frozenset[str]]) -> _MovieFacts:
        """One movie card's slot block (the reference's ``_movie_slots`` of it alone) and its pitch-preview figures.

        Computed once per printed face and doubling icons (every catalogue draws its cards from the same few faces).
        """
        face = (table.movie(card_id)[1:], doubles)
        found = self._faces.get(face)
        if found is None:
            found = self._movie_face(table, card_id, doubles)
            self._remember(face, found)
        return cast(_MovieFacts, found)

    def _movie_face(self, table: Catalogue, card_id: str, doubles: tuple[frozenset[str], frozenset[str]]) -> _MovieFacts:
        failed, succeeded = doubles
        details = _details(table, (card_id,))
        block = array("f", _movie_slots(details, [card_id], 1, (set(failed), set(succeeded))))
        card = table.movie(card_id)
        icons = {ICONS[icon] for icon in card.printed_icons}
        cost_doubles, profit_doubles = bool(icons & failed), bool(icons & succeeded)
        budget = [0] * len(ICONS)
        for icon in card.cost:
            budget[icon] += 2 if cost_doubles else 1
        return block, tuple(budget), card.profit * (2 if profit_doubles else 1), card.is_text

    def _slots(
        self,
        table: Catalogue,
        cards: tuple[str, ...],
        size: int,
        doubles: tuple[frozenset[str], frozenset[str]],
        movies: dict[str, _MovieFacts],
    ) -> tuple[array[float], array[float]]:
        """The movie slots of ``cards`` (the first ``size``), and the pitch field if they are the row (as ``pitch_preview``).

        ``movies`` holds the facts of this catalogue's movie cards under these doubling icons (filled as they are needed).
        """
        block = array("f")
        budget = [0] * len(ICONS)
        profit = texts = 0
        for card in cards:
            facts = movies.get(card)
            if facts is None:
                facts = movies[card] = self._movie(table, card, doubles)
            block.extend(facts[0])
            for icon, count in enumerate(facts[1]):
                budget[icon] += count
            if facts[3]:
                texts += 1
            else:
                profit += facts[2]
        slots = block[: size * MOVIE_FEATURES]
        slots.extend(array("f", bytes(4 * (size * MOVIE_FEATURES - len(slots)))))
        pitch = [clip01(count / 10.0) for count in budget] + [clip01(profit / 30.0), clip01(texts / ROW_SLOTS)]
        return slots, array("f", pitch)

    def _personal(
        self, table: Catalogue, cards: tuple[str, ...], doubles: tuple[frozenset[str], frozenset[str]], movies: dict[str, _MovieFacts]
    ) -> array[float]:
        """A seat's face-up personal movie cards, as movie slots."""
        return self._slots(table, cards, PERSONAL_SLOTS, doubles, movies)[0]

    def _won(self, table: Catalogue, cards: tuple[str, ...], counts: tuple[int, ...]) -> tuple[array[float], float]:
        """A seat's part of ``won`` and its entry of ``scores`` (each won card scores its icon's Movies Made count)."""
        icons = [0] * len(ICONS)
        for card in cards:
            icons[table.vote(card).icon] += 1
        won = array("f", [_SIXTHS[count] if count < len(_SIXTHS) else 1.0 for count in icons])
        score = sum(count * counts[icon] for icon, count in enumerate(icons))
        return won, clip01(score / SCORE_SCALE)

    def _pool(self, table: Catalogue, pool: tuple[str, ...]) -> array[float]:
        counts = [0] * (len(VOTE_TYPES) * len(ICONS))
        for card in pool:
            vote = table.vote(card)
            if vote.kind != CHANGE:
                counts[VOTE_TYPES.index(vote.kind) * len(ICONS) + vote.icon] += 1
        block = [_TENTHS[count] if count < len(_TENTHS) else 1.0 for count in counts]
        block.append(clip01(len(pool) / 60.0))
        return array("f", block)


def _details(table: Catalogue, cards: Iterable[str]) -> dict[str, CardDetails]:
    """The printed details the reference reads from an observation's ``cards`` table, straight from the catalogue.

    (The catalogue's own JSON of each card; a movie's cosmetic title, which the encoding never reads, is left empty.)
    """
    return {card: cast(CardDetails, table.vote(card).to_json() if table.is_vote(card) else table.movie(card).to_json("")) for card in cards}


def _starts(fields: Iterable[tuple[str, int]]) -> Iterable[tuple[str, int]]:
    start = 0
    for name, length in fields:
        yield name, start
        start += length


ENCODING = MaybeMoviesEncoding()


# -- chance, for the OpenSpiel adapter (greenlight.rl.openspiel) ---------------------------------------------------
# Every chance event of play (§4.9: collect, share, replacement draws, deck exhaustion) draws from the play
# stream. The adapter puts a chance node before a move whose rules draw from it, and in its sampled mode gives
# that move a fresh stream: §4.9 allows explicit chance outcomes with the same distribution, and determinize
# redraws a world's future the same way.


def chance_mark(state: MaybeMoviesState) -> object:
    """What changes exactly when the rules draw randomness: the play stream's internal state."""
    return state.rng.getstate()


def reseed(state: MaybeMoviesState, seed: int) -> None:
    """Draw every chance event from now on from a stream seeded by ``seed``."""
    state.rng = Stream("maybe-movies", "chance", seed)
