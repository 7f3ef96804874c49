"""Per-game statistics for designers, computed by each game's own ``stats`` module.

The simulator knows nothing about a game's internals. Each game may ship
``greenlight/games/<package>/stats.py`` with a function

``statistics(match: Match) -> dict``

called once on the finished :class:`~greenlight.core.match.Match` (its final
public observation, its event log, the record's actions, the outcome), which
returns plain data:

* ``"game"``: ``{name: number}`` about the whole game (for Cinecitta 1937 the
  number of drop-outs; for Maybe Movies the pass rate);
* ``"seats"``: one ``{name: number}`` per seat, the same names for every seat
  (movies released, pens in the Office, votes won);
* ``"cards"``: one ``(seat, card, type, action)`` entry per time a seat did
  ``action`` with ``card`` (``taken``, ``laid``, ``offered``, ``voted``,
  ``in_studio_at_end``, ...); ``type`` groups cards (an occupation, a deck);
* ``"order"`` (optional): each seat's place in the turn order at the start
  (0 = first to act), when it is not simply the seat number (a first player
  drawn at random); a game whose seats all act at once leaves it out.

The module may also declare, for the report:

* ``SEATS``: a sentence saying which seat is "first" in this game;
* ``LENGTH``: ``(statistic, unit)``, the per-game statistic that counts the
  game's length in its own unit (``("rounds", "rounds")``);
* ``LABELS``: words for statistics and score categories (``{"genre_A":
  "action movies released"}``); other names are shown with spaces for ``_``;
* ``ACTIONS``: words for card actions, read after "when the card was"
  (``{"studio_at_end": "in the Studio at the end"}``).

:func:`game_statistics` checks that data and puts it in the canonical form
kept in :attr:`GameResult.stats <greenlight.sim.runner.GameResult.stats>`:
card entries are counted into sorted ``[seat, card, type, action, count]``
lists, so two runs of the same game give equal results. A game without a
``stats`` module gets empty statistics. Game packages do not import this
module (a game depends on ``core`` only); the contract is the plain data.

>>> from greenlight.core.registry import get_game
>>> from greenlight.core.match import Match
>>> match = Match.start(get_game("cinecitta"), 3, seed=1)
>>> sorted(game_statistics(match))
['cards', 'game', 'seats']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.registry import companion_module

#: A game's hook: the finished match in, plain statistics out.
StatisticsHook = Callable[[Match], Mapping[str, Any]]

#: Value types a statistic may have (numbers; a bool counts as a number; None for "not applicable").
_SCALARS = (bool, int, float, type(None))


def statistics_hook(game: Game[Any]) -> StatisticsHook | None:
    """The ``statistics`` function of ``game``'s own ``stats`` module, or None if the game has none."""
    module = companion_module(game, "stats")
    if module is None:
        return None
    hook = getattr(module, "statistics", None)
    if not callable(hook):
        raise LookupError(f"{module.__name__} has no statistics(match) function")
    return hook  # type: ignore[no-any-return]


def _check_numbers(where: str, values: Any) -> dict[str, bool | int | float | None]:
    if not isinstance(values, Mapping):
        raise TypeError(f"{where} must be a mapping of name to number, got {type(values).__name__}")
    checked: dict[str, bool | int | float | None] = {}
    for name, value in values.items():
        if not isinstance(name, str) or not isinstance(value, _SCALARS):
            raise TypeError(f"{where}[{name!r}] must be a number, got {value!r}")
        checked[name] = value
    return checked


def canonical(raw: Mapping[str, Any], num_players: int) -> dict[str, Any]:
    """Check a hook's result and put it in canonical form (card entries counted and sorted).

    >>> canonical({"game": {"x": 1}, "seats": [{"y": 2}, {"y": 0}], "cards": [(1, "C1", "A", "taken"), (1, "C1", "A", "taken")]}, 2)
    {'game': {'x': 1}, 'seats': [{'y': 2}, {'y': 0}], 'cards': [[1, 'C1', 'A', 'taken', 2]]}
    """
    game = _check_numbers("game", raw.get("game", {}))
    seats_raw = raw.get("seats", [{} for _ in range(num_players)])
    if len(seats_raw) != num_players:
        raise ValueError(f"seat statistics must have one entry per seat ({num_players}), got {len(seats_raw)}")
    seats = [_check_numbers(f"seats[{seat}]", values) for seat, values in enumerate(seats_raw)]
    counts: Counter[tuple[int, str, str, str]] = Counter()
    for entry in raw.get("cards", ()):
        seat, card, kind, action = entry
        if not (isinstance(seat, int) and 0 <= seat < num_players):
            raise ValueError(f"card entry {entry!r}: the seat must be 0 to {num_players - 1}")
        counts[(seat, str(card), str(kind), str(action))] += 1
    cards = [[seat, card, kind, action, count] for (seat, card, kind, action), count in sorted(counts.items())]
    result: dict[str, Any] = {"game": game, "seats": seats, "cards": cards}
    if raw.get("order") is not None:
        order = [int(place) for place in raw["order"]]
        if sorted(order) != list(range(num_players)):
            raise ValueError(f"order must give each seat its own place 0 to {num_players - 1}, got {order}")
        result["order"] = order
    return result


def game_statistics(match: Match) -> dict[str, Any]:
    """The canonical per-game statistics of a finished ``match`` (empty ones if its game has no ``stats`` module)."""
    hook = statistics_hook(match.game)
    raw: Mapping[str, Any] = hook(match) if hook is not None else {}
    return canonical(raw, match.num_players)


@dataclass(frozen=True, slots=True)
class GameNotes:
    """What a game's ``stats`` module says for the report: which seat is first, its unit of length, words for names."""

    seats: str = ""
    #: ``(per-game statistic, unit)`` measuring the game's length in its own unit, or None.
    length: tuple[str, str] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    actions: Mapping[str, str] = field(default_factory=dict)

    def action(self, name: str) -> str:
        """The words for a card action (``studio_at_end`` -> its words, else ``studio at end``).

        >>> GameNotes(actions={"studio_at_end": "in the Studio at the end"}).action("studio_at_end"), GameNotes().action("taken")
        ('in the Studio at the end', 'taken')
        """
        return self.actions.get(name) or name.replace("_", " ")

    def label(self, name: str) -> str:
        """The words for a statistic or score category (``genre_A`` -> its label, else ``genre A``).

        >>> GameNotes(labels={"genre_A": "action movies"}).label("genre_A"), GameNotes().label("box_office")
        ('action movies', 'box office')
        """
        return self.labels.get(name) or name.replace("_", " ")


def game_notes(game: Game[Any]) -> GameNotes:
    """The :class:`GameNotes` of ``game`` (empty ones without a ``stats`` module)."""
    module = companion_module(game, "stats")
    if module is None:
        return GameNotes()
    length = getattr(module, "LENGTH", None)
    return GameNotes(
        str(getattr(module, "SEATS", "")),
        tuple(length) if length else None,  # type: ignore[arg-type]
        dict(getattr(module, "LABELS", {})),
        dict(getattr(module, "ACTIONS", {})),
    )
