"""Fault injection: a backend that waits before every read and write (off unless configured).

``FAULT_STORAGE_READ_DELAY`` / ``FAULT_STORAGE_WRITE_DELAY`` (seconds, see ``bot.config.Faults``)
make the database as slow as a busy disk or a distant PostgreSQL server, to check that every
command and click still answers within Discord's 3 s. The delays are read at each operation, so
whoever holds the ``Faults`` object (the sandbox, a test) can change them while the bot runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ...config import Faults
from ..sql import Params
from .base import Backend, Session


class SlowBackend(Backend):
    """Another backend, with ``faults``' delays before each transaction and each read."""

    def __init__(self, inner: Backend, faults: Faults) -> None:
        self.inner = inner
        self.faults = faults
        self.dialect = inner.dialect
        self.now_ms_sql = inner.now_ms_sql
        self.description = inner.description

    def __getattr__(self, name: str) -> Any:  # path, pool... of the real backend
        return getattr(self.inner, name)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        if self.faults.storage_write_delay > 0:
            await asyncio.sleep(self.faults.storage_write_delay)
        async with self.inner.transaction() as tx:
            yield tx

    async def write_one(self, sql: str, params: Params = ()) -> int:
        if self.faults.storage_write_delay > 0:
            await asyncio.sleep(self.faults.storage_write_delay)
        return await self.inner.write_one(sql, params)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Session]:
        if self.faults.storage_read_delay > 0:
            await asyncio.sleep(self.faults.storage_read_delay)
        async with self.inner.connection() as db:
            yield db

    async def migrate(self, directory: Path | None, *, now: int) -> list[int]:
        return await self.inner.migrate(directory, now=now)

    async def close(self) -> None:
        await self.inner.close()

    @property
    def closed(self) -> bool:
        return self.inner.closed

    def is_unique_violation(self, exc: BaseException, index: str, columns: str) -> bool:
        return self.inner.is_unique_violation(exc, index, columns)

    def is_integrity_error(self, exc: BaseException) -> bool:
        return self.inner.is_integrity_error(exc)

    def is_damage(self, exc: BaseException) -> bool:
        return self.inner.is_damage(exc)

    async def pragma(self, name: str) -> Any:
        return await self.inner.pragma(name)
