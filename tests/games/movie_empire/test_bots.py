"""Movie Empire bots: the heuristic always plays legal moves, beats random play, and the evaluation is sane."""

from __future__ import annotations

import pytest

from greenlight.bots import make_bot
from greenlight.core.bot import Bot, RandomBot, SeatView
from greenlight.core.outcome import Outcome
from greenlight.core.spec import OptionValue
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.bots import HeuristicBot, evaluate
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from greenlight.testing import option_matrix
from tests.games.movie_empire.helpers import line


def play_match(seed: int, bots: list[Bot], options: dict[str, OptionValue] | None = None) -> tuple[Outcome, MovieEmpireState]:
    state = GAME.new_state(len(bots), seed, options)
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        action = bots[seat].choose(SeatView(GAME, state, seat))
        GAME.apply(state, seat, action)  # checked: the bot must play legal moves
    return GAME.outcome(state), state


def heuristic_wins(games: int, first_seed: int = 0) -> int:
    """Heuristic vs random at 2 players, alternating seats; a shared victory does not count as a win."""
    wins = 0
    for game in range(games):
        seed = first_seed + game
        seat = game % 2
        bots: list[Bot] = [HeuristicBot(seed), RandomBot(seed + 1)] if seat == 0 else [RandomBot(seed + 1), HeuristicBot(seed)]
        outcome, _ = play_match(seed, bots)
        wins += outcome.winners == (seat,)
    return wins


def test_registry_builds_the_heuristic() -> None:
    assert make_bot("heuristic", GAME, seed=1).name == "heuristic"


@pytest.mark.parametrize(("num_players", "options"), list(option_matrix(GAME)))
def test_heuristic_plays_legal_moves_in_every_mode(num_players: int, options: dict[str, OptionValue]) -> None:
    bots: list[Bot] = [HeuristicBot(seat) for seat in range(num_players)]
    _, state = play_match(7, bots, options)
    assert sum(len(movies) for movies in state.released) >= num_players


def test_heuristic_beats_random_in_a_quick_sample() -> None:
    assert heuristic_wins(30) >= 27


@pytest.mark.slow
def test_heuristic_beats_random_in_90_percent_of_500_two_player_games() -> None:
    wins = heuristic_wins(500)
    print(f"heuristic won {wins}/500 two-player games against random")
    assert wins >= 450


def test_evaluate_prefers_progress_points_and_money() -> None:
    base = position(2, lines=[[line("SA03", ["PG01", "PB01"])], []])
    better = position(2, lines=[[line("SA03", ["PG01", "PB01", "PB02"])], []])  # script met
    assert evaluate(better, 0) > evaluate(base, 0)
    richer = position(2, money=[9, 0], lines=[[line("SA03", ["PG01", "PB01"])], []])
    assert evaluate(richer, 0) == pytest.approx(evaluate(base, 0) + 3.0)
