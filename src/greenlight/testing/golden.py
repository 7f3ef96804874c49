"""Golden games: seeded games whose every state is pinned, so a rules change cannot go unnoticed.

Like a chess engine's perft counts: for every player count and combination of
variants, a few games are played by a seeded chooser and written down with
a digest of the state every :data:`CHECKPOINT_EVERY` moves, the final digest
and the scores. :func:`check_golden` plays them again on the current engine.
If a rule changed, the games no longer match, and the message asks for what
a rules change needs: a new ``spec.version`` (records of the old rules are
then refused on replay), a CHANGELOG entry, and golden games written again.

Writing them again cannot hide a bug shipped along with the intended change:
the new file keeps each game's scores under the previous rules version
(``previous``), and :func:`unexplained_changes` names every golden game whose
result the bump changed and that the version's CHANGELOG entry does not name.

>>> from greenlight.testing.golden import portable_digest
>>> portable_digest({"b": [1, 2]}) == portable_digest({"b": [1, 2]}) != portable_digest({"b": [2, 1]})
True
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.state import state_digest
from greenlight.testing.conformance import option_matrix

#: Format of a golden file.
FORMAT = 1
#: A state digest is pinned every this many moves (so a change is located, not just detected).
CHECKPOINT_EVERY = 20


def _portable(value: Any) -> Any:
    """``state_digest`` output with static data named by type only (its key may be a machine's file path)."""
    if isinstance(value, tuple):
        if len(value) == 3 and value[0] == "static" and isinstance(value[1], str):
            return ("static", value[1])
        return tuple(_portable(item) for item in value)
    return value


def portable_digest(state: Any) -> str:
    """A short hex digest of a state's contents, the same on every machine and run."""
    return hashlib.sha256(repr(_portable(state_digest(state))).encode()).hexdigest()[:16]


def play_golden(game: Game[Any], num_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one golden game: a chooser seeded from ``seed`` picks a random legal move of a random waiting seat."""
    chooser = random.Random(f"golden/{game.spec.id}/{seed}")
    state = game.new_state(num_players, seed, options)
    record = Record(game.spec.id, game.spec.version, num_players, seed, game.spec.resolve_options(num_players, options), [])
    checkpoints = []
    while True:
        decision = game.decision(state)
        if decision.is_terminal:
            break
        seat = chooser.choice(sorted(decision.players))
        action = chooser.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        record.actions.append((seat, str(action)))
        if len(record.actions) % CHECKPOINT_EVERY == 0:
            checkpoints.append(portable_digest(state))
    return {
        "num_players": num_players,
        "options": dict(record.options),
        "seed": seed,
        "actions": len(record.actions),
        "checkpoints": checkpoints,
        "final": portable_digest(state),
        "scores": list(game.outcome(state).scores),
        "record": record.to_json(),
    }


def golden_name(game: Game[Any], pinned: dict[str, Any]) -> str:
    """How a CHANGELOG entry names one golden game: its player count, its seed and the options it turns on.

    >>> from greenlight.core.registry import get_game
    >>> game = get_game("cinecitta")
    >>> golden_name(game, {"num_players": 4, "seed": 2, "options": game.spec.resolve_options(4, {"movie_awards": True})})
    '4 players, seed 2, movie_awards'
    """
    defaults = game.spec.resolve_options(pinned["num_players"], {})
    changed = [key if value is True else f"{key}={value}" for key, value in pinned["options"].items() if value != defaults.get(key)]
    return ", ".join([f"{pinned['num_players']} players", f"seed {pinned['seed']}", *changed])


def make_golden(game: Game[Any], seeds: tuple[int, ...] = (1, 2), before: dict[str, Any] | None = None) -> dict[str, Any]:
    """The golden games of ``game``: ``seeds`` for every player count and option combination.

    ``before`` is the golden file being replaced: under a new rules version its scores are kept as ``previous`` (the
    results the bump changed must be named in the CHANGELOG); under the same version its ``previous`` carries over.
    """
    games = [play_golden(game, n, options, seed) for n, options in option_matrix(game) for seed in seeds]
    golden: dict[str, Any] = {"format": FORMAT, "game": game.spec.id, "version": game.spec.version, "games": games}
    if before is not None and before.get("version") != game.spec.version:
        scores = {golden_name(game, pinned): pinned["scores"] for pinned in before["games"]}
        golden["previous"] = {"version": before.get("version"), "scores": scores}
    elif before is not None and "previous" in before:
        golden["previous"] = before["previous"]
    return golden


def changed_results(game: Game[Any], golden: dict[str, Any]) -> list[str]:
    """The names of the golden games whose scores differ from those pinned under the previous rules version."""
    previous = golden.get("previous", {}).get("scores", {})
    names = (golden_name(game, pinned) for pinned in golden["games"])
    return [name for name, pinned in zip(names, golden["games"], strict=True) if name in previous and previous[name] != pinned["scores"]]


def changelog_entry(changelog: str, game_id: str, version: str) -> str:
    """The CHANGELOG bullet of ``game_id``'s rules ``version`` (up to the next bullet or heading), or ``""``."""
    start = re.search(rf"^- `{re.escape(game_id)}` rules version {re.escape(version)}\b", changelog, re.MULTILINE)
    if start is None:
        return ""
    end = re.search(r"^(- |#)", changelog[start.end() :], re.MULTILINE)
    return changelog[start.start() : start.end() + end.start()] if end else changelog[start.start() :]


def unexplained_changes(game: Game[Any], golden: dict[str, Any], changelog: str) -> list[str]:
    """The golden games whose result the last rules-version bump changed without its CHANGELOG entry naming them.

    An entry names a golden game by :func:`golden_name` in backquotes, next to the rule change that explains it.
    """
    entry = changelog_entry(changelog, game.spec.id, game.spec.version)
    return [name for name in changed_results(game, golden) if f"`{name}`" not in entry]


def check_golden(game: Game[Any], golden: dict[str, Any]) -> list[str]:
    """What no longer matches between ``golden`` and the current engine (empty: the rules are as pinned)."""
    rewrite = f"write them again (python scripts/golden.py --write {game.spec.id})"
    if golden.get("version") != game.spec.version:
        return [
            f"the golden games of {game.spec.title} are for rules version {golden.get('version')}, the game is at "
            f"{game.spec.version}: check that the change is the one intended and in CHANGELOG.md, then {rewrite}"
        ]
    problems = []
    for pinned in golden["games"]:
        where = f"{pinned['num_players']} players, options {pinned['options']}, seed {pinned['seed']}"
        now = play_golden(game, pinned["num_players"], pinned["options"], pinned["seed"])
        if now["final"] == pinned["final"] and now["scores"] == pinned["scores"]:
            continue
        pairs = enumerate(zip(now["checkpoints"], pinned["checkpoints"], strict=False))
        moved = next((CHECKPOINT_EVERY * (index + 1) for index, (a, b) in pairs if a != b), None)
        at = f"first different by move {moved}" if moved is not None else f"{now['actions']} moves now, {pinned['actions']} pinned"
        problems.append(f"{where}: the game plays differently ({at}; scores {now['scores']}, pinned {pinned['scores']})")
    if problems:
        problems.insert(
            0,
            f"{game.spec.title} plays differently from its golden games at rules version {game.spec.version}. A rules change "
            f"must bump spec.version (so records of the old rules are refused), say what changed in CHANGELOG.md, and {rewrite}.",
        )
    return problems
