"""What each seat may see, and how the hidden part could look to it (the words are in ``words``).

A seat sees its own hand and its own sealed release; everyone sees the
weekends face up, every card played in earlier rounds, who has chosen this
round (never what), scores and hand sizes. Hidden: other hands, the cards
nobody was dealt, other seats' sealed releases and the weekends still face down.
"""

from __future__ import annotations

import random

from greenlight.core.views import observation_header
from opening_weekend import rules
from opening_weekend.cards import BUZZ, WEEKEND_BY_ID, buzz
from opening_weekend.observation import OpeningWeekendObservation, WeekendView
from opening_weekend.spec import ROUNDS
from opening_weekend.state import OpeningWeekendState


def weekend_json(weekend_id: str) -> WeekendView:
    """A face-up weekend: its id, name and value."""
    weekend = WEEKEND_BY_ID[weekend_id]
    return {"id": weekend.id, "name": weekend.name, "value": weekend.value}


def observe(state: OpeningWeekendState, viewer: int | None) -> OpeningWeekendObservation:
    """The JSON-ready view of ``viewer`` (None: a spectator)."""
    decision = rules.decision(state)
    over = rules.is_over(state)
    view: OpeningWeekendObservation = {
        **observation_header("opening-weekend", viewer, state.num_players, state.options),
        "round": min(state.round, ROUNDS),
        "rounds": ROUNDS,
        "weekend": None if over else weekend_json(rules.weekend(state).id),
        "calendar": [weekend_json(weekend_id) for weekend_id in state.calendar[: rules.visible_weekends(state)]],
        "scores": list(state.scores),
        "won": [[weekend_json(weekend_id) for weekend_id in won] for won in state.won],
        "played": [[buzz(card) for card in cards] for cards in state.played],
        "hand_sizes": [len(hand) for hand in state.hands],
        "committed": list(decision.committed),
        "waiting": list(decision.players),
    }
    if viewer is not None:
        view["hand"] = list(state.hands[viewer])
        view["my_release"] = state.releases[viewer]
    if over:
        result = rules.outcome(state)
        view["final"] = {"scores": list(result.scores), "ranks": list(result.ranks), "winners": list(result.winners)}
    return view


def unseen_cards(state: OpeningWeekendState, viewer: int | None) -> list[str]:
    """Buzz cards ``viewer`` has not seen: in other hands, sealed by others, or never dealt (in card order)."""
    seen = {card for cards in state.played for card in cards}
    if viewer is not None:
        seen.update(state.hands[viewer])
        if state.releases[viewer] is not None:
            seen.add(state.releases[viewer])  # type: ignore[arg-type]
    return [card for card in BUZZ if card not in seen]


def determinize(state: OpeningWeekendState, viewer: int | None, rng: random.Random) -> OpeningWeekendState:
    """Deal every card ``viewer`` has not seen again, and reshuffle the face-down weekends.

    Reads only what ``viewer`` sees (hand sizes and who has chosen are public), so
    two states it cannot tell apart give the same world for the same ``rng``.
    """
    world = state.clone()
    unseen = unseen_cards(state, viewer)
    rng.shuffle(unseen)
    for seat in range(state.num_players):
        if seat == viewer:
            continue
        sealed = state.releases[seat] is not None
        take = len(state.hands[seat]) + (1 if sealed else 0)
        cards, unseen = unseen[:take], unseen[take:]
        world.releases[seat] = cards[0] if sealed else None
        world.hands[seat] = sorted(cards[1:] if sealed else cards)
    world.undealt = sorted(unseen)
    shown = rules.visible_weekends(state)
    hidden = sorted(state.calendar[shown:])
    rng.shuffle(hidden)
    world.calendar = state.calendar[:shown] + hidden
    return world


def secrets(state: OpeningWeekendState, viewer: int | None) -> frozenset[str]:
    """Card ids ``viewer`` must never see: unseen buzz cards and face-down weekends."""
    return frozenset(unseen_cards(state, viewer)) | frozenset(state.calendar[rules.visible_weekends(state) :])
