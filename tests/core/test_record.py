"""Records: the JSON form round-trips exactly and a malformed file is refused with the field named."""

from __future__ import annotations

import pytest

from greenlight.core.errors import RecordError
from greenlight.core.record import Record


def test_round_trip_keeps_every_field_including_who_played() -> None:
    record = Record("cinecitta", "1", 3, 7, {"movie_awards": True}, [(0, "offer A 10"), (1, "pass")], ["human", "bot:hard", "Ann"])
    assert Record.loads(record.dumps()) == record


def test_players_are_optional_and_left_out_when_unknown() -> None:
    record = Record("cinecitta", "1", 3, 7)
    assert "players" not in record.to_json()
    assert Record.loads(record.dumps()).players == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": "7"}, "'seed' is missing or is not a int"),
        ({"options": []}, "'options' must be an object"),
        ({"actions": [[0]]}, "record action 0 must be [seat, text]"),
        ({"players": ["human", 3, "bot"]}, "'players' must be a list of strings"),
        ({"players": ["human"]}, "names 1 seats for a 3-player game"),
    ],
)
def test_malformed_records_name_the_field(change: dict[str, object], message: str) -> None:
    data = Record("cinecitta", "1", 3, 7, {}, [], ["human", "bot", "bot"]).to_json() | change
    with pytest.raises(RecordError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Record.from_json(data)
    with pytest.raises(RecordError, match="must be JSON"):
        Record.loads("{not json")
