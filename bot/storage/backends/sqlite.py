"""SQLite through aiosqlite: one connection, one lock, WAL, ``BEGIN IMMEDIATE`` transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import aiosqlite

from .. import migrations
from ..models import StorageClosed, StorageUnavailable
from ..sql import Params
from .base import Backend, Row, Session

log = logging.getLogger(__name__)


class SqliteSession(Session):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self.conn.execute(sql, params) as cur:
            return cur.rowcount

    async def executemany(self, sql: str, seq: Iterable[Params]) -> int:
        async with self.conn.executemany(sql, seq) as cur:
            return cur.rowcount

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        async with self.conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self.conn.execute(sql, params) as cur:
            return list(await cur.fetchall())


class SqliteBackend(Backend):
    """One aiosqlite connection in autocommit mode; an asyncio lock serializes every operation so
    a transaction never interleaves with another coroutine's statements."""

    dialect = "sqlite"
    # the database's clock in unix milliseconds (shard leases)
    now_ms_sql = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._session = SqliteSession(conn)
        self._lock = asyncio.Lock()
        self._closed = False
        self.path = path
        self.description = path

    @classmethod
    async def connect(cls, path: str, *, lock_wait: float = 60.0) -> SqliteBackend:
        """Open the file, refusing (StorageUnavailable, one line, the file untouched) a file that is
        not a SQLite database, is damaged beyond its schema, cannot be written, has a ``-wal`` or
        ``-shm`` file the bot cannot use, or stays locked by another process for ``lock_wait`` s."""
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                _check_side_files(path)
            await _probe_waiting(path, lock_wait)
        except (OSError, sqlite3.Error) as exc:
            raise StorageUnavailable(_open_failure(path, exc, lock_wait)) from exc
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")  # safe with WAL: no corruption on crash
            await conn.execute("PRAGMA busy_timeout=5000")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, path)

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise StorageClosed(f"storage {self.path} is closed")

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Session]:
        async with self._lock:
            self._check_open()
            yield self._session

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self._lock:
            self._check_open()
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._session
            except BaseException:
                await self._rollback()
                raise
            try:
                await self._commit()
            except BaseException:
                await self._rollback()
                raise

    async def write_one(self, sql: str, params: Params = ()) -> int:
        """In autocommit mode a statement is its own transaction: one trip, not BEGIN/…/COMMIT."""
        async with self._lock:
            self._check_open()
            return await self._session.execute(sql, params)

    async def _commit(self) -> None:
        await self._conn.execute("COMMIT")

    async def _rollback(self) -> None:
        """Roll back what is still open. SQLite may already have rolled back by itself (a failed
        COMMIT, disk full): then there is nothing to do, and the error being handled stays the one
        raised (never "cannot rollback - no transaction is active")."""
        if not self._conn.in_transaction:
            return
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.warning("rollback failed after an earlier error on %s: %s", self.path, exc)

    def is_unique_violation(self, exc: BaseException, index: str, columns: str) -> bool:
        # SQLite's message names the indexed columns ("UNIQUE constraint failed: tables.channel_id")
        return isinstance(exc, sqlite3.IntegrityError) and f"UNIQUE constraint failed: {columns}" in str(exc)

    def is_integrity_error(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    def is_damage(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.DatabaseError) and (
            getattr(exc, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")
            or "malformed" in str(exc)
        )

    async def pragma(self, name: str) -> Any:
        if not name.isidentifier():
            raise ValueError(f"bad pragma name {name!r}")
        async with self.connection() as db:
            return await db.fetchval(f"PRAGMA {name}")

    async def migrate(self, directory: Path | None, *, now: int) -> list[int]:
        async with self._lock:
            self._check_open()
            await self._conn.execute(migrations.BOOKKEEPING)
            new: list[int] = []
            for m in migrations.discover(directory, self.dialect):
                # BEGIN IMMEDIATE takes the write lock first, then the applied versions are read
                # again: a second process starting at the same time waits, then skips the file
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    rows = await self._session.fetchall("SELECT version, checksum FROM schema_migrations")
                    done = {int(v): str(c) for v, c in rows}
                    if not migrations.pending([m], done):
                        await self._conn.execute("COMMIT")
                        continue
                    for statement in split_statements(m.sql):
                        await self._conn.execute(statement)
                    await self._session.execute(migrations.RECORD, (m.version, m.name, m.checksum, int(now)))
                    await self._commit()
                except Exception as exc:
                    await self._rollback()
                    raise migrations.MigrationError(f"migration {m.label} failed: {exc}") from exc
                log.info("applied migration %s", m.label)
                new.append(m.version)
            return new


def split_statements(script: str) -> list[str]:
    """A script's statements (``sqlite3.complete_statement`` decides where one ends, so a ``;`` in
    a literal, a comment or a trigger body does not split it)."""
    statements: list[str] = []
    buf = ""
    for piece in script.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            statements.append(buf)
            buf = ""
    # the last piece got a ";" that was not in the script; a tail of only blanks/comments is dropped
    if statements and not buf:
        statements[-1] = statements[-1][:-1]
    elif buf.strip(" \t\r\n;"):
        statements.append(buf[:-1])
    return [s for s in statements if _has_code(s)]


def _has_code(statement: str) -> bool:
    text = statement
    while True:
        text = text.strip(" \t\r\n;")
        if text.startswith("--"):
            text = text.partition("\n")[2]
        elif text.startswith("/*"):
            text = text.partition("*/")[2]
        else:
            return bool(text)


def _probe(path: str) -> None:
    """Can the bot use this file? Read first: a file that is not a database, or whose schema is
    damaged, is refused before anything (even the switch to WAL) writes to it. A read-only file
    opens fine and fails every later write: try one, then undo it."""
    if path == ":memory:":
        return
    conn = sqlite3.connect(path, isolation_level=None, timeout=1.0)  # (a lock: ``_probe_waiting``)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()
        conn.execute("PRAGMA journal_mode=WAL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE spades_write_probe (x INTEGER)")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    finally:
        conn.close()


def _is_busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
        or "locked" in str(exc)
    )


async def _probe_waiting(path: str, wait: float) -> None:
    """``_probe``, waiting (up to ``wait`` s) while another process holds the file's write lock:
    one warning line says so and names who holds it, instead of failing after SQLite's 5 s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    said = False
    while True:
        try:
            await asyncio.to_thread(_probe, path)
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or loop.time() >= deadline:
                raise
            if not said:
                log.warning(
                    "database file %s is locked by %s: waiting up to %g s for it",
                    path,
                    _holders(path),
                    wait,
                )
                said = True
        await asyncio.sleep(min(0.5, max(0.0, deadline - loop.time())))


def _holders(path: str) -> str:
    """Who has the database file (or its -wal/-shm) open, as far as this machine tells (Linux's
    /proc): "process 1234 (sqlite3 spades.db)", else "another connection"."""
    wanted = {str(Path(path).resolve()) + suffix for suffix in ("", "-wal", "-shm", "-journal")}
    found: list[str] = []
    me = os.getpid()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            pid = int(proc.name)
            if pid == me or not any(os.readlink(fd) in wanted for fd in (proc / "fd").iterdir()):
                continue
            raw = (proc / "cmdline").read_bytes().decode(errors="replace")
            command = " ".join(raw.replace("\0", " ").split())
        except (OSError, ValueError):
            continue
        found.append(f"process {pid} ({command[:80] or '?'})")
    return ", ".join(found[:3]) if found else "another connection"


def _check_side_files(path: str) -> None:
    """A ``-shm`` (or ``-wal``) file the bot cannot read and write would end the process with
    SIGBUS when SQLite maps it (an immutable ``-shm``, say): refused before it is opened."""
    for suffix in ("-shm", "-wal"):
        side = Path(path + suffix)
        if not side.exists():
            continue
        try:
            with open(side, "r+b"):
                pass
        except OSError as exc:
            raise _SideFileUnusable(str(side), exc) from exc


class _SideFileUnusable(OSError):
    def __init__(self, side: str, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror)
        self.side = side


def _writable_dir(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (asked of the filesystem: root ignores modes)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _open_failure(path: str, exc: BaseException, lock_wait: float = 0.0) -> str:
    """One line for the operator: which file, what is wrong, what to do."""
    where = Path(path).resolve().parent if path != ":memory:" else Path(".")
    name = getattr(exc, "sqlite_errorname", "")
    cause = str(exc) or type(exc).__name__
    untouched = "the file was not changed"
    if isinstance(exc, _SideFileUnusable):
        return (
            f"cannot use database file {path}: the bot cannot read and write {exc.side} "
            f"({exc.strerror}); with no bot running, make it writable for the bot's user (an immutable "
            f"file: chattr -i) or remove it ({untouched})"
        )
    if _is_busy(exc):
        return (
            f"cannot use database file {path}: it stayed locked by {_holders(path)} for {lock_wait:g} s "
            f"({cause}); stop that process (or let it finish) and start again, or set DATABASE_LOCK_WAIT "
            f"to wait longer ({untouched})"
        )
    if name == "SQLITE_NOTADB":
        return (
            f"cannot use database file {path}: it is not a SQLite database ({cause}); point "
            f"DATABASE_PATH at the bot's database, or move the file away to start a new one ({untouched})"
        )
    if name == "SQLITE_CORRUPT" or "malformed" in cause:
        return (
            f"cannot use database file {path}: it is damaged ({cause}); restore a backup, or salvage it "
            f"with `sqlite3 {path} .recover | sqlite3 repaired.db` ({untouched})"
        )
    if name == "SQLITE_READONLY_DIRECTORY" or (
        name == "SQLITE_CANTOPEN" and Path(path).exists() and not _writable_dir(where)
    ):
        return (
            f"cannot use database file {path}: its directory {where} is read-only, and SQLite needs to "
            f"create {Path(path).name}-wal and -shm there ({cause}); make it writable for the bot "
            f"({untouched})"
        )
    if name.startswith("SQLITE_READONLY"):
        return (
            f"cannot use database file {path}: it is read-only ({cause}); give the bot's user write "
            f"permission on it and on {where} ({untouched})"
        )
    if isinstance(exc, OSError) or name == "SQLITE_CANTOPEN":
        exists = Path(path).exists()
        what = "open" if exists else "create"
        return (
            f"cannot {what} database file {path}: {cause}; check that {where} exists and the bot's user "
            "may write there"
        )
    return f"cannot use database file {path}: {cause} ({name or type(exc).__name__})"
