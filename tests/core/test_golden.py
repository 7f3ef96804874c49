"""Golden games pin how every built-in game plays; a rules change must bump the rules version and say so."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.errors import RecordError
from greenlight.core.game import Game
from greenlight.core.record import Record, replay
from greenlight.core.registry import get_game
from greenlight.testing.conformance import option_matrix
from greenlight.testing.golden import changed_results, check_golden, golden_name, make_golden, unexplained_changes

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("cinecitta", "maybe-movies", "movie-empire")


def golden(game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "tests" / "golden" / f"{game_id}.json").read_text())
    return data


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_game_plays_as_its_golden_games_pin(game_id: str) -> None:
    problems = check_golden(get_game(game_id), golden(game_id))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_golden_games_cover_every_player_count_and_option_combination(game_id: str) -> None:
    game = get_game(game_id)
    pinned = {(entry["num_players"], json.dumps(entry["options"], sort_keys=True)) for entry in golden(game_id)["games"]}
    expected = {(n, json.dumps(game.spec.resolve_options(n, options), sort_keys=True)) for n, options in option_matrix(game)}
    assert pinned == expected


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_the_changelog_names_every_games_current_rules_version(game_id: str) -> None:
    game = get_game(game_id)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"`{re.escape(game.spec.id)}` rules version {re.escape(game.spec.version)}\b", changelog), (
        f"CHANGELOG.md must say what rules version {game.spec.version} of {game.spec.title} changed"
    )


def changed_rule(game: Game[Any]) -> Game[Any]:
    """The same game with one rule changed: the first of several legal actions is no longer allowed."""

    class Changed(type(game)):  # type: ignore[misc]
        def legal_actions(self, state: Any, player: int) -> list[Any]:
            actions: list[Any] = super().legal_actions(state, player)
            return actions[1:] if len(actions) > 1 else actions

    return Changed()


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_changing_a_rule_without_bumping_the_version_fails(game_id: str) -> None:
    game = changed_rule(get_game(game_id))
    problems = check_golden(game, golden(game_id))
    assert problems, "a changed rule went unnoticed"
    assert "must bump spec.version" in problems[0] and "CHANGELOG.md" in problems[0]
    assert "plays differently (first different by move" in problems[1]


def test_bumping_the_version_without_writing_the_golden_games_again_is_named() -> None:
    game = get_game("cinecitta")
    pinned = {**golden("cinecitta"), "version": "0"}
    [problem] = check_golden(game, pinned)
    assert f"are for rules version 0, the game is at {game.spec.version}" in problem and "scripts/golden.py --write cinecitta" in problem


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_record_of_other_rules_is_refused_on_replay_saying_both_versions(game_id: str) -> None:
    game = get_game(game_id)
    record = Record.from_json(golden(game_id)["games"][0]["record"])
    assert replay(record).__class__ is game.new_state(record.num_players, 1, record.options).__class__
    old = Record.from_json({**record.to_json(), "version": "0"})
    with pytest.raises(RecordError, match=rf"version 0, this engine has {re.escape(game.spec.version)}"):
        replay(old)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_golden_result_the_last_rules_bump_changed_is_named_in_its_changelog_entry(game_id: str) -> None:
    game = get_game(game_id)
    unexplained = unexplained_changes(game, golden(game_id), (ROOT / "CHANGELOG.md").read_text())
    assert not unexplained, (
        f"rules version {game.spec.version} of {game.spec.title} changed the result of these golden games, and its CHANGELOG "
        "entry does not name them (in backquotes, with the rule change that explains it): " + "; ".join(unexplained)
    )


def bumped_cinecitta() -> tuple[Game[Any], dict[str, Any], str]:
    """Cinecitta's golden games as if written again under a bump that changed the result of the third one."""
    game = get_game("cinecitta")
    pinned = golden("cinecitta")
    scores = {golden_name(game, entry): list(entry["scores"]) for entry in pinned["games"]}
    third = golden_name(game, pinned["games"][2])
    scores[third] = [score + 1 for score in scores[third]]
    return game, {**pinned, "previous": {"version": "0", "scores": scores}}, third


def test_a_bump_whose_changelog_entry_does_not_name_a_changed_golden_result_fails() -> None:
    game, pinned, third = bumped_cinecitta()
    assert third == "3 players, seed 1, movie_awards"
    assert changed_results(game, pinned) == [third]
    entry = f"- `cinecitta` rules version {game.spec.version}: awards are counted differently.\n- `other` rules version 1\n"
    assert unexplained_changes(game, pinned, entry) == [third]
    # Named in another game's entry, or without its backquotes (a prefix of other names), it is still unexplained.
    elsewhere = f"- `cinecitta` rules version {game.spec.version}: awards.\n- `maybe-movies` rules version 9: `{third}`\n"
    assert unexplained_changes(game, pinned, elsewhere) == [third]
    bare = f"- `cinecitta` rules version {game.spec.version}: awards change {third}.\n"
    assert unexplained_changes(game, pinned, bare) == [third]
    named = f"- `cinecitta` rules version {game.spec.version}: awards are counted differently\n  (`{third}`: the award).\n"
    assert unexplained_changes(game, pinned, named) == []


def test_writing_golden_games_again_keeps_the_replaced_versions_results_only_across_a_bump() -> None:
    game = get_game("cinecitta")
    pinned = golden("cinecitta")
    before = {**pinned, "version": "0", "games": pinned["games"][:4]}
    written = make_golden(game, seeds=(1,), before=before)
    assert written["previous"] == {"version": "0", "scores": {golden_name(game, entry): entry["scores"] for entry in pinned["games"][:4]}}
    # Same seeds, same rules: nothing the bump changed.
    assert changed_results(game, written) == []
    again = make_golden(game, seeds=(1,), before=written)
    assert again["previous"] == written["previous"]
    assert "previous" not in make_golden(game, seeds=(1,), before={**pinned, "games": []})
