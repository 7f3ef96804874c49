"""``review.html``: a game review as one self-contained page, readable by someone who did not play.

A line shows the reviewed seat's estimated win share before each of its
decisions; labelled moves are marked on it in colour, and a table below
says, in the game's words, what was played, what the search preferred, and
what each was estimated to win.
"""

from __future__ import annotations

from html import escape

from greenlight.bots.review import LABELS, THRESHOLDS, Review, ReviewedMove

COLOURS = {"good": "#2e7d32", "inaccuracy": "#b8860b", "mistake": "#e65100", "blunder": "#c62828"}
PLURALS = {"good": "good", "inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
WIDTH, HEIGHT, PAD = 760, 260, 40


def review_html(review: Review) -> str:
    """The page for ``review``."""
    counts = review.counts()
    summary = ", ".join(f"{counts[label]} {PLURALS[label] if counts[label] != 1 else label}" for label in LABELS)
    thresholds = "; ".join(f"{label}: loses {threshold:.0%} or more" for label, threshold in reversed(THRESHOLDS))
    budget = f"{review.seconds:g} seconds of search" if review.seconds else "a fixed number of search iterations"
    rows = "\n".join(_row(item) for item in review.decisions)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review of {escape(review.seat_name)} · {escape(review.title)}</title>
<style>
body {{ font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 1rem; color: #1b1b1b; }}
h1 {{ font-size: 1.4rem; margin-bottom: 0.2rem; }}
.summary {{ color: #444; }}
svg {{ width: 100%; height: auto; background: #fafafa; border: 1px solid #ddd; border-radius: 6px; }}
table {{ border-collapse: collapse; width: 100%; margin-top: 1rem; font-size: 0.95rem; }}
th, td {{ text-align: left; vertical-align: top; padding: 0.4rem; border-bottom: 1px solid #e4e4e4; }}
.label {{ font-weight: 600; white-space: nowrap; }}
.share {{ white-space: nowrap; font-variant-numeric: tabular-nums; }}
@media (max-width: 600px) {{
  td.best, th.best {{ display: none; }}
  .label {{ white-space: normal; width: 30%; }}
  td, th {{ padding: 0.35rem 0.25rem; }}
}}
</style>
</head>
<body>
<h1>Review of {escape(review.seat_name)} in {escape(review.title)}</h1>
<p class="summary">{escape(review.result or "The game was not finished.")} · {len(review.decisions)} decisions reviewed with
{escape(budget)} each, from what {escape(review.seat_name)} could see at the time: {escape(summary)}.</p>
{_chart(review)}
<p class="summary">The line is the estimated chance to win before each decision. Labels compare the move played with the best move
the search found ({escape(thresholds)}).</p>
<table>
<thead><tr><th>Move</th><th>Played</th><th class="best">Best found</th><th>Verdict</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
</body>
</html>
"""


def _row(item: ReviewedMove) -> str:
    colour = COLOURS[item.label]
    best = (
        "the same"
        if item.best.action == item.played.action
        else f"{escape(item.best.words)} <span class=share>({item.best.win_share:.0%})</span>"
    )
    verdict = item.label if item.label == "good" else f"{item.label}, loses about {item.loss:.0%}"
    return (
        f'<tr id="move-{item.move}"><td>{item.move}</td>'
        f"<td>{escape(item.played.words)} <span class=share>({item.played.win_share:.0%})</span></td>"
        f'<td class="best">{best}</td>'
        f'<td class="label" style="color:{colour}">{escape(verdict)}</td></tr>'
    )


def _chart(review: Review) -> str:
    decisions = review.decisions
    if not decisions:
        return "<p>No decision with a real choice to review.</p>"
    last = max(review.moves, 1)

    def x(move: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (move / last)

    def y(share: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * share

    points = " ".join(f"{x(item.move):.1f},{y(item.best.win_share):.1f}" for item in decisions)
    grid = "".join(
        f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(level):.1f}" y2="{y(level):.1f}" stroke="#ddd"/>'
        f'<text x="{PAD - 6}" y="{y(level) + 4:.1f}" text-anchor="end" font-size="12" fill="#555">{level:.0%}</text>'
        for level in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    marks = "".join(
        f'<a href="#move-{item.move}"><circle cx="{x(item.move):.1f}" cy="{y(item.best.win_share):.1f}" '
        f'r="{4 if item.label == "good" else 6}" fill="{COLOURS[item.label]}">'
        f"<title>Move {item.move}: {escape(item.label)}</title></circle></a>"
        for item in decisions
    )
    legend = "".join(
        f'<circle cx="{PAD + 10 + 120 * index}" cy="14" r="5" fill="{COLOURS[label]}"/>'
        f'<text x="{PAD + 20 + 120 * index}" y="18" font-size="12">{label}</text>'
        for index, label in enumerate(LABELS)
    )
    return (
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="Estimated chance to win of {escape(review.seat_name)} over the game">'
        f'{grid}{legend}<polyline points="{points}" fill="none" stroke="#1565c0" stroke-width="2"/>{marks}'
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 8}" text-anchor="middle" font-size="12" fill="#555">move of the game</text></svg>'
    )
