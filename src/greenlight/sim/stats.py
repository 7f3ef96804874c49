"""Statistics over result rows: win shares with confidence intervals, mean scores and breakdowns, ratings.

All functions are pure Python over plain numbers or :class:`GameResult` rows,
so the arena and the simulation lab share them.

* **Win share** of a bot: in each game, the mean of its seats' returns (1/k
  for each of k tied winners, 0 for a loser); then the mean over games. The
  95% interval is Wilson's score interval over games, with a game's share
  counted as a fractional win. It is exact in spirit for one seat per game
  and conservative when a bot holds several seats (their results are
  negatively correlated within a game).
* **Ratings**: every game is split into pairwise results between seats held
  by different bots (better rank wins, equal rank is half a win each), and a
  Bradley-Terry model is fitted to them with Hunter's MM algorithm; one
  virtual drawn game per pair keeps ratings finite when one bot always wins.
  Ratings are shown on the Elo scale (400 log10 strength), mean 1500.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from greenlight.sim.runner import GameResult

Z95 = 1.959963984540054


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean (0 for no values).

    >>> mean([1, 2, 6])
    3.0
    """
    total, count = 0.0, 0
    for value in values:
        total += value
        count += 1
    return total / count if count else 0.0


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``successes`` may be fractional (split ties).

    >>> low, high = wilson_interval(60, 100)
    >>> round(low, 4), round(high, 4)
    (0.502, 0.6906)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for the mean of ``values`` (sample standard deviation).

    >>> [round(bound, 4) for bound in normal_interval([1.0, 3.0])]
    [0.04, 3.96]
    """
    count = len(values)
    centre = mean(values)
    if count < 2:
        return (centre, centre)
    variance = sum((value - centre) ** 2 for value in values) / (count - 1)
    half = z * math.sqrt(variance / count)
    return (centre - half, centre + half)


def bot_game_shares(rows: Iterable[GameResult], bot: str) -> list[float]:
    """Per game that ``bot`` played, the mean win share of its seats."""
    shares = []
    for row in rows:
        mine = [share for name, share in zip(row.bots, row.returns, strict=True) if name == bot]
        if mine:
            shares.append(sum(mine) / len(mine))
    return shares


def pairwise_results(rows: Iterable[GameResult]) -> dict[tuple[str, str], list[float]]:
    """``{(a, b): [wins of a, wins of b]}`` over seats of different bots, by rank (ties half each), with a < b.

    >>> from greenlight.sim.runner import GameResult
    >>> row = GameResult(0, "g", 3, 1, {}, ("x", "y", "y"), (1, 2, 3), (5, 9, 5), (2, 1, 2), (1,), (0, 1, 0), ({}, {}, {}), 10)
    >>> pairwise_results([row])
    {('x', 'y'): [0.5, 1.5]}
    """
    table: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        for first in range(row.num_players):
            for second in range(first + 1, row.num_players):
                a, b = row.bots[first], row.bots[second]
                if a == b:
                    continue
                rank_a, rank_b = row.ranks[first], row.ranks[second]
                if a > b:
                    a, b, rank_a, rank_b = b, a, rank_b, rank_a
                entry = table.setdefault((a, b), [0.0, 0.0])
                if rank_a < rank_b:
                    entry[0] += 1
                elif rank_b < rank_a:
                    entry[1] += 1
                else:
                    entry[0] += 0.5
                    entry[1] += 0.5
    return table


def bradley_terry(
    pairs: Mapping[tuple[str, str], Sequence[float]], prior: float = 0.5, iterations: int = 2000, tolerance: float = 1e-10
) -> dict[str, float]:
    """Bradley-Terry strengths (geometric mean 1) from pairwise wins, by Hunter's MM algorithm.

    ``prior`` adds that many virtual wins to each side of every pair that met.

    >>> strengths = bradley_terry({("a", "b"): [30, 10]})
    >>> round(strengths["a"] / strengths["b"], 3)
    2.905
    """
    names = sorted({name for pair in pairs for name in pair})
    wins: dict[str, float] = defaultdict(float)
    games: dict[tuple[str, str], float] = {}
    for (a, b), (wins_a, wins_b) in pairs.items():
        wins[a] += wins_a + prior
        wins[b] += wins_b + prior
        games[(a, b)] = games.get((a, b), 0.0) + wins_a + wins_b + 2 * prior
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        updated = {}
        for name in names:
            denominator = 0.0
            for (a, b), count in games.items():
                if name in (a, b):
                    denominator += count / (strength[a] + strength[b])
            updated[name] = wins[name] / denominator if denominator else strength[name]
        scale = math.exp(mean(math.log(value) for value in updated.values())) if updated else 1.0
        updated = {name: value / scale for name, value in updated.items()}
        change = max((abs(updated[name] - strength[name]) for name in names), default=0.0)
        strength = updated
        if change < tolerance:
            break
    return strength


def elo_ratings(strengths: Mapping[str, float], mean_rating: float = 1500.0) -> dict[str, float]:
    """Bradley-Terry strengths on the Elo scale, shifted so the mean rating is ``mean_rating``.

    >>> elo_ratings({"a": 10.0, "b": 1.0})
    {'a': 1700.0, 'b': 1300.0}
    """
    raw = {name: 400 * math.log10(value) for name, value in strengths.items()}
    shift = mean_rating - mean(raw.values())
    return {name: round(value + shift, 1) for name, value in raw.items()}


@dataclass(slots=True)
class BotSummary:
    """How one bot did over a set of games."""

    bot: str
    games: int
    seats: int
    win_share: float
    win_low: float
    win_high: float
    #: The win share of a bot exactly as good as the others (1 / players).
    parity: float
    mean_score: float
    score_low: float
    score_high: float
    #: Mean of each numeric breakdown field over the bot's seats.
    breakdown: dict[str, float]
    #: Counts of each text breakdown value (for example a status) over the bot's seats.
    labels: dict[str, dict[str, int]]
    #: Mean seconds per move with a real choice, the slowest move, search iterations per second.
    seconds_per_move: float
    max_seconds: float
    iterations_per_second: float
    elo: float | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bot": self.bot,
            "games": self.games,
            "seats": self.seats,
            "win_share": self.win_share,
            "win_share_ci95": [self.win_low, self.win_high],
            "parity": self.parity,
            "win_share_over_parity": self.win_share / self.parity if self.parity else None,
            "mean_score": self.mean_score,
            "mean_score_ci95": [self.score_low, self.score_high],
            "breakdown": dict(self.breakdown),
            "labels": {key: dict(value) for key, value in self.labels.items()},
            "seconds_per_move": self.seconds_per_move,
            "max_seconds_per_move": self.max_seconds,
            "iterations_per_second": self.iterations_per_second,
            "elo": self.elo,
        }


def summarize(rows: Sequence[GameResult], bot: str) -> BotSummary:
    """The :class:`BotSummary` of ``bot`` over ``rows``."""
    shares = bot_game_shares(rows, bot)
    low, high = wilson_interval(sum(shares), len(shares))
    scores: list[float] = []
    numeric: dict[str, list[float]] = defaultdict(list)
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    choices = 0
    seconds = 0.0
    max_seconds = 0.0
    iterations = 0
    search_seconds = 0.0
    players: list[int] = []
    for row in rows:
        if bot in row.bots:
            players.append(row.num_players)
        for seat, name in enumerate(row.bots):
            if name != bot:
                continue
            scores.append(row.scores[seat])
            for key, value in row.breakdown[seat].items():
                if isinstance(value, bool):
                    labels[key][str(value).lower()] += 1
                elif isinstance(value, (int, float)):
                    numeric[key].append(float(value))
                elif isinstance(value, str):
                    labels[key][value] += 1
            if row.timing:
                timing = row.timing[seat]
                choices += timing.choices
                seconds += timing.seconds
                max_seconds = max(max_seconds, timing.max_seconds)
                if timing.iterations:
                    iterations += timing.iterations
                    search_seconds += timing.seconds
    score_low, score_high = normal_interval(scores)
    return BotSummary(
        bot=bot,
        games=len(shares),
        seats=len(scores),
        win_share=mean(shares),
        win_low=low,
        win_high=high,
        parity=mean(1 / count for count in players),
        mean_score=mean(scores),
        score_low=score_low,
        score_high=score_high,
        breakdown={key: mean(values) for key, values in numeric.items()},
        labels={key: dict(counter) for key, counter in labels.items()},
        seconds_per_move=seconds / choices if choices else 0.0,
        max_seconds=max_seconds,
        iterations_per_second=iterations / search_seconds if search_seconds else 0.0,
    )


# -- seat positions and significance tests (used by the simulation lab's report and A/B comparison) --------------


@dataclass(slots=True)
class PositionSummary:
    """How the seat at one position did over a set of games, whoever held it (first-player advantage)."""

    seat: int
    games: int
    win_share: float
    win_low: float
    win_high: float
    #: The win share of a seat with no advantage (1 / players).
    parity: float
    #: Two-sided p-value of "this position wins exactly its parity share" (one-sample z-test).
    p_value: float
    mean_score: float
    score_low: float
    score_high: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat,
            "games": self.games,
            "win_share": self.win_share,
            "win_share_ci95": [self.win_low, self.win_high],
            "parity": self.parity,
            "p_value_vs_parity": self.p_value,
            "mean_score": self.mean_score,
            "mean_score_ci95": [self.score_low, self.score_high],
        }


def start_order(row: GameResult) -> list[int] | None:
    """Each seat's place in the turn order at the start of ``row``'s game (0 = first to act), if its statistics say."""
    order = (row.stats or {}).get("order")
    return list(order) if order is not None else None


def seat_at_place(row: GameResult, place: int) -> int:
    """The seat that held ``place`` in the starting turn order (the seat itself when the game gives no order)."""
    order = start_order(row)
    return order.index(place) if order is not None else place


def position_summaries(rows: Sequence[GameResult], by_turn_order: bool = False) -> list[PositionSummary]:
    """One :class:`PositionSummary` per seat position (rows with fewer seats simply do not count for the later ones).

    With ``by_turn_order`` a position is a place in the starting turn order
    (0 = first to act, :func:`start_order`) instead of a seat number.

    >>> from greenlight.sim.runner import GameResult
    >>> rows = [GameResult(i, "g", 2, i, {}, ("a", "b"), (1, 2), (3, 1), (1, 2), (0,), (1.0, 0.0), ({}, {}), 9) for i in range(3)]
    >>> [(item.seat, item.win_share, item.mean_score) for item in position_summaries(rows)]
    [(0, 1.0, 3.0), (1, 0.0, 1.0)]
    """
    seats = max((row.num_players for row in rows), default=0)
    summaries = []
    for seat in range(seats):
        held = [row for row in rows if seat < row.num_players]
        at = [seat_at_place(row, seat) if by_turn_order else seat for row in held]
        shares = [row.returns[place] for row, place in zip(held, at, strict=True)]
        scores = [row.scores[place] for row, place in zip(held, at, strict=True)]
        low, high = wilson_interval(sum(shares), len(shares))
        score_low, score_high = normal_interval(scores)
        parity = mean(1 / row.num_players for row in held)
        summaries.append(
            PositionSummary(
                seat=seat,
                games=len(held),
                win_share=mean(shares),
                win_low=low,
                win_high=high,
                parity=parity,
                p_value=one_proportion_z_test(sum(shares), len(shares), parity),
                mean_score=mean(scores),
                score_low=score_low,
                score_high=score_high,
            )
        )
    return summaries


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z.

    >>> round(normal_sf(1.959963984540054), 6)
    0.025
    """
    return 0.5 * math.erfc(z / math.sqrt(2))


def one_proportion_z_test(successes: float, trials: int, expected: float) -> float:
    """Two-sided p-value that a proportion equals ``expected`` (normal approximation; 1.0 when untestable).

    >>> round(one_proportion_z_test(60, 100, 0.5), 4)
    0.0455
    """
    if trials <= 0 or not 0 < expected < 1:
        return 1.0
    z = (successes / trials - expected) / math.sqrt(expected * (1 - expected) / trials)
    return min(1.0, 2 * normal_sf(abs(z)))


def two_proportion_z_test(successes_a: float, trials_a: int, successes_b: float, trials_b: int) -> float:
    """Two-sided p-value that two proportions are equal (pooled two-proportion z-test; 1.0 when untestable).

    Split ties count as fractional successes, as in the win shares.

    >>> round(two_proportion_z_test(60, 100, 45, 100), 4)
    0.0337
    """
    if trials_a <= 0 or trials_b <= 0:
        return 1.0
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    variance = pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b)
    if variance <= 0:
        return 1.0
    z = (successes_a / trials_a - successes_b / trials_b) / math.sqrt(variance)
    return min(1.0, 2 * normal_sf(abs(z)))


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def regularized_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b).

    >>> round(regularized_beta(2, 3, 0.4), 6)
    0.5248
    """
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1 - front * _beta_continued_fraction(b, a, 1 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (df may be fractional, as in Welch's test).

    >>> round(student_t_sf(2.228138851986274, 10), 6)
    0.025
    """
    tail = 0.5 * regularized_beta(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1 - tail


def welch_t_test(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value of Welch's t-test that two samples have the same mean (1.0 when untestable).

    >>> round(welch_t_test([1, 2, 3, 4], [3, 4, 5, 6, 7]), 4)
    0.0349
    """
    if len(a) < 2 or len(b) < 2:
        return 1.0
    mean_a, mean_b = mean(a), mean(b)
    var_a = sum((x - mean_a) ** 2 for x in a) / (len(a) - 1) / len(a)
    var_b = sum((x - mean_b) ** 2 for x in b) / (len(b) - 1) / len(b)
    if var_a + var_b <= 0:
        return 1.0 if mean_a == mean_b else 0.0
    t = (mean_a - mean_b) / math.sqrt(var_a + var_b)
    df = (var_a + var_b) ** 2 / (var_a**2 / (len(a) - 1) + var_b**2 / (len(b) - 1))
    return min(1.0, 2 * student_t_sf(abs(t), df))


def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given): control the chance of any false alarm among many tests.

    >>> holm_adjust([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def student_t_quantile(upper: float, df: float) -> float:
    """The t such that P(T > t) = ``upper`` for Student's t with ``df`` degrees of freedom (bisection; df may be fractional).

    >>> round(student_t_quantile(0.025, 10), 6), round(student_t_quantile(0.025, 1e9), 4)
    (2.228139, 1.96)
    """
    if df <= 0 or not 0 < upper < 0.5:
        raise ValueError("need df > 0 and 0 < upper < 0.5")
    low, high = 0.0, 1.0
    while student_t_sf(high, df) > upper:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_sf(middle, df) > upper:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2


def paired_t_test(differences: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Two-sided p-value that the mean of paired differences is 0, and the 95% interval of that mean.

    >>> p, (low, high) = paired_t_test([1.0, 2.0, 3.0, 2.0])
    >>> round(p, 4), round(low, 3), round(high, 3)
    (0.0163, 0.701, 3.299)
    """
    count = len(differences)
    centre = mean(differences)
    if count < 2:
        return 1.0, (centre, centre)
    variance = sum((value - centre) ** 2 for value in differences) / (count - 1)
    if variance <= 0:
        return (1.0 if centre == 0 else 0.0), (centre, centre)
    se = math.sqrt(variance / count)
    t = centre / se
    half = student_t_quantile(0.025, count - 1) * se
    return min(1.0, 2 * student_t_sf(abs(t), count - 1)), (centre - half, centre + half)


def welch_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """95% interval of mean(b) - mean(a) with Welch's degrees of freedom (the difference itself when untestable)."""
    difference = mean(b) - mean(a)
    if len(a) < 2 or len(b) < 2:
        return (difference, difference)
    var_a = sum((x - mean(a)) ** 2 for x in a) / (len(a) - 1) / len(a)
    var_b = sum((x - mean(b)) ** 2 for x in b) / (len(b) - 1) / len(b)
    if var_a + var_b <= 0:
        return (difference, difference)
    df = (var_a + var_b) ** 2 / (var_a**2 / (len(a) - 1) + var_b**2 / (len(b) - 1))
    half = student_t_quantile(0.025, df) * math.sqrt(var_a + var_b)
    return (difference - half, difference + half)


def proportion_difference_interval(successes_a: float, trials_a: int, successes_b: float, trials_b: int) -> tuple[float, float]:
    """95% Wald interval of p_b - p_a (the difference itself when a side has no trials).

    >>> [round(bound, 4) for bound in proportion_difference_interval(45, 100, 60, 100)]
    [0.0132, 0.2868]
    """
    if trials_a <= 0 or trials_b <= 0:
        return (0.0, 0.0)
    p_a, p_b = successes_a / trials_a, successes_b / trials_b
    half = Z95 * math.sqrt(p_a * (1 - p_a) / trials_a + p_b * (1 - p_b) / trials_b)
    return (p_b - p_a - half, p_b - p_a + half)
