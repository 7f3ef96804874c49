from __future__ import annotations

from pathlib import Path

import pytest

from greenlight.core.data import FieldSpec, load_data_file, read_records
from greenlight.core.errors import DataError, OptionError
from greenlight.core.outcome import competition_ranks, outcome_from_keys
from greenlight.core.registry import get_game
from greenlight.core.spec import GameSpec, OptionSpec, OptionValue

SPEC = GameSpec(
    "demo",
    "Demo",
    "1",
    2,
    4,
    (
        OptionSpec("fast", "bool", False, "Fast"),
        OptionSpec("big", "bool", False, "Big board", allowed_players=(3, 4)),
        OptionSpec("level", "int", 1, "Level", minimum=1, maximum=3),
        OptionSpec("mode", "choice", "a", "Mode", choices=("a", "b")),
    ),
    constraints=(lambda n, o: "fast and level 3 do not mix" if o["fast"] and o["level"] == 3 else None,),
)


def test_defaults_are_filled_in() -> None:
    assert SPEC.resolve_options(2) == {"fast": False, "big": False, "level": 1, "mode": "a"}


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (5, {}, "Demo is for 2 to 4 players, not 5"),
        (2, {"big": True}, "option big is only for 3, 4 players, not 2"),
        (2, {"level": 9}, "option level must be at most 3, got 9"),
        (2, {"level": "x"}, "option level must be a whole number"),
        (2, {"mode": "c"}, "option mode must be one of a, b"),
        (2, {"fast": "perhaps"}, "option fast must be true or false"),
        (2, {"colour": "red"}, "Demo has no option 'colour'"),
        (2, {"fast": True, "level": 3}, "fast and level 3 do not mix"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(players: int, options: dict[str, OptionValue], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        SPEC.resolve_options(players, options)


def test_variant_combinations_respect_player_counts() -> None:
    assert len(list(SPEC.variant_combinations(2))) == 2
    assert len(list(SPEC.variant_combinations(3))) == 4


FIELDS = [FieldSpec("id", "str"), FieldSpec("cost", "int", minimum=0), FieldSpec("tags", "list[str]", required=False, default=[])]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"id": "A", "cost": -1}], "x.toml: card A, field cost: must be at least 0, got -1"),
        ([{"id": "A"}], "x.toml: card A, field cost: is missing"),
        ([{"id": "A", "cost": 1, "price": 2}], "x.toml: card A, field price: unknown field"),
        ([{"id": "A", "cost": 1}, {"id": "A", "cost": 2}], "x.toml: card A, field id: duplicate id"),
        ([{"id": "A", "cost": True}], "x.toml: card A, field cost: must be a whole number"),
        ([], "x.toml: expected a non-empty list of cards"),
    ],
)
def test_data_errors_name_file_card_and_field(rows: list[dict[str, object]], message: str) -> None:
    with pytest.raises(DataError) as error:
        read_records("x.toml", rows, FIELDS)
    assert str(error.value).startswith(message)


def test_broken_toml_names_the_file(tmp_path: Path) -> None:
    file = tmp_path / "cards.toml"
    file.write_text("[[card]\nid = 1\n")
    with pytest.raises(DataError, match=r"cards\.toml: not valid TOML"):
        load_data_file(file)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"nope\.toml: cannot read the file"):
        load_data_file(tmp_path / "nope.toml")


def test_competition_ranking_and_shared_wins() -> None:
    assert competition_ranks([3, 5, 5, 1]) == (3, 1, 1, 4)
    outcome = outcome_from_keys([3, 5, 5, 1], [3, 5, 5, 1], [{}, {}, {}, {}])
    assert outcome.winners == (1, 2)
    assert outcome.returns() == (0.0, 0.5, 0.5, 0.0)


def test_ineligible_seats_do_not_win() -> None:
    outcome = outcome_from_keys([0, 0], [(0,), (0,)], [{}, {}], eligible=[False, False])
    assert outcome.winners == ()


@pytest.mark.parametrize(("game_id", "old_name"), [("cinecitta", "cards"), ("maybe-movies", "deck"), ("movie-empire", "data_dir")])
def test_the_data_file_option_is_data_everywhere_and_its_old_name_still_works(game_id: str, old_name: str) -> None:
    game = get_game(game_id)
    assert [spec.name for spec in game.spec.options if spec.kind == "path"] == ["data"]
    resolved = game.spec.resolve_options(game.spec.min_players, {old_name: "mine"})
    assert resolved["data"] == "mine" and old_name not in resolved
    assert game.spec.option(old_name).name == "data"
    with pytest.raises(OptionError, match=f"options data and {old_name} \\(its old name\\) are both given, differently"):
        game.spec.resolve_options(game.spec.min_players, {old_name: "mine", "data": "theirs"})
