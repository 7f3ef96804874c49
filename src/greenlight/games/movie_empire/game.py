"""The Movie Empire game object: the engine contract wired to this package's rules and view."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from greenlight.core.actions import Action
from greenlight.core.decision import Decision
from greenlight.core.events import Event
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome
from greenlight.core.spec import OptionValue
from greenlight.core.words import Component
from greenlight.games.movie_empire import rounds, rules, scoring, text, view, words
from greenlight.games.movie_empire.actions import (
    ACTION_TYPES,
    EXEMPT_WAYS,
    SKIP,
    Block,
    Cut,
    Discard,
    Done,
    End,
    Exempt,
    Give,
    Keep,
    Lay,
    Market,
    Net,
    Pass,
    Place,
    Produce,
    Purge,
    Release,
    Script,
    Shut,
    Stack,
    Star,
    Stop,
    Swap,
    Take,
)
from greenlight.games.movie_empire.cards import (
    BOARD_MARKETS,
    MAX_CARD_INDEX,
    MAX_PRODUCTION,
    MAX_SCRIPTS,
    MAX_SPACES,
    MAX_STARS,
    STAGES,
    Tables,
    load_tables,
)
from greenlight.games.movie_empire.spec import SPEC
from greenlight.games.movie_empire.state import MovieEmpireState

if TYPE_CHECKING:
    from greenlight.core.bot import Bot

# -- the action-code layout: one fixed block per action type -------------------------------------------
_PAIRS = MAX_CARD_INDEX * (MAX_CARD_INDEX + 1) // 2 + MAX_CARD_INDEX  # unordered pairs (with repeats) and singles
_BLOCKS: list[tuple[type[Action], int]] = [
    (Pass, 1),
    (Done, 1),
    (Purge, 1),
    (End, 1),
    (Stop, 1),
    (Exempt, len(EXEMPT_WAYS)),
    (Place, MAX_SPACES * 2),
    (Block, MAX_SPACES),
    (Cut, MAX_SPACES),
    (Take, MAX_SPACES),
    (Release, 2),
    (Produce, 3),
    (Shut, 2),
    (Market, len(BOARD_MARKETS)),
    (Net, 3),
    (Swap, MAX_PRODUCTION),
    (Stack, MAX_PRODUCTION),
    (Lay, MAX_PRODUCTION * 2 * 5),
    (Star, MAX_STARS),
    (Script, MAX_SCRIPTS),
    (Discard, MAX_CARD_INDEX),
    (Keep, _PAIRS),
    (Give, _PAIRS),
]
_OFFSET: dict[type[Action], int] = {}
_total = 0
for _kind, _size in _BLOCKS:
    _OFFSET[_kind] = _total
    _total += _size
NUM_CODES = _total


def _pair_code(table: Tables, cards: tuple[str, ...]) -> int:
    """Unordered pairs i <= j get j(j+1)/2 + i; a single card comes after all pairs; none is the last single slot."""
    indexes = sorted(table.card_index[card] for card in cards)
    if len(indexes) == 2:
        i, j = indexes
        return j * (j + 1) // 2 + i
    base = MAX_CARD_INDEX * (MAX_CARD_INDEX + 1) // 2
    return base + (indexes[0] if indexes else MAX_CARD_INDEX - 1)


def _local_code(table: Tables, action: Action) -> int:
    if isinstance(action, (Pass, Done, Purge, End, Stop)):
        return 0
    if isinstance(action, Exempt):
        return EXEMPT_WAYS.index(action.way)
    if isinstance(action, Place):
        return table.space_by_id[action.space].index * 2 + int(action.dossier)
    if isinstance(action, (Block, Cut)):
        return table.space_by_id[action.space].index
    if isinstance(action, Take):
        return table.space_by_id[action.slot].index
    if isinstance(action, (Release, Shut)):
        return action.line - 1
    if isinstance(action, Produce):
        return 2 if action.line == "new" else int(action.line) - 1
    if isinstance(action, Market):
        return BOARD_MARKETS.index(action.market)
    if isinstance(action, Net):
        return 2 if action.line == SKIP else int(action.line) - 1
    if isinstance(action, (Swap, Stack)):
        return table.production[action.card].index
    if isinstance(action, Lay):
        stage = 0 if action.stage is None else 1 + STAGES.index(action.stage)
        return (table.production[action.card].index * 2 + (action.end == "right")) * 5 + stage
    if isinstance(action, Star):
        return table.stars[action.card].index
    if isinstance(action, Script):
        return table.scripts[action.card].index
    if isinstance(action, Discard):
        return table.card_index[action.card]
    assert isinstance(action, (Keep, Give))
    return _pair_code(table, action.cards)


class MovieEmpireGame(Game[MovieEmpireState]):
    """Movie Empire (2-4 players, worker placement and production lines)."""

    spec = SPEC
    action_types = ACTION_TYPES
    num_distinct_actions = NUM_CODES

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> MovieEmpireState:
        """Shuffle, fill the board and deal the scripts (§3)."""
        return rounds.setup(num_players, seed, options)

    def decision(self, state: MovieEmpireState) -> Decision:
        """Who decides what now (§4.13)."""
        return rules.decision(state)

    def legal_actions(self, state: MovieEmpireState, player: int) -> list[Action]:
        """Legal actions of ``player``."""
        return rules.legal_actions(state, player)

    def why_illegal(self, state: MovieEmpireState, player: int, action: Action) -> str:
        """Reason for refusing ``action``."""
        return words.with_names(rules.why_illegal(state, player, action), state.table)

    def apply_unchecked(self, state: MovieEmpireState, player: int, action: Action) -> list[Event]:
        """Apply and run the automatic steps that follow."""
        return rules.apply(state, player, action)

    def observe(self, state: MovieEmpireState, player: int | None) -> Observation:
        """What ``player`` may see (§8)."""
        return view.observe(state, player)

    def determinize(self, state: MovieEmpireState, player: int | None, rng: random.Random) -> MovieEmpireState:
        """Redraw everything hidden from ``player``."""
        return view.determinize(state, player, rng)

    def secrets(self, state: MovieEmpireState, player: int | None) -> frozenset[str]:
        """Card ids ``player`` cannot see anywhere."""
        return view.secrets(state, player)

    def outcome(self, state: MovieEmpireState) -> Outcome:
        """Final scores with the §5 breakdown and tie-breaks."""
        return scoring.outcome(state)

    # -- player words (words.py; the terminal board in text.py) ------------------------------------

    def components(self, state: MovieEmpireState | None = None) -> list[Component]:
        """Every card, trend, plan, board space, market and sympathy level in words (of ``state``'s data files if given)."""
        if state is None:
            return words.components(load_tables())
        return words.components(state.table, in_game=True)

    def describe_action(self, state: MovieEmpireState, player: int, action: Action) -> str:
        """What ``action`` does for ``player`` now, with its cost or score."""
        return words.describe_action(state, player, action)

    def action_warning(self, state: MovieEmpireState, player: int, action: Action) -> str | None:
        """Why ``action`` asks for confirmation (it cannot be undone and loses points or gains nothing), or None."""
        return words.action_warning(state, player, action)

    def describe_event(self, event: Event, state: MovieEmpireState | None = None, names: Sequence[str] | None = None) -> str:
        """Log text with seats by name ("" for the commitments of simultaneous steps)."""
        return words.describe_event(event, state.table if state is not None else None, names)

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """The terminal board in words."""
        return text.render_text(observation, names)

    def help_text(self, observation: Observation) -> str:
        """The legend and the rules of the current step."""
        return words.help_text(observation)

    def action_code(self, state: MovieEmpireState, action: Action) -> int:
        """A fixed block per action type; within it, the index of the card, space, line or choice."""
        return _OFFSET[type(action)] + _local_code(state.table, action)

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The heuristic bot."""
        from greenlight.games.movie_empire.bots import HeuristicBot

        return {"heuristic": lambda seed: HeuristicBot(seed)}


GAME = MovieEmpireGame()
