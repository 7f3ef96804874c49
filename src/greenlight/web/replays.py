"""Replays for the browser: every step of a record as a spectator sees it.

>>> from greenlight.core.registry import get_game
>>> from greenlight.core.match import Match
>>> match = Match.start(get_game("cinecitta"), 3, seed=5)
>>> for seat in range(3):
...     _ = match.play(seat, match.legal_actions(seat)[0])
>>> steps = replay_json(match.record.to_json())["steps"]
>>> len(steps), steps[1]["seat"], steps[0]["action"]
(4, 0, None)
"""

from __future__ import annotations

import json
from typing import Any

from greenlight.core.errors import GreenlightError
from greenlight.core.events import events_for
from greenlight.core.record import Record, start_state
from greenlight.core.registry import get_game
from greenlight.web.inputs import InputError, parse_json
from greenlight.web.tables import TableError
from greenlight.web.views import encode_json


def replay_upload(body: bytes, max_depth: int, max_int_digits: int) -> tuple[int, str]:
    """An uploaded record's replay as JSON text (200), or the status and reason of its refusal; runs in a worker process.

    The refusal comes back as plain values: an exception would have to cross the process boundary.
    """
    try:
        data = parse_json(body, max_depth=max_depth, max_int_digits=max_int_digits)
    except InputError as error:
        return 400, str(error)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return 400, f"the record must be JSON: {error}"
    try:
        return 200, encode_json(replay_json(data))
    except TableError as error:
        return error.status, error.message


def replay_json(data: Any, names: list[str] | None = None) -> dict[str, Any]:
    """Check a record (JSON form) and return its spectator view before and after each action.

    Raises TableError (400) when the record is malformed, names an unknown
    game, is too long or does not replay.
    """
    try:
        record = Record.from_json(data)
        game = get_game(record.game)
        if len(record.actions) > game.spec.max_game_length:
            raise TableError(
                400, f"the record has {len(record.actions)} actions; a game of {game.spec.title} has at most {game.spec.max_game_length}"
            )
        for spec in game.spec.options:
            # The server never opens a file named by a client.
            named = [name for name in (spec.name, *spec.aliases) if record.options.get(name) is not None]
            if spec.kind == "path" and named:
                raise TableError(
                    400, f"records with a custom data file (option {named[0]}) can only be replayed locally: greenlight replay FILE"
                )
        shown = names or record.seat_names()
        state = start_state(record, game)
        steps: list[dict[str, Any]] = [_step(game, state, 0, None, None, [], shown)]
        for index, (seat, text) in enumerate(record.actions, start=1):
            try:
                action = game.parse_action(text)
                # In the words of the seat that played it, before it is played (the game is over: nothing is secret now).
                words = game.describe_action(state, seat, action)
                events = game.apply(state, seat, action)
            except GreenlightError as error:
                raise TableError(400, f"record action {index - 1} ({seat}: {text}) does not replay: {error}") from None
            steps.append(_step(game, state, index, seat, text, events, shown, words))
    except GreenlightError as error:
        raise TableError(400, str(error)) from None
    over = game.decision(state).is_terminal
    return {
        "game": {"id": game.spec.id, "title": game.spec.title},
        "record": record.to_json(),
        "finished": over,
        "names": shown,
        "outcome": game.outcome(state).to_json() if over else None,
        "steps": steps,
    }


def _step(
    game: Any, state: Any, index: int, seat: int | None, action: str | None, events: list[Any], names: list[str], words: str | None = None
) -> dict[str, Any]:
    decision = game.decision(state)
    return {
        "index": index,
        "seat": seat,
        "action": action,
        "words": words,
        "log": [text for event in events_for(events, None) if (text := game.describe_event(event, state, names))],
        "decision": decision.to_json(),
        "observation": game.observe(state, None),
    }
