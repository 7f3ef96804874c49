"""The Cinecitta 1937 game object: the engine contract wired to this package's rules and view."""

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
from greenlight.games.cinecitta import rules, view, words
from greenlight.games.cinecitta.actions import ACTION_TYPES, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.bots import HeuristicBot
from greenlight.games.cinecitta.cards import MAX_CARDS, OCCUPATIONS, CardTable, load_cards
from greenlight.games.cinecitta.spec import SPEC
from greenlight.games.cinecitta.state import CinecittaState

#: Offer amounts run 0..500 in steps of 10 (the players' total at 5 players).
AMOUNT_SLOTS = 51
OFFER_CODES = MAX_CARDS * AMOUNT_SLOTS
RESPOND_CODES = 2
OCCUPATION_SLOTS = 6  # no card moved out, or one of the 5 occupations
PLACE_CODES = 1 + 2 * OCCUPATION_SLOTS * OCCUPATION_SLOTS


class CinecittaGame(Game[CinecittaState]):
    """Cinecitta 1937 (3-5 players, simultaneous sealed offers)."""

    spec = SPEC
    action_types = ACTION_TYPES
    num_distinct_actions = OFFER_CODES + RESPOND_CODES + PLACE_CODES

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The ``heuristic`` level."""
        return {"heuristic": HeuristicBot}

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> CinecittaState:
        """Shuffle and deal (§3)."""
        return rules.setup(num_players, seed, options)

    def decision(self, state: CinecittaState) -> Decision:
        """The current simultaneous step."""
        return rules.decision(state)

    def legal_actions(self, state: CinecittaState, player: int) -> list[Action]:
        """Legal commitments of ``player``."""
        return rules.legal_actions(state, player)

    def apply_unchecked(self, state: CinecittaState, player: int, action: Action) -> list[Event]:
        """Commit, and resolve the step once every seat has committed."""
        return rules.apply(state, player, action)

    def observe(self, state: CinecittaState, player: int | None) -> Observation:
        """What ``player`` may see."""
        return view.observe(state, player)

    def determinize(self, state: CinecittaState, player: int | None, rng: random.Random) -> CinecittaState:
        """Redraw everything hidden from ``player``."""
        return view.determinize(state, player, rng)

    def secrets(self, state: CinecittaState, player: int | None) -> frozenset[str]:
        """Cards ``player`` never sees."""
        return view.secrets(state, player)

    def outcome(self, state: CinecittaState) -> Outcome:
        """Scores with the §5 breakdown."""
        return rules.outcome(state)

    def components(self, state: CinecittaState | None = None) -> list[Component]:
        """Every staff card of the game's card table (bundled or custom) in words, and the other printed components."""
        return words.components(state.table if state is not None else load_cards())

    def describe_action(self, state: CinecittaState, player: int, action: Action) -> str:
        """What the offer, response or plan does now: its cost, what comes back, the Studio it leaves."""
        return words.describe_action(state, player, action)

    def action_warning(self, state: CinecittaState, player: int, action: Action) -> str | None:
        """A last-round move that makes dropping out certain while another move does not."""
        return words.action_warning(state, player, action)

    def describe_event(self, event: Event, state: CinecittaState | None = None, names: Sequence[str] | None = None) -> str:
        """Log text with seat names and card names ("" for commitments)."""
        return words.describe_event(event, state, names)

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """Terminal view in words."""
        return words.render_text(observation, names)

    def help_text(self, observation: Observation) -> str:
        """The card legend, the scoring and the rules of the current step."""
        return words.help_text(observation)

    def why_illegal(self, state: CinecittaState, player: int, action: Action) -> str:
        """Reason for refusing ``action``."""
        return rules.why_illegal(state, player, action)

    def action_code(self, state: CinecittaState, action: Action) -> int:
        """Offers by (card, amount); responses; plans by card order and the occupations moved out."""
        table = state.table
        if isinstance(action, Offer):
            return table.index(action.card) * AMOUNT_SLOTS + min(action.amount // 10, AMOUNT_SLOTS - 1)
        if isinstance(action, Respond):
            return OFFER_CODES + (0 if action.choice == SECURE else 1)
        assert isinstance(action, Place)
        base = OFFER_CODES + RESPOND_CODES
        if not action.placements:
            return base
        (first, out1), *rest = action.placements
        second, out2 = rest[0] if rest else (None, None)
        swapped = int(second is not None and table.index(second) < table.index(first))
        return base + 1 + (swapped * OCCUPATION_SLOTS + _occupation_slot(table, out1)) * OCCUPATION_SLOTS + _occupation_slot(table, out2)


def _occupation_slot(table: CardTable, card: str | None) -> int:
    """0 for no card moved out, else 1 + the card's occupation index (Studio occupations are unique)."""
    return 0 if card is None else 1 + OCCUPATIONS.index(table[card].occupation)


GAME = CinecittaGame()
