"""OpenSpiel's ISMCTS as an arena bot (``openspiel-ismcts:...``), and the search levels' time per move (``hard:0.05``)."""

from __future__ import annotations

import random
import sys
import time

import pytest

pytest.importorskip("pyspiel")  # the rl extra

from greenlight.bots import make_bot
from greenlight.bots.ismcts import ISMCTSBot, SearchConfig
from greenlight.bots.levels import hard_search
from greenlight.core.bot import SeatView
from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.rl.openspiel import ismcts_bot, make_resampler, openspiel_game
from greenlight.rl.openspiel_bot import OpenSpielISMCTS, TimedISMCTSBot, parse_openspiel_bot
from greenlight.sim.arena import run_arena


def test_a_short_arena_game_against_a_timed_hard_level() -> None:
    report = run_arena("maybe-movies", 3, ["hard:0.01/cpu", "openspiel-ismcts:sims=4", "medium"], games=1, seed=3)
    (row,) = report.rows
    assert sorted(row.bots) == sorted(["hard:0.01/cpu", "openspiel-ismcts:sims=4", "medium"])
    assert row.length > 0
    assert sum(row.returns) == pytest.approx(1.0)
    seat = row.bots.index("openspiel-ismcts:sims=4")
    # It searched (the runner counts its simulations like a search bot's iterations): four per real decision.
    timing = row.timing[seat]
    assert timing.choices > 0
    assert timing.iterations == 4 * timing.choices


@pytest.mark.parametrize("game_id", ["cinecitta", "movie-empire"])
def test_it_searches_only_what_its_seat_knows(game_id: str) -> None:
    """Two real states the seat cannot tell apart get the very same search; another seed a different one (control)."""
    game = get_game(game_id)
    state = game.new_state(2 if game_id == "movie-empire" else 3, seed=5)
    seat = game.decision(state).players[0]
    other = game.determinize(state, seat, random.Random(11))  # the same for the seat, different hidden cards
    assert other != state
    assert game.observe(other, seat) == game.observe(state, seat)
    roots = []
    for real, seed in ((state, 7), (other, 7), (state, 8)):
        bot = OpenSpielISMCTS(seed, simulations=30)
        action = bot.choose(SeatView(game, real.clone(), seat))
        roots.append((action, bot.last_root))
    assert roots[0] == roots[1]
    assert roots[2][1] != roots[0][1]


def test_a_lower_seat_still_to_commit_is_drawn_for_it() -> None:
    """At a simultaneous step the adapter moves the lowest seat first: a higher seat's search still runs, for that seat."""
    game = get_game("cinecitta")
    state = game.new_state(3, seed=2)
    decision = game.decision(state)
    assert decision.simultaneous and len(decision.players) > 1
    seat = max(decision.players)
    bot = OpenSpielISMCTS(1, simulations=8)
    assert bot.choose(SeatView(game, state, seat)) in game.legal_actions(state, seat)
    assert bot.last_stats.iterations == 8


def test_the_timed_search_is_openspiels_search_under_a_simulation_budget() -> None:
    """With only a simulation budget, the timed subclass searches exactly as OpenSpiel's own ISMCTSBot."""
    game = openspiel_game("cinecitta", 3)
    state = game.new_initial_state()
    state.apply_action(4)
    plain = ismcts_bot(game, simulations=40, seed=9)
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(9)
    timed = TimedISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state),
        uct_c=2.0,
        max_simulations=40,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        seconds=60.0,
    )
    timed.set_resampler(make_resampler(9))
    assert timed.get_policy(state.clone()) == plain.get_policy(state.clone())
    assert timed.simulations == 40
    visits = {action: child.visits for action, child in timed._root_node.child_info.items()}
    assert visits == {action: child.visits for action, child in plain._root_node.child_info.items()}


def test_a_time_budget_stops_it() -> None:
    game = get_game("cinecitta")
    state = game.new_state(3, seed=1)
    bot = make_bot("openspiel-ismcts:0.2/cpu", game, seed=2)
    started = time.process_time()
    bot.choose(SeatView(game, state, game.decision(state).players[0]))
    spent = time.process_time() - started
    assert 0.2 <= spent < 2.0  # one simulation may overrun the deadline
    assert isinstance(bot, OpenSpielISMCTS) and bot.last_stats.iterations >= 1


@pytest.mark.parametrize(
    ("name", "settings"),
    [
        ("openspiel-ismcts:0.5", {"seconds": 0.5}),
        ("openspiel-ismcts:0.5s/cpu", {"seconds": 0.5, "cpu": True}),
        ("openspiel-ismcts:sims=300/c=1.4/rollouts=2", {"simulations": 300, "uct_c": 1.4, "rollouts": 2}),
        ("openspiel-ismcts:1/sims=50", {"seconds": 1.0, "simulations": 50}),
    ],
)
def test_names_are_read(name: str, settings: dict[str, object]) -> None:
    assert parse_openspiel_bot(name) == settings


@pytest.mark.parametrize(
    "name", ["openspiel-ismcts", "openspiel-ismcts:", "openspiel-ismcts:fast", "openspiel-ismcts:0.5/quick", "openspiel-ismcts:-1"]
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(OptionError, match="openspiel-ismcts"):
        make_bot(name, get_game("cinecitta"), 0)


def test_without_openspiel_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("greenlight.rl.openspiel_bot", "greenlight.rl.openspiel"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(OptionError, match=r"needs OpenSpiel \(pip install"):
        make_bot("openspiel-ismcts:0.5", get_game("cinecitta"), 0)


def test_search_levels_take_a_time_per_move() -> None:
    game = get_game("movie-empire")
    bot = make_bot("hard:0.05/cpu", game, seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.name == "hard:0.05/cpu"
    hard = hard_search(game)
    assert bot.config.seconds == 0.05 and bot.config.clock == "cpu"
    assert bot.config.steps is None and bot.config.iterations is None
    # Everything else is the hard level's search.
    assert (bot.config.rollout, bot.config.rollout_depth, bot.config.exploration) == (hard.rollout, hard.rollout_depth, hard.exploration)
    assert make_bot("hard:0.05", game, seed=1).config.clock == "wall"  # type: ignore[attr-defined]
    for name in ("medium:0.05", "hard:fast", "hard:0.05/quick"):
        with pytest.raises(OptionError):
            make_bot(name, game, seed=1)


def test_a_cpu_time_budget_stops_the_search() -> None:
    game = get_game("cinecitta")
    bot = ISMCTSBot(3, SearchConfig(iterations=None, seconds=0.2, clock="cpu"))
    started = time.process_time()
    bot.choose(SeatView(game, game.new_state(3, seed=1), 0))
    spent = time.process_time() - started
    assert 0.2 <= spent < 1.5
    with pytest.raises(ValueError, match="clock must be one of"):
        SearchConfig(clock="sundial")


def test_worlds_of_one_information_state_with_different_legal_actions_do_not_stop_the_search() -> None:
    """Deeper in ISMCTS's tree, worlds drawn for one information-state key may offer different legal actions; the
    search allows it (OpenSpiel's ``allow_inconsistent_action_sets``). Without it these Maybe Movies games (seeds
    found by trying 40) stopped with a KeyError in OpenSpiel's expand step."""
    for seed in (2, 3, 19):
        report = run_arena("maybe-movies", 3, ["random", "openspiel-ismcts:sims=4", "medium"], games=1, seed=seed)
        (row,) = report.rows
        assert row.length > 0 and sum(row.returns) == pytest.approx(1.0)
