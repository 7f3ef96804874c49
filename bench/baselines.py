"""Baselines for every game: random, medium, a small ``hard`` search, PPO against fixed bots and PPO by self-play.

For each game (at one standard player count) the script

1. **trains** PPO with ``examples/train_ppo.py`` (the one PPO implementation;
   imported, not copied) for every training seed, in two modes:

   * ``ppo-fixed``: ``--random-updates`` against ``random`` bots, then
     ``--medium-updates`` against ``medium`` bots;
   * ``ppo-self``: self-play only, against a pool of the learner's own past
     snapshots (``--selfplay-updates``, as many learner steps as ``ppo-fixed``);

   each policy is saved (TorchScript) under ``--work``, with its learner
   steps, wall and CPU seconds;
2. plays a **round robin of mixed tables**: for every pair of agents A, B a
   table of one A against B in every other seat and a table of one B against
   A in every other seat, each played over every seat arrangement of the
   line-up (the arena's :func:`~greenlight.sim.arena.seat_schedule`) on the
   same deal; a PPO agent plays its training seeds in turn, a deal per seed;
3. reports per agent its **win share** over all its seats (ties split) with a
   **Wilson 95% interval**, the arena's **Elo** (Bradley-Terry on the pairwise
   finishing order of every table, :mod:`greenlight.sim.stats`), the win share
   of each PPO seed, the share and interval against ``hard`` alone, and the
   compute spent: training steps, wall and CPU seconds (summed over seeds),
   and the seconds the agent thought during the evaluation.

The search agent ``hard/30`` is the game's ``hard`` settings with a 30th of its
step budget (``search:steps=N``: N = 700 Cinecitta, 1,500 Maybe Movies, 266
Movie Empire; a deterministic budget, so results do not depend on the machine's
load). PPO agents play greedily (the most likely legal code) through an
in-process bot that sees only its seat's observation vector and mask
(``PolicyBot`` of the example), or through the ``policy:PATH`` bot when
:mod:`greenlight.rl.policy_file` provides it.

Output: ``--out`` (CSV, one row per game and agent), the same path with
``-pairs.csv`` (each agent against each other agent), a Markdown table on
stdout, and with ``--docs`` the table written into docs/rl.md between the
``baselines`` markers. Work in progress (policies, training records, every
game played, as JSON lines) is kept under ``--work``: a run that stops goes on
where it stopped when started again with the same arguments.

    python bench/baselines.py                         # the run docs/rl.md reports (about an hour on one core)
    python bench/baselines.py --scale 4 --docs        # four times the training and the evaluation games
    python bench/baselines.py --scale 0.02 --seeds 2 --games cinecitta:3   # a smoke run
    python bench/baselines.py --seeds 5 --rollout 256 --device auto         # more seeds, longer rollouts, CUDA if any
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import itertools
import json
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from greenlight.bots import make_bot
from greenlight.bots.levels import hard_search
from greenlight.core.bot import Bot, SeatView
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.core.rng import derive_seed
from greenlight.sim.arena import seat_schedule
from greenlight.sim.runner import GameResult
from greenlight.sim.stats import bradley_terry, elo_ratings, pairwise_results, wilson_interval

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = ("cinecitta:3", "maybe-movies:4", "movie-empire:3")
AGENTS = ("random", "medium", "hard/30", "ppo-fixed", "ppo-self")
PPO_MODES = ("ppo-fixed", "ppo-self")
#: The search agent searches this fraction of the game's ``hard`` step budget.
HARD_FRACTION = 30
#: PPO updates at scale 1 (each 8 games x 128 steps = 1,024 learner steps): (against random, against medium).
#: Maybe Movies trains against its heuristic for fewer updates: set when that heuristic was about 30 times slower
#: than the others' (it has been sped up since; the table in docs/rl.md was measured with this budget). The
#: self-play agent gets the same total of learner steps.
FIXED_UPDATES = {"cinecitta": (45, 45), "maybe-movies": (60, 4), "movie-empire": (45, 45)}
#: Deal cycles per training seed and line-up at scale 1 (every cycle plays each seat arrangement once).
CYCLES_PER_SEED = 3
#: The PPO network: two hidden layers of this width (a tiny network, for a CPU).
HIDDEN = 64
DOCS_BEGIN = "<!-- baselines:begin (written by bench/baselines.py --docs) -->"
DOCS_END = "<!-- baselines:end -->"

COLUMNS = (
    "game",
    "players",
    "agent",
    "bot",
    "train_seeds",
    "train_steps_per_seed",
    "train_wall_s",
    "train_cpu_s",
    "eval_games",
    "eval_seats",
    "win_share",
    "ci95_low",
    "ci95_high",
    "parity",
    "elo",
    "seed_win_shares",
    "vs_hard_share",
    "vs_hard_low",
    "vs_hard_high",
    "eval_think_s",
)
PAIR_COLUMNS = ("game", "players", "agent", "opponent", "games", "seats", "win_share", "ci95_low", "ci95_high")


def load_example() -> ModuleType:
    """``examples/train_ppo.py`` as a module (examples are not a package)."""
    path = ROOT / "examples" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@dataclass
class Budget:
    """What ``--scale`` sets: PPO updates per mode and seed, deal cycles per seed and line-up."""

    random_updates: int
    medium_updates: int
    cycles_per_seed: int

    @property
    def selfplay_updates(self) -> int:
        """As many updates (so learner steps) as the fixed-bot agent."""
        return self.random_updates + self.medium_updates


def budget_for(game: str, scale: float) -> Budget:
    """The budget of ``game`` at ``scale`` (at least one update and one cycle)."""
    random_updates, medium_updates = FIXED_UPDATES.get(game, (45, 45))
    return Budget(
        random_updates=max(1, round(random_updates * scale)),
        medium_updates=max(1, round(medium_updates * scale)),
        cycles_per_seed=max(1, round(CYCLES_PER_SEED * scale)),
    )


def hard_bot_name(game: str) -> str:
    """``search:steps=N``: the game's ``hard`` settings at 1/:data:`HARD_FRACTION` of its step budget."""
    steps = hard_search(get_game(game)).steps
    assert steps is not None, "hard searches have a step budget"
    return f"search:steps={max(1, steps // HARD_FRACTION)}"


def _cpu_seconds() -> float:
    usage = os.times()
    return usage.user + usage.system


# -- training -----------------------------------------------------------------------------------------------


def train(
    example: ModuleType, game: str, players: int, mode: str, seed: int, budget: Budget, work: Path, device: str, rollout: int
) -> dict[str, Any]:
    """Train one PPO agent (or read the record of one trained before) and return its record."""
    record_path = work / f"{game}-{players}-{mode}-s{seed}.json"
    policy_path = work / f"{game}-{players}-{mode}-s{seed}.pt"
    if record_path.exists() and policy_path.exists():
        record: dict[str, Any] = json.loads(record_path.read_text())
        wanted = (budget.random_updates, budget.medium_updates, budget.selfplay_updates)
        if tuple(record["updates"]) == wanted and record.get("rollout", 128) == rollout:
            return record
    config = example.Config(game=game, players=players, hidden=HIDDEN, seed=seed, device=device, rollout=rollout)
    fixed = mode == "ppo-fixed"
    updates = (budget.random_updates, budget.medium_updates, 0) if fixed else (0, 0, budget.selfplay_updates)
    result = example.run(updates[0], updates[1], eval_games=0, config=config, log=False, selfplay_updates=updates[2])
    example.save(result.agent, str(policy_path), config, note=f"bench/baselines.py {mode} seed {seed}")
    record = {
        "game": game,
        "players": players,
        "mode": mode,
        "seed": seed,
        # The budget asked for (the self-play count is the fixed agent's total): a changed --scale trains again.
        "updates": [budget.random_updates, budget.medium_updates, budget.selfplay_updates],
        "steps": result.random_steps + result.medium_steps + result.selfplay_steps,
        "wall_s": result.seconds,
        "cpu_s": result.cpu_seconds,
        "device": str(example.pick_device(device)),
        "rollout": rollout,
    }
    record_path.write_text(json.dumps(record))
    return record


# -- evaluation ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One game of the round robin: the agent in each seat and the PPO seed each PPO seat plays."""

    key: str
    pair: tuple[str, str]
    seats: tuple[str, ...]
    ppo_seed: int
    seed: int


def round_robin(game: str, players: int, seeds: int, cycles_per_seed: int, base_seed: int) -> list[Table]:
    """Every table of the round robin, in a fixed order (see the module docstring)."""
    tables = []
    for first, second in itertools.combinations(AGENTS, 2):
        for alone, others in ((first, second), (second, first)):
            schedule = seat_schedule((alone, *[others] * (players - 1)))
            for cycle in range(seeds * cycles_per_seed):
                deal = derive_seed("baselines/deal", base_seed, game, first, second, alone, cycle, bits=48)
                for position, seats in enumerate(schedule):
                    key = f"{first}|{second}|{alone}|{cycle}|{position}"
                    tables.append(Table(key, (first, second), seats, cycle % seeds, deal))
    return tables


class Agents:
    """Builds the bot of an agent for one game: named bots through ``make_bot``, PPO policies from their files."""

    def __init__(self, game: str, players: int, work: Path, example: ModuleType) -> None:
        self.game = get_game(game)
        self.players = players
        self.work = work
        self.example = example
        self.hard = hard_bot_name(game)
        self._nets: dict[str, Any] = {}
        self.policy_bot = _has_policy_bot(self.game)

    def bot_name(self, agent: str) -> str:
        """The bot an agent plays as (the PPO file of seed 0 for a PPO agent)."""
        return {"hard/30": self.hard}.get(agent, agent)

    def make(self, agent: str, ppo_seed: int, seed: int) -> Bot:
        """The seeded bot of ``agent`` (a PPO agent plays the policy of training seed ``ppo_seed``)."""
        if agent not in PPO_MODES:
            return make_bot(self.bot_name(agent), self.game, seed)
        path = self.work / f"{self.game.spec.id}-{self.players}-{agent}-s{ppo_seed}.pt"
        if self.policy_bot:
            return make_bot(f"policy:{path}", self.game, seed)
        if str(path) not in self._nets:
            self._nets[str(path)] = torch.jit.load(str(path)).eval()
        bot: Bot = self.example.PolicyBot([self._nets[str(path)]], seed, name=agent)
        return bot


def _has_policy_bot(game: Any) -> bool:
    """Whether ``make_bot`` knows ``policy:PATH`` (greenlight.rl.policy_file, written alongside this script)."""
    try:
        import greenlight.rl.policy_file  # noqa: F401  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    try:
        make_bot("policy:", game, 0)
    except FileNotFoundError:
        return True
    except Exception as error:  # an unknown bot name (OptionError) or any other refusal: not available
        return "unknown bot" not in str(error)
    return True


def play(table: Table, agents: Agents) -> dict[str, Any]:
    """Play one table and return its row (win shares, ranks, scores, each seat's thinking time)."""
    game = agents.game
    bots = [
        agents.make(agent, table.ppo_seed, derive_seed("baselines/bot", table.seed, table.key, seat, bits=48))
        for seat, agent in enumerate(table.seats)
    ]
    match = Match.start(game, agents.players, table.seed)
    think = [0.0] * agents.players
    while True:
        decision = match.decision()
        if decision.is_terminal:
            break
        seat = decision.players[0]
        started = time.process_time()
        action = bots[seat].choose(SeatView(game, match.state, seat))
        think[seat] += time.process_time() - started
        match.play(seat, action)
    outcome = match.outcome()
    return {
        "key": table.key,
        "pair": list(table.pair),
        "seats": list(table.seats),
        "ppo_seed": table.ppo_seed,
        "seed": table.seed,
        "returns": list(outcome.returns()),
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores),
        "length": len(match.record.actions),
        "think_s": think,
    }


def evaluate(
    game: str, players: int, seeds: int, budget: Budget, work: Path, example: ModuleType, base_seed: int, log: Any, tag: str = ""
) -> list[dict[str, Any]]:
    """Play (or read back) every table of the round robin; rows are appended to a JSON-lines file as they finish."""
    # The rows belong to the policies of this budget (another --scale trains them again).
    rows_path = work / f"{game}-{players}-rows-{budget.random_updates}-{budget.medium_updates}-{seeds}{tag}.jsonl"
    done: dict[str, dict[str, Any]] = {}
    if rows_path.exists():
        for line in rows_path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["key"]] = row
    tables = round_robin(game, players, seeds, budget.cycles_per_seed, base_seed)
    agents = Agents(game, players, work, example)
    rows = []
    started = time.perf_counter()
    with rows_path.open("a") as handle:
        for number, table in enumerate(tables, start=1):
            if table.key in done and done[table.key]["seats"] == list(table.seats):
                rows.append(done[table.key])
                continue
            row = play(table, agents)
            handle.write(json.dumps(row) + "\n")
            handle.flush()
            rows.append(row)
            if number % 100 == 0:
                log(f"{game}: {number}/{len(tables)} tables, {time.perf_counter() - started:.0f} s")
    return rows


# -- report -------------------------------------------------------------------------------------------------


def _as_result(row: dict[str, Any], game: str, players: int) -> GameResult:
    """A row as the arena's result type, for its pairwise ratings."""
    returns = tuple(row["returns"])
    return GameResult(
        index=0,
        game=game,
        num_players=players,
        seed=row["seed"],
        options={},
        bots=tuple(row["seats"]),
        bot_seeds=(0,) * players,
        scores=tuple(row["scores"]),
        ranks=tuple(row["ranks"]),
        winners=tuple(seat for seat, share in enumerate(returns) if share > 0),
        returns=returns,
        breakdown=tuple({} for _ in range(players)),
        length=row["length"],
    )


def _share(rows: Sequence[dict[str, Any]], agent: str, seed: int | None = None) -> tuple[float, int]:
    """Total win share of ``agent``'s seats over ``rows`` (of PPO seed ``seed`` only, if given) and the seat count."""
    total, seats = 0.0, 0
    for row in rows:
        if seed is not None and row["ppo_seed"] != seed:
            continue
        for name, share in zip(row["seats"], row["returns"], strict=True):
            if name == agent:
                total += share
                seats += 1
    return total, seats


def report(
    game: str, players: int, seeds: int, rows: list[dict[str, Any]], records: list[dict[str, Any]], agents_hard: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The per-agent rows and the agent-against-agent rows of one game."""
    ratings = elo_ratings(bradley_terry(pairwise_results([_as_result(row, game, players) for row in rows])))
    lines = []
    for agent in AGENTS:
        total, seats = _share(rows, agent)
        low, high = wilson_interval(total, seats)
        with_hard = [row for row in rows if agent in row["pair"] and "hard/30" in row["pair"]] if agent != "hard/30" else []
        hard_total, hard_seats = _share(with_hard, agent)
        hard_low, hard_high = wilson_interval(hard_total, hard_seats) if hard_seats else (math.nan, math.nan)
        trained = [record for record in records if record["mode"] == agent]
        seed_shares = []
        if agent in PPO_MODES:
            for seed in range(seeds):
                seed_total, seed_seats = _share(rows, agent, seed)
                seed_shares.append(f"{seed_total / seed_seats:.3f}" if seed_seats else "")
        lines.append(
            {
                "game": game,
                "players": players,
                "agent": agent,
                "bot": {"hard/30": agents_hard}.get(agent, agent if agent not in PPO_MODES else f"policy ({HIDDEN}x{HIDDEN} MLP)"),
                "train_seeds": len(trained),
                "train_steps_per_seed": trained[0]["steps"] if trained else 0,
                "train_wall_s": round(sum(record["wall_s"] for record in trained), 1),
                "train_cpu_s": round(sum(record["cpu_s"] for record in trained), 1),
                "eval_games": sum(1 for row in rows if agent in row["seats"]),
                "eval_seats": seats,
                "win_share": round(total / seats, 4) if seats else math.nan,
                "ci95_low": round(low, 4),
                "ci95_high": round(high, 4),
                "parity": round(1 / players, 4),
                "elo": ratings.get(agent, math.nan),
                "seed_win_shares": ";".join(seed_shares),
                "vs_hard_share": round(hard_total / hard_seats, 4) if hard_seats else math.nan,
                "vs_hard_low": round(hard_low, 4),
                "vs_hard_high": round(hard_high, 4),
                "eval_think_s": round(
                    sum(row["think_s"][seat] for row in rows for seat, name in enumerate(row["seats"]) if name == agent), 1
                ),
            }
        )
    pairs = []
    for agent, opponent in itertools.permutations(AGENTS, 2):
        among = [row for row in rows if set(row["pair"]) == {agent, opponent}]
        total, seats = _share(among, agent)
        low, high = wilson_interval(total, seats)
        pairs.append(
            {
                "game": game,
                "players": players,
                "agent": agent,
                "opponent": opponent,
                "games": len(among),
                "seats": seats,
                "win_share": round(total / seats, 4) if seats else math.nan,
                "ci95_low": round(low, 4),
                "ci95_high": round(high, 4),
            }
        )
    return lines, pairs


def markdown(lines: Sequence[dict[str, Any]]) -> str:
    """The Markdown table of the per-agent rows."""
    header = (
        "| game | agent | win share [95% CI] | Elo | per seed | vs hard/30 [95% CI] | seats | "
        "train steps/seed | train wall s | train CPU s | eval think s |"
    )
    out = [header, "|" + "---|" * header.count(" | ") + "---|"]
    for line in lines:
        vs_hard = (
            "-"
            if math.isnan(line["vs_hard_share"])
            else f"{line['vs_hard_share']:.2f} [{line['vs_hard_low']:.2f}, {line['vs_hard_high']:.2f}]"
        )
        agent = line["agent"] if line["agent"] != "hard/30" else f"hard/30 (`{line['bot']}`)"
        out.append(
            f"| {line['game']} {line['players']}p | {agent} | {line['win_share']:.3f} [{line['ci95_low']:.3f}, {line['ci95_high']:.3f}] | "
            f"{line['elo']:.0f} | {line['seed_win_shares'].replace(';', ' / ') or '-'} | {vs_hard} | {line['eval_seats']} | "
            f"{line['train_steps_per_seed']:,} | {line['train_wall_s']:.0f} | {line['train_cpu_s']:.0f} | {line['eval_think_s']:.0f} |"
        )
    return "\n".join(out)


def write_csv(path: Path, columns: Sequence[str], lines: Sequence[dict[str, Any]]) -> None:
    """Write ``lines`` as CSV with ``columns`` in order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(lines)


def write_docs(path: Path, block: str) -> None:
    """Replace the text between the baselines markers of ``path`` with ``block``."""
    text = path.read_text()
    begin, end = text.index(DOCS_BEGIN) + len(DOCS_BEGIN), text.index(DOCS_END)
    path.write_text(text[:begin] + "\n" + block + "\n" + text[end:])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES), metavar="GAME:PLAYERS")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies PPO updates and evaluation deals")
    parser.add_argument("--seeds", type=int, default=3, help="training seeds per PPO agent")
    parser.add_argument("--seed", type=int, default=0, help="seed of the evaluation deals")
    parser.add_argument("--rollout", type=int, default=128, help="PPO steps per game and update (8 games an update)")
    parser.add_argument("--device", default="cpu", help="PPO training device (auto: CUDA when available)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "baselines.csv"))
    parser.add_argument("--work", default=str(ROOT / "bench" / "results" / "work"), help="policies, records and rows (resumable)")
    parser.add_argument("--docs", action="store_true", help="write the table into docs/rl.md")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    example = load_example()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    started, cpu_started = time.perf_counter(), _cpu_seconds()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=sys.stderr, flush=True)

    all_lines: list[dict[str, Any]] = []
    all_pairs: list[dict[str, Any]] = []
    out = Path(args.out)
    for item in args.games:
        game, _, count = item.partition(":")
        players = int(count) if count else get_game(game).spec.min_players
        budget = budget_for(game, args.scale)
        records = []
        for mode in PPO_MODES:
            for seed in range(args.seeds):
                record = train(example, game, players, mode, seed, budget, work, args.device, args.rollout)
                log(f"{game} {mode} seed {seed}: {record['steps']:,} steps, {record['wall_s']:.0f} s wall, {record['cpu_s']:.0f} s CPU")
                records.append(record)
        tag = f"-r{args.rollout}" if args.rollout != 128 else ""
        rows = evaluate(game, players, args.seeds, budget, work, example, args.seed, log, tag)
        lines, pairs = report(game, players, args.seeds, rows, records, hard_bot_name(game))
        all_lines += lines
        all_pairs += pairs
        write_csv(out, COLUMNS, all_lines)  # partial results as each game finishes
        write_csv(out.with_name(out.stem + "-pairs.csv"), PAIR_COLUMNS, all_pairs)
        log(f"{game}: {len(rows)} tables evaluated")
    wall, cpu = time.perf_counter() - started, _cpu_seconds() - cpu_started
    # A resumed run adds its time to the runs before it with the same settings (the total is what the table cost).
    run_path = work / "run.json"
    settings = {"scale": args.scale, "seeds": args.seeds, "games": list(args.games), "rollout": args.rollout}
    previous = json.loads(run_path.read_text()) if run_path.exists() else {}
    if all(previous.get(key, settings[key]) == value for key, value in settings.items()) and previous:
        wall, cpu = wall + previous["wall_s"], cpu + previous["cpu_s"]
        invocations = previous.get("invocations", 1) + 1
    else:
        invocations = 1
    table = markdown(all_lines)
    budgets = ", ".join(
        f"{game} {budget.random_updates}+{budget.medium_updates} updates"
        for game, budget in ((item.partition(":")[0], budget_for(item.partition(":")[0], args.scale)) for item in args.games)
    )
    command = " ".join(["python bench/baselines.py", *[item for item in (argv if argv is not None else sys.argv[1:]) if item != "--docs"]])
    footer = (
        f"`{command}`: {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU in all ({invocations} invocation(s), resumed from "
        f"`--work`), one process on a {os.cpu_count()}-core {platform.machine()} machine shared with other work, "
        f"torch {torch.__version__}; scale {args.scale:g} ({budgets} for ppo-fixed, as many self-play; {args.seeds} seeds)."
    )
    print(table)
    print()
    print(footer)
    run = json.dumps({"command": command, "wall_s": wall, "cpu_s": cpu, "invocations": invocations} | settings, indent=1) + "\n"
    run_path.write_text(run)
    out.with_name(out.stem + "-run.json").write_text(run)
    if args.docs:
        write_docs(ROOT / "docs" / "rl.md", table + "\n\n" + footer)


if __name__ == "__main__":
    main()
