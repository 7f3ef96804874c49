"""The rules of Opening Weekend, as functions over the state.

Setup: the twenty-four buzz cards are shuffled and each player is dealt five; the
eight weekends are shuffled into a calendar. Each of five rounds shows the
next weekend; every player releases a film by choosing one buzz card of their
hand face down (a simultaneous, sealed step). Once all have chosen, the
cards are revealed: the loudest buzz wins the weekend and scores its value.
With **flops**, the quietest card of the round loses 1 point. With **sneak
previews**, next round's weekend is shown one round early. Most points win;
a tie goes to whoever won more weekends, and a tie on both is shared.
"""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.core.decision import GAME_OVER, Decision
from greenlight.core.events import Event
from greenlight.core.outcome import Outcome, outcome_from_keys
from greenlight.core.rng import Stream
from greenlight.core.spec import OptionValue
from opening_weekend.actions import Release
from opening_weekend.cards import BUZZ, HAND_SIZE, WEEKEND_BY_ID, WEEKENDS, Weekend, buzz
from opening_weekend.events import GameOver, MyRelease, Released, WeekendPlayed, WeekendRevealed
from opening_weekend.spec import ROUNDS
from opening_weekend.state import OpeningWeekendState

#: Points a flop costs (the **flops** variant).
FLOP_PENALTY = 1


def setup(num_players: int, seed: int, options: dict[str, OptionValue]) -> OpeningWeekendState:
    """Shuffle and deal from the game seed (the only randomness of the game)."""
    rng = Stream("opening-weekend", "deal", seed)
    deck = list(BUZZ)
    rng.shuffle(deck)
    hands = [sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(num_players)]
    calendar = [weekend.id for weekend in WEEKENDS]
    rng.shuffle(calendar)
    return OpeningWeekendState(num_players, options, hands, sorted(deck[num_players * HAND_SIZE :]), calendar)


def is_over(state: OpeningWeekendState) -> bool:
    """Whether all five weekends have been played."""
    return state.round > ROUNDS


def weekend(state: OpeningWeekendState) -> Weekend:
    """This round's weekend."""
    return WEEKEND_BY_ID[state.calendar[min(state.round, ROUNDS) - 1]]


def visible_weekends(state: OpeningWeekendState) -> int:
    """How many weekends of the calendar are face up: those played, this round's and a sneak preview."""
    shown = min(state.round, ROUNDS)
    if state.options.get("sneak_previews") and state.round < ROUNDS:
        shown += 1
    return shown


def decision(state: OpeningWeekendState) -> Decision:
    """Every seat that has not released a film this round, choosing at once."""
    if is_over(state):
        return GAME_OVER
    waiting = tuple(seat for seat, card in enumerate(state.releases) if card is None)
    committed = tuple(seat for seat, card in enumerate(state.releases) if card is not None)
    current = weekend(state)
    prompt = f"Round {state.round} of {ROUNDS}: release a film for {current.name} (worth {current.value}) with a buzz card, face down"
    return Decision(waiting, "release", simultaneous=True, committed=committed, prompt=prompt)


def legal_actions(state: OpeningWeekendState, seat: int) -> list[Action]:
    """A release for each card of the seat's hand, if it still owes one this round."""
    if is_over(state) or not 0 <= seat < state.num_players or state.releases[seat] is not None:
        return []
    return [Release(card) for card in state.hands[seat]]


def why_illegal(state: OpeningWeekendState, seat: int, action: Action) -> str:
    """Why a release is refused, in words."""
    if not isinstance(action, Release):
        return f"'{action}' is not a release"
    if action.card not in BUZZ:
        return f"{action.card} is not a buzz card; buzz cards are {BUZZ[0]} to {BUZZ[-1]}"
    if action.card in state.hands[seat]:
        return "that release is not possible now"
    return f"Buzz {buzz(action.card)} is not in your hand; you hold " + ", ".join(f"Buzz {buzz(card)}" for card in state.hands[seat])


def apply(state: OpeningWeekendState, seat: int, action: Action) -> list[Event]:
    """Seal the seat's release; the last one reveals the round and scores the weekend."""
    assert isinstance(action, Release)
    state.hands[seat].remove(action.card)
    state.releases[seat] = action.card
    events = [
        Event("released", Released(seat=seat, round=state.round)),
        Event("my_release", MyRelease(seat=seat, card=action.card), audience=(seat,)),
    ]
    if all(card is not None for card in state.releases):
        events += _resolve(state)
    return events


def _resolve(state: OpeningWeekendState) -> list[Event]:
    plays = [card for card in state.releases if card is not None]
    current = weekend(state)
    loudness = [buzz(card) for card in plays]
    winner = loudness.index(max(loudness))
    state.scores[winner] += current.value
    state.won[winner].append(current.id)
    flop = loudness.index(min(loudness)) if state.options.get("flops") else None
    if flop is not None:
        state.scores[flop] -= FLOP_PENALTY
    for seat, card in enumerate(plays):
        state.played[seat].append(card)
    state.releases = [None] * state.num_players
    events = [
        Event(
            "weekend_played",
            WeekendPlayed(round=state.round, weekend=current.id, plays=plays, winner=winner, value=current.value, flop=flop),
        )
    ]
    before = visible_weekends(state)
    state.round += 1
    if is_over(state):
        events.append(Event("game_over", GameOver(scores=list(state.scores))))
    elif visible_weekends(state) > before:
        shown = state.calendar[visible_weekends(state) - 1]
        events.append(Event("weekend_revealed", WeekendRevealed(weekend=shown, round=visible_weekends(state))))
    return events


def outcome(state: OpeningWeekendState) -> Outcome:
    """Points, then weekends won; a tie on both is shared."""
    breakdown = [
        {
            "weekends": sum(WEEKEND_BY_ID[weekend_id].value for weekend_id in state.won[seat]),
            "flops": state.scores[seat] - sum(WEEKEND_BY_ID[weekend_id].value for weekend_id in state.won[seat]),
            "weekends_won": len(state.won[seat]),
        }
        for seat in range(state.num_players)
    ]
    keys = [(state.scores[seat], len(state.won[seat])) for seat in range(state.num_players)]
    return outcome_from_keys(state.scores, keys, breakdown)
