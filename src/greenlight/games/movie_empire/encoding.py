"""Movie Empire observation encoding for RL: ``observe(state, seat)`` as a fixed-size vector.

Built from the observation only (never the state), so it shows exactly what
the seat may see. Seats are **relative to the viewer** (slot 0 is the viewer,
slot k the seat k places to its left). Cards are encoded by their identity
(one-hot or counts over the card ids of the loaded data tables) and, where a
single card fills a place, by printed features too. The layout follows the
data tables named by the ``data`` option (bundled by default): for one
table set the size depends only on the player count. Every value is in
``[0, 1]``; counts are divided by a stated scale and clipped at 1.
``docs/rl.md`` documents each field; ``fields()`` is the machine-readable list.

``encode`` (from the observation) is the reference. ``state_writer`` is the
fast path the RL environments use: it writes the same vector straight from
the state, reading of the hidden parts only who has committed (never what),
and ``greenlight.rl.encoding.check_state_writer`` checks it against the
reference on every step of seeded games, also after ``determinize``.

>>> from greenlight.games.movie_empire import GAME
>>> state = GAME.new_state(3, seed=2)
>>> vector = ENCODING.encode(GAME.observe(state, 1))
>>> len(vector) == ENCODING.size(3, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, TypeVar, cast

from greenlight.core.block_cache import BlockCache
from greenlight.core.game import Observation
from greenlight.core.spec import OptionValue
from greenlight.core.views import clip01, relative_seat
from greenlight.games.movie_empire import rules
from greenlight.games.movie_empire.cards import FULL_ROUNDS, GENRES, MARKETS, STAGES, TREND_ROW, CardKind, Tables, load_tables
from greenlight.games.movie_empire.effects import level, usable_dossier
from greenlight.games.movie_empire.lines import Line
from greenlight.games.movie_empire.observation import (
    LineView,
    MovieEmpireObservation,
    PlanView,
    PlayerView,
    SpaceView,
    TrendsView,
    TurnView,
)
from greenlight.games.movie_empire.state import NO_SEAT, OVER, WORKING, MovieEmpireState
from greenlight.games.movie_empire.view import _space_json, line_json
from greenlight.games.movie_empire.working import in_use

PLAYER_COUNTS = (2, 3, 4)
PHASES = ("setup", "grumpy", "gift", "working", "premiere", "internet", "upkeep", "over")
#: Decision kinds (``observation["decision"]["kind"]``), see ``docs/movie_empire.md``.
DECISION_KINDS = (
    "keep",
    "exemption",
    "give",
    "turn",
    "produce",
    "swap",
    "take",
    "release",
    "sabotage_keep",
    "discard",
    "shut",
    "market",
    "internet",
    "game_over",
)
CARD_KINDS: tuple[CardKind, ...] = ("production", "star", "script")
#: Line slots per player (the sympathy bar allows at most 2 lines).
MAX_LINES = 2
#: Public figures of one player before its released movies, known cards and lines (see ``_player``).
FIGURES = 20
#: One script by its printed features: genre one-hot (A, C, D), needs G/B/Y/R / 3, PP / 12.
SCRIPT_FEATURES = len(GENRES) + len(STAGES) + 1
#: Released movies of one player: per genre (3) and per market (USA, EUR, CHN, NET) / 5.
RELEASED_FEATURES = len(GENRES) + len(MARKETS)
MONEY_SCALE = 30.0
PP_SCALE = 60.0
PRICE_SCALE = 8.0


def _positions(ids: Iterable[str]) -> dict[str, int]:
    return {card_id: index for index, card_id in enumerate(ids)}


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """Card and space positions of one set of data tables, computed once per table set.

    ``vocab`` is the hand-card vocabulary: production ids, then star ids, then
    script ids (table order); ``per_copy`` is 1 / copies of each vocab entry,
    so a count becomes the share of that card's copies.
    """

    production: dict[str, int]
    stars: dict[str, int]
    scripts: dict[str, int]
    trends: dict[str, int]
    plans: dict[str, int]
    upgrades: dict[str, int]
    vocab: dict[str, int]
    per_copy: tuple[float, ...]
    spaces: dict[str, int]
    production_slots: dict[str, int]
    script_slots: dict[str, int]
    star_slots: dict[str, int]
    release_slots: dict[str, int]
    script_features: dict[str, tuple[float, ...]]
    #: Production-card PP as a line position (§4.9 step 6: base its PP, a standalone upgrade 1, a joker 0).
    position_pp: dict[str, int]
    #: Production-card PP when stacked as an upgrade.
    stacked_pp: dict[str, int]
    deck_sizes: tuple[int, int, int]

    @property
    def line_width(self) -> int:
        """Floats per production line (see ``_line``)."""
        return 1 + SCRIPT_FEATURES + 3 * len(STAGES) + 1 + len(self.production) + len(self.upgrades) + len(self.stars) + 5

    @property
    def player_width(self) -> int:
        """Floats per player block (see ``_player``)."""
        return FIGURES + RELEASED_FEATURES + len(self.vocab) + MAX_LINES * self.line_width


def _script_features(table: Tables, card_id: str) -> tuple[float, ...]:
    script = table.scripts[card_id]
    genre = tuple(1.0 if script.genre == name else 0.0 for name in GENRES)
    return (*genre, *(clip01(need / 3.0) for need in script.needs), clip01(script.pp / 12.0))


@cache
def _layout_of(data_dir: str | None) -> Layout:
    table = load_tables(data_dir)
    production = _positions(table.production_ids)
    vocab = _positions([*table.production_ids, *table.star_ids, *table.script_ids])
    per_copy = tuple([1.0 / card.copies for card in table.production.values()] + [1.0] * (len(table.star_ids) + len(table.script_ids)))

    def slots(task: str) -> dict[str, int]:
        return _positions(space.id for space in table.spaces if space.task_name == task)

    return Layout(
        production=production,
        stars=_positions(table.star_ids),
        scripts=_positions(table.script_ids),
        trends=_positions(table.trend_ids),
        plans=_positions(table.plan_ids),
        upgrades=_positions(card.id for card in table.production.values() if card.is_upgrade),
        vocab=vocab,
        per_copy=per_copy,
        spaces=_positions(space.id for space in table.spaces),
        production_slots=slots("production"),
        script_slots=slots("script"),
        star_slots=slots("star"),
        release_slots=slots("release"),
        script_features={card_id: _script_features(table, card_id) for card_id in table.script_ids},
        position_pp={card.id: card.pp if card.kind == "base" else 1 if card.is_upgrade else 0 for card in table.production.values()},
        stacked_pp={card.id: card.pp for card in table.production.values()},
        deck_sizes=(len(table.production_deck), len(table.star_ids), len(table.script_ids)),
    )


def layout(options: Mapping[str, OptionValue]) -> Layout:
    """The layout of the data tables named by ``options`` (``data``; bundled when absent or empty)."""
    data_dir = options.get("data")
    return _layout_of(str(data_dir) if data_dir else None)


class MovieEmpireEncoding:
    """Encoder of Movie Empire observations (see the module docstring and ``docs/rl.md``)."""

    #: Weights for potential-based shaping: points and money of the viewer.
    shaping_weights: Mapping[str, float] = {"points": 0.01, "money": 0.005}

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """``(name, length)`` of each slice, in order (``n`` = number of players)."""
        return list(_fields(num_players, layout(options)))

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector for ``num_players`` and the data tables of ``options``."""
        return sum(length for _, length in _fields(num_players, layout(options)))

    def encode(self, observation: Observation) -> list[float]:
        """The vector for one observation (spectator observations leave the private fields at 0)."""
        obs = cast(MovieEmpireObservation, observation)
        n: int = obs["num_players"]
        lay = layout(obs["options"])
        fields = _fields(n, lay)
        at = _offsets(fields)
        out = [0.0] * sum(length for _, length in fields)
        viewer: int | None = obs["viewer"]

        def rel(seat: int) -> int:
            return relative_seat(seat, viewer, n)

        def flag(name: str, index: int, value: float = 1.0) -> None:
            out[at[name] + index] = value

        def seats(name: str, values: Iterable[int]) -> None:
            for seat in values:
                flag(name, rel(seat))

        def one_hot(name: str, positions: Mapping[str, int], card: str | None, base: int = 0) -> None:
            if card is not None and card in positions:
                flag(name, base + positions[card])

        options = obs["options"]
        flag("num_players", PLAYER_COUNTS.index(n) if n in PLAYER_COUNTS else 0, 1.0 if n in PLAYER_COUNTS else 0.0)
        flag("options", 0, float(bool(options.get("shoot_a_short"))))
        flag("options", 1, float(bool(options.get("clean_hands"))))
        flag("round", 0, clip01(obs["round"] / FULL_ROUNDS))
        flag("round", 1, clip01(obs["last_round"] / FULL_ROUNDS))
        if obs["phase"] in PHASES:
            flag("phase", PHASES.index(obs["phase"]))
        decision = obs["decision"]
        if decision["kind"] in DECISION_KINDS:
            flag("decision", DECISION_KINDS.index(decision["kind"]))
        flag("spectator", 0, 1.0 if viewer is None else 0.0)
        seats("first_player", [obs["first_player"]])
        seats("to_act", decision["players"])
        seats("committed", decision["committed"])
        turn = obs.get("turn")
        if turn is not None:
            if turn.get("seat") is not None:
                seats("turn_seat", [turn["seat"]])
            _turn(out, at["turn"], turn, lay)
        internet = obs.get("internet")
        if internet is not None:
            seats("internet", [internet["seat"]])
            one_hot("internet", lay.release_slots, internet.get("release_space"), n)
        _plan(out, at["plan"], obs["plan"], lay)
        _trends(out, at["trends"], obs["trends"], lay)
        _spaces(out, at, obs["spaces"], n, rel, lay)
        draw = obs["piles"]
        for index, kind in enumerate(CARD_KINDS):
            flag("piles", index, clip01(draw[kind] / max(lay.deck_sizes[index], 1)))
            _counts(out, at["discards"], lay, obs["discards"][kind])
        for market in obs["markets_used"]:
            if market in MARKETS:
                flag("premieres", MARKETS.index(market))
        flag("premieres", len(MARKETS), clip01(len(obs["premieres"]) / 4.0))
        width = lay.player_width
        for player in obs["players"]:
            _player(out, at["players"] + rel(player["seat"]) * width, player, lay)
        if viewer is not None:
            _counts(out, at["hand"], lay, obs.get("hand") or ())
            for card in obs.get("dealt") or ():
                one_hot("dealt", lay.scripts, card)
            _counts(out, at["drawn"], lay, obs.get("drawn") or (), positions=lay.production)
            commitment = obs.get("my_commitment")
            if commitment is not None:
                flag("commitment", 0)
                _counts(out, at["commitment"] + 1, lay, commitment)
            _counts(out, at["gifted"], lay, obs.get("gifted") or ())
        final = obs.get("final")
        if final is not None:
            for seat, score in enumerate(final["scores"]):
                flag("final", rel(seat) * 2, 1.0 if seat in final["winners"] else 0.0)
                flag("final", rel(seat) * 2 + 1, clip01((score + 20.0) / 120.0))
        return out

    def state_writer(
        self, num_players: int, options: Mapping[str, OptionValue]
    ) -> Callable[[MovieEmpireState, int, MutableSequence[float]], None]:
        """The fast path: writes ``encode(observe(state, seat))`` from the state into a zeroed buffer."""
        return _writer(num_players, layout(options), bool(options.get("shoot_a_short")), bool(options.get("clean_hands")))

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's points and money (public figures of its own seat)."""
        obs = cast(MovieEmpireObservation, observation)
        viewer = obs["viewer"]
        if viewer is None:
            return {"points": 0.0, "money": 0.0}
        player = obs["players"][viewer]
        return {"points": float(player["pp"]), "money": float(player["money"])}


@cache
def _fields(num_players: int, lay: Layout) -> tuple[tuple[str, int], ...]:
    n = num_players
    releases = len(lay.release_slots)
    vocab = len(lay.vocab)
    return (
        ("num_players", len(PLAYER_COUNTS)),
        ("options", 2),
        ("round", 2),
        ("phase", len(PHASES)),
        ("decision", len(DECISION_KINDS)),
        ("spectator", 1),
        ("first_player", n),
        ("to_act", n),
        ("committed", n),
        ("turn_seat", n),
        ("turn", 5 + len(lay.production) + releases),
        ("internet", n + releases),
        ("plan", 3 * len(lay.plans) + 1),
        ("trends", TREND_ROW * len(lay.trends) + 3),
        ("spaces", len(lay.spaces) * (1 + 2 * n)),
        ("releases", releases * (MAX_LINES + n)),
        ("production_slots", len(lay.production_slots) * (len(lay.production) + 1)),
        ("script_slots", len(lay.script_slots) * (len(lay.scripts) + SCRIPT_FEATURES)),
        ("star_slots", len(lay.star_slots) * (len(lay.stars) + 1)),
        ("piles", len(CARD_KINDS)),
        ("discards", vocab),
        ("premieres", len(MARKETS) + 1),
        ("players", n * lay.player_width),
        ("hand", vocab),
        ("dealt", len(lay.scripts)),
        ("drawn", len(lay.production)),
        ("commitment", 1 + vocab),
        ("gifted", vocab),
        ("final", n * 2),
    )


@cache
def _offsets(fields: tuple[tuple[str, int], ...]) -> dict[str, int]:
    offsets: dict[str, int] = {}
    start = 0
    for name, length in fields:
        offsets[name] = start
        start += length
    return offsets


def _counts(out: list[float], base: int, lay: Layout, cards: Iterable[str], positions: Mapping[str, int] | None = None) -> None:
    """Add, per card, 1 / copies at its position (``positions`` defaults to the hand-card vocabulary)."""
    for card in cards:
        if positions is None:
            index = lay.vocab.get(card)
            step = lay.per_copy[index] if index is not None else 0.0
        else:
            index = positions.get(card)
            step = lay.per_copy[lay.vocab[card]] if index is not None else 0.0
        if index is not None:
            out[base + index] = clip01(out[base + index] + step)


def _turn(out: list[float], base: int, turn: TurnView, lay: Layout) -> None:
    """Placed, produced, target line 1, target line 2, lays / 5, Sabotage swap card (production one-hot), release space."""
    out[base] = 1.0 if turn.get("placed") else 0.0
    out[base + 1] = 1.0 if turn.get("produced") else 0.0
    target = turn.get("target")
    if isinstance(target, int) and 1 <= target <= MAX_LINES:
        out[base + 1 + target] = 1.0
    out[base + 4] = clip01((turn.get("lays") or 0) / 5.0)
    card = turn.get("swap_card")
    if card is not None and card in lay.production:
        out[base + 5 + lay.production[card]] = 1.0
    space = turn.get("release_space")
    if space is not None and space in lay.release_slots:
        out[base + 5 + len(lay.production) + lay.release_slots[space]] = 1.0


def _plan(out: list[float], base: int, plan: PlanView, lay: Layout) -> None:
    """Active plan one-hot, next plan one-hot, revealed plans multi-hot, plan pile / number of plans."""
    count = len(lay.plans)
    for offset, card in ((0, plan["active"]), (count, plan["next"])):
        if card is not None and card in lay.plans:
            out[base + offset + lay.plans[card]] = 1.0
    for card in plan["revealed"]:
        if card in lay.plans:
            out[base + 2 * count + lay.plans[card]] = 1.0
    out[base + 3 * count] = clip01(plan["pile"] / max(count, 1))


def _trends(out: list[float], base: int, trends: TrendsView, lay: Layout) -> None:
    """TS1, TS2, TS3 (the active trend) each one-hot over trend ids, then hit, pile / trends, removed / trends."""
    count = len(lay.trends)
    for slot, card in enumerate(trends["row"][:TREND_ROW]):
        if card is not None and card in lay.trends:
            out[base + slot * count + lay.trends[card]] = 1.0
    tail = base + TREND_ROW * count
    out[tail] = 1.0 if trends["hit"] else 0.0
    out[tail + 1] = clip01(trends["pile"] / max(count, 1))
    out[tail + 2] = clip01(trends["removed"] / max(count, 1))


def _spaces(out: list[float], at: Mapping[str, int], spaces: list[SpaceView], n: int, rel: Callable[[int], int], lay: Layout) -> None:
    """Every board space of the table (in table order), release markers, and the cards in the slots."""
    width = 1 + 2 * n
    production_width = len(lay.production) + 1
    script_width = len(lay.scripts) + SCRIPT_FEATURES
    star_width = len(lay.stars) + 1
    for space in spaces:
        space_id = space["id"]
        index = lay.spaces.get(space_id)
        if index is None:
            continue
        base = at["spaces"] + index * width
        out[base] = 1.0
        if space["assistant"] is not None:
            out[base + 1 + rel(space["assistant"])] = 1.0
        if space["blocked_by"] is not None:
            out[base + 1 + n + rel(space["blocked_by"])] = 1.0
        task = space["task"]
        card = space.get("card")
        if task == "release" and space_id in lay.release_slots:
            base = at["releases"] + lay.release_slots[space_id] * (MAX_LINES + n)
            line = space.get("line")
            if isinstance(line, int) and 1 <= line <= MAX_LINES:
                out[base + line - 1] = 1.0
            cut_by = space.get("cut_by")
            if cut_by is not None:
                out[base + MAX_LINES + rel(cut_by)] = 1.0
        elif card is None:
            continue
        elif task == "production" and space_id in lay.production_slots and card in lay.production:
            base = at["production_slots"] + lay.production_slots[space_id] * production_width
            out[base + lay.production[card]] = 1.0
            out[base + len(lay.production)] = clip01((space.get("price") or 0) / PRICE_SCALE)
        elif task == "script" and space_id in lay.script_slots and card in lay.scripts:
            base = at["script_slots"] + lay.script_slots[space_id] * script_width
            out[base + lay.scripts[card]] = 1.0
            features = lay.script_features[card]
            out[base + len(lay.scripts) : base + script_width] = features
        elif task == "star" and space_id in lay.star_slots and card in lay.stars:
            base = at["star_slots"] + lay.star_slots[space_id] * star_width
            out[base + lay.stars[card]] = 1.0
            out[base + len(lay.stars)] = clip01((space.get("price") or 0) / PRICE_SCALE)


def _player(out: list[float], base: int, player: PlayerView, lay: Layout) -> None:
    """Public figures of one player, its released movies, its known hand cards, then its production lines."""
    counts = player["hand_counts"]
    figures = [
        clip01(player["money"] / MONEY_SCALE),
        clip01(player["pp"] / PP_SCALE),
        clip01((player["sympathy"] + 5) / 10.0),
        clip01(player["budget"] / 10.0),
        clip01(player["lines_allowed"] / MAX_LINES),
        clip01(player["hand_size"] / 10.0),
        *(clip01(counts.get(kind, 0) / 5.0) for kind in CARD_KINDS),
        clip01(len(player["known_cards"]) / 5.0),
        clip01(player["assistants_placed"] / 4.0),
        1.0 if player["passed"] else 0.0,
        1.0 if player["dossier_round"] is not None else 0.0,
        1.0 if player["dossier_usable"] else 0.0,
        clip01(player["dossiers_spent"] / 3.0),
        1.0 if player["exempt"] else 0.0,
        clip01(player["statues"] / 5.0),
        clip01(len(player["released"]) / 8.0),
        clip01(player["drawn_count"] / 5.0),
        clip01(player["dealt_count"] / 5.0),
    ]
    out[base : base + FIGURES] = figures
    base += FIGURES
    for _, genre, market in player["released"]:
        if genre in GENRES:
            out[base + GENRES.index(genre)] = clip01(out[base + GENRES.index(genre)] + 0.2)
        if market in MARKETS:
            slot = base + len(GENRES) + MARKETS.index(market)
            out[slot] = clip01(out[slot] + 0.2)
    base += RELEASED_FEATURES
    _counts(out, base, lay, player["known_cards"])
    base += len(lay.vocab)
    width = lay.line_width
    for slot, line in enumerate(player["lines"][:MAX_LINES]):
        if line is not None:
            _line(out, base + slot * width, line, lay)


def _line(out: list[float], base: int, line: LineView, lay: Layout) -> None:
    """Present, script features, stage counts / 5, period / 8, left-end and right-end stage one-hot,
    production cards multi-hot, stacked upgrades multi-hot, stars multi-hot, stars / 3, production PP / 20,
    shut, locked, script met."""
    out[base] = 1.0
    script = line["script"]
    if script in lay.script_features:
        out[base + 1 : base + 1 + SCRIPT_FEATURES] = lay.script_features[script]
    base += 1 + SCRIPT_FEATURES
    for index, stage in enumerate(STAGES):
        out[base + index] = clip01(line["counts"].get(stage, 0) / 5.0)
    base += len(STAGES)
    out[base] = clip01((line["period"] or 0) / 8.0)
    base += 1
    cells = line["cards"]
    if cells:
        out[base + STAGES.index(cells[0]["stage"])] = 1.0
        out[base + len(STAGES) + STAGES.index(cells[-1]["stage"])] = 1.0
    base += 2 * len(STAGES)
    production_pp = 0
    for cell in cells:
        card = cell["card"]
        if card in lay.production:
            out[base + lay.production[card]] = 1.0
            production_pp += lay.position_pp[card]
        stacked = cell.get("stacked")
        if stacked is not None and stacked in lay.upgrades:
            out[base + len(lay.production) + lay.upgrades[stacked]] = 1.0
            production_pp += lay.stacked_pp[stacked]
    base += len(lay.production) + len(lay.upgrades)
    for star in line["stars"]:
        if star in lay.stars:
            out[base + lay.stars[star]] = 1.0
    base += len(lay.stars)
    out[base] = clip01(len(line["stars"]) / 3.0)
    out[base + 1] = clip01(production_pp / 20.0)
    out[base + 2] = 1.0 if line["shut"] else 0.0
    out[base + 3] = 1.0 if line["locked"] else 0.0
    out[base + 4] = 1.0 if line["script_met"] else 0.0


# -- the fast path ---------------------------------------------------------------------------


V = TypeVar("V")


@cache
def _writer(num_players: int, lay: Layout, shoot_a_short: bool, clean_hands: bool) -> _StateWriter:
    return _StateWriter(num_players, lay, shoot_a_short, clean_hands)


def _repeated(step: float, times: int) -> tuple[float, ...]:
    """``clip01`` of 0 plus ``step`` added ``k`` times, for every k: the sums the reference builds one card at a time."""
    values = [0.0]
    for _ in range(times):
        values.append(clip01(values[-1] + step))
    return tuple(values)


#: Released movies of one genre or market (the reference adds 0.2 per movie).
_FIFTHS = _repeated(0.2, 40)


class _StateWriter(BlockCache):
    """Writes a seat's vector from a Movie Empire state: the same numbers ``encode`` computes from ``observe``.

    What depends only on the data tables (which spaces are in use, each card's
    place in the vocabulary and its running sums) is laid out once. What the
    state holds is read directly, in the reference's own sums, or taken from
    blocks the reference computed once and cached by exactly what they come
    from: the header by round, phase and decision; the card slots by their
    cards; a production line by the (frozen) line itself, kept alive by the
    cache so that its id stays its own; a hand, the discards and a seat's
    released movies by their cards.
    """

    def __init__(self, num_players: int, lay: Layout, shoot_a_short: bool, clean_hands: bool) -> None:
        n = self.n = num_players
        self.lay = lay
        self.options = (shoot_a_short, clean_hands)
        self.fields = _fields(n, lay)
        self.at = _offsets(self.fields)
        self.size = sum(length for _, length in self.fields)
        super().__init__()
        production, stars = len(lay.production), len(lay.stars)
        #: Each card's kind by its place in the vocabulary (production, then stars, then scripts).
        self.kind_index = {card: 0 if index < production else 1 if index < production + stars else 2 for card, index in lay.vocab.items()}
        #: Each card's running sum in a count field: k copies give sums[k] (the reference adds 1 / copies per card).
        self.sums = {card: _repeated(lay.per_copy[index], 16) for card, index in lay.vocab.items()}
        self._board: tuple[array[float], list[tuple[int, int, int]], list[tuple[int, int]]] | None = None
        #: The last discards seen (copies of the three piles) and their block.
        self._discards: tuple[tuple[list[str], ...], array[float]] | None = None
        #: The last board markers seen (assistant, blocked, cut_by, release_line copies) and where they go.
        self._markers: tuple[tuple[list[int], ...], list[tuple[int, int]], list[int]] | None = None
        #: Each card slot's entries by (space index, card), for one set of data tables.
        self._pieces: dict[tuple[int, str], list[tuple[int, float]]] = {}
        self._pieces_table: Tables | None = None
        #: The last finished game seen and its (winner, score) figures per seat (kept alive, so ``is`` is safe).
        self._over: tuple[MovieEmpireState, list[tuple[float, float]]] | None = None
        self.line_width = lay.line_width
        self.player_width = lay.player_width

    def __call__(self, state: MovieEmpireState, seat: int, out: MutableSequence[float]) -> None:
        at = self.at
        n = self.n
        cached = self._cached
        decision = rules.decision(state)
        phase = state.phase
        key: tuple[Any, ...] = ("header", state.round, state.last_round, phase, decision.kind)
        block = cached(key, lambda: self._header(state.round, state.last_round, phase, decision.kind))
        out[: len(block)] = block
        turn_seat = state.turn_seat if phase == WORKING else None
        key = ("seats", seat, state.first_player, decision.players, decision.committed, turn_seat)
        block = cached(key, lambda: self._seat_block(seat, state.first_player, decision.players, decision.committed, turn_seat))
        start = at["first_player"]
        out[start : start + len(block)] = block
        if phase == WORKING:
            key = ("turn", state.turn_placed, state.turn_produced, state.target, state.lays, state.sub_card, state.sub_space)
            block = cached(key, lambda: self._turn(state))
            start = at["turn"]
            out[start : start + len(block)] = block
        if state.net_items and state.net_pos < len(state.net_items):
            self._internet(state, seat, out)
        plan_next = state.plan_pile[-1] if state.plan_pile else None
        key = ("plan", state.plan, plan_next, tuple(state.plans_done), len(state.plan_pile))
        block = cached(key, lambda: self._plan(state, plan_next))
        start = at["plan"]
        out[start : start + len(block)] = block
        key = ("trends", tuple(state.trend_row), state.trend_hit, len(state.trend_pile), len(state.trend_removed))
        block = cached(key, lambda: self._trends(state))
        start = at["trends"]
        out[start : start + len(block)] = block
        self._write_board(state, seat, out)
        start = at["piles"]
        deck_sizes = self.lay.deck_sizes
        for index, pile in enumerate((state.production_pile, state.star_pile, state.script_pile)):
            out[start + index] = clip01(len(pile) / max(deck_sizes[index], 1))
        # The discards change a few times a round: looked up again only when they differ from the last ones seen.
        discards = (state.production_discard, state.star_discard, state.script_discard)
        if self._discards is None or self._discards[0] != discards:
            key = ("discards", *map(tuple, discards))
            self._discards = (tuple(map(list, discards)), cached(key, lambda: self._counts_block(len(self.lay.vocab), *key[1:])))
        block = self._discards[1]
        start = at["discards"]
        out[start : start + len(block)] = block
        start = at["premieres"]
        for market in state.markets_used:
            if market in MARKETS:
                out[start + MARKETS.index(market)] = 1.0
        out[start + len(MARKETS)] = clip01(len(state.premieres) / 4.0)
        for player in range(n):
            self._write_player(state, player, at["players"] + (player - seat) % n * self.player_width, out)
        # hand: each card's running sum of 1 / copies (``_counts``), written card by card (hands change every turn).
        hand = state.hands[seat]
        if hand:
            start = at["hand"]
            vocab, sums = self.lay.vocab, self.sums
            counted: dict[str, int] = {}
            for card in hand:
                counted[card] = counted.get(card, 0) + 1
            for card, count in counted.items():
                position = vocab.get(card)
                if position is not None:
                    steps = sums[card]
                    out[start + position] = steps[min(count, len(steps) - 1)]
        if state.dealt[seat] or state.drawn[seat] or state.commit[seat] is not None or state.gifted[seat]:
            block = self._private(state, seat)
            start = at["dealt"]
            out[start : start + len(block)] = block
        if phase == OVER:
            self._final(state, seat, out)

    # -- header and turn ------------------------------------------------------------------------

    def _header(self, round_number: int, last_round: int, phase: str, kind: str) -> array[float]:
        """num_players, options, round, phase, decision, spectator."""
        n = self.n
        block = [1.0 if n == count else 0.0 for count in PLAYER_COUNTS]
        block += [float(flag) for flag in self.options]
        block += [clip01(round_number / FULL_ROUNDS), clip01(last_round / FULL_ROUNDS)]
        block += [1.0 if phase == name else 0.0 for name in PHASES]
        block += [1.0 if kind == name else 0.0 for name in DECISION_KINDS]
        block.append(0.0)
        return array("f", block)

    def _seat_block(
        self, seat: int, first: int, players: tuple[int, ...], committed: tuple[int, ...], turn_seat: int | None
    ) -> array[float]:
        """first_player, to_act, committed, turn_seat."""
        n = self.n
        block = [0.0] * (4 * n)
        block[(first - seat) % n] = 1.0
        for other in players:
            block[n + (other - seat) % n] = 1.0
        for other in committed:
            block[2 * n + (other - seat) % n] = 1.0
        if turn_seat is not None:
            block[3 * n + (turn_seat - seat) % n] = 1.0
        return array("f", block)

    def _field(self, name: str, fill: Callable[[list[float]], None]) -> array[float]:
        """Run a reference filler on a scratch copy of one field (the filler writes at offset 0)."""
        scratch = [0.0] * dict(self.fields)[name]
        fill(scratch)
        return array("f", scratch)

    def _turn(self, state: MovieEmpireState) -> array[float]:
        turn: TurnView = {
            "seat": state.turn_seat,
            "placed": state.turn_placed,
            "produced": state.turn_produced,
            "target": state.target + 1 if state.target != NO_SEAT else None,
            "lays": state.lays,
            "swap_card": state.sub_card,
            "release_space": state.table.spaces[state.sub_space].id if state.sub_space != NO_SEAT else None,
        }
        return self._field("turn", lambda out: _turn(out, 0, turn, self.lay))

    def _internet(self, state: MovieEmpireState, seat: int, out: MutableSequence[float]) -> None:
        internet_seat, space = state.net_items[state.net_pos]
        start = self.at["internet"]
        out[start + (internet_seat - seat) % self.n] = 1.0
        if space != NO_SEAT:
            space_id = state.table.spaces[space].id
            if space_id in self.lay.release_slots:
                out[start + self.n + self.lay.release_slots[space_id]] = 1.0

    def _plan(self, state: MovieEmpireState, plan_next: str | None) -> array[float]:
        plan: PlanView = {"active": state.plan, "next": plan_next, "revealed": list(state.plans_done), "pile": len(state.plan_pile)}
        return self._field("plan", lambda out: _plan(out, 0, plan, self.lay))

    def _trends(self, state: MovieEmpireState) -> array[float]:
        trends: TrendsView = {
            "row": list(state.trend_row),
            "active": state.trend_row[2],
            "hit": state.trend_hit,
            "pile": len(state.trend_pile),
            "removed": len(state.trend_removed),
        }
        return self._field("trends", lambda out: _trends(out, 0, trends, self.lay))

    # -- the board ------------------------------------------------------------------------------

    def _board_layout(self, state: MovieEmpireState) -> tuple[array[float], list[tuple[int, int, int]], list[tuple[int, int]]]:
        """The spaces in use (fixed by the tables, player count and variant): the field with their in-use flags,
        (state index, field offset, release offset or -1) of each, and (state index, slot kind) of each card slot."""
        lay = self.lay
        n = self.n
        width = 1 + 2 * n
        flags = [0.0] * dict(self.fields)["spaces"]
        spaces: list[tuple[int, int, int]] = []
        slots: list[tuple[int, int]] = []
        for space in in_use(state):
            index = lay.spaces.get(space.id)
            if index is None:
                continue
            flags[index * width] = 1.0
            release = (
                lay.release_slots[space.id] * (MAX_LINES + n) if space.task_name == "release" and space.id in lay.release_slots else -1
            )
            spaces.append((space.index, self.at["spaces"] + index * width, release))
            if space.task_name in ("production", "script", "star"):
                slots.append((space.index, index))
        return array("f", flags), spaces, slots

    def _write_board(self, state: MovieEmpireState, seat: int, out: MutableSequence[float]) -> None:
        """spaces, releases and the production, script and star slots (what ``_spaces`` writes)."""
        if self._board is None:
            self._board = self._board_layout(state)
        flags, spaces, _ = self._board
        n = self.n
        at = self.at
        start = at["spaces"]
        out[start : start + len(flags)] = flags
        # The markers change a few times a round: their places are worked out again only when they do.
        markers = (state.assistant, state.blocked, state.cut_by, state.release_line)
        if self._markers is None or self._markers[0] != markers:
            self._markers = (tuple(map(list, markers)), *self._marker_places(markers, spaces))
        _, by_seat, fixed = self._markers
        for where, who in by_seat:
            out[where + (who - seat) % n] = 1.0
        for where in fixed:
            out[where] = 1.0
        cards = tuple(state.slot_card)
        block = self._blocks.get(("slots", cards))
        if block is None:
            block = self._cached(("slots", cards), partial(self._slots, state))
        start = at["production_slots"]
        out[start : start + len(block)] = block

    def _marker_places(
        self, markers: tuple[list[int], list[int], list[int], list[int]], spaces: list[tuple[int, int, int]]
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Where the assistants, blocks, release lines and cuts go: (offset of seat 0 counted from the viewer,
        seat) for the markers of a seat, and the offsets of the release lines."""
        assistant, blocked, cut_by, release_line = markers
        n = self.n
        releases = self.at["releases"]
        by_seat: list[tuple[int, int]] = []
        fixed: list[int] = []
        for index, base, release in spaces:
            who = assistant[index]
            if who != NO_SEAT:
                by_seat.append((base + 1, who))
            who = blocked[index]
            if who != NO_SEAT:
                by_seat.append((base + 1 + n, who))
            if release >= 0:
                line = release_line[index]
                if 0 <= line < MAX_LINES:
                    fixed.append(releases + release + line)
                who = cut_by[index]
                if who != NO_SEAT:
                    by_seat.append((releases + release + MAX_LINES, who))
        return by_seat, fixed

    def _slots(self, state: MovieEmpireState) -> array[float]:
        """The production, script and star slot fields: each card slot's entries, made once per space and card."""
        assert self._board is not None
        if state.table is not self._pieces_table:
            self._pieces.clear()
            self._pieces_table = state.table
        pieces = self._pieces
        start, stop = self.at["production_slots"], self.at["piles"]
        block = array("f", bytes(4 * (stop - start)))
        slot_card = state.slot_card
        for index, _ in self._board[2]:
            card = slot_card[index]
            if card is None:
                continue
            piece = pieces.get((index, card))
            if piece is None:
                piece = pieces[index, card] = self._slot_piece(state, index)
            for where, value in piece:
                block[where] = value
        return block

    def _slot_piece(self, state: MovieEmpireState, index: int) -> list[tuple[int, float]]:
        """The non-zero entries (counted from ``production_slots``) the reference writes for one card slot, from the
        view's JSON of its space (what it writes there depends only on the space, its card and the data tables)."""
        start, stop = self.at["production_slots"], self.at["piles"]
        scratch = [0.0] * self.size
        _spaces(scratch, self.at, [_space_json(state, index)], self.n, lambda other: other, self.lay)
        return [(where - start, value) for where, value in enumerate(scratch[start:stop], start) if value]

    # -- cards ----------------------------------------------------------------------------------

    def _counts_block(self, size: int, *piles: Iterable[str]) -> array[float]:
        """Counts over the card vocabulary (``_counts``): each card's running sum of 1 / copies."""
        counted: dict[str, int] = {}
        for pile in piles:
            for card in pile:
                counted[card] = counted.get(card, 0) + 1
        block = [0.0] * size
        vocab, sums = self.lay.vocab, self.sums
        for card, count in counted.items():
            index = vocab.get(card)
            if index is not None:
                block[index] = sums[card][min(count, len(sums[card]) - 1)]
        return array("f", block)

    def _private(self, state: MovieEmpireState, seat: int) -> array[float]:
        """dealt, drawn, commitment and gifted (rarely any), by the reference on a scratch copy."""
        lay = self.lay
        at = self.at
        scratch = [0.0] * self.size
        for card in state.dealt[seat]:
            if card in lay.scripts:
                scratch[at["dealt"] + lay.scripts[card]] = 1.0
        _counts(scratch, at["drawn"], lay, state.drawn[seat], positions=lay.production)
        commitment = state.commit[seat]
        if commitment is not None:
            scratch[at["commitment"]] = 1.0
            _counts(scratch, at["commitment"] + 1, lay, commitment)
        _counts(scratch, at["gifted"], lay, state.gifted[seat])
        return array("f", scratch[at["dealt"] : at["final"]])

    # -- players --------------------------------------------------------------------------------

    def _write_player(self, state: MovieEmpireState, player: int, base: int, out: MutableSequence[float]) -> None:
        """One player block (what ``_player`` writes from the view's figures of that player).

        Three parts, each cached by what it comes from (they change at different times): the figures, the
        genres and markets of the released movies, the known hand cards; then the production lines.
        """
        dossier = state.dossier[player]
        released = state.released[player]
        key: tuple[Any, ...] = (
            "figures",
            state.money[player],
            state.pp[player],
            state.sympathy[player],
            tuple(state.hands[player]),
            len(state.known[player]),
            state.placed[player],
            state.passed[player],
            dossier,
            state.round if dossier != NO_SEAT else 0,  # a dossier becomes usable in a later round
            state.spent[player],
            state.exempt[player],
            state.statues[player],
            len(released),
            len(state.drawn[player]),
            len(state.dealt[player]),
        )
        blocks = self._blocks
        block = blocks.get(key)
        if block is None:
            block = self._cached(key, partial(self._figures, state, player))
        start = base + len(block)
        out[base:start] = block
        if released:
            key = ("released", *released)
            block = blocks.get(key)
            if block is None:
                block = self._cached(key, partial(self._released, released))
            out[start : start + len(block)] = block
        start += RELEASED_FEATURES
        known = state.known[player]
        if known:
            key = ("known", *known)
            block = blocks.get(key)
            if block is None:
                block = self._cached(key, partial(self._counts_block, len(self.lay.vocab), known))
            out[start : start + len(block)] = block
        start += len(self.lay.vocab)
        width = self.line_width
        for slot, line in enumerate(state.lines[player][:MAX_LINES]):
            if line is not None:
                found = blocks.get(("line", id(line), slot))
                if found is None:
                    found = self._cached(("line", id(line), slot), partial(self._line, state, slot, line))
                out[start + slot * width : start + (slot + 1) * width] = found[0]

    def _figures(self, state: MovieEmpireState, player: int) -> array[float]:
        """The figures at the head of a player block (``_player``'s first ``FIGURES`` values)."""
        kinds = [0, 0, 0]
        kind_index = self.kind_index
        hand = state.hands[player]
        for card in hand:
            kinds[kind_index.get(card, 2)] += 1
        bar = level(state, player)
        dossier = state.dossier[player]
        return array(
            "f",
            (
                clip01(state.money[player] / MONEY_SCALE),
                clip01(state.pp[player] / PP_SCALE),
                clip01((state.sympathy[player] + 5) / 10.0),
                clip01(bar.budget / 10.0),
                clip01(bar.lines / MAX_LINES),
                clip01(len(hand) / 10.0),
                clip01(kinds[0] / 5.0),
                clip01(kinds[1] / 5.0),
                clip01(kinds[2] / 5.0),
                clip01(len(state.known[player]) / 5.0),
                clip01(state.placed[player] / 4.0),
                1.0 if state.passed[player] else 0.0,
                1.0 if dossier != NO_SEAT else 0.0,
                1.0 if usable_dossier(state, player) else 0.0,
                clip01(state.spent[player] / 3.0),
                1.0 if state.exempt[player] else 0.0,
                clip01(state.statues[player] / 5.0),
                clip01(len(state.released[player]) / 8.0),
                clip01(len(state.drawn[player]) / 5.0),
                clip01(len(state.dealt[player]) / 5.0),
            ),
        )

    def _released(self, released: Iterable[tuple[Any, str, str]]) -> array[float]:
        """Released movies per genre, then per market (k of them count ``_FIFTHS[k]``)."""
        genres = [0] * len(GENRES)
        markets = [0] * len(MARKETS)
        for _, genre, market in released:
            if genre in GENRES:
                genres[GENRES.index(genre)] += 1
            if market in MARKETS:
                markets[MARKETS.index(market)] += 1
        return array("f", (_FIFTHS[min(count, len(_FIFTHS) - 1)] for count in (*genres, *markets)))

    def _line(self, state: MovieEmpireState, slot: int, line: Line) -> tuple[array[float], Line]:
        """One production line by the reference from the view's JSON of it (kept with the line, so its id stays its own)."""
        view = line_json(state.table, slot, line)
        assert view is not None
        scratch = [0.0] * self.lay.line_width
        _line(scratch, 0, view, self.lay)
        return array("f", scratch), line

    def _final(self, state: MovieEmpireState, seat: int, out: MutableSequence[float]) -> None:
        # A game that is over changes no more: its result is worked out once for every seat that looks at it.
        over = self._over
        if over is None or over[0] is not state:
            from greenlight.games.movie_empire.scoring import final_breakdowns, rank

            result = rank(final_breakdowns(state))
            figures = [
                (1.0 if other in result.winners else 0.0, clip01((score + 20.0) / 120.0)) for other, score in enumerate(result.scores)
            ]
            over = self._over = (state, figures)
        start = self.at["final"]
        for other, (won, score) in enumerate(over[1]):
            base = start + (other - seat) % self.n * 2
            out[base] = won
            out[base + 1] = score


ENCODING = MovieEmpireEncoding()


# -- chance, for the OpenSpiel adapter (greenlight.rl.openspiel) ---------------------------------------------------
# Every random event after the deal is a shuffle (§2, §4.10: a pile made again from its discards, the setup
# decks), each drawn from its own stream seeded by (rng_seed, shuffles so far). The adapter puts a chance node
# before a move whose rules shuffle, and in its sampled mode gives the shuffles of that move a fresh seed:
# the same uniform shuffles (determinize redraws them the same way), so the rules and records are untouched.


def chance_mark(state: MovieEmpireState) -> int:
    """What changes exactly when the rules draw randomness: the number of shuffles so far."""
    return state.rng_uses


def reseed(state: MovieEmpireState, seed: int) -> None:
    """Draw the shuffles from now on from ``seed`` (as ``determinize`` redraws a world's future)."""
    state.rng_seed, state.rng_uses = seed, 0
