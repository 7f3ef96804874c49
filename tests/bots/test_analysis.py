"""``greenlight.bots.analyse``: estimates for every legal move, from what the analysed seat may know only."""

from __future__ import annotations

import random

import pytest

from greenlight.bots import analyse
from greenlight.core.errors import IllegalActionError
from greenlight.core.registry import get_game
from greenlight.core.state import state_digest


@pytest.mark.parametrize(("game_id", "players"), [("cinecitta", 3), ("movie-empire", 2), ("maybe-movies", 4)])
def test_every_legal_move_is_estimated_best_first(game_id: str, players: int) -> None:
    game = get_game(game_id)
    state = game.new_state(players, 8)
    seat = min(game.decision(state).players)
    before = state_digest(state)
    moves = analyse(game, state, seat, iterations=80, seed=2)
    assert state_digest(state) == before, "analysis leaves the position alone"
    assert sorted(move.text for move in moves) == sorted(str(action) for action in game.legal_actions(state, seat))
    assert sum(move.visits for move in moves) == 80
    assert [move.visits for move in moves] == sorted((move.visits for move in moves), reverse=True)
    assert all(0.0 <= move.win_share <= 1.0 and move.words for move in moves)
    assert moves[0].to_json().keys() == {"action", "words", "win_share", "visits"}


@pytest.mark.parametrize(("game_id", "players", "moves_played"), [("cinecitta", 4, 5), ("movie-empire", 3, 9), ("maybe-movies", 3, 7)])
def test_the_analysis_cannot_tell_the_real_hidden_cards_from_any_others_the_seat_would_accept(
    game_id: str, players: int, moves_played: int
) -> None:
    game = get_game(game_id)
    state = game.new_state(players, 21)
    rng = random.Random(4)
    for _ in range(moves_played):
        mover = min(game.decision(state).players)
        game.apply(state, mover, rng.choice(game.legal_actions(state, mover)))
    seat = min(game.decision(state).players)
    other_world = game.determinize(state, seat, random.Random(99))
    assert state_digest(other_world) != state_digest(state), "the other world differs in what the seat cannot see"
    real = [move.to_json() for move in analyse(game, state, seat, iterations=60, seed=5)]
    assert [move.to_json() for move in analyse(game, other_world, seat, iterations=60, seed=5)] == real


def test_a_seat_with_nothing_to_decide_is_told_so() -> None:
    game = get_game("maybe-movies")
    state = game.new_state(3, 1)
    idle = next(seat for seat in range(3) if seat not in game.decision(state).players)
    with pytest.raises(IllegalActionError, match=f"seat {idle} has nothing to decide now"):
        analyse(game, state, idle, iterations=10)
