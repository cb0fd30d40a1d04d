"""A real PostgreSQL server for the tests: started once per run, a fresh database per test.

The server is the Debian ``postgresql`` package's binaries (``.ci/run`` installs them when
missing; without apt it installs the ``pgserver`` wheel, which ships them, and that is used), run
from a temporary directory on 127.0.0.1 and a free port; nothing outside the machine is used.
The server runs in the foreground, tied to the test run (Linux ``PR_SET_PDEATHSIG``): a run that
is killed, even with SIGKILL, takes its server with it. PostgreSQL refuses to run as root: as
root, the data directory is handed to the ``postgres`` system user (or ``SPADES_PG_USER``;
created with ``useradd`` when missing) and the binaries run through ``runuser``.

Without the binaries the PostgreSQL variants of the tests are skipped, with the reason, unless
``SPADES_REQUIRE_POSTGRES=1`` (set by ``.ci/run``): then they fail.

Fixtures:
    postgres_server   (session) a running ``PostgresServer``
    postgres_url      a ``postgresql://`` URL of a new, empty database for this test
    db_target         parametrized: a SQLite file path, then a PostgreSQL URL (the same test on both)
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SUPERUSER = "spades"


def _bindir() -> Path | None:
    """The newest PostgreSQL server binaries on this machine."""
    if explicit := os.environ.get("SPADES_PG_BINDIR"):
        return Path(explicit)
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/postgres"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("postgres")
    if found:
        return Path(found).resolve().parent
    wheel = importlib.util.find_spec("pgserver")  # pip install pgserver: binaries in its package
    if wheel is not None and wheel.submodule_search_locations:
        for location in wheel.submodule_search_locations:
            path = Path(location) / "pginstall" / "bin"
            if (path / "postgres").exists():
                return path
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        path = Path(out.stdout.strip())
        if (path / "postgres").exists():
            return path
    return None


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux for a SIGTERM when the test run ends, however it ends."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the fixture's own teardown still stops it
        pass


PR_SET_PDEATHSIG = 1


def _remove_leftovers(min_age: float = 600.0) -> None:
    """Data directories of runs that were killed (their server went with them): a directory ten
    minutes old whose server is not running is removed; a running one is left alone."""
    for base in Path(tempfile.gettempdir()).glob("spades-pg-*"):
        try:
            if time.time() - base.stat().st_mtime < min_age:
                continue
            pidfile = base / "data" / "postmaster.pid"
            if pidfile.exists():
                pid = int(pidfile.read_text().split()[0])
                try:
                    os.kill(pid, 0)
                    continue  # running: someone's live server
                except ProcessLookupError:
                    pass
            shutil.rmtree(base, ignore_errors=True)
        except (OSError, ValueError, IndexError):
            continue


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PortTaken(RuntimeError):
    """The server could not bind its port: something else took it after it was found free."""


@dataclass
class PostgresServer:
    """A running server. ``url(db)`` is a URL to one of its databases."""

    bindir: Path
    datadir: Path
    port: int
    run_as: str | None  # the system user the server runs as (None: the current user)
    process: subprocess.Popen[bytes] | None = None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _cmd(self, *args: str) -> list[str]:
        if self.run_as is None:
            return list(args)
        return ["runuser", "-u", self.run_as, "--", *args]

    @classmethod
    def start(cls, bindir: Path) -> PostgresServer:
        run_as: str | None = None
        if os.geteuid() == 0:
            run_as = os.environ.get("SPADES_PG_USER", "postgres")
            try:
                account = pwd.getpwnam(run_as)
            except KeyError:
                subprocess.run(
                    ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", run_as],
                    capture_output=True,
                    check=False,
                )
                try:
                    account = pwd.getpwnam(run_as)
                except KeyError:
                    raise RuntimeError(
                        f"PostgreSQL will not run as root and there is no {run_as!r} user to run it as"
                    ) from None
        _remove_leftovers()
        # /tmp, not pytest's private tmp dir: the server's user must be able to reach it
        base = Path(tempfile.mkdtemp(prefix="spades-pg-"))
        datadir = base / "data"
        if run_as is not None:
            os.chown(base, account.pw_uid, account.pw_gid)
        server = cls(bindir, datadir, _free_port(), run_as)
        server._run(
            str(bindir / "initdb"), "-D", str(datadir), "-U", SUPERUSER, "-A", "trust",
            "-E", "UTF8", "--no-locale", "--no-sync",
        )  # fmt: skip
        # The free port is only free when it was asked for: another run on the machine (a second
        # test run, another process's server) can take it before this server binds it. Then the
        # server stops at once saying so, and it is started again on another port.
        for attempt in itertools.count(1):
            server._launch(base)
            try:
                server._wait_ready()
                return server
            except PortTaken:
                if attempt == 5:
                    raise
                server.port = _free_port()
        raise AssertionError("unreachable")

    def _launch(self, base: Path) -> None:
        # speed over durability: the server is thrown away after the run (a killed *bot* still
        # loses nothing acknowledged: its commits are in the server's memory and WAL)
        options = [
            "listen_addresses=127.0.0.1", f"port={self.port}", f"unix_socket_directories={base}",
            "fsync=off", "synchronous_commit=off", "full_page_writes=off",
            "max_connections=200", "shared_buffers=32MB",
        ]  # fmt: skip
        # in the foreground, tied to this process: if the test run is killed (even with SIGKILL),
        # the kernel sends the server (through runuser, which passes it on) a SIGTERM: no leftovers
        with (base / "server.log").open("ab") as log:
            postgres = str(self.bindir / "postgres")
            self.process = subprocess.Popen(
                self._cmd(postgres, "-D", str(self.datadir), *(f"-c{o}" for o in options)),
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )

    def _wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert self.process is not None
            if self.process.poll() is not None:
                log = self._log_tail()
                if "Address already in use" in log:
                    (self.datadir.parent / "server.log").unlink(missing_ok=True)
                    raise PortTaken(self.port)
                raise RuntimeError(f"PostgreSQL stopped at start-up:\n{log}")
            # over this server's own socket directory: a server of someone else's on the same port
            # (the race above) must not pass for this one
            ready = subprocess.run(
                [str(self.bindir / "pg_isready"), "-q", "-h", str(self.datadir.parent), "-p", str(self.port)],
                capture_output=True,
                check=False,
            )
            if ready.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL was not ready within {timeout:g} s:\n{self._log_tail()}")
            time.sleep(0.1)

    def _log_tail(self) -> str:
        log = self.datadir.parent / "server.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def _run(self, *args: str) -> None:
        done = subprocess.run(self._cmd(*args), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            why = done.stderr or done.stdout
            raise RuntimeError(f"{' '.join(args[:1])} failed: {why}\n{self._log_tail()}")

    def stop(self) -> None:
        subprocess.run(
            self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "immediate", "-w", "stop"),
            capture_output=True,
            check=False,
        )
        if self.process is not None:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        shutil.rmtree(self.datadir.parent, ignore_errors=True)


_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _bindir()
    if bindir is None:
        reason = "PostgreSQL server binaries not found (apt-get install postgresql)"
        if os.environ.get("SPADES_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    started = time.monotonic()
    server = PostgresServer.start(bindir)
    print(f"PostgreSQL {bindir} on 127.0.0.1:{server.port} ({time.monotonic() - started:.1f} s to start)")
    try:
        yield server
    finally:
        server.stop()


async def create_database(server: PostgresServer) -> str:
    """A new, empty database on the server; its URL."""
    import asyncpg

    name = f"t{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    return server.url(name)


async def drop_database(server: PostgresServer, url: str) -> None:
    import asyncpg

    name = url.rsplit("/", 1)[-1]
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, url)


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a test's database lives: a SQLite file, then (second run) a PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "spades.db")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await create_database(server)
    yield url
    await drop_database(server, url)
