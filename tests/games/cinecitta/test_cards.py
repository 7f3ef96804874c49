"""Cinecitta 1937 card data: the bundled file, custom files, and errors that name the file, the card and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from greenlight.core.errors import DataError
from greenlight.games.cinecitta import GAME, rules
from greenlight.games.cinecitta.cards import BUNDLED_CARDS, load_cards
from greenlight.testing import check_game

BUNDLED_TEXT = BUNDLED_CARDS.read_text(encoding="utf-8")


def write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "mine.toml"
    file.write_text(text, encoding="utf-8")
    return file


def test_bundled_table_matches_the_rules_file() -> None:
    table = load_cards()
    assert len(table.cards) == 35
    assert sum(card.pen for card in table.cards) == 11  # 8 Directors and 3 Producers (rules §10)
    assert (table["S2"].reels, table["S2"].promotion, table["P4"].removed_at) == (4, 0, frozenset({3, 4}))
    # Pen cards in play: 11, 9 and 7 at 5, 4 and 3 players (rules §10).
    assert [sum(table[card].pen for card in table.deck_for(n)) for n in (5, 4, 3)] == [11, 9, 7]


def test_a_custom_file_replaces_the_bundled_cards(tmp_path: Path) -> None:
    # Scriptwriters with 9 reels: the only change is in the data, the rules read it.
    file = write(
        tmp_path,
        BUNDLED_TEXT.replace(
            'occupation = "Scriptwriter"\nnumber = 2\npromotion = 0\nreels = 4',
            'occupation = "Scriptwriter"\nnumber = 2\npromotion = 0\nreels = 9',
        ),
    )
    state = GAME.new_state(3, 1, {"data": str(file)})
    assert state.table["S2"].reels == 9
    assert rules.score_seat(state.table, ["D2", "A3", "C4"], ["S2"], 100)["reels"] == 9
    check_game(GAME, 3, {"data": str(file)}, range(5), deep_every=5)


def test_a_custom_file_skips_the_printed_composition_checks(tmp_path: Path) -> None:
    # Only the rulebook's composition is bundled-only; a designer may drop the 9s from every occupation.
    text = (
        BUNDLED_TEXT
        + '\n[[card]]\nid = "D1"\noccupation = "Director"\nnumber = 1\npromotion = 0\nreels = 5\npen = false\nremoved_at = []\n'
    )
    table = load_cards(write(tmp_path, text))
    assert len(table.cards) == 36 and table["D1"].reels == 5


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'id = "D6"\noccupation = "Director"\nnumber = 6\npromotion = 1\nreels = 1',
            'id = "D6"\noccupation = "Director"\nnumber = 6\npromotion = 1\nreels = -1',
            "card D6, field reels: must be at least 0, got -1",
        ),
        ('id = "A3"\noccupation = "Actor"', 'id = "A3"\noccupation = "Stuntman"', "card A3, field occupation: must be one of Director"),
        (
            'id = "C5"\noccupation = "Cameraman"\nnumber = 5',
            'id = "C5"\noccupation = "Cameraman"\nnumber = 12',
            "card C5, field number: must be at most 9, got 12",
        ),
        ('id = "S8"', 'id = "S9"', "card S9, field id: duplicate id"),
        (
            'id = "P9"\noccupation = "Producer"\nnumber = 9\npromotion = 1\nreels = 0\npen = true',
            'id = "P9"\noccupation = "Producer"\nnumber = 9\npromotion = 1\nreels = 0\npen = "yes"',
            "card P9, field pen: must be true or false",
        ),
        ("removed_at = [3, 4]", "removed_at = [3, 6]", "field removed_at: must be one of 3, 4, 5, got 6"),
    ],
)
def test_a_broken_file_names_the_file_the_card_and_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in BUNDLED_TEXT
    file = write(tmp_path, BUNDLED_TEXT.replace(old, new, 1))
    with pytest.raises(DataError) as error:
        GAME.new_state(3, 0, {"data": str(file)})
    assert str(error.value).startswith(f"{file}: ")
    assert message in str(error.value)


def test_too_few_cards_for_a_player_count_is_refused(tmp_path: Path) -> None:
    text = BUNDLED_TEXT.replace("removed_at = []", "removed_at = [5]")
    with pytest.raises(DataError, match="5 players need 35 cards in play"):
        load_cards(write(tmp_path, text))


def test_a_missing_or_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read the file"):
        GAME.new_state(3, 0, {"data": str(tmp_path / "nope.toml")})
    with pytest.raises(DataError, match="not valid TOML"):
        load_cards(write(tmp_path, "[[card]\n"))
