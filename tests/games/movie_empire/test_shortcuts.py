"""The rules' shortcuts answer exactly what the lists and words they stand for answer.

The hot path asks "is there any?" without building the list (``can_place``,
``produce_options(first_only=True)``, ``lay_actions(first_only=True)``,
``produce_step_over``), tests a line without wording the refusal
(``release_ok``) and skips the general dispatch for the usual decisions.
Seeded random games, every player count and variant, compare each shortcut
with the long way at every step it applies to.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from greenlight.games.movie_empire import GAME, rules
from greenlight.games.movie_empire.actions import DONE, END, PASS
from greenlight.games.movie_empire.lines import lay_actions
from greenlight.games.movie_empire.rounds import exemption_actions
from greenlight.games.movie_empire.state import GRUMPY, NO_SEAT, WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import (
    available_places,
    can_place,
    produce_options,
    produce_step_actions,
    produce_step_over,
    release_ok,
    release_problem,
    sub_actions,
    turn_menu,
)


def _states(games: int) -> Iterator[tuple[MovieEmpireState, int]]:
    """Every state of seeded random games (each with the seat to move), over player counts and variants."""
    for seed in range(games):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
        rng = random.Random(seed)
        while players_to_move := GAME.decision(state).players:
            seat = rng.choice(players_to_move)
            yield state, seat
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_existence_shortcuts_agree_with_the_lists() -> None:
    checked = 0
    for state, seat in _states(30):
        if state.phase != WORKING:
            continue
        for who in range(state.num_players):
            assert can_place(state, who) == bool(available_places(state, who))
            assert bool(produce_options(state, who, first_only=True)) == bool(produce_options(state, who))
            hand = state.hands[who]
            for line in state.lines[who]:
                if line is not None and not line.shut and not line.locked:
                    every, first = lay_actions(state.table, line, hand), lay_actions(state.table, line, hand, first_only=True)
                    assert bool(first) == bool(every) and every[: len(first)] == first
            for index in (-1, 0, 1, 2):
                assert release_ok(state, who, index) == (release_problem(state, who, index) is None)
        if state.target != NO_SEAT and not state.sub and not state.queue:
            assert produce_step_over(state, seat) == (produce_step_actions(state, seat) == [DONE])
        checked += 1
    assert checked > 2000


def test_no_turn_is_offered_that_is_only_pass_or_only_end() -> None:
    """The flow skips a turn menu of only [pass] or only [end] without building it; none may reach a player."""
    for state, seat in _states(30):
        if GAME.decision(state).kind == "turn":
            assert turn_menu(state, seat) not in ([PASS], [END])


def test_the_usual_decisions_skip_the_general_dispatch_faithfully() -> None:
    """In the working and exemption steps the decision and legal actions equal the general ``_mover`` path's."""
    checked = 0
    for state, _ in _states(20):
        if state.phase not in (WORKING, GRUMPY) or state.queue:
            continue
        kind, mover = rules._mover(state)
        assert rules.decision(state) is rules._sequential(kind, mover)
        long_way = {
            "turn": turn_menu,
            "produce": produce_step_actions,
            "exemption": exemption_actions,
        }.get(kind, sub_actions)
        assert rules.legal_actions(state, mover) == long_way(state, mover)
        for who in range(state.num_players):
            if who != mover:
                assert rules.legal_actions(state, who) == []
        checked += 1
    assert checked > 1000
