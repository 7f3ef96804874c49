"""``greenlight balance``: the cards furthest from parity, and a fair value for the worst few, within one game budget.

A third of the budget plays a study (``OUT/study``); every card done by
enough seats to judge is ranked by how far the win share of the seats that
did its main action lies from parity, those whose whole interval is away
from it first. For the ``top`` cards whose table names a field to tune (a
star's or a production card's cost, a script's points: ``DataTable.tune``),
the rest of the budget sweeps that field around its value (two steps each
way, within the field's bounds) with :mod:`greenlight.sim.sweep`
(``OUT/sweep-<card>``), each with the same deals, and keeps the suggested
value. Everything resumes: rerun the same command.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.sim.report import STYLE, html_table, write_report, write_summary
from greenlight.sim.runner import GameResult
from greenlight.sim.spreadsheets import dataset_of
from greenlight.sim.study import Backend, LocalBackend, prepare_study, read_study_data, run_study
from greenlight.sim.summary import summarize_study
from greenlight.sim.sweep import SweepProgress, SweepResult, run_sweep

BALANCE_JSON = "balance.json"
BALANCE_HTML = "balance.html"
#: Steps each way around a card's value that a balance sweep tries.
SPAN = 2


@dataclass(slots=True)
class Candidate:
    """A card far from parity: its measure in the study, the field to tune, and the sweep's suggestion."""

    card: str
    title: str
    table: str | None
    action: str
    win_share: float
    low: float
    high: float
    seat_games: int
    parity: float
    tune: str | None = None
    current: int | None = None
    sweep: SweepResult | None = None

    @property
    def significant(self) -> bool:
        """Whether the whole interval lies away from parity."""
        return self.low > self.parity or self.high < self.parity

    @property
    def distance(self) -> float:
        """How far the win share lies from parity."""
        return self.win_share - self.parity

    def words(self) -> str:
        """One line: the card, how far from parity, and the suggestion."""
        where = "above" if self.distance > 0 else "below"
        text = (
            f"{self.title} ({self.action}): win share {100 * self.win_share:.1f} % "
            f"(95% CI {100 * self.low:.1f} to {100 * self.high:.1f} %), {abs(100 * self.distance):.1f} points {where} parity"
        )
        if self.sweep is not None:
            return text + ". " + self.sweep.verdict()
        if self.tune is None:
            return text + " (its table names no number to tune)."
        return text + "."

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "card": self.card,
            "title": self.title,
            "table": self.table,
            "action": self.action,
            "win_share": self.win_share,
            "win_share_ci95": [self.low, self.high],
            "seat_games": self.seat_games,
            "parity": self.parity,
            "significant": self.significant,
            "tune": self.tune,
            "current": self.current,
            "suggested": self.sweep.suggested.value if self.sweep is not None and self.sweep.suggested is not None else None,
            "suggested_at_parity": self.sweep.suggested_at_parity if self.sweep is not None else None,
            "sweep": str(self.sweep.folders[0].parent) if self.sweep is not None and self.sweep.folders else None,
        }


@dataclass(slots=True)
class BalanceReport:
    """What ``balance`` found: the study's first-player line, the ranked cards, the budget spent."""

    game: str
    study: Path
    games: int
    parity: float
    first_player: str
    candidates: list[Candidate] = field(default_factory=list)
    budget: int = 0

    def lines(self) -> list[str]:
        """The answer in sentences, furthest card first."""
        lines = [self.first_player]
        significant = [item for item in self.candidates if item.significant]
        if not significant:
            lines.append(f"No card's win share is significantly away from parity in {self.games} games (more games find smaller gaps).")
        lines.extend(item.words() for item in self.candidates if item.sweep is not None or item.significant)
        return lines

    def rows(self) -> list[list[str]]:
        """Table rows: card, action, win share, interval, distance, field, now, suggested."""
        rows = []
        for item in self.candidates:
            suggested = "-"
            if item.sweep is not None and item.sweep.suggested is not None:
                suggested = str(item.sweep.suggested.value) + ("" if item.sweep.suggested_at_parity else " (no value at parity)")
            rows.append(
                [
                    item.title,
                    item.action,
                    f"{item.win_share:.3f}",
                    f"{item.low:.3f}-{item.high:.3f}",
                    f"{item.distance:+.3f}",
                    item.tune or "-",
                    str(item.current) if item.current is not None else "-",
                    suggested,
                ]
            )
        return rows

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``balance.json``)."""
        return {
            "game": self.game,
            "study": str(self.study),
            "games": self.games,
            "parity": self.parity,
            "first_player": self.first_player,
            "budget": self.budget,
            "cards": [item.to_json() for item in self.candidates],
            "summary": self.lines(),
        }


class _Forward:
    """Forwards a study's or a sweep's games to the balance's one progress bar (their own totals are part of it)."""

    def __init__(self, outer: SweepProgress | None) -> None:
        self.outer = outer
        self.reused = 0

    def start(self, total: int, done: int) -> None:
        self.reused = done

    def advance(self, row: GameResult) -> None:
        if self.outer is not None:
            self.outer.advance(row)


def _first_player_line(summary: Mapping[str, Any]) -> str:
    by_turn = summary.get("turn_order") is not None
    first = (summary["turn_order"] if by_turn else summary["positions"])[0]
    low, high = first["win_share_ci95"]
    parity = first["parity"]
    who = "The first player" if by_turn else "Seat 0"
    verdict = "significantly above" if low > parity else "significantly below" if high < parity else "not significantly away from"
    return (
        f"{who} wins {100 * first['win_share']:.1f} % (95% CI {100 * low:.1f} to {100 * high:.1f} %), {verdict} parity "
        f"{100 * parity:.1f} %."
    )


def rank_cards(summary: Mapping[str, Any], tables: Mapping[str, Sequence[Mapping[str, Any]]] | None, game_name: str) -> list[Candidate]:
    """Every judged card at its most frequent action, furthest from parity first (significant ones before the others)."""
    parity = summary["positions"][0]["parity"]
    game = get_game(game_name)
    dataset = game.data
    owner: dict[str, tuple[str, str | None, int | None]] = {}
    for name, records in (tables or {}).items():
        table = dataset.table(name) if dataset is not None and name in dataset.names() else None
        if table is None:
            continue
        for record in records:
            tune = table.tune
            current = record.get(tune) if tune else None
            owner[str(record[table.id_field])] = (name, tune, current if isinstance(current, int) else None)
    best: dict[str, Mapping[str, Any]] = {}
    for item in summary["cards"]["by_card"]:
        if item.get("rare"):
            continue
        seen = best.get(item["card"])
        if seen is None or item["seat_games"] > seen["seat_games"]:
            best[item["card"]] = item
    candidates = []
    for card, item in best.items():
        table_name, tune, current = owner.get(card, (None, None, None))
        low, high = item["win_share_ci95"]
        candidates.append(
            Candidate(
                card,
                str(item.get("title", card)),
                table_name,
                item["action"],
                item["win_share"],
                low,
                high,
                item["seat_games"],
                parity,
                tune,
                current,
            )
        )
    candidates.sort(key=lambda item: (not item.significant, -abs(item.distance)))
    return candidates


def run_balance(
    game_name: str,
    num_players: int,
    bots: Sequence[str],
    budget: int,
    top: int,
    seed: int,
    out: str | Path,
    options: Mapping[str, OptionValue] | None = None,
    backend: Backend | None = None,
    progress: SweepProgress | None = None,
    fresh: bool = False,
) -> BalanceReport:
    """Study, rank and sweep within ``budget`` games (see the module docstring); write ``balance.json`` and ``balance.html``."""
    if budget < 40:
        raise OptionError("a balance run needs a budget of at least 40 games (--budget)")
    game = get_game(game_name)
    dataset_of(game)
    folder = Path(out)
    base = dict(options or {})
    study_games = max(20, budget // 3)
    values = 2 * SPAN + 1
    per_value = (budget - study_games) // max(1, top * values)
    if top > 0 and per_value < 2:
        raise OptionError(f"a budget of {budget} games leaves fewer than 2 games per swept value; raise --budget or lower --top")
    if progress is not None:
        progress.start(study_games + top * values * per_value, 0)
    study = prepare_study(game.spec.id, num_players, bots, study_games, seed, base)
    forward = _Forward(progress)
    run = run_study(study, folder / "study", backend or LocalBackend(), forward, fresh=fresh)
    if progress is not None:
        for row in run.results[: forward.reused]:
            progress.advance(row)
    data = read_study_data(folder / "study") or {}
    summary = summarize_study(study.to_json(), run.results, run.cards, run.run_info(), data.get("titles"))
    write_summary(folder / "study", summary)
    write_report(folder / "study", summary, run.results)
    candidates = rank_cards(summary, data.get("tables"), game.spec.id)
    chosen = [item for item in candidates if item.significant and item.tune is not None and item.current is not None][:top]
    for item in chosen:
        assert item.table is not None and item.tune is not None and item.current is not None
        spec = dataset_of(game).table(item.table).field(item.tune)
        low = max(spec.minimum if spec.minimum is not None else item.current - SPAN, item.current - SPAN)
        high = min(spec.maximum if spec.maximum is not None else item.current + SPAN, item.current + SPAN)
        vary = f"{item.table}.{item.card}.{item.tune}={low}..{high}"
        item.sweep = run_sweep(
            game.spec.id,
            num_players,
            bots,
            vary,
            per_value,
            seed,
            folder / f"sweep-{item.card}",
            base,
            backend,
            _Forward(progress),
            fresh,
            item.action,
        )
    report = BalanceReport(game.spec.id, folder / "study", study_games, summary["positions"][0]["parity"], _first_player_line(summary))
    report.candidates = candidates[: max(top * 3, 10)]
    report.budget = study_games + len(chosen) * values * per_value
    write_balance(folder, report)
    return report


def write_balance(folder: Path, report: BalanceReport) -> list[Path]:
    """``balance.json`` and ``balance.html`` (the sentences, then the table, linking each sweep's page)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / BALANCE_JSON).write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
    title = f"Balance of {report.game}"
    rows = [[html.escape(cell) for cell in row] for row in report.rows()]
    for row, item in zip(rows, report.candidates, strict=True):
        if item.sweep is not None and item.sweep.folders:
            link = f"{item.sweep.folders[0].parent.name}/sweep.html"
            row[-1] = f'<a href="{html.escape(link)}">{row[-1]}</a>'
    page = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>",
        f"<h1>{html.escape(title)}</h1><section class='verdict' aria-label='summary'><h2>Summary</h2><ul>",
        *(f"<li>{html.escape(line)}</li>" for line in report.lines()),
        "</ul></section>",
        html_table(["card", "action", "win share", "95% CI", "from parity", "field", "now", "suggested"], rows),
        f"<p class='note'>The study: <a href='study/report.html'>study/report.html</a> ({report.games} games). "
        f"{report.budget} games played in all.</p></main></body></html>",
    ]
    (folder / BALANCE_HTML).write_text("\n".join(page), encoding="utf-8")
    return [folder / BALANCE_JSON, folder / BALANCE_HTML]
