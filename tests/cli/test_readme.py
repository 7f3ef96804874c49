"""Every ``greenlight`` terminal example of the README runs as written (people replaced by bots) to the end."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import greenlight

README = Path(__file__).resolve().parents[2] / "README.md"
#: Search bots think about a second a move; the examples are about the command line, not the bots.
FAST = {"bot:hard": "bot:random", "bot:expert": "bot:random"}


def examples(prefix: str) -> list[list[str]]:
    """The README's shell lines starting with ``greenlight <prefix>``, as argument lists (comments dropped)."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    lines = [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith(f"greenlight {prefix}")]


def as_bots(args: list[str]) -> list[str]:
    return [{"human": "bot:random", **FAST}.get(arg, arg) for arg in args]


PLAYS = [args for args in examples("play") if "--resume" not in args]


def played(args: list[str]) -> str:
    """The game an example plays: its first argument, or the game of the position file it starts from."""
    if "--position" in args:
        return str(json.loads((README.parent / args[args.index("--position") + 1]).read_text())["game"])
    return args[1]


def test_the_readme_shows_examples_of_every_use() -> None:
    assert len(PLAYS) >= 3 and {played(args) for args in PLAYS} == {"cinecitta", "maybe-movies", "movie-empire"}
    assert any("--position" in args for args in PLAYS)
    assert any("--resume" in args for args in examples("play")) and examples("rules")


def from_checkout(args: list[str]) -> list[str]:
    """The example's arguments to run in another folder: the checkout's files it names (a position) by full path."""
    return [str(README.parent / arg) if (README.parent / arg).is_file() and "/" in arg else arg for arg in args]


@pytest.mark.parametrize(
    "args",
    PLAYS,
    ids=[f"{played(args)}{'-position' if '--position' in args else ''}{'-record' if '--record' in args else ''}" for args in PLAYS],
)
def test_each_readme_play_example_plays_to_the_end(args: list[str], tmp_path: Path) -> None:
    # In a folder of its own: an example that saves a record writes it there, not into the checkout.
    result = greenlight(*as_bots(from_checkout(args)), "--json", home=tmp_path, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout[-2000:]
    assert '"winners"' in result.stdout


def test_the_readme_resume_example_carries_on_the_latest_game(tmp_path: Path) -> None:
    [resume] = [args for args in examples("play") if "--resume" in args]
    started = greenlight(*[FAST.get(arg, arg) for arg in PLAYS[0]], stdin="1\nquit\n", home=tmp_path)
    assert started.returncode == 1 and "Game stopped and saved" in started.stdout
    # The deal is secret, so the game may warn about a move ("Play it anyway? [y/N]"): "y" plays it (and at a
    # plain prompt it is only refused as no action).
    finished = greenlight(*resume, stdin="1\ny\n" * 400, home=tmp_path, timeout=600)
    assert finished.returncode == 0, finished.stderr + finished.stdout[-2000:]
    assert "Resuming the latest unfinished game" in finished.stdout and "Winner:" in finished.stdout


def test_the_readme_position_and_review_examples_run_as_written_one_after_another(tmp_path: Path) -> None:
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    [block] = [block for block in blocks if "greenlight review" in block]
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    commands = [from_checkout(shlex.split(line)[1:]) for line in lines if line.startswith("greenlight ") and "human" not in line]
    assert [args[0] for args in commands] == ["play", "position", "review"]
    for args in commands:
        # The review's search is cut short: the example is about the commands and the files they write.
        result = greenlight(*args, *(["--seconds", "0.02"] if args[0] == "review" else []), home=tmp_path, cwd=tmp_path, timeout=600)
        assert result.returncode == 0, (args, result.stderr[-2000:], result.stdout[-2000:])
    position = json.loads((tmp_path / "after-12.json").read_text())
    assert position["game"] == "cinecitta"
    assert (tmp_path / "review" / "review.json").is_file() and (tmp_path / "review" / "review.html").is_file()


def test_the_readme_rules_example_prints_the_rules(tmp_path: Path) -> None:
    for args in examples("rules"):
        result = greenlight(*args, home=tmp_path)
        assert result.returncode == 0, result.stderr
        assert len(result.stdout) > 2000


def test_every_file_the_readme_links_exists() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/screenshots/") for link in local), "the README shows the tables"
    missing = [link for link in local if not (README.parent / link).exists()]
    assert not missing, f"the README links files that do not exist: {missing}"


# -- every example works after the README's first command ----------------------------------------------------------

#: What a README example needs beyond what ``scripts/serve`` (the README's first command) installs, which is the
#: players' part (``pip install -e .``): the extra of pyproject.toml that holds it. (Checked by hand in a fresh
#: virtual environment: without the extra, these stop with "the report needs matplotlib", "No module named
#: 'gymnasium'", "no module psycopg".)
EXTRA_NEEDED = {
    "greenlight simulate": "sim",
    "greenlight data": "sim",
    "greenlight sweep": "sim",
    "greenlight balance": "sim",
    "--db postgresql": "postgres",
    "import greenlight.rl": "rl",
    "pyspiel": "rl",
}


def readme_example_lines() -> list[str]:
    """Every line of the README's bash and python blocks, in order (comments dropped)."""
    blocks = re.findall(r"```(?:bash|python)\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    return [line.split("  #", 1)[0].strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_every_readme_example_installs_what_it_needs_after_the_first_command() -> None:
    lines = readme_example_lines()
    assert lines[0].startswith("scripts/serve"), "the README starts by installing"
    pyproject = (README.parent / "pyproject.toml").read_text(encoding="utf-8")
    installed: set[str] = set()
    for line in lines:
        named = re.search(r"pip install -e '\.\[([a-z,]+)\]'", line)
        if named:
            installed |= set(named.group(1).split(","))
        for marker, extra in EXTRA_NEEDED.items():
            if marker in line:
                assert re.search(rf"^{extra} = \[", pyproject, flags=re.M), f"pyproject.toml has no extra {extra}"
                assert extra in installed, f"the README runs {line!r} before installing '.[{extra}]'"


#: The design examples as written, with fewer games (they are about the commands, not the statistics).
#: (A balance run needs at least 2 games for each of its 5 values of the 3 cards it sweeps, and 20 for its study: 50.)
FEWER = {"2000": "4", "400": "4", "6000": "50"}


@pytest.mark.slow
def test_the_readme_design_examples_run_as_written(tmp_path: Path) -> None:
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    [design] = [block for block in blocks if "greenlight simulate" in block]
    lines = [line.split("#", 1)[0].strip() for line in design.splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("greenlight ")]
    assert any(args[0] == "simulate" for args in commands)
    for args in commands:
        args = [FEWER.get(arg, arg) for arg in args]
        result = greenlight(*args, home=tmp_path, timeout=900, cwd=tmp_path)
        assert result.returncode == 0, (args, result.stderr[-2000:], result.stdout[-2000:])
    # What the README promises: rows as Parquet, a report with plots, the comparison.
    assert (tmp_path / "study-a" / "games.parquet").is_file() and (tmp_path / "study-a" / "report.html").is_file()
    assert list((tmp_path / "study-a").glob("*.png")) and (tmp_path / "study-b" / "compare.html").is_file()


@pytest.mark.slow
def test_the_readme_research_example_runs_as_written(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    [research] = [block for block in blocks if "greenlight.rl" in block]
    result = subprocess.run([sys.executable, "-c", research], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
