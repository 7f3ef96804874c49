"""Every refusal of a lay, stack or star says which rule it breaks, in the game's words (§4.6, R16-R26, R67).

The legal lists come from a fast path; these refusals from ``lay_problem``, the rules text's own check, which the
legal-list tests never reach (mutation testing found its branches unpinned: docs/mutation.md).
"""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.actions import Lay, Stack, Star
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import legal, line, play
from tests.games.movie_empire.test_laying import producing


def refusal(state: MovieEmpireState, action: Action) -> str | None:
    return GAME.why_illegal(state, 0, action)


def test_refusals_in_an_open_line_name_the_rule() -> None:
    """§4.6.4 upgrades, R21 stars and banned genres, R18 jokers' stages, R67 a lay before the placement."""
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
    """§4.6.2 a new line: its first card is laid at the right, a joker names its stage, stars come after a card."""
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
