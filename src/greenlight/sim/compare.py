"""A/B comparison of two studies of the same game: what changed, in words first, then every number with its test.

Study A is the baseline, study B the change (another card file, an option, a
rule parameter); differences are B - A. The numbers compared:

* win share by **seat position** (and by place in the **turn order** at the
  start, for a game whose first player is not seat 0) and **per bot**;
* **mean score per bot**, **game length**, every numeric **score category**
  and every per-game and per-seat **statistic** of the game;
* per **card** and per **card type**, for every action the game counts
  (taken, laid, released, ...): how often per game, and the win share of the
  seats that did it (its ratio to parity is the lift).

**Paired or independent.** Two studies with the same seed, line-up and
games replay the same deals with the same bot seeds (common random numbers):
game *i* of A and game *i* of B differ only by the change. Their numbers are
then compared game by game (a paired t-test on the per-game differences),
which removes the deal's luck from the comparison and finds smaller effects
with the same games. Otherwise shares are compared with a pooled
two-proportion z-test and means with Welch's t-test. The win share of the
seats that did something with a card is always compared as two proportions
(different seats do it in A and B).

**Multiple tests.** With hundreds of numbers a few raw p-values fall under
0.05 by chance, so p-values are Holm-adjusted within three families: what
the designer **changed** (the cards and card types whose data differ: the
question asked), the **main** numbers (positions, bots, length, score
categories, statistics) and the other **cards** and types (exploratory).
Numbers that measure the same thing (their per-game values are exact
multiples of each other in both studies: points from premieres in the score
and in the statistics, movies released and scripts released) count once:
they share one test in the adjustment and the summary names them together.
The win share of the seats that did something with a card fewer than
:data:`~greenlight.sim.summary.RARE_SEAT_GAMES` seats did in either study is
**too rare to judge**: it is shown, not tested (how often the card is played
is measured over every game, so it is always tested).

Studies of different games or player counts are refused (parity differs);
different bots, rules versions or game counts are compared with a warning.
The summary (:mod:`greenlight.sim.verdict`) opens the page: what differs
between the studies, what changed significantly with effect sizes and
intervals, and what did not.
"""

from __future__ import annotations

import html
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.game import Game
from greenlight.core.registry import get_game
from greenlight.sim.datafiles import DataChange, data_changes, path_options
from greenlight.sim.gamestats import GameNotes, game_notes
from greenlight.sim.report import STYLE, html_table, pyplot
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import (
    bot_game_shares,
    holm_adjust,
    mean,
    normal_interval,
    paired_t_test,
    proportion_difference_interval,
    seat_at_place,
    start_order,
    two_proportion_z_test,
    welch_interval,
    welch_t_test,
    wilson_interval,
)
from greenlight.sim.summary import RARE_SEAT_GAMES, flat_breakdown

COMPARE_HTML = "compare.html"
COMPARE_JSON = "compare.json"
COMPARE_PLOTS = ("compare_positions.png", "compare_bots.png", "compare_changes.png", "compare_effects.png")
#: A difference is called significant below this p-value (after Holm's adjustment).
ALPHA = 0.05
CHANGED, MAIN, CARDS, RARE = "changed", "main", "cards", "rare"
#: The families Holm's adjustment runs within (rare measures are not tested).
FAMILIES = (CHANGED, MAIN, CARDS)


@dataclass(slots=True)
class Headline:
    """One number measured in both studies, and the test of whether it differs."""

    section: str
    name: str
    test: str
    a: float
    b: float
    a_ci: tuple[float, float]
    b_ci: tuple[float, float]
    n_a: int
    n_b: int
    p_value: float
    #: Cohen's d for means (None for proportions).
    effect: float | None = None
    p_holm: float = 1.0
    #: 95% interval of B - A.
    difference_ci: tuple[float, float] = (0.0, 0.0)
    #: The number in words (``Benny Crumb taken per game``); ``name`` is its key.
    label: str = ""
    #: ``share`` (a win share, 0 to 1) or ``mean``.
    kind: str = "mean"
    #: :data:`CHANGED`, :data:`MAIN`, :data:`CARDS` (the Holm family) or :data:`RARE` (not tested).
    family: str = MAIN
    #: True for a card or type whose data differ between the studies.
    changed: bool = False
    #: True for a card measure too rare (few game-seats) to judge.
    rare: bool = False
    #: Labels of other numbers that measure the same thing (counted once with this one).
    also: list[str] = field(default_factory=list)
    #: The card or type a card measure is about (its key in the cards table), else None.
    subject: str | None = None

    @property
    def difference(self) -> float:
        """B - A."""
        return self.b - self.a

    @property
    def significant(self) -> bool:
        """Significant after Holm's adjustment."""
        return self.p_holm < ALPHA

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "section": self.section,
            "name": self.name,
            "label": self.label or self.name,
            "kind": self.kind,
            "family": self.family,
            "changed": self.changed,
            "rare": self.rare,
            "test": self.test,
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "difference_ci95": list(self.difference_ci),
            "a_ci95": list(self.a_ci),
            "b_ci95": list(self.b_ci),
            "n_a": self.n_a,
            "n_b": self.n_b,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.p_value < ALPHA,
            "significant_holm": self.p_holm < ALPHA,
            "effect_size": self.effect,
            "also": list(self.also),
            "subject": self.subject,
        }


def proportion_headline(section: str, name: str, a: Sequence[float], b: Sequence[float]) -> Headline:
    """Compare two independent samples of shares in [0, 1] (one per game or seat) as proportions.

    >>> item = proportion_headline("bots", "x", [1, 0, 1, 1], [0, 0, 1, 0])
    >>> item.a, item.b, round(item.p_value, 4)
    (0.75, 0.25, 0.1573)
    """
    return Headline(
        section,
        name,
        "two-proportion z",
        mean(a),
        mean(b),
        wilson_interval(sum(a), len(a)),
        wilson_interval(sum(b), len(b)),
        len(a),
        len(b),
        two_proportion_z_test(sum(a), len(a), sum(b), len(b)),
        difference_ci=proportion_difference_interval(sum(a), len(a), sum(b), len(b)),
        kind="share",
    )


def _sd(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((value - centre) ** 2 for value in values) / (len(values) - 1))


def _cohen_d(a: Sequence[float], b: Sequence[float]) -> float | None:
    pooled = math.sqrt(((len(a) - 1) * _sd(a) ** 2 + (len(b) - 1) * _sd(b) ** 2) / max(1, len(a) + len(b) - 2))
    return (mean(b) - mean(a)) / pooled if pooled > 0 else None


def mean_headline(section: str, name: str, a: Sequence[float], b: Sequence[float]) -> Headline:
    """Compare two independent samples' means with Welch's t-test and Cohen's d.

    >>> item = mean_headline("length", "actions", [1, 2, 3, 4], [3, 4, 5, 6, 7])
    >>> item.difference, round(item.p_value, 4), round(item.effect or 0, 3)
    (2.5, 0.0349, 1.708)
    """
    return Headline(
        section,
        name,
        "Welch t",
        mean(a),
        mean(b),
        normal_interval(a),
        normal_interval(b),
        len(a),
        len(b),
        welch_t_test(a, b),
        _cohen_d(a, b),
        difference_ci=welch_interval(a, b),
    )


def paired_headline(section: str, name: str, pairs: Sequence[tuple[float, float]], kind: str = "mean") -> Headline:
    """Compare the same games played in both studies: a paired t-test on the per-game differences (B - A).

    >>> item = paired_headline("length", "actions", [(10, 11), (20, 22), (30, 31), (15, 17)])
    >>> item.difference, round(item.p_value, 4), item.test
    (1.5, 0.0138, 'paired t')
    """
    a = [first for first, _ in pairs]
    b = [second for _, second in pairs]
    p_value, interval = paired_t_test([second - first for first, second in pairs])
    share = kind == "share"
    return Headline(
        section,
        name,
        "paired t",
        mean(a),
        mean(b),
        wilson_interval(sum(a), len(a)) if share else normal_interval(a),
        wilson_interval(sum(b), len(b)) if share else normal_interval(b),
        len(a),
        len(b),
        p_value,
        None if share else _cohen_d(a, b),
        difference_ci=interval,
        kind=kind,
    )


# -- what is measured ------------------------------------------------------------------------------------------


#: A measure's value in one game (None: it does not apply to that game).
PerGame = Callable[[GameResult], float | None]
#: A measure's sample for an independent test (one value per game or per seat).
Sample = Callable[[Sequence[GameResult]], list[float]]


@dataclass(slots=True)
class Measure:
    """One number compared: how to read it per game (for pairing and duplicates) and as a sample (independent test)."""

    section: str
    name: str
    label: str
    kind: str
    per_game: PerGame
    sample: Sample
    family: str = MAIN
    changed: bool = False
    subject: str | None = None


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _mean_or_none(values: Iterable[float | None]) -> float | None:
    numbers = [value for value in values if value is not None]
    return mean(numbers) if numbers else None


def _seat_values(read: Callable[[GameResult, int], Mapping[str, Any]], key: str) -> tuple[PerGame, Sample]:
    def per_game(row: GameResult) -> float | None:
        return _mean_or_none(_number(read(row, seat).get(key)) for seat in range(row.num_players))

    def sample(rows: Sequence[GameResult]) -> list[float]:
        return [value for row in rows for seat in range(row.num_players) if (value := _number(read(row, seat).get(key))) is not None]

    return per_game, sample


def _games(per_game: PerGame) -> Sample:
    return lambda rows: [value for row in rows if (value := per_game(row)) is not None]


def _breakdown(row: GameResult, seat: int) -> Mapping[str, Any]:
    return flat_breakdown(row.breakdown[seat])


def _seat_stats(row: GameResult, seat: int) -> Mapping[str, Any]:
    seats = (row.stats or {}).get("seats") or []
    return seats[seat] if seat < len(seats) else {}


def _game_stats(row: GameResult) -> Mapping[str, Any]:
    return (row.stats or {}).get("game") or {}


def _keys(rows: Iterable[GameResult], read: Callable[[GameResult], Iterable[str]]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in read(row)))


def _seat_keys(read: Callable[[GameResult, int], Mapping[str, Any]]) -> Callable[[GameResult], Iterable[str]]:
    def keys(row: GameResult) -> Iterable[str]:
        return (name for seat in range(row.num_players) for name in read(row, seat))

    return keys


def _seat_share(seat: int) -> PerGame:
    def read(row: GameResult) -> float | None:
        return row.returns[seat]

    return read


def _place_share(place: int) -> PerGame:
    def read(row: GameResult) -> float | None:
        return row.returns[seat_at_place(row, place)]

    return read


def _game_statistic(key: str) -> PerGame:
    def read(row: GameResult) -> float | None:
        return _number(_game_stats(row).get(key))

    return read


def _length(row: GameResult) -> float | None:
    return float(row.length)


def _bot_measures(bot: str) -> list[Measure]:
    def share(row: GameResult) -> float | None:
        mine = [value for name, value in zip(row.bots, row.returns, strict=True) if name == bot]
        return sum(mine) / len(mine) if mine else None

    def shares(rows: Sequence[GameResult]) -> list[float]:
        return bot_game_shares(rows, bot)

    def score(row: GameResult) -> float | None:
        return _mean_or_none(row.scores[seat] for seat, name in enumerate(row.bots) if name == bot)

    def scores(rows: Sequence[GameResult]) -> list[float]:
        return [row.scores[seat] for row in rows for seat, name in enumerate(row.bots) if name == bot]

    return [
        Measure("bot", f"{bot} win share", f"{bot}'s win share", "share", share, shares),
        Measure("bot", f"{bot} mean score", f"{bot}'s mean score", "mean", score, scores),
    ]


def headline_measures(a: Sequence[GameResult], b: Sequence[GameResult], notes: GameNotes | None = None) -> list[Measure]:
    """Every headline number both studies have: positions, turn order, bots, length, score categories, statistics."""
    notes = notes or GameNotes()
    measures: list[Measure] = []
    seats = min(row.num_players for row in (*a, *b))
    for seat in range(seats):
        per_game = _seat_share(seat)
        measures.append(Measure("seat position", f"seat {seat} win share", f"seat {seat}'s win share", "share", per_game, _games(per_game)))
    if all(start_order(row) is not None for row in (*a, *b)) and any(start_order(row) != list(range(row.num_players)) for row in a):
        for place in range(seats):
            per_game = _place_share(place)
            words = "the first player's" if place == 0 else f"the player {_ordinal(place + 1)} in turn order's"
            measures.append(Measure("turn order", f"turn {place} win share", f"{words} win share", "share", per_game, _games(per_game)))
    bots_b = {name for row in b for name in row.bots}
    for bot in (name for name in dict.fromkeys(name for row in a for name in row.bots) if name in bots_b):
        measures.extend(_bot_measures(bot))
    measures.append(Measure("game length", "actions per game", "game length in actions", "mean", _length, _games(_length)))
    for section, read in (("score breakdown", _breakdown), ("seat statistic", _seat_stats)):
        keys_b = set(_keys(b, _seat_keys(read)))
        for key in _keys(a, _seat_keys(read)):
            if key not in keys_b:
                continue
            per_game, sample = _seat_values(read, key)
            if sample(a) and sample(b):
                measures.append(Measure(section, key, notes.label(key) + " per seat", "mean", per_game, sample))
    keys_b = set(_keys(b, _game_stats))
    for key in _keys(a, _game_stats):
        if key not in keys_b:
            continue
        per_game = _game_statistic(key)
        if _games(per_game)(a) and _games(per_game)(b):
            measures.append(Measure("game statistic", key, notes.label(key) + " per game", "mean", per_game, _games(per_game)))
    return measures


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


# -- cards --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class CardCounts:
    """One study's card rows by (by, action, card or type): times per game, and the win shares of the seats that did it."""

    #: ``(by, action, name) -> {game index: times}``
    times: dict[tuple[str, str, str], dict[int, int]] = field(default_factory=dict)
    #: ``(by, action, name) -> {(game index, seat): share}``
    shares: dict[tuple[str, str, str], dict[tuple[int, int], float]] = field(default_factory=dict)
    #: card -> type
    types: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Iterable[Mapping[str, Any]]) -> CardCounts:
        """Count a cards table (:mod:`greenlight.sim.rows`)."""
        counts = cls()
        for row in rows:
            action, card, kind = str(row["action"]), str(row["card"]), str(row["type"])
            counts.types.setdefault(card, kind)
            index, seat = int(row["index"]), int(row["seat"])
            for key in (("card", action, card), ("type", action, kind)):
                per_game = counts.times.setdefault(key, {})
                per_game[index] = per_game.get(index, 0) + int(row["count"])
                counts.shares.setdefault(key, {})[(index, seat)] = float(row["share"])
        return counts


@dataclass(frozen=True, slots=True)
class CardSubject:
    """One (card or type, action) the comparison looks at: its key in :class:`CardCounts`, its words, its family."""

    by: str
    #: The action in words (``in the Studio at the end``).
    action: str
    name: str
    words: str
    changed: bool
    #: The action as the statistics name it (``studio_at_end``).
    code: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        """The key in :class:`CardCounts`."""
        return (self.by, self.code or self.action, self.name)

    def label(self, headline: Headline, measure: str) -> None:
        """Name ``headline`` (``times`` per game, or the ``share`` of the seats that did it) and file it in its family."""
        if measure == "times":
            headline.label = f"{self.words}: {self.action} per game"
        else:
            headline.label = f"{self.words}: win share when {self.action}"
        headline.family = CHANGED if self.changed else CARDS
        headline.changed = self.changed
        headline.subject = self.name


def card_subjects(
    a: CardCounts,
    b: CardCounts,
    titles: Mapping[str, str],
    changed_cards: frozenset[str] = frozenset(),
    changed_types: frozenset[str] = frozenset(),
    notes: GameNotes | None = None,
) -> list[CardSubject]:
    """Every (type or card, action) either study counted: types first, then cards, each by action."""
    subjects = []
    for by, action, name in sorted(set(a.times) | set(b.times), key=lambda key: (key[0] != "type", key[1], key[2])):
        words = (notes or GameNotes()).action(action)
        if by == "card":
            subjects.append(CardSubject(by, words, name, titles.get(name, name), name in changed_cards, action))
        else:
            subjects.append(CardSubject(by, words, name, f"{name} cards", name in changed_types, action))
    return subjects


# -- the comparison -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class StudySide:
    """One side of a comparison: the study's games, its card rows, its manifest and its data snapshot."""

    name: str
    results: Sequence[GameResult]
    cards: Iterable[Mapping[str, Any]] | None = None
    manifest: Mapping[str, Any] | None = None
    data: Mapping[str, Any] | None = None

    @property
    def description(self) -> str:
        """One line naming the study (see :func:`describe_study`)."""
        return describe_study(self.manifest) if self.manifest else self.name


@dataclass(slots=True)
class Comparison:
    """Everything a comparison found: its numbers, whether it was paired, what differs between the studies, warnings."""

    names: tuple[str, str]
    descriptions: tuple[str, str]
    headlines: list[Headline]
    paired: bool
    games: tuple[int, int]
    changes: list[DataChange]
    settings: list[str]
    warnings: list[str]
    bots: tuple[tuple[str, ...], tuple[str, ...]]
    notes: GameNotes = field(default_factory=GameNotes)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``compare.json``)."""
        return {
            "a": {"name": self.names[0], "study": self.descriptions[0], "games": self.games[0], "bots": list(self.bots[0])},
            "b": {"name": self.names[1], "study": self.descriptions[1], "games": self.games[1], "bots": list(self.bots[1])},
            "alpha": ALPHA,
            "paired": self.paired,
            "changes": [change.to_json() for change in self.changes],
            "settings": list(self.settings),
            "warnings": list(self.warnings),
            "headlines": [item.to_json() for item in self.headlines],
        }


def is_paired(a: Sequence[GameResult], b: Sequence[GameResult]) -> bool:
    """Whether game i of A and game i of B are the same deal with the same bots and bot seeds, for every game."""
    return len(a) == len(b) and all(
        (x.index, x.seed, x.bots, x.bot_seeds, x.num_players) == (y.index, y.seed, y.bots, y.bot_seeds, y.num_players)
        for x, y in zip(a, b, strict=True)
    )


def _test(measure: Measure, a: Sequence[GameResult], b: Sequence[GameResult], paired: bool) -> Headline:
    if paired:
        pairs = [
            (x, y)
            for row_a, row_b in zip(a, b, strict=True)
            if (x := measure.per_game(row_a)) is not None and (y := measure.per_game(row_b)) is not None
        ]
        headline = paired_headline(measure.section, measure.name, pairs, measure.kind)
    elif measure.kind == "share":
        headline = proportion_headline(measure.section, measure.name, measure.sample(a), measure.sample(b))
    else:
        headline = mean_headline(measure.section, measure.name, measure.sample(a), measure.sample(b))
    headline.label, headline.family, headline.changed, headline.subject = measure.label, measure.family, measure.changed, measure.subject
    return headline


def _signature(values: Sequence[float | None]) -> tuple[float, ...] | None:
    """The shape of a per-game vector up to scale and offset (two measures that are exact multiples share it)."""
    if any(value is None for value in values) or len(values) < 3:
        return None
    numbers = [float(value) for value in values if value is not None]
    centre = mean(numbers)
    centred = [value - centre for value in numbers]
    norm = math.sqrt(sum(value * value for value in centred))
    if norm < 1e-12:
        return None
    scaled = [value / norm for value in centred]
    sign = next((1.0 if value > 0 else -1.0 for value in scaled if abs(value) > 1e-9), 1.0)
    return tuple(round(sign * value, 9) for value in scaled)


def _adjust(headlines: Sequence[Headline], groups: Sequence[int]) -> None:
    """Holm within each family, each group of duplicates counted once (its smallest p-value); rare measures are not tested."""
    for headline in headlines:
        if headline.rare:
            headline.family, headline.p_holm = RARE, 1.0
    for family in FAMILIES:
        members: dict[int, list[Headline]] = defaultdict(list)
        for headline, group in zip(headlines, groups, strict=True):
            if headline.family == family:
                members[group].append(headline)
        keys = list(members)
        adjusted = holm_adjust([min(item.p_value for item in members[key]) for key in keys])
        for key, value in zip(keys, adjusted, strict=True):
            for item in members[key]:
                item.p_holm = value


def compare_results(
    a: Sequence[GameResult],
    b: Sequence[GameResult],
    cards: tuple[Iterable[Mapping[str, Any]] | None, Iterable[Mapping[str, Any]] | None] = (None, None),
    titles: Mapping[str, str] | None = None,
    changed_cards: frozenset[str] = frozenset(),
    changed_types: frozenset[str] = frozenset(),
    notes: GameNotes | None = None,
) -> list[Headline]:
    """Every number of the module docstring, tested (paired when the studies replay the same games), Holm-adjusted.

    ``cards`` holds both studies' card rows (per-card effects are left out without them).
    """
    if not a or not b:
        raise OptionError("both studies need at least one game to compare")
    if a[0].game != b[0].game:
        raise OptionError(f"cannot compare a study of {a[0].game} with one of {b[0].game}")
    players_a, players_b = {row.num_players for row in a}, {row.num_players for row in b}
    if players_a != players_b:
        counts = " and ".join(", ".join(str(n) for n in sorted(side)) for side in (players_a, players_b))
        raise OptionError(f"cannot compare studies of {counts} players: parity and every win share differ; compare one player count")
    paired = is_paired(a, b)
    measures = headline_measures(a, b, notes)
    vectors: list[tuple[list[float | None], list[float | None]]] = [
        ([m.per_game(row) for row in a], [m.per_game(row) for row in b]) for m in measures
    ]
    headlines = [_test(measure, a, b, paired) for measure in measures]
    if cards[0] is not None and cards[1] is not None:
        counts_a, counts_b = CardCounts.of(cards[0]), CardCounts.of(cards[1])
        for subject in card_subjects(counts_a, counts_b, titles or {}, changed_cards, changed_types, notes):
            section = "card" if subject.by == "card" else "card type"
            per_a, per_b = counts_a.times.get(subject.key, {}), counts_b.times.get(subject.key, {})
            values_a = [float(per_a.get(row.index, 0)) for row in a]
            values_b = [float(per_b.get(row.index, 0)) for row in b]
            name = f"{subject.by} {subject.name}: {subject.code}"
            if paired:
                times = paired_headline(section, f"{name} per game", list(zip(values_a, values_b, strict=True)))
            else:
                times = mean_headline(section, f"{name} per game", values_a, values_b)
            subject.label(times, "times")
            headlines.append(times)
            vectors.append((list(values_a), list(values_b)))
            seats_a = list(counts_a.shares.get(subject.key, {}).values())
            seats_b = list(counts_b.shares.get(subject.key, {}).values())
            if seats_a and seats_b:
                share = proportion_headline(section, f"{name} win share", seats_a, seats_b)
                subject.label(share, "share")
                share.rare = min(len(seats_a), len(seats_b)) < RARE_SEAT_GAMES  # how often is measured over every game
                headlines.append(share)
                vectors.append(([None], [None]))
    groups = _duplicate_groups(headlines, vectors)
    _adjust(headlines, groups)
    return headlines


def _duplicate_groups(headlines: list[Headline], vectors: Sequence[tuple[Sequence[float | None], Sequence[float | None]]]) -> list[int]:
    """A group number per headline: numbers whose per-game values are exact multiples in both studies share one."""
    groups: list[int] = []
    seen: dict[tuple[tuple[float, ...], tuple[float, ...]], int] = {}
    first: dict[int, Headline] = {}
    for number, (headline, (values_a, values_b)) in enumerate(zip(headlines, vectors, strict=True)):
        signature_a, signature_b = _signature(values_a), _signature(values_b)
        if signature_a is None or signature_b is None:
            groups.append(number)
            continue
        key = (signature_a, signature_b)
        group = seen.setdefault(key, number)
        groups.append(group)
        if group == number:
            first[group] = headline
        else:
            leader = first[group]
            leader.also.append(headline.label or headline.name)
            headline.also.append(leader.label or leader.name)
            if FAMILIES.index(headline.family) < FAMILIES.index(leader.family):
                leader.family = headline.family
    # A group is tested in the first family any member belongs to.
    for number, headline in enumerate(headlines):
        found = first.get(groups[number])
        if found is not None:
            headline.family = found.family
    return groups


def describe_study(manifest: Mapping[str, Any]) -> str:
    """One line naming a study: bots, games, seed, non-default options and data files."""
    study = manifest["study"]
    options = ", ".join(
        f"{name}={value}" for name, value in study["options"].items() if value not in (None, False) and name not in study["data"]
    )
    data = ", ".join(f"{name}={study['options'][name]} (sha256 {digest[:12]})" for name, digest in study["data"].items())
    extras = "; ".join(part for part in (options, data) if part) or "defaults, bundled data"
    seats = ", ".join(study["lineup"])
    return f"{study['game']}, {study['num_players']} players, {seats}, {study['games']} games, seed {study['seed']}; {extras}"


def _settings_changes(game: Game[Any], a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> list[str]:
    """Options (and rule parameters) that differ between two manifests, in words."""
    if not a or not b:
        return []
    options_a, options_b = a["study"]["options"], b["study"]["options"]
    paths = set(path_options(game))
    words = []
    for name in dict.fromkeys([*options_a, *options_b]):
        if name in paths:
            if a["study"]["data"].get(name) != b["study"]["data"].get(name):
                words.append(f"The data files: {options_a.get(name) or 'bundled'} in A, {options_b.get(name) or 'bundled'} in B.")
            continue
        if options_a.get(name) != options_b.get(name):
            words.append(f"Option {name}: {_option_words(options_a.get(name))} in A, {_option_words(options_b.get(name))} in B.")
    return words


def _option_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "not set" if value is None else str(value)


def compare_studies(a: StudySide, b: StudySide) -> Comparison:
    """Compare two studies (module docstring): what differs between them, every number tested, and warnings."""
    if not a.results or not b.results:
        raise OptionError("both studies need at least one game to compare")
    game = get_game(a.results[0].game)
    notes = game_notes(game)
    changes = data_changes(game, a.data, b.data) if a.data is not None and b.data is not None else []
    changed_cards = frozenset(change.card for change in changes)
    changed_types = frozenset(change.kind for change in changes if change.kind is not None)
    titles = {**((b.data or {}).get("titles") or {}), **((a.data or {}).get("titles") or {})}  # a card keeps its name in A
    headlines = compare_results(a.results, b.results, (a.cards, b.cards), titles, changed_cards, changed_types, notes)
    lineup_a = tuple(a.manifest["study"]["lineup"]) if a.manifest else tuple(a.results[0].bots)
    lineup_b = tuple(b.manifest["study"]["lineup"]) if b.manifest else tuple(b.results[0].bots)
    warnings = []
    if sorted(lineup_a) != sorted(lineup_b):
        warnings.append(
            f"The studies were played by different bots (A: {', '.join(lineup_a)}; B: {', '.join(lineup_b)}): "
            "a difference may come from the bots rather than from the change; only the bots both studies have are compared."
        )
    if a.manifest and b.manifest and a.manifest["study"].get("version") != b.manifest["study"].get("version"):
        warnings.append(
            f"The studies were played under different rules versions ({a.manifest['study'].get('version')} and "
            f"{b.manifest['study'].get('version')}): rules changes mix with your change."
        )
    if len(a.results) != len(b.results):
        warnings.append(f"The studies have different numbers of games ({len(a.results)} and {len(b.results)}), so they cannot be paired.")
    elif not is_paired(a.results, b.results):
        warnings.append(
            "The studies do not replay the same deals (different seeds or bot seeds), so they are compared as independent samples; "
            "give both the same --seed, bots and --games to compare game by game and see smaller effects."
        )
    if a.data is not None and b.data is not None and not changes and _settings_changes(game, a.manifest, b.manifest) == []:
        warnings.append("The two studies' data and options are the same: any difference is chance (or the bots).")
    return Comparison(
        names=(a.name, b.name),
        descriptions=(a.description, b.description),
        headlines=headlines,
        paired=is_paired(a.results, b.results),
        games=(len(a.results), len(b.results)),
        changes=changes,
        settings=_settings_changes(game, a.manifest, b.manifest),
        warnings=warnings,
        bots=(lineup_a, lineup_b),
        notes=notes,
    )


# -- plots and the page ---------------------------------------------------------------------------------------


def _grouped_bars(axis: Any, labels: Sequence[str], items: Sequence[Headline], names: tuple[str, str]) -> None:
    width = 0.38
    for offset, (label, value, interval, colour) in enumerate(((names[0], "a", "a_ci", "#4c72b0"), (names[1], "b", "b_ci", "#dd8452"))):
        values = [getattr(item, value) for item in items]
        low = [max(0.0, v - getattr(item, interval)[0]) for v, item in zip(values, items, strict=True)]
        high = [max(0.0, getattr(item, interval)[1] - v) for v, item in zip(values, items, strict=True)]
        positions = [index + (offset - 0.5) * width for index in range(len(items))]
        axis.bar(positions, values, width, yerr=[low, high], capsize=3, label=label, color=colour)
    axis.set_xticks(range(len(items)), labels)
    axis.legend()


def _short(name: str, limit: int = 26) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def featured(headlines: Sequence[Headline]) -> list[Headline]:
    """The numbers the summary and its plot lead with: changed cards and types first, then every significant number."""
    chosen = [item for item in headlines if item.changed and not item.rare]
    chosen += [item for item in headlines if item.significant and item not in chosen and not item.rare]
    return chosen


def plot_comparison(headlines: Sequence[Headline], names: tuple[str, str], folder: Path) -> list[Path]:
    """Seat positions and bots side by side; what changed (relative change with interval); effect sizes of means."""
    plt = pyplot()
    files = [folder / name for name in COMPARE_PLOTS]
    positions = [item for item in headlines if item.section in ("seat position", "turn order")]
    figure, axis = plt.subplots(figsize=(8, 3.8))
    _grouped_bars(axis, [item.name.replace(" win share", "").replace("turn ", "turn order ") for item in positions], positions, names)
    axis.set_ylabel("win share (95% CI)")
    axis.set_title("Win share by seat position: A vs B")
    figure.tight_layout()
    figure.savefig(files[0], dpi=90)
    plt.close(figure)
    shares = [item for item in headlines if item.section == "bot" and item.name.endswith("win share")]
    scores = [item for item in headlines if item.section == "bot" and item.name.endswith("mean score")]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    _grouped_bars(left, [item.name.removesuffix(" win share") for item in shares], shares, names)
    left.set_title("Win share per bot")
    _grouped_bars(right, [item.name.removesuffix(" mean score") for item in scores], scores, names)
    right.set_title("Mean score per bot")
    figure.tight_layout()
    figure.savefig(files[1], dpi=90)
    plt.close(figure)
    chosen = featured(headlines)[:30]
    figure, axis = plt.subplots(figsize=(9, 0.32 * len(chosen) + 1.6))
    if chosen:
        labels = [_short(item.label or item.name, 48) for item in chosen][::-1]
        centre, low, high = [], [], []
        for item in chosen[::-1]:
            scale = 100.0 if item.kind == "share" else (100.0 / abs(item.a) if item.a else 0.0)
            centre.append(item.difference * scale)
            low.append(max(0.0, (item.difference - item.difference_ci[0]) * scale))
            high.append(max(0.0, (item.difference_ci[1] - item.difference) * scale))
        colours = ["#c44e52" if item.significant else "#999999" for item in chosen[::-1]]
        axis.barh(labels, centre, xerr=[low, high], color=colours, capsize=3)
        axis.axvline(0, color="black", linewidth=1)
        axis.set_xlabel("B - A: points of win share, or % of A for other numbers (95% CI); red: significant")
        axis.tick_params(labelsize=8)
    else:
        axis.axis("off")
        axis.text(0.5, 0.5, "nothing changed significantly, and no card's data changed", ha="center", va="center")
    axis.set_title("What changed")
    figure.tight_layout()
    figure.savefig(files[2], dpi=90)
    plt.close(figure)
    effects = [item for item in headlines if item.effect is not None and item.family == MAIN]
    figure, axis = plt.subplots(figsize=(8, 0.28 * len(effects) + 1.5))
    labels = [_short(item.label or item.name, 48) for item in effects][::-1]
    colours = ["#c44e52" if item.p_holm < ALPHA else "#dd8452" if item.p_value < ALPHA else "#999999" for item in effects][::-1]
    axis.barh(labels, [item.effect or 0.0 for item in effects][::-1], color=colours)
    axis.axvline(0, color="black", linewidth=1)
    axis.set_xlabel("effect size B - A (Cohen's d); red: significant after Holm, orange: p < 0.05 only")
    axis.tick_params(labelsize=7)
    figure.tight_layout()
    figure.savefig(files[3], dpi=90)
    plt.close(figure)
    return files


def _row(item: Headline) -> list[str]:
    css = ("high" if item.difference > 0 else "low") if item.significant else ""
    digits = 3
    return [
        html.escape(item.section),
        html.escape(item.label or item.name)
        + (" <span class='note'>(also " + html.escape(", ".join(item.also)) + ")</span>" if item.also else ""),
        f"{item.a:.{digits}f} ({item.a_ci[0]:.{digits}f} - {item.a_ci[1]:.{digits}f})",
        f"{item.b:.{digits}f} ({item.b_ci[0]:.{digits}f} - {item.b_ci[1]:.{digits}f})",
        f'<span class="{css}">{item.difference:+.{digits}f}</span>',
        f"{item.difference_ci[0]:+.{digits}f} to {item.difference_ci[1]:+.{digits}f}",
        html.escape(item.test),
        f"{item.p_value:.4f}",
        f"{item.p_holm:.4f}",
        f"{item.effect:+.2f}" if item.effect is not None else "-",
    ]


_HEADER = ["section", "number", "A (95% CI)", "B (95% CI)", "B - A", "95% CI of B - A", "test", "p", "p (Holm)", "effect d"]


def comparison_html(comparison: Comparison) -> str:
    """The comparison page: the summary in words, the plots, then every number (plots referenced by :data:`COMPARE_PLOTS`)."""
    from greenlight.sim.verdict import verdict_html

    names = comparison.names
    title = f"A/B: {names[0]} vs {names[1]}"
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>"
    ]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    parts.append(verdict_html(comparison))
    parts.append("<h2>Plots</h2>")
    for name, alt in zip(
        COMPARE_PLOTS,
        ("win share by seat position, A and B", "win share and score per bot, A and B", "what changed, with intervals", "effect sizes"),
        strict=True,
    ):
        parts.append(f'<p><img src="{name}" alt="{html.escape(alt)}"></p>')
    parts.append("<h2>Every number</h2>")
    parts.append(
        html_table(
            ["", "study"],
            [
                [f"A: {html.escape(names[0])}", html.escape(comparison.descriptions[0])],
                [f"B: {html.escape(names[1])}", html.escape(comparison.descriptions[1])],
            ],
        )
    )
    test = "paired t-tests over the same games" if comparison.paired else "two-proportion z-tests for shares, Welch's t-tests for means"
    parts.append(
        f"<p class='note'>Differences are B - A, tested with {test}. p (Holm) is adjusted within each family (the cards whose data "
        "changed; the main numbers; the other cards); numbers that measure the same thing count once; cards too rare to judge are "
        "not tested. Green/red: significant (p &lt; 0.05) after Holm.</p>"
    )
    main = [item for item in comparison.headlines if item.family in (CHANGED, MAIN)]
    parts.append(html_table(_HEADER, [_row(item) for item in main]))
    cards = sorted((item for item in comparison.headlines if item.family in (CARDS, RARE)), key=lambda item: (item.rare, item.p_value))
    if cards:
        parts.append(f"<details><summary>Every other card and card type ({len(cards)} numbers, exploratory)</summary>")
        rows = []
        for item in cards:
            cells = _row(item)
            if item.rare:
                cells[1] = f"<span class='rare'>{cells[1]} (rare: {min(item.n_a, item.n_b)} game-seats)</span>"
            rows.append(cells)
        parts.append(html_table(_HEADER, rows))
        parts.append("</details>")
    parts.append("</main></body></html>")
    return "\n".join(parts)


def write_study_comparison(out: str | Path, a: StudySide, b: StudySide) -> tuple[Comparison, list[Path]]:
    """Compare two studies, then write ``compare.json``, ``compare.html`` and its plots into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    comparison = compare_studies(a, b)
    plots = plot_comparison(comparison.headlines, comparison.names, folder)
    (folder / COMPARE_JSON).write_text(json.dumps(comparison.to_json(), indent=1) + "\n", encoding="utf-8")
    (folder / COMPARE_HTML).write_text(comparison_html(comparison), encoding="utf-8")
    return comparison, [*plots, folder / COMPARE_JSON, folder / COMPARE_HTML]


def write_comparison(
    out: str | Path,
    a: Sequence[GameResult],
    b: Sequence[GameResult],
    names: tuple[str, str],
    descriptions: tuple[str, str] = ("", ""),
) -> tuple[list[Headline], list[Path]]:
    """Compare two sets of result rows (no card rows, manifests or data) and write the page; return the headlines and files."""
    comparison, files = write_study_comparison(out, StudySide(names[0], a), StudySide(names[1], b))
    comparison.descriptions = (descriptions[0] or names[0], descriptions[1] or names[1])
    (Path(out) / COMPARE_JSON).write_text(json.dumps(comparison.to_json(), indent=1) + "\n", encoding="utf-8")
    (Path(out) / COMPARE_HTML).write_text(comparison_html(comparison), encoding="utf-8")
    return comparison.headlines, files
