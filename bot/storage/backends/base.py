"""What a storage backend provides: sessions that run the package's SQL, transactions, migrations.

``Storage`` (and any other module of ``bot/storage``) writes each query once, with ``?`` or
``:name`` placeholders (see ``bot/storage/sql.py``), and runs it on a ``Session``:

    async with backend.transaction() as tx:      # one transaction, rolled back on any exception
        n = await tx.execute("UPDATE ... WHERE id = ?", (table_id,))   # rows affected
        row = await tx.fetchone("INSERT ... RETURNING id", (...))
    async with backend.connection() as db:       # reads outside a transaction
        rows = await db.fetchall("SELECT ... WHERE guild_id = :g", {"g": guild_id})

Rows are indexable by position (a tuple on SQLite, an ``asyncpg.Record`` on PostgreSQL).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from ..sql import Params

Row = Any


class Session(ABC):
    """A connection lent for one transaction (or one read)."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, seq: Iterable[Params]) -> int:
        """Run one statement per parameter set; the total number of rows changed."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @contextlib.asynccontextmanager
    async def savepoint(self, name: str = "sp") -> AsyncIterator[None]:
        """A nested transaction: on an exception only what ran inside it is undone."""
        await self.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            await self.execute(f"ROLLBACK TO SAVEPOINT {name}")
            await self.execute(f"RELEASE SAVEPOINT {name}")
            raise
        await self.execute(f"RELEASE SAVEPOINT {name}")


class Backend(ABC):
    """One database (a SQLite file or a PostgreSQL server) for the whole process."""

    dialect: str  # "sqlite" | "postgresql"
    now_ms_sql: str  # an SQL expression: the database's clock in unix milliseconds
    description: str  # for logs and errors: the file, or the URL without its password

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Session]:
        """A write transaction; committed when the block ends, rolled back on any exception.

        Raises StorageClosed after ``close()``. A failing COMMIT raises the driver's own error
        (never a follow-up "no transaction is active")."""

    @abstractmethod
    def connection(self) -> contextlib.AbstractAsyncContextManager[Session]:
        """A session for reads (autocommit)."""

    async def write_one(self, sql: str, params: Params = ()) -> int:
        """One write statement, atomic on its own (committed when it returns); the rows changed.

        The same as a transaction around one ``execute``, in fewer round trips where the backend
        allows it: a table save is one such statement, and each trip to the database's thread
        (SQLite) or server (PostgreSQL) waits for the event loop's next turn."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    @abstractmethod
    async def migrate(self, directory: Path | None, *, now: int) -> list[int]:
        """Apply pending migrations, each in its own transaction; the versions applied."""

    @abstractmethod
    async def close(self) -> None:
        """Close (idempotent); waits for running operations."""

    @property
    @abstractmethod
    def closed(self) -> bool: ...

    @abstractmethod
    def is_unique_violation(self, exc: BaseException, index: str, columns: str) -> bool:
        """Whether ``exc`` is a unique-constraint failure of one index: PostgreSQL reports the
        ``index`` name, SQLite the ``columns`` ("table.column, ...")."""

    def is_integrity_error(self, exc: BaseException) -> bool:
        """A constraint refused the write (unique, foreign key, not null, check)."""
        return False

    def is_damage(self, exc: BaseException) -> bool:
        """The database could not read what it stores (a damaged page or index)."""
        return False

    async def pragma(self, name: str) -> Any:
        """SQLite's PRAGMA value (None on other backends)."""
        return None
