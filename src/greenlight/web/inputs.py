"""Untrusted input made safe: JSON with bounded depth and number size, and names people show each other.

>>> parse_json(b'{"action": "offer D6 30"}', max_depth=4, max_int_digits=10)
{'action': 'offer D6 30'}
>>> parse_json(b"[" * 50 + b"]" * 50, max_depth=32, max_int_digits=10)
Traceback (most recent call last):
...
greenlight.web.inputs.InputError: the JSON is nested 50 levels deep; at most 32 are accepted
>>> clean_name("  Ann\\u202e\\u200b  Lee\\x07 ")
'Ann Lee'
>>> clean_name("Bot (hard)")
Traceback (most recent call last):
...
greenlight.web.inputs.InputError: a person's name may not start with "Bot": only the server names its bots
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

#: Longest name shown at a table (in characters, after cleaning).
MAX_NAME_LENGTH = 40

#: Unicode categories that never belong in a name: controls, format characters (bidi overrides,
#: zero-width joiners and spaces), surrogates, private use, unassigned, line and paragraph separators.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SPACES = re.compile(r"\s+")
_BOT_LIKE = re.compile(r"bot(?![a-z])")


class InputError(ValueError):
    """Client input that is refused, with the reason in words."""


def parse_json(data: bytes | str, *, max_depth: int, max_int_digits: int) -> Any:
    """Parse client JSON, refusing deep nesting, overlong integers and NaN/Infinity with :class:`InputError`.

    Malformed JSON raises ``json.JSONDecodeError`` as usual (callers word that themselves).
    """

    def bounded_int(text: str) -> int:
        if len(text.lstrip("-")) > max_int_digits:
            raise InputError(f"a number in the JSON has {len(text.lstrip('-'))} digits; at most {max_int_digits} are accepted")
        return int(text)

    def no_constant(text: str) -> Any:
        raise InputError(f"{text} is not a JSON number")

    try:
        value = json.loads(data, parse_int=bounded_int, parse_constant=no_constant)
    except RecursionError:
        raise InputError(f"the JSON is nested too deeply; at most {max_depth} levels are accepted") from None
    depth = json_depth(value)
    if depth > max_depth:
        raise InputError(f"the JSON is nested {depth} levels deep; at most {max_depth} are accepted")
    return value


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def clean_chat(raw: str) -> str:
    """Chat text fit to show others: the same characters removed as from names (no length limit here)."""
    text = unicodedata.normalize("NFC", raw)
    return "".join(char for char in text if unicodedata.category(char) not in _DROPPED_CATEGORIES or char == "\n")


def clean_name(raw: str | None) -> str:
    """A name fit to show others: invisible and control characters dropped, spaces collapsed.

    Returns "" for a name with nothing visible left. Raises :class:`InputError`
    for a name longer than :data:`MAX_NAME_LENGTH` or one that would pass for
    one of the server's bots.
    """
    if raw is None:
        return ""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(char for char in text if unicodedata.category(char) not in _DROPPED_CATEGORIES)
    text = _SPACES.sub(" ", text).strip()
    if len(text) > MAX_NAME_LENGTH:
        raise InputError(f"a name may have at most {MAX_NAME_LENGTH} characters; this one has {len(text)}")
    # Compatibility folding catches look-alikes such as fullwidth or mathematical letters.
    folded = unicodedata.normalize("NFKC", text).casefold()
    if _BOT_LIKE.match(folded):
        raise InputError('a person\'s name may not start with "Bot": only the server names its bots')
    return text
