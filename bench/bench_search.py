"""Search benchmark: Greenlight's ISMCTS against OpenSpiel's Python ``ISMCTSBot``, iterations per second.

Issue #18 asks for Greenlight's ISMCTS at five times OpenSpiel's ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``) on the same game and positions,
through the OpenSpiel adapter, with the same kind of rollout. For every game
and player count asked for:

* **positions**: seeded positions reached by random play (a random number of
  uniformly random moves from a seeded deal, each simultaneous step taken
  lowest seat first as the adapter does), each one where the seat to move has
  a real choice. The same actions, as action codes, bring the adapter's
  OpenSpiel state to the same position (checked: equal Greenlight states).
* **the two bots**, with the same budget of iterations, the same exploration
  constant, uniformly random rollouts to the end of the game, and a fresh
  determinization every iteration (the adapter's ``determinize`` resampler for
  OpenSpiel, ``SeatView.determinize`` for Greenlight): OpenSpiel's bot as
  ``greenlight.rl.openspiel.ismcts_bot`` builds it, Greenlight's
  ``ISMCTSBot(rollout="random", rollout_epsilon=0)``. Each call is timed
  whole (the bot's choice of move, from its state or view to the action), in
  the process's CPU time by default: on a shared machine a busy neighbour
  stretches wall-clock time unevenly, CPU time far less (``--clock wall``
  times the wall clock instead).
* **the floor**: as many bare playouts from the same positions as the search
  has iterations, each a fresh determinization and uniformly random moves to
  the end, no tree (``--no-floor`` skips it). It is what the search's
  iterations cost in the game's engine alone, so ``floor / OpenSpiel`` bounds
  the ratio any search loop could reach with the engine as it is, and
  ``Greenlight / floor`` is the share left to the search loop itself.
* **interleaved**: every round searches every position with OpenSpiel's bot,
  then Greenlight's, then the ``hard`` level's settings (its own rollouts and
  widening, iteration budget), then plays the floor's playouts, so a change
  in the machine's load touches all of them; the figures are the median over
  rounds of each round's total iterations / total seconds, and the ratio is
  the median of the rounds' ratios.

    python bench/bench_search.py                      # cinecitta:3 maybe-movies:4 movie-empire:2
    python bench/bench_search.py cinecitta:5 --rounds 5 --iterations 200
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from greenlight.bots.ismcts import ISMCTSBot, SearchConfig
from greenlight.bots.levels import hard_search
from greenlight.core.actions import Action
from greenlight.core.bot import SeatView
from greenlight.core.game import Game
from greenlight.core.registry import get_game
from greenlight.core.state import GameState
from greenlight.rl.actions import agent_codes_for
from greenlight.rl.openspiel import ismcts_bot, openspiel_game

DEFAULT_GAMES = ("cinecitta:3", "maybe-movies:4", "movie-empire:2")


@dataclass
class Position:
    """A position reached by random play: the Greenlight state, the seat to move, and the OpenSpiel state."""

    seed: int
    moves: int
    seat: int
    state: GameState
    spiel_state: Any


def random_positions(game: Game[Any], players: int, spiel_game: Any, count: int, seed: int) -> list[Position]:
    """``count`` positions, each ``rng.randrange(max_moves)`` random moves (or more, to a real choice) into a seeded deal.

    ``max_moves`` is half of a random game's length, so positions run from the
    opening to the middle game, where searches spend most of their time.
    """
    rng = random.Random(seed)
    positions: list[Position] = []
    deal = seed
    while len(positions) < count:
        deal += 1
        length = _random_game_length(game, players, deal, random.Random(deal))
        target = rng.randrange(max(1, length // 2))
        state = game.new_state(players, deal)
        spiel_state = spiel_game.new_initial_state()
        spiel_state.apply_action(deal)  # the adapter's deal i starts the game with seed base_seed + i (base 0)
        moves = 0
        while True:
            players_to_act = game.decision(state).players
            if not players_to_act:
                break
            seat = min(players_to_act)  # the adapter takes a simultaneous step lowest seat first
            legal = game.legal_actions(state, seat)
            if moves >= target and len(legal) > 1:
                if spiel_state.current_player() != seat or spiel_state.greenlight_state != state:
                    raise AssertionError(f"the OpenSpiel state of deal {deal} left the Greenlight game after {moves} moves")
                positions.append(Position(deal, moves, seat, state, spiel_state))
                break
            action = legal[rng.randrange(len(legal))]
            for code in agent_codes_for(game).agent_sequence(game.action_code(state, action)):  # picks, one card each
                spiel_state.apply_action(code)
            while spiel_state.is_chance_node():  # seeded chance: the engine's own draws, as in ``state``
                spiel_state.apply_action(0)
            game.apply(state, seat, action)
            moves += 1
    return positions


def _random_game_length(game: Game[Any], players: int, deal: int, rng: random.Random) -> int:
    state = game.new_state(players, deal)
    moves = 0
    while players_to_act := game.decision(state).players:
        seat = min(players_to_act)
        game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))
        moves += 1
    return moves


#: The clocks ``--clock`` chooses from.
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def time_openspiel(
    spiel_game: Any, position: Position, iterations: int, exploration: float, seed: int, clock: Callable[[], float] = time.process_time
) -> float:
    """Seconds OpenSpiel's ``ISMCTSBot`` takes to choose a move at ``position`` with ``iterations`` simulations."""
    bot = ismcts_bot(spiel_game, simulations=iterations, seed=seed, uct_c=exploration)
    state = position.spiel_state.clone()
    started = clock()
    bot.step(state)
    return clock() - started


def time_greenlight(
    game: Game[Any], position: Position, config: SearchConfig, seed: int, clock: Callable[[], float] = time.process_time
) -> tuple[float, int, Action]:
    """Seconds Greenlight's ``ISMCTSBot`` takes at ``position``, the iterations it ran, and its choice."""
    bot = ISMCTSBot(seed=seed, config=config)
    view = SeatView(game, position.state.clone(), position.seat)
    started = clock()
    action = bot.choose(view)
    return clock() - started, bot.last_stats.iterations, action


def time_floor(game: Game[Any], position: Position, iterations: int, seed: int, clock: Callable[[], float] = time.process_time) -> float:
    """Seconds for ``iterations`` bare playouts from ``position``: a determinization and random moves to the end, no tree."""
    rng = random.Random(seed)
    view = SeatView(game, position.state, position.seat)
    decision_of, legal_actions, apply = game.decision, game.legal_actions, game.apply_unchecked
    randrange = rng.randrange
    started = clock()
    for _ in range(iterations):
        world = view.determinize(rng)
        while players := decision_of(world).players:
            seat = players[0]
            legal = legal_actions(world, seat)
            apply(world, seat, legal[randrange(len(legal))])
        game.outcome(world).returns()
    return clock() - started


def bench_game(game_id: str, players: int, args: argparse.Namespace) -> dict[str, Any]:
    """Interleaved rounds over the positions of one game and player count; medians over rounds."""
    game = get_game(game_id)
    spiel_game = openspiel_game(game, players, chance="seeded", deals=2**30)
    positions = random_positions(game, players, spiel_game, args.positions, args.seed)
    plain = SearchConfig(iterations=args.iterations, rollout="random", rollout_epsilon=0.0, exploration=args.exploration)
    hard = replace(hard_search(game), iterations=args.iterations, steps=None, seconds=None)
    clock = CLOCKS[args.clock]
    rows: list[dict[str, float]] = []
    for round_number in range(args.rounds):
        spent = {"openspiel": 0.0, "greenlight": 0.0, "hard": 0.0, "floor": 0.0}
        for index, position in enumerate(positions):
            bot_seed = 1000 * round_number + index
            spent["openspiel"] += time_openspiel(spiel_game, position, args.iterations, args.exploration, bot_seed, clock)
            seconds, done, _ = time_greenlight(game, position, plain, bot_seed, clock)
            assert done == args.iterations
            spent["greenlight"] += seconds
            if not args.no_hard:
                seconds, done, _ = time_greenlight(game, position, hard, bot_seed, clock)
                spent["hard"] += seconds
            if not args.no_floor:
                spent["floor"] += time_floor(game, position, args.iterations, bot_seed, clock)
        total = args.iterations * len(positions)
        rows.append({name: total / seconds if seconds else 0.0 for name, seconds in spent.items()})
    ratios = [row["greenlight"] / row["openspiel"] for row in rows]
    return {
        "game": game_id,
        "players": players,
        "clock": args.clock,
        "positions": [(position.seed, position.moves) for position in positions],
        "openspiel_it_s": [round(row["openspiel"], 1) for row in rows],
        "greenlight_it_s": [round(row["greenlight"], 1) for row in rows],
        "hard_it_s": [round(row["hard"], 1) for row in rows],
        "floor_it_s": [round(row["floor"], 1) for row in rows],
        "ratio_rounds": [round(ratio, 2) for ratio in ratios],
        "ratio": round(statistics.median(ratios), 2),
        "floor_ratio": round(statistics.median(row["floor"] / row["openspiel"] for row in rows), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES), help="GAME:PLAYERS (default: %(default)s)")
    parser.add_argument("--positions", type=int, default=6, help="positions per game")
    parser.add_argument("--iterations", type=int, default=300, help="search iterations per position and bot")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--exploration", type=float, default=SearchConfig().exploration, help="UCT constant of both bots")
    parser.add_argument("--seed", type=int, default=0, help="seed of the positions")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="time in CPU seconds (default) or wall-clock seconds")
    parser.add_argument("--no-hard", action="store_true", help="skip the hard level's settings")
    parser.add_argument("--no-floor", action="store_true", help="skip the bare playouts (the engine's floor)")
    args = parser.parse_args()
    load = os.getloadavg()
    python = f"Python {platform.python_version()} on {platform.machine()}"
    print(f"# bench_search: {python}; {args.clock} time; load average {load[0]:.2f} {load[1]:.2f}")
    results = []
    for spec in args.games:
        game_id, _, players = spec.partition(":")
        result = bench_game(game_id, int(players or get_game(game_id).spec.min_players), args)
        results.append(result)
        print(result, flush=True)
    print()
    print(
        "| Game | Players | OpenSpiel ISMCTSBot it/s | Greenlight ISMCTSBot it/s | ratio "
        "| floor: bare playouts/s | floor / OpenSpiel | Greenlight hard settings it/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for result in results:
        openspiel = statistics.median(result["openspiel_it_s"])
        greenlight = statistics.median(result["greenlight_it_s"])
        hard = statistics.median(result["hard_it_s"])
        floor = statistics.median(result["floor_it_s"])
        hard_text = "-" if args.no_hard else f"{hard:,.0f}"
        floor_text = "- | -" if args.no_floor else f"{floor:,.0f} | {result['floor_ratio']:.2f}"
        print(
            f"| {result['game']} | {result['players']} | {openspiel:,.0f} | {greenlight:,.0f} | {result['ratio']:.2f} "
            f"| {floor_text} | {hard_text} |"
        )


if __name__ == "__main__":
    main()
