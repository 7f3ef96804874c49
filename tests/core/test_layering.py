"""The layering of docs/architecture.md, enforced: which part of greenlight may import which, and no game names.

Games are plugins (``greenlight.core.registry``): the contract and the interfaces
know games only through the registry, so a game installed from elsewhere is
served exactly like the built-in three.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from greenlight.core.registry import all_games

SOURCE = Path(__file__).resolve().parents[2] / "src" / "greenlight"

#: What each layer may import from greenlight (besides itself), as docs/architecture.md draws it.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "games": {"core"},
    "bots": {"core"},
    "testing": {"core"},
    "benchmark": {"core"},
    "sim": {"core", "bots"},
    "rl": {"core", "bots"},
    "web": {"core", "bots", "sim"},
    "cli": {"core", "bots", "sim", "web", "benchmark"},
}
#: Layers that may not name a game in their code (docstring examples may play one).
GAME_FREE = ("core", "bots", "testing", "benchmark", "sim", "rl", "web", "cli")


def layer_of(path: Path) -> str:
    parts = path.relative_to(SOURCE).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def greenlight_imports(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("greenlight.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("greenlight."):
            found.append((node.lineno, node.module))
    return found


def docstrings(tree: ast.AST) -> set[int]:
    owners = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, owners) and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }


def game_name_pattern() -> re.Pattern[str]:
    """Every registered game's id and the spellings the registry accepts for it (maybe-movies, maybe_movies, ...)."""
    words = set()
    for game_id in all_games():
        parts = [re.escape(part) for part in game_id.split("-")]
        words.add("[-_ ]?".join(parts))
    return re.compile(r"\b(" + "|".join(sorted(words)) + r")\b", re.IGNORECASE)


MODULES = sorted(SOURCE.rglob("*.py"))


def test_every_layer_is_known() -> None:
    assert {layer_of(path) for path in MODULES} - {"__init__"} <= set(ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(SOURCE)))
def test_a_module_imports_only_the_layers_below_it(path: Path) -> None:
    layer = layer_of(path)
    if layer == "__init__":
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for line, module in greenlight_imports(tree):
        target = module.split(".")[1]
        if target == layer:
            if layer == "games" and path.relative_to(SOURCE).parts[1] != module.split(".")[2]:
                wrong.append(f"line {line}: {module} (one game package may not import another)")
            continue
        if target not in ALLOWED[layer]:
            wrong.append(f"line {line}: {module} ({layer} may import only {', '.join(sorted(ALLOWED[layer])) or 'itself'})")
    assert not wrong, f"{path.relative_to(SOURCE)} breaks the layering:\n" + "\n".join(wrong)


@pytest.mark.parametrize("layer", GAME_FREE)
def test_no_layer_outside_the_games_names_a_game(layer: str) -> None:
    pattern = game_name_pattern()
    found = []
    for path in MODULES:
        if layer_of(path) != layer:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip and pattern.search(node.value):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: {node.value[:70]!r}")
    for path in (SOURCE / layer).rglob("*") if (SOURCE / layer).is_dir() else ():
        if path.suffix in (".js", ".html", ".css") and pattern.search(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(SOURCE)} names a game")
    assert not found, "code outside the game packages names a game (look it up through the registry instead):\n" + "\n".join(found)


def test_core_docstrings_play_no_game() -> None:
    pattern = game_name_pattern()
    named = [str(path.relative_to(SOURCE)) for path in (SOURCE / "core").glob("*.py") if pattern.search(path.read_text(encoding="utf-8"))]
    assert not named, f"core must not depend on any game, not even in its examples: {named}"


def test_the_checks_see_a_game_name_and_a_forbidden_import() -> None:
    """The scans above are not vacuous: they catch a planted import and a planted game name in either spelling."""
    game_id = next(iter(all_games()))
    planted = ast.parse(f'import greenlight.games.x\nTUNING = {{"{game_id.replace("-", "_")}": 1, "{game_id.upper()}": 2}}\n')
    assert [module for _, module in greenlight_imports(planted)] == ["greenlight.games.x"]
    texts = [node.value for node in ast.walk(planted) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    assert len([text for text in texts if game_name_pattern().search(text)]) == 2
