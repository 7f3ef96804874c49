"""A game's data as tables: a misnamed or unknown file stops the run naming it and the expected names; spreadsheets
(CSV, XLSX) read with the same validation, errors naming file, row, card and column."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from greenlight.cli.main import app
from greenlight.core.errors import DataError
from greenlight.core.registry import get_game
from greenlight.games.movie_empire.cards import DATA as MOVIE_EMPIRE_DATA

BUNDLED_STARS = MOVIE_EMPIRE_DATA.bundled / "stars.toml"


def write_csv(file: Path, game: str, table: str, change: dict[tuple[str, str], object] | None = None) -> Path:
    """The bundled (or example) records of one table as a CSV file, with ``change[(card, column)]`` applied."""
    dataset = get_game(game).data
    assert dataset is not None
    spec = dataset.table(table)
    records = dataset.read(None if dataset.bundled_is_default else dataset.bundled)[table]
    with file.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([field.name for field in spec.fields])
        for record in records:
            cells = [field.to_cell(record[field.name]) for field in spec.fields]
            for (card, column), value in (change or {}).items():
                if str(record[spec.id_field]) == card:
                    cells[[field.name for field in spec.fields].index(column)] = value  # type: ignore[call-overload]
            writer.writerow(["" if cell is None else cell for cell in cells])
    return file


def test_a_misnamed_file_in_a_data_folder_stops_the_game_naming_both(tmp_path: Path) -> None:
    folder = tmp_path / "my_data"
    folder.mkdir()
    shutil.copy(BUNDLED_STARS, folder / "star.toml")  # the designer meant stars.toml
    with pytest.raises(DataError) as info:
        get_game("movie-empire").new_state(2, 1, {"data": str(folder)})
    message = str(info.value)
    assert "star.toml" in message and "did you mean stars.toml" in message and "stars.toml" in message.split("it reads", 1)[1]


def test_the_simulator_stops_before_any_game_on_a_misnamed_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    folder = tmp_path / "my_data"
    folder.mkdir()
    shutil.copy(BUNDLED_STARS, folder / "star.toml")
    out = tmp_path / "study"
    result = CliRunner().invoke(app, ["simulate", "movie-empire", "-g", "2", "-w", "1", "--cards", str(folder), "--out", str(out)])
    words = " ".join(result.output.split())
    assert result.exit_code == 2 and "star.toml" in words and "stars.toml" in words
    assert not (out / "games.parquet").exists()


def test_other_folder_mistakes_are_named(tmp_path: Path) -> None:
    game = get_game("movie-empire")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="holds none of the files Movie Empire reads"):
        game.new_state(2, 1, {"data": str(empty)})
    twice = tmp_path / "twice"
    twice.mkdir()
    shutil.copy(BUNDLED_STARS, twice / "stars.toml")
    write_csv(twice / "stars.csv", "movie-empire", "stars")
    with pytest.raises(DataError, match=r"both stars\.csv and stars\.toml hold stars; keep one"):
        game.new_state(2, 1, {"data": str(twice)})
    notes = tmp_path / "notes"
    notes.mkdir()
    shutil.copy(BUNDLED_STARS, notes / "stars.toml")
    (notes / "notes.txt").write_text("my ideas")
    (notes / ".DS_Store").write_text("")  # hidden files are not the designer's data
    with pytest.raises(DataError, match=r"reads no file called notes\.txt"):
        game.new_state(2, 1, {"data": str(notes)})


def test_a_csv_table_is_read_like_its_toml_file_and_its_errors_name_row_card_and_column(tmp_path: Path) -> None:
    game = get_game("movie-empire")
    folder = tmp_path / "csv"
    folder.mkdir()
    write_csv(folder / "stars.csv", "movie-empire", "stars", {("ST05", "cost"): 1})
    state = game.new_state(2, 1, {"data": str(folder)})
    assert state.table.stars["ST05"].cost == 1
    assert {star: card.cost for star, card in state.table.stars.items() if star != "ST05"} == {
        star: card.cost for star, card in game.new_state(2, 1).table.stars.items() if star != "ST05"
    }
    write_csv(folder / "stars.csv", "movie-empire", "stars", {("ST02", "cost"): "two"})
    with pytest.raises(DataError) as info:
        game.new_state(2, 1, {"data": str(folder)})
    assert str(info.value) == f"{folder / 'stars.csv'}: row 3, card ST02, column cost: must be a whole number, got 'two'"
    write_csv(folder / "stars.csv", "movie-empire", "stars", {("ST03", "banned_genres"): "C, X"})
    with pytest.raises(DataError, match=r"row 4, card ST03, column banned_genres: must be one of A, C, D, got 'X'"):
        game.new_state(2, 1, {"data": str(folder)})
    write_csv(folder / "stars.csv", "movie-empire", "stars", {("ST04", "cost"): "-1"})
    with pytest.raises(DataError, match=r"row 5, card ST04, column cost: must be at least 0, got -1"):
        game.new_state(2, 1, {"data": str(folder)})
    text = (folder / "stars.csv").read_text(encoding="utf-8").replace("requirement", "requirment", 1)
    (folder / "stars.csv").write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1, column requirment: unknown column"):
        game.new_state(2, 1, {"data": str(folder)})


def test_a_workbook_holds_a_sheet_per_table_and_names_an_unknown_sheet(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    game = get_game("cinecitta")
    dataset = game.data
    assert dataset is not None
    records = dataset.read(None)["cards"]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "cards"
    fields = dataset.table("cards").fields
    sheet.append([field.name for field in fields])
    for record in records:
        sheet.append([field.to_cell(record[field.name]) for field in fields])
    sheet["E3"] = 9  # D3's reels (row 3: the second card)
    file = tmp_path / "cards.xlsx"
    book.save(file)
    state = game.new_state(3, 1, {"data": str(file)})
    assert state.table.reels["D3"] == 9
    book.create_sheet("card_extras")
    book.save(file)
    with pytest.raises(DataError, match="reads no sheet called card_extras"):
        game.new_state(3, 1, {"data": str(tmp_path / "cards.xlsx")})
    del book["card_extras"]
    sheet["D2"] = "lots"
    book.save(tmp_path / "broken.xlsx")
    with pytest.raises(DataError, match=r"broken.xlsx \(sheet cards\): row 2, card D2, column promotion: must be a whole number"):
        game.new_state(3, 1, {"data": str(tmp_path / "broken.xlsx")})


def test_a_fixed_catalogue_reads_from_a_folder_of_csv_files(tmp_path: Path) -> None:
    folder = tmp_path / "deck"
    folder.mkdir()
    for table in ("votes", "change", "movies", "blockbusters"):
        write_csv(folder / f"{table}.csv", "maybe-movies", table)
    game = get_game("maybe-movies")
    from_csv = game.new_state(3, 4, {"data": str(folder)})
    dataset = game.data
    assert dataset is not None
    from_json = game.new_state(3, 4, {"data": str(dataset.bundled)})
    assert from_csv.table.to_json() == from_json.table.to_json()
    (folder / "change.csv").unlink()
    with pytest.raises(DataError, match="Maybe Movies needs change there too"):
        game.new_state(3, 4, {"data": str(folder)})
