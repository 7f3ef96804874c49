from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

import pytest

from greenlight.core.actions import Action, ActionCodec
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
