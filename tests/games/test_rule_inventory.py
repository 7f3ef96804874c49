"""Each game's inventory of ties, tie-breaks and defined terms (``docs/<game>.md``) names one test per rule, and
every test of ``test_ties_and_terms.py`` is in it: a rule without a test, or a test without its rule, fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("cinecitta", "maybe_movies", "movie_empire")
SECTION = "## Ties, tie-breaks and defined terms"


def inventory(game: str) -> list[tuple[str, str, str]]:
    """The inventory table's rows (rule, what it decides, test node id) of ``docs/<game>.md``."""
    text = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    assert SECTION in text, f"docs/{game}.md has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 3 and not set(cells[0]) <= set("-: ") and cells[0] != "Rule":
            rows.append((cells[0], " | ".join(cells[1:-1]), cells[-1].strip("`")))
    return rows


def defined_tests(path: Path) -> list[str]:
    """The test functions defined at the top level of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_the_inventory_names_one_existing_test_and_every_test_has_its_rule(game: str) -> None:
    rows = inventory(game)
    assert len(rows) >= 20, f"docs/{game}.md: an inventory of {len(rows)} rows is too short to be every tie and term"
    path = f"tests/games/{game}/test_ties_and_terms.py"
    named = []
    for rule, what, node in rows:
        assert rule and what, f"docs/{game}.md: a row without its rule id or what it decides: {node}"
        file, _, test = node.partition("::")
        assert file == path and re.fullmatch(r"test_\w+", test), f"docs/{game}.md: {node!r} is not a test of {path}"
        named.append(test)
    defined = defined_tests(ROOT / path)
    assert len(named) == len(set(named)), f"docs/{game}.md names a test twice"
    assert set(named) - set(defined) == set(), f"docs/{game}.md names tests that do not exist"
    assert set(defined) - set(named) == set(), f"{path} has tests the inventory of docs/{game}.md does not name"


@pytest.mark.parametrize("game", GAMES)
def test_every_test_of_the_inventory_cites_its_rule_in_its_docstring(game: str) -> None:
    tree = ast.parse((ROOT / "tests" / "games" / game / "test_ties_and_terms.py").read_text(encoding="utf-8"))
    rules = {node.split("::")[1]: rule for rule, _, node in inventory(game)}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in rules:
            cited = re.findall(r"[§A-Z]?\d+(?:\.\d+)*[a-z]?", rules[node.name])
            docstring = ast.get_docstring(node) or ""
            assert any(rule in docstring for rule in cited), f"{game}: {node.name}'s docstring does not cite {rules[node.name]}"
