"""What every part of ``LeagueStore`` shares: the Storage's connection and transactions, the unique
constraints of a league, and writing an audit row inside a transaction.
"""

from __future__ import annotations

from typing import Any

from .base import _dumps
from .db import Storage


class LeagueStoreBase:
    """League persistence over an open :class:`Storage` (its connection, lock and transactions)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def _unique(self, exc: BaseException) -> bool:
        backend = self.storage.backend
        return backend.is_unique_violation(
            exc, "leagues_slot_per_channel", "leagues.channel_id, leagues.slot_key"
        ) or backend.is_unique_violation(exc, "leagues_name_per_guild", "leagues.guild_id, leagues.name_key")

    def _slot_conflict(self, exc: BaseException) -> bool:
        return self.storage.backend.is_unique_violation(
            exc, "leagues_slot_per_channel", "leagues.channel_id, leagues.slot_key"
        )

    # a thin layer over the Storage's private helpers
    def _tx(self) -> Any:
        return self.storage._transaction()

    async def _one(self, sql: str, params: Any = ()) -> Any:
        return await self.storage._fetchone(sql, params)

    async def _all(self, sql: str, params: Any = ()) -> list[Any]:
        return await self.storage._fetchall(sql, params)

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
