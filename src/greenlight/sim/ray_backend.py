"""The Ray backend: a study's games as Ray tasks, on this machine or on a cluster.

Ray is imported only when this backend runs, so the rest of Greenlight works
without it (``pip install 'greenlight-boardgames[sim]'`` installs it).

* **Where.** With no address and no Ray running in this process, a local
  Ray is started (``workers`` CPUs, all cores by default) and shut down at
  the end. ``address`` connects to a cluster: ``auto`` (this machine is a
  cluster node), ``HOST:6379`` or ``ray://HOST:10001`` (Ray Client). If this
  process already called ``ray.init`` (a notebook, a test), that Ray is used
  and left running.
* **What runs.** Tasks go out in chunks (:func:`greenlight.sim.pool.chunk_size`
  over the cluster's CPUs); each chunk is one Ray task calling the same
  :func:`greenlight.sim.runner.play_game` as the local pool, so a seed gives
  the same row on every backend.
* **Data files.** A custom data path (``--cards``) exists on this machine
  only, so its contents are sent with the tasks; a worker writes them to a
  temporary folder named after their digest and plays with that copy. Rows
  keep the path as given, so they match the local backend's rows exactly.
* **Code.** Workers import ``greenlight``: install it on the cluster's nodes
  (same version), or pass ``ship_code`` to upload this checkout's package
  with the job (Ray's ``runtime_env`` ``py_modules``).
"""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.core.spec import OptionValue
from greenlight.sim.datafiles import Packed, materialize, pack, path_options
from greenlight.sim.pool import chunk_size
from greenlight.sim.runner import GameResult, GameTask, play_game

#: Where workers unpack shipped data files.
DATA_ROOT = Path(tempfile.gettempdir()) / "greenlight-data"


def import_ray() -> ModuleType:
    """The ``ray`` module, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise OptionError("the ray backend needs Ray: pip install 'greenlight-boardgames[sim]' (or pip install 'ray>=2.9')") from None
    return ray


def probe_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast with a clear message when ``HOST:PORT`` or ``ray://HOST:PORT`` does not answer.

    Ray itself retries an unreachable head node for minutes with only log
    noise; one TCP connection attempt tells a mistyped address in seconds.
    ``auto`` is left to Ray, which answers at once when no cluster runs here.

    >>> probe_address("auto")
    >>> probe_address("not an address")
    Traceback (most recent call last):
    ...
    greenlight.core.errors.OptionError: a Ray address is auto, HOST:PORT or ray://HOST:PORT, not 'not an address'
    """
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise OptionError(f"a Ray address is auto, HOST:PORT or ray://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise OptionError(
            f"cannot reach Ray at {address}: {reason}; start a head node there (ray start --head) or check the address"
        ) from None


def play_chunk_with_data(tasks: Sequence[GameTask], shipped: Mapping[str, Packed]) -> list[GameResult]:
    """Play ``tasks`` on a worker: unpack the shipped data files, play with them, give back rows naming the original paths."""
    local: dict[str, str] = {original: str(materialize(packed, DATA_ROOT)) for original, packed in shipped.items()}
    rows = []
    for task in tasks:
        originals = {name: value for name, value in task.options.items() if isinstance(value, str) and value in local}
        if not originals:
            rows.append(play_game(task))
            continue
        options: dict[str, OptionValue] = {**task.options, **{name: local[str(value)] for name, value in originals.items()}}
        row = play_game(replace(task, options=options))
        row.options.update(originals)
        if row.record is not None:
            row.record["options"].update(originals)
        rows.append(row)
    return rows


def shipped_data(tasks: Sequence[GameTask]) -> dict[str, Packed]:
    """The contents of every data path the tasks name, by path as given."""
    shipped: dict[str, Packed] = {}
    for task in tasks:
        for name in path_options(get_game(task.game)):
            value = task.options.get(name)
            if isinstance(value, str) and value and value not in shipped:
                shipped[value] = pack(value)
    return shipped


@dataclass(slots=True)
class RayBackend:
    """Plays a study's games as Ray tasks (see the module docstring)."""

    address: str | None = None
    #: CPUs of a Ray started here (0: all cores); ignored when connecting to a cluster.
    workers: int = 0
    ship_code: bool = False
    name: str = "ray"

    def describe(self) -> str:
        """``ray (local, N CPUs)`` or ``ray at ADDRESS``."""
        if self.address:
            return f"ray at {self.address}"
        return f"ray (local, {self.workers} CPUs)" if self.workers else "ray (local)"

    def _init(self, ray: ModuleType) -> bool:
        """Connect or start Ray unless this process already did; True if this call started it."""
        if ray.is_initialized():
            return False
        arguments: dict[str, Any] = {"address": self.address, "include_dashboard": False, "log_to_driver": False}
        if self.workers and not self.address:
            arguments["num_cpus"] = self.workers
        if self.ship_code:
            import greenlight

            arguments["runtime_env"] = {"py_modules": [greenlight]}
        if self.address:
            probe_address(self.address)
        try:
            ray.init(**arguments)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"at {self.address}" if self.address else "on this machine"
            raise OptionError(f"cannot start or reach Ray {where}: {error}") from None
        return True

    def run(self, tasks: Sequence[GameTask]) -> Iterator[tuple[int, GameResult]]:
        """Play every task on Ray, yielding rows as each chunk comes back; cancel the rest if stopped early."""
        if not tasks:
            return
        ray = import_ray()
        started = self._init(ray)
        pending: dict[Any, int] = {}
        try:
            remote = ray.remote(play_chunk_with_data)
            shipped = ray.put(shipped_data(tasks))
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            size = chunk_size(len(tasks), cpus)
            starts = range(0, len(tasks), size)
            pending = {remote.remote(list(tasks[start : start + size]), shipped): start for start in starts}
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    start = pending.pop(ref)
                    for offset, row in enumerate(ray.get(ref)):
                        yield start + offset, row
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()
