"""Sweeps: one study per value of a card's number (or a rule parameter), the same deals at every value, a fair value found.

``greenlight sweep movie-empire --vary stars.ST16.cost=2..6`` plays a study at
each value into ``OUT/<field>=<value>/`` (an ordinary study folder: resumable,
on the local pool or Ray), every study with the same seed, line-up and game
count, so game *i* is the same deal with the same bot seeds at every value
(common random numbers): the differences between values are the change's, not
the deals'. The sweep then reads, per value,

* for a card: its **win share** when the seats did its main action (the one
  done most often: ``taken`` for a Movie Empire star) with a 95% interval,
  and how often per game;
* for a rule parameter: the **first player's win share** (or seat 0's where
  everyone acts at once) with its interval;
* the game length, in actions and in the game's own unit;

and writes ``sweep.json``, ``sweep.csv``, ``sweep.png`` (the measure against
the value with intervals, parity dashed, the suggestion marked) and
``sweep.html``.

**The suggested value** is, among the values whose interval includes parity,
the one whose win share is closest to it (ties: the value closest to the
current one); when no interval includes parity, the closest point, flagged so
(the range should be extended). Values at which the card was done by too few
seats to judge (:data:`~greenlight.sim.summary.RARE_SEAT_GAMES`) are not
suggested.

**What can vary.** ``TABLE.CARD.FIELD`` (``stars.ST16.cost``), ``cards.CARD.FIELD``
(the card's table is found by its id), or a rule parameter (``rounds`` or
``parameters.rounds``); values are ``A..B`` (whole numbers from A to B),
``A..B:STEP`` or ``a,b,c``. A value the field or parameter refuses stops the
sweep before any game, with the reason.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from greenlight.core.data import PARAMETERS, DataSet
from greenlight.core.errors import OptionError
from greenlight.core.game import Game
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.sim.report import pyplot
from greenlight.sim.runner import GameResult
from greenlight.sim.spreadsheets import dataset_of, write_native
from greenlight.sim.stats import mean, normal_interval, seat_at_place, start_order, wilson_interval
from greenlight.sim.study import Backend, LocalBackend, prepare_study, run_study
from greenlight.sim.summary import RARE_SEAT_GAMES, CardTally

SWEEP_JSON = "sweep.json"
SWEEP_CSV = "sweep.csv"
SWEEP_PNG = "sweep.png"
SWEEP_HTML = "sweep.html"
#: The most values one sweep plays.
MAX_VALUES = 41


@dataclass(frozen=True, slots=True)
class Vary:
    """What a sweep changes: a field of one card (``table``, ``card``, ``field``) or a rule parameter (``parameter``)."""

    text: str
    values: tuple[int, ...]
    table: str | None = None
    card: str | None = None
    field: str | None = None
    parameter: str | None = None

    @property
    def label(self) -> str:
        """The folder-name form of the path: ``stars.ST16.cost`` or ``rounds``."""
        return self.parameter or f"{self.table}.{self.card}.{self.field}"

    def folder(self, value: int) -> str:
        """The study folder of one value."""
        return f"{self.label}={value}"


def parse_values(text: str) -> tuple[int, ...]:
    """``A..B``, ``A..B:STEP`` or ``a,b,c`` as whole numbers.

    >>> parse_values("3..6"), parse_values("0..10:5"), parse_values("4, 2,8")
    ((3, 4, 5, 6), (0, 5, 10), (4, 2, 8))
    """
    text = text.strip()
    try:
        if ".." in text:
            span, _, step_text = text.partition(":")
            start_text, _, stop_text = span.partition("..")
            start, stop, step = int(start_text), int(stop_text), int(step_text or 1)
            if step <= 0:
                raise OptionError(f"the step of {text!r} must be at least 1")
            values = tuple(range(start, stop + 1, step)) if start <= stop else tuple(range(start, stop - 1, -step))
        else:
            values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise OptionError(f"values are whole numbers: A..B, A..B:STEP or a,b,c, not {text!r}") from None
    if not values:
        raise OptionError(f"{text!r} gives no value")
    if len(set(values)) != len(values):
        raise OptionError(f"{text!r} names a value twice")
    if len(values) > MAX_VALUES:
        raise OptionError(f"a sweep plays at most {MAX_VALUES} values, {text!r} gives {len(values)}")
    return values


def parse_vary(game: Game[Any], text: str, data: str | Path | None = None) -> Vary:
    """Read ``PATH=VALUES`` for ``game`` (see the module docstring); every value is checked now."""
    path, sep, values_text = text.partition("=")
    if not sep:
        raise OptionError(f"--vary is PATH=VALUES (for example stars.ST16.cost=2..6 or rounds=8..12), not {text!r}")
    values = parse_values(values_text)
    parts = path.strip().split(".")
    names = [spec.name for spec in game.spec.parameters]
    if len(parts) == 1 or (len(parts) == 2 and parts[0] == PARAMETERS):
        name = parts[-1]
        if name not in names:
            known = ", ".join(names) or "none"
            raise OptionError(f"{game.spec.title} has no rule parameter called {name} (parameters: {known})")
        spec = game.spec.option(name)
        for value in values:
            spec.coerce(value)  # raises naming the parameter and the bound
        return Vary(text, values, parameter=name)
    if len(parts) != 3:
        raise OptionError(f"vary TABLE.CARD.FIELD (stars.ST16.cost), cards.CARD.FIELD or a rule parameter, not {path!r}")
    dataset = dataset_of(game)
    table_name, card, field_name = parts
    records = dataset.read(data if data is not None else (None if dataset.bundled_is_default else dataset.bundled))
    if table_name == "cards":
        owners = [table.name for table in dataset.tables if any(str(record[table.id_field]) == card for record in records[table.name])]
        if not owners:
            raise OptionError(f"{game.spec.title}'s data has no card {card}")
        table_name = owners[0]
    if table_name not in dataset.names():
        raise OptionError(f"{game.spec.title}'s data has no table {table_name} (tables: {', '.join(dataset.names())})")
    table = dataset.table(table_name)
    if not any(str(record[table.id_field]) == card for record in records[table_name]):
        raise OptionError(f"{table_name} has no card {card}")
    try:
        column = table.field(field_name)
    except KeyError as error:
        raise OptionError(f"{card} ({table_name}): {error.args[0]}") from None
    if column.kind != "int":
        numeric = ", ".join(item.name for item in table.fields if item.kind == "int") or "none"
        raise OptionError(f"{card}'s {field_name} is not a number; a sweep varies a whole number (numeric fields: {numeric})")
    for value in values:
        problem = column.validate(value)
        if problem:
            raise OptionError(f"{table_name}.{card}.{field_name}={value}: {problem}")
    return Vary(text, values, table=table_name, card=card, field=field_name)


def variant_data(game: Game[Any], vary: Vary, value: int, base: str | Path | None, folder: Path) -> Path:
    """Write the data of one value of a card field into ``folder``: the base data (the designer's, else bundled) with it set."""
    dataset = dataset_of(game)
    assert vary.table is not None and vary.card is not None and vary.field is not None
    origin = base if base is not None else (None if dataset.bundled_is_default else dataset.bundled)
    sources = dataset.locate(origin)
    tables = {name: source.read() for name, source in sources.items()}
    table = dataset.table(vary.table)
    for record in tables[vary.table]:
        if str(record[table.id_field]) == vary.card:
            record[vary.field] = value
    parameters = dataset.parameters(base)[1] if base is not None else {}
    folder.mkdir(parents=True, exist_ok=True)
    native = "json" if dataset.bundled.suffix == ".json" else "toml"
    if dataset.folder:
        keep = {vary.table} | {name for name, source in sources.items() if not source.bundled}
        written = write_native(game, tables, native, folder / "data", parameters)
        for file in written:
            if file.stem != PARAMETERS and file.stem not in keep:
                file.unlink()
        return folder / "data"
    return write_native(game, tables, native, folder / f"data.{native}", parameters)[0]


# -- reading a value's study --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Point:
    """What one value's study measured."""

    value: int
    games: int
    #: The measure (a win share) with its 95% interval; None when too rare to judge.
    share: float | None
    low: float | None
    high: float | None
    #: Game-seats behind the share (for a card: seats that did its action).
    seats: int
    #: How often per game (a card's action); None for a parameter.
    per_game: float | None
    length: float
    length_ci: tuple[float, float]
    units: float | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "value": self.value,
            "games": self.games,
            "win_share": self.share,
            "win_share_ci95": [self.low, self.high] if self.share is not None else None,
            "seat_games": self.seats,
            "per_game": self.per_game,
            "length": self.length,
            "length_ci95": list(self.length_ci),
            "length_in_units": self.units,
        }


def card_action(tallies: Sequence[CardTally], card: str) -> str | None:
    """The action done most often with ``card`` over the studies (by game-seats), or None if it was never done."""
    totals: dict[str, float] = {}
    for tally in tallies:
        for (by, action, name), numbers in tally.totals.items():
            if by == "card" and name == card:
                totals[action] = totals.get(action, 0.0) + numbers[2]
    return max(totals, key=lambda action: totals[action]) if totals else None


def first_share(results: Sequence[GameResult]) -> list[float]:
    """Per game, the win share of the first player (the turn order's first place, else seat 0)."""
    return [row.returns[seat_at_place(row, 0)] if start_order(row) is not None else row.returns[0] for row in results]


def measure_point(
    value: int, results: Sequence[GameResult], tally: CardTally, card: str | None, action: str | None, length_unit: str | None
) -> Point:
    """The :class:`Point` of one value: the card's win share for ``action`` (or the first player's), length."""
    lengths = [float(row.length) for row in results]
    units = [float(v) for row in results if (v := (row.stats or {}).get("game", {}).get(length_unit or "")) is not None]
    if card is not None and action is not None:
        times, _, seats, share_sum = tally.totals.get(("card", action, card), [0.0, 0.0, 0.0, 0.0])
        share = share_sum / seats if seats >= RARE_SEAT_GAMES else None
        low, high = wilson_interval(share_sum, int(seats)) if share is not None else (None, None)
        per_game: float | None = times / len(results)
    else:
        shares = first_share(results)
        seats = len(shares)
        share = mean(shares)
        low, high = wilson_interval(sum(shares), len(shares))
        per_game = None
    return Point(
        value, len(results), share, low, high, int(seats), per_game, mean(lengths), normal_interval(lengths), mean(units) if units else None
    )


def suggest(points: Sequence[Point], parity: float, current: int | None) -> tuple[Point | None, bool]:
    """The suggested value (module docstring) and whether its interval includes parity."""
    judged = [point for point in points if point.share is not None]
    if not judged:
        return None, False
    inside = [point for point in judged if point.low is not None and point.high is not None and point.low <= parity <= point.high]
    pool = inside or judged

    def distance(point: Point) -> tuple[float, float]:
        assert point.share is not None
        return (abs(point.share - parity), abs(point.value - current) if current is not None else 0.0)

    return min(pool, key=distance), bool(inside)


def crossing(points: Sequence[Point], parity: float) -> float | None:
    """Where the measure crosses parity between two neighbouring judged values (linear), if it does."""
    judged = sorted((point for point in points if point.share is not None), key=lambda point: point.value)
    for left, right in itertools.pairwise(judged):
        assert left.share is not None and right.share is not None
        if (left.share - parity) * (right.share - parity) <= 0 and left.share != right.share:
            return left.value + (parity - left.share) * (right.value - left.value) / (right.share - left.share)
    return None


# -- running ------------------------------------------------------------------------------------------------------


class SweepProgress(Protocol):
    """Told the whole sweep's games once, then about each game as it finishes (any value's study)."""

    def start(self, total: int, done: int) -> None:
        """Before the first new game."""
        ...

    def advance(self, row: GameResult) -> None:
        """After each new game."""
        ...


class _Forward:
    """A study's progress forwarded to the sweep's (a study's own total is part of the sweep's)."""

    def __init__(self, sweep: SweepProgress | None) -> None:
        self.sweep = sweep
        self.reused = 0

    def start(self, total: int, done: int) -> None:
        self.reused = done

    def advance(self, row: GameResult) -> None:
        if self.sweep is not None:
            self.sweep.advance(row)


@dataclass(slots=True)
class SweepResult:
    """A finished sweep: what varied, each value's point, the suggestion."""

    game: str
    vary: Vary
    parity: float
    points: list[Point]
    card_title: str | None
    action: str | None
    current: int | None
    suggested: Point | None
    suggested_at_parity: bool
    parity_crossed_at: float | None
    games_per_value: int
    folders: list[Path] = field(default_factory=list)
    length_unit: str | None = None
    #: The action in the game's words (``in the Office at the end``).
    action_words: str | None = None

    def measure_words(self) -> str:
        """What the sweep measured, in words."""
        if self.card_title is not None:
            return (
                f"win share when {self.card_title} was {self.action_words or self.action}"
                if self.action
                else f"{self.card_title} (never played)"
            )
        return "the first player's win share"

    def verdict(self) -> str:
        """The answer in one or two sentences."""
        what = self.vary.field or self.vary.parameter or "value"
        subject = f"{what} of {self.card_title}" if self.card_title else f"the rule parameter {what}"
        if self.suggested is None or self.suggested.share is None:
            rare = "the card was played too rarely at every value to judge its win share"
            return f"{_capital(subject)}: {rare}; try other values or more games."
        point = self.suggested
        assert point.share is not None and point.low is not None and point.high is not None
        share = f"{100 * point.share:.1f} % (95% CI {100 * point.low:.1f} to {100 * point.high:.1f} %)"
        parity = f"parity {100 * self.parity:.1f} %"
        current = f" (now {self.current})" if self.current is not None else ""
        measure = self.measure_words()
        measure = measure if measure.startswith("the ") else f"the {measure}"
        if self.suggested_at_parity:
            text = f"Suggested {subject}: {point.value}{current}. There {measure} is {share}, which includes {parity}."
        else:
            text = (
                f"No tested value of {subject} reaches parity: the closest is {point.value}{current}, where "
                f"{measure} is {share} ({parity}); extend the range."
            )
        if self.parity_crossed_at is not None:
            text += f" The measure crosses parity near {what} {self.parity_crossed_at:.1f}."
        return text

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``sweep.json``)."""
        return {
            "game": self.game,
            "vary": self.vary.text,
            "path": self.vary.label,
            "values": list(self.vary.values),
            "games_per_value": self.games_per_value,
            "measure": self.measure_words(),
            "card": self.vary.card,
            "card_title": self.card_title,
            "action": self.action,
            "parity": self.parity,
            "current": self.current,
            "points": [point.to_json() for point in self.points],
            "suggested": self.suggested.value if self.suggested is not None else None,
            "suggested_at_parity": self.suggested_at_parity,
            "parity_crossed_at": self.parity_crossed_at,
            "verdict": self.verdict(),
            "folders": [str(folder) for folder in self.folders],
        }


def run_sweep(
    game_name: str,
    num_players: int,
    bots: Sequence[str],
    vary_text: str,
    games: int,
    seed: int,
    out: str | Path,
    options: Mapping[str, OptionValue] | None = None,
    backend: Backend | None = None,
    progress: SweepProgress | None = None,
    fresh: bool = False,
    action: str | None = None,
    chunk_size: int = 100,
) -> SweepResult:
    """Play the sweep (module docstring) into ``out``; resumable like a study (rerun: only missing games are played)."""
    game = get_game(game_name)
    base_options = dict(options or {})
    dataset: DataSet | None = game.data
    base_data = base_options.get(dataset.option) if dataset is not None else None
    vary = parse_vary(game, vary_text, str(base_data) if base_data else None)
    folder = Path(out)
    _check_sweep_folder(folder, vary, num_players, list(bots), seed, base_options, fresh)
    folder.mkdir(parents=True, exist_ok=True)
    studies = []
    for value in vary.values:
        value_options = dict(base_options)
        if vary.parameter is not None:
            value_options[vary.parameter] = value
        else:
            assert dataset is not None
            value_options[dataset.option] = str(
                variant_data(game, vary, value, str(base_data) if base_data else None, folder / "data" / vary.folder(value))
            )
        studies.append(prepare_study(game.spec.id, num_players, bots, games, seed, value_options, chunk_size))
    runner = backend or LocalBackend()
    total = games * len(studies)
    if progress is not None:
        progress.start(total, 0)
    runs = []
    for value, study in zip(vary.values, studies, strict=True):
        forward = _Forward(progress)
        run = run_study(study, folder / vary.folder(value), runner, forward, fresh=fresh)
        if progress is not None and forward.reused:
            for row in run.results[: forward.reused]:
                progress.advance(row)  # games reused from an earlier run count as done
        runs.append(run)
    parity = mean(1 / row.num_players for row in runs[0].results)
    from greenlight.sim.gamestats import game_notes

    notes = game_notes(game)
    unit = notes.length[0] if notes.length else None
    card = vary.card
    chosen = action or (card_action([run.cards for run in runs], card) if card is not None else None)
    points = [measure_point(value, run.results, run.cards, card, chosen, unit) for value, run in zip(vary.values, runs, strict=True)]
    current = _current_value(game, vary, str(base_data) if base_data else None, base_options)
    suggested, at_parity = suggest(points, parity, current)
    title = None
    if card is not None:
        state = game.new_state(num_players, 0, studies[0].options)
        title = next((item.name for item in game.components(state) if item.id == card), card)
    result = SweepResult(
        game.spec.id,
        vary,
        parity,
        points,
        title,
        chosen,
        current,
        suggested,
        at_parity,
        crossing(points, parity),
        games,
        [folder / vary.folder(value) for value in vary.values],
        notes.length[1] if notes.length else None,
        notes.action(chosen) if chosen else None,
    )
    write_sweep(folder, result)
    return result


def _current_value(game: Game[Any], vary: Vary, base: str | None, options: Mapping[str, OptionValue]) -> int | None:
    """The value the base data (or options) give the varied field or parameter."""
    if vary.parameter is not None:
        return game.spec.option(vary.parameter).number(options)
    dataset = dataset_of(game)
    assert vary.table is not None
    table = dataset.table(vary.table)
    records = dataset.read(base if base is not None else (None if dataset.bundled_is_default else dataset.bundled))[vary.table]
    for record in records:
        if str(record[table.id_field]) == vary.card:
            value = record[vary.field or ""]
            return int(value) if isinstance(value, int) else None
    return None


def _check_sweep_folder(
    folder: Path, vary: Vary, players: int, bots: list[str], seed: int, options: Mapping[str, OptionValue], fresh: bool
) -> None:
    """Write the sweep's description, refusing a folder that holds another sweep (unless ``fresh``)."""
    mine = {"path": vary.label, "values": list(vary.values), "players": players, "bots": bots, "seed": seed, "options": dict(options)}
    file = folder / "sweep-manifest.json"
    if file.exists() and not fresh:
        theirs = json.loads(file.read_text(encoding="utf-8"))
        different = [key for key in ("path", "players", "bots", "seed", "options") if theirs.get(key) != mine[key]]
        if different:
            raise OptionError(
                f"{folder} holds another sweep (its {', '.join(different)} differ); "
                "rerun with --fresh to replace it, or choose another --out"
            )
    folder.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(mine, indent=1, default=str) + "\n", encoding="utf-8")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- writing ------------------------------------------------------------------------------------------------------


def plot_sweep(result: SweepResult, file: Path) -> Path:
    """The measure against the value with 95% intervals, parity dashed, the suggested value circled; and how often."""
    plt = pyplot()
    with_frequency = any(point.per_game is not None for point in result.points)
    figure, axes = plt.subplots(1, 2 if with_frequency else 1, figsize=(11 if with_frequency else 6.5, 4), squeeze=False)
    axis = axes[0][0]
    judged = [point for point in result.points if point.share is not None]
    if judged:
        values = [point.value for point in judged]
        shares = [point.share or 0.0 for point in judged]
        low = [max(0.0, (point.share or 0.0) - (point.low or 0.0)) for point in judged]
        high = [max(0.0, (point.high or 0.0) - (point.share or 0.0)) for point in judged]
        axis.errorbar(values, shares, yerr=[low, high], fmt="o-", capsize=4, color="#c44e52", label=result.measure_words())
    rare = [point.value for point in result.points if point.share is None]
    if rare:
        axis.plot(rare, [result.parity] * len(rare), "x", color="#999999", label="too rare to judge")
    axis.axhline(result.parity, color="black", linestyle="--", linewidth=1, label=f"parity {result.parity:.3f}")
    if result.suggested is not None and result.suggested.share is not None:
        axis.plot(
            [result.suggested.value],
            [result.suggested.share],
            "o",
            markersize=14,
            markerfacecolor="none",
            markeredgecolor="#2a7",
            markeredgewidth=2,
            label=f"suggested: {result.suggested.value}",
        )
    axis.set_xlabel(result.vary.field or result.vary.parameter or "value")
    axis.set_ylabel("win share (95% CI)")
    axis.set_xticks(list(result.vary.values))
    axis.set_title(f"{result.card_title + ': ' if result.card_title else ''}{result.measure_words()}", fontsize=10)
    axis.legend(fontsize=8)
    if with_frequency:
        right = axes[0][1]
        right.plot([point.value for point in result.points], [point.per_game or 0.0 for point in result.points], "o-", color="#4c72b0")
        right.set_xlabel(result.vary.field or "value")
        right.set_ylabel(f"{result.action or 'done'} per game")
        right.set_xticks(list(result.vary.values))
        right.set_title("How often", fontsize=10)
    figure.tight_layout()
    figure.savefig(file, dpi=90)
    plt.close(figure)
    return file


def write_sweep(folder: Path, result: SweepResult) -> list[Path]:
    """``sweep.json``, ``sweep.csv``, ``sweep.png`` and ``sweep.html`` into ``folder``."""
    import csv
    import html

    files = [folder / SWEEP_JSON, folder / SWEEP_CSV, folder / SWEEP_PNG, folder / SWEEP_HTML]
    files[0].write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    with files[1].open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["value", "games", "win_share", "ci95_low", "ci95_high", "seat_games", "per_game", "length"])
        for point in result.points:
            writer.writerow(
                [point.value, point.games, point.share, point.low, point.high, point.seats, point.per_game, f"{point.length:.2f}"]
            )
    plot_sweep(result, files[2])
    from greenlight.sim.report import STYLE, html_table

    rows = [
        [
            str(point.value) + (" (suggested)" if result.suggested is not None and point.value == result.suggested.value else ""),
            str(point.games),
            f"{point.share:.3f}" if point.share is not None else f"too rare ({point.seats} game-seats)",
            f"{point.low:.3f} - {point.high:.3f}" if point.low is not None and point.high is not None else "-",
            f"{point.per_game:.3f}" if point.per_game is not None else "-",
            f"{point.length:.1f}" + (f" ({point.units:.1f} {result.length_unit})" if point.units is not None else ""),
        ]
        for point in result.points
    ]
    title = f"Sweep of {result.vary.label} ({result.game})"
    page = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>",
        f"<h1>{html.escape(title)}</h1>",
        f"<section class='verdict' aria-label='summary'><h2>Summary</h2><p>{html.escape(result.verdict())}</p>",
        f"<p class='note'>{len(result.points)} values, {result.games_per_value} games each, "
        "the same deals and bot seeds at every value.</p></section>",
        f'<p><img src="{SWEEP_PNG}" alt="{html.escape(result.measure_words())} against {html.escape(result.vary.label)}"></p>',
        html_table(["value", "games", "win share", "95% CI", "per game", "length (actions)"], rows),
        "</main></body></html>",
    ]
    files[3].write_text("\n".join(page), encoding="utf-8")
    return files


def ensure_budget(budget: int | None, games: int, values: int) -> int:
    """Games per value: ``games``, or the ``budget`` shared by the values (at least 2 each)."""
    if budget is None:
        return games
    per_value = budget // values
    if per_value < 2:
        raise OptionError(f"a budget of {budget} games gives {values} values fewer than 2 games each; raise --budget or vary fewer values")
    return per_value
