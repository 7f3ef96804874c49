"""A/B comparison of two studies of the same game: each headline number side by side with a significance test.

Study A is the baseline, study B the change (another card file, an option);
differences are B - A. The headline numbers and their tests:

* win share by **seat position** and **per bot**: two-proportion z-test
  (pooled; split ties count as fractional wins);
* **mean score per bot**, **game length**, every numeric **score
  category** and every per-game and per-seat **statistic** of the game:
  Welch's t-test (unequal variances).

Each p-value is also given Holm-adjusted over all the comparison's tests: with
dozens of numbers, a few raw p-values under 0.05 are expected by chance
alone; the adjusted ones keep the chance of any false alarm under 5%.
Effect sizes for means are Cohen's d (difference over the pooled standard
deviation), so numbers on different scales can be plotted together.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.sim.report import STYLE, html_table, pyplot
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import bot_game_shares, holm_adjust, mean, normal_interval, two_proportion_z_test, welch_t_test, wilson_interval
from greenlight.sim.summary import flat_breakdown

COMPARE_HTML = "compare.html"
COMPARE_JSON = "compare.json"
COMPARE_PLOTS = ("compare_positions.png", "compare_bots.png", "compare_effects.png")
#: A difference is called significant below this p-value.
ALPHA = 0.05


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

    @property
    def difference(self) -> float:
        """B - A."""
        return self.b - self.a

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "section": self.section,
            "name": self.name,
            "test": self.test,
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "a_ci95": list(self.a_ci),
            "b_ci95": list(self.b_ci),
            "n_a": self.n_a,
            "n_b": self.n_b,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.p_value < ALPHA,
            "significant_holm": self.p_holm < ALPHA,
            "effect_size": self.effect,
        }


def proportion_headline(section: str, name: str, a: Sequence[float], b: Sequence[float]) -> Headline:
    """Compare two samples of shares in [0, 1] (one per game) as proportions.

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
    )


def _sd(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((value - centre) ** 2 for value in values) / (len(values) - 1))


def mean_headline(section: str, name: str, a: Sequence[float], b: Sequence[float]) -> Headline:
    """Compare two samples' means with Welch's t-test and Cohen's d.

    >>> item = mean_headline("length", "actions", [1, 2, 3, 4], [3, 4, 5, 6, 7])
    >>> item.difference, round(item.p_value, 4), round(item.effect or 0, 3)
    (2.5, 0.0349, 1.708)
    """
    pooled = math.sqrt(((len(a) - 1) * _sd(a) ** 2 + (len(b) - 1) * _sd(b) ** 2) / max(1, len(a) + len(b) - 2))
    effect = (mean(b) - mean(a)) / pooled if pooled > 0 else None
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
        effect,
    )


def _numbers(values: Sequence[Any]) -> list[float]:
    return [float(value) for value in values if isinstance(value, (int, float)) and not isinstance(value, bool)]


def _seat_values(results: Sequence[GameResult], read: Any) -> dict[str, list[float]]:
    values: dict[str, list[Any]] = {}
    for row in results:
        for seat in range(row.num_players):
            for key, value in read(row, seat).items():
                values.setdefault(key, []).append(value)
    return {key: _numbers(items) for key, items in values.items()}


def compare_results(a: Sequence[GameResult], b: Sequence[GameResult]) -> list[Headline]:
    """Every headline number of the module docstring, with raw and Holm-adjusted p-values."""
    if not a or not b:
        raise OptionError("both studies need at least one game to compare")
    if a[0].game != b[0].game:
        raise OptionError(f"cannot compare a study of {a[0].game} with one of {b[0].game}")
    headlines: list[Headline] = []
    for seat in range(min(row.num_players for row in (*a, *b))):
        headlines.append(
            proportion_headline("seat position", f"seat {seat} win share", [r.returns[seat] for r in a], [r.returns[seat] for r in b])
        )
    bots_a = list(dict.fromkeys(name for row in a for name in row.bots))
    bots_b = {name for row in b for name in row.bots}
    for bot in (name for name in bots_a if name in bots_b):
        headlines.append(proportion_headline("bot", f"{bot} win share", bot_game_shares(a, bot), bot_game_shares(b, bot)))
        scores = [[row.scores[s] for row in rows for s, name in enumerate(row.bots) if name == bot] for rows in (a, b)]
        headlines.append(mean_headline("bot", f"{bot} mean score", *scores))
    headlines.append(mean_headline("game length", "actions per game", [r.length for r in a], [r.length for r in b]))
    for section, read in (
        ("score breakdown", lambda row, seat: flat_breakdown(row.breakdown[seat])),
        ("seat statistic", lambda row, seat: ((row.stats or {}).get("seats") or [{}] * row.num_players)[seat]),
    ):
        values_a, values_b = _seat_values(a, read), _seat_values(b, read)
        for key in (name for name in values_a if name in values_b):
            if values_a[key] and values_b[key]:
                headlines.append(mean_headline(section, key, values_a[key], values_b[key]))
    games_a = [(row.stats or {}).get("game", {}) for row in a]
    games_b = [(row.stats or {}).get("game", {}) for row in b]
    for key in dict.fromkeys(name for item in games_a for name in item):
        numbers_a = _numbers([item.get(key) for item in games_a])
        numbers_b = _numbers([item.get(key) for item in games_b])
        if numbers_a and numbers_b:
            headlines.append(mean_headline("game statistic", key, numbers_a, numbers_b))
    for headline, adjusted in zip(headlines, holm_adjust([item.p_value for item in headlines]), strict=True):
        headline.p_holm = adjusted
    return headlines


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


def plot_comparison(headlines: Sequence[Headline], names: tuple[str, str], folder: Path) -> list[Path]:
    """Seat positions and bots side by side, and the effect size of every compared mean."""
    plt = pyplot()
    files = [folder / name for name in COMPARE_PLOTS]
    positions = [item for item in headlines if item.section == "seat position"]
    figure, axis = plt.subplots(figsize=(8, 3.8))
    _grouped_bars(axis, [item.name.replace(" win share", "") for item in positions], positions, names)
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
    effects = [item for item in headlines if item.effect is not None]
    figure, axis = plt.subplots(figsize=(8, 0.28 * len(effects) + 1.5))
    labels = [f"{item.section}: {item.name}" for item in effects][::-1]
    colours = ["#c44e52" if item.p_holm < ALPHA else "#dd8452" if item.p_value < ALPHA else "#999999" for item in effects][::-1]
    axis.barh(labels, [item.effect or 0.0 for item in effects][::-1], color=colours)
    axis.axvline(0, color="black", linewidth=1)
    axis.set_xlabel("effect size B - A (Cohen's d); red: significant after Holm, orange: p < 0.05 only")
    axis.tick_params(labelsize=7)
    figure.tight_layout()
    figure.savefig(files[2], dpi=90)
    plt.close(figure)
    return files


def comparison_html(headlines: Sequence[Headline], names: tuple[str, str], descriptions: tuple[str, str]) -> str:
    """The comparison page (plots referenced by the names in :data:`COMPARE_PLOTS`)."""
    title = f"A/B: {names[0]} vs {names[1]}"
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    parts.append(
        html_table(
            ["", "study"],
            [[f"A: {html.escape(names[0])}", html.escape(descriptions[0])], [f"B: {html.escape(names[1])}", html.escape(descriptions[1])]],
        )
    )
    parts.append(
        "<p class='note'>Differences are B - A. Win shares: two-proportion z-test; means: Welch's t-test. "
        "p (Holm) is adjusted for the number of tests on this page; trust a difference when it is small. "
        "Green/red: significant (p &lt; 0.05) after Holm.</p>"
    )
    for name in COMPARE_PLOTS:
        parts.append(f'<p><img src="{name}" alt="{html.escape(name)}"></p>')
    rows = []
    for item in headlines:
        css = ("high" if item.difference > 0 else "low") if item.p_holm < ALPHA else ""
        rows.append(
            [
                html.escape(item.section),
                html.escape(item.name),
                f"{item.a:.3f} ({item.a_ci[0]:.3f} - {item.a_ci[1]:.3f})",
                f"{item.b:.3f} ({item.b_ci[0]:.3f} - {item.b_ci[1]:.3f})",
                f'<span class="{css}">{item.difference:+.3f}</span>',
                html.escape(item.test),
                f"{item.p_value:.4f}",
                f"{item.p_holm:.4f}",
                f"{item.effect:+.2f}" if item.effect is not None else "-",
            ]
        )
    header = ["section", "number", "A (95% CI)", "B (95% CI)", "B - A", "test", "p", "p (Holm)", "effect d"]
    parts.append(html_table(header, rows))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_comparison(
    out: str | Path,
    a: Sequence[GameResult],
    b: Sequence[GameResult],
    names: tuple[str, str],
    descriptions: tuple[str, str] = ("", ""),
) -> tuple[list[Headline], list[Path]]:
    """Compare, then write ``compare.json``, ``compare.html`` and its plots into ``out``; return the headlines and files."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    headlines = compare_results(a, b)
    plots = plot_comparison(headlines, names, folder)
    data: dict[str, Any] = {"a": {"name": names[0], "study": descriptions[0]}, "b": {"name": names[1], "study": descriptions[1]}}
    data.update(alpha=ALPHA, headlines=[item.to_json() for item in headlines])
    (folder / COMPARE_JSON).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (folder / COMPARE_HTML).write_text(comparison_html(headlines, names, descriptions), encoding="utf-8")
    return headlines, [*plots, folder / COMPARE_JSON, folder / COMPARE_HTML]
