"""What every part of ``LeagueStore`` shares: the Storage's backend (a ``Repository`` over it, as
each of the Storage's own repositories is), the unique constraints of a league, and writing an
audit row inside a transaction.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any

from .backends import Session
from .base import Repository, _dumps
from .db import Storage


class LeagueStoreBase(Repository):
    """League persistence over an open :class:`Storage`'s backend (its connections, lock and
    transactions)."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage.backend)

    def _unique(self, exc: BaseException) -> bool:
        return self._slot_conflict(exc) or self.backend.is_unique_violation(
            exc, "leagues_name_per_guild", "leagues.guild_id, leagues.name_key"
        )

    def _slot_conflict(self, exc: BaseException) -> bool:
        return self.backend.is_unique_violation(
            exc, "leagues_slot_per_channel", "leagues.channel_id, leagues.slot_key"
        )

    # the repository's helpers under the names the league modules use
    def _tx(self) -> AbstractAsyncContextManager[Session]:
        return self._transaction()

    async def _one(self, sql: str, params: Any = ()) -> Any:
        return await self._fetchone(sql, params)

    async def _all(self, sql: str, params: Any = ()) -> list[Any]:
        return await self._fetchall(sql, params)

    async def _audit(
        self,
        conn: Any,
        league_id: int | None,
        night_id: int | None,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any],
        reason: str | None,
        now: int,
    ) -> None:
        await conn.execute(
            "INSERT INTO league_audit (league_id, night_id, actor_id, action, detail, reason, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (league_id, night_id, actor_id, action, _dumps(detail), reason, now),
        )
