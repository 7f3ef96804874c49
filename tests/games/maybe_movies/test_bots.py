"""The Maybe Movies heuristic bot: legal, reproducible, blind to hidden cards, and clearly better than random."""

from __future__ import annotations

import pytest

from greenlight.bots import make_bot
from greenlight.core.bot import Bot, RandomBot, SeatView
from greenlight.core.outcome import Outcome
from greenlight.core.spec import OptionValue
from greenlight.games.maybe_movies import GAME
from greenlight.games.maybe_movies.bots import HeuristicBot

OPTION_SETS = [
    {},
    {"trendsetter_tricks": True},
    {"breaking_changes": True},
    {"blockbuster_budgets": True},
    {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True},
]


def play(n: int, seed: int, options: dict[str, OptionValue], bots: list[Bot]) -> tuple[Outcome, list[tuple[int, str]]]:
    state = GAME.new_state(n, seed, options)
    record: list[tuple[int, str]] = []
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        action = bots[seat].choose(SeatView(GAME, state, seat))
        assert action in GAME.legal_actions(state, seat)
        GAME.apply(state, seat, action)
        record.append((seat, str(action)))
    return GAME.outcome(state), record


def test_the_registry_builds_the_heuristic_bot() -> None:
    bot = make_bot("heuristic", GAME, seed=4)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "trendsetter", "breaking", "blockbuster", "all"])
def test_heuristic_bots_play_whole_games_legally_and_reproducibly(options: dict[str, OptionValue]) -> None:
    first = play(4, 8, options, [HeuristicBot(seat) for seat in range(4)])
    second = play(4, 8, options, [HeuristicBot(seat) for seat in range(4)])
    assert first[1] == second[1]
    assert first[0] == second[0]


def test_the_bot_decides_the_same_in_states_its_seat_cannot_tell_apart() -> None:
    state = GAME.new_state(4, 30, {"blockbuster_budgets": True})
    twin = state.clone()
    twin.hands[1], twin.hands[2] = twin.hands[2], twin.hands[1]
    twin.draw_pile.reverse()
    twin.rng.seed(12345)
    assert GAME.observe(twin, 0) == GAME.observe(state, 0)
    for _ in range(3):  # the pitch steps of P0
        action = HeuristicBot(7).choose(SeatView(GAME, state, 0))
        assert HeuristicBot(7).choose(SeatView(GAME, twin, 0)) == action
        GAME.apply(state, 0, action)
        GAME.apply(twin, 0, action)
        if GAME.decision(state).kind != "pitch":
            break


def test_the_active_heuristic_pitches_what_it_can_pay_for() -> None:
    """Against random voters the bot's own pitches succeed far more often than random pitches."""
    passed = {"heuristic": 0, "random": 0}
    pitches = {"heuristic": 0, "random": 0}
    for seed in range(6):
        for name, factory in (("heuristic", HeuristicBot), ("random", RandomBot)):
            state = GAME.new_state(4, seed)
            bots: list[Bot] = [factory(seed), *[RandomBot(seed * 7 + seat) for seat in range(1, 4)]]
            while not GAME.is_terminal(state):
                seat = GAME.decision(state).players[0]
                GAME.apply(state, seat, bots[seat].choose(SeatView(GAME, state, seat)))
            mine = [record for record in state.history if record.active == 0]
            pitches[name] += len(mine)
            passed[name] += sum(record.check.success for record in mine)
    assert passed["heuristic"] / pitches["heuristic"] > passed["random"] / pitches["random"] + 0.2


@pytest.mark.slow
def test_heuristic_beats_random_over_500_four_player_games() -> None:
    """One heuristic bot against three random bots, seats rotated: parity is 25%."""
    share = 0.0
    games = 500
    for seed in range(games):
        seat = seed % 4
        bots: list[Bot] = [HeuristicBot(seed) if s == seat else RandomBot(seed * 4 + s) for s in range(4)]
        outcome, _ = play(4, seed, {}, bots)
        share += outcome.returns()[seat]
    assert share / games >= 0.5
