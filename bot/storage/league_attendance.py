"""League attendance (migration 007): players out for the rest of a night (no-shows, check-outs),
standby players, and the substitutes who took a seat. Each is one keyed row, so two clicks at once
never both count.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import _now
from .league_base import LeagueStoreBase

NO_SHOW = "no_show"
CHECKED_OUT = "checked_out"


@dataclass(frozen=True)
class Absence:
    night_id: int
    user_id: int
    kind: str  # NO_SHOW or CHECKED_OUT
    round_no: int
    league_table_id: int | None
    at: int


@dataclass(frozen=True)
class SubRow:
    """A substitute in a seat: ``acts_at``/``auto_at`` are the seat's action counts (all, the bot's)
    when ``in_id`` took it from ``out_id``."""

    league_table_id: int
    night_id: int
    out_id: int
    in_id: int
    acts_at: int
    auto_at: int
    by_admin: bool
    at: int


_SUB_COLUMNS = "league_table_id, night_id, out_id, in_id, acts_at, auto_at, by_admin, at"


def _sub(r: tuple[int, ...]) -> SubRow:
    return SubRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7])


class AttendanceRows(LeagueStoreBase):
    """Absences, standbys and substitutes of league nights."""

    async def mark_absent(
        self,
        night_id: int,
        user_id: int,
        kind: str,
        *,
        round_no: int = 0,
        league_table_id: int | None = None,
        league_id: int | None = None,
    ) -> bool:
        """Record that a player is out for the rest of the night; False when they already were (the
        first reason stays). An audit line goes with it."""
        if kind not in (NO_SHOW, CHECKED_OUT):
            raise ValueError("kind is 'no_show' or 'checked_out'")
        now = _now()
        async with self._tx() as conn:
            changed = await conn.execute(
                "INSERT INTO league_absences (night_id, user_id, kind, round_no, league_table_id, at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (night_id, user_id) DO NOTHING",
                (night_id, user_id, kind, round_no, league_table_id, now),
            )
            if changed != 1:
                return False
            await conn.execute(
                "UPDATE league_checkins SET status = 'out', at = ? WHERE night_id = ? AND user_id = ?",
                (now, night_id, user_id),
            )
            await conn.execute(
                "DELETE FROM league_standbys WHERE night_id = ? AND user_id = ?", (night_id, user_id)
            )
            if league_id is not None:
                await self._audit(
                    conn, league_id, night_id, None, kind, {"user": user_id, "round": round_no}, None, now
                )
        return True

    async def absences(self, night_id: int) -> dict[int, Absence]:
        rows = await self._all(
            "SELECT night_id, user_id, kind, round_no, league_table_id, at FROM league_absences"
            " WHERE night_id = ? ORDER BY at, user_id",
            (night_id,),
        )
        return {r[1]: Absence(*r) for r in rows}

    async def season_no_shows(self, league_id: int, season: int) -> dict[int, int]:
        """{player: nights they were a no-show} in a season."""
        rows = await self._all(
            "SELECT a.user_id, COUNT(*) FROM league_absences a JOIN league_nights n ON n.id = a.night_id"
            " WHERE n.league_id = ? AND n.season = ? AND a.kind = 'no_show' GROUP BY a.user_id",
            (league_id, season),
        )
        return {u: int(c) for u, c in rows}

    async def volunteer(self, night_id: int, user_id: int) -> bool:
        """Put a player on the night's standby list; False when they already were on it."""
        async with self._tx() as conn:
            changed = await conn.execute(
                "INSERT INTO league_standbys (night_id, user_id, at) VALUES (?, ?, ?)"
                " ON CONFLICT (night_id, user_id) DO NOTHING",
                (night_id, user_id, _now()),
            )
        return bool(changed == 1)

    async def withdraw(self, night_id: int, user_id: int) -> bool:
        async with self._tx() as conn:
            changed = await conn.execute(
                "DELETE FROM league_standbys WHERE night_id = ? AND user_id = ?", (night_id, user_id)
            )
        return bool(changed == 1)

    async def standbys(self, night_id: int) -> list[int]:
        """The night's standby players, first come first."""
        rows = await self._all(
            "SELECT user_id FROM league_standbys WHERE night_id = ? ORDER BY at, user_id", (night_id,)
        )
        return [r[0] for r in rows]

    async def add_sub(
        self,
        league_table_id: int,
        night_id: int,
        out_id: int,
        in_id: int,
        *,
        acts_at: int,
        auto_at: int,
        by_admin: bool,
    ) -> None:
        """Record a substitute (the table's seats are changed by ``rounds.substitute``); a standby
        who takes a seat leaves the standby list."""
        async with self._tx() as conn:
            await conn.execute(
                f"INSERT INTO league_subs ({_SUB_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (league_table_id, in_id) DO NOTHING",
                (league_table_id, night_id, out_id, in_id, acts_at, auto_at, int(by_admin), _now()),
            )
            await conn.execute(
                "DELETE FROM league_standbys WHERE night_id = ? AND user_id = ?", (night_id, in_id)
            )

    async def night_subs(self, night_id: int) -> list[SubRow]:
        rows = await self._all(
            f"SELECT {_SUB_COLUMNS} FROM league_subs WHERE night_id = ? ORDER BY at, league_table_id",
            (night_id,),
        )
        return [_sub(r) for r in rows]

    async def season_subs(self, league_id: int, season: int) -> dict[int, list[SubRow]]:
        """{league table: its substitutes in order} for a season."""
        rows = await self._all(
            f"SELECT {', '.join('s.' + c.strip() for c in _SUB_COLUMNS.split(','))} FROM league_subs s"
            " JOIN league_nights n ON n.id = s.night_id WHERE n.league_id = ? AND n.season = ?"
            " ORDER BY s.at, s.league_table_id",
            (league_id, season),
        )
        out: dict[int, list[SubRow]] = {}
        for r in rows:
            sub = _sub(r)
            out.setdefault(sub.league_table_id, []).append(sub)
        return out
