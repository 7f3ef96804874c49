"""Player words for every game: each component of the data files is worded, and no word reads like data or code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.data import load_data_file
from greenlight.core.registry import all_games, companion_file, get_game
from greenlight.core.words import Component, bare_codes, jargon
from greenlight.web.views import game_data_dir

GAMES = sorted(all_games())


def records(value: Any) -> list[dict[str, Any]]:
    """Every record (a table with an ``id``) anywhere in a data file."""
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), str):
                found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def data_records(game_id: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(game_data_dir(get_game(game_id))).iterdir()):
        for record in records(load_data_file(path)):
            found[record["id"]] = record
    return found


def field_names(game_id: str) -> set[str]:
    """Data-file field names that are not English words (``req_G``, ``wildcard_profit``, ``x``)."""
    names: set[str] = set()
    for record in data_records(game_id).values():
        for key in record:
            if "_" in key or any(char.isupper() for char in key) or len(key) <= 2:
                names.add(key)
    return names


@pytest.mark.parametrize("game_id", GAMES)
def test_every_component_of_the_data_files_is_worded(game_id: str) -> None:
    game = get_game(game_id)
    components = game.components()
    worded = {component.id for component in components}
    missing = sorted(set(data_records(game_id)) - worded)
    assert not missing, f"{game_id}: components without words: {missing[:10]}"
    assert all(isinstance(component, Component) and component.name and component.text for component in components)


@pytest.mark.parametrize("game_id", GAMES)
def test_component_words_hold_no_field_names_keys_or_expressions(game_id: str) -> None:
    game = get_game(game_id)
    fields = field_names(game_id)
    components = game.components()
    for component in components:
        words = f"{component.kind}: {component.name}. {component.text}"
        assert not jargon(words), f"{component.id} reads like code: {jargon(words)} in {words!r}"
        named_fields = [field for field in fields if re.search(rf"(?<![\w-]){re.escape(field)}(?![\w-])", words)]
        assert not named_fields, f"{component.id} shows data-file field names {named_fields}: {words!r}"
        assert not bare_codes(component.text, [other for other in components if other.id != component.id]), (
            f"{component.id} names other components by code only: {component.text!r}"
        )


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_rules_for_players(game_id: str) -> None:
    game = get_game(game_id)
    path = companion_file(game, "guide.md")
    assert path is not None, f"{game_id} has no guide.md (the rules for players in docs/rules/)"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and len(text) > 4000
    for option in game.spec.options:
        if option.kind == "bool":
            assert option.name.replace("_", " ").lower() in text.lower() or option.help.split(".")[0].lower() in text.lower(), (
                f"{game_id}: the rules do not cover the variant {option.name}"
            )
