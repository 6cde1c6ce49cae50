"""A real, throw-away PostgreSQL server for the tests and the benchmarks.

:meth:`PostgresServer.start` runs Debian's ``initdb`` and ``pg_ctl`` (as the ``postgres`` user
when we are root: the server refuses to run as root) on a free port, with its data and its
unix socket in a temporary folder; :meth:`PostgresServer.stop` stops it at once and removes the
folder. :class:`UnavailableError` says why there is none (no binaries: ``make test`` installs
Debian's ``postgresql`` package when ``apt-get`` is there).
"""

from __future__ import annotations

import glob
import itertools
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]

SUPERUSER = "mentat"
_FILE_COPY = "STRATEGY = FILE_COPY"
_names = itertools.count(1)


class UnavailableError(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def find_bin() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, or Debian's newest version."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0,
    )
    if debian:
        return Path(debian[-1]).parent
    raise UnavailableError(
        "PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql/*/bin):"
        " `apt-get install postgresql` (make test does it when apt-get is available)"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """One running server; ``url(name)`` names a database on it."""

    def __init__(self, root: Path, port: int, bin_dir: Path) -> None:
        self.root = root
        self.port = port
        self.bin_dir = bin_dir
        self._reaper: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls, *, durable: bool = False, max_connections: int = 200) -> PostgresServer:
        """Start a fresh server. ``durable=False`` (tests) turns fsync off: quicker, and a
        crash of the machine is no concern for a throw-away database; benchmarks pass True."""
        bin_dir = find_bin()
        root = Path(tempfile.mkdtemp(prefix="mentat-pg-"))
        server = cls(root, free_port(), bin_dir)
        try:
            if os.geteuid() == 0:
                shutil.chown(root, "postgres", "postgres")
            server._run(
                "initdb",
                "-D",
                str(root / "data"),
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--no-sync",
            )
            options = [
                f"-p {server.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={root}",
                f"-c max_connections={max_connections}",
                f"-c fsync={'on' if durable else 'off'}",
            ]
            if not durable:
                options += ["-c synchronous_commit=off", "-c full_page_writes=off"]
            server._run(
                "pg_ctl",
                "start",
                "-w",
                "-D",
                str(root / "data"),
                "-l",
                str(root / "server.log"),
                "-o",
                " ".join(options),
            )
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        server._reap_after(os.getpid())
        return server

    def _reap_after(self, pid: int) -> None:
        """Stop the server and remove its folder once ``pid`` is gone, even when it is killed
        (a test run stopped by a timeout never reaches :meth:`stop`)."""
        stop = shlex.join(self._command("pg_ctl", "stop", "-m", "immediate", "-D", self.data))
        script = (
            f"while kill -0 {pid} 2>/dev/null; do sleep 1; done;"
            f" {stop} >/dev/null 2>&1; rm -rf {shlex.quote(str(self.root))}"
        )
        self._reaper = subprocess.Popen(
            ["sh", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    async def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{next(_names)}"
        # FILE_COPY (PostgreSQL 15+) skips writing the template through the WAL: quicker
        await self._admin(f'CREATE DATABASE "{name}"', f'CREATE DATABASE "{name}" {_FILE_COPY}')
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        await self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    @property
    def data(self) -> str:
        return str(self.root / "data")

    def stop(self) -> None:
        """Stop at once (``-m immediate``) and remove the folder."""
        if self._reaper is not None:
            self._reaper.kill()
            self._reaper.wait()
        try:
            self._run("pg_ctl", "stop", "-m", "immediate", "-D", self.data)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    async def _admin(self, sql: str, sql_15: str | None = None) -> None:
        """Run ``sql`` in the maintenance database (``sql_15`` instead on PostgreSQL 15+)."""
        connection = await asyncpg.connect(self.url())
        try:
            version = int(await connection.fetchval("SHOW server_version_num"))
            await connection.execute(sql_15 if sql_15 and version >= 150000 else sql)
        finally:
            await connection.close()

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.bin_dir / program), *args]
        if os.geteuid() == 0:  # the server refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        return command

    def _run(self, program: str, *args: str) -> None:
        command = self._command(program, *args)
        done = subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise UnavailableError(
                f"{program} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}"
            )
