"""Studies on disk: chunks, resuming after an interruption, growing a study, refusing to mix studies, CSV fallback."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from greenlight.core.errors import OptionError
from greenlight.games.cinecitta.cards import BUNDLED_CARDS
from greenlight.sim import storage
from greenlight.sim import study as study_module
from greenlight.sim.runner import GameResult, GameTask
from greenlight.sim.study import (
    CHUNKS,
    LocalBackend,
    Study,
    StudyMismatch,
    check_folder,
    load_study,
    make_backend,
    prepare_study,
    run_study,
)


def small_study(games: int = 10, seed: int = 5, **options: object) -> Study:
    return prepare_study("cinecitta", 3, ["heuristic", "random"], games, seed, options, chunk_size=4)  # type: ignore[arg-type]


class CountingBackend:
    """Plays in this process, records which game indices it was asked for, and can stop after some games."""

    name = "counting"

    def __init__(self, stop_after: int | None = None) -> None:
        self.asked: list[int] = []
        self.stop_after = stop_after

    def describe(self) -> str:
        return "counting"

    def run(self, tasks: Sequence[GameTask]) -> Iterator[tuple[int, GameResult]]:
        self.asked.extend(task.index for task in tasks)
        for position, row in LocalBackend(1).run(tasks):
            if self.stop_after is not None and position >= self.stop_after:
                raise KeyboardInterrupt
            yield position, row


def chunk_files(out: Path) -> list[str]:
    return sorted(file.name for file in (out / CHUNKS).iterdir())


def test_chunks_are_written_per_range_and_a_rerun_plays_nothing(tmp_path: Path) -> None:
    study = small_study()
    first = run_study(study, tmp_path, CountingBackend())
    assert chunk_files(tmp_path) == [
        f"{kind}-{start:06d}-{stop:06d}.parquet" for kind in ("cards", "games") for start, stop in ((0, 3), (4, 7), (8, 9))
    ]
    again_backend = CountingBackend()
    again = run_study(study, tmp_path, again_backend)
    assert again_backend.asked == [] and again.played == 0 and again.reused == 10
    assert again.games == first.games and again.read_cards() == first.read_cards() and again.results == first.results


def test_an_interrupted_study_resumes_without_redoing_finished_chunks(tmp_path: Path) -> None:
    study = small_study()
    reference = run_study(study, tmp_path / "whole", LocalBackend(1))
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path / "cut", CountingBackend(stop_after=6))
    # Games 0-5 were played: only the chunk 0-3 was complete when the run stopped.
    assert chunk_files(tmp_path / "cut") == ["cards-000000-000003.parquet", "games-000000-000003.parquet"]
    backend = CountingBackend()
    resumed = run_study(study, tmp_path / "cut", backend)
    assert backend.asked == list(range(4, 10))
    assert (resumed.played, resumed.reused) == (6, 4)
    assert resumed.games == reference.games and resumed.read_cards() == reference.read_cards()


def test_a_lost_chunk_is_played_again(tmp_path: Path) -> None:
    study = small_study()
    reference = run_study(study, tmp_path, LocalBackend(1))
    (tmp_path / CHUNKS / "games-000004-000007.parquet").unlink()
    backend = CountingBackend()
    again = run_study(study, tmp_path, backend)
    assert backend.asked == [4, 5, 6, 7]
    assert again.games == reference.games


def test_more_games_reuse_every_finished_chunk(tmp_path: Path) -> None:
    run_study(small_study(games=10), tmp_path, LocalBackend(1))
    backend = CountingBackend()
    grown = run_study(small_study(games=14), tmp_path, backend)
    # Chunks 0-3 and 4-7 are kept; 8-9 was a short last chunk, so 8-11 and 12-13 are played.
    assert backend.asked == list(range(8, 14))
    assert (grown.played, grown.reused) == (6, 8)
    fresh = run_study(small_study(games=14), tmp_path / "fresh", LocalBackend(1))
    assert grown.games == fresh.games
    assert json.loads((tmp_path / "manifest.json").read_text())["study"]["games"] == 14


def test_a_folder_with_another_study_is_refused_unless_fresh(tmp_path: Path) -> None:
    run_study(small_study(seed=5), tmp_path, LocalBackend(1))
    with pytest.raises(StudyMismatch, match="seed 5 there, 6 here"):
        run_study(small_study(seed=6), tmp_path, LocalBackend(1))
    with pytest.raises(StudyMismatch, match="options"):
        check_folder(small_study(seed=5, movie_awards=True), tmp_path)
    backend = CountingBackend()
    replaced = run_study(small_study(seed=6), tmp_path, backend, fresh=True)
    assert backend.asked == list(range(10)) and replaced.reused == 0
    assert {row["seed"] for row in replaced.games} == {task.seed for task in small_study(seed=6).tasks()}


def test_an_edited_data_file_is_noticed(tmp_path: Path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text(Path(BUNDLED_CARDS).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "study"
    run_study(small_study(data=str(cards)), out, LocalBackend(1))
    check_folder(small_study(data=str(cards)), out)  # same contents: fine
    cards.write_text(cards.read_text(encoding="utf-8").replace("reels = 3", "reels = 4", 1), encoding="utf-8")
    with pytest.raises(StudyMismatch, match=r"other data file contents \(option data\)"):
        check_folder(small_study(data=str(cards)), out)


def test_csv_is_written_when_pyarrow_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parquet = run_study(small_study(games=5), tmp_path / "parquet", LocalBackend(1))
    monkeypatch.setattr(study_module, "default_format", lambda: storage.CSV)
    csv = run_study(small_study(games=5), tmp_path / "csv", LocalBackend(1))
    assert (tmp_path / "csv" / "games.csv").exists() and (tmp_path / "csv" / "cards.csv").exists()
    assert not (tmp_path / "csv" / "games.parquet").exists()
    assert csv.games == parquet.games and csv.read_cards() == parquet.read_cards() and csv.results == parquet.results
    manifest, games = load_study(tmp_path / "csv")
    assert manifest["storage"] == "csv" and games == parquet.games


def test_study_parameters_are_checked_before_any_game() -> None:
    with pytest.raises(OptionError, match="unknown bot"):
        prepare_study("cinecitta", 3, ["heuristic", "grandmaster"], 4, 1)
    with pytest.raises(OptionError, match="at least one game"):
        prepare_study("cinecitta", 3, ["heuristic"], 0, 1)
    with pytest.raises(OptionError, match="does not exist"):
        prepare_study("cinecitta", 3, ["heuristic"], 4, 1, {"data": "/nowhere/cards.toml"})
    with pytest.raises(OptionError, match="only for 4, 5 players"):
        prepare_study("cinecitta", 3, ["heuristic"], 4, 1, {"destination_change": True})
    with pytest.raises(OptionError, match="unknown backend"):
        make_backend("spark")
    with pytest.raises(OptionError, match="--address is for --backend ray"):
        make_backend("local", address="auto")
    with pytest.raises(OptionError, match="holds no finished study"):
        load_study("/nowhere")


def test_the_study_tasks_are_the_arena_tasks_with_statistics() -> None:
    from greenlight.sim.arena import arena_tasks

    study = small_study(games=7)
    tasks = study.tasks()
    assert all(task.stats for task in tasks)
    plain = arena_tasks("cinecitta", 3, study.lineup, 7, 5, study.options)
    assert [(task.seed, task.bots, task.bot_seeds, task.index) for task in tasks] == [
        (task.seed, task.bots, task.bot_seeds, task.index) for task in plain
    ]
