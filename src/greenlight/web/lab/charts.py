"""The lab's interactive charts as Vega-Lite specifications (plain JSON data), drawn in the browser by Vega.

Every chart carries its numbers inline (no URL is ever fetched) and a tooltip
on every mark: hover a card to read its name and figures. Intervals are 95%,
parity is a dashed rule. The browser draws them with the Vega, Vega-Lite and
vega-embed files the server ships (no CDN).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
#: Charts take the width of their box (a phone's, a desktop's).
WIDTH = "container"
AUTOSIZE = {"type": "fit-x", "contains": "padding"}


def _place(place: int) -> str:
    return f"{place + 1}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place + 1, 'th') } to act"


def _interval_chart(rows: list[dict[str, Any]], x: str, x_title: str, parity: float, title: str, x_type: str = "nominal") -> dict[str, Any]:
    """Points with their 95% interval against parity (rows: x, share, low, high and tooltip fields)."""
    tooltip = [{"field": x, "title": x_title}, {"field": "share", "title": "win share", "format": ".3f"}]
    tooltip += [{"field": "low", "title": "95% CI from", "format": ".3f"}, {"field": "high", "title": "95% CI to", "format": ".3f"}]
    tooltip += [{"field": key, "title": key.replace("_", " ")} for key in rows[0] if key not in (x, "share", "low", "high")] if rows else []
    encoding_x = {"field": x, "type": x_type, "title": x_title, "sort": None}
    return {
        "$schema": SCHEMA,
        "title": title,
        "width": WIDTH,
        "autosize": AUTOSIZE,
        "height": 260,
        "data": {"values": rows},
        "layer": [
            {
                "mark": {"type": "rule", "strokeWidth": 2},
                "encoding": {"x": encoding_x, "y": {"field": "low", "type": "quantitative"}, "y2": {"field": "high"}, "tooltip": tooltip},
            },
            {
                "mark": {"type": "point", "filled": True, "size": 90},
                "encoding": {
                    "x": encoding_x,
                    "y": {"field": "share", "type": "quantitative", "title": "win share (95% CI)", "scale": {"zero": False}},
                    "tooltip": tooltip,
                },
            },
            {
                "data": {"values": [{"parity": parity}]},
                "mark": {"type": "rule", "strokeDash": [6, 4], "color": "black"},
                "encoding": {"y": {"field": "parity", "type": "quantitative"}},
            },
        ],
    }


def study_charts(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A study's charts: win share by place in the turn order (or by seat), and every card at (how often, win share)."""
    by_turn = summary.get("turn_order") is not None
    positions = summary["turn_order"] if by_turn else summary["positions"]
    parity = float(summary["positions"][0]["parity"])
    rows = [
        {
            "position": _place(item["seat"]) if by_turn else f"seat {item['seat']}",
            "share": item["win_share"],
            "low": item["win_share_ci95"][0],
            "high": item["win_share_ci95"][1],
            "games": item["games"],
        }
        for item in positions
    ]
    title = "Win share by place in the turn order" if by_turn else "Win share by seat"
    charts: dict[str, Any] = {"positions": _interval_chart(rows, "position", "position", parity, title)}
    cards = [
        {
            "card": str(item.get("title", item["card"])),
            "code": item["card"],
            "type": item["type"],
            "action": item["action"],
            "per_game": round(float(item["per_game"]), 4),
            "share": round(float(item["win_share"]), 4),
            "low": round(float(item["win_share_ci95"][0]), 4),
            "high": round(float(item["win_share_ci95"][1]), 4),
            "game_seats": item["seat_games"],
            "judged": "too rare to judge" if item.get("rare") else "judged",
        }
        for item in summary["cards"]["by_card"]
    ]
    if cards:
        counts: dict[str, int] = {}
        for row in cards:
            counts[row["action"]] = counts.get(row["action"], 0) + int(row["game_seats"])
        actions = sorted(counts, key=lambda action: (-counts[action], action))  # the most played action first
        tooltip = [
            {"field": "card", "title": "card"},
            {"field": "type", "title": "type"},
            {"field": "action", "title": "action"},
            {"field": "per_game", "title": "per game", "format": ".3f"},
            {"field": "share", "title": "win share", "format": ".3f"},
            {"field": "low", "title": "95% CI from", "format": ".3f"},
            {"field": "high", "title": "95% CI to", "format": ".3f"},
            {"field": "game_seats", "title": "game-seats"},
            {"field": "judged", "title": "judged"},
        ]
        charts["cards"] = {
            "$schema": SCHEMA,
            "title": "Cards: how often played, and win share",
            "width": WIDTH,
            "autosize": AUTOSIZE,
            "height": 320,
            "data": {"values": cards},
            "params": [
                {"name": "action", "value": actions[0], "bind": {"input": "select", "options": actions, "name": "Action: "}},
            ],
            "layer": [
                {
                    "transform": [{"filter": "datum.action == action"}],
                    "mark": {"type": "rule", "opacity": 0.4},
                    "encoding": {
                        "x": {"field": "per_game", "type": "quantitative"},
                        "y": {"field": "low", "type": "quantitative"},
                        "y2": {"field": "high"},
                        "color": {
                            "field": "judged",
                            "type": "nominal",
                            "scale": {"domain": ["judged", "too rare to judge"], "range": ["#b03a3e", "#9a9a9a"]},
                            "legend": None,
                        },
                    },
                },
                {
                    "transform": [{"filter": "datum.action == action"}],
                    "mark": {"type": "point", "filled": True, "size": 70},
                    "encoding": {
                        "x": {"field": "per_game", "type": "quantitative", "title": "times per game"},
                        "y": {
                            "field": "share",
                            "type": "quantitative",
                            "title": "win share of the seats that did it",
                            "scale": {"domain": [0, 1]},
                        },
                        "color": {
                            "field": "judged",
                            "type": "nominal",
                            "scale": {"domain": ["judged", "too rare to judge"], "range": ["#b03a3e", "#9a9a9a"]},
                            "title": "",
                        },
                        "tooltip": tooltip,
                    },
                },
                {
                    "data": {"values": [{"parity": parity}]},
                    "mark": {"type": "rule", "strokeDash": [6, 4], "color": "black"},
                    "encoding": {"y": {"field": "parity", "type": "quantitative"}},
                },
            ],
        }
    return charts


def compare_charts(comparison: Any) -> dict[str, Any]:
    """A comparison's chart: every featured number's change B - A with its interval (points of win share, or % of A)."""
    from greenlight.sim.compare import featured

    rows = []
    for item in featured(comparison.headlines)[:30]:
        scale = 100.0 if item.kind == "share" else (100.0 / abs(item.a) if item.a else 0.0)
        rows.append(
            {
                "number": item.label or item.name,
                "change": round(item.difference * scale, 3),
                "low": round(item.difference_ci[0] * scale, 3),
                "high": round(item.difference_ci[1] * scale, 3),
                "A": round(item.a, 4),
                "B": round(item.b, 4),
                "p_holm": round(item.p_holm, 5),
                "verdict": "significant" if item.significant else "not significant",
                "unit": "points of win share" if item.kind == "share" else "% of A",
            }
        )
    if not rows:
        return {}
    tooltip = [
        {"field": key, "title": key.replace("_", " ")} for key in ("number", "A", "B", "change", "low", "high", "unit", "p_holm", "verdict")
    ]
    y = {"field": "number", "type": "nominal", "sort": None, "title": None}
    return {
        "changes": {
            "$schema": SCHEMA,
            "title": "What changed (B - A, 95% interval)",
            "width": WIDTH,
            "autosize": AUTOSIZE,
            "height": {"step": 26},
            "data": {"values": rows},
            "layer": [
                {
                    "mark": "rule",
                    "encoding": {"y": y, "x": {"field": "low", "type": "quantitative"}, "x2": {"field": "high"}, "tooltip": tooltip},
                },
                {
                    "mark": {"type": "point", "filled": True, "size": 80},
                    "encoding": {
                        "y": y,
                        "x": {"field": "change", "type": "quantitative", "title": "change (points of win share, or % of A)"},
                        "color": {
                            "field": "verdict",
                            "type": "nominal",
                            "scale": {"domain": ["significant", "not significant"], "range": ["#b03a3e", "#767676"]},
                            "title": "",
                        },
                        "tooltip": tooltip,
                    },
                },
                {
                    "data": {"values": [{"zero": 0}]},
                    "mark": {"type": "rule", "color": "black"},
                    "encoding": {"x": {"field": "zero", "type": "quantitative"}},
                },
            ],
        }
    }


def sweep_charts(sweep: Any) -> dict[str, Any]:
    """A sweep's chart: the measure at every value with its interval, parity dashed, the suggested value marked."""
    rows = [
        {
            "value": point.value,
            "share": point.share,
            "low": point.low,
            "high": point.high,
            "per_game": point.per_game,
            "suggested": "suggested" if sweep.suggested is not None and point.value == sweep.suggested.value else "",
        }
        for point in sweep.points
        if point.share is not None
    ]
    if not rows:
        return {}
    chart = _interval_chart(
        rows, "value", sweep.vary.field or sweep.vary.parameter or "value", sweep.parity, sweep.measure_words(), "ordinal"
    )
    chart["layer"].append(
        {
            "transform": [{"filter": "datum.suggested == 'suggested'"}],
            "mark": {"type": "point", "size": 400, "stroke": "#1a7f4b", "strokeWidth": 3},
            "encoding": {"x": {"field": "value", "type": "ordinal", "sort": None}, "y": {"field": "share", "type": "quantitative"}},
        }
    )
    return {"sweep": chart}
