"""The option part of a bot name: ``BUDGET/OPTION/KEY=VALUE...`` read against a table of known options.

Bot names such as ``search:500/depth=8/cpu`` or ``openspiel-ismcts:sims=300/c=1.4``
share one shape: a budget, then options after slashes, each a bare flag or
``key=value``. Each kind of bot declares its options in a table; this module
splits and converts them, so every bot refuses an unknown or malformed option
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BotOption:
    """One option of a bot name: the setting it fills, and how its text becomes the value.

    A flag (``cpu``) takes no ``=value``; ``read`` then gets the empty text.
    """

    setting: str
    read: Callable[[str], Any]
    flag: bool = False


def flag(setting: str, value: Any) -> BotOption:
    """An option written bare (``cpu``) that sets ``setting`` to ``value``."""
    return BotOption(setting, lambda _: value, flag=True)


def read_bot_options(body: str, table: Mapping[str, BotOption]) -> tuple[str, dict[str, Any]]:
    """Split ``body`` (the text after ``name:``) into its budget and its options' settings.

    The budget is the first part unless that part is itself an option
    (``steps=9000/c=0.3``), then it is empty. An unknown option, a flag given
    a value, an option missing its value or a value that does not convert
    raises ``ValueError`` naming the option.

    >>> table = {"c": BotOption("exploration", float), "cpu": flag("clock", "cpu")}
    >>> read_bot_options("0.5s/cpu/c=0.3", table)
    ('0.5s', {'clock': 'cpu', 'exploration': 0.3})
    >>> read_bot_options("c=1", table)
    ('', {'exploration': 1.0})
    >>> read_bot_options("300/depth=4", table)
    Traceback (most recent call last):
    ValueError: unknown option 'depth=4'
    """
    budget, *extras = body.split("/")
    if "=" in budget:
        budget, extras = "", [budget, *extras]
    settings: dict[str, Any] = {}
    for extra in extras:
        key, equals, value = extra.partition("=")
        option = table.get(key)
        if option is None:
            raise ValueError(f"unknown option {extra!r}")
        if option.flag and value:
            raise ValueError(f"option {key!r} takes no value")
        if not option.flag and not equals:
            raise ValueError(f"option {key!r} needs a value ({key}=...)")
        try:
            settings[option.setting] = option.read(value)
        except ValueError:
            raise ValueError(f"cannot read the value of {extra!r}") from None
    return budget, settings
