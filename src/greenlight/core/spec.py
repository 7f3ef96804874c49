"""Declared game metadata: id, title, player range, options and their rules.

Metadata is declared, not implied (OpenSpiel): the conformance harness, the
CLI, the lobby and the RL layer all read it from here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from greenlight.core.data import DataSet
from greenlight.core.errors import DataError, OptionError

OptionValue = bool | int | str | None
Options = Mapping[str, OptionValue]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option (a variant, an expansion or a data-file override).

    ``kind`` is ``"bool"``, ``"int"``, ``"choice"`` or ``"path"``. A ``path``
    option names a data file that replaces bundled data; ``None`` means the
    bundled file. ``allowed_players`` limits the player counts at which a
    non-default value may be chosen. ``aliases`` are older names still
    accepted on input (records and commands written before a rename).

    A **rule parameter** (``parameter=True``) is a number of the rules a
    designer tunes (rounds, hand size, starting money): its default is the
    rulebook's value and ``rule`` names the rule that sets it. Resolved options
    hold a parameter only when it differs from its default, so a game played
    with every parameter at its default is the same game, record and state as
    before parameters existed; read one with :meth:`read`.
    """

    name: str
    kind: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    allowed_players: tuple[int, ...] | None = None
    variant: bool = True
    aliases: tuple[str, ...] = ()
    parameter: bool = False
    rule: str = ""

    def read(self, options: Mapping[str, OptionValue]) -> OptionValue:
        """This option's value in resolved ``options`` (a parameter left out is at its default).

        >>> OptionSpec("rounds", "int", 10, "Rounds", parameter=True).read({})
        10
        """
        return options.get(self.name, self.default)

    def number(self, options: Mapping[str, OptionValue]) -> int:
        """The value of a whole-number option in resolved ``options`` (see :meth:`read`)."""
        value = self.read(options)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"option {self.name} is not a whole number here: {value!r}")
        return value

    def coerce(self, value: object) -> OptionValue:
        """Return ``value`` converted to this option's type, or raise OptionError."""
        if value is None and self.kind == "path":
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            raise OptionError(f"option {self.name} must be true or false, got {value!r}")
        if self.kind == "int":
            try:
                number: int = int(value)  # type: ignore[call-overload]
            except (TypeError, ValueError):
                raise OptionError(f"option {self.name} must be a whole number, got {value!r}") from None
            if self.minimum is not None and number < self.minimum:
                raise OptionError(f"option {self.name} must be at least {self.minimum}, got {number}")
            if self.maximum is not None and number > self.maximum:
                raise OptionError(f"option {self.name} must be at most {self.maximum}, got {number}")
            return number
        if self.kind == "choice":
            if value not in self.choices:
                raise OptionError(f"option {self.name} must be one of {', '.join(self.choices)}, got {value!r}")
            return str(value)
        if self.kind == "path":
            if not isinstance(value, str) or not value:
                raise OptionError(f"option {self.name} must be a file path, got {value!r}")
            return value
        raise OptionError(f"option {self.name} has unknown kind {self.kind}")


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything a caller needs to know about a game before starting one."""

    id: str
    title: str
    version: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    summary: str = ""
    #: Extra cross-option checks: (num_players, full options) -> error text or None.
    constraints: tuple[Callable[[int, Mapping[str, OptionValue]], str | None], ...] = field(default=())
    #: Upper bound on the number of actions in one game (for RL and the harness).
    max_game_length: int = 10_000
    #: The lowest and highest final score any seat can have at a player count and options, if the game can say
    #: (for normalising rewards; the conformance harness checks every outcome against it).
    score_bounds: Callable[[int, Mapping[str, OptionValue]], tuple[float, float]] | None = None
    #: The game's data files (cards, board), if it has any; a data path's ``parameters`` table sets rule parameters.
    data: DataSet | None = None

    @property
    def parameters(self) -> tuple[OptionSpec, ...]:
        """The rule parameters (options declared with ``parameter=True``), in declaration order."""
        return tuple(spec for spec in self.options if spec.parameter)

    def changed_parameters(self, options: Mapping[str, object]) -> dict[str, object]:
        """The rule parameters of resolved ``options`` that differ from the rulebook (a table with any is not the game as printed).

        >>> spec = GameSpec("demo", "Demo", "1", 2, 4, (OptionSpec("rounds", "int", 10, "Rounds", parameter=True),))
        >>> spec.changed_parameters(spec.resolve_options(2, {"rounds": 10}))
        {}
        >>> spec.changed_parameters(spec.resolve_options(2, {"rounds": 8}))
        {'rounds': 8}
        """
        return {spec.name: options[spec.name] for spec in self.parameters if spec.name in options and options[spec.name] != spec.default}

    @property
    def player_counts(self) -> range:
        """All allowed player counts."""
        return range(self.min_players, self.max_players + 1)

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``."""
        for spec in self.options:
            if spec.name == name or name in spec.aliases:
                return spec
        known = ", ".join(spec.name for spec in self.options) or "none"
        raise OptionError(f"{self.title} has no option {name!r} (options: {known})")

    def resolve_options(self, num_players: int, options: Options | None = None) -> dict[str, OptionValue]:
        """Validate a player count and options; return every option with defaults filled in.

        >>> spec = GameSpec("demo", "Demo", "1", 2, 4, (OptionSpec("fast", "bool", False, "Play fast"),))
        >>> spec.resolve_options(3, {"fast": "yes"})
        {'fast': True}
        >>> spec.resolve_options(5)
        Traceback (most recent call last):
        ...
        greenlight.core.errors.OptionError: Demo is for 2 to 4 players, not 5
        """
        if not isinstance(num_players, int) or not self.min_players <= num_players <= self.max_players:
            raise OptionError(f"{self.title} is for {self.min_players} to {self.max_players} players, not {num_players}")
        given = dict(options or {})
        for spec in self.options:
            for alias in spec.aliases:
                if alias in given:
                    old = given.pop(alias)
                    if spec.name in given and given[spec.name] != old:
                        raise OptionError(f"options {spec.name} and {alias} (its old name) are both given, differently")
                    given[spec.name] = old
        from_file = self._data_parameters(given)
        resolved: dict[str, OptionValue] = {}
        for spec in self.options:
            value = spec.coerce(given.pop(spec.name)) if spec.name in given else from_file.get(spec.name, spec.default)
            if value != spec.default and spec.allowed_players is not None and num_players not in spec.allowed_players:
                counts = ", ".join(str(n) for n in spec.allowed_players)
                raise OptionError(f"option {spec.name} is only for {counts} players, not {num_players}")
            if not spec.parameter or value != spec.default:
                resolved[spec.name] = value
        if given:
            self.option(next(iter(given)))  # raises with the list of known options
        for check in self.constraints:
            problem = check(num_players, resolved)
            if problem:
                raise OptionError(problem)
        return resolved

    def _data_parameters(self, given: Mapping[str, object]) -> dict[str, OptionValue]:
        """The rule parameters the data path in ``given`` sets (its ``parameters`` table), checked; explicit options win."""
        if self.data is None or not given.get(self.data.option):
            return {}
        path = given[self.data.option]
        if not isinstance(path, str):
            return {}
        label, values = self.data.parameters(path)
        checked: dict[str, OptionValue] = {}
        names = ", ".join(spec.name for spec in self.parameters) or "none"
        for name, raw in values.items():
            spec = next((item for item in self.parameters if item.name == name), None)
            if spec is None:
                raise DataError(label, None, name, f"{self.title} has no rule parameter called {name} (parameters: {names})")
            try:
                checked[name] = spec.coerce(raw)
            except OptionError as error:
                raise DataError(label, None, name, str(error).replace(f"option {name} ", "")) from None
        return checked

    def variant_combinations(self, num_players: int) -> Iterator[dict[str, OptionValue]]:
        """Every combination of the boolean variant options allowed at ``num_players``."""
        flags = [
            spec
            for spec in self.options
            if spec.kind == "bool" and spec.variant and (spec.allowed_players is None or num_players in spec.allowed_players)
        ]
        for values in itertools.product((False, True), repeat=len(flags)):
            options = {spec.name: value for spec, value in zip(flags, values, strict=True)}
            try:
                yield self.resolve_options(num_players, options)
            except OptionError:
                continue
