"""Packaging: the distribution's name, version, extras and data files as a researcher installing a wheel gets them.

The wheel is really built (pip, setuptools) from a copy of the project, and its metadata read from inside it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import greenlight

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the project (the checkout itself is left untouched)."""
    copy = tmp_path_factory.mktemp("project")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = subprocess.run(
        [*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (found,) = out.glob("*.whl")
    return found


def _metadata(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [item for item in archive.namelist() if item.endswith(".dist-info/METADATA")]
        return archive.read(name).decode().splitlines()


def test_the_distribution_is_named_greenlight_boardgames_and_imports_as_greenlight(wheel: Path) -> None:
    # "greenlight" on PyPI is an unrelated package; the wheel's file name and metadata carry the free name.
    assert wheel.name == f"greenlight_boardgames-{greenlight.__version__}-py3-none-any.whl"
    metadata = _metadata(wheel)
    assert "Name: greenlight-boardgames" in metadata
    assert f"Version: {greenlight.__version__}" in metadata
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert "greenlight/__init__.py" in names
    assert "greenlight/py.typed" in names
    for game in ("cinecitta", "maybe_movies", "movie_empire"):
        assert any(name.startswith(f"greenlight/games/{game}/data/") for name in names), game


def test_the_train_extra_takes_any_recent_torch_not_one_cpu_build(wheel: Path) -> None:
    torch = [line for line in _metadata(wheel) if line.startswith("Requires-Dist: torch")]
    assert torch == ['Requires-Dist: torch>=2.3; extra == "train"']
    extras = {line.removeprefix("Provides-Extra: ") for line in _metadata(wheel) if line.startswith("Provides-Extra: ")}
    assert extras == {"dev", "notify", "sim", "rl", "postgres", "train", "all"}


def test_the_all_extra_names_this_distribution_so_it_installs_every_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "greenlight-boardgames"
    (everything,) = project["optional-dependencies"]["all"]
    assert everything == "greenlight-boardgames[" + ",".join(["dev", "sim", "rl", "postgres", "train", "notify"]) + "]"


def test_the_citation_file_names_this_version() -> None:
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^cff-version: 1\.2\.0$", citation, re.MULTILINE)
    assert re.search(rf'^version: "{re.escape(greenlight.__version__)}"$', citation, re.MULTILINE)
    assert re.search(r"^title: ", citation, re.MULTILINE) and re.search(r"^authors:", citation, re.MULTILINE)
