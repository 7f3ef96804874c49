"""What the lab's worker processes do: check uploaded data, and play a study, a comparison or a sweep to a result.

Everything here is plain functions of plain data, so it runs in a spawned worker
process (the lab's bounded pool) as well as in a test. An uploaded file is
only ever *read* by the game's data loader (TOML, JSON, CSV or an XLSX
workbook, whose formulas are never evaluated), never run; a workbook is
refused before it is opened if its unpacked size is out of bounds.

A job writes ``progress.json`` (games done, games in all) in its work folder as
it goes, which the server reads for the progress bar, and stops at the next
game when a ``cancel`` file appears there.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from greenlight.core.data import PARAMETERS
from greenlight.core.errors import DataError, GreenlightError, OptionError
from greenlight.core.registry import get_game
from greenlight.sim.compare import StudySide, compare_studies
from greenlight.sim.report import study_answers
from greenlight.sim.runner import GameResult
from greenlight.sim.spreadsheets import check_data, dataset_of, write_native
from greenlight.sim.storage import find_table, read_table
from greenlight.sim.study import LocalBackend, prepare_study, read_manifest, read_study_data, run_study
from greenlight.sim.summary import summarize_study
from greenlight.sim.sweep import run_sweep
from greenlight.sim.verdict import verdict
from greenlight.web.lab import charts

#: File kinds an upload may be (by its name's suffix).
UPLOAD_SUFFIXES = (".toml", ".json", ".csv", ".xlsx")
#: Most bytes a workbook may unpack to, and most members it may hold (a zip bomb is refused unopened).
MAX_UNPACKED_BYTES = 24 * 1024 * 1024
MAX_WORKBOOK_MEMBERS = 400
#: Seconds between two progress writes.
PROGRESS_EVERY = 0.5
PROGRESS_FILE = "progress.json"
CANCEL_FILE = "cancel"


class Cancelled(Exception):
    """The designer cancelled the job."""


# -- data ------------------------------------------------------------------------------------------


def _safe_name(name: str) -> str:
    base = Path(name).name
    suffix = Path(base).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise DataError(base or "the file", None, None, "a data file is .toml, .json, .csv or .xlsx")
    stem = "".join(char for char in Path(base).stem if char.isalnum() or char in "-_")[:60] or "data"
    return stem + suffix


def _check_workbook(file: Path, label: str) -> None:
    try:
        with zipfile.ZipFile(file) as archive:
            members = archive.infolist()
            if len(members) > MAX_WORKBOOK_MEMBERS or sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
                raise DataError(label, None, None, "the workbook unpacks to more than the lab reads; send a smaller one")
    except zipfile.BadZipFile:
        raise DataError(label, None, None, "not an .xlsx workbook") from None


def check_upload(game_id: str, name: str, content: bytes) -> dict[str, Any]:
    """Read an uploaded data file with the game's own checks; its tables and rule parameters (plain JSON data).

    Raises :class:`~greenlight.core.errors.DataError` (file, row, card, column) or
    :class:`~greenlight.core.errors.OptionError` (a bad parameter).
    """
    game = get_game(game_id)
    dataset = dataset_of(game)
    label = _safe_name(name)
    with tempfile.TemporaryDirectory(prefix="greenlight-lab-") as folder:
        file = Path(folder) / label
        file.write_bytes(content)
        if file.suffix == ".xlsx":
            _check_workbook(file, label)
        path: Path = file
        if dataset.folder and file.suffix in (".toml", ".json", ".csv"):
            # One table's file goes in a folder of its own, where its name says which table it is.
            path = Path(folder) / "data"
            path.mkdir()
            shutil.move(str(file), path / label)
        try:
            return _read_checked(game_id, path, label)
        except DataError as error:
            raise _relabel(error, folder) from None


def _relabel(error: DataError, folder: str) -> DataError:
    """The error with the server's temporary folder taken out: it names the designer's file, never a server path."""

    def local(text: str) -> str:
        return text.replace(f"{folder}/data/", "").replace(f"{folder}/", "").replace(folder, "")

    return DataError(local(error.file) or "data", error.card, error.field, local(error.problem), row=error.row)


def check_tables(game_id: str, tables: Mapping[str, Any], parameters: Mapping[str, Any]) -> dict[str, Any]:
    """Check tables edited in the lab's table editor (cells as text, as in a spreadsheet) with the game's own checks."""
    game = get_game(game_id)
    dataset = dataset_of(game)
    import csv

    with tempfile.TemporaryDirectory(prefix="greenlight-lab-") as folder:
        path = Path(folder) / "data"
        path.mkdir()
        for name, rows in tables.items():
            if name not in dataset.names():
                raise DataError(name, None, None, f"{game.spec.title} has no table {name} (tables: {', '.join(dataset.names())})")
            table = dataset.table(name)
            if not isinstance(rows, list) or not all(isinstance(row, Mapping) for row in rows):
                raise DataError(name, None, None, "a table is a list of rows")
            columns = [spec.name for spec in table.fields]
            with (path / f"{name}.csv").open("w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(columns)
                for row in rows:
                    extra = [key for key in row if key not in columns]
                    if extra:
                        raise DataError(f"{name}.csv", None, str(extra[0]), f"unknown column (known columns: {', '.join(columns)})")
                    writer.writerow([_cell_text(row.get(column)) for column in columns])
        if parameters:
            with (path / f"{PARAMETERS}.csv").open("w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["name", "value"])
                for key, value in parameters.items():
                    writer.writerow([str(key), _cell_text(value)])
        try:
            return _read_checked(game_id, path, "the edited tables")
        except DataError as error:
            raise _relabel(error, folder) from None


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def _read_checked(game_id: str, path: Path, label: str) -> dict[str, Any]:
    game = get_game(game_id)
    dataset = dataset_of(game)
    found = check_data(game, path)  # every field, then every rule of the data: a game of every player count starts with it
    sources = dataset.locate(path)
    tables = {name: source.read() for name, source in sources.items()}
    parameters = dict(game.spec.changed_parameters(game.spec.resolve_options(game.spec.min_players, {dataset.option: str(path)})))
    return {
        "game": game.spec.id,
        "tables": tables,
        "custom": [name for name, source in sources.items() if not source.bundled],
        "parameters": parameters,
        "records": {name: item["records"] for name, item in found["tables"].items()},
        "label": label,
    }


def bundled_tables(game_id: str) -> dict[str, Any]:
    """The game's bundled (or example) data as the table editor starts from it, with every column's description."""
    game = get_game(game_id)
    dataset = dataset_of(game)
    tables = dataset.read(dataset.bundled)
    return {
        "game": game.spec.id,
        "tables": tables,
        "columns": {
            table.name: [
                {
                    "name": spec.name,
                    "kind": spec.kind,
                    "required": spec.required,
                    "choices": list(spec.choices) if spec.choices is not None else None,
                    "minimum": spec.minimum,
                    "maximum": spec.maximum,
                    "words": spec.describe(),
                }
                for spec in table.fields
            ]
            for table in dataset.tables
        },
        "bundled_is_default": dataset.bundled_is_default,
    }


def materialize(game_id: str, data: Mapping[str, Any] | None, folder: Path) -> str | None:
    """Write checked data (tables and parameters) as the game's own files under ``folder``; the data path (None: none)."""
    if data is None:
        return None
    game = get_game(game_id)
    dataset = dataset_of(game)
    native = "json" if dataset.bundled.suffix == ".json" else "toml"
    files = write_native(game, data["tables"], native, folder / "data", data.get("parameters") or {})
    return str(folder / "data") if dataset.folder else str(files[0])


# -- progress --------------------------------------------------------------------------------------


class FileProgress:
    """Counts games into ``progress.json`` (at most every :data:`PROGRESS_EVERY` seconds) and stops on a ``cancel`` file."""

    def __init__(self, folder: Path, total: int) -> None:
        self.folder = folder
        self.total = total
        self.done = 0
        self._written = 0.0
        self._write()

    def start(self, total: int, done: int) -> None:
        """A study (or a sweep's value) begins: games it reuses count as done."""
        self.done += done
        self._write()

    def advance(self, row: GameResult) -> None:
        """One more game; write now and then; stop if cancelled."""
        self.done += 1
        if time.monotonic() - self._written >= PROGRESS_EVERY:
            self._write()
            if (self.folder / CANCEL_FILE).exists():
                raise Cancelled()

    def _write(self) -> None:
        self._written = time.monotonic()
        temporary = self.folder / f".{PROGRESS_FILE}.tmp"
        temporary.write_text(json.dumps({"done": min(self.done, self.total), "total": self.total}), encoding="utf-8")
        temporary.replace(self.folder / PROGRESS_FILE)


def read_progress(folder: Path) -> tuple[int, int] | None:
    """(done, total) of the job in ``folder``, if it has written any."""
    try:
        data = json.loads((folder / PROGRESS_FILE).read_text(encoding="utf-8"))
        return int(data["done"]), int(data["total"])
    except (OSError, ValueError, KeyError):
        return None


# -- jobs ------------------------------------------------------------------------------------------


def games_in_all(request: Mapping[str, Any]) -> int:
    """How many games a request plays (the budget's measure)."""
    games = int(request["games"])
    if request["kind"] == "compare":
        return 2 * games
    if request["kind"] == "sweep":
        from greenlight.sim.sweep import parse_values

        return games * len(parse_values(str(request["vary"]).partition("=")[2]))
    return games


def _options(request: Mapping[str, Any], data_path: str | None) -> dict[str, Any]:
    game = get_game(request["game"])
    options: dict[str, Any] = dict(request.get("parameters") or {})
    if data_path is not None:
        options[dataset_of(game).option] = data_path
    return options


def _study_result(folder: Path, study_json: Mapping[str, Any], run: Any) -> dict[str, Any]:
    data = read_study_data(folder) or {}
    summary = summarize_study(study_json, run.results, run.cards, run.run_info(), data.get("titles"))
    return {"answers": study_answers(summary), "summary": summary, "charts": charts.study_charts(summary)}


def run_job(request: Mapping[str, Any], data: Mapping[str, Any] | None, baseline: Mapping[str, Any] | None, workdir: str) -> dict[str, Any]:
    """Play one lab job (``request["kind"]``: ``study``, ``compare`` or ``sweep``) in ``workdir``; its result as JSON data.

    Runs in a worker process. Raises :class:`Cancelled` when cancelled.
    """
    folder = Path(workdir)
    folder.mkdir(parents=True, exist_ok=True)
    progress = FileProgress(folder, games_in_all(request))
    game_id, players, bots = request["game"], int(request["players"]), list(request["bots"])
    games, seed = int(request["games"]), int(request["seed"])
    backend = LocalBackend(1)
    kind = request["kind"]
    if kind == "study":
        options = _options(request, materialize(game_id, data, folder / "b"))
        study = prepare_study(game_id, players, bots, games, seed, options, chunk_size=25)
        run = run_study(study, folder / "study", backend, progress)
        result = _study_result(folder / "study", study.to_json(), run)
    elif kind == "compare":
        sides = []
        for label, source in (("a", baseline), ("b", data)):
            options = _options(request, materialize(game_id, source, folder / label))
            study = prepare_study(game_id, players, bots, games, seed, options, chunk_size=25)
            run = run_study(study, folder / f"study-{label}", backend, progress)
            cards_file = find_table(folder / f"study-{label}" / "cards")
            manifest = read_manifest(folder / f"study-{label}")
            sides.append(
                StudySide(
                    "A (baseline)" if label == "a" else "B (your data)",
                    run.results,
                    read_table(cards_file) if cards_file is not None else None,
                    manifest,
                    read_study_data(folder / f"study-{label}"),
                )
            )
        comparison = compare_studies(sides[0], sides[1])
        # The data files are this job's own copies: name them as the designer knows them, never by a server path.
        comparison.settings = [line for line in comparison.settings if not line.startswith("The data files")]
        comparison.settings.append(f"The cards: {'your baseline data' if baseline else 'the game as printed'} in A, your data in B.")
        answer = verdict(comparison)
        result = {
            "sections": [{"heading": heading, "sentences": sentences} for heading, sentences in answer.sections() if sentences],
            "comparison": comparison.to_json(),
            "charts": charts.compare_charts(comparison),
        }
    elif kind == "sweep":
        options = _options(request, materialize(game_id, data, folder / "base"))
        swept = run_sweep(game_id, players, bots, str(request["vary"]), games, seed, folder / "sweep", options, backend, progress)
        result = {"verdict": swept.verdict(), "sweep": swept.to_json(), "charts": charts.sweep_charts(swept)}
    else:
        raise OptionError(f"unknown kind {kind!r}")
    progress.done = progress.total
    progress._write()
    return result


def run_job_safely(
    request: Mapping[str, Any], data: Mapping[str, Any] | None, baseline: Mapping[str, Any] | None, workdir: str
) -> dict[str, Any]:
    """:func:`run_job`, its outcome as data: ``{"ok": result}``, ``{"error": words}`` or ``{"cancelled": true}``."""
    try:
        return {"ok": run_job(request, data, baseline, workdir)}
    except Cancelled:
        return {"cancelled": True}
    except GreenlightError as error:
        return {"error": str(error)}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
