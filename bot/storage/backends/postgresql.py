"""PostgreSQL through asyncpg: a connection pool, READ COMMITTED transactions, row versions.

Concurrency: every table save is ``UPDATE tables … WHERE id = $ AND version = $``. Two processes
(or two pool connections) saving the same row at once: the second UPDATE waits for the first's row
lock, then re-checks its WHERE against the committed row, finds the version moved on and changes
nothing; storage turns that into ``StaleTable``. So of two clicks exactly one counts, as on SQLite.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import asyncpg

from ...config import redact_url
from .. import migrations
from ..models import StorageClosed, StorageUnavailable
from ..sql import Params, numbered_args, postgres_ddl
from .base import Backend, Row, Session

log = logging.getLogger(__name__)

# pg_advisory_lock key held while migrating, so two processes starting together migrate once
MIGRATION_LOCK = 0x5BADE5_0001


def _rowcount(status: str) -> int:
    """asyncpg's command tag ("UPDATE 3", "INSERT 0 1", "SELECT 2") to a row count."""
    last = status.rsplit(" ", 1)[-1] if status else ""
    return int(last) if last.isdigit() else 0


class PostgresSession(Session):
    def __init__(self, conn: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        text, args = numbered_args(sql, params)
        return _rowcount(await self.conn.execute(text, *args))

    async def executemany(self, sql: str, seq: Iterable[Params]) -> int:
        # one round trip per row, but the counts are needed (asyncpg's executemany returns none)
        total = 0
        for params in seq:
            total += await self.execute(sql, params)
        return total

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        text, args = numbered_args(sql, params)
        return await self.conn.fetchrow(text, *args)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        text, args = numbered_args(sql, params)
        return list(await self.conn.fetch(text, *args))


class PostgresBackend(Backend):
    """A pool of asyncpg connections: reads and writes of different tables run side by side."""

    dialect = "postgresql"
    # the database's clock in unix milliseconds (shard leases)
    now_ms_sql = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._closed = False
        self.url = url
        self.description = redact_url(url)

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresBackend:
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
            cause = " ".join(str(exc).split()) or type(exc).__name__
            raise StorageUnavailable(
                f"cannot connect to PostgreSQL at {redact_url(url)}: {cause} ({type(exc).__name__}); "
                "check DATABASE_URL and that the server is running"
            ) from exc
        assert pool is not None
        try:
            read_only = await pool.fetchval("SELECT current_setting('transaction_read_only')")
        except BaseException:
            await pool.close()
            raise
        if read_only == "on":
            await pool.close()
            raise StorageUnavailable(
                f"the PostgreSQL database at {redact_url(url)} is read-only (a standby, or "
                "default_transaction_read_only is on): point DATABASE_URL at the primary"
            )
        return cls(pool, url)

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise StorageClosed(f"storage {self.description} is closed")

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._pool.close()  # waits for the connections lent out

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Session]:
        self._check_open()
        async with self._pool.acquire() as conn:
            yield PostgresSession(conn)

    async def write_one(self, sql: str, params: Params = ()) -> int:
        """Outside a transaction block a statement commits by itself: one round trip, not three."""
        self._check_open()
        async with self._pool.acquire() as conn:
            return await PostgresSession(conn).execute(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        self._check_open()
        async with self._pool.acquire() as conn:
            tx = conn.transaction()
            await tx.start()
            try:
                yield PostgresSession(conn)
            except BaseException:
                await self._rollback(tx)
                raise
            try:
                await self._commit(tx)
            except BaseException:
                await self._rollback(tx)
                raise

    async def _commit(self, tx: Any) -> None:
        await tx.commit()

    async def _rollback(self, tx: Any) -> None:
        """Roll back, keeping the error being handled as the one raised."""
        try:
            await tx.rollback()
        except Exception as exc:  # the connection went away: the server rolls back by itself
            log.warning("rollback failed after an earlier error on %s: %s", self.description, exc)

    def is_unique_violation(self, exc: BaseException, index: str, columns: str) -> bool:
        return isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == index

    def is_integrity_error(self, exc: BaseException) -> bool:
        return isinstance(exc, asyncpg.IntegrityConstraintViolationError)

    def is_damage(self, exc: BaseException) -> bool:
        return isinstance(exc, asyncpg.DataCorruptedError | asyncpg.IndexCorruptedError)

    async def migrate(self, directory: Path | None, *, now: int) -> list[int]:
        self._check_open()
        new: list[int] = []
        async with self._pool.acquire() as conn:
            # one migrating process at a time; the others wait, then find nothing pending
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(postgres_ddl(migrations.BOOKKEEPING))
                rows = await conn.fetch("SELECT version, checksum FROM schema_migrations")
                done = {int(r[0]): str(r[1]) for r in rows}
                session = PostgresSession(conn)
                for m in migrations.pending(migrations.discover(directory, self.dialect), done):
                    sql = m.sql if m.dialect else postgres_ddl(m.sql)
                    try:
                        async with conn.transaction():
                            if sql.strip():
                                await conn.execute(sql)  # no arguments: several statements allowed
                            await session.execute(
                                migrations.RECORD, (m.version, m.name, m.checksum, int(now))
                            )
                    except Exception as exc:
                        raise migrations.MigrationError(f"migration {m.label} failed: {exc}") from exc
                    log.info("applied migration %s", m.label)
                    new.append(m.version)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return new
