"""The study report: PNG plots made with matplotlib and one self-contained ``report.html`` beside them.

The report is drawn from a study summary (:mod:`greenlight.sim.summary`) and
the result rows; it needs matplotlib (``pip install 'greenlight-boardgames[sim]'``).
The HTML has its style inline and shows each plot by its file name, so the
folder can be zipped, mailed or served as it is.

Plots (file names in :data:`PLOTS`): win share by seat position (or by place
in the turn order, for a game whose first player is drawn) with 95%
intervals against parity (first-player advantage); win share and score
distribution per bot; the mean score breakdown per category and bot; game
length; the game's own per-game and per-seat statistics; and per card and
per card type, how often each is taken or played and the win share of the
seats that did it. A study played by one bot (self-play) draws no per-bot
panels (each would be a single bar): their numbers are in one table.

The page opens with the study's answers in words (first-player advantage,
the cards furthest from parity, game length), then the plots, then the long
tables. Cards are named by their titles, sorted by their distance from
parity; a card too few seats did to judge is greyed, with its count.
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
from greenlight.sim.summary import RARE_SEAT_GAMES, WEAK_BOTS

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
#: Plots drawn only when several bots played (with one bot every panel would be a single bar).
PER_BOT_PLOTS = frozenset({"bots.png", "score_breakdown.png", "seat_statistics.png"})
#: Cards labelled by name in each panel of the card plot (the furthest from parity that are not rare).
LABELLED_CARDS = 12


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend, or a clear error saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise OptionError("the report needs matplotlib: pip install 'greenlight-boardgames[sim]'") from None
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
    """Win share and mean score by position: by place in the starting turn order where the game has one, else by seat."""
    by_turn = summary.get("turn_order") is not None
    positions = summary["turn_order"] if by_turn else summary["positions"]
    labels = [_place(item["seat"]) if by_turn else f"seat {item['seat']}" for item in positions]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    _share_bars(left, labels, positions, positions[0]["parity"], "#4c72b0")
    left.set_title("Win share by place in the turn order" if by_turn else "Win share by seat position")
    means = [item["mean_score"] for item in positions]
    errors = [[max(0.0, m - item["mean_score_ci95"][0]) for m, item in zip(means, positions, strict=True)]] * 2
    right.bar(labels, means, yerr=errors, capsize=4, color="#55a868")
    right.set_title("Mean score (95% CI)")
    _save(plt, figure, file)


def _place(place: int) -> str:
    """A place in the turn order in words: 0 -> ``1st to act``."""
    return f"{place + 1}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place + 1, 'th') } to act"


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


def plot_game_statistics(plt: Any, results: Sequence[GameResult], file: Path, labels: Mapping[str, str] | None = None) -> None:
    """Histogram of every per-game statistic (titled with ``labels``, the game's words for them)."""
    names = list(dict.fromkeys(name for row in results for name in (row.stats or {}).get("game", {})))
    if not names:
        _empty(plt, file, "this game has no per-game statistics")
        return
    rows, columns = _grid(len(names), 3)
    figure, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 2.6 * rows), squeeze=False)
    for axis, name in zip(axes.flat, names, strict=False):
        values = [float(value) for row in results if (value := (row.stats or {}).get("game", {}).get(name)) is not None]
        axis.hist(values, bins=min(20, max(3, len(set(values)))), color="#dd8452")
        axis.set_title((labels or {}).get(name) or name.replace("_", " "), fontsize=9)
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


def by_distance(items: Sequence[Mapping[str, Any]], parity: float) -> list[Mapping[str, Any]]:
    """Cards sorted for reading: judged cards first, furthest from parity first; rare cards last, most seen first."""
    return sorted(
        items, key=lambda item: (bool(item.get("rare")), -abs(item["win_share"] - parity) if not item.get("rare") else -item["seat_games"])
    )


def plot_cards(plt: Any, items: Sequence[Mapping[str, Any]], parity: float, file: Path) -> None:
    """One panel per action: every card at (times per game, win share of the seats that did it) with its interval.

    The cards furthest from parity are labelled with their titles; cards too rare to judge are grey, without interval.
    """
    grouped = _top_by_action(items, 10**6)
    if not grouped:
        _empty(plt, file, "this game records no card statistics")
        return
    rows, columns = _grid(len(grouped), 2)
    figure, axes = plt.subplots(rows, columns, figsize=(7 * columns, 4.8 * rows), squeeze=False)
    for axis, (action, entries) in zip(axes.flat, grouped.items(), strict=False):
        judged = [item for item in entries if not item.get("rare")]
        rare = [item for item in entries if item.get("rare")]
        low, high = share_errors(judged)
        axis.errorbar(
            [item["per_game"] for item in judged],
            [item["win_share"] for item in judged],
            yerr=[low, high],
            fmt="o",
            markersize=4,
            color="#c44e52",
            ecolor="#e8b4b4",
            elinewidth=1,
            label="cards (95% CI)",
        )
        if rare:
            axis.plot(
                [item["per_game"] for item in rare],
                [item["win_share"] for item in rare],
                "o",
                markersize=3,
                color="#bbbbbb",
                label=f"too rare to judge ({len(rare)})",
            )
        for item in by_distance(judged, parity)[:LABELLED_CARDS]:
            axis.annotate(
                _short(str(item.get("title", item["card"]))),
                (item["per_game"], item["win_share"]),
                fontsize=6,
                xytext=(3, 2),
                textcoords="offset points",
            )
        axis.axhline(parity, color="black", linestyle="--", linewidth=1)
        axis.set_title(f"{action} ({len(entries)} cards)", fontsize=10)
        axis.set_xlabel("times per game", fontsize=8)
        axis.set_ylabel("win share of seats that did it", fontsize=8)
        axis.set_ylim(-0.02, 1.02)
        axis.tick_params(labelsize=8)
        axis.legend(fontsize=7, loc="upper right")
    for axis in list(axes.flat)[len(grouped) :]:
        axis.axis("off")
    figure.suptitle("Per card: how often, and how often the seats that did it won (95% CI; dashed: parity)")
    _save(plt, figure, file)


def _short(name: str, limit: int = 24) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


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
.low { color: #a00; } .high { color: #060; }
.rare, .rare td { color: #767676; }
.verdict { background: #f6f8fa; border: 1px solid #d0d7de; padding: 0.5em 1.2em; margin: 1em 0; }
details summary { cursor: pointer; font-weight: bold; margin: 0.5em 0; }
"""


def _number(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _interval(pair: Sequence[float] | None, digits: int = 3) -> str:
    return "-" if pair is None else f"{pair[0]:.{digits}f} - {pair[1]:.{digits}f}"


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], classes: Sequence[str] | None = None) -> str:
    """An HTML table; cells are inserted as given (escape text with :func:`html.escape` first); ``classes``: one per row."""
    head = "".join(f'<th scope="col">{html.escape(cell)}</th>' for cell in header)
    body = "".join(
        (f'<tr class="{classes[index]}">' if classes and classes[index] else "<tr>") + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
        for index, row in enumerate(rows)
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _image(name: str, alt: str) -> str:
    return f'<p><img src="{html.escape(name)}" alt="{html.escape(alt)}"></p>'


def _share_cell(item: Mapping[str, Any], parity: float) -> str:
    low, high = item["win_share_ci95"]
    css = "high" if low > parity else "low" if high < parity else ""
    return f'<span class="{css}">{item["win_share"]:.3f}</span>'


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def _duration(seconds: float) -> str:
    """Seconds in words: ``45 s``, ``2 min 10 s``, ``1 h 5 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{whole} s"
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def study_answers(summary: Mapping[str, Any]) -> list[str]:
    """A study's answers in words: first-player advantage, bots, length, the cards furthest from parity, rare cards."""
    answers = []
    by_turn = summary.get("turn_order") is not None
    positions = summary["turn_order"] if by_turn else summary["positions"]
    parity = positions[0]["parity"]
    if by_turn:
        first = positions[0]
        low, high = first["win_share_ci95"]
        edge = "a significant edge" if low > parity else "a significant handicap" if high < parity else "no significant edge"
        answers.append(
            f"The first player wins {_percent(first['win_share'])} of the games (95% CI {_percent(low)} to {_percent(high)}; "
            f"parity is {_percent(parity)}): {edge} ({100 * (first['win_share'] - parity):+.1f} points)."
        )
    else:
        furthest = max(positions, key=lambda item: abs(item["win_share"] - parity))
        low, high = furthest["win_share_ci95"]
        verdict = "significantly" if low > parity or high < parity else "not significantly"
        answers.append(
            f"No seat moves first. The seat furthest from parity is seat {furthest['seat']} with {_percent(furthest['win_share'])} "
            f"(95% CI {_percent(low)} to {_percent(high)}; parity {_percent(parity)}), {verdict} different."
        )
    bots = summary["bots"]
    if len(bots) > 1:
        words = "; ".join(
            f"{item['bot']} {_percent(item['win_share'])} (95% CI {_percent(item['win_share_ci95'][0])} to "
            f"{_percent(item['win_share_ci95'][1])})"
            for item in bots
        )
        answers.append(f"Win share by bot (parity {_percent(bots[0]['parity'])}): {words}.")
    length = summary["length"]
    unit = summary.get("length_in_units")
    extra = (
        f", {unit['mean']:.1f} {unit['unit']} (from {unit['min']:.0f} to {unit['max']:.0f})"
        if unit and unit.get("mean") is not None
        else ""
    )
    answers.append(f"A game lasts {length['mean']:.0f} actions on average (from {length['min']:.0f} to {length['max']:.0f}){extra}.")
    judged = [item for item in summary["cards"]["by_card"] if not item.get("rare")]
    outside = [item for item in judged if item["win_share_ci95"][0] > parity or item["win_share_ci95"][1] < parity]
    if outside:
        top = by_distance(outside, parity)[:5]
        words = "; ".join(f"{item.get('title', item['card'])} ({item['action']}): {_percent(item['win_share'])}" for item in top)
        answers.append(
            f"{len(outside)} card-and-action pairs have a win share whose whole interval is away from parity; the furthest: {words}. "
            "(Association, not cause: strong players may favour a card.)"
        )
    elif judged:
        answers.append("No card's win share is significantly away from parity (each card's 95% interval includes it).")
    rare = {item["card"] for item in summary["cards"]["by_card"] if item.get("rare")}
    if rare:
        answers.append(f"{len(rare)} cards were played too rarely to judge (fewer than {RARE_SEAT_GAMES} game-seats): they are greyed.")
    played = ", ".join(item["bot"] for item in bots)
    if all(item["bot"].split(":")[0] in WEAK_BOTS for item in bots):
        answers.append(
            f"Played by rule-of-thumb bots only ({played}): fast, but a stronger player may see the game differently; "
            "confirm a finding with search bots (docs/simulation.md)."
        )
    return answers


def render_html(summary: Mapping[str, Any], title: str) -> str:
    """The report page for ``summary``: answers in words, then the plots, then the tables (plots named as in :data:`PLOTS`)."""
    study = summary["study"]
    parity = summary["positions"][0]["parity"]
    labels: Mapping[str, str] = summary.get("labels", {})

    def label(name: str) -> str:
        return labels.get(name) or name.replace("_", " ")

    several = len(summary["bots"]) > 1
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>"
    ]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    parts.append("<section class='verdict' aria-label='summary'><h2>Summary</h2><ul>")
    parts.extend(f"<li>{html.escape(answer)}</li>" for answer in study_answers(summary))
    parts.append("</ul></section>")
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
    if summary.get("parameters"):
        facts.append(("rule parameters changed", ", ".join(f"{name} = {value}" for name, value in summary["parameters"].items())))
    run = summary.get("run") or {}
    if run:
        speed = run.get("games_per_second")
        facts.append(
            (
                "this run",
                f"{run.get('games_played', 0)} games played, {run.get('games_reused', 0)} reused, "
                f"{_duration(run.get('seconds', 0.0))} on {run.get('backend', '?')}" + (f" ({speed:.1f} games/s)" if speed else ""),
            )
        )
        if run.get("runs"):
            runs = f"{run['runs']} run" + ("s" if run["runs"] > 1 else "")
            facts.append(("time to play", f"{_duration(run.get('total_seconds', 0.0))} in all ({runs})"))
    parts.append(html_table(["study", ""], [[html.escape(name), html.escape(value)] for name, value in facts]))

    by_turn = summary.get("turn_order") is not None
    parts.append("<h2>Plots</h2>")
    if summary.get("seats_note"):
        parts.append(f"<p class='note'>{html.escape(summary['seats_note'])}</p>")
    parts.append(_image(PLOTS[0], "win share by place in the turn order" if by_turn else "win share by seat position"))
    if several:
        parts.append(_image(PLOTS[1], "win share and score per bot"))
        parts.append(_image(PLOTS[2], "score breakdown per category and bot"))
    parts.append(_image(PLOTS[3], "game length"))
    parts.append(_image(PLOTS[4], "per-game statistics"))
    if several:
        parts.append(_image(PLOTS[5], "per-seat statistics by bot"))
    parts.append(_image(PLOTS[6], "per-card statistics"))
    parts.append(_image(PLOTS[7], "per-card-type statistics"))

    parts.append("<h2>Tables</h2>")
    parts.append(
        "<p class='note'>Win shares split ties (1/k to each of k winners). Intervals are 95%: Wilson for shares, normal for means. "
        "Green: significantly above parity; red: significantly below.</p>"
    )
    for heading, key, words in (
        ("Turn order (first-player advantage)", "turn_order", "place"),
        ("Seat position", "positions", "position"),
    ):
        items = summary.get(key)
        if not items:
            continue
        parts.append(f"<h3>{heading}</h3>")
        rows = [
            [
                _place(item["seat"]) if key == "turn_order" else f"seat {item['seat']}",
                str(item["games"]),
                _share_cell(item, item["parity"]),
                _interval(item["win_share_ci95"]),
                _number(item["parity"]),
                _number(item["p_value_vs_parity"], 4),
                _number(item["mean_score"], 1),
                _interval(item["mean_score_ci95"], 1),
            ]
            for item in items
        ]
        parts.append(html_table([words, "games", "win share", "95% CI", "parity", "p (vs parity)", "mean score", "95% CI"], rows))

    parts.append("<h3>Bots</h3>")
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

    parts.append("<h3>Score breakdown (mean per seat)</h3>")
    bots = summary["bots"]
    bot_columns = [bot["bot"] for bot in bots] if several else []
    rows = [
        [
            html.escape(label(category)),
            _number(value, 2),
            *(_number(bot["breakdown"].get(category), 2) for bot in (bots if several else [])),
        ]
        for category, value in summary["breakdown"].items()
    ]
    parts.append(html_table(["category", "all seats", *bot_columns], rows))
    label_rows = [(bot["bot"], key, counts) for bot in bots for key, counts in bot["labels"].items()]
    if label_rows:
        rows = [
            [html.escape(bot), html.escape(label(key)), html.escape(", ".join(f"{value}: {count}" for value, count in counts.items()))]
            for bot, key, counts in label_rows
        ]
        parts.append(html_table(["bot", "field", "seats by value"], rows))

    length = summary["length"]
    parts.append("<h3>Game length</h3>")
    unit = summary.get("length_in_units")
    in_units = (
        f" {unit['mean']:.1f} {html.escape(unit['unit'])} (95% CI {_interval(unit['ci95'], 1)}, "
        f"from {unit['min']:.0f} to {unit['max']:.0f})."
        if unit and unit.get("mean") is not None
        else ""
    )
    spread = f"from {length['min']:.0f} to {length['max']:.0f}"
    parts.append(f"<p>Mean {length['mean']:.1f} actions (95% CI {_interval(length['ci95'], 1)}), {spread}.{in_units}</p>")

    stats = summary["statistics"]
    parts.append("<h3>Game statistics</h3>")
    rows = [
        [
            html.escape(label(name)),
            str(item["n"]),
            _number(item["mean"]),
            _interval(item["ci95"]),
            _number(item["min"]),
            _number(item["max"]),
        ]
        for name, item in stats["game"].items()
    ]
    parts.append(html_table(["per game", "games", "mean", "95% CI", "min", "max"], rows))
    bot_names = list(stats["seat_by_bot"]) if several else []
    rows = [
        [
            html.escape(label(name)),
            str(item["n"]),
            _number(item["mean"]),
            _interval(item["ci95"]),
            *(_number(stats["seat_by_bot"][bot].get(name)) for bot in bot_names),
        ]
        for name, item in stats["seat"].items()
    ]
    parts.append(html_table(["per seat", "seats", "mean", "95% CI", *bot_names], rows))

    parts.append("<h3>Cards</h3>")
    parts.append(
        "<p class='note'>For each action, how often a card (or type) was involved per game, and the win share of the seats that did it, "
        f"once per game and seat. Lift is that share over parity ({parity:.3f}): an association with winning, not a cause. "
        f"Sorted by distance from parity; cards fewer than {RARE_SEAT_GAMES} seats did are greyed (too rare to judge) and listed last.</p>"
    )
    for key, items in (("type", summary["cards"]["by_type"]), ("card", summary["cards"]["by_card"])):
        for action, entries in _top_by_action(items, 10**6).items():
            ordered = by_distance(entries, parity)
            rows = [
                [
                    html.escape(str(item.get("title", item[key])))
                    + (f" <span class='note'>({html.escape(str(item[key]))})</span>" if key == "card" else ""),
                    html.escape(str(item.get("type", ""))) if key == "card" else str(item["times"]),
                    str(item["times"]) if key == "card" else _number(item["per_game"]),
                    _number(item["per_game"]) if key == "card" else str(item["seat_games"]),
                    str(item["seat_games"]) if key == "card" else _share_cell(item, parity),
                    (_share_cell(item, parity) if not item.get("rare") else f"{item['win_share']:.3f}")
                    if key == "card"
                    else _interval(item["win_share_ci95"]),
                    _interval(item["win_share_ci95"]) if key == "card" else _number(item["lift"], 2),
                    *([_number(item["lift"], 2)] if key == "card" else []),
                ]
                for item in ordered
            ]
            header = (
                ["card", "type", "times", "per game", "game-seats", "win share", "95% CI", "lift"]
                if key == "card"
                else ["type", "times", "per game", "game-seats", "win share", "95% CI", "lift"]
            )
            classes = ["rare" if item.get("rare") else "" for item in ordered]
            summary_line = f"{html.escape(action)}, by {key} ({len(ordered)})"
            opened = " open" if key == "type" else ""
            parts.append(f"<details{opened}><summary>{summary_line}</summary>")
            parts.append(html_table(header, rows, classes))
            parts.append("</details>")
    parts.append(
        "<p class='note'>All numbers are in summary.json; every game is a row of games.parquet (and games.csv), "
        "every card action a row of cards.parquet; the per-card table is in cards_summary.csv for a spreadsheet.</p>"
    )
    parts.append("</main></body></html>")
    return "\n".join(parts)


def write_report(out: str | Path, summary: Mapping[str, Any], results: Sequence[GameResult], title: str | None = None) -> list[Path]:
    """Draw the plots of :data:`PLOTS` (the per-bot ones only with several bots) and ``report.html``; return the files written."""
    plt = pyplot()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    parity = summary["positions"][0]["parity"]
    several = len(summary["bots"]) > 1
    plot_positions(plt, summary, folder / PLOTS[0])
    if several:
        plot_bots(plt, summary, results, folder / PLOTS[1])
        plot_breakdown(plt, summary, folder / PLOTS[2])
    plot_length(plt, results, folder / PLOTS[3])
    plot_game_statistics(plt, results, folder / PLOTS[4], summary.get("labels", {}))
    if several:
        plot_seat_statistics(plt, summary, folder / PLOTS[5])
    plot_cards(plt, summary["cards"]["by_card"], parity, folder / PLOTS[6])
    plot_card_types(plt, summary["cards"]["by_type"], parity, folder / PLOTS[7])
    for name in PER_BOT_PLOTS if not several else ():
        (folder / name).unlink(missing_ok=True)  # a drawing left by an earlier run of another line-up
    study = summary["study"]
    heading = title or f"{study['game']}: {study['num_players']} players, {summary['games']} games"
    (folder / REPORT).write_text(render_html(summary, heading), encoding="utf-8")
    return [folder / name for name in PLOTS if several or name not in PER_BOT_PLOTS] + [folder / REPORT]


def write_summary(out: str | Path, summary: Mapping[str, Any]) -> Path:
    """Write ``summary.json``."""
    file = Path(out) / "summary.json"
    file.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return file
