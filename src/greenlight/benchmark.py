"""Throughput measurements of the engine contract on one core (``greenlight bench``).

Measures random playouts (actions/s, games/s) and the per-call cost of
``clone``, ``apply`` and ``legal_actions`` on states sampled from those
playouts. Numbers are reported, never asserted in tests.
"""

from __future__ import annotations

import random
import time
from typing import Any

from greenlight.core.game import Game
from greenlight.core.spec import Options


def random_playout(game: Game[Any], num_players: int, seed: int, options: Options | None, rng: random.Random) -> int:
    """Play one game with uniformly random legal actions (unchecked apply); return its length."""
    state = game.new_state(num_players, seed, options)
    steps = 0
    while True:
        players = game.decision(state).players
        if not players:
            return steps
        seat = players[0] if len(players) == 1 else rng.choice(players)
        game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
        steps += 1


def measure(game: Game[Any], num_players: int, options: Options | None = None, seconds: float = 5.0, seed: int = 0) -> dict[str, Any]:
    """Run random playouts for about ``seconds`` and time the core calls; return one result row."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        actions += random_playout(game, num_players, seed + games, options, rng)
        games += 1
    elapsed = time.perf_counter() - start
    samples = _sample_states(game, num_players, options, rng, count=300)
    clone_us = _per_call(lambda s: s.clone(), samples)
    legal_us = _per_call(lambda s: _legal_for_movers(game, s), samples)
    apply_us = _apply_cost(game, samples, rng)
    return {
        "game": game.spec.id,
        "players": num_players,
        "options": dict(options or {}),
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "mean_game_length": round(actions / games, 1),
        "clone_us": round(clone_us, 2),
        "legal_actions_us": round(legal_us, 2),
        "apply_us": round(apply_us, 2),
    }


#: The reference engine of ``compare_openspiel``: OpenSpiel's pure-Python tic-tac-toe.
REFERENCE_GAME = "python_tic_tac_toe"


def playout_rate(playout: Any, seconds: float) -> float:
    """Actions per second of ``playout()`` (which plays one game and returns its length), run for about ``seconds``."""
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        actions += playout()
        games += 1
    return actions / (time.perf_counter() - start)


def openspiel_playout(rng: random.Random) -> Any:
    """A random-playout function of OpenSpiel's ``python_tic_tac_toe`` (needs the ``rl`` extra)."""
    import open_spiel.python.games  # noqa: F401 - registers OpenSpiel's Python games
    import pyspiel

    reference = pyspiel.load_game(REFERENCE_GAME)

    def play() -> int:
        state = reference.new_initial_state()
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def compare_openspiel(
    game: Game[Any], num_players: int, options: Options | None = None, seconds: float = 5.0, seed: int = 0, rounds: int = 3
) -> dict[str, Any]:
    """Random playouts of ``game`` against OpenSpiel's ``python_tic_tac_toe`` in this process, interleaved in ``rounds``.

    Each round times both for ``seconds / (2 * rounds)``; the ratio is the median of the rounds' ratios, so a
    change of the machine's load during the run moves both sides alike.
    """
    rng = random.Random(seed)
    reference = openspiel_playout(random.Random(seed))
    games = [seed]

    def ours() -> int:
        games[0] += 1
        return random_playout(game, num_players, games[0], options, rng)

    share = seconds / (2 * rounds)
    rows = []
    for _ in range(rounds):
        theirs = playout_rate(reference, share)
        mine = playout_rate(ours, share)
        rows.append((mine, theirs))
    ratios = sorted(mine / theirs for mine, theirs in rows)
    return {
        "game": game.spec.id,
        "players": num_players,
        "options": dict(options or {}),
        "reference": f"open_spiel {REFERENCE_GAME}",
        "actions_per_s": [round(mine, 1) for mine, _ in rows],
        "reference_actions_per_s": [round(theirs, 1) for _, theirs in rows],
        "ratio": round(ratios[len(ratios) // 2], 3),
    }


def _sample_states(game: Game[Any], num_players: int, options: Options | None, rng: random.Random, count: int) -> list[Any]:
    samples: list[Any] = []
    seed = 10_000
    while len(samples) < count:
        state = game.new_state(num_players, seed, options)
        seed += 1
        while players := game.decision(state).players:
            if rng.random() < 0.1:
                samples.append(state.clone())
            seat = rng.choice(players)
            game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
    return samples[:count]


def _legal_for_movers(game: Game[Any], state: Any) -> None:
    for seat in game.decision(state).players:
        game.legal_actions(state, seat)


def _per_call(call: Any, samples: list[Any], repeat: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for state in samples:
            call(state)
    return (time.perf_counter() - start) / (repeat * len(samples)) * 1e6


def _apply_cost(game: Game[Any], samples: list[Any], rng: random.Random) -> float:
    """Mean apply_unchecked time, excluding the clone that gives each call a fresh state."""
    moves = []
    for state in samples:
        seat = rng.choice(game.decision(state).players)
        moves.append((state, seat, rng.choice(game.legal_actions(state, seat))))
    copies = [state.clone() for state, _, _ in moves]
    start = time.perf_counter()
    for copy, (_, seat, action) in zip(copies, moves, strict=True):
        game.apply_unchecked(copy, seat, action)
    return (time.perf_counter() - start) / len(moves) * 1e6
