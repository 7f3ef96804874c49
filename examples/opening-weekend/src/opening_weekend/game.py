"""The Opening Weekend game object: the Greenlight contract wired to this package's rules and view."""

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
from opening_weekend import rules, view
from opening_weekend.actions import ACTION_TYPES, Release
from opening_weekend.bots import HeuristicBot
from opening_weekend.cards import BUZZ
from opening_weekend.spec import SPEC
from opening_weekend.state import OpeningWeekendState


class OpeningWeekendGame(Game[OpeningWeekendState]):
    """Opening Weekend (2-4 players, one sealed simultaneous release a round)."""

    spec = SPEC
    action_types = ACTION_TYPES
    num_distinct_actions = len(BUZZ)

    def initial_state(self, num_players: int, seed: int, options: dict[str, OptionValue]) -> OpeningWeekendState:
        """Shuffle, deal and lay out the calendar."""
        return rules.setup(num_players, seed, options)

    def decision(self, state: OpeningWeekendState) -> Decision:
        """Every seat still to release this round, at once."""
        return rules.decision(state)

    def legal_actions(self, state: OpeningWeekendState, player: int) -> list[Action]:
        """One release per card in hand."""
        return list(rules.legal_actions(state, player))

    def why_illegal(self, state: OpeningWeekendState, player: int, action: Action) -> str:
        """Why a release is refused."""
        return rules.why_illegal(state, player, action) if isinstance(action, Release) else super().why_illegal(state, player, action)

    def apply_unchecked(self, state: OpeningWeekendState, player: int, action: Action) -> list[Event]:
        """Seal a release; the last one of the round scores the weekend."""
        assert isinstance(action, Release)
        return rules.apply(state, player, action)

    def observe(self, state: OpeningWeekendState, player: int | None) -> Observation:
        """What ``player`` may see."""
        return view.observe(state, player)

    def determinize(self, state: OpeningWeekendState, player: int | None, rng: random.Random) -> OpeningWeekendState:
        """Redeal what ``player`` has not seen."""
        return view.determinize(state, player, rng)

    def secrets(self, state: OpeningWeekendState, player: int | None) -> frozenset[str]:
        """Card ids hidden from ``player``."""
        return view.secrets(state, player)

    def outcome(self, state: OpeningWeekendState) -> Outcome:
        """Points, then weekends won."""
        return rules.outcome(state)

    def action_code(self, state: OpeningWeekendState, action: Action) -> int:
        """The card's place among the twenty-four buzz cards."""
        assert isinstance(action, Release)
        return BUZZ.index(action.card)

    def components(self, state: OpeningWeekendState | None = None) -> list[Component]:
        """The buzz cards and weekends in words."""
        return view.components()

    def describe_action(self, state: OpeningWeekendState, player: int, action: Action) -> str:
        """The weekend at stake and the odds of the card."""
        assert isinstance(action, Release)
        return view.describe_action(state, player, action)

    def describe_event(self, event: Event, state: OpeningWeekendState | None = None, names: Sequence[str] | None = None) -> str:
        """One log line."""
        return view.describe_event(event, state, names)

    def render_text(self, observation: Observation, names: Sequence[str] | None = None) -> str:
        """The table in the terminal."""
        return view.render_text(observation, names)

    def help_text(self, observation: Observation) -> str:
        """The rules in a few sentences."""
        return view.help_text(observation)

    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The ``heuristic`` level."""
        return {"heuristic": HeuristicBot}


GAME = OpeningWeekendGame()
