"""The study report: PNG plots made with matplotlib and one self-contained ``report.html`` beside them.

The report is drawn from a study summary (:mod:`greenlight.sim.summary`) and
the result rows; it needs matplotlib (``pip install 'greenlight[sim]'``).
The HTML has its style inline and shows each plot by its file name, so the
folder can be zipped, mailed or served as it is.

Plots (file names in :data:`PLOTS`): win share by seat position with 95%
intervals against parity (first-player advantage); win share and score
distribution per bot; the mean score breakdown per category and bot; game
length; the game's own per-game and per-seat statistics; and per card and
per card type, how often each is taken or played and the win share of the
seats that did it.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.sim.runner import GameResult

REPORT = "report.html"
#: Every plot the report draws, in the order shown.
PLOTS = (
    "seat_positions.png",
    "bots.png",
    "score_breakdown.png",
    "game_length.png",
    "game_statistics.png",
    "seat_statistics.png",
    "cards.png",
    "card_types.png",
)
#: Cards shown per action in the card plot and tables.
TOP_CARDS = 15


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, or a clear error saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise OptionError("the report needs matplotlib: pip install 'greenlight[sim]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _grid(count: int, columns: int = 4) -> tuple[int, int]:
    columns = max(1, min(columns, count))
    return math.ceil(count / columns) if count else 1, columns


def _save(plt: Any, figure: Any, file: Path) -> None:
    figure.tight_layout()
    figure.savefig(file, dpi=90)
    plt.close(figure)


def _empty(plt: Any, file: Path, text: str) -> None:
    figure, axis = plt.subplots(figsize=(6, 1.5))
    axis.axis("off")
    axis.text(0.5, 0.5, text, ha="center", va="center")
    _save(plt, figure, file)


def share_errors(items: Sequence[Mapping[str, Any]]) -> tuple[list[float], list[float]]:
    """Error-bar lengths below and above each win share (never negative: a share of 0 may sit a rounding error below its interval).

    >>> share_errors([{"win_share": 0.0, "win_share_ci95": [1e-17, 0.4]}])
    ([0.0], [0.4])
    """
    low = [max(0.0, item["win_share"] - item["win_share_ci95"][0]) for item in items]
    high = [max(0.0, item["win_share_ci95"][1] - item["win_share"]) for item in items]
    return low, high


def _share_bars(axis: Any, labels: Sequence[str], items: Sequence[Mapping[str, Any]], parity: float, colour: str) -> None:
    shares = [item["win_share"] for item in items]
    low, high = share_errors(items)
    axis.bar(labels, shares, yerr=[low, high], capsize=4, color=colour)
    axis.axhline(parity, color="black", linestyle="--", linewidth=1, label=f"parity {parity:.3f}")
    axis.set_ylabel("win share (95% CI)")
    axis.set_ylim(0, max(1e-9, *(item["win_share_ci95"][1] for item in items)) * 1.15)
    axis.legend(loc="upper right")


def plot_positions(plt: Any, summary: Mapping[str, Any], file: Path) -> None:
    """Win share and mean score by seat position (seat 0 moves first)."""
    positions = summary["positions"]
    labels = [f"seat {item['seat']}" for item in positions]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    _share_bars(left, labels, positions, positions[0]["parity"], "#4c72b0")
    left.set_title("Win share by seat position")
    means = [item["mean_score"] for item in positions]
    errors = [[max(0.0, m - item["mean_score_ci95"][0]) for m, item in zip(means, positions, strict=True)]] * 2
    right.bar(labels, means, yerr=errors, capsize=4, color="#55a868")
    right.set_title("Mean score by seat position (95% CI)")
    _save(plt, figure, file)


def plot_bots(plt: Any, summary: Mapping[str, Any], results: Sequence[GameResult], file: Path) -> None:
    """Win share per bot with its interval, and each bot's score distribution."""
    bots = summary["bots"]
    names = [item["bot"] for item in bots]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    _share_bars(left, names, bots, bots[0]["parity"], "#c44e52")
    left.set_title("Win share per bot")
    scores = [[row.scores[seat] for row in results for seat, bot in enumerate(row.bots) if bot == name] for name in names]
    right.boxplot(scores, showmeans=True)
    right.set_xticks(range(1, len(names) + 1), names)  # set here: boxplot's label keyword changed name in matplotlib 3.9
    right.set_title("Score distribution per bot")
    right.set_ylabel("final score")
    _save(plt, figure, file)


def plot_breakdown(plt: Any, summary: Mapping[str, Any], file: Path) -> None:
    """Mean of each numeric score category per bot, one small panel per category (categories differ in scale)."""
    bots = summary["bots"]
    categories = list(summary["breakdown"])
    if not categories:
        _empty(plt, file, "no numeric score categories")
        return
    rows, columns = _grid(len(categories))
    figure, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.4 * rows), squeeze=False)
    for axis, category in zip(axes.flat, categories, strict=False):
        axis.bar([item["bot"] for item in bots], [item["breakdown"].get(category, 0.0) for item in bots], color="#8172b2")
        axis.set_title(category, fontsize=9)
        axis.tick_params(labelsize=8)
    for axis in list(axes.flat)[len(categories) :]:
        axis.axis("off")
    figure.suptitle("Mean score breakdown per seat, by bot")
    _save(plt, figure, file)


def plot_length(plt: Any, results: Sequence[GameResult], file: Path) -> None:
    """Histogram of game length in actions."""
    figure, axis = plt.subplots(figsize=(6, 3.5))
    axis.hist([row.length for row in results], bins=min(30, max(5, len(results) // 5)), color="#64b5cd")
    axis.set_xlabel("actions per game")
    axis.set_ylabel("games")
    axis.set_title("Game length")
    _save(plt, figure, file)


def plot_game_statistics(plt: Any, results: Sequence[GameResult], file: Path) -> None:
    """Histogram of every per-game statistic."""
    names = list(dict.fromkeys(name for row in results for name in (row.stats or {}).get("game", {})))
    if not names:
        _empty(plt, file, "this game has no per-game statistics")
        return
    rows, columns = _grid(len(names), 3)
    figure, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 2.6 * rows), squeeze=False)
    for axis, name in zip(axes.flat, names, strict=False):
        values = [float(value) for row in results if (value := (row.stats or {}).get("game", {}).get(name)) is not None]
        axis.hist(values, bins=min(20, max(3, len(set(values)))), color="#dd8452")
        axis.set_title(name, fontsize=9)
        axis.tick_params(labelsize=8)
    for axis in list(axes.flat)[len(names) :]:
        axis.axis("off")
    figure.suptitle("Per-game statistics (games)")
    _save(plt, figure, file)


def plot_seat_statistics(plt: Any, summary: Mapping[str, Any], file: Path) -> None:
    """Mean of every per-seat statistic, by bot."""
    by_bot: Mapping[str, Mapping[str, float]] = summary["statistics"]["seat_by_bot"]
    names = list(summary["statistics"]["seat"])
    if not names:
        _empty(plt, file, "this game has no per-seat statistics")
        return
    bots = list(by_bot)
    rows, columns = _grid(len(names))
    figure, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.4 * rows), squeeze=False)
    for axis, name in zip(axes.flat, names, strict=False):
        axis.bar(bots, [by_bot[bot].get(name, 0.0) for bot in bots], color="#937860")
        axis.set_title(name, fontsize=9)
        axis.tick_params(labelsize=8)
    for axis in list(axes.flat)[len(names) :]:
        axis.axis("off")
    figure.suptitle("Per-seat statistics: mean per seat, by bot")
    _save(plt, figure, file)


def _top_by_action(items: Sequence[Mapping[str, Any]], limit: int) -> dict[str, list[Mapping[str, Any]]]:
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for item in items:  # already sorted by action, then by how often
        entries = grouped.setdefault(item["action"], [])
        if len(entries) < limit:
            entries.append(item)
    return grouped


def plot_cards(plt: Any, items: Sequence[Mapping[str, Any]], parity: float, file: Path) -> None:
    """One panel per action: every card at (times per game, win share of the seats that did it), labelled, with its interval."""
    grouped = _top_by_action(items, 10**6)
    if not grouped:
        _empty(plt, file, "this game records no card statistics")
        return
    rows, columns = _grid(len(grouped), 2)
    figure, axes = plt.subplots(rows, columns, figsize=(7 * columns, 4.8 * rows), squeeze=False)
    for axis, (action, entries) in zip(axes.flat, grouped.items(), strict=False):
        x = [item["per_game"] for item in entries]
        y = [item["win_share"] for item in entries]
        low, high = share_errors(entries)
        axis.errorbar(x, y, yerr=[low, high], fmt="o", markersize=4, color="#c44e52", ecolor="#e8b4b4", elinewidth=1)
        for item, px, py in zip(entries, x, y, strict=True):
            axis.annotate(str(item["card"]), (px, py), fontsize=6, xytext=(3, 2), textcoords="offset points")
        axis.axhline(parity, color="black", linestyle="--", linewidth=1)
        axis.set_title(f"{action} ({len(entries)} cards)", fontsize=10)
        axis.set_xlabel("times per game", fontsize=8)
        axis.set_ylabel("win share of seats that did it", fontsize=8)
        axis.tick_params(labelsize=8)
    for axis in list(axes.flat)[len(grouped) :]:
        axis.axis("off")
    figure.suptitle("Per card: how often, and how often the seats that did it won (95% CI; dashed: parity)")
    _save(plt, figure, file)


def plot_card_types(plt: Any, items: Sequence[Mapping[str, Any]], parity: float, file: Path) -> None:
    """Per action and card type: times per game, and the win share of the seats that did it."""
    grouped = _top_by_action(items, 10**6)
    if not grouped:
        _empty(plt, file, "this game records no card statistics")
        return
    height = sum(0.3 * len(entries) + 0.9 for entries in grouped.values())
    figure, axes = plt.subplots(len(grouped), 2, figsize=(11, max(2.5, height)), squeeze=False)
    for (action, entries), (count_axis, share_axis) in zip(grouped.items(), axes, strict=True):
        labels = [str(item["type"]) for item in entries][::-1]
        count_axis.barh(labels, [item["per_game"] for item in entries][::-1], color="#4c72b0")
        count_axis.set_title(f"{action}: times per game", fontsize=9)
        low, high = share_errors(entries[::-1])
        share_axis.barh(labels, [item["win_share"] for item in entries][::-1], xerr=[low, high], capsize=3, color="#c44e52")
        share_axis.axvline(parity, color="black", linestyle="--", linewidth=1)
        share_axis.set_title(f"{action}: win share of the seats that did it", fontsize=9)
        for axis in (count_axis, share_axis):
            axis.tick_params(labelsize=8)
    figure.suptitle("Per card type (95% CI; dashed: parity)")
    _save(plt, figure, file)


# -- HTML ---------------------------------------------------------------------------------------

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0; }
.note { color: #555; font-size: 90%; }
.low { color: #b00; } .high { color: #070; }
"""


def _number(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _interval(pair: Sequence[float] | None, digits: int = 3) -> str:
    return "-" if pair is None else f"{pair[0]:.{digits}f} - {pair[1]:.{digits}f}"


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; cells are inserted as given (escape text with :func:`html.escape` first)."""
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _image(name: str, alt: str) -> str:
    return f'<p><img src="{html.escape(name)}" alt="{html.escape(alt)}"></p>'


def _share_cell(item: Mapping[str, Any], parity: float) -> str:
    low, high = item["win_share_ci95"]
    css = "high" if low > parity else "low" if high < parity else ""
    return f'<span class="{css}">{item["win_share"]:.3f}</span>'


def render_html(summary: Mapping[str, Any], title: str) -> str:
    """The report page for ``summary`` (plots referenced by the names in :data:`PLOTS`)."""
    study = summary["study"]
    parity = summary["positions"][0]["parity"]
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    options = ", ".join(f"{name}={value}" for name, value in study["options"].items() if value not in (None, False)) or "defaults"
    facts = [
        ("game", f"{study['game']} (rules version {study['version']})"),
        ("players", str(study["num_players"])),
        ("bots (seat order)", ", ".join(study["lineup"])),
        ("games", str(summary["games"])),
        ("seed", str(study["seed"])),
        ("options", options),
        ("data files", ", ".join(f"{name}: sha256 {digest[:12]}" for name, digest in study["data"].items()) or "bundled"),
    ]
    run = summary.get("run") or {}
    if run:
        speed = run.get("games_per_second")
        facts.append(
            (
                "this run",
                f"{run.get('games_played', 0)} games played, {run.get('games_reused', 0)} reused, "
                f"{run.get('seconds', 0.0):.1f} s on {run.get('backend', '?')}" + (f" ({speed:.1f} games/s)" if speed else ""),
            )
        )
    parts.append(html_table(["", ""], [[html.escape(name), html.escape(value)] for name, value in facts]))
    parts.append(
        "<p class='note'>Win shares split ties (1/k to each of k winners). Intervals are 95%: Wilson for shares, normal for means. "
        "Green: significantly above parity; red: significantly below.</p>"
    )

    parts.append("<h2>Seat position (first-player advantage)</h2>")
    parts.append(_image("seat_positions.png", "win share by seat position"))
    rows = [
        [
            f"seat {item['seat']}",
            str(item["games"]),
            _share_cell(item, item["parity"]),
            _interval(item["win_share_ci95"]),
            _number(item["parity"]),
            _number(item["p_value_vs_parity"], 4),
            _number(item["mean_score"], 1),
            _interval(item["mean_score_ci95"], 1),
        ]
        for item in summary["positions"]
    ]
    parts.append(html_table(["position", "games", "win share", "95% CI", "parity", "p (vs parity)", "mean score", "95% CI"], rows))

    parts.append("<h2>Bots</h2>")
    parts.append(_image("bots.png", "win share and score per bot"))
    rows = [
        [
            html.escape(item["bot"]),
            str(item["seats"]),
            _share_cell(item, item["parity"]),
            _interval(item["win_share_ci95"]),
            _number(item["win_share_over_parity"], 2),
            _number(item["elo"], 0),
            _number(item["mean_score"], 1),
            _interval(item["mean_score_ci95"], 1),
        ]
        for item in summary["bots"]
    ]
    parts.append(html_table(["bot", "seats", "win share", "95% CI", "x parity", "Elo", "mean score", "95% CI"], rows))

    parts.append("<h2>Score breakdown</h2>")
    parts.append(_image("score_breakdown.png", "score breakdown per category"))
    bots = summary["bots"]
    rows = [
        [html.escape(category), _number(value, 2), *(_number(bot["breakdown"].get(category), 2) for bot in bots)]
        for category, value in summary["breakdown"].items()
    ]
    parts.append(html_table(["category", "all seats", *(bot["bot"] for bot in bots)], rows))
    labels = [(bot["bot"], key, counts) for bot in bots for key, counts in bot["labels"].items()]
    if labels:
        rows = [
            [html.escape(bot), html.escape(key), html.escape(", ".join(f"{value}: {count}" for value, count in counts.items()))]
            for bot, key, counts in labels
        ]
        parts.append(html_table(["bot", "field", "seats by value"], rows))

    length = summary["length"]
    parts.append("<h2>Game length</h2>")
    parts.append(_image("game_length.png", "game length"))
    spread = f"from {length['min']:.0f} to {length['max']:.0f}"
    parts.append(f"<p>Mean {length['mean']:.1f} actions (95% CI {_interval(length['ci95'], 1)}), {spread}.</p>")

    stats = summary["statistics"]
    parts.append("<h2>Game statistics</h2>")
    parts.append(_image("game_statistics.png", "per-game statistics"))
    rows = [
        [html.escape(name), str(item["n"]), _number(item["mean"]), _interval(item["ci95"]), _number(item["min"]), _number(item["max"])]
        for name, item in stats["game"].items()
    ]
    parts.append(html_table(["per game", "games", "mean", "95% CI", "min", "max"], rows))
    parts.append(_image("seat_statistics.png", "per-seat statistics by bot"))
    bot_names = list(stats["seat_by_bot"])
    rows = [
        [
            html.escape(name),
            str(item["n"]),
            _number(item["mean"]),
            _interval(item["ci95"]),
            *(_number(stats["seat_by_bot"][bot].get(name)) for bot in bot_names),
        ]
        for name, item in stats["seat"].items()
    ]
    parts.append(html_table(["per seat", "seats", "mean", "95% CI", *bot_names], rows))

    parts.append("<h2>Cards</h2>")
    parts.append(
        "<p class='note'>For each action, how often a card (or type) was involved per game, and the win share of the seats that did it, "
        f"once per game and seat. Lift is that share over parity ({parity:.3f}): an association with winning, not a cause.</p>"
    )
    parts.append(_image("cards.png", "per-card statistics"))
    parts.append(_image("card_types.png", "per-card-type statistics"))
    for key, items in (("type", summary["cards"]["by_type"]), ("card", summary["cards"]["by_card"])):
        for action, entries in _top_by_action(items, TOP_CARDS if key == "card" else 10**6).items():
            rows = [
                [
                    html.escape(str(item[key])),
                    str(item["times"]),
                    _number(item["per_game"]),
                    str(item["seat_games"]),
                    _share_cell(item, parity),
                    _interval(item["win_share_ci95"]),
                    _number(item["lift"], 2),
                ]
                for item in entries
            ]
            parts.append(f"<h3>{html.escape(action)}, by {key}</h3>")
            parts.append(html_table([key, "times", "per game", "game-seats", "win share", "95% CI", "lift"], rows))
    parts.append(
        "<p class='note'>All numbers are in summary.json; every game is a row of games.parquet (or .csv), "
        "every card action a row of cards.parquet (or .csv).</p>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(out: str | Path, summary: Mapping[str, Any], results: Sequence[GameResult], title: str | None = None) -> list[Path]:
    """Draw every plot of :data:`PLOTS` and ``report.html`` into ``out``; return the files written."""
    plt = pyplot()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    parity = summary["positions"][0]["parity"]
    plot_positions(plt, summary, folder / PLOTS[0])
    plot_bots(plt, summary, results, folder / PLOTS[1])
    plot_breakdown(plt, summary, folder / PLOTS[2])
    plot_length(plt, results, folder / PLOTS[3])
    plot_game_statistics(plt, results, folder / PLOTS[4])
    plot_seat_statistics(plt, summary, folder / PLOTS[5])
    plot_cards(plt, summary["cards"]["by_card"], parity, folder / PLOTS[6])
    plot_card_types(plt, summary["cards"]["by_type"], parity, folder / PLOTS[7])
    study = summary["study"]
    heading = title or f"{study['game']}: {study['num_players']} players, {summary['games']} games"
    (folder / REPORT).write_text(render_html(summary, heading), encoding="utf-8")
    return [folder / name for name in PLOTS] + [folder / REPORT]


def write_summary(out: str | Path, summary: Mapping[str, Any]) -> Path:
    """Write ``summary.json``."""
    file = Path(out) / "summary.json"
    file.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return file
