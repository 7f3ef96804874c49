"""The comparison in words: what differs between two studies, what changed significantly, and what did not.

A designer reads this first (on ``compare.html`` and in the terminal), before
any table: a few sentences, each with the size of the effect and its 95%
interval, in the game's own words (card titles, labelled statistics).

>>> _percent(0.41), _signed_points(0.082), _number(1234.5), _number(0.0456)
('41.0 %', '+8.2 points', '1,234', '0.0456')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

from greenlight.sim.compare import ALPHA, CARDS, CHANGED, MAIN, Comparison, Headline
from greenlight.sim.datafiles import DataChange
from greenlight.sim.summary import WEAK_BOTS

#: The bot level a designer confirms a heuristic finding with (docs/bots.md, docs/simulation.md).
CONFIRM_WITH = "strong"
#: At most this many data changes are listed one by one.
MAX_CHANGES = 12


def _number(value: float) -> str:
    """A number with about three significant figures."""
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 0.1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def _percent(share: float) -> str:
    return f"{100 * share:.1f} %"


def _signed_points(difference: float) -> str:
    return f"{100 * difference:+.1f} points"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentence(item: Headline) -> str:
    """One number's change in words, with its size and interval.

    >>> from greenlight.sim.compare import Headline
    >>> item = Headline("seat position", "seat 1 win share", "paired t", 0.33, 0.41, (0.3, 0.36), (0.38, 0.44), 900, 900, 1e-5,
    ...                 difference_ci=(0.05, 0.11), label="seat 1's win share", kind="share")
    >>> sentence(item)
    "Seat 1's win share rose from 33.0 % to 41.0 % (+8.0 points; 95% CI +5.0 to +11.0 points)."
    """
    label = _capital(item.label or item.name)
    verb = "rose" if item.difference > 0 else "fell" if item.difference < 0 else "stayed"
    low, high = item.difference_ci
    if item.kind == "share":
        size = f"{_signed_points(item.difference)}; 95% CI {100 * low:+.1f} to {100 * high:+.1f} points"
        text = f"{label} {verb} from {_percent(item.a)} to {_percent(item.b)} ({size})"
    else:
        relative = f"{100 * item.difference / abs(item.a):+.0f} %, " if item.a else ""
        size = f"{relative}{item.difference:+.3g}; 95% CI {low:+.3g} to {high:+.3g}"
        text = f"{label} {verb} from {_number(item.a)} to {_number(item.b)} ({size})"
    if item.also:
        text += f"; the same measure as {', '.join(item.also)}"
    return text + "."


@dataclass(slots=True)
class Verdict:
    """The summary's parts: each a heading and its sentences."""

    differs: list[str] = field(default_factory=list)
    method: str = ""
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    cautions: list[str] = field(default_factory=list)

    def sections(self) -> list[tuple[str, list[str]]]:
        """(heading, sentences) in reading order."""
        return [
            ("What differs between A and B", self.differs),
            ("What changed (significant after correcting for every test)", self.changed or ["Nothing moved beyond chance."]),
            ("What did not change", self.unchanged),
            ("How the studies were compared", [self.method]),
            ("Cautions", self.cautions),
        ]

    def text(self) -> str:
        """Plain text for the terminal."""
        lines = []
        for heading, sentences in self.sections():
            if not sentences:
                continue
            lines.append(heading + ":")
            lines.extend(f"  - {item}" for item in sentences)
        return "\n".join(lines)


def _largest(items: Sequence[Headline]) -> str:
    item = max(items, key=lambda headline: abs(headline.difference))
    if item.kind == "share":
        return f"largest move {_signed_points(item.difference)}"
    if item.a:
        return f"largest move {100 * item.difference / abs(item.a):+.1f} %"
    return f"largest move {item.difference:+.3g}"


def _unchanged(comparison: Comparison) -> list[str]:
    quiet = [item for item in comparison.headlines if item.family == MAIN and not item.significant and not item.changed]
    groups = (
        ("win shares by seat position", ("seat position",)),
        ("win shares by place in the turn order", ("turn order",)),
        ("the bots' win shares and scores", ("bot",)),
        ("game length", ("game length",)),
        ("score categories", ("score breakdown",)),
        ("the game's statistics", ("seat statistic", "game statistic")),
    )
    sentences = []
    for words, sections in groups:
        items = [item for item in quiet if item.section in sections]
        everything = [item for item in comparison.headlines if item.section in sections and item.family == MAIN]
        if not items:
            continue
        if len(items) == len(everything):
            sentences.append(f"{_capital(words)}: no significant change ({_largest(items)}).")
        else:
            sentences.append(
                f"{_capital(words)}: {len(items)} of {len(everything)} numbers did not change significantly ({_largest(items)})."
            )
    changed = [item for item in comparison.headlines if item.changed]
    moved = {item.subject for item in changed if item.significant}
    subjects = list(dict.fromkeys(item.subject for item in changed if item.subject is not None and item.subject not in moved))
    rare_names = []
    shown = 0
    for subject in subjects:
        items = [item for item in changed if item.subject == subject]
        name = items[0].label.split(": ", 1)[0]
        if all(item.rare for item in items):
            rare_names.append(name)
            continue
        shown += 1
        if shown > MAX_CHANGES:
            continue
        figures = "; ".join(
            f"{item.label.split(': ', 1)[-1]} {_figure(item.a, item.kind)} -> {_figure(item.b, item.kind)}" for item in _once(items)[:4]
        )
        sentences.append(f"{_capital(name)}, whose data changed: no significant change ({figures}).")
    if shown > MAX_CHANGES:
        sentences.append(f"... and {shown - MAX_CHANGES} more changed cards without a significant change.")
    if rare_names:
        listed = ", ".join(rare_names[:8]) + (f" and {len(rare_names) - 8} more" if len(rare_names) > 8 else "")
        sentences.append(
            f"{len(rare_names)} changed cards were played too rarely to judge (fewer than 30 game-seats in a study): {listed}."
        )
    return sentences


def _once(items: Sequence[Headline]) -> list[Headline]:
    """The headlines without those that repeat an earlier one (the same measure under another name)."""
    kept: list[Headline] = []
    for item in items:
        if not any((item.label or item.name) in earlier.also for earlier in kept):
            kept.append(item)
    return kept


def _figure(value: float, kind: str) -> str:
    return _percent(value) if kind == "share" else _number(value)


def _cautions(comparison: Comparison) -> list[str]:
    cautions = list(comparison.warnings)
    bots = set(comparison.bots[0]) | set(comparison.bots[1])
    weak = {name for name in bots if name.split(":")[0] in WEAK_BOTS}
    significant = [item for item in comparison.headlines if item.significant]
    if significant and weak == bots:
        cautions.append(
            f"Every seat was played by rule-of-thumb bots ({', '.join(sorted(bots))}): a stronger player may use the change "
            f"differently. Confirm a finding with a smaller study with a search bot (-b {CONFIRM_WITH}, docs/simulation.md) "
            "before you rely on it."
        )
    elif significant and weak and weak != bots:
        moved = {item.name.rsplit(" ", 2)[0] for item in significant if item.section == "bot"}
        if moved and moved <= weak:
            strong = ", ".join(sorted(bots - weak))
            cautions.append(
                f"Only the rule-of-thumb bots' numbers moved ({', '.join(sorted(moved))}), not {strong}'s: the finding may not "
                "hold for strong play."
            )
    return cautions


#: At most this many cards are named one by one among the significant changes of a family (the rest are counted).
MAX_CARD_SENTENCES = 6


def _size(item: Headline) -> float:
    """How large a card's change is, to name the largest first: points of win share, or times per game."""
    return abs(item.difference)


def _changed(comparison: Comparison) -> list[str]:
    """The significant changes in reading order: the changed card types, the main numbers, the changed cards (the
    largest first, the rest counted), then the other cards; a measure and its duplicates once."""
    significant = [item for item in comparison.headlines if item.significant and not item.rare]
    groups = (
        [item for item in significant if item.changed and item.section == "card type"],
        [item for item in significant if item.family == MAIN],
        sorted((item for item in significant if item.changed and item.section == "card"), key=_size, reverse=True),
        sorted((item for item in significant if not item.changed and item.family == CARDS), key=_size, reverse=True),
    )
    seen: set[str] = set()
    sentences: list[str] = []
    for number, group in enumerate(groups):
        named = 0
        left = 0
        for item in group:
            key = item.label or item.name
            if key in seen:
                continue
            seen.update([key, *item.also])
            if number >= 2 and named >= MAX_CARD_SENTENCES:
                left += 1
                continue
            named += 1
            sentences.append(sentence(item))
        if left:
            what = "cards whose data changed" if number == 2 else "other cards"
            sentences.append(f"... and {left} smaller significant changes of {what} (every one is in compare.html).")
    return sentences


def change_words(changes: Sequence[DataChange]) -> list[str]:
    """The data changes in words: one line per change, or one line for many cards whose same field moved alike.

    >>> from greenlight.sim.datafiles import DataChange
    >>> alike = [DataChange("stars", f"S{n}", f"Star {n}", "star", "cost", n + 1, n) for n in range(5)]
    >>> change_words(alike)
    ['cost of 5 stars 1 lower: Star 0 1 -> 0, Star 1 2 -> 1, Star 2 3 -> 2, Star 3 4 -> 3, Star 4 5 -> 4']
    """
    grouped: dict[tuple[str, str | None], list[DataChange]] = {}
    for change in changes:
        grouped.setdefault((change.table, change.field), []).append(change)
    lines: list[str] = []
    for (table, field_name), items in grouped.items():
        if field_name is None or len(items) < 4:
            lines.extend(item.words() for item in items)
            continue
        deltas = {item.after - item.before for item in items if isinstance(item.before, int) and isinstance(item.after, int)}
        how = "changed"
        if len(deltas) == 1 and len(items) == sum(1 for item in items if isinstance(item.before, int)):
            delta = deltas.pop()
            how = f"{abs(delta)} {'higher' if delta > 0 else 'lower'}"
        listed = ", ".join(f"{item.title} {item.before} -> {item.after}" for item in items[:MAX_CHANGES])
        more = f" and {len(items) - MAX_CHANGES} more" if len(items) > MAX_CHANGES else ""
        lines.append(f"{field_name} of {len(items)} {table} {how}: {listed}{more}")
    return lines


def verdict(comparison: Comparison) -> Verdict:
    """The summary of a comparison (see the module docstring)."""
    result = Verdict()
    result.differs = change_words(comparison.changes)
    result.differs += list(comparison.settings)
    if not result.differs:
        result.differs = ["No difference in the data or options was recorded (a study written without data.json, or none)."]
    games = comparison.games
    if comparison.paired:
        result.method = (
            f"Game by game: both studies replay the same {games[0]:,} deals with the same bots and bot seeds, so each game of B is "
            "compared with its twin in A (paired t-tests), which removes the luck of the deal."
        )
    else:
        result.method = (
            f"As independent samples ({games[0]:,} and {games[1]:,} games): two-proportion z-tests for win shares, Welch's t-tests "
            "for means."
        )
    counts = {family: sum(1 for item in comparison.headlines if item.family == family) for family in (CHANGED, MAIN, CARDS)}
    result.method += (
        f" Each p-value is corrected (Holm) for the numbers of its family: {counts[CHANGED]} about the cards you changed, "
        f"{counts[MAIN]} main numbers, {counts[CARDS]} about the other cards (numbers that measure the same thing count once); "
        f"a change is called significant when the corrected p-value is below {ALPHA}. Intervals are 95 %."
    )
    result.changed = _changed(comparison)
    rare = [item for item in comparison.headlines if item.significant and item.rare]
    if rare:
        result.changed.append(f"{len(rare)} more changes concern cards seen too rarely to judge (see the table at the end).")
    result.unchanged = _unchanged(comparison)
    result.cautions = _cautions(comparison)
    return result


def verdict_html(comparison: Comparison) -> str:
    """The summary as HTML: one heading and list per part."""
    parts = ["<section class='verdict' aria-label='summary'><h2>Summary</h2>"]
    for heading, sentences in verdict(comparison).sections():
        if not sentences:
            continue
        parts.append(f"<h3>{html.escape(heading)}</h3><ul>")
        parts.extend(f"<li>{html.escape(item)}</li>" for item in sentences)
        parts.append("</ul>")
    parts.append("</section>")
    return "".join(parts)
