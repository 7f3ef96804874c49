"""Opening Weekend: the conformance harness and exact rule checks."""

from __future__ import annotations

import pytest

from greenlight.core.errors import IllegalActionError
from greenlight.core.record import Record, replay
from greenlight.testing import check_game, option_matrix
from opening_weekend import GAME
from opening_weekend.actions import Release
from opening_weekend.state import OpeningWeekendState

COMBINATIONS = list(option_matrix(GAME))


@pytest.mark.parametrize(
    ("num_players", "options"), COMBINATIONS, ids=[f"{n}p-{sorted(k for k, v in o.items() if v)}" for n, o in COMBINATIONS]
)
def test_conformance(num_players: int, options: dict[str, object]) -> None:
    report = check_game(GAME, num_players, options, range(60), deep_every=4)
    assert report.games == 60
    assert report.leak_checks_resampled > 0
    assert set(report.winners) == set(range(num_players))


def dealt(hands: list[list[str]], calendar: list[str], options: dict[str, object] | None = None) -> OpeningWeekendState:
    state = GAME.new_state(len(hands), seed=0, options=options)
    state.hands = [sorted(hand) for hand in hands]
    state.calendar = calendar
    return state


HANDS = [["B12", "B01", "B02", "B03", "B04"], ["B09", "B05", "B06", "B07", "B08"], ["B03", "B10", "B11", "B13", "B14"]]
CALENDAR = ["W4", "W1", "W2", "W3", "W5", "W6", "W7", "W8"]


def test_every_card_in_hand_is_a_release_and_nothing_else() -> None:
    state = dealt([HANDS[0], HANDS[1], ["B10", "B11", "B13", "B14", "B15"]], CALENDAR)
    assert [str(action) for action in GAME.legal_actions(state, 0)] == [
        "release B01",
        "release B02",
        "release B03",
        "release B04",
        "release B12",
    ]
    GAME.apply(state, 0, Release("B12"))
    assert GAME.legal_actions(state, 0) == []
    assert GAME.decision(state).players == (1, 2) and GAME.decision(state).committed == (0,)
    with pytest.raises(IllegalActionError, match="not in your hand"):
        GAME.apply(state, 1, Release("B12"))


def test_the_loudest_buzz_wins_the_weekend_and_flops_lose_one() -> None:
    """The guide's example: Long Weekend (4); Ann Buzz 12, Ben Buzz 9, Cleo Buzz 3 (with flops)."""
    state = dealt([HANDS[0], HANDS[1], ["B03", "B10", "B11", "B13", "B14"]], CALENDAR, {"flops": True})
    state.hands[0].remove("B03")
    state.hands[0].append("B15")
    for seat, card in enumerate(("B12", "B09", "B03")):
        events = GAME.apply(state, seat, Release(card))
    played = next(event for event in events if event.kind == "weekend_played")
    assert played.data["winner"] == 0 and played.data["value"] == 4 and played.data["flop"] == 2
    assert state.scores == [4, 0, -1]
    assert state.won == [["W4"], [], []]


def test_a_replayed_record_reaches_the_same_end() -> None:
    state = GAME.new_state(2, seed=9)
    record = Record(GAME.spec.id, GAME.spec.version, 2, 9, GAME.spec.resolve_options(2), [])
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        action = GAME.legal_actions(state, seat)[-1]
        record.actions.append((seat, str(action)))
        GAME.apply(state, seat, action)
    assert GAME.outcome(replay(record, GAME)) == GAME.outcome(state)
