"""Data files (§2.10): the bundled tables, validation errors that name file, card and field, and custom folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from greenlight.core.errors import DataError
from greenlight.games.movie_empire import GAME
from greenlight.games.movie_empire.cards import DATA_FILES, STAGES, load_tables, parse_requirement
from tests.games.movie_empire.helpers import TABLE

BUNDLED = Path(__file__).resolve().parents[3] / "src" / "greenlight" / "games" / "movie_empire" / "data"


def test_bundled_tables_match_section_2() -> None:
    counts = {stage: 0 for stage in STAGES}
    jokers = 0
    for card in TABLE.production.values():
        if card.kind == "joker":
            jokers += card.copies
        else:
            counts[STAGES[card.stage]] += card.copies
    assert counts == {"G": 14, "B": 20, "Y": 16, "R": 12} and jokers == 6 and len(TABLE.production_deck) == 68
    assert len(TABLE.stars) == 24 and all(star.pp == star.cost - 1 for star in TABLE.stars.values())
    for genre in "ACD":
        assert sum(genre not in star.banned for star in TABLE.stars.values()) == 16
        scripts = [s for s in TABLE.scripts.values() if s.genre == genre]
        assert len(scripts) == 12 and sum(s.pp for s in scripts) == 80
        assert all(s.pp == 2 * sum(s.needs) - 1 for s in scripts)
    assert len(TABLE.trends) == 17 and len(TABLE.plans) == 13
    assert [TABLE.sympathy[level].budget for level in range(5, -6, -1)] == [9, 8, 7, 6, 6, 5, 4, 4, 3, 2, 1]
    assert TABLE.trends["TR01"].waives_long_production_sympathy


def test_requirement_grammar_supports_every_clause() -> None:
    text = "genre=A & period>=2 & period<=5 & n(B)>=1 & n(G)=0 & n(each)>=1 & stars>=1 & stars=0 & has(Catering) & script_met"
    assert len(parse_requirement(text)) == 10
    with pytest.raises(ValueError, match="not in the grammar"):
        parse_requirement("n(B)>1")


def copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    for name in DATA_FILES:
        shutil.copy(BUNDLED / f"{name}.toml", folder / f"{name}.toml")
    return folder


def replace_in(folder: Path, name: str, old: str, new: str) -> None:
    file = folder / f"{name}.toml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_custom_folder_replaces_only_the_files_it_holds(tmp_path: Path) -> None:
    folder = tmp_path / "custom"
    folder.mkdir()
    text = (BUNDLED / "stars.toml").read_text(encoding="utf-8").replace('name = "Benny Crumb"', 'name = "Benny Big"')
    (folder / "stars.toml").write_text(text, encoding="utf-8")
    table = load_tables(str(folder))
    assert table.stars["ST01"].name == "Benny Big" and table.scripts == TABLE.scripts
    state = GAME.new_state(2, seed=1, options={"data": str(folder)})
    assert state.table is table


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "stars",
            'requirement = "has(Catering)"',
            'requirement = "has(Caterer)"',
            "stars.toml: card ST05, field requirement: has(Caterer) names no base card",
        ),
        (
            "stars",
            'requirement = "n(Y)>=1"',
            'requirement = "n(Y)>1"',
            "stars.toml: card ST07, field requirement: clause 'n(Y)>1' is not in the grammar",
        ),
        (
            "production_cards",
            'upgrade_of = "PG07"',
            'upgrade_of = "PG99"',
            "production_cards.toml: card PG08, field upgrade_of: PG99 is not a card",
        ),
        (
            "production_cards",
            "cost = 1\npp = 1\ncopies = 3",
            "cost = -1\npp = 1\ncopies = 3",
            "production_cards.toml: card PG01, field cost: must be at least 0",
        ),
        ("scripts", 'genre = "A"', 'genre = "X"', "scripts.toml: card SA01, field genre: must be one of A, C, D"),
        ("trends", 'market = "USA"', 'market = "MARS"', "trends.toml: card TR01, field market: must be one of USA, EUR, CHN, none"),
        ("annual_plans", 'parameters = "B"', 'parameters = "Q"', "annual_plans.toml: card AP04, field parameters: must be one stage"),
        (
            "annual_plans",
            'kind = "instant"',
            'kind = "lasting"',
            "annual_plans.toml: card AP10, field kind: effect lose_money belongs to kind instant",
        ),
        ("sympathy_bar", "level = -5", "level = -6", "sympathy_bar.toml: card -6, field level: must be at least -5"),
        ("board_spaces", 'task = "overtime"', 'task = "nap"', "board_spaces.toml: card OT1, field task: must be one of"),
    ],
)
def test_errors_name_the_file_the_card_and_the_field(tmp_path: Path, name: str, old: str, new: str, message: str) -> None:
    folder = copy_data(tmp_path)
    replace_in(folder, name, old, new)
    with pytest.raises(DataError) as caught:
        load_tables(str(folder))
    text = str(caught.value)
    assert text.startswith(str(folder.resolve() / f"{name}.toml")) and message in text


def test_trend_count_must_fit_both_game_lengths(tmp_path: Path) -> None:
    folder = copy_data(tmp_path)
    text = (folder / "trends.toml").read_text(encoding="utf-8")
    cut = text.index('[[card]]\nid = "TR17"')
    (folder / "trends.toml").write_text(text[:cut], encoding="utf-8")
    with pytest.raises(DataError, match=r"trends.toml: a full game needs exactly 17 trends \(7 removed \+ 10 rounds\), found 16"):
        load_tables(str(folder))


def test_odd_blue_count_warns(tmp_path: Path) -> None:
    folder = copy_data(tmp_path)
    replace_in(
        folder,
        "production_cards",
        'id = "PB01"\nname = "Catering"\nkind = "base"\nstage = "B"\ncost = 1\npp = 1\ncopies = 3',
        'id = "PB01"\nname = "Catering"\nkind = "base"\nstage = "B"\ncost = 1\npp = 1\ncopies = 4',
    )
    with pytest.warns(UserWarning, match="21 blue cards cannot split evenly; the top pile gets 10"):
        table = load_tables(str(folder))
    state = GAME.new_state(2, seed=0, options={"data": str(folder)})
    assert len(table.production_deck) == 69 and len(state.production_pile) + 3 == 69


def test_missing_folder_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="the data option must name an existing folder"):
        load_tables(str(tmp_path / "nowhere"))
