"""Custom data paths: which option --cards sets, digests of files and folders, and shipping them to (Ray) workers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.games.movie_empire.cards import data_file
from greenlight.sim import ray_backend
from greenlight.sim.datafiles import card_option, data_digests, digest, materialize, pack, path_options
from greenlight.sim.ray_backend import play_chunk_with_data, shipped_data
from greenlight.sim.runner import GameTask, play_game


def test_cards_sets_each_games_data_option() -> None:
    assert card_option(get_game("cinecitta")) == "data"
    assert card_option(get_game("maybe-movies")) == "data"
    assert card_option(get_game("movie-empire")) == "data"
    assert path_options(get_game("movie-empire")) == ["data"]


def test_a_digest_follows_the_contents_not_the_name(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text("x = 1\n")
    second.write_text("x = 1\n")
    assert digest(first) != digest(second)  # the name is part of a file's digest (it decides the format)
    second.unlink()
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(first, copy / "a.toml")
    before = digest(first)
    assert digest(copy / "a.toml") == before
    first.write_text("x = 2\n")
    assert digest(first) != before
    folder_digest = digest(copy)
    (copy / "extra.toml").write_text("")
    assert digest(copy) != folder_digest
    with pytest.raises(OptionError, match="does not exist"):
        digest(tmp_path / "none")
    assert data_digests(get_game("cinecitta"), {"data": None}) == {}


def test_packed_folders_are_rebuilt_under_their_digest(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    (folder / "sub").mkdir(parents=True)
    (folder / "plans.toml").write_text("a = 1\n")
    (folder / "sub" / "x.toml").write_text("b = 2\n")
    packed = pack(folder)
    root = tmp_path / "worker"
    restored = materialize(packed, root)
    assert restored.name == "data" and (restored / "plans.toml").read_text() == "a = 1\n"
    assert (restored / "sub" / "x.toml").read_text() == "b = 2\n"
    assert materialize(packed, root) == restored  # a second task on the same machine reuses the copy
    assert digest(restored) == digest(folder)


def test_shipped_data_gives_the_rows_of_the_original_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A Movie Empire data folder holding one edited file; the others fall back to the bundled ones.
    folder = tmp_path / "designer"
    folder.mkdir()
    trends = Path(data_file(None, "trends")).read_text(encoding="utf-8")
    (folder / "trends.toml").write_text(trends, encoding="utf-8")
    options = {"data": str(folder)}
    tasks = [GameTask("movie-empire", 2, seed, ("heuristic", "random"), (1, 2), options, index=seed, stats=True) for seed in range(2)]
    expected = [play_game(task) for task in tasks]
    shipped = shipped_data(tasks)
    assert list(shipped) == [str(folder)]
    monkeypatch.setattr(ray_backend, "DATA_ROOT", tmp_path / "worker-tmp")
    shutil.rmtree(folder)  # the worker must not need the designer's folder
    rows = play_chunk_with_data(tasks, shipped)
    assert rows == expected
    assert all(row.options["data"] == str(folder) for row in rows)
