"""The Storage class: all SQL of the bot, run on a backend (SQLite by default, or PostgreSQL).

``Storage`` is one repository per job over the one backend, each a small class receiving it:
``tables`` (live tables, set-aside rows, and ``save``, the group-commit writer of ``saves.py``),
``games`` (finished hands and games), ``settings`` (per server), ``players`` (a player's own),
``stats`` (the leaderboard), ``history`` (paged history, your data), ``shards`` (leases, fencing),
``reviews`` (Review my hand's reviews, the bids against the bot's).
This module keeps opening (migrations), closing and the key/value metadata.

Every query is written once with ``?``/``:name`` placeholders; ``backends/`` runs it on either
database (see ``backends/base.py`` for how to add queries in the same style)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..config import Faults
from .backends import Backend, open_backend
from .backends.faults import SlowBackend
from .base import Repository, _now
from .games import Games
from .history import History
from .players import Players
from .reviews import Reviews
from .settings import DEFAULT_GUILD_SETTINGS, Settings
from .shards import Shards
from .stats import Stats
from .tables import Tables

__all__ = ["DEFAULT_GUILD_SETTINGS", "Storage"]

log = logging.getLogger(__name__)


class Storage(Repository):
    """All persistence of the bot. Open with ``await Storage.open(path_or_url)``.

    The backend owns the connections (SQLite: one connection behind a lock; PostgreSQL: a pool).
    Table saves go through one writer task per process (group commit, see ``Tables.save``).
    """

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.shards = Shards(backend)  # its ``claim``, once set, fences every table write
        self.games = Games(backend)
        self.tables = Tables(backend, self.shards, self.games)
        self.settings = Settings(backend)
        self.players = Players(backend)
        self.stats = Stats(backend)
        self.history = History(backend, self.stats)
        self.reviews = Reviews(backend)  # Review my hand (migration 011)
        self.migrated: list[int] = []  # migration versions applied when this Storage opened

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
