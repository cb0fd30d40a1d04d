"""League and rating queries (migration 002). Every SQL statement of the league feature lives here.

``LeagueStore(storage)`` shares the Storage's connection, lock and transactions. Rules (who may
check in, how to seat, how to score) live in ``bot.league``; this module only reads and writes, and
enforces with the database what must never happen twice: a night's status moves by
compare-and-set (``transition``), a check-in and a result are keyed rows, a game is rated once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .db import Storage
from .models import StorageError

LEAGUE_STATUSES = ("active", "paused", "ended", "archived")
OPEN_NIGHT_STATUSES = ("scheduled", "checkin", "playing")


def _now() -> int:
    return int(time.time())


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


# --- errors ---------------------------------------------------------------------------------------


class LeagueError(StorageError):
    """A league write refused by the data (the message is for the user)."""


class LeagueNameTaken(LeagueError):
    pass


class LeagueSlotTaken(LeagueError):
    pass


class AlreadyMember(LeagueError):
    pass


class NotMember(LeagueError):
    pass


class RemovedByAdmin(LeagueError):
    pass


class InviteError(LeagueError):
    pass


class CheckinClosed(LeagueError):
    pass


class AlreadyCheckedIn(LeagueError):
    pass


class StaleLeague(LeagueError):
    pass


class ResultExists(LeagueError):
    pass


# --- rows -----------------------------------------------------------------------------------------


@dataclass
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    status: str
    format: str
    ruleset: dict[str, Any]
    settings: dict[str, Any]
    schedule: dict[str, Any]
    slot_key: str
    season: int
    version: int
    created_by: int
    created_at: int
    updated_at: int


_LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, status, format, ruleset, settings, schedule, slot_key, season,"
    " version, created_by, created_at, updated_at"
)


def _league(row: Any) -> LeagueRow:
    return LeagueRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        name=row[3],
        status=row[4],
        format=row[5],
        ruleset=json.loads(row[6]),
        settings=json.loads(row[7]),
        schedule=json.loads(row[8]),
        slot_key=row[9],
        season=row[10],
        version=row[11],
        created_by=row[12],
        created_at=row[13],
        updated_at=row[14],
    )


@dataclass
class Member:
    user_id: int
    team_id: int | None
    status: str
    joined_at: int


@dataclass
class Team:
    id: int
    league_id: int
    name: str
    status: str
    captain_id: int
    members: list[int]


@dataclass
class NightRow:
    id: int
    league_id: int
    season: int
    number: int
    night_date: str
    starts_at: int
    checkin_at: int
    status: str
    round_no: int
    data: dict[str, Any]
    updated_at: int


_NIGHT_COLUMNS = (
    "id, league_id, season, number, night_date, starts_at, checkin_at, status, round_no, data, updated_at"
)


def _night(row: Any) -> NightRow:
    return NightRow(
        id=row[0],
        league_id=row[1],
        season=row[2],
        number=row[3],
        night_date=row[4],
        starts_at=row[5],
        checkin_at=row[6],
        status=row[7],
        round_no=row[8],
        data=json.loads(row[9]),
        updated_at=row[10],
    )


@dataclass
class LeagueTable:
    id: int
    night_id: int
    round_no: int
    table_no: int
    sides: list[list[int | None]]
    channel_id: int | None
    table_id: int | None
    status: str

    @property
    def players(self) -> list[int]:
        return [p for side in self.sides for p in side if p is not None]


_LT_COLUMNS = "id, night_id, round_no, table_no, sides, channel_id, table_id, status"


def _lt(row: Any) -> LeagueTable:
    return LeagueTable(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])


@dataclass
class Result:
    league_table_id: int
    night_id: int
    night_number: int
    round_no: int
    table_no: int
    sides: list[list[int | None]]
    scores: list[int]
    bags: list[int]
    winner_side: int | None
    complete: bool
    corrected: bool
    game_id: int | None


@dataclass
class AuditEntry:
    id: int
    league_id: int
    night_id: int | None
    actor_id: int | None
    action: str
    detail: dict[str, Any]
    reason: str | None
    at: int


@dataclass(frozen=True)
class StoredRating:
    """A player's OpenSkill numbers as stored (the rules live in ``bot.league.ratings``)."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    rating: StoredRating
    rank: int = 0


@dataclass(frozen=True)
class SeatRow:
    """One seat of a stored game, as the rater sees it."""

    side: int
    user_id: int | None
    is_bot: bool
    bot_share: float


#: rates one stored game: (seats, side scores, winning side, current ratings of its humans) -> the
#: new ratings of the players it rates ({} when it is not a rated game)
GameRater = Callable[
    [list[SeatRow], list[int], "int | None", dict[int, StoredRating]], dict[int, StoredRating]
]


class LeagueStore:
    """League and rating persistence over an open :class:`Storage`."""

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

    # --- leagues --------------------------------------------------------------------------------

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        fmt: str,
        ruleset: dict[str, Any],
        settings: dict[str, Any],
        schedule: dict[str, Any],
        slot_key: str,
        created_by: int,
    ) -> LeagueRow:
        """Insert an active league; LeagueNameTaken / LeagueSlotTaken when the index refuses it."""
        now = _now()
        try:
            async with self._tx() as conn:
                league_id = await conn.fetchval(
                    "INSERT INTO leagues (guild_id, channel_id, name, name_key, status, format, ruleset,"
                    " settings, schedule, slot_key, season, version, created_by, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, 1, 1, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        name,
                        name.casefold(),
                        fmt,
                        _dumps(ruleset),
                        _dumps(settings),
                        _dumps(schedule),
                        slot_key,
                        created_by,
                        now,
                        now,
                    ),
                )
                await self._audit(conn, league_id, None, created_by, "create", {"name": name}, None, now)
        except Exception as exc:
            if not self._unique(exc):
                raise
            if self._slot_conflict(exc):
                raise LeagueSlotTaken("This channel already has a league night at that time.") from exc
            raise LeagueNameTaken(f"This server already has a league called {name}.") from exc
        assert league_id is not None
        got = await self.get_league(league_id)
        assert got is not None
        return got

    async def get_league(self, league_id: int) -> LeagueRow | None:
        row = await self._one(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
        return _league(row) if row else None

    async def league_named(self, guild_id: int, name: str) -> LeagueRow | None:
        """The server's non-archived league with this name (case-insensitive)."""
        row = await self._one(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND name_key = ?"
            " AND status <> 'archived'",
            (guild_id, name.strip().casefold()),
        )
        return _league(row) if row else None

    async def leagues(
        self, guild_id: int | None = None, *, statuses: Sequence[str] = ("active", "paused", "ended")
    ) -> list[LeagueRow]:
        marks = ", ".join("?" for _ in statuses)
        if guild_id is None:
            rows = await self._all(
                f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE status IN ({marks}) ORDER BY id",
                tuple(statuses),
            )
        else:
            rows = await self._all(
                f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND status IN ({marks})"
                " ORDER BY name_key",
                (guild_id, *statuses),
            )
        return [_league(r) for r in rows]

    async def leagues_in_channel(self, channel_id: int) -> list[LeagueRow]:
        rows = await self._all(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE channel_id = ? AND status IN ('active', 'paused')",
            (channel_id,),
        )
        return [_league(r) for r in rows]

    async def update_league(
        self,
        league: LeagueRow,
        *,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> LeagueRow:
        """Write the league's mutable fields (status, name, settings, schedule, slot, season) and an
        audit line in one transaction, if ``league.version`` is still current (else StaleLeague)."""
        now = _now()
        if league.status not in LEAGUE_STATUSES:
            raise ValueError(f"bad league status {league.status!r}")
        try:
            async with self._tx() as conn:
                changed = await conn.execute(
                    "UPDATE leagues SET status = ?, name = ?, name_key = ?, settings = ?, schedule = ?,"
                    " slot_key = ?, season = ?, channel_id = ?, ruleset = ?, format = ?,"
                    " version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                    (
                        league.status,
                        league.name,
                        league.name.casefold(),
                        _dumps(league.settings),
                        _dumps(league.schedule),
                        league.slot_key,
                        league.season,
                        league.channel_id,
                        _dumps(league.ruleset),
                        league.format,
                        now,
                        league.id,
                        league.version,
                    ),
                )
                if changed != 1:
                    raise StaleLeague("The league was changed at the same time; please try again.")
                await self._audit(conn, league.id, None, actor_id, action, detail or {}, reason, now)
        except Exception as exc:
            if not self._unique(exc):
                raise
            if self._slot_conflict(exc):
                raise LeagueSlotTaken("This channel already has a league night at that time.") from exc
            raise LeagueNameTaken(f"This server already has a league called {league.name}.") from exc
        league.version += 1
        league.updated_at = now
        return league

    # --- roster ---------------------------------------------------------------------------------

    async def sign_up(self, league_id: int, user_id: int, *, actor_id: int | None = None) -> Member:
        """Add a player (or bring back one who left); AlreadyMember if they are on the roster.

        A player an admin removed can only be brought back by an admin (``actor_id`` not the player).
        """
        now = _now()
        actor = user_id if actor_id is None else actor_id
        async with self._tx() as conn:
            found = await conn.fetchone(
                "SELECT status, removed_by FROM league_members WHERE league_id = ? AND user_id = ?",
                (league_id, user_id),
            )
            if found and found[0] != "removed":
                if actor != user_id:
                    raise AlreadyMember(f"<@{user_id}> is already on the roster.")
                raise AlreadyMember(
                    "You're already signed up." if found[0] == "active" else "You have a pending team invite."
                )
            if found and found[1] is not None and found[1] != user_id and actor == user_id:
                raise RemovedByAdmin(
                    "A league admin took you off this league's roster; ask them to add you back."
                )
            await conn.execute(
                "INSERT INTO league_members (league_id, user_id, team_id, status, removed_by, joined_at)"
                " VALUES (?, ?, NULL, 'active', NULL, ?)"
                " ON CONFLICT (league_id, user_id) DO UPDATE SET status = 'active', team_id = NULL,"
                " removed_by = NULL, joined_at = excluded.joined_at",
                (league_id, user_id, now),
            )
            action = "signup" if actor == user_id else "add"
            await self._audit(conn, league_id, None, actor, action, {"user": user_id}, None, now)
        return Member(user_id, None, "active", now)

    async def remove_member(
        self, league_id: int, user_id: int, *, actor_id: int | None, reason: str | None = None
    ) -> None:
        """Take a player off the roster (their team too, in fixed format); NotMember otherwise."""
        now = _now()
        async with self._tx() as conn:
            found = await conn.fetchone(
                "SELECT team_id FROM league_members WHERE league_id = ? AND user_id = ? AND"
                " status <> 'removed'",
                (league_id, user_id),
            )
            if not found:
                raise NotMember(f"<@{user_id}> is not on this league's roster.")
            await conn.execute(
                "UPDATE league_members SET status = 'removed', removed_by = ?"
                " WHERE league_id = ? AND user_id = ?",
                (actor_id if actor_id is not None else user_id, league_id, user_id),
            )
            if found[0] is not None:
                await conn.execute("UPDATE league_teams SET status = 'removed' WHERE id = ?", (found[0],))
                await conn.execute(
                    "UPDATE league_members SET team_id = NULL,"
                    " status = CASE WHEN status = 'invited' THEN 'removed' ELSE status END"
                    " WHERE league_id = ? AND team_id = ?",
                    (league_id, found[0]),
                )
            action = "leave" if actor_id == user_id else "remove"
            await self._audit(conn, league_id, None, actor_id, action, {"user": user_id}, reason, now)

    async def members(self, league_id: int, *, include_invited: bool = False) -> list[Member]:
        statuses = ("active", "invited") if include_invited else ("active",)
        rows = await self._all(
            "SELECT user_id, team_id, status, joined_at FROM league_members WHERE league_id = ?"
            f" AND status IN ({', '.join('?' for _ in statuses)}) ORDER BY joined_at, user_id",
            (league_id, *statuses),
        )
        return [Member(*r) for r in rows]

    async def member(self, league_id: int, user_id: int) -> Member | None:
        row = await self._one(
            "SELECT user_id, team_id, status, joined_at FROM league_members WHERE league_id"
            " = ? AND user_id = ?",
            (league_id, user_id),
        )
        return Member(*row) if row and row[2] != "removed" else None

    async def invite(self, league_id: int, captain_id: int, partner_id: int, name: str) -> Team:
        """Start a fixed team: the captain is signed up, the partner is invited until they accept."""
        if captain_id == partner_id:
            raise InviteError("Invite someone else: you can't be your own partner.")
        now = _now()
        async with self._tx() as conn:
            for uid, who in ((captain_id, "You are"), (partner_id, f"<@{partner_id}> is")):
                found = await conn.fetchone(
                    "SELECT status, team_id FROM league_members WHERE league_id = ? AND user_id = ?",
                    (league_id, uid),
                )
                if found and found[0] != "removed" and found[1] is not None:
                    raise InviteError(f"{who} already on a team in this league.")
            if await conn.fetchone(
                "SELECT 1 FROM league_teams WHERE league_id = ? AND lower(name) = lower(?) AND"
                " status <> 'removed'",
                (league_id, name),
            ):
                raise InviteError(f"A team called {name} is already in this league.")
            team_id = await conn.fetchval(
                "INSERT INTO league_teams (league_id, name, status, captain_id, created_at)"
                " VALUES (?, ?, 'pending', ?, ?) RETURNING id",
                (league_id, name, captain_id, now),
            )
            for uid, status in ((captain_id, "active"), (partner_id, "invited")):
                await conn.execute(
                    "INSERT INTO league_members (league_id, user_id, team_id, status, joined_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (league_id, user_id) DO UPDATE SET"
                    " team_id = excluded.team_id, status = excluded.status, joined_at = excluded.joined_at",
                    (league_id, uid, team_id, status, now),
                )
            await self._audit(
                conn, league_id, None, captain_id, "invite", {"team": name, "partner": partner_id}, None, now
            )
        assert team_id is not None
        return Team(team_id, league_id, name, "pending", captain_id, [captain_id, partner_id])

    async def answer_invite(self, league_id: int, user_id: int, *, accept: bool) -> Team:
        """The invited partner accepts (the team becomes active) or declines (the team is dissolved)."""
        now = _now()
        async with self._tx() as conn:
            found = await conn.fetchone(
                "SELECT t.id, t.name, t.captain_id FROM league_members m JOIN league_teams t ON"
                " t.id = m.team_id"
                " WHERE m.league_id = ? AND m.user_id = ? AND m.status = 'invited' AND t.status = 'pending'",
                (league_id, user_id),
            )
            if not found:
                raise InviteError("You have no pending team invite in this league.")
            team_id, name, captain = found
            if accept:
                await conn.execute(
                    "UPDATE league_members SET status = 'active' WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
                await conn.execute("UPDATE league_teams SET status = 'active' WHERE id = ?", (team_id,))
            else:
                await conn.execute(
                    "UPDATE league_members SET status = 'removed', team_id = NULL"
                    " WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
                await conn.execute(
                    "UPDATE league_members SET team_id = NULL WHERE league_id = ? AND team_id = ?",
                    (league_id, team_id),
                )
                await conn.execute("UPDATE league_teams SET status = 'removed' WHERE id = ?", (team_id,))
            await self._audit(
                conn, league_id, None, user_id, "accept" if accept else "decline", {"team": name}, None, now
            )
        return Team(team_id, league_id, name, "active" if accept else "removed", captain, [captain, user_id])

    async def teams(self, league_id: int, *, statuses: Sequence[str] = ("active",)) -> list[Team]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            "SELECT id, name, status, captain_id FROM league_teams WHERE league_id = ? AND"
            f" status IN ({marks})"
            " ORDER BY id",
            (league_id, *statuses),
        )
        members = await self._all(
            "SELECT team_id, user_id FROM league_members WHERE league_id = ? AND team_id IS NOT NULL"
            " AND status <> 'removed' ORDER BY joined_at, user_id",
            (league_id,),
        )
        by_team: dict[int, list[int]] = {}
        for team_id, uid in members:
            by_team.setdefault(team_id, []).append(uid)
        out = []
        for tid, name, status, captain in rows:
            ms = sorted(by_team.get(tid, []), key=lambda u: (u != captain, u))
            out.append(Team(tid, league_id, name, status, captain, ms))
        return out

    # --- nights ---------------------------------------------------------------------------------

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

    # --- check-ins ------------------------------------------------------------------------------

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
                raise CheckinClosed("This league night no longer exists.")
            open_now = night[0] == "checkin" or (
                night[0] == "playing" and json.loads(night[1]).get("late_checkin")
            )
            if not open_now:
                raise CheckinClosed(
                    "Check-in for this night is closed."
                    if night[0] != "scheduled"
                    else "Check-in for this night is not open yet."
                )
            prev = await conn.fetchone(
                "SELECT status FROM league_checkins WHERE night_id = ? AND user_id = ?", (night_id, user_id)
            )
            if prev and prev[0] == status:
                raise AlreadyCheckedIn(
                    "You're already checked in." if status == "in" else "You already said you can't make it."
                )
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

    # --- rounds and tables ----------------------------------------------------------------------

    async def start_round(
        self,
        night_id: int,
        round_no: int,
        *,
        tables: Sequence[Sequence[Sequence[int | None]]],
        byes: Sequence[int] = (),
        ends_at: int | None = None,
    ) -> list[LeagueTable] | None:
        """Seat a round in one transaction: the round, its tables and seats, its byes, and the night's
        round number (compare-and-set from ``round_no - 1``). None if that round was already seated."""
        now = _now()
        async with self._tx() as conn:
            changed = await conn.execute(
                "UPDATE league_nights SET round_no = ?, status = 'playing', updated_at = ?"
                " WHERE id = ? AND round_no = ? AND status IN ('checkin', 'playing')",
                (round_no, now, night_id, round_no - 1),
            )
            if changed != 1:
                return None
            await conn.execute(
                "INSERT INTO league_rounds (night_id, round_no, status, started_at, ends_at)"
                " VALUES (?, ?, 'playing', ?, ?)",
                (night_id, round_no, now, ends_at),
            )
            out: list[LeagueTable] = []
            for no, sides in enumerate(tables, start=1):
                blob = [list(s) for s in sides]
                lt_id = await conn.fetchval(
                    "INSERT INTO league_tables (night_id, round_no, table_no, sides, status)"
                    " VALUES (?, ?, ?, ?, 'seated') RETURNING id",
                    (night_id, round_no, no, _dumps(blob)),
                )
                assert lt_id is not None
                for side_no, side in enumerate(sides):
                    for uid in side:
                        if uid is not None:
                            await conn.execute(
                                "INSERT INTO league_seats (league_table_id, user_id, side) VALUES (?, ?, ?)",
                                (lt_id, uid, side_no),
                            )
                out.append(LeagueTable(lt_id, night_id, round_no, no, blob, None, None, "seated"))
            for uid in byes:
                await conn.execute(
                    "INSERT INTO league_byes (night_id, round_no, user_id) VALUES (?, ?, ?)",
                    (night_id, round_no, uid),
                )
        return out

    async def round_info(self, night_id: int, round_no: int) -> dict[str, Any] | None:
        row = await self._one(
            "SELECT status, started_at, ends_at, finished_at FROM league_rounds WHERE"
            " night_id = ? AND round_no = ?",
            (night_id, round_no),
        )
        if row is None:
            return None
        return {"status": row[0], "started_at": row[1], "ends_at": row[2], "finished_at": row[3]}

    async def finish_round(self, night_id: int, round_no: int) -> bool:
        """Mark the round finished once (compare-and-set); False when it already was."""
        async with self._tx() as conn:
            changed = await conn.execute(
                "UPDATE league_rounds SET status = 'finished', finished_at = ?"
                " WHERE night_id = ? AND round_no = ? AND status = 'playing'",
                (_now(), night_id, round_no),
            )
            return bool(changed == 1)

    async def round_tables(self, night_id: int, round_no: int) -> list[LeagueTable]:
        rows = await self._all(
            f"SELECT {_LT_COLUMNS} FROM league_tables WHERE night_id = ? AND round_no = ? ORDER BY table_no",
            (night_id, round_no),
        )
        return [_lt(r) for r in rows]

    async def league_table(self, league_table_id: int) -> LeagueTable | None:
        row = await self._one(f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,))
        return _lt(row) if row else None

    async def league_table_for(self, table_id: int) -> LeagueTable | None:
        """The league table a live table plays for (None for an ordinary game)."""
        row = await self._one(f"SELECT {_LT_COLUMNS} FROM league_tables WHERE table_id = ?", (table_id,))
        return _lt(row) if row else None

    async def link_table(self, league_table_id: int, *, channel_id: int, table_id: int) -> None:
        async with self._tx() as conn:
            await conn.execute(
                "UPDATE league_tables SET channel_id = ?, table_id = ?, status = 'playing' WHERE id = ?",
                (channel_id, table_id, league_table_id),
            )

    async def byes(self, night_id: int) -> list[tuple[int, int]]:
        """(round, user) byes of a night."""
        rows = await self._all(
            "SELECT round_no, user_id FROM league_byes WHERE night_id = ? ORDER BY round_no, user_id",
            (night_id,),
        )
        return [(r, u) for r, u in rows]

    async def busy_players(
        self, user_ids: Sequence[int], *, except_league: int | None = None
    ) -> dict[int, int]:
        """Which of these players sit at an unfinished league table right now: {user: league id}."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(
            "SELECT s.user_id, n.league_id FROM league_seats s"
            " JOIN league_tables t ON t.id = s.league_table_id"
            " JOIN league_nights n ON n.id = t.night_id"
            f" WHERE s.user_id IN ({marks}) AND t.status IN ('seated', 'playing') AND n.status = 'playing'",
            tuple(user_ids),
        )
        return {u: lg for u, lg in rows if lg != except_league}

    async def substitute(
        self,
        league_table_id: int,
        out_id: int,
        in_id: int,
        *,
        league_id: int,
        actor_id: int,
        reason: str | None,
    ) -> LeagueTable:
        """Put ``in_id`` in ``out_id``'s seat of a league table (sides and seats), with an audit line."""
        now = _now()
        async with self._tx() as conn:
            row = await conn.fetchone(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,)
            )
            if row is None:
                raise LeagueError("That table no longer exists.")
            lt = _lt(row)
            if out_id not in lt.players:
                raise LeagueError(f"<@{out_id}> is not seated at that table.")
            if in_id in lt.players:
                raise LeagueError(f"<@{in_id}> is already seated at that table.")
            lt.sides = [[in_id if p == out_id else p for p in side] for side in lt.sides]
            await conn.execute("UPDATE league_tables SET sides = ? WHERE id = ?", (_dumps(lt.sides), lt.id))
            await conn.execute(
                "UPDATE league_seats SET user_id = ? WHERE league_table_id = ? AND user_id = ?",
                (in_id, lt.id, out_id),
            )
            await self._audit(
                conn,
                league_id,
                lt.night_id,
                actor_id,
                "sub",
                {"table": lt.table_no, "round": lt.round_no, "out": out_id, "in": in_id},
                reason,
                now,
            )
        return lt

    # --- results --------------------------------------------------------------------------------

    async def record_result(
        self,
        league_table_id: int,
        *,
        scores: Sequence[int],
        bags: Sequence[int],
        winner_side: int | None,
        complete: bool,
        game_id: int | None = None,
    ) -> bool:
        """Store a table's result once and mark the table finished; False if it already had one."""
        async with self._tx() as conn:
            changed = await conn.execute(
                "INSERT INTO league_results (league_table_id, game_id, scores, bags, winner_side, complete,"
                " corrected, recorded_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT"
                " (league_table_id) DO NOTHING",
                (
                    league_table_id,
                    game_id,
                    _dumps(list(scores)),
                    _dumps(list(bags)),
                    winner_side,
                    int(complete),
                    _now(),
                ),
            )
            if changed != 1:
                return False
            await conn.execute(
                "UPDATE league_tables SET status = 'finished' WHERE id = ?", (league_table_id,)
            )
        return True

    async def correct_result(
        self,
        league_table_id: int,
        *,
        league_id: int,
        scores: Sequence[int],
        winner_side: int | None,
        actor_id: int,
        reason: str,
        bags: Sequence[int] | None = None,
    ) -> Result:
        """An admin's correction of a table's result; the old and new results go to the audit log."""
        now = _now()
        async with self._tx() as conn:
            old = await conn.fetchone(
                "SELECT scores, bags, winner_side FROM league_results WHERE league_table_id = ?",
                (league_table_id,),
            )
            lt_row = await conn.fetchone(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,)
            )
            if lt_row is None:
                raise LeagueError("That table no longer exists.")
            lt = _lt(lt_row)
            if len(scores) != len(lt.sides):
                raise LeagueError(f"Give {len(lt.sides)} scores, one per side.")
            new_bags = list(bags) if bags is not None else (json.loads(old[1]) if old else [0] * len(scores))
            await conn.execute(
                "INSERT INTO league_results (league_table_id, game_id, scores, bags, winner_side, complete,"
                " corrected, recorded_at) VALUES (?, NULL, ?, ?, ?, 1, 1, ?) ON CONFLICT (league_table_id)"
                " DO UPDATE SET scores = excluded.scores, bags = excluded.bags,"
                " winner_side = excluded.winner_side, corrected = 1",
                (league_table_id, _dumps(list(scores)), _dumps(new_bags), winner_side, now),
            )
            await conn.execute(
                "UPDATE league_tables SET status = 'finished' WHERE id = ?", (league_table_id,)
            )
            detail = {
                "round": lt.round_no,
                "table": lt.table_no,
                "before": {"scores": json.loads(old[0]), "winner": old[2]} if old else None,
                "after": {"scores": list(scores), "winner": winner_side},
            }
            await self._audit(conn, league_id, lt.night_id, actor_id, "correct", detail, reason, now)
        results = await self._results("lr.league_table_id = ?", (league_table_id,))
        return results[0]

    async def night_results(self, night_id: int) -> list[Result]:
        return await self._results("t.night_id = ?", (night_id,))

    async def season_results(self, league_id: int, season: int) -> list[Result]:
        return await self._results("n.league_id = ? AND n.season = ?", (league_id, season))

    async def _results(self, where: str, params: tuple[Any, ...]) -> list[Result]:
        rows = await self._all(
            "SELECT lr.league_table_id, t.night_id, n.number, t.round_no, t.table_no, t.sides, lr.scores,"
            " lr.bags, lr.winner_side, lr.complete, lr.corrected, lr.game_id"
            " FROM league_results lr JOIN league_tables t ON t.id = lr.league_table_id"
            " JOIN league_nights n ON n.id = t.night_id"
            f" WHERE {where} AND t.status <> 'void' ORDER BY n.starts_at, t.round_no, t.table_no",
            params,
        )
        return [
            Result(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                json.loads(r[5]),
                json.loads(r[6]),
                json.loads(r[7]),
                r[8],
                bool(r[9]),
                bool(r[10]),
                r[11],
            )
            for r in rows
        ]

    async def season_byes(self, league_id: int, season: int) -> list[tuple[int, int]]:
        """(night number, user) for every bye of the season."""
        rows = await self._all(
            "SELECT n.number, b.user_id FROM league_byes b JOIN league_nights n ON n.id = b.night_id"
            " WHERE n.league_id = ? AND n.season = ? ORDER BY n.number, b.round_no",
            (league_id, season),
        )
        return [(n, u) for n, u in rows]

    async def season_pairings(
        self, league_id: int, season: int
    ) -> list[tuple[int, int, list[list[int | None]]]]:
        """(night id, round, sides) of every seated table of the season, for the seating history."""
        rows = await self._all(
            "SELECT t.night_id, t.round_no, t.sides FROM league_tables t JOIN league_nights"
            " n ON n.id = t.night_id"
            " WHERE n.league_id = ? AND n.season = ? AND t.status <> 'void' ORDER BY n.starts_at, t.round_no",
            (league_id, season),
        )
        return [(n, r, json.loads(s)) for n, r, s in rows]

    async def game_for_table(self, table_id: int) -> dict[str, Any] | None:
        """The latest finished game of a table: {"game_id", "scores", "bags", "winner_side"} or None."""
        row = await self._one(
            "SELECT id, sides, winner_side FROM games WHERE table_id = ? ORDER BY game_no DESC LIMIT 1",
            (table_id,),
        )
        if row is None:
            return None
        sides = json.loads(row[1])
        return {
            "game_id": row[0],
            "scores": [int(s.get("score", 0)) for s in sides],
            "bags": [int(s.get("bags", 0)) for s in sides],
            "winner_side": row[2],
        }

    # --- audit ----------------------------------------------------------------------------------

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

    async def audit(
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

    async def audit_log(
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

    # --- ratings --------------------------------------------------------------------------------

    async def ratings(self, guild_id: int, user_ids: Sequence[int] | None = None) -> dict[int, StoredRating]:
        if user_ids is None:
            rows = await self._all(
                "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?", (guild_id,)
            )
        else:
            if not user_ids:
                return {}
            marks = ", ".join("?" for _ in user_ids)
            rows = await self._all(
                f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *user_ids),
            )
        return {u: StoredRating(mu, sigma, games) for u, mu, sigma, games in rows}

    async def rating_leaderboard(self, guild_id: int, *, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Players by conservative rating (mu - 3 sigma), best first; ties on games then user id."""
        rows = await self._all(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id ASC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [
            RatingRow(u, StoredRating(mu, sigma, games), offset + i + 1)
            for i, (u, mu, sigma, games) in enumerate(rows)
        ]

    async def rating_count(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM ratings WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def rate_pending_games(self, rate: GameRater, *, batch: int = 200) -> int:
        """Rate every finished game not rated yet, oldest first; returns how many games were looked at.

        Each game is rated in its own transaction together with its ``rated_games`` row, so a game is
        rated exactly once even across restarts or two callers. Run at start-up (it rates the games
        stored before ratings existed, in order) and after each finished game.
        """
        done = 0
        while True:
            pending = await self._all(
                "SELECT g.id, g.guild_id, g.sides, g.winner_side FROM games g"
                " LEFT JOIN rated_games r ON r.game_id = g.id WHERE r.game_id IS NULL"
                " ORDER BY g.finished_at, g.id LIMIT ?",
                (batch,),
            )
            if not pending:
                return done
            for game_id, guild_id, sides_json, winner in pending:
                await self._rate_one(rate, game_id, guild_id, json.loads(sides_json), winner)
                done += 1

    async def _rate_one(
        self, rate: GameRater, game_id: int, guild_id: int, sides: list[dict[str, Any]], winner: int | None
    ) -> None:
        now = _now()
        async with self._tx() as conn:
            if await conn.fetchone("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)):
                return  # someone else rated it between our read and this transaction
            seats = [
                SeatRow(side, uid, bool(is_bot), float(share or 0))
                for side, uid, is_bot, share in await conn.fetchall(
                    "SELECT side, user_id, is_bot, bot_share FROM game_players WHERE game_id = ?"
                    " ORDER BY seat",
                    (game_id,),
                )
            ]
            users = sorted({s.user_id for s in seats if s.user_id is not None and not s.is_bot})
            current: dict[int, StoredRating] = {}
            if users:
                marks = ", ".join("?" for _ in users)
                for u, mu, sigma, games in await conn.fetchall(
                    "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
                    f" AND user_id IN ({marks})",
                    (guild_id, *users),
                ):
                    current[u] = StoredRating(mu, sigma, games)
            new = rate(seats, [int(s.get("score", 0)) for s in sides], winner, current)
            for uid, r in new.items():
                old = current.get(uid)
                await conn.execute(
                    "INSERT INTO ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES"
                    " (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                    " games = excluded.games, updated_at = excluded.updated_at",
                    (guild_id, uid, r.mu, r.sigma, r.games, now),
                )
                await conn.execute(
                    "INSERT INTO rating_history (game_id, user_id, mu_before, sigma_before,"
                    " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, uid, old.mu if old else None, old.sigma if old else None, r.mu, r.sigma),
                )
            await conn.execute(
                "INSERT INTO rated_games (game_id, guild_id, rated, at) VALUES (?, ?, ?, ?)",
                (game_id, guild_id, int(bool(new)), now),
            )
