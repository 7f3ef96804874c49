from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

import pytest

from greenlight.core.actions import Action, ActionCodec, ActionLayout, shared
from greenlight.core.errors import ActionParseError


class End(enum.Enum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Lay(Action):
    verb: ClassVar[str] = "lay"
    card: str
    line: int
    end: End
    joker: str | None = None


@dataclass(frozen=True, slots=True)
class Keep(Action):
    verb: ClassVar[str] = "keep"
    cards: tuple[str, ...]
    confirm: bool


CODEC = ActionCodec([Lay, Keep])


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Lay("PB01", 1, End.RIGHT), "lay PB01 1 right -"),
        (Lay("PJ01", 2, End.LEFT, "B"), "lay PJ01 2 left B"),
        (Keep(("SA01", "SC02"), True), "keep SA01,SC02 yes"),
        (Keep((), False), "keep - no"),
    ],
)
def test_text_form_round_trips(action: Action, text: str) -> None:
    assert str(action) == text
    assert CODEC.parse(text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("fly away", "unknown action 'fly'"),
        ("lay PB01 one right -", "line must be a whole number"),
        ("lay PB01 1 up -", "end must be one of left, right"),
        ("lay PB01 1", "'lay' takes 4 value"),
        ("keep SA01 maybe", "confirm must be yes or no"),
    ],
)
def test_parse_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ActionParseError, match=message):
        CODEC.parse(text)


def test_two_action_types_cannot_share_a_verb() -> None:
    @dataclass(frozen=True, slots=True)
    class Other(Action):
        verb: ClassVar[str] = "lay"

    with pytest.raises(ValueError, match="two action types use the verb 'lay'"):
        ActionCodec([Lay, Other])


def test_an_unreadable_action_is_not_an_illegal_one() -> None:
    """A parse error says the text is not an action at all; a refusal says a real action is not allowed now."""
    from greenlight.core.errors import GreenlightError, IllegalActionError

    assert issubclass(ActionParseError, GreenlightError) and not issubclass(ActionParseError, IllegalActionError)


def test_a_bad_seed_is_an_option_error_naming_the_seed() -> None:
    from greenlight.core.errors import OptionError
    from greenlight.core.registry import all_games

    game = next(iter(all_games().values()))
    with pytest.raises(OptionError, match="the seed must be a whole number >= 0, not -1"):
        game.new_state(game.spec.min_players, -1)


def test_a_layout_codes_each_type_in_its_own_block_and_finds_the_block_of_a_code() -> None:
    layout = ActionLayout([(Keep, 3, lambda state, action: len(action.cards)), (Lay, 4, lambda state, action: action.line)])
    assert layout.num_codes == 7
    assert [layout.code(None, Keep((), False)), layout.code(None, Keep(("a", "b"), False)), layout.code(None, Lay("c", 3, End.LEFT))] == [
        0,
        2,
        6,
    ]
    assert [layout.block_of(code) for code in (0, 2, 3, 6)] == [(Keep, 0), (Keep, 2), (Lay, 0), (Lay, 3)]
    with pytest.raises(ValueError, match=r"action code 7 is not in 0\.\.6"):
        layout.block_of(7)
    with pytest.raises(ValueError, match="two blocks"):
        ActionLayout([(Keep, 1, None), (Keep, 1, None)])


def test_a_code_outside_the_layout_or_not_legal_now_is_refused_in_words() -> None:
    from greenlight.core.errors import IllegalActionError
    from greenlight.core.registry import get_game

    game = get_game("cinecitta")
    state = game.new_state(3, 1)
    legal = game.legal_action_codes(state, 0)
    assert [game.action_from_code(state, 0, code) for code in legal] == game.legal_actions(state, 0)
    with pytest.raises(
        IllegalActionError, match=rf"action code {game.num_distinct_actions} is not in 0\.\.{game.num_distinct_actions - 1}"
    ):
        game.action_from_code(state, 0, game.num_distinct_actions)
    respond = game.num_distinct_actions - 74  # the first Respond code: nobody responds during the offer step
    with pytest.raises(IllegalActionError, match=f"action code {respond} \\(a 'respond'\\) is not legal for seat 0 now"):
        game.action_from_code(state, 0, respond)


def test_shared_actions_are_made_once() -> None:
    keep = shared(Keep)
    assert keep(("a",), True) is keep(("a",), True) == Keep(("a",), True)
    assert keep(("a",), True) is not keep(("b",), True)
