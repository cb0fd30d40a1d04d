"""The Storage class: all SQL of the bot, run on a backend (SQLite by default, or PostgreSQL).

``Storage`` is put together from one mixin per job, each over ``base.StorageBase`` (the backend,
its transactions and reads): ``tables`` (live tables, set-aside rows) and ``saves`` (the group-commit
writer) with ``games`` (finished hands and games), ``settings`` (per server), ``stats`` (the
leaderboard), ``history`` (paged history, your data), ``shards`` (leases, fencing). This module
keeps opening (migrations), closing and the key/value metadata.

Every query is written once with ``?``/``:name`` placeholders; ``backends/`` runs it on either
database (see ``backends/base.py`` for how to add queries in the same style)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from ..config import Faults
from .backends import Backend, open_backend
from .backends.faults import SlowBackend
from .base import _now
from .history import HistoryMixin
from .models import SetAside
from .saves import SavesMixin, _Save
from .settings import DEFAULT_GUILD_SETTINGS, SettingsMixin
from .shards import Claim
from .stats import StatsMixin

__all__ = ["DEFAULT_GUILD_SETTINGS", "Storage"]

log = logging.getLogger(__name__)


class Storage(SavesMixin, SettingsMixin, StatsMixin, HistoryMixin):
    """All persistence of the bot. Open with ``await Storage.open(path_or_url)``.

    The backend owns the connections (SQLite: one connection behind a lock; PostgreSQL: a pool).
    Table saves go through one writer task per process (group commit, see ``save_table``).
    """

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._queue: list[_Save] = []
        self._writer: asyncio.Task[None] | None = None
        self._set_aside: dict[int, SetAside] = {}
        self.claim: Claim | None = None  # set: every table write is fenced by this process's leases
        self.migrated: list[int] = []  # migration versions applied when this Storage opened
        self.path = backend.description  # the file, or the URL without its password

    # --- lifecycle ------------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        migrations_dir: Path | None = None,
        faults: Faults | None = None,
        lock_wait: float = 60.0,
    ) -> Storage:
        """Open the database and apply pending migrations.

        ``target`` is a SQLite file (created if needed; WAL, foreign keys on) or a
        ``postgresql://user:password@host/db`` URL. ``faults`` (testing only, see
        ``bot.config.Faults``) slows every later read and write down. A SQLite file locked by
        another process is waited for up to ``lock_wait`` seconds (said once in the log)."""
        backend, applied = await open_backend(
            target, migrations_dir=migrations_dir, now=_now(), lock_wait=lock_wait
        )
        if faults is not None:
            backend = SlowBackend(backend, faults)
        storage = cls(backend)
        storage.migrated = applied
        if applied:
            log.info("database %s migrated to version %d", storage.path, applied[-1])
        return storage

    async def close(self) -> None:
        """Close the connection(s) (idempotent); waits for a running operation to finish."""
        await self.backend.close()

    async def pragma(self, name: str) -> Any:
        """Read one SQLite PRAGMA (tests and diagnostics); None on PostgreSQL."""
        return await self.backend.pragma(name)

    async def schema_version(self) -> int:
        row = await self._fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0])

    # --- key/value metadata -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
