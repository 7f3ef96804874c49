"""Studies: many seeded games written to a folder in chunks, resumable, on a local pool or a Ray cluster.

A :class:`Study` is the game, the player count, the options (with the
digest of any custom data file), the bot line-up, the seed and the number
of games. Its tasks are the arena's (:func:`greenlight.sim.arena.arena_tasks`):
seats rotate so every bot plays every position on the same deal, and every
game's seeds depend only on the study seed and the game's index, so the rows
are the same whatever the backend and the number of workers.

**The folder** (``--out DIR``)::

    manifest.json                 the study's parameters (checked on every rerun) and every run's time
    data.json                     the data the games were played with (every table's records, card titles)
    chunks/games-000000-000099.parquet, chunks/cards-000000-000099.parquet, ...
    games.parquet, cards.parquet  all finished games (see greenlight.sim.rows), written at the end
    summary.json, report.html, *.png

Games are played in chunks of ``chunk_size``; a chunk is written as soon as
all its games are in (cards table first, games table last, each renamed into
place), so an interrupted run loses at most the chunks in flight, and
rerunning the same command plays only the chunks that are missing. Asking
for more games reuses every finished chunk. A folder holding a study with
other parameters (or a data file whose contents changed) is refused unless
``fresh`` is set, which deletes the earlier results first.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from greenlight.bots import make_bot
from greenlight.core.errors import GreenlightError, OptionError
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.sim.arena import arena_tasks, lineup, seat_schedule
from greenlight.sim.datafiles import data_digests, data_snapshot
from greenlight.sim.pool import default_workers, iter_games
from greenlight.sim.rows import CARD_KINDS, card_rows, game_row, results_from_tables
from greenlight.sim.runner import GameResult, GameTask
from greenlight.sim.storage import CSV, FORMATS, TableWriter, default_format, find_table, read_table, write_table
from greenlight.sim.summary import CardTally

STUDY_FORMAT = 1
MANIFEST = "manifest.json"
CHUNKS = "chunks"
GAMES = "games"
CARDS = "cards"
SUMMARY = "summary.json"
DATA = "data.json"
DEFAULT_CHUNK_SIZE = 100


class StudyMismatch(OptionError):
    """The output folder already holds a study with other parameters."""


@dataclass(frozen=True, slots=True)
class Study:
    """Everything that decides a study's rows (see the module docstring)."""

    game: str
    version: str
    num_players: int
    lineup: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, OptionValue]
    #: ``{path option: SHA-256 of the data file or folder}`` for every custom data path.
    data: dict[str, str] = field(default_factory=dict)
    chunk_size: int = DEFAULT_CHUNK_SIZE

    def identity(self) -> dict[str, Any]:
        """What must match for two runs to share a folder: everything but the number of games and the chunk size.

        A data path counts by its contents (digest), not by where the file is.
        """
        options = {name: (None if name in self.data else value) for name, value in sorted(self.options.items())}
        return {
            "game": self.game,
            "version": self.version,
            "num_players": self.num_players,
            "lineup": list(self.lineup),
            "seed": self.seed,
            "options": options,
            "data": dict(sorted(self.data.items())),
        }

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the manifest's ``study`` and the summary's ``study``)."""
        return {
            **self.identity(),
            "options": dict(self.options),
            "games": self.games,
            "chunk_size": self.chunk_size,
            "schedule": [list(order) for order in seat_schedule(self.lineup)],
        }

    def tasks(self) -> list[GameTask]:
        """Every game of the study, in index order, asking for the game's own statistics."""
        tasks = arena_tasks(self.game, self.num_players, self.lineup, self.games, self.seed, self.options)
        return [replace(task, stats=True) for task in tasks]

    def chunks(self) -> list[range]:
        """The index ranges of the chunks.

        >>> Study("cinecitta", "1", 3, ("random",) * 3, 250, 0, {}).chunks()
        [range(0, 100), range(100, 200), range(200, 250)]
        """
        return [range(start, min(start + self.chunk_size, self.games)) for start in range(0, self.games, self.chunk_size)]


def prepare_study(
    game_name: str,
    num_players: int,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, OptionValue] | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> Study:
    """Check the parameters (player count, options, bots, data files: a broken file fails here) and build the study."""
    if games < 1:
        raise OptionError("a study needs at least one game (--games)")
    if chunk_size < 1:
        raise OptionError("the chunk size must be at least 1 (--chunk-size)")
    game = get_game(game_name)
    resolved = game.spec.resolve_options(num_players, options)
    seats = lineup(bots, num_players)
    for name in dict.fromkeys(seats):
        make_bot(name, game, 0)  # raises OptionError for an unknown bot
    data = data_digests(game, resolved)
    game.new_state(num_players, seed, resolved)  # loads and validates the data files now, not in a worker
    return Study(game.spec.id, game.spec.version, num_players, seats, games, seed, resolved, data, chunk_size)


# -- backends ------------------------------------------------------------------------------------


class Backend(Protocol):
    """Plays tasks somewhere and yields ``(position in tasks, row)`` as games finish."""

    name: str

    def describe(self) -> str:
        """Where the games run, in words (for the progress line and the summary)."""
        ...

    def run(self, tasks: Sequence[GameTask]) -> Iterator[tuple[int, GameResult]]:
        """Play every task; rows may come in any order."""
        ...


@dataclass(slots=True)
class LocalBackend:
    """A process pool on this machine (:func:`greenlight.sim.pool.iter_games`); 1 worker plays in this process."""

    workers: int = 0
    name: str = "local"

    def describe(self) -> str:
        """``local, N worker(s)``."""
        return f"local, {self.workers or default_workers()} worker(s)"

    def run(self, tasks: Sequence[GameTask]) -> Iterator[tuple[int, GameResult]]:
        """Play on the local pool."""
        return iter_games(tasks, self.workers or default_workers())


def make_backend(name: str, workers: int = 0, address: str | None = None, ship_code: bool = False) -> Backend:
    """``local`` (default) or ``ray`` (imported only when asked for)."""
    if name == "local":
        if address:
            raise OptionError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        from greenlight.sim.ray_backend import RayBackend

        return RayBackend(address=address, workers=workers, ship_code=ship_code)
    raise OptionError(f"unknown backend {name!r}; choose local or ray")


# -- running -----------------------------------------------------------------------------------


class StudyProgress(Protocol):
    """Told how many games a run has in all and already done, then about each game as it finishes."""

    def start(self, total: int, done: int) -> None:
        """Before the first new game."""
        ...

    def advance(self, row: GameResult) -> None:
        """After each new game."""
        ...


@dataclass(slots=True)
class StudyRun:
    """A finished study: its games rows as written, the rebuilt results, the card tally, and how this run went.

    The cards table can be large (one row per game, seat, card and action), so
    it stays on disk: :meth:`read_cards` loads it when it is wanted.
    """

    study: Study
    out: Path
    games: list[dict[str, Any]]
    #: One result per game, rebuilt from the games table (their statistics hold no card entries).
    results: list[GameResult]
    cards: CardTally
    played: int
    reused: int
    seconds: float
    backend: str

    def read_cards(self) -> list[dict[str, Any]]:
        """Every row of the study's cards table."""
        file = find_table(self.out / CARDS)
        assert file is not None
        return read_table(file)

    def run_info(self) -> dict[str, Any]:
        """What this run did, and every run's time together (not a function of the rows: it differs between runs)."""
        runs = (read_manifest(self.out) or {}).get("runs", [])
        return {
            "backend": self.backend,
            "games_played": self.played,
            "games_reused": self.reused,
            "seconds": self.seconds,
            "games_per_second": self.played / self.seconds if self.seconds > 0 else None,
            "runs": len(runs),
            "total_seconds": sum(float(run.get("seconds", 0.0)) for run in runs),
        }


def _chunk_name(kind: str, chunk: range) -> str:
    return f"{kind}-{chunk.start:06d}-{chunk.stop - 1:06d}"


_OUTPUT_NAMES = (MANIFEST, SUMMARY, DATA, *(f"{table}.{suffix}" for table in (GAMES, CARDS) for suffix in (*FORMATS, f"{CSV}.schema.json")))


def clear_study(out: Path) -> None:
    """Delete the results a study wrote into ``out`` (its chunks, tables, manifest and summary); nothing else."""
    shutil.rmtree(out / CHUNKS, ignore_errors=True)
    for name in _OUTPUT_NAMES:
        (out / name).unlink(missing_ok=True)


def read_manifest(out: Path) -> dict[str, Any] | None:
    """The manifest of the study in ``out``, or None if there is none."""
    file = out / MANIFEST
    if not file.exists():
        return None
    data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return data


def _differences(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    words = []
    for key in mine:
        if mine[key] != theirs.get(key):
            if key == "data":
                changed = sorted(
                    name for name in set(mine[key]) | set(theirs.get(key, {})) if mine[key].get(name) != theirs.get(key, {}).get(name)
                )
                words.append("other data file contents (option " + ", ".join(changed) + ")")
            else:
                words.append(f"{key} {json.dumps(theirs.get(key))} there, {json.dumps(mine[key])} here")
    return words


def check_folder(study: Study, out: str | Path, fresh: bool = False) -> None:
    """Raise :class:`StudyMismatch` if ``out`` holds a study with other parameters (and ``fresh`` is not set)."""
    manifest = read_manifest(Path(out))
    if manifest is None or fresh:
        return
    differences = _differences(study.identity(), manifest.get("identity", {}))
    if differences:
        raise StudyMismatch(
            f"{out} holds a different study ({'; '.join(differences)}); rerun with --fresh to replace it, or choose another --out"
        )


def _open_folder(study: Study, out: Path, fresh: bool) -> str:
    """Check (or reset) the folder and write the manifest; return the table format to use."""
    check_folder(study, out, fresh)
    out.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(out)
    if manifest is not None and fresh:
        clear_study(out)
        manifest = None
    fmt = str(manifest.get("storage", default_format())) if manifest is not None else default_format()
    runs = list(manifest.get("runs", [])) if manifest is not None else []
    data = {"format": STUDY_FORMAT, "identity": study.identity(), "study": study.to_json(), "storage": fmt, "runs": runs}
    _write_json(out / MANIFEST, data)
    if not (out / DATA).exists():
        _write_json(out / DATA, data_snapshot(get_game(study.game), study.num_players, study.options))
    return fmt


def _write_json(file: Path, data: Any) -> None:
    """Write ``data`` as JSON under a temporary name, then move it into place (a file that exists is complete)."""
    temporary = file.with_name(f".{file.name}.tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    temporary.replace(file)


def _record_run(out: Path, backend: str, played: int, seconds: float, first: bool) -> None:
    """Add (``first``) or update this run's entry in the manifest: how many games it played and how long it took so far."""
    manifest = read_manifest(out) or {}
    runs = list(manifest.get("runs", []))
    entry = {"backend": backend, "games_played": played, "seconds": round(seconds, 3)}
    if first or not runs:
        runs.append(entry)
    else:
        runs[-1] = entry
    manifest["runs"] = runs
    _write_json(out / MANIFEST, manifest)


def read_study_data(out: str | Path) -> dict[str, Any] | None:
    """The data snapshot of the study in ``out`` (``data.json``), or None for a study written before it was kept."""
    file = Path(out) / DATA
    if not file.exists():
        return None
    data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return data


def _write_chunk(out: Path, chunk: range, rows: Sequence[GameResult], fmt: str, tally: CardTally) -> list[dict[str, Any]]:
    """Write one finished chunk; add its cards to ``tally`` and return its games rows (so the merge need not read them back)."""
    folder = out / CHUNKS
    folder.mkdir(exist_ok=True)
    ordered = sorted(rows, key=lambda row: row.index)
    cards = [card for row in ordered for card in card_rows(row)]
    games = [game_row(row) for row in ordered]
    # Cards first: the games table is the mark of a finished chunk.
    with TableWriter(folder / _chunk_name(CARDS, chunk), fmt, CARD_KINDS) as writer:  # known columns: no inference over every cell
        writer.write(cards)
    write_table(folder / _chunk_name(GAMES, chunk), games, fmt)
    tally.add(cards)
    return games


def run_study(
    study: Study, out: str | Path, backend: Backend | None = None, progress: StudyProgress | None = None, fresh: bool = False
) -> StudyRun:
    """Play the study's missing chunks into ``out``, then write and return all of its rows (see the module docstring).

    Raises :class:`StudyMismatch` if ``out`` holds another study (unless ``fresh``).
    On KeyboardInterrupt the finished chunks stay on disk for the next run.
    """
    folder = Path(out)
    runner = backend or LocalBackend()
    fmt = _open_folder(study, folder, fresh)
    chunks = study.chunks()
    missing = [chunk for chunk in chunks if find_table(folder / CHUNKS / _chunk_name(GAMES, chunk)) is None]
    tasks = study.tasks()
    pending = [task for chunk in missing for task in tasks[chunk.start : chunk.stop]]
    reused = study.games - len(pending)
    if progress is not None:
        progress.start(study.games, reused)
    chunk_of = {index: chunk for chunk in missing for index in chunk}
    waiting: dict[range, list[GameResult]] = {chunk: [] for chunk in missing}
    # Chunks played now are tallied while the workers play on, so the merge only reads back earlier runs' chunks.
    played: dict[range, list[dict[str, Any]]] = {}
    tally = CardTally()
    started = time.perf_counter()
    describe = runner.describe()
    done = 0
    if pending:
        _record_run(folder, describe, 0, 0.0, first=True)
    for _, row in runner.run(pending):
        chunk = chunk_of[row.index]
        waiting[chunk].append(row)
        done += 1
        if len(waiting[chunk]) == len(chunk):
            played[chunk] = _write_chunk(folder, chunk, waiting.pop(chunk), fmt, tally)
            _record_run(folder, describe, done, time.perf_counter() - started, first=False)  # kept if the run is interrupted
        if progress is not None:
            progress.advance(row)
    seconds = time.perf_counter() - started
    if pending:
        _record_run(folder, describe, done, seconds, first=False)
    games, cards = merge_chunks(folder, chunks, fmt, played, tally)
    write_table(folder / GAMES, games, fmt)
    return StudyRun(study, folder, games, results_from_tables(games, ()), cards, len(pending), reused, seconds, describe)


def merge_chunks(
    out: Path,
    chunks: Sequence[range],
    fmt: str,
    played: Mapping[range, list[dict[str, Any]]] | None = None,
    tally: CardTally | None = None,
) -> tuple[list[dict[str, Any]], CardTally]:
    """The games rows of the given chunks in index order, and their card tally; writes the merged cards table on the way.

    ``played`` holds the games rows of chunks written in this run, already
    counted in ``tally``; every other chunk is read back from disk. Card rows
    are copied one chunk at a time and never held all at once.
    """
    played = played or {}
    tally = tally if tally is not None else CardTally()
    games: list[dict[str, Any]] = []
    with TableWriter(out / CARDS, fmt, CARD_KINDS) as writer:
        for chunk in chunks:
            games_file = find_table(out / CHUNKS / _chunk_name(GAMES, chunk))
            cards_file = find_table(out / CHUNKS / _chunk_name(CARDS, chunk))
            if games_file is None or cards_file is None:
                raise GreenlightError(f"chunk {chunk.start}-{chunk.stop - 1} of {out} is missing; rerun the study to play it")
            if chunk in played:
                games.extend(played[chunk])
            else:
                games.extend(read_table(games_file))
                tally.add(read_table(cards_file))
            writer.copy(cards_file)
    return games, tally


def load_study(out: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished study folder's manifest and games rows (from ``games.*``)."""
    folder = Path(out)
    manifest = read_manifest(folder)
    games_file = find_table(folder / GAMES)
    if manifest is None or games_file is None:
        raise OptionError(f"{folder} holds no finished study (no manifest.json and games table); run greenlight simulate into it first")
    return manifest, read_table(games_file)
