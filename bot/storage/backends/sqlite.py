"""SQLite through aiosqlite: one connection, one lock, WAL, ``BEGIN IMMEDIATE`` transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import aiosqlite

from .. import migrations
from ..models import StorageClosed
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

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._session = SqliteSession(conn)
        self._lock = asyncio.Lock()
        self._closed = False
        self.path = path
        self.description = path

    @classmethod
    async def connect(cls, path: str) -> SqliteBackend:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
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
