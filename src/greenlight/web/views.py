"""What the server sends: game catalogue entries and per-seat table views.

Everything a seat receives about a game in progress is built here from
``game.observe(state, seat)``, ``game.legal_actions(state, seat)``, the public
decision and the event log filtered with ``events_for(events, seat)``.
"""

from __future__ import annotations

import inspect
import logging
from pathlib import Path
from typing import Any

from greenlight.bots import bot_names
from greenlight.core.errors import OptionError
from greenlight.core.events import events_for
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.registry import all_games, get_game
from greenlight.core.spec import OptionSpec
from greenlight.web.storage import StoredTable, TableSummary

log = logging.getLogger("greenlight.web")

#: Files a game may ship in its ``web/`` folder, by suffix, with their media types.
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
        "bots": bot_names(game),
        "renderer": (web / "table.js").is_file(),
        "stylesheet": (web / "table.css").is_file(),
    }


def catalogue() -> list[dict[str, Any]]:
    """Catalogue entries of every registered game; a game whose metadata fails is left out (and logged), not fatal."""
    entries = []
    for game in all_games().values():
        try:
            entries.append(game_json(game))
        except Exception:
            log.exception("game %s cannot be offered", game.spec.id)
    return entries


def log_lines(match: Match, seat: int | None, start: int = 0) -> list[str]:
    """The event log from event ``start`` on, in words, as ``seat`` may see it."""
    return [match.game.describe_event(event) for event in events_for(match.events[start:], seat)]


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
        title = get_game(game_id).spec.title
    except OptionError:
        title = game_id
    if isinstance(summary, TableSummary):
        num_players, options = summary.num_players, summary.options
    else:
        num_players, options = summary.record.num_players, summary.record.options
    return {
        "id": summary.id,
        "game": game_id,
        "title": title,
        "num_players": num_players,
        "options": dict(options),
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
            }
            for row in summary.seats
        ],
        "error": summary.error,
    }


def seat_view(match: Match, seat: int | None, table_info: dict[str, Any], log: list[str] | None = None) -> dict[str, Any]:
    """Everything one seat (``None`` = spectator) may know about the table now.

    Built only from that seat's observation, its own legal actions, the public
    decision (who must act and who has committed, never what) and the log
    filtered for that seat (``log``, when the caller keeps it up to date).
    """
    decision = match.decision()
    over = decision.is_terminal
    return {
        "type": "view",
        "table": table_info,
        "seat": seat,
        "version": len(match.record.actions),
        "decision": decision.to_json(),
        "observation": match.observe(seat),
        "legal_actions": [] if seat is None or over else [str(action) for action in match.legal_actions(seat)],
        "log": log_lines(match, seat) if log is None else log,
        "outcome": match.outcome().to_json() if over else None,
    }
