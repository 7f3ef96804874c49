"""What the server sends: game catalogue entries and per-seat table views.

Everything a seat receives about a game in progress is built here from
``game.observe(state, seat)``, ``game.legal_actions(state, seat)``, the public
decision and the event log filtered with ``events_for(events, seat)``.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pydantic_core

from greenlight.bots import bot_choices
from greenlight.core.errors import OptionError
from greenlight.core.events import events_for
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.registry import all_games, companion_file, get_game
from greenlight.core.spec import OptionSpec
from greenlight.core.words import Component
from greenlight.web.storage import StoredTable, TableSummary


def encode_json(value: Any) -> str:
    """``value`` as compact JSON text (pydantic's encoder: several times faster than ``json.dumps`` for a view)."""
    return pydantic_core.to_json(value).decode()


log = logging.getLogger("greenlight.web")

#: Files a game may ship in its ``web/`` folder, by suffix, with their media types.
#: A file name a client may ask for (a game's data or web file): letters, digits, ``_``, ``-`` and dots, no path.
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

WEB_FILE_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png"}


def game_web_dir(game: Game[Any]) -> Path:
    """The game package's ``web/`` folder (it may not exist: the generic renderer is used then)."""
    return Path(inspect.getfile(type(game))).resolve().parent / "web"


def game_data_dir(game: Game[Any]) -> Path:
    """The game package's ``data/`` folder."""
    return Path(inspect.getfile(type(game))).resolve().parent / "data"


def lobby_options(game: Game[Any]) -> list[OptionSpec]:
    """Options a lobby may offer: every option except data-file paths (a server never reads paths sent by clients)."""
    return [spec for spec in game.spec.options if spec.kind != "path"]


def option_json(spec: OptionSpec) -> dict[str, Any]:
    """An option as the lobby shows it."""
    return {
        "name": spec.name,
        "kind": spec.kind,
        "default": spec.default,
        "help": spec.help,
        "choices": list(spec.choices),
        "minimum": spec.minimum,
        "maximum": spec.maximum,
        "allowed_players": list(spec.allowed_players) if spec.allowed_players is not None else None,
        "parameter": spec.parameter,
        "rule": spec.rule,
    }


def game_json(game: Game[Any]) -> dict[str, Any]:
    """A catalogue entry: what a lobby needs to set up a table of ``game``."""
    web = game_web_dir(game)
    return {
        "id": game.spec.id,
        "title": game.spec.title,
        "version": game.spec.version,
        "summary": game.spec.summary,
        "min_players": game.spec.min_players,
        "max_players": game.spec.max_players,
        "options": [option_json(spec) for spec in lobby_options(game)],
        "bots": bot_choices(game),
        "renderer": (web / "table.js").is_file(),
        "rules": companion_file(game, "guide.md") is not None,
        "stylesheet": (web / "table.css").is_file(),
    }


def component_json(component: Component) -> dict[str, str]:
    """A component as the API sends it."""
    return {"kind": component.kind, "id": component.id, "name": component.name, "text": component.text}


def player_guide(game: Game[Any]) -> str | None:
    """The game's rules for players (Markdown, ``guide.md`` in its package: the file of docs/rules/), or None."""
    path = companion_file(game, "guide.md")
    return path.read_text(encoding="utf-8") if path is not None else None


def guide_html(markdown: str) -> str:
    """Rules Markdown as HTML (raw HTML in the source is escaped, links stay links)."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown))


def catalogue() -> list[dict[str, Any]]:
    """Catalogue entries of every registered game; a game whose metadata fails is left out (and logged), not fatal."""
    entries = []
    for game in all_games().values():
        try:
            entries.append(game_json(game))
        except Exception:
            log.exception("game %s cannot be offered", game.spec.id)
    return entries


def log_lines(match: Match, seat: int | None, start: int = 0, names: Sequence[str] | None = None) -> list[str]:
    """The event log from event ``start`` on, in words, as ``seat`` may see it."""
    events = events_for(match.events[start:], seat)
    return [text for event in events if (text := match.game.describe_event(event, match.state, names))]


def action_choices(match: Match, seat: int) -> tuple[list[str], list[str], dict[str, str]]:
    """The seat's legal actions: their texts, their words (same order) and the warnings of those that need confirming."""
    game, state = match.game, match.state
    actions = match.legal_actions(seat)
    warnings = {}
    for action in actions:
        warning = game.action_warning(state, seat, action)
        if warning:
            warnings[str(action)] = warning
    return [str(action) for action in actions], [game.describe_action(state, seat, action) for action in actions], warnings


def table_info(
    summary: TableSummary | StoredTable,
    *,
    status: str,
    version: int,
    connected: set[int] | frozenset[int] = frozenset(),
    spectators: int = 0,
) -> dict[str, Any]:
    """Public facts about a table (no tokens, nothing hidden), from its stored description and who is connected."""
    game_id = summary.game if isinstance(summary, TableSummary) else summary.record.game
    try:
        spec = get_game(game_id).spec
        title = spec.title
    except OptionError:
        spec, title = None, game_id
    if isinstance(summary, TableSummary):
        num_players, options = summary.num_players, summary.options
    else:
        num_players, options = summary.record.num_players, summary.record.options
    # House rules: rule parameters away from the rulebook (such a table is not the game as printed, so never rated).
    changed = spec.changed_parameters(options) if spec is not None else {}
    return {
        "id": summary.id,
        "game": game_id,
        "title": title,
        "num_players": num_players,
        "options": dict(options),
        "changed_parameters": changed,
        "status": status,
        "version": version,
        "created_at": summary.created_at,
        "finished_at": summary.finished_at,
        "spectators": spectators,
        "seed_chosen": summary.seed_chosen,
        "closed": summary.closed_reason,
        "seats": [
            {
                "seat": row.seat,
                "kind": row.kind,
                "bot": row.bot,
                "name": row.name,
                "joined": row.joined if row.kind == "human" else True,
                "connected": row.seat in connected if row.kind == "human" else True,
                "open": row.open,
                "stands_in_for": row.stands_in_for,
            }
            for row in summary.seats
        ],
        "error": summary.error,
        "rematch": getattr(summary, "rematch", None),
        "rematch_of": getattr(summary, "rematch_of", None),
    }


def seat_view(match: Match, seat: int | None, table_info: dict[str, Any], log: list[str] | None = None) -> dict[str, Any]:
    """Everything one seat (``None`` = spectator) may know about the table now.

    Built only from that seat's observation, its own legal actions, the public
    decision (who must act and who has committed, never what) and the log
    filtered for that seat (``log``, when the caller keeps it up to date).
    """
    decision = match.decision()
    over = decision.is_terminal
    texts, words, warnings = ([], [], {}) if seat is None or over else action_choices(match, seat)
    observation = match.observe(seat)
    names = [entry["name"] for entry in table_info.get("seats", [])] or None
    return {
        "type": "view",
        "table": table_info,
        "seat": seat,
        "version": len(match.record.actions),
        "decision": decision.to_json(),
        "observation": observation,
        "legal_actions": texts,
        "action_words": words,
        "action_warnings": warnings,
        "help": match.game.help_text(observation),
        "log": log_lines(match, seat, names=names) if log is None else log,
        "outcome": match.outcome().to_json() if over else None,
    }
