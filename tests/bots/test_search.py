"""The ISMCTS bot on toy games with known answers, its budgets and its configuration checks."""

from __future__ import annotations

import math
import time

import pytest

from greenlight.bots.ismcts import ISMCTSBot, SearchConfig
from greenlight.core.bot import SeatView
from greenlight.core.registry import get_game
from tests.bots.toy import Pennies, Pick, Prize


def root_means(bot: ISMCTSBot) -> list[float]:
    return [mean for _, mean in bot.last_root.values()]


@pytest.mark.parametrize("seed", range(4))
def test_simultaneous_commitments_are_chosen_without_seeing_the_others(seed: int) -> None:
    game = Pennies()
    bot = ISMCTSBot(seed, SearchConfig(iterations=2000, rollout="random"))
    bot.choose(SeatView(game, game.new_state(2, seed=0), 0))
    # Seat 1 could not answer seat 0's pick: each pick of seat 0 is worth about 1/2.
    assert len(bot.last_root) == 2
    assert all(0.4 < mean < 0.6 for mean in root_means(bot))


@pytest.mark.parametrize("seed", range(4))
def test_control_a_seat_that_sees_the_pick_answers_it(seed: int) -> None:
    game = Pennies(sequential=True)
    bot = ISMCTSBot(seed, SearchConfig(iterations=2000, rollout="random"))
    bot.choose(SeatView(game, game.new_state(2, seed=0), 0))
    # Here seat 1 moves second and sees the pick, so it wins every non-noisy game: worth about 1/4.
    assert all(mean < 0.32 for mean in root_means(bot))


def test_second_seat_ignores_the_hidden_first_pick() -> None:
    game = Pennies()
    choices = []
    for first in (0, 1):
        state = game.new_state(2, seed=0)
        game.apply(state, 0, Pick(first))
        bot = ISMCTSBot(9, SearchConfig(iterations=300, rollout="random"))
        choices.append((bot.choose(SeatView(game, state, 1)), bot.last_root))
    assert choices[0] == choices[1]


def test_first_seat_takes_the_top_card() -> None:
    game = Prize()
    bot = ISMCTSBot(1, SearchConfig(iterations=200, rollout="random"))
    assert bot.choose(SeatView(game, game.new_state(3, seed=0), 0)) == Pick(9)


def test_each_seat_maximises_its_own_value() -> None:
    game = Prize()
    state = game.new_state(3, seed=0)
    game.apply(state, 0, Pick(1))
    bot = ISMCTSBot(2, SearchConfig(iterations=200, rollout="random"))
    assert bot.choose(SeatView(game, state, 1)) == Pick(9)
    # Seat 1 learned that the 9 wins for sure; the backed-up value is seat 1's own.
    visits, mean = bot.last_root[Pick(9)]
    assert mean == 1.0
    assert visits == max(count for count, _ in bot.last_root.values())


@pytest.mark.parametrize("iterations", [1, 7, 50])
def test_iteration_budget_is_exact(iterations: int) -> None:
    game = get_game("cinecitta")
    bot = ISMCTSBot(3, SearchConfig(iterations=iterations))
    bot.choose(SeatView(game, game.new_state(3, seed=1), 0))
    assert bot.last_stats.iterations == iterations
    assert sum(visits for visits, _ in bot.last_root.values()) == iterations
    assert bot.stats.searches == 1


def test_time_budget_stops_the_search() -> None:
    game = get_game("cinecitta")
    bot = ISMCTSBot(3, SearchConfig(iterations=None, seconds=0.3))
    started = time.perf_counter()
    bot.choose(SeatView(game, game.new_state(3, seed=1), 0))
    elapsed = time.perf_counter() - started
    # Tolerant bound: one iteration may overrun the deadline, and the machine is shared.
    assert 0.3 <= elapsed < 2.0
    assert bot.last_stats.iterations >= 1
    assert bot.last_stats.seconds == pytest.approx(elapsed, abs=0.05)


def test_the_first_budget_to_run_out_ends_the_search() -> None:
    game = get_game("cinecitta")
    bot = ISMCTSBot(3, SearchConfig(iterations=4, seconds=60.0))
    bot.choose(SeatView(game, game.new_state(3, seed=1), 0))
    assert bot.last_stats.iterations == 4


def test_a_single_legal_action_is_played_without_search() -> None:
    game = Prize()
    state = game.new_state(2, seed=0)
    state.open_cards = [4]
    bot = ISMCTSBot(3, SearchConfig(iterations=100))
    assert bot.choose(SeatView(game, state, 0)) == Pick(4)
    assert bot.stats.iterations == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"iterations": None, "seconds": None}, "needs an iteration, step or time budget"),
        ({"steps": 0}, "step budget must be at least 1"),
        ({"iterations": 0}, "at least 1"),
        ({"seconds": 0.0}, "positive"),
        ({"rollout": "smart"}, "rollout must be one of"),
    ],
)
def test_bad_configurations_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchConfig(**changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(("iteration_cost", "iterations"), [(0.0, 28), (1.0, 28), (8.0, 25)])
def test_step_budget_stops_after_the_iteration_that_reaches_it(iteration_cost: float, iterations: int) -> None:
    game = get_game("cinecitta")
    bot = ISMCTSBot(3, SearchConfig(iterations=None, steps=2000, iteration_cost=iteration_cost))
    bot.choose(SeatView(game, game.new_state(3, seed=1), 0))
    stats = bot.last_stats
    # A first-round iteration simulates the whole game (72 actions at 3 players) and costs iteration_cost more.
    per_iteration = 72 + iteration_cost
    assert stats.iterations == iterations == math.ceil(2000 / per_iteration)
    assert stats.steps == math.ceil(iterations * per_iteration)
