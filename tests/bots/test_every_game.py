"""Every bot level on every registered game: legal moves only, reproducible, blind to hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

from greenlight.bots import bot_names, make_bot
from greenlight.bots.hooks import find_evaluator, find_rollout_action
from greenlight.bots.ismcts import ISMCTSBot
from greenlight.bots.levels import LEVELS, expert_config, hard_config
from greenlight.core.bot import Bot, SeatView
from greenlight.core.game import Game
from greenlight.core.registry import all_games
from greenlight.core.state import GameState, state_digest
from greenlight.sim.runner import GameTask, play_game

GAMES = list(all_games().values())
GAME_IDS = [game.spec.id for game in GAMES]
#: Cheap bots: every level but the two slow search levels, plus small searches with the game's settings.
CHEAP_BOTS = ("random", "easy", "medium", "search:12", "search:12/random")


def lineup(game: Game[Any], names: tuple[str, ...], num_players: int) -> tuple[str, ...]:
    return tuple(names[seat % len(names)] for seat in range(num_players))


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_every_game_offers_the_levels_by_name(game: Game[Any]) -> None:
    names = bot_names(game)
    assert tuple(names[: len(LEVELS)]) == LEVELS
    for name in names:
        bot = make_bot(name, game, seed=1)
        assert isinstance(bot, Bot)
    assert isinstance(make_bot("hard", game, 1), ISMCTSBot)
    assert isinstance(make_bot("expert", game, 1), ISMCTSBot)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_expert_searches_four_times_as_long_as_hard(game: Game[Any]) -> None:
    hard, expert = hard_config(game), expert_config(game)
    # Both are reproducible: a deterministic budget, with only a generous wall-clock guard.
    assert hard.iterations is not None or hard.steps is not None
    if hard.iterations is not None:
        assert expert.iterations == 4 * hard.iterations
    if hard.steps is not None:
        assert expert.steps == 4 * hard.steps
    assert hard.seconds == 10.0 and expert.seconds == pytest.approx(40.0)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("seed", range(2))
def test_bots_play_whole_games_with_legal_moves_only(game: Game[Any], seed: int) -> None:
    for num_players in (game.spec.min_players, game.spec.max_players):
        # At the largest table, searches are kept tiny: legality does not depend on the budget.
        bots = CHEAP_BOTS if num_players == game.spec.min_players else ("random", "easy", "medium", "search:3")
        names = lineup(game, bots[seed:] + bots[:seed], num_players)
        task = GameTask(game.spec.id, num_players, seed, names, tuple(range(seed, seed + num_players)), keep_record=True)
        # The runner plays through Match.play, which raises IllegalActionError for an illegal move.
        result = play_game(task)
        assert result.length == len(result.record["actions"]) > 0  # type: ignore[index]
        assert len(result.scores) == num_players


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_a_seed_reproduces_every_move(game: Game[Any]) -> None:
    num_players = game.spec.min_players
    names = lineup(game, ("search:6", "medium", "easy"), num_players)
    task = GameTask(game.spec.id, num_players, 4, names, tuple(range(10, 10 + num_players)), keep_record=True)
    first, second = play_game(task), play_game(task)
    assert first == second
    assert first.record == second.record


def checkpoints(game: Game[Any], num_players: int, seed: int, count: int) -> list[tuple[GameState, int]]:
    """Positions along a random game where some seat has a real choice, with that seat."""
    rng = random.Random(seed)
    state = game.new_state(num_players, seed)
    positions: list[tuple[GameState, int]] = []
    steps = 0
    while not game.is_terminal(state):
        decision = game.decision(state)
        seat = decision.players[rng.randrange(len(decision.players))]
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and steps % 5 == 0:
            positions.append((state.clone(), seat))
        game.apply(state, seat, rng.choice(legal))
        steps += 1
    picked = positions[:: max(1, len(positions) // count)]
    return picked[:count]


def choice_and_trace(name: str, game: Game[Any], state: GameState, seat: int) -> tuple[Any, ...]:
    bot = make_bot(name, game, seed=21)
    action = bot.choose(SeatView(game, state, seat))
    return (action, dict(bot.last_root)) if isinstance(bot, ISMCTSBot) else (action,)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_determinize_depends_only_on_what_the_seat_sees(game: Game[Any]) -> None:
    """What the search bots rely on: two look-alike states determinize to the same world for the same rng state.

    A game that shuffles its hidden cards starting from their real order
    gives different worlds (the same distribution, but not the same draw), so a
    seeded search would play differently on two states its seat cannot tell apart.
    """
    for num_players in (game.spec.min_players, game.spec.max_players):
        for position, (state, seat) in enumerate(checkpoints(game, num_players, seed=num_players, count=6)):
            other = game.determinize(state, seat, random.Random(f"other/{position}"))
            worlds = [game.determinize(real, seat, random.Random(position)) for real in (state, other)]
            assert state_digest(worlds[0]) == state_digest(worlds[1]), (num_players, position)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_bots_never_read_hidden_information(game: Game[Any]) -> None:
    """Two real states that look the same to the bot's seat give the same choice for the same seed."""
    names = [*CHEAP_BOTS, *game.bots()]
    resampled = 0
    for num_players in (game.spec.min_players, game.spec.max_players):
        for position, (state, seat) in enumerate(checkpoints(game, num_players, seed=num_players, count=6)):
            # Another real state: everything hidden from ``seat`` drawn again (the harness checks it looks the same).
            other = game.determinize(state, seat, random.Random(f"other/{position}"))
            assert game.observe(other, seat) == game.observe(state, seat)
            resampled += state_digest(other) != state_digest(state)
            for name in names:
                assert choice_and_trace(name, game, state, seat) == choice_and_trace(name, game, other, seat), (name, position)
    if game.has_hidden_information:
        assert resampled >= 3  # the test compared genuinely different states


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_game_rollout_hook_returns_legal_moves(game: Game[Any]) -> None:
    rollout_action = find_rollout_action(game)
    if rollout_action is None:
        pytest.skip(f"{game.spec.id} has no rollout hook")
    rng = random.Random(5)
    for seed in range(6):
        state = game.new_state(game.spec.min_players + seed % 2, seed)
        while not game.is_terminal(state):
            seat = game.decision(state).players[0]
            action = rollout_action(state, seat, rng)
            assert action in game.legal_actions(state, seat)
            game.apply(state, seat, action)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_game_evaluation_gives_a_share_per_seat(game: Game[Any]) -> None:
    evaluate = find_evaluator(game)
    if evaluate is None:
        pytest.skip(f"{game.spec.id} has no evaluation hook")
    rng = random.Random(6)
    state = game.new_state(game.spec.min_players, 3)
    while not game.is_terminal(state):
        values = evaluate(state)
        assert len(values) == game.num_players(state)
        assert all(0.0 <= value <= 1.0 for value in values)
        seat = game.decision(state).players[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
