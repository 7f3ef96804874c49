"""What a player of Opening Weekend reads: the cards, each release, the log, the terminal table and the help.

Built only from the state a seat may see (``view.unseen_cards``) and from observations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.core.words import Component, default_names
from opening_weekend import rules
from opening_weekend.actions import Release
from opening_weekend.cards import BUZZ, HAND_SIZE, WEEKEND_BY_ID, WEEKENDS, buzz, buzz_name
from opening_weekend.events import GameOver, MyRelease, Released, WeekendPlayed, WeekendRevealed
from opening_weekend.observation import OpeningWeekendObservation
from opening_weekend.spec import ROUNDS
from opening_weekend.state import OpeningWeekendState
from opening_weekend.view import unseen_cards


def why_illegal(state: OpeningWeekendState, seat: int, action: Action) -> str:
    """Why a release is refused, in words (the rules say it)."""
    return rules.why_illegal(state, seat, action)


def components(state: OpeningWeekendState | None) -> list[Component]:
    """The printed cards in words (the same in every game)."""
    cards = [
        Component("buzz card", card, buzz_name(card), f"Buzz {buzz(card)}: the louder, the likelier to win a weekend") for card in BUZZ
    ]
    weekends = [
        Component("weekend", weekend.id, weekend.name, f"{weekend.name}: worth {weekend.value} to the loudest film") for weekend in WEEKENDS
    ]
    return cards + weekends


def describe_action(state: OpeningWeekendState, seat: int, action: Action) -> str:
    """What releasing with this card means: the weekend at stake and how many unseen cards beat it."""
    assert isinstance(action, Release)
    current = rules.weekend(state)
    louder = sum(1 for card in unseen_cards(state, seat) if buzz(card) > buzz(action.card))
    odds = "no card you have not seen beats it" if louder == 0 else f"{louder} card{'s' if louder != 1 else ''} you have not seen beat it"
    return f"Release with {buzz_name(action.card)} for {current.name} (worth {current.value}): {odds}"


def action_warning(state: OpeningWeekendState, seat: int, action: Action) -> str | None:
    """No release needs a warning: every card may still win a weekend."""
    return None


def _name(names: Sequence[str] | None, seat: int, count: int) -> str:
    labels = list(names) if names else default_names(count)
    return labels[seat] if 0 <= seat < len(labels) else f"Player {seat + 1}"


def describe_event(event: Event, state: OpeningWeekendState | None, names: Sequence[str] | None) -> str:
    """One log line for ``event``."""
    count = state.num_players if state is not None else 4
    if event.kind == "released":
        released = cast(Released, event.data)
        return f"{_name(names, released['seat'], count)} releases a film, face down."
    if event.kind == "my_release":
        return f"You release with {buzz_name(cast(MyRelease, event.data)['card'])}."
    if event.kind == "weekend_played":
        played = cast(WeekendPlayed, event.data)
        weekend = WEEKEND_BY_ID[played["weekend"]]
        plays = ", ".join(f"{_name(names, seat, count)} Buzz {buzz(card)}" for seat, card in enumerate(played["plays"]))
        line = f"{weekend.name}: {plays}. {_name(names, played['winner'], count)} wins it and scores {weekend.value}."
        if played["flop"] is not None:
            line += f" {_name(names, played['flop'], count)} flops and loses 1."
        return line
    if event.kind == "weekend_revealed":
        revealed = WEEKEND_BY_ID[cast(WeekendRevealed, event.data)["weekend"]]
        return f"Coming up: {revealed.name} (worth {revealed.value})."
    if event.kind == "game_over":
        return "The last weekend is over. Final scores: " + ", ".join(
            f"{_name(names, seat, count)} {score}" for seat, score in enumerate(cast(GameOver, event.data)["scores"])
        )
    return ""


def render_text(observation: OpeningWeekendObservation, names: Sequence[str] | None = None) -> str:
    """The table in the terminal."""
    count = observation["num_players"]
    lines = []
    if observation["weekend"] is not None:
        current = observation["weekend"]
        lines.append(f"Round {observation['round']} of {observation['rounds']}: {current['name']} (worth {current['value']})")
    upcoming = [weekend for weekend in observation["calendar"][observation["round"] :]]
    if upcoming:
        lines.append("Sneak preview: " + ", ".join(f"{weekend['name']} ({weekend['value']})" for weekend in upcoming))
    for seat in range(count):
        won = ", ".join(weekend["name"] for weekend in observation["won"][seat]) or "no weekend yet"
        played = ", ".join(str(card) for card in observation["played"][seat]) or "nothing yet"
        status = "has chosen" if seat in observation["committed"] else ("choosing" if seat in observation["waiting"] else "")
        lines.append(
            f"  {_name(names, seat, count)}: {observation['scores'][seat]} points ({won}); played buzz {played}; "
            f"{observation['hand_sizes'][seat]} cards in hand {status}".rstrip()
        )
    if "hand" in observation:
        lines.append("Your hand: " + (", ".join(f"Buzz {buzz(card)} ({card})" for card in observation["hand"]) or "empty"))
        release = observation.get("my_release")
        if release:
            lines.append(f"You released with {buzz_name(release)}; waiting for the others.")
    return "\n".join(lines)


HELP = (
    "Each round one weekend is at stake. Everyone releases a film with one buzz card, face down, at the same time; "
    "then all are shown and the loudest buzz wins the weekend's points. "
    f"Each player holds {HAND_SIZE} of the {len(BUZZ)} buzz cards, so some cards are never in play. "
    f"Most points after {ROUNDS} weekends wins; "
    "a tie goes to more weekends won."
)


def help_text(observation: OpeningWeekendObservation) -> str:
    """The rules of the step, in words."""
    extra = []
    if observation["options"].get("flops"):
        extra.append("Flops: the quietest buzz card of each weekend loses 1 point.")
    if observation["options"].get("sneak_previews"):
        extra.append("Sneak previews: the next weekend is shown a round early.")
    return " ".join([HELP, *extra])
