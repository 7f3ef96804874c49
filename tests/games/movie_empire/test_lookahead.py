"""Producing before the placement (R16, R33, R67): a lay is legal when some continuation of the produce step opens a placement.

The positions are the late-round ones of issue 13: the third assistant costs 3
and the seat holds exactly 3, so after the hire fee nothing with a price is
affordable and every free space except the release spaces is taken; a release
is the only placement left, and the line needs two lays before it qualifies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from greenlight.core.events import Event
from greenlight.games.movie_empire import GAME, working
from greenlight.games.movie_empire.actions import DONE, PASS, Lay, Produce
from greenlight.games.movie_empire.cards import Tables
from greenlight.games.movie_empire.lines import Line, apply_lay, lay_actions
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import HIRE_FEES, in_use, new_line_slot, place_problem
from tests.games.movie_empire.helpers import TABLE, legal, line, play

WHY_PLACE = "you produce only in a turn with a placement, R16, R67"
RELEASES = {"place RL1", "place RL2", "place RL3"}


def late_in_the_round(hand: list[str], lines: list[Line], **kwargs: object) -> MovieEmpireState:
    """Seat 0 holds 3 money for its 3rd assistant (3): CC1, BN1, FP1 and SB1 are taken, every slot is empty."""
    options: dict[str, object] = {
        "money": [3, 0],
        "hands": [hand, []],
        "lines": [lines, []],
        "assistants": {"CC1": 1, "BN1": 1, "FP1": 1, "SB1": 1, "SS1": 0, "SS2": 0},
        "placed": [2, 4],
    }
    options.update(kwargs)
    return position(2, **options)  # type: ignore[arg-type]


def premiere_parts(events: list[Event]) -> dict[str, int]:
    """The per-source PP of the one premiere among ``events``."""
    [premiere] = [event for event in events if event.kind == "premiere"]
    parts = premiere.data["parts"]
    assert isinstance(parts, dict)
    return parts


# -- the two-lay release line -------------------------------------------------------------------------------


def red_line() -> Line:
    # SA05 The Last Stuntman (A, 0/1/1/1) with two red cards: a yellow, then a blue card left of them make it releasable.
    return line("SA05", ["PR01", "PR02"])


def test_a_red_line_needing_a_yellow_then_a_blue_card_may_be_produced_and_released() -> None:
    state = late_in_the_round(["PY01", "PB01", "ST04"], [red_line()])
    assert legal(state, 0) == {"pass", "produce 1"}  # no longer a forced pass (R67)
    play(state, 0, "produce 1")
    # Catering (B) cannot go left of a red card yet; Rough Cut (Y) can, and the star keeps every continuation open.
    assert legal(state, 0) == {"lay PY01 left", "star ST04"}
    play(state, 0, "lay PY01 left")
    assert legal(state, 0) == {"lay PB01 left", "star ST04"}  # no 'done': no space is open yet
    assert GAME.why_illegal(state, 0, DONE) == (
        "before your placement, the produce step must first open a space for you to place on: lay on (R67)"
    )
    play(state, 0, "lay PB01 left")
    assert legal(state, 0) == {"star ST04", "done"}  # the line is releasable: the step may end
    play(state, 0, "done")
    assert legal(state, 0) == RELEASES  # produced: a placement must follow, no pass
    play(state, 0, "place RL1")
    # Seat 0 cannot afford a 4th assistant and passes by itself; seat 1 has none left: the premiere phase.
    assert GAME.decision(state).kind == "market" and legal(state, 0) == {"market USA", "market EUR", "market CHN"}
    events = play(state, 0, "market EUR")
    # EUR 2, script SA05 met (B1 Y1 R2) 5, production Catering 1 + Rough Cut 1 + Poster Campaign 1 + Press Junket 1.
    assert premiere_parts(events) == {"market": 2, "trend": 0, "script": 5, "stars": 0, "period": 0, "production": 4}
    assert state.pp[0] == 11
    assert state.released[0] == [("SA05", "A", "EUR")]


def test_the_turn_is_no_longer_passed_automatically() -> None:
    state = late_in_the_round(["PY01", "PB01"], [red_line()], seat=1, placed=[2, 3])
    state.assistant[state.table.space_by_id["SB1"].index] = 0  # seat 1 has 3 out: CC1, BN1, FP1
    play(state, 1, "pass")
    assert GAME.decision(state).players == (0,) and not state.passed[0]
    assert legal(state, 0) == {"pass", "produce 1"}
    play(state, 0, "produce 1", "lay PY01 left", "lay PB01 left")  # the hand is empty: the step ends by itself
    assert legal(state, 0) == RELEASES


def test_a_lay_that_uses_up_the_card_a_later_lay_needs_is_refused() -> None:
    # A joker left of the red cards may be Y (then Catering fits left of it) or R (then nothing blue ever fits).
    state = late_in_the_round(["PJ01", "PB01"], [red_line()])
    play(state, 0, "produce 1")
    assert legal(state, 0) == {"lay PJ01 left Y"}
    assert GAME.why_illegal(state, 0, Lay("PJ01", "left", "R")) == (
        f"before your placement, you would have no space to place on after this lay, even with more lays into this line ({WHY_PLACE})"
    )
    assert GAME.why_illegal(state, 0, Lay("PB01", "left")) == (
        "the colour rule allows only post-production (Y) or marketing (R) at the left end; Catering is shooting"
    )
    play(state, 0, "lay PJ01 left Y", "lay PB01 left")
    assert legal(state, 0) == RELEASES


def test_without_the_blue_card_the_seat_must_pass_and_the_refusal_says_what_is_missing() -> None:
    # Rough Cut can be laid into line 1, so "no card of your hand can be laid" would be false: a space to place on is missing.
    state = late_in_the_round(["PY01"], [red_line()])
    assert legal(state, 0) == {"pass"}
    assert GAME.why_illegal(state, 0, Produce("1")) == (
        f"before your placement, you would have no space to place on after any lays into line 1 ({WHY_PLACE})"
    )
    nothing_fits = late_in_the_round(["PG01"], [red_line()])
    assert GAME.why_illegal(nothing_fits, 0, Produce("1")) == "no card of your hand can be laid into line 1"


def test_a_usable_dossier_may_come_first_when_a_produce_step_opens_the_placement() -> None:
    """R53: Purge and Cut! need a turn with a placement; a produce step that opens one gives the turn one (R67)."""
    busy = {"CC1": 1, "BN1": 1, "FP1": 1, "RL1": 1, "SB1": 0, "BN2": 0}  # SB1 and BN2 hold seat 0's first two
    state = late_in_the_round(["PY01", "PB01"], [red_line()], round=3, dossier=[2, None], assistants=busy)
    state.lines[1][0] = line("SA01", ["PB02"], locked=True)  # seat 1's line, released on RL1
    state.release_line[state.table.space_by_id["RL1"].index] = 0
    assert legal(state, 0) == {"pass", "produce 1", "purge", "cut RL1"}
    play(state, 0, "cut RL1")
    # The Cut! stands; a placement is still within reach, so no pass: produce, then release (R53).
    assert legal(state, 0) == {"produce 1"}
    assert GAME.why_illegal(state, 0, PASS) == (
        "you used your dossier this turn and a produce step can still open a space, so you must produce and place (R53, R67)"
    )
    play(state, 0, "produce 1", "lay PY01 left", "lay PB01 left")
    assert legal(state, 0) == {"place RL2", "place RL3"}


# -- the star plan: a line that needs a blue card and a star ---------------------------------------------


@pytest.mark.parametrize("order", [("star ST04", "lay PB02 right"), ("lay PB02 right", "star ST04")])
def test_under_the_star_plan_a_line_needing_a_blue_card_and_a_star_may_be_released(order: tuple[str, str]) -> None:
    # AP08: no movies without a star. SC01 Dudes are Bowling (C, 1/1/0/0) with Casting Call (G) needs Extras (B) and a star.
    state = late_in_the_round(["PB02", "ST04"], [line("SC01", ["PG01"])], plan="AP08")
    assert legal(state, 0) == {"pass", "produce 1"}
    play(state, 0, "produce 1")
    assert legal(state, 0) == {"lay PB02 right", "star ST04"}
    play(state, 0, order[0])
    assert legal(state, 0) == {order[1]}  # one lay is not enough: the other must follow, no 'done'
    play(state, 0, order[1])
    assert legal(state, 0) == RELEASES  # the hand is empty: the produce step ended by itself
    events = play(state, 0, "place RL1", "market EUR")
    # EUR 2, script SC01 met 3, Marta Quill 1, production Casting Call 1 + Extras 1.
    assert premiere_parts(events) == {"market": 2, "trend": 0, "script": 3, "stars": 1, "period": 0, "production": 2}
    assert state.pp[0] == 8


def test_under_the_star_plan_a_new_line_with_a_blue_card_and_a_star_may_be_started() -> None:
    state = late_in_the_round(["SC01", "PB02", "ST04"], [], plan="AP08")
    assert legal(state, 0) == {"pass", "produce new"}
    play(state, 0, "produce new")
    assert legal(state, 0) == {"script SC01"}
    play(state, 0, "script SC01")
    assert legal(state, 0) == {"lay PB02 right"}  # a star comes after the first production card
    play(state, 0, "lay PB02 right")
    assert legal(state, 0) == {"star ST04"}
    play(state, 0, "star ST04")
    assert legal(state, 0) == RELEASES


def test_under_the_star_plan_without_a_star_the_new_line_refusal_says_what_is_missing() -> None:
    # The hand holds a script and a production card, so "a new line needs a script and a production card" would be false.
    state = late_in_the_round(["SC01", "PB02"], [], plan="AP08")
    assert legal(state, 0) == {"pass"}
    assert GAME.why_illegal(state, 0, Produce("new")) == (
        f"before your placement, you would have no space to place on after any new line you could start now ({WHY_PLACE})"
    )


# -- property: a forced pass is really forced, and every produce step offered reaches a placement ---------


def _can_place(state: MovieEmpireState, seat: int) -> bool:
    """Some placement passes the rule-by-rule checks of ``place_problem``."""
    return any(place_problem(state, seat, space, dossier) is None for space in in_use(state) for dossier in (False, True))


def _lay_sequences(table: Tables, line: Line, hand: list[str]) -> Iterator[tuple[Line, list[str]]]:
    """Every (line, cards left) after a non-empty sequence of legal lays of ``hand`` into ``line``, in every order."""
    for lay in lay_actions(table, line, hand):
        rest = list(hand)
        rest.remove(lay.card)
        after = apply_lay(table, line, lay)
        yield after, rest
        yield from _lay_sequences(table, after, rest)


def _opens(world: MovieEmpireState, seat: int, index: int, line: Line, hand: list[str], *, now: bool) -> bool:
    """Brute force on ``world`` (a clone): whether line ``index`` as ``line`` with ``hand`` left leaves a placement
    (``now``), or does after some non-empty sequence of further lays into it."""
    saved_line, saved_hand = world.lines[seat][index], world.hands[seat]
    try:
        candidates = [(line, hand)] if now else []
        for after, rest in [*candidates, *_lay_sequences(world.table, line, hand)]:
            world.lines[seat][index], world.hands[seat] = after, rest
            if _can_place(world, seat):
                return True
        return False
    finally:
        world.lines[seat][index], world.hands[seat] = saved_line, saved_hand


def _opening_targets(state: MovieEmpireState, seat: int) -> set[str]:
    """Brute force: the produce targets ("1", "2", "new") from which some sequence of lays leaves a placement."""
    world, hand = state.clone(), state.hands[seat]
    targets = set()
    for index, existing in enumerate(state.lines[seat]):
        if existing is not None and not existing.shut and not existing.locked and _opens(world, seat, index, existing, hand, now=False):
            targets.add(str(index + 1))
    slot = new_line_slot(state, seat)
    if slot >= 0 and _opening_scripts(world, seat, slot):
        targets.add("new")
    return targets


def _opening_scripts(world: MovieEmpireState, seat: int, slot: int) -> set[str]:
    """Brute force: the scripts of the hand with which a new line in ``slot`` can be laid out to leave a placement."""
    hand = world.hands[seat]
    scripts = set()
    for script in (card for card in hand if card in world.table.scripts):
        rest = list(hand)
        rest.remove(script)
        if _opens(world, seat, slot, Line(script), rest, now=False):
            scripts.add(f"script {script}")
    return scripts


def _opening_step(state: MovieEmpireState, seat: int) -> set[str]:
    """Brute force: the legal decisions inside a produce step before the placement (R16, R67)."""
    world, index = state.clone(), state.target
    line, hand = state.lines[seat][index], state.hands[seat]
    if line is None:
        return _opening_scripts(world, seat, index)
    expected = set()
    for lay in lay_actions(state.table, line, hand):
        rest = list(hand)
        rest.remove(lay.card)
        if _opens(world, seat, index, apply_lay(state.table, line, lay), rest, now=True):
            expected.add(str(lay))
    if state.lays and _can_place(state, seat):
        expected.add("done")
    return expected


def _check_before_placement(state: MovieEmpireState, seat: int) -> None:
    """The engine's produce choices before the placement are exactly those the brute force finds."""
    actions = GAME.legal_actions(state, seat)
    decision = GAME.decision(state)
    if decision.kind == "turn" and not state.turn_placed and not state.turn_produced:
        assert {a.line for a in actions if isinstance(a, Produce)} == _opening_targets(state, seat), [str(a) for a in actions]
        if actions == [PASS]:
            assert not _opening_targets(state, seat) and not _can_place(state, seat)
    elif decision.kind == "produce" and not state.turn_placed:
        assert {str(a) for a in actions} == _opening_step(state, seat)


def _play_out_the_produce_step(state: MovieEmpireState, seat: int, rng: random.Random) -> None:
    """Random produce step from the turn menu: never a dead end, and a placement follows (R67)."""
    produce = [a for a in GAME.legal_actions(state, seat) if isinstance(a, Produce)]
    if not produce:
        return
    GAME.apply(state, seat, rng.choice(produce))
    while GAME.decision(state).kind == "produce":
        _check_before_placement(state, seat)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert GAME.decision(state).players == (seat,) and _can_place(state, seat)


def test_forced_passes_are_forced_and_produce_steps_before_placement_match_the_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded random games: whenever the turn menu is exactly [pass] (then passed automatically), no sequence of lays
    into any one line followed by a placement is legal; before every placement the produce targets, lays, scripts and
    'done' offered are exactly those from which the brute force reaches a placement. The forced positions are also
    replayed with random hands, which makes a produce-then-release turn common."""
    forced: list[tuple[MovieEmpireState, int]] = []
    only_pass = working.only_pass  # what flow asks to pass for a seat that cannot place, without building the menu

    def watching(state: MovieEmpireState, seat: int) -> bool:
        passes = only_pass(state, seat)
        if passes:
            forced.append((state.clone(), seat))
        return passes

    monkeypatch.setattr("greenlight.games.movie_empire.flow.only_pass", watching)
    for seed in range(40):
        players = 2 + seed % 3
        state = GAME.new_state(players, seed, {"clean_hands": seed % 4 == 3, "shoot_a_short": seed % 5 == 4})
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            decision = GAME.decision(state)
            seat = rng.choice(decision.players)
            if state.phase == WORKING:
                _check_before_placement(state, seat)
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    monkeypatch.undo()
    assert len(forced) > 500
    for world, seat in forced:
        assert world.phase == WORKING and GAME.legal_actions(world, seat) == [PASS]
        assert not _opening_targets(world, seat)


RELEASE_PLANS = (None, None, "AP01", "AP02", "AP03", "AP07", "AP08", "AP05", "AP09")


def _random_line(rng: random.Random, table: Tables, production: list[str], stars: list[str]) -> Line:
    """A script with up to 4 random legal lays (a star among them now and then)."""
    built = Line(rng.choice(sorted(table.scripts)))
    for _ in range(rng.randint(1, 4)):
        lays = lay_actions(table, built, rng.sample(production, 5) + rng.sample(stars, 1))
        if lays:
            built = apply_lay(table, built, rng.choice(lays))
    return built


def _random_late_position(rng: random.Random) -> MovieEmpireState:
    """Seat 0 has just the money for its next hire fee, most free spaces are taken and the board is nearly empty."""
    table = TABLE
    production, stars = sorted(table.production), sorted(table.stars)
    players = rng.choice((2, 3, 4))
    placed = rng.randint(0, 3)
    taken = {space: 1 for space in ("CC1", "BN1", "FP1", "SB1", "OT1", "DN1", "RL1") if rng.random() < 0.85}
    count = rng.choice((0, 1, 1, 2))
    lines = [_random_line(rng, table, production, stars) for _ in range(count)]
    hand = rng.sample(sorted({*production, *stars, *table.scripts}), rng.randint(1, 4))
    if rng.random() < 0.5:
        hand = rng.sample(production, rng.randint(1, 3)) + rng.sample([*stars, *table.scripts], 1)
    slots = {"PS1": rng.choice(production)} if rng.random() < 0.5 else {}
    return position(
        players,
        money=[HIRE_FEES[placed] + rng.choice((0, 0, 1)), 0, 0, 0][:players],
        sympathy=[2 if count == 2 or rng.random() < 0.3 else 0] + [0] * (players - 1),
        hands=[hand] + [[] for _ in range(players - 1)],
        lines=[lines] + [[] for _ in range(players - 1)],
        slots=slots,
        plan=rng.choice(RELEASE_PLANS),
        assistants=taken,
        placed=[placed] + [4] * (players - 1),
    )


def test_random_late_positions_match_the_brute_force() -> None:
    """Late-round positions where a release or the swap is often the only placement left: the produce choices offered
    before the placement are exactly those the brute force finds, and every produce step offered reaches a placement."""
    rng = random.Random(2024)
    opened = passed = two_or_more = 0
    for _ in range(3000):
        state = _random_late_position(rng)
        _check_before_placement(state, 0)
        actions = GAME.legal_actions(state, 0)
        if actions == [PASS]:
            passed += 1
        elif any(isinstance(a, Produce) for a in actions) and not _can_place(state, 0):
            opened += 1
            two_or_more += not _one_lay_opens(state, 0)
            _play_out_the_produce_step(state, 0, rng)
    assert opened > 100 and passed > 500 and two_or_more > 10


def _one_lay_opens(state: MovieEmpireState, seat: int) -> bool:
    """Whether a single lay into an existing line (the old lookahead) leaves a placement."""
    world = state.clone()
    for index, existing in enumerate(state.lines[seat]):
        if existing is None or existing.shut or existing.locked:
            continue
        for lay in lay_actions(state.table, existing, state.hands[seat]):
            world.lines[seat][index] = apply_lay(state.table, existing, lay)
            world.hands[seat] = list(state.hands[seat])
            world.hands[seat].remove(lay.card)
            if _can_place(world, seat):
                return True
        world.lines[seat][index], world.hands[seat] = existing, list(state.hands[seat])
    return False
