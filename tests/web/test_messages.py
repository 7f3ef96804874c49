"""Client WebSocket messages are validated models; each malformed one is refused in words naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from greenlight.web.messages import MAX_ACTION_LENGTH, Act, Chat, Hello, Ping, ViewAgain, read_hello, read_message, request_id

ACTION_WORDS = f"'action' must be a non-empty text of at most {MAX_ACTION_LENGTH} characters"
UNKNOWN = "unknown message type {!r}; use act, view, chat or ping"


def read(message: Any) -> object:
    return read_message(message, max_chat_chars=300)


def test_each_message_type_reads_into_its_model() -> None:
    assert read({"type": "ping", "id": "a"}) == Ping(type="ping", id="a")
    assert read({"type": "view"}) == ViewAgain(type="view")
    assert read({"type": "act", "action": "pass", "expect_version": 4, "extra": 1}) == Act(type="act", action="pass", expect_version=4)
    assert read({"type": "chat", "text": "hi"}) == Chat(type="chat", text="hi")


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "act"}, ACTION_WORDS),
        ({"type": "act", "action": ""}, ACTION_WORDS),
        ({"type": "act", "action": "   "}, ACTION_WORDS),
        ({"type": "act", "action": 5}, ACTION_WORDS),
        ({"type": "act", "action": "x" * (MAX_ACTION_LENGTH + 1)}, ACTION_WORDS),
        ({"type": "act", "action": "pass", "expect_version": "3"}, "'expect_version' must be a whole number"),
        ({"type": "act", "action": "pass", "expect_version": True}, "'expect_version' must be a whole number"),
        ({"type": "chat"}, "'text' must be a text of at most 300 characters"),
        ({"type": "chat", "text": "x" * 2001}, "'text' must be a text of at most 300 characters"),
        ({"type": "ping", "id": [1]}, "'id' must be a whole number or a text"),
        ({"type": "dance"}, UNKNOWN.format("dance")),
        ({"action": "pass"}, UNKNOWN.format(None)),
        ([1, 2], UNKNOWN.format(None)),
        ("act", UNKNOWN.format(None)),
    ],
)
def test_a_malformed_message_is_refused_naming_the_field(message: Any, words: str) -> None:
    assert read(message) == words


def test_only_whole_numbers_and_texts_are_echoed_as_ids() -> None:
    messages: list[object] = [{"id": 7}, {"id": "r1"}, {"id": True}, {"id": 1.5}, {"id": None}, []]
    assert [request_id(message) for message in messages] == [
        7,
        "r1",
        None,
        None,
        None,
        None,
    ]


def test_the_hello_carries_an_optional_seat_token_and_host_token() -> None:
    assert read_hello({"type": "hello", "token": "t", "host": "h"}) == Hello(type="hello", token="t", host="h")
    assert read_hello({"type": "hello"}) == Hello(type="hello")
    assert read_hello({"type": "hello", "token": 5}) is None
    assert read_hello({"type": "act"}) is None
    assert read_hello("hello") is None
