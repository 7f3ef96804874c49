"""Bot levels' speed for balance studies: games per second of self-play (every seat the same level), per game, one core.

Each row plays whole seeded games with every seat at one level, in this
process (one core), and prints games per second (wall clock and CPU), the
seconds per move of the moves with a real choice, and the load average before
and after (the machine may be shared: CPU seconds are what the bots got).
The slow search levels play few games (``hard`` one, ``expert`` one): their
time per game is steady (a step budget), so one game measures it.

The search levels (``strong``, ``hard``, ``expert``) play their step budget
with their wall-clock guard counted in CPU seconds instead (the name
``search:steps=N/cpu`` with the game's ``hard`` settings): on a loaded machine
the wall-clock guard would cut their searches short, and the measure would be
of a weaker, faster bot. CPU games per second are then what the level costs.

    python bench/bench_bot_levels.py                       # every level, every game (about 25 minutes of CPU)
    python bench/bench_bot_levels.py --levels random,medium,strong --game movie-empire
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from greenlight.bots.levels import LEVELS, expert_config, hard_config, strong_config
from greenlight.core.registry import get_game
from greenlight.sim.runner import play_game
from greenlight.sim.study import prepare_study

#: (game, players): each game at its smallest table.
GAMES = [("cinecitta", 3), ("maybe-movies", 3), ("movie-empire", 2)]
#: Games played per level (self-play).
GAMES_PER_LEVEL = {"random": 40, "easy": 20, "medium": 20, "strong": 3, "hard": 1, "expert": 1}


def bot_name(game: str, level: str) -> str:
    """The name that plays ``level``: the level itself, or for a search level its settings with no wall-clock guard.

    ``search:`` starts from the game's ``hard`` settings, so a level's name gives its step budget and every other
    setting in which it differs from ``hard`` (``strong``'s widening, prior, rollout depth and exploration).
    """
    configs = {"strong": strong_config, "hard": hard_config, "expert": expert_config}
    if level not in configs:
        return level
    config, hard = configs[level](get_game(game)), hard_config(get_game(game))
    options = [f"steps={config.steps}"]
    for field, option in (("rollout_depth", "depth"), ("exploration", "c"), ("widening", "widen"), ("prior", "prior")):
        if getattr(config, field) != getattr(hard, field):
            options.append(f"{option}={getattr(config, field)}")
    if config.rollout != hard.rollout:
        options.append(str(config.rollout))
    return "search:" + "/".join([*options, "cpu"])


def measure(game: str, players: int, level: str, games: int) -> dict[str, object]:
    """Play ``games`` self-play games of ``level``: games/s on the wall clock and in CPU seconds, seconds per move."""
    study = prepare_study(game, players, [bot_name(game, level)], games, seed=11)
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    rows = [play_game(task) for task in study.tasks()]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    choices = sum(timing.choices for row in rows for timing in row.timing)
    thinking = sum(timing.seconds for row in rows for timing in row.timing)
    return {
        "game": game,
        "players": players,
        "level": level,
        "bot": bot_name(game, level),
        "games": games,
        "games_per_second_wall": round(games / wall, 4),
        "games_per_second_cpu": round(games / cpu, 4),
        "seconds_per_game_cpu": round(cpu / games, 2),
        "seconds_per_choice_wall": round(thinking / choices, 4) if choices else None,
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels")
    args = parser.parse_args()
    print(f"# bench_bot_levels: Python {platform.python_version()} on {platform.machine()}, one core, self-play")
    for game, players in GAMES:
        if args.game not in (None, game):
            continue
        for level in args.levels.split(","):
            print(json.dumps(measure(game, players, level, GAMES_PER_LEVEL.get(level, 2))), flush=True)


if __name__ == "__main__":
    main()
