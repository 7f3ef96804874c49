"""What the engine keeps, draws or tests in a quicker way gives exactly what the plain way gives.

``determinize`` shuffles a ``random.Random`` with ``shuffle_in_place`` (a subclass
shuffles its own way); the outcome scored for the ``game_over`` event is handed
once to the next ``outcome`` call of the same position, only while every input of
the scoring is unchanged; ``has_lay`` and ``exemption_choice`` answer "is there
any?" for ``lay_actions`` and ``exemption_actions`` without building them; the placement scan, written out
as code per board and plan, lists what ``place_problem`` allows; ``only_pass`` tells a turn menu of only
``pass`` without building it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from greenlight.core.state import state_digest
from greenlight.games.movie_empire import GAME, scoring
from greenlight.games.movie_empire.actions import PASS
from greenlight.games.movie_empire.cards import T_PRODUCTION, T_RELEASE, T_SABOTAGE
from greenlight.games.movie_empire.determinization import determinize
from greenlight.games.movie_empire.lines import has_lay, lay_actions
from greenlight.games.movie_empire.rounds import exemption_actions, exemption_choice
from greenlight.games.movie_empire.scoring import final_breakdowns, outcome, rank
from greenlight.games.movie_empire.state import NO_SEAT, OVER, WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import available_places, can_place, in_use, only_pass, turn_menu
from tests.games.movie_empire.helpers import placements_by_the_rules


class _OwnShuffle(random.Random):
    """A ``random.Random`` subclass: ``determinize`` calls its own ``shuffle`` (the standard one here)."""


def _finished(seed: int) -> MovieEmpireState:
    players = 2 + seed % 3
    state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
    rng = random.Random(seed)
    while players_to_move := GAME.decision(state).players:
        seat = players_to_move[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_determinize_draws_as_random_shuffle_does() -> None:
    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3})
        rng = random.Random(seed)
        while players_to_move := GAME.decision(state).players:
            seat = players_to_move[0]
            if rng.random() < 0.1:
                fast, plain = random.Random(checked), _OwnShuffle(checked)
                for viewer in (None, *range(players)):
                    assert state_digest(determinize(state, viewer, fast)) == state_digest(determinize(state, viewer, plain))
                assert fast.random() == plain.random()  # the same draws, so the same stream afterwards
                checked += 1
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 100


def test_the_game_over_outcome_is_the_outcome_of_the_final_position() -> None:
    for seed in range(10):
        state = _finished(seed)
        assert state.phase == OVER
        fresh = rank(final_breakdowns(state.clone()))
        handed = outcome(state)
        assert handed == fresh
        assert outcome(state) == fresh  # asked again: scored again, the same
        assert outcome(state) is not handed


def test_a_position_changed_after_the_game_over_is_scored_again() -> None:
    changes: list[Callable[[MovieEmpireState], object]] = [
        lambda s: s.pp.__setitem__(0, s.pp[0] + 40),
        lambda s: s.money.__setitem__(1, s.money[1] + 30),
        lambda s: s.sympathy.__setitem__(0, 5 if s.sympathy[0] < 0 else -5),
        lambda s: s.statues.__setitem__(1, s.statues[1] + 3),
        lambda s: s.released[0].append(("SA01", "A", "USA")),
        lambda s: s.dossier.__setitem__(0, 1 if s.dossier[0] == -1 else -1),
    ]
    for seed, change in enumerate(changes):
        state = _finished(seed)
        before = rank(final_breakdowns(state.clone()))
        change(state)
        expected = rank(final_breakdowns(state.clone()))
        assert expected != before  # the change matters to the scoring
        assert outcome(state) == expected


def test_another_position_is_never_handed_the_kept_outcome() -> None:
    state = _finished(3)
    other = state.clone()
    other.pp[0] += 40
    assert scoring._handed is not None and scoring._handed[0] is state
    assert outcome(other) == rank(final_breakdowns(other.clone()))
    assert outcome(other) != outcome(state)


def test_has_lay_and_exemption_choice_agree_with_the_lists() -> None:
    lays = exemptions = 0
    for seed in range(20):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
        rng = random.Random(seed)
        while players_to_move := GAME.decision(state).players:
            for seat in range(players):
                hand = state.hands[seat]
                # Every hand against every line on the table (open or not), and the hand without each of its cards.
                for line in [line for lines in state.lines for line in lines if line is not None]:
                    assert has_lay(state.table, line, hand) == bool(lay_actions(state.table, line, hand))
                    for index in range(len(hand)):
                        rest = hand[:index] + hand[index + 1 :]
                        assert has_lay(state.table, line, rest) == bool(lay_actions(state.table, line, rest))
                    lays += 1
                if state.plan is not None:
                    assert exemption_choice(state, seat) == (len(exemption_actions(state, seat)) > 1)
                    exemptions += 1
            seat = players_to_move[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert lays > 5000 and exemptions > 1000


def test_the_written_placement_scan_agrees_with_place_problem() -> None:
    """Working positions of random games, each changed at random where the scan's rows differ: the seat's money
    (every amount that can matter), the annual plan in force (each one, or none), the seat's dossier (none, usable,
    taken this round) and a dossier covering a space. The scan written for each board and plan answers what the
    rule-by-rule checks answer, whole and stopping at the first placement."""
    checked = 0
    plans_met: set[str | None] = set()
    for seed in range(16):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
        plans: list[str | None] = [None, *state.table.plans]
        rng = random.Random(seed)
        while players_to_move := GAME.decision(state).players:
            if state.phase == WORKING:
                world = state.clone()
                for _ in range(6):
                    seat = rng.randrange(players)
                    world.money[seat] = rng.randrange(-1, 14)
                    world.placed[seat] = rng.choice([world.placed[seat], rng.randrange(5)])
                    world.plan = rng.choice(plans)
                    world.exempt[seat] = rng.random() < 0.2
                    world.dossier[seat] = rng.choice([NO_SEAT, world.round - 1, world.round])
                    world.blocked = [NO_SEAT] * len(world.blocked)
                    if rng.random() < 0.5:
                        world.blocked[rng.choice(in_use(world)).index] = rng.randrange(players)
                    plans_met.add(world.plan)
                    for skip in (False, True):
                        expected = placements_by_the_rules(world, seat, skip)
                        assert [str(action) for action in available_places(world, seat, skip_hand_dependent=skip)] == expected
                    assert can_place(world, seat) == bool(placements_by_the_rules(world, seat, False))
                    checked += 1
            seat = players_to_move[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 10000
    assert plans_met == {None, *GAME.new_state(2, 0).table.plans}  # every plan's scan was written and tested


def test_only_pass_tells_a_menu_of_only_pass() -> None:
    """For a seat that has not placed and has no placement, ``only_pass`` answers whether ``turn_menu`` is
    ``[pass]``: working positions of random games, each changed at random for each seat (its money, assistants
    and dossier, the turn's produce and free-action flags, and often every space taken but a few a lay or a
    Purge could open, some production slots emptied), so produce steps, Purge and plain passes all come up."""
    checked = passes = 0
    kinds: set[str] = set()  # the first word of every action on a menu that is more than pass
    for seed in range(24):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
        rng = random.Random(seed)
        while players_to_move := GAME.decision(state).players:
            if state.phase == WORKING:
                world = state.clone()
                world.turn_placed = False
                spaces = in_use(world)
                openable = [space for space in spaces if space.task in (T_RELEASE, T_SABOTAGE, T_PRODUCTION)]
                for seat in range(players):
                    world.money[seat] = rng.choice([world.money[seat], rng.randrange(4)])
                    world.placed[seat] = rng.choice([world.placed[seat], 3])
                    world.dossier[seat] = rng.choice([world.dossier[seat], NO_SEAT, world.round - 1])
                    world.turn_produced = rng.random() < 0.3
                    world.turn_acted = rng.random() < 0.3
                    if rng.random() < 0.6:
                        free = rng.sample(openable, rng.randint(1, 3))
                        for space in spaces:
                            world.assistant[space.index] = NO_SEAT if space in free else (seat + 1) % players
                            if space.task == T_PRODUCTION and rng.random() < 0.5:
                                world.slot_card[space.index] = None
                    if can_place(world, seat):
                        continue
                    menu = turn_menu(world, seat)
                    assert only_pass(world, seat) == (menu == [PASS]), [str(action) for action in menu]
                    checked += 1
                    passes += menu == [PASS]
                    kinds.update(str(action).split()[0] for action in menu if menu != [PASS])
            seat = players_to_move[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 3000 and passes > 1000 and checked - passes > 200  # both answers came up often
    assert {"produce", "purge"} <= kinds
