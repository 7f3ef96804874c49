"""Every refusal of a lay, stack or star says which rule it breaks, in the game's words (§4.6, R16-R26, R67).

The legal lists come from a fast path; these refusals from ``lay_problem``, the rules text's own check, which the
legal-list tests never reach (mutation testing found its branches unpinned: docs/mutation.md).
"""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.actions import Lay, Produce, Script, Stack, Star
from greenlight.games.movie_empire.lines import Line
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import legal, line, play
from tests.games.movie_empire.test_laying import producing


def refusal(state: MovieEmpireState, action: Action) -> str | None:
    return GAME.why_illegal(state, 0, action)


def test_refusals_in_an_open_line_name_the_rule() -> None:
    """§4.6.3-6: R22 upgrades stack on their base, R21 stars check only their genre ban, §4.6.5 jokers name their stage,
    the colour rule judges a standalone upgrade, R67 a lay before the placement must leave a space to place on."""
    # A drama (Quiet Harbour) holding Extras (shooting) and Soundtrack (post-production).
    state = producing(["ST01", "PB01", "PY05", "PJ01", "PR04"], [line("SD01", ["PB02", "PY04"])])
    assert refusal(state, Star("PB01")) == "Catering (PB01) is not a star"
    assert refusal(state, Star("ST01")) == "Benny Crumb refuses to play in a drama movie (banned genre)"
    assert refusal(state, Stack("PB01")) == "only an upgrade card can be stacked; Catering is not one"
    assert refusal(state, Stack("PR04")) == "Trailer* can be stacked only on a Trailer in the line with nothing on it"
    assert refusal(state, Lay("PY05", "right")) == "Soundtrack* goes on top of its base card here: use 'stack PY05'"
    # An upgrade whose base is not in the line is laid as a card of its own: the colour rule judges it.
    assert (
        refusal(state, Lay("PR04", "left"))
        == "the colour rule allows only pre-production (G) or shooting (B) at the left end; Trailer* is marketing"
    )
    assert refusal(state, Lay("PJ01", "right")) == (
        "choose the stage Director takes at the right end (post-production (Y) or marketing (R))"
    )
    assert refusal(state, Lay("PB01", "right", "B")) == "only a joker chooses a stage; Catering is shooting"
    assert refusal(state, Lay("PJ01", "right", "R")) == (
        "before your placement, you would have no space to place on after this lay, even with more lays into this line "
        "(you produce only in a turn with a placement, R16, R67)"
    )


def test_refusals_in_a_new_line_name_the_rule() -> None:
    """§4.6.2, R17, R18: a new line's first card is laid at the right, a joker laid first names any stage, stars come
    after a production card."""
    state = position(2, money=[0, 0], hands=[["SC01", "PR01", "PJ01", "ST02"], []], placed=[1, 0])
    state.turn_placed = True
    play(state, 0, "produce new", "script SC01")
    assert refusal(state, Lay("PR01", "left")) == "the first card of a line is laid with 'right'"
    assert refusal(state, Lay("PJ01", "right")) == (
        "choose the stage Director takes: G, B, Y or R (pre-production, shooting, post-production or marketing)"
    )
    assert refusal(state, Lay("PR01", "right", "R")) == "only a joker chooses a stage; Poster Campaign is marketing"
    assert refusal(state, Star("ST02")) == "a new line takes its first production card before any star"
    # What the refusals leave: the legal lays of the first card.
    assert legal(state, 0) == {"lay PR01 right", "lay PJ01 right G", "lay PJ01 right B", "lay PJ01 right Y", "lay PJ01 right R"}


def placed_with(hands: list[str], lines: list[Line | None]) -> MovieEmpireState:
    """Seat 0 after its placement, holding ``hands``, with ``lines``."""
    state = position(2, hands=[hands, []], lines=[lines, []], placed=[1, 0])
    state.turn_placed = True
    return state


def test_produce_refusals_name_the_rule() -> None:
    """§4.6.2, R26, R17: a produce step goes into one of your open, unlocked lines that can take a card of the hand
    (no card into a shut-down or locked line), or a new line needs an empty slot, fewer open lines than the level
    allows, and a script and a production card."""
    state = placed_with(["PB01"], [line("SA01", ["PB02"]), line("SC01", ["PG01"], shut=True)])
    assert refusal(state, Produce("2")) == "line 2 is shut down; no cards may be laid into it"
    assert refusal(state, Produce("new")) == (
        "a new line needs an empty line slot and fewer open lines than your level allows (1 open, 1 allowed)"
    )
    locked = placed_with(["PB01"], [line("SA01", ["PB02"], locked=True)])
    assert refusal(locked, Produce("1")) == "line 1 was designated by a release this round and is locked"
    assert refusal(locked, Produce("2")) == "you have no line 2"
    # Post-production fits neither end of a line running from pre-production to marketing.
    full = placed_with(["PY02"], [line("SA01", ["PG01", "PR01"])])
    assert legal(full, 0) == {"end"}
    assert refusal(full, Produce("1")) == "no card of your hand can be laid into line 1"
    held = {"neither": [], "no production card": ["SC01"], "no script": ["PB01"]}
    for words, hand in held.items():
        assert refusal(placed_with(hand, []), Produce("new")) == (
            f"a new line needs a script and a production card in your hand; you hold {words}"
        )


def test_script_refusals_name_the_rule() -> None:
    """§4.6.2 step 1, R17: a new line starts with a script from the hand, before any production card."""
    state = placed_with(["SC01", "SA02", "PB01"], [])
    play(state, 0, "produce new")
    assert legal(state, 0) == {"script SC01", "script SA02"}
    assert refusal(state, Script("PB01")) == "Catering is not a script; a new line starts with a script"
    assert refusal(state, Script("SD01")) == "Quiet Harbour is not in your hand"
    assert refusal(state, Lay("PB01", "right")) == "lay the new line's script first"
