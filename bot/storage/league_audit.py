"""The league audit log: who changed what in a league, and why."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import _now
from .league_base import LeagueStoreBase
from .league_rows import AuditEntry


class AuditRows(LeagueStoreBase):
    """Read and write the league audit log."""

    async def add(
        self,
        league_id: int,
        *,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any] | None = None,
        reason: str | None = None,
        night_id: int | None = None,
    ) -> None:
        async with self._tx() as conn:
            await self._audit(conn, league_id, night_id, actor_id, action, detail or {}, reason, _now())

    async def log(
        self, league_id: int, *, limit: int = 20, actions: Sequence[str] | None = None
    ) -> list[AuditEntry]:
        if actions:
            marks = ", ".join("?" for _ in actions)
            rows = await self._all(
                "SELECT id, league_id, night_id, actor_id, action, detail, reason, at FROM league_audit"
                f" WHERE league_id = ? AND action IN ({marks}) ORDER BY at DESC, id DESC LIMIT ?",
                (league_id, *actions, limit),
            )
        else:
            rows = await self._all(
                "SELECT id, league_id, night_id, actor_id, action, detail, reason, at FROM league_audit"
                " WHERE league_id = ? ORDER BY at DESC, id DESC LIMIT ?",
                (league_id, limit),
            )
        return [AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7]) for r in rows]
