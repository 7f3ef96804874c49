"""Action-space reachability: how much of each code range is ever legal, for the game's codes and the agents'.

For every game and player count asked for (default: all), plays ``--games``
random games (uniform legal moves, seeds 0, 1, ...) and collects every code
that was legal somewhere: the game's own codes (``game.action_code``) and
the agent codes the RL layer uses (``greenlight.rl.actions``; every card pick
of a Keep or Give counted). Prints, per row, the number of codes, how many
were ever legal and their share, the legal actions per decision (mean) and
the bytes of one agent mask, the length of a game in agent steps (mean and
longest: one step per agent code played, so a two-card Keep is two steps)
and the size of one seat's observation vector in the environments (with
Movie Empire's `picked` block). The share of the agent layout
is the figure ``docs/rl.md`` quotes (issue #33 asked for at least 20 % per
game); the other columns fill its environment cards.

    python bench/bench_actions.py                       # every game and count, 300 games each
    python bench/bench_actions.py movie-empire:3 --games 50
"""

from __future__ import annotations

import argparse
import random
import statistics

from greenlight.core.registry import all_games, get_game
from greenlight.rl import pettingzoo_env
from greenlight.rl.actions import agent_codes_for
from greenlight.rl.encoding import has_encoding


def reachability(game_id: str, players: int, games: int) -> dict[str, float]:
    game = get_game(game_id)
    agent = agent_codes_for(game)
    code_of = game.action_code
    game_codes: set[int] = set()
    agent_codes: set[int] = set()
    legal_counts: list[int] = []
    lengths: list[int] = []
    for seed in range(games):
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        steps = 0
        while acting := game.decision(state).players:
            for seat in acting:
                actions = game.legal_actions(state, seat)
                legal_counts.append(len(actions))
                for action in actions:
                    code = code_of(state, action)
                    game_codes.add(code)
                    agent_codes.update(agent.agent_sequence(code))
            seat = min(acting)
            action = rng.choice(game.legal_actions(state, seat))
            steps += len(agent.agent_sequence(code_of(state, action)))
            game.apply_unchecked(state, seat, action)
        lengths.append(steps)
    return {
        "game_codes": game.num_distinct_actions,
        "game_reached": len(game_codes),
        "agent_codes": agent.num_codes,
        "agent_reached": len(agent_codes),
        "legal": statistics.fmean(legal_counts),
        "steps": statistics.fmean(lengths),
        "longest": max(lengths),
        "observation": pettingzoo_env(game, players).observation_space("player_0")["observation"].shape[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="GAME:PLAYERS (default: every game and player count)")
    parser.add_argument("--games", type=int, default=300, help="random games per case (default 300)")
    args = parser.parse_args()
    cases = [(case.split(":")[0], int(case.split(":")[1])) for case in args.cases] or [
        (game.spec.id, n) for game in all_games().values() if has_encoding(game) for n in game.spec.player_counts
    ]
    print(f"{args.games} random games per row; a code counts once it is legal for some seat somewhere\n")
    print(
        "| game | players | game codes | ever legal | share | agent codes | ever legal | share "
        "| legal per decision | mask bytes | agent steps per game | longest | observation size |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game_id, players in cases:
        row = reachability(game_id, players, args.games)
        print(
            f"| {game_id} | {players} | {row['game_codes']:,} | {row['game_reached']:,} | {row['game_reached'] / row['game_codes']:.1%} "
            f"| {row['agent_codes']:,} | {row['agent_reached']:,} | {row['agent_reached'] / row['agent_codes']:.1%} "
            f"| {row['legal']:.1f} | {row['agent_codes']:,} | {row['steps']:.0f} | {row['longest']:,} | {row['observation']:,} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
