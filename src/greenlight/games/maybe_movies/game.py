"""The Maybe Movies game object: the engine contract wired to this package's rules and view."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from greenlight.core.actions import Action
from greenlight.core.bot import Bot
from greenlight.core.decision import Decision
from greenlight.core.events import Event
from greenlight.core.game import Game, Observation
from greenlight.core.outcome import Outcome
from greenlight.core.spec import OptionValue
from greenlight.core.words import Component
from greenlight.games.maybe_movies import describe, rules, view
from greenlight.games.maybe_movies.actions import ACTION_TYPES, Add, Copy, Finish, Icon, Pick, Profit, Remove, Slot, Vote
from greenlight.games.maybe_movies.cards import (
    EXAMPLE_CATALOGUE,
    ICON_INDEX,
    NUM_BLOCKBUSTERS,
    NUM_CHANGE,
    NUM_ICONS,
    NUM_MOVIES,
    NUM_VOTES,
    Catalogue,
    load_catalogue,
)
from greenlight.games.maybe_movies.spec import SPEC
from greenlight.games.maybe_movies.state import MaybeMoviesState
from greenlight.games.maybe_movies.words import catalogue_words

MOVIE_CARDS = NUM_MOVIES + NUM_BLOCKBUSTERS  # 60
HAND_CARDS = NUM_VOTES + NUM_CHANGE  # 72
#: Insertion slots: a row holds at most 6 + 2N = 18 cards, so after a removal at most 17 (slots 0-17).
SLOTS = 20
#: Profit choices: 1-3 for wildcard_profit; a copied base profit is at most k = 18 (pitch_size).
PROFIT_VALUES = 32

ADD_BASE = 0
FINISH_CODE = ADD_BASE + MOVIE_CARDS
VOTE_BASE = FINISH_CODE + 1
REMOVE_BASE = VOTE_BASE + HAND_CARDS
SLOT_BASE = REMOVE_BASE + MOVIE_CARDS
COPY_BASE = SLOT_BASE + SLOTS
ICON_BASE = COPY_BASE + MOVIE_CARDS
PROFIT_BASE = ICON_BASE + NUM_ICONS
PICK_BASE = PROFIT_BASE + PROFIT_VALUES
NUM_CODES = PICK_BASE + MOVIE_CARDS


class MaybeMoviesGame(Game[MaybeMoviesState]):
    """Maybe Movies (3-6 players, pitches and secret simultaneous votes), with its three expansions."""

    spec = SPEC
    action_types = ACTION_TYPES
    num_distinct_actions = NUM_CODES

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> MaybeMoviesState:
        """Generate the catalogue and set up (§2.6, §3)."""
        return rules.setup(num_players, seed, options)

    def decision(self, state: MaybeMoviesState) -> Decision:
        """The current decision point (§4.0)."""
        return rules.decision(state)

    def legal_actions(self, state: MaybeMoviesState, player: int) -> list[Action]:
        """Legal actions of ``player``."""
        return rules.legal_actions(state, player)

    def why_illegal(self, state: MaybeMoviesState, player: int, action: Action) -> str:
        """Reason for refusing ``action``, naming cards as players read them (``Jungle (M03)``)."""
        words = catalogue_words(state.table)

        def name(code: str) -> str:
            found = words.name(code)
            return code if found == code else f"{found} ({code})"

        return rules.why_illegal(state, player, action, name)

    def apply_unchecked(self, state: MaybeMoviesState, player: int, action: Action) -> list[Event]:
        """Apply an action and every automatic step after it."""
        return rules.apply(state, player, action)

    def observe(self, state: MaybeMoviesState, player: int | None) -> Observation:
        """What ``player`` may see."""
        return view.observe(state, player)

    def determinize(self, state: MaybeMoviesState, player: int | None, rng: random.Random) -> MaybeMoviesState:
        """Redraw everything hidden from ``player``."""
        return view.determinize(state, player, rng)

    def secrets(self, state: MaybeMoviesState, player: int | None) -> frozenset[str]:
        """Hand cards ``player`` must never see."""
        return view.secrets(state, player)

    def outcome(self, state: MaybeMoviesState) -> Outcome:
        """Scores per §5.2, shared wins on ties."""
        return rules.outcome(state)

    def components(self, state: MaybeMoviesState | None = None) -> list[Component]:
        """Every card of ``state``'s catalogue in words (generated from its seed, or its deck file); else the bundled seed-0 catalogue."""
        table = state.table if state is not None else load_catalogue(EXAMPLE_CATALOGUE)
        return catalogue_words(table).components()

    def describe_action(self, state: MaybeMoviesState, player: int, action: Action) -> str:
        """What ``action`` does for ``player`` now, with its cost, profit or score."""
        return describe.describe_action(state, player, action)

    def action_warning(self, state: MaybeMoviesState, player: int, action: Action) -> str | None:
        """A pitch or a YES vote that certainly comes to nothing (see docs/maybe_movies.md)."""
        return describe.action_warning(state, player, action)

    def describe_event(self, event: Event, state: MaybeMoviesState | None = None, names: Sequence[str] | None = None) -> str:
        """Log text with seat names and card names ("" for the events of secret votes)."""
        return describe.describe_event(event, state, names)

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """Terminal view in words."""
        return view.render_text(observation, names)

    def help_text(self, observation: Observation) -> str:
        """The legend and the rules of the current step."""
        return describe.help_text(observation)

    def action_code(self, state: MaybeMoviesState, action: Action) -> int:
        """Cards by catalogue position (movies 0-59, hand cards 0-71), slots, icons and profit values by number."""
        codes = state.table.action_codes
        code = codes.get(action)
        if code is None:
            code = codes[action] = _code(state.table, action)
        return code

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The ``heuristic`` level."""
        from greenlight.games.maybe_movies.bots import HeuristicBot

        return {"heuristic": lambda seed: HeuristicBot(seed)}


def _code(table: Catalogue, action: Action) -> int:
    """The code of ``action`` from the catalogue positions of the cards it names."""
    if isinstance(action, Vote):
        return VOTE_BASE + table.vote_index(action.card)
    if isinstance(action, Add):
        return ADD_BASE + table.movie_index(action.card)
    if isinstance(action, Finish):
        return FINISH_CODE
    if isinstance(action, Remove):
        return REMOVE_BASE + table.movie_index(action.card)
    if isinstance(action, Slot):
        return SLOT_BASE + action.index
    if isinstance(action, Copy):
        return COPY_BASE + table.movie_index(action.card)
    if isinstance(action, Icon):
        return ICON_BASE + ICON_INDEX[action.icon]
    if isinstance(action, Profit):
        return PROFIT_BASE + action.amount
    if isinstance(action, Pick):
        return PICK_BASE + table.movie_index(action.card)
    raise ValueError(f"{action!r} is not a Maybe Movies action")


GAME = MaybeMoviesGame()
