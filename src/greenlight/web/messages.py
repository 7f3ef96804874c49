"""The messages a WebSocket client may send (docs/api.md), as validated models.

Every message is checked against its model before the server acts on it;
a message that does not fit gets an ``error`` answer saying, in words,
which field is wrong and what it must be (never pydantic's own text).

>>> read_message({"type": "act", "id": 3, "action": "offer D6 30"}, max_chat_chars=300)
Act(id=3, type='act', action='offer D6 30', expect_version=None)
>>> read_message({"type": "act", "action": ""}, max_chat_chars=300)
"'action' must be a non-empty text of at most 500 characters"
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

#: Longest action text a client may send (the same limit as the HTTP API).
MAX_ACTION_LENGTH = 500
#: Longest chat text read at all; the table's own chat limit (``max_chat_chars``) is checked with a clearer word.
MAX_CHAT_READ = 2000

RequestId = StrictInt | StrictStr | None


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    #: Echoed in the answer, so a client can match answers to requests.
    id: RequestId = None


class Hello(BaseModel):
    """The first message: a seat token (or null for a spectator) and, for the host, the host token."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    type: Literal["hello"]
    token: StrictStr | None = None
    host: StrictStr | None = None


class Ping(_Message):
    """Answered with ``pong``."""

    type: Literal["ping"]


class ViewAgain(_Message):
    """Send my view again."""

    type: Literal["view"]


class Act(_Message):
    """Take an action (its text form), optionally only if the table is still at ``expect_version``."""

    type: Literal["act"]
    action: Annotated[StrictStr, Field(min_length=1, max_length=MAX_ACTION_LENGTH, pattern=r"\S")]
    expect_version: StrictInt | None = None


class Chat(_Message):
    """One line of chat."""

    type: Literal["chat"]
    text: Annotated[StrictStr, Field(max_length=MAX_CHAT_READ)]


ClientMessage = Annotated[Ping | ViewAgain | Act | Chat, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Ping | ViewAgain | Act | Chat] = TypeAdapter(ClientMessage)
_HELLO = TypeAdapter(Hello)


def request_id(message: Any) -> int | str | None:
    """The message's ``id`` if it is a usable one (a whole number or a text), else None."""
    found = message.get("id") if isinstance(message, dict) else None
    return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None


def read_hello(message: Any) -> Hello | None:
    """The hello, or None if ``message`` is not one."""
    try:
        return _HELLO.validate_python(message)
    except ValidationError:
        return None


def read_message(message: Any, *, max_chat_chars: int) -> Ping | ViewAgain | Act | Chat | str:
    """The validated message, or the reason (in words) it is refused."""
    try:
        return _CLIENT_MESSAGE.validate_python(message)
    except ValidationError as error:
        return _problem(message, error, max_chat_chars)


def _problem(message: Any, error: ValidationError, max_chat_chars: int) -> str:
    kind = message.get("type") if isinstance(message, dict) else None
    fields = {str(location) for problem in error.errors() for location in problem["loc"][1:2]}
    if kind not in ("ping", "view", "act", "chat") or not fields:
        return f"unknown message type {kind!r}; use act, view, chat or ping"
    if "action" in fields:
        return f"'action' must be a non-empty text of at most {MAX_ACTION_LENGTH} characters"
    if "expect_version" in fields:
        return "'expect_version' must be a whole number"
    if "text" in fields:
        return f"'text' must be a text of at most {max_chat_chars} characters"
    return "'id' must be a whole number or a text"
