"""Study results as CSV for a spreadsheet, beside the Parquet tables.

``games.csv`` holds the games table as it is (one row per game, the columns
of :mod:`greenlight.sim.rows`), and ``cards_summary.csv`` the per-card table
of the report (title, type, action, times, per game, game-seats, win share
with its interval, lift, too rare to judge), sorted like the report. A study
stored as CSV (no pyarrow) already has its ``games.csv``.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from greenlight.sim.rows import Cell
from greenlight.sim.storage import CSV

GAMES_CSV = "games.csv"
CARDS_CSV = "cards_summary.csv"
CARD_COLUMNS = ("card", "title", "type", "action", "times", "per_game", "game_seats", "win_share", "ci95_low", "ci95_high", "lift", "rare")


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_games_csv(out: Path, games: Sequence[Mapping[str, Cell]], storage: str) -> Path:
    """``games.csv`` (the games table as a plain CSV) unless the study is stored as CSV already; return the file."""
    file = out / GAMES_CSV
    if storage == CSV:
        return file
    columns = list(dict.fromkeys(name for row in games for name in row))
    temporary = file.with_name(f".{file.name}.tmp")
    with temporary.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in games:
            writer.writerow(_cell(row.get(name)) for name in columns)
    temporary.replace(file)
    return file


def write_cards_csv(out: Path, summary: Mapping[str, Any]) -> Path:
    """``cards_summary.csv``: every (card, action) of the summary, sorted by action then by distance from parity."""
    parity = summary["positions"][0]["parity"]
    items = sorted(
        summary["cards"]["by_card"],
        key=lambda item: (item["action"], bool(item.get("rare")), -abs(item["win_share"] - parity)),
    )
    file = out / CARDS_CSV
    temporary = file.with_name(f".{file.name}.tmp")
    with temporary.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CARD_COLUMNS)
        for item in items:
            low, high = item["win_share_ci95"]
            writer.writerow(
                [
                    item["card"],
                    item.get("title", item["card"]),
                    item["type"],
                    item["action"],
                    item["times"],
                    f"{item['per_game']:.4f}",
                    item["seat_games"],
                    f"{item['win_share']:.4f}",
                    f"{low:.4f}",
                    f"{high:.4f}",
                    f"{item['lift']:.4f}" if item.get("lift") is not None else "",
                    "true" if item.get("rare") else "false",
                ]
            )
    temporary.replace(file)
    return file
