"""What every repository of ``Storage`` shares: the backend, its transactions and reads, and how a
value is stored (``_now``, ``_dumps``).

Every query of the storage is written once with ``?``/``:name`` placeholders; ``backends/`` runs it
on either database (see ``backends/base.py`` for how to add queries in the same style)."""

from __future__ import annotations

import json
import time
from contextlib import AbstractAsyncContextManager
from typing import Any

from .backends import Backend, Session
from .models import StorageClosed
from .sql import Params


def _now() -> int:
    return int(time.time())


def _dumps(value: Any) -> str:
    # compact and strict: NaN/Infinity are not JSON and would not round-trip
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


class Repository:
    """One job's queries over the one backend of a ``Storage`` (which builds every repository over
    the same backend), and the connection helpers they are written against."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @property
    def path(self) -> str:
        """The file, or the URL without its password."""
        return self.backend.description

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self.backend.dialect

    @property
    def closed(self) -> bool:
        return self.backend.closed

    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """One write transaction (a ``Session``), rolled back on any exception (cancellation too)."""
        return self.backend.transaction()

    def _check_open(self) -> None:
        if self.backend.closed:
            raise StorageClosed(f"storage {self.path} is closed")

    async def _fetchone(self, sql: str, params: Params = ()) -> Any:
        async with self.backend.connection() as db:
            return await db.fetchone(sql, params)

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        async with self.backend.connection() as db:
            return await db.fetchall(sql, params)
