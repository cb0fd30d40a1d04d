"""League nights and check-ins: a night is created once per date, its status moves by
compare-and-set (``transition``), a check-in is one keyed row per player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .league_base import LeagueStoreBase
from .league_rows import _NIGHT_COLUMNS, AlreadyCheckedIn, CheckinClosed, NightRow, _dumps, _night, _now


class NightsMixin(LeagueStoreBase):
    """Nights, their status and data, and check-ins."""

    async def ensure_night(
        self, league_id: int, season: int, number: int, night_date: str, starts_at: int, checkin_at: int
    ) -> NightRow:
        """The night's row, created as 'scheduled' if missing. A scheduled night whose time moved
        (re-timed league, start early/late) gets the new times; a night under way is returned as is."""
        now = _now()
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO league_nights (league_id, season, number, night_date, starts_at, checkin_at,"
                " status, round_no, data, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'scheduled', 0, '{}', ?)"
                " ON CONFLICT (league_id, season, night_date) DO UPDATE SET number = excluded.number,"
                " starts_at = excluded.starts_at, checkin_at = excluded.checkin_at,"
                " updated_at = excluded.updated_at WHERE league_nights.status = 'scheduled'",
                (league_id, season, number, night_date, starts_at, checkin_at, now),
            )
            row = await conn.fetchone(
                f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE league_id = ? AND season = ?"
                " AND night_date = ?",
                (league_id, season, night_date),
            )
        return _night(row)

    async def get_night(self, night_id: int) -> NightRow | None:
        row = await self._one(f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE id = ?", (night_id,))
        return _night(row) if row else None

    async def nights(self, league_id: int, season: int | None = None) -> list[NightRow]:
        if season is None:
            rows = await self._all(
                f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE league_id = ? ORDER BY season, starts_at",
                (league_id,),
            )
        else:
            rows = await self._all(
                f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE league_id = ? AND season = ?"
                " ORDER BY starts_at",
                (league_id, season),
            )
        return [_night(r) for r in rows]

    async def open_nights(self) -> list[NightRow]:
        """Every night not yet over (scheduled, check-in, playing), for the scheduler at start-up."""
        rows = await self._all(
            f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE status IN ('scheduled', 'checkin', 'playing')"
            " ORDER BY starts_at"
        )
        return [_night(r) for r in rows]

    async def transition(
        self,
        night_id: int,
        expected: Sequence[str],
        status: str,
        *,
        round_no: int | None = None,
        data: dict[str, Any] | None = None,
        starts_at: int | None = None,
        audit: tuple[int | None, str, dict[str, Any], str | None] | None = None,
    ) -> NightRow | None:
        """Move a night from one of ``expected`` to ``status`` (compare-and-set); None if it was not in
        an expected state: someone else (another timer, an admin) moved it first. ``data`` keys are
        merged into the night's data."""
        now = _now()
        async with self._tx() as conn:
            row = await conn.fetchone(f"SELECT {_NIGHT_COLUMNS} FROM league_nights WHERE id = ?", (night_id,))
            if row is None:
                return None
            night = _night(row)
            if night.status not in expected:
                return None
            merged = {**night.data, **(data or {})}
            sets = ["status = ?", "data = ?", "updated_at = ?"]
            params: list[Any] = [status, _dumps(merged), now]
            if round_no is not None:
                sets.append("round_no = ?")
                params.append(round_no)
            if starts_at is not None:
                sets.append("starts_at = ?")
                params.append(starts_at)
            marks = ", ".join("?" for _ in expected)
            changed = await conn.execute(
                f"UPDATE league_nights SET {', '.join(sets)} WHERE id = ? AND status IN ({marks})",
                (*params, night_id, *expected),
            )
            if changed != 1:  # pragma: no cover - guarded by the lock and the read above
                return None
            if audit is not None:
                actor, action, detail, reason = audit
                await self._audit(conn, night.league_id, night_id, actor, action, detail, reason, now)
        night.status = status
        night.data = merged
        night.updated_at = now
        if round_no is not None:
            night.round_no = round_no
        if starts_at is not None:
            night.starts_at = starts_at
        return night

    async def update_night_data(self, night_id: int, **data: Any) -> None:
        """Merge keys into a night's data (message ids, scheduled event id, notes)."""
        async with self._tx() as conn:
            row = await conn.fetchone("SELECT data FROM league_nights WHERE id = ?", (night_id,))
            if row is None:
                return
            merged = {**json.loads(row[0]), **data}
            await conn.execute(
                "UPDATE league_nights SET data = ?, updated_at = ? WHERE id = ?",
                (_dumps(merged), _now(), night_id),
            )

    async def check_in(self, night_id: int, user_id: int, status: str = "in") -> str | None:
        """Record "in" or "out" for the night; returns the previous answer (None if first).

        CheckinClosed unless the night's check-in is open; AlreadyCheckedIn when the answer is the same
        as before. The night's status is read in the same transaction as the write.
        """
        if status not in ("in", "out"):
            raise ValueError("status is 'in' or 'out'")
        now = _now()
        async with self._tx() as conn:
            night = await conn.fetchone("SELECT status, data FROM league_nights WHERE id = ?", (night_id,))
            if night is None:
                raise CheckinClosed("This league night no longer exists.", "night_gone")
            open_now = night[0] == "checkin" or (
                night[0] == "playing" and json.loads(night[1]).get("late_checkin")
            )
            if not open_now:
                if night[0] != "scheduled":
                    raise CheckinClosed("Check-in for this night is closed.", "checkin_closed")
                raise CheckinClosed("Check-in for this night is not open yet.", "checkin_not_open")
            prev = await conn.fetchone(
                "SELECT status FROM league_checkins WHERE night_id = ? AND user_id = ?", (night_id, user_id)
            )
            if prev and prev[0] == status:
                if status == "in":
                    raise AlreadyCheckedIn("You're already checked in.", "checked_in")
                raise AlreadyCheckedIn("You already said you can't make it.", "checked_out")
            await conn.execute(
                "INSERT INTO league_checkins (night_id, user_id, status, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (night_id, user_id) DO UPDATE SET status = excluded.status, at = excluded.at",
                (night_id, user_id, status, now),
            )
        return prev[0] if prev else None

    async def checkins(self, night_id: int) -> dict[int, str]:
        rows = await self._all(
            "SELECT user_id, status FROM league_checkins WHERE night_id = ? ORDER BY at, user_id", (night_id,)
        )
        return {uid: st for uid, st in rows}
