"""Every ``greenlight`` terminal example of the README runs as written (people replaced by bots) to the end."""

from __future__ import annotations

import re
import shlex
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
        import json

        return str(json.loads((README.parent / args[args.index("--position") + 1]).read_text())["game"])
    return args[1]


def test_the_readme_shows_examples_of_every_use() -> None:
    assert len(PLAYS) >= 3 and {played(args) for args in PLAYS} == {"cinecitta", "maybe-movies", "movie-empire"}
    assert any("--position" in args for args in PLAYS)
    assert any("--resume" in args for args in examples("play")) and examples("rules")


@pytest.mark.parametrize("args", PLAYS, ids=[f"{played(args)}{'-position' if '--position' in args else ''}" for args in PLAYS])
def test_each_readme_play_example_plays_to_the_end(args: list[str], tmp_path: Path) -> None:
    result = greenlight(*as_bots(args), "--json", home=tmp_path, timeout=600)
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
