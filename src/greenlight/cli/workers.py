"""``greenlight serve --workers N``: N server processes on one listening socket, kept running by a supervisor.

The supervisor opens the socket once and hands it to every worker (each a
full ``greenlight serve`` on the shared PostgreSQL database), so the kernel
spreads connections over them and the port stays open while a worker is
restarted. A worker that dies is started again at once (after five quick
deaths in a row the supervisor gives up and says why); Ctrl+C or SIGTERM
stops every worker cleanly. Tables never live in one worker: any worker
serves any table (see :mod:`greenlight.web.postgres`).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from types import FrameType

from greenlight.web.logs import WORKER_ENV

#: A worker that dies sooner than this after starting counts as a quick death.
QUICK_DEATH_SECONDS = 5.0
#: Quick deaths in a row (of any worker) after which the supervisor stops.
MAX_QUICK_DEATHS = 5
#: Seconds each worker gets to finish its requests and write what is queued when stopping.
STOP_SECONDS = 20.0
#: How often the supervisor looks at its workers.
WATCH_SECONDS = 0.2


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port``, listening, inheritable by the workers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


class Supervisor:
    """Starts ``workers`` copies of ``command`` (each told its worker number), restarts those that die, stops them all."""

    def __init__(self, command: list[str], workers: int, listener: socket.socket) -> None:
        self.command = command
        self.listener = listener
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.started: dict[int, float] = {}
        self.workers = workers
        self.stopping = False
        self.quick_deaths = 0

    def spawn(self, worker: int) -> None:
        """Start worker number ``worker``."""
        import os

        environment = {**os.environ, WORKER_ENV: str(worker)}
        self.processes[worker] = subprocess.Popen(self.command, pass_fds=[self.listener.fileno()], env=environment)
        self.started[worker] = time.monotonic()

    def stop(self, signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
        """Ask every worker to stop (a signal handler)."""
        self.stopping = True

    def run(self) -> int:
        """Keep the workers running until asked to stop; the exit status."""
        for worker in range(self.workers):
            self.spawn(worker)
        while not self.stopping:
            time.sleep(WATCH_SECONDS)
            for worker, process in list(self.processes.items()):
                code = process.poll()
                if code is None or self.stopping:
                    continue
                quick = time.monotonic() - self.started[worker] < QUICK_DEATH_SECONDS
                self.quick_deaths = self.quick_deaths + 1 if quick else 0
                if self.quick_deaths >= MAX_QUICK_DEATHS:
                    print(f"greenlight: workers keep exiting at once (last: worker {worker}, status {code}); stopping", file=sys.stderr)
                    self.stopping = True
                    self._stop_all()
                    return 1
                print(f"greenlight: worker {worker} (pid {process.pid}) exited with status {code}; starting it again", file=sys.stderr)
                self.spawn(worker)
        self._stop_all()
        return 0

    def _stop_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in self.processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def supervise(host: str, port: int, db: str, workers: int, options: list[str]) -> int:
    """Run ``workers`` server processes on ``host:port`` over the database ``db`` until stopped; the exit status."""
    listener = listening_socket(host, port)
    command = [sys.executable, "-m", "greenlight.cli.main", "serve", "--host", host, "--port", str(port), "--db", db]
    command += ["--listen-fd", str(listener.fileno()), *options]
    supervisor = Supervisor(command, workers, listener)
    signal.signal(signal.SIGTERM, supervisor.stop)
    signal.signal(signal.SIGINT, supervisor.stop)
    try:
        return supervisor.run()
    finally:
        listener.close()
