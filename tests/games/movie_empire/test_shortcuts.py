"""The rules' shortcuts answer exactly what the lists and words they stand for answer.

The hot path asks "is there any?" without building the list (``can_place``,
``produce_options(first_only=True)``, ``lay_actions(first_only=True)``,
``produce_step_over``), tests a line without wording the refusal
(``release_ok``), lists placements from rows read once per board and plan
(``available_places``), skips the general dispatch for the usual decisions
and shuffles without ``random.Random.shuffle``'s inner calls.
Seeded random games, every player count and variant, compare each shortcut
with the long way at every step it applies to.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from greenlight.core.rng import Stream
from greenlight.games.movie_empire import GAME, rules
from greenlight.games.movie_empire.actions import DONE, END, PASS
from greenlight.games.movie_empire.lines import lay_actions
from greenlight.games.movie_empire.rounds import exemption_actions
from greenlight.games.movie_empire.state import GRUMPY, NO_SEAT, WORKING, MovieEmpireState, shuffle_in_place
from greenlight.games.movie_empire.working import (
    available_places,
    can_place,
    plan_for,
    produce_options,
    produce_step_actions,
    produce_step_over,
    release_ok,
    release_problem,
    sub_actions,
    turn_menu,
)
from tests.games.movie_empire.helpers import placements_by_the_rules


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


def test_placement_rows_agree_with_place_problem_for_every_seat_and_plan() -> None:
    """The placement scan (rows per board and plan, prices per card) lists what the rule-by-rule checks allow."""
    checked = 0
    plans: set[str] = set()
    for state, _ in _states(30):
        if state.phase != WORKING:
            continue
        for who in range(state.num_players):
            plan = plan_for(state, who)
            if plan is not None:
                plans.add(plan.effect)
            for skip in (False, True):
                expected = placements_by_the_rules(state, who, skip)
                assert [str(action) for action in available_places(state, who, skip_hand_dependent=skip)] == expected
            assert can_place(state, who) == bool(placements_by_the_rules(state, who, False))
            checked += 1
    assert checked > 5000
    assert {"forbid_task", "forbid_take_stage"} <= plans  # the plans that leave rows out or prices out were met


def test_shuffle_in_place_is_random_shuffle() -> None:
    """Same order and the same stream afterwards as ``Random.shuffle``, for every length a pile can have."""
    for length in range(0, 130):
        for seed in range(4):
            plain, fast = Stream("movie-empire", "test", length, seed), Stream("movie-empire", "test", length, seed)
            expected, shuffled = [str(i) for i in range(length)], [str(i) for i in range(length)]
            plain.shuffle(expected)
            shuffle_in_place(fast, shuffled)
            assert shuffled == expected
            assert fast.random() == plain.random()
