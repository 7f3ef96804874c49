"""Laying legality (§4.6, R16-R26): exact sets of legal actions on fixed positions."""

from __future__ import annotations

from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.actions import Lay, Produce
from greenlight.games.movie_empire.lines import Line, lay_actions
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, legal, legal_of, line, play


def producing(hand: list[str], lines: list[Line | None], *, placed: bool = True, target: str = "1", **kwargs: object) -> MovieEmpireState:
    """A position inside seat 0's produce step (after its placement unless ``placed`` is False)."""
    state = position(2, hands=[hand, []], lines=[lines, []], placed=[1 if placed else 0, 0], **kwargs)  # type: ignore[arg-type]
    state.turn_placed = placed
    play(state, 0, f"produce {target}")
    return state


def test_joker_between_stages_and_at_both_ends() -> None:
    state = producing(["PJ02"], [line("SA05", ["PB01", "PY01"])])
    assert legal(state, 0) == {"lay PJ02 left G", "lay PJ02 left B", "lay PJ02 right Y", "lay PJ02 right R"}


def test_joker_at_the_top_and_bottom_stage_has_one_choice_on_the_outside() -> None:
    state = producing(["PJ02"], [line("SA11", ["PG01", "PB01", "PY01", "PR01"])])
    assert legal(state, 0) == {"lay PJ02 left G", "lay PJ02 right R"}


def test_second_joker_of_the_same_name_is_refused_but_another_joker_is_fine() -> None:
    state = producing(["PJ01", "PJ03"], [line("SA01", ["PB01", "PJ01:B"])])
    assert legal(state, 0) == {"lay PJ03 left G", "lay PJ03 left B", "lay PJ03 right B", "lay PJ03 right Y"}
    assert GAME.why_illegal(state, 0, Lay("PJ01", "right", "B")) == (
        "Director is already in this production line; each production card may appear once per line"
    )


def test_stars_ignore_the_colour_rule_and_only_check_the_genre_ban() -> None:
    state = producing(["ST01", "ST02", "ST11", "ST21"], [line("SD01", ["PB01"])])
    # Benny Crumb bans D, Pippa Moss bans A, Hank Granite bans C and D, Nadia Sterling bans A and D.
    assert legal(state, 0) == {"star ST02"}


def test_any_number_of_stars() -> None:
    state = producing(["ST03", "ST04", "PY01"], [line("SA01", ["PB01"], ["ST08", "ST16"])])
    play(state, 0, "star ST03", "star ST04")
    movie = state.lines[0][0]
    assert movie is not None and movie.stars == ("ST08", "ST16", "ST03", "ST04")
    assert legal(state, 0) == {"lay PY01 right", "done"}


def test_upgrade_stacks_when_its_base_is_there_and_not_twice() -> None:
    state = producing(["PY05", "PY04"], [line("SA04", ["PB01", "PY04"])])
    # The base is in the line: the upgrade may only be stacked; another Soundtrack is a duplicate.
    assert legal(state, 0) == {"stack PY05"}
    play(state, 0, "stack PY05")
    movie = state.lines[0][0]
    assert movie is not None and movie.period == 2 and movie.stacked == (None, "PY05")


def test_standalone_upgrade_then_its_base_is_refused_everywhere() -> None:
    state = producing(["PR04", "PR03"], [line("SA05", ["PB01", "PY01"])])
    assert legal(state, 0) == {"lay PR04 right", "lay PR03 right"}
    play(state, 0, "lay PR04 right")
    movie = state.lines[0][0]
    assert movie is not None and lay_actions(TABLE, movie, ["PR03"]) == []
    # Nothing else can be laid: the produce step and then the turn end by themselves.
    assert state.turn_seat == 1 and state.hands[0] == ["PR03"]


def test_standalone_upgrade_does_not_satisfy_has() -> None:
    from greenlight.games.movie_empire.lines import holds, metrics

    standalone = line("SA05", ["PB01", "PY05"])
    stacked = line("SA05", ["PB01", "PY04", "+PY05"])
    requirement = TABLE.stars["ST22"].requirement  # has(Soundtrack) & n(R)>=1
    assert not holds(requirement[:1], metrics(TABLE, standalone))
    assert holds(requirement[:1], metrics(TABLE, stacked))


def test_new_line_first_card_any_stage_and_joker_any_colour() -> None:
    state = position(2, money=[0, 0], hands=[["SC01", "PR01", "PJ01"], []], placed=[1, 0])
    state.turn_placed = True
    assert legal_of(state, 0, Produce) == {"produce new"}
    play(state, 0, "produce new")
    assert legal(state, 0) == {"script SC01"}
    play(state, 0, "script SC01")
    assert legal(state, 0) == {"lay PR01 right", "lay PJ01 right G", "lay PJ01 right B", "lay PJ01 right Y", "lay PJ01 right R"}
    play(state, 0, "lay PJ01 right Y")
    assert legal(state, 0) == {"lay PR01 right", "done"}


def test_new_line_needs_a_free_slot_and_capacity() -> None:
    # Level 0 allows one open line: with one line open, no new line.
    state = position(2, hands=[["SC01", "PB01"], []], lines=[[line("SA01", ["PB02"])], []])
    assert "produce new" not in legal(state, 0)
    assert GAME.why_illegal(state, 0, Produce("new")) == (
        "a new line needs an empty line slot and fewer open lines than your level allows (1 open, 1 allowed)"
    )
    state.sympathy[0] = 2
    assert "produce new" in legal(state, 0)
    without_script = position(2, hands=[["PB01"], []])
    assert GAME.why_illegal(without_script, 0, Produce("new")) == (
        "a new line needs a script and a production card in your hand; you hold no script"
    )
    without_card = position(2, hands=[["SC01", "ST04"], []])
    assert GAME.why_illegal(without_card, 0, Produce("new")) == (
        "a new line needs a script and a production card in your hand; you hold no production card"
    )
    empty_handed = position(2, hands=[[], []])
    assert (
        GAME.why_illegal(empty_handed, 0, Produce("new"))
        == "a new line needs a script and a production card in your hand; you hold neither"
    )


def test_shut_line_takes_nothing_and_blocks_a_new_line() -> None:
    shut = line("SA01", ["PB02"], shut=True)
    state = position(2, sympathy=[0, 0], hands=[["PB01", "SC01", "PB03"], []], lines=[[None, shut], []])
    # open 0 < allowed 1 cannot last: a real game reopens it; here it is set by hand to test the rule.
    assert legal_of(state, 0, Produce) == set()
    assert GAME.why_illegal(state, 0, Produce("2")) == "line 2 is shut down; no cards may be laid into it"


def test_locked_line_takes_no_star_either() -> None:
    state = position(2, hands=[["ST03"], []], lines=[[line("SA01", ["PB02"], locked=True)], []])
    assert legal_of(state, 0, Produce) == set()


def _only_sabotage_open(hand: list[str]) -> MovieEmpireState:
    """No money, every free-of-charge space taken: the SB1 swap is seat 0's only placement."""
    return position(
        2,
        money=[0, 0],
        hands=[hand, []],
        lines=[[line("SC04", ["PG01"])], []],
        slots={"PS1": "PY07"},
        assistants={"CC1": 1, "BN1": 1, "FP1": 1, "SS1": 1, "SS2": 1, "SR1": 1},
        placed=[0, 2],
    )


def test_produce_before_placement_must_leave_a_placement() -> None:
    # R16: a lay that would leave no space to place on is refused before the placement.
    state = _only_sabotage_open(["PG02", "PG03"])
    assert legal(state, 0) == {"pass", "place SB1", "produce 1"}
    play(state, 0, "produce 1")
    assert legal(state, 0) == {"lay PG02 left", "lay PG02 right", "lay PG03 left", "lay PG03 right"}
    play(state, 0, "lay PG02 left")
    # Laying PG03 too would leave no production card to swap and no blue card to release: the step ends.
    assert GAME.decision(state).kind == "turn"
    assert legal(state, 0) == {"place SB1"}  # produced: a placement must follow, no pass


def test_produce_is_not_offered_when_every_lay_kills_the_placement() -> None:
    state = _only_sabotage_open(["PG02"])
    assert legal(state, 0) == {"pass", "place SB1"}


def test_a_lay_that_makes_a_release_possible_is_allowed_before_placement() -> None:
    state = _only_sabotage_open(["PB02"])
    play(state, 0, "produce 1", "lay PB02 right")
    assert legal(state, 0) == {"place RL1", "place RL2", "place RL3"}  # R33: produce, then release the same line


def test_lay_refusals_say_why() -> None:
    base = line("SA03", ["PG01", "PB02"])
    state = producing(["PR01", "PB01", "PJ03"], [base])
    assert GAME.why_illegal(state, 0, Lay("PR01", "right")) == (
        "the colour rule allows only shooting (B) or post-production (Y) at the right end; Poster Campaign is marketing"
    )
    assert (
        GAME.why_illegal(state, 0, Lay("PB01", "left"))
        == "the colour rule allows only pre-production (G) at the left end; Catering is shooting"
    )
    assert GAME.why_illegal(state, 0, Lay("PJ03", "left", "B")) == "at the left end a joker may only be pre-production (G) (colour rule)"
    assert GAME.why_illegal(state, 0, Lay("PY01", "right")) == "Rough Cut is not in your hand"


def test_lay_actions_never_repeat_for_copies() -> None:
    actions = lay_actions(TABLE, line("SA01", ["PB02"]), ["PB01", "PB01", "PB01"])
    assert [str(a) for a in actions] == ["lay PB01 left", "lay PB01 right"]
