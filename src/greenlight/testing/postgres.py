"""A real, throw-away PostgreSQL server for tests and benchmarks: ``initdb`` and ``pg_ctl`` in a temporary folder.

No system service is needed, only the server programs of Debian's
``postgresql`` package (``scripts/test`` installs it). The cluster listens on
127.0.0.1 at a free port and on a Unix socket in its own folder, trusts local
connections, and is removed when the context ends. PostgreSQL refuses to run
as root, so under root the cluster belongs to the ``postgres`` system user
(which the Debian package creates).

>>> with TemporaryPostgres() as server:  # doctest: +SKIP
...     print(server.url)
postgresql://postgres@127.0.0.1:54321/greenlight
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

#: Where Debian puts each installed PostgreSQL version's server programs.
DEBIAN_BIN_GLOB = "/usr/lib/postgresql/*/bin"
#: The database the server is created with, and the superuser's name.
DATABASE = "greenlight"
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs are not installed (or cannot be run here)."""


def server_bin_dir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, or the newest Debian version's."""
    found = shutil.which("pg_ctl")
    if found is not None and Path(found).with_name("initdb").exists():
        return Path(found).resolve().parent
    versions = sorted(glob.glob(DEBIAN_BIN_GLOB), key=lambda path: int(Path(path).parent.name) if Path(path).parent.name.isdigit() else 0)
    for folder in reversed(versions):
        if (Path(folder) / "pg_ctl").exists() and (Path(folder) / "initdb").exists():
            return Path(folder)
    raise PostgresUnavailable("PostgreSQL's server programs (initdb, pg_ctl) are not installed: apt-get install postgresql")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class TemporaryPostgres:
    """A PostgreSQL server in a temporary data folder, started on enter and removed on exit.

    ``settings`` are extra ``postgres -c name=value`` settings (for example
    ``{"max_connections": "200"}``). Durability is PostgreSQL's default
    (``fsync`` and ``synchronous_commit`` on): tests and benchmarks see the
    real cost of a commit.
    """

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        self.settings = {"max_connections": "200", **(settings or {})}
        self.port = 0
        self.folder: Path | None = None
        self._user: pwd.struct_passwd | None = None
        self._bin = server_bin_dir()

    @property
    def url(self) -> str:
        """The connection address of the server's database (trusted local connections: no password)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    @property
    def data(self) -> Path:
        """The cluster's data folder."""
        assert self.folder is not None, "the server is not started"
        return self.folder / "data"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        program = [str(self._bin / command[0]), *command[1:]]
        if self._user is not None:
            program = ["runuser", "-u", self._user.pw_name, "--", *program]
        return subprocess.run(program, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> TemporaryPostgres:
        """Create the cluster and start the server; return self."""
        self.folder = Path(tempfile.mkdtemp(prefix="greenlight-pg-"))
        if os.geteuid() == 0:
            try:
                self._user = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable("running as root needs the 'postgres' user (apt-get install postgresql)") from None
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self.port = _free_port()
        try:
            self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--no-instructions")
            self._launch()
            self._run("createdb", "-h", str(self.folder), "-p", str(self.port), "-U", SUPERUSER, DATABASE)
        except subprocess.CalledProcessError as error:
            log = self.log()
            self.stop()
            raise PostgresUnavailable(f"PostgreSQL did not start: {error.stderr or error.stdout}\n{log}") from None
        return self

    def _launch(self) -> None:
        assert self.folder is not None
        options = " ".join(
            [f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.folder}"]
            + [f"-c {name}={value}" for name, value in self.settings.items()]
        )
        # The log file keeps the server's output away from this process's pipes (pg_ctl would wait on them).
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"), "-w", "-t", "60", "start")

    def restart(self) -> None:
        """Stop the server (fast shutdown: every connection is cut) and start it again on the same port and data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")
        self._launch()

    def log(self) -> str:
        """The server's log so far."""
        if self.folder is None or not (self.folder / "server.log").exists():
            return ""
        return (self.folder / "server.log").read_text(errors="replace")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if self.folder is None:
            return
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> TemporaryPostgres:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()
