"""``greenlight data``: a template per game from the bundled data, exports and imports through CSV and XLSX with the
game's own validation (errors name file, row, card and column), and the rule parameters listed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

openpyxl = pytest.importorskip("openpyxl")

from greenlight.cli.main import app
from greenlight.core.registry import get_game


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["data", *args])


def said(result: Result) -> str:
    return " ".join(result.output.split())


@pytest.mark.parametrize("game_id", ["cinecitta", "maybe-movies", "movie-empire"])
def test_a_template_holds_the_bundled_data_and_reads_back_the_same(tmp_path: Path, game_id: str) -> None:
    book = tmp_path / "template.xlsx"
    assert run("template", game_id, "--out", str(book)).exit_code == 0
    game = get_game(game_id)
    dataset = game.data
    assert dataset is not None
    sheets = openpyxl.load_workbook(book).sheetnames
    assert sheets[0] == "README" and [name for name in sheets if name not in ("README", "parameters")] == dataset.names()
    assert ("parameters" in sheets) == bool(game.spec.parameters)
    assert dataset.read(book) == dataset.read(dataset.bundled)  # every record, every field, as bundled
    checked = run("check", game_id, str(book))
    assert checked.exit_code == 0 and "is valid" in said(checked)


def test_a_spreadsheet_edit_is_imported_into_the_games_own_files(tmp_path: Path) -> None:
    book = tmp_path / "stars.xlsx"
    assert run("template", "movie-empire", "--out", str(book)).exit_code == 0
    workbook = openpyxl.load_workbook(book)
    stars = workbook["stars"]
    header = [cell.value for cell in stars[1]]
    row = next(row for row in stars.iter_rows(min_row=2) if row[0].value == "ST05")
    row[header.index("cost")].value = 1
    for name in [name for name in workbook.sheetnames if name not in ("README", "stars")]:
        del workbook[name]  # a designer's workbook may hold only the tables they changed
    workbook.save(book)
    out = tmp_path / "my_data"
    imported = run("import", "movie-empire", str(book), "--out", str(out))
    assert imported.exit_code == 0, imported.output
    assert sorted(file.name for file in out.iterdir()) == ["stars.toml"]
    cards = tomllib.loads((out / "stars.toml").read_text(encoding="utf-8"))["card"]
    assert next(card for card in cards if card["id"] == "ST05")["cost"] == 1
    assert get_game("movie-empire").new_state(2, 1, {"data": str(out)}).table.stars["ST05"].cost == 1
    row[header.index("cost")].value = "cheap"
    workbook.save(book)
    refused = run("import", "movie-empire", str(book), "--out", str(tmp_path / "other"))
    assert refused.exit_code == 2
    # rich may wrap a long temporary path anywhere, even inside a word: compared without any white space
    squeezed = "".join(refused.output.split())
    assert "".join(f"{book} (sheet stars): row 6, card ST05, column cost: must be a whole number, got 'cheap'".split()) in squeezed
    assert not (tmp_path / "other").exists()


def test_csv_export_and_the_parameters_list(tmp_path: Path) -> None:
    folder = tmp_path / "csv"
    assert run("template", "cinecitta", "--format", "csv", "--out", str(folder)).exit_code == 0
    assert (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[0] == "id,occupation,number,promotion,reels,pen,removed_at"
    assert (
        get_game("cinecitta").new_state(3, 1, {"data": str(folder / "cards.csv")}).table.reels
        == get_game("cinecitta").new_state(3, 1).table.reels
    )
    listed = run("parameters", "movie-empire")
    assert listed.exit_code == 0 and "hand_limit" in said(listed) and "§2.2" in said(listed)
    wrong = run("check", "movie-empire", str(folder))
    assert wrong.exit_code == 2 and "reads no file called cards.csv" in said(wrong)
