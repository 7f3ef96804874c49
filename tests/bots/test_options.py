"""Bot names with options: ``search:...`` and the timed levels read through the shared option table."""

from __future__ import annotations

import pytest

from greenlight.bots import make_bot
from greenlight.bots.levels import parse_search, parse_timed_level
from greenlight.bots.options import BotOption, flag, read_bot_options
from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game

GAME = get_game("cinecitta")


def test_every_search_option_reaches_its_setting() -> None:
    config = parse_search("search:300/random/depth=8/c=0.5/widen=2/eps=0.1/cost=3/steps=900/cpu", GAME)
    assert (config.iterations, config.seconds, config.steps) == (300, None, 900)
    assert (config.rollout, config.rollout_depth, config.exploration) == ("random", 8, 0.5)
    assert (config.widening, config.rollout_epsilon, config.iteration_cost, config.clock) == (2.0, 0.1, 3.0, "cpu")
    assert parse_search("search:0.5s/depth=end/wall", GAME).rollout_depth is None
    assert parse_search("search:steps=9000", GAME).iterations is None


def test_a_timed_level_keeps_its_options() -> None:
    config = parse_timed_level("hard:0.05/cpu/c=0.3", GAME)
    assert (config.seconds, config.clock, config.exploration, config.steps) == (0.05, "cpu", 0.3, None)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("search:300/quick", "unknown option 'quick'"),
        ("search:300/cpu=1", "option 'cpu' takes no value"),
        ("search:300/depth", r"option 'depth' needs a value \(depth=...\)"),
        ("search:300/c=wide", "cannot read the value of 'c=wide'"),
        ("search:lots", "search:ITERATIONS"),
    ],
)
def test_bad_options_are_refused_with_the_reason(name: str, says: str) -> None:
    with pytest.raises(OptionError, match=says):
        make_bot(name, GAME, 0)


def test_a_flag_sets_its_value_and_options_come_in_any_order() -> None:
    table = {"n": BotOption("count", int), "fast": flag("speed", "high")}
    assert read_bot_options("7/fast/n=3", table) == ("7", {"speed": "high", "count": 3})
    assert read_bot_options("n=3/fast", table) == ("", {"count": 3, "speed": "high"})
