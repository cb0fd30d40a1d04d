"""Leagues and their rosters: create, find and update a league (compare-and-set on its version),
sign-up and removal of members, team invites and their answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import _dumps, _now
from .league_base import LeagueStoreBase
from .league_rows import (
    _LEAGUE_COLUMNS,
    LEAGUE_STATUSES,
    AlreadyMember,
    InviteError,
    LeagueNameTaken,
    LeagueRow,
    LeagueSlotTaken,
    Member,
    NotMember,
    RemovedByAdmin,
    StaleLeague,
    Team,
    _league,
)

# settings keys only the bot writes (set_league_event), never an admin's edit
BOOKKEEPING_KEYS = ("event_id", "event_night")


NOTIFY_CHOICES = ("off", "checkin", "seating", "both")


class RosterRows(LeagueStoreBase):
    """Leagues, members and teams."""

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
                raise LeagueSlotTaken(
                    "This channel already has a league night at that time.", "slot_taken"
                ) from exc
            raise LeagueNameTaken(
                f"This server already has a league called {name}.", "name_taken", name=name
            ) from exc
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
                # the bot's own bookkeeping (the scheduled event) is written apart and carried over
                settings = await self._with_bookkeeping(conn, league.id, league.settings)
                changed = await conn.execute(
                    "UPDATE leagues SET status = ?, name = ?, name_key = ?, settings = ?, schedule = ?,"
                    " slot_key = ?, season = ?, channel_id = ?, ruleset = ?, format = ?,"
                    " version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                    (
                        league.status,
                        league.name,
                        league.name.casefold(),
                        _dumps(settings),
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
                    raise StaleLeague("The league was changed at the same time; please try again.", "stale")
                await self._audit(conn, league.id, None, actor_id, action, detail or {}, reason, now)
        except Exception as exc:
            if not self._unique(exc):
                raise
            if self._slot_conflict(exc):
                raise LeagueSlotTaken(
                    "This channel already has a league night at that time.", "slot_taken"
                ) from exc
            raise LeagueNameTaken(
                f"This server already has a league called {league.name}.", "name_taken", name=league.name
            ) from exc
        league.settings = settings
        league.version += 1
        league.updated_at = now
        return league

    async def _with_bookkeeping(self, conn: Any, league_id: int, settings: dict[str, Any]) -> dict[str, Any]:
        """``settings`` with the stored bookkeeping keys, read under the league row's lock (PostgreSQL;
        SQLite's write transaction already holds the database)."""
        await conn.execute("UPDATE leagues SET version = version WHERE id = ?", (league_id,))
        raw = await conn.fetchval("SELECT settings FROM leagues WHERE id = ?", (league_id,))
        stored = json.loads(raw) if raw else {}
        merged = {k: v for k, v in settings.items() if k not in BOOKKEEPING_KEYS}
        merged.update({k: stored[k] for k in BOOKKEEPING_KEYS if k in stored})
        return merged

    async def set_league_event(self, league_id: int, event_id: int | None, night: str | None) -> bool:
        """Record the league's Discord scheduled event (and the night it shows) without changing the
        league's version: the bot's bookkeeping never makes an admin's change stale, and an admin's
        change never drops the event (which would make the next sync create a second one). False when
        the league is gone."""
        now = _now()
        detail = {"event_id": event_id, "night": night}
        async with self._tx() as conn:
            if await conn.execute("UPDATE leagues SET version = version WHERE id = ?", (league_id,)) != 1:
                return False
            raw = await conn.fetchval("SELECT settings FROM leagues WHERE id = ?", (league_id,))
            settings = {**json.loads(raw), "event_id": event_id, "event_night": night}
            await conn.execute(
                "UPDATE leagues SET settings = ?, updated_at = ? WHERE id = ?",
                (_dumps(settings), now, league_id),
            )
            await self._audit(conn, league_id, None, None, "event", detail, None, now)
        return True

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
                    raise AlreadyMember(f"<@{user_id}> is already on the roster.", "on_roster", user=user_id)
                if found[0] == "active":
                    raise AlreadyMember("You're already signed up.", "signed_up")
                raise AlreadyMember("You have a pending team invite.", "invite_pending")
            if found and found[1] is not None and found[1] != user_id and actor == user_id:
                raise RemovedByAdmin(
                    "A league admin took you off this league's roster; ask them to add you back.",
                    "removed_by_admin",
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
                raise NotMember(
                    f"<@{user_id}> is not on this league's roster.", "not_on_roster", user=user_id
                )
            await conn.execute(
                "UPDATE league_members SET status = 'removed', removed_by = ?"
                " WHERE league_id = ? AND user_id = ?",
                (actor_id if actor_id is not None else user_id, league_id, user_id),
            )
            if found[0] is not None:
                # the team is dissolved, but its members keep pointing at it (until they join another
                # team) so the games it played stay the team's in the standings
                await conn.execute("UPDATE league_teams SET status = 'removed' WHERE id = ?", (found[0],))
                await conn.execute(
                    "UPDATE league_members SET"
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

    async def set_notify(self, league_id: int, user_id: int, notify: str) -> bool:
        """A member's opt-in direct messages ('off', 'checkin', 'seating', 'both'); False when the
        user is not on the roster."""
        if notify not in NOTIFY_CHOICES:
            raise ValueError(f"notify is one of {NOTIFY_CHOICES}")
        async with self._tx() as conn:
            changed = await conn.execute(
                "UPDATE league_members SET notify = ? WHERE league_id = ? AND user_id = ?"
                " AND status = 'active'",
                (notify, league_id, user_id),
            )
        return bool(changed == 1)

    async def notify_of(self, league_id: int, user_id: int) -> str:
        row = await self._one(
            "SELECT notify FROM league_members WHERE league_id = ? AND user_id = ?", (league_id, user_id)
        )
        return str(row[0]) if row and row[0] else "off"

    async def notified(self, league_id: int, kind: str) -> list[int]:
        """The active members who asked for a direct message of ``kind`` ('checkin' or 'seating')."""
        rows = await self._all(
            "SELECT user_id FROM league_members WHERE league_id = ? AND status = 'active'"
            " AND notify IN (?, 'both') ORDER BY user_id",
            (league_id, kind),
        )
        return [int(r[0]) for r in rows]

    async def invite(
        self, league_id: int, captain_id: int, partner_ids: int | Sequence[int], name: str
    ) -> Team:
        """Start a fixed team: the captain is signed up, the partners (one for pairs, two for teams
        of three) are invited; the team is pending until every one of them accepts."""
        partners = [partner_ids] if isinstance(partner_ids, int) else list(partner_ids)
        if not partners:
            raise InviteError("Invite your partner: a team needs two players at least.", "no_partner")
        if captain_id in partners:
            raise InviteError("Invite someone else: you can't be your own partner.", "own_partner")
        if len(set(partners)) != len(partners):
            raise InviteError("Invite two different partners.", "same_partner")
        now = _now()
        async with self._tx() as conn:
            for uid, who in ((captain_id, "You are"), *((p, f"<@{p}> is") for p in partners)):
                found = await conn.fetchone(
                    "SELECT m.status, t.status FROM league_members m LEFT JOIN league_teams t"
                    " ON t.id = m.team_id WHERE m.league_id = ? AND m.user_id = ?",
                    (league_id, uid),
                )
                if found and found[0] != "removed" and found[1] in ("pending", "active"):
                    if uid == captain_id:
                        raise InviteError(f"{who} already on a team in this league.", "self_on_team")
                    raise InviteError(f"{who} already on a team in this league.", "on_team", user=uid)
            if await conn.fetchone(
                "SELECT 1 FROM league_teams WHERE league_id = ? AND lower(name) = lower(?) AND"
                " status <> 'removed'",
                (league_id, name),
            ):
                raise InviteError(
                    f"A team called {name} is already in this league.", "team_name_taken", name=name
                )
            team_id = await conn.fetchval(
                "INSERT INTO league_teams (league_id, name, status, captain_id, created_at)"
                " VALUES (?, ?, 'pending', ?, ?) RETURNING id",
                (league_id, name, captain_id, now),
            )
            for uid, status in ((captain_id, "active"), *((p, "invited") for p in partners)):
                await conn.execute(
                    "INSERT INTO league_members (league_id, user_id, team_id, status, joined_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (league_id, user_id) DO UPDATE SET"
                    " team_id = excluded.team_id, status = excluded.status, joined_at = excluded.joined_at",
                    (league_id, uid, team_id, status, now),
                )
            # scalar keys: forgetting a player scrubs them (bot.storage.history.AUDIT_USER_KEYS)
            detail: dict[str, Any] = {"team": name, "partner": partners[0]}
            if len(partners) > 1:
                detail["partner2"] = partners[1]
            await self._audit(conn, league_id, None, captain_id, "invite", detail, None, now)
        assert team_id is not None
        return Team(team_id, league_id, name, "pending", captain_id, [captain_id, *partners], list(partners))

    async def answer_invite(self, league_id: int, user_id: int, *, accept: bool) -> Team:
        """An invited partner accepts (the team becomes active once every invited partner has) or
        declines (the team is dissolved: its other invitees are off the roster, the captain and any
        partner who had accepted stay signed up without a team)."""
        now = _now()
        async with self._tx() as conn:
            found = await conn.fetchone(
                "SELECT t.id, t.name, t.captain_id FROM league_members m JOIN league_teams t ON"
                " t.id = m.team_id"
                " WHERE m.league_id = ? AND m.user_id = ? AND m.status = 'invited' AND t.status = 'pending'",
                (league_id, user_id),
            )
            if not found:
                raise InviteError("You have no pending team invite in this league.", "no_invite")
            team_id, name, captain = found
            # the team's row lock first: answers to one team take turns (PostgreSQL; SQLite's
            # transactions are serial anyway), so the last acceptance sees every other one
            locked = await conn.execute(
                "UPDATE league_teams SET status = status WHERE id = ? AND status = 'pending'", (team_id,)
            )
            still = await conn.fetchone(
                "SELECT 1 FROM league_members WHERE league_id = ? AND user_id = ? AND team_id = ?"
                " AND status = 'invited'",
                (league_id, user_id, team_id),
            )
            if locked != 1 or not still:
                raise InviteError("You have no pending team invite in this league.", "no_invite")
            rows = await conn.fetchall(
                "SELECT user_id, status FROM league_members WHERE league_id = ? AND team_id = ?"
                " ORDER BY joined_at, user_id",
                (league_id, team_id),
            )
            members = sorted((r[0] for r in rows), key=lambda u: (u != captain, u))
            if accept:
                await conn.execute(
                    "UPDATE league_members SET status = 'active' WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
                waiting = [uid for uid, status in rows if status == "invited" and uid != user_id]
                status = "pending" if waiting else "active"
                if not waiting:
                    await conn.execute("UPDATE league_teams SET status = 'active' WHERE id = ?", (team_id,))
            else:
                waiting = [uid for uid, status in rows if status == "invited" and uid != user_id]
                status = "removed"
                await conn.execute(
                    "UPDATE league_members SET status = 'removed', team_id = NULL"
                    " WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
                await conn.execute(
                    "UPDATE league_members SET team_id = NULL,"
                    " status = CASE WHEN status = 'invited' THEN 'removed' ELSE status END"
                    " WHERE league_id = ? AND team_id = ?",
                    (league_id, team_id),
                )
                await conn.execute("UPDATE league_teams SET status = 'removed' WHERE id = ?", (team_id,))
            await self._audit(
                conn, league_id, None, user_id, "accept" if accept else "decline", {"team": name}, None, now
            )
        return Team(team_id, league_id, name, status, captain, members, waiting)

    async def teams(self, league_id: int, *, statuses: Sequence[str] = ("active",)) -> list[Team]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            "SELECT id, name, status, captain_id, created_at FROM league_teams WHERE league_id = ? AND"
            f" status IN ({marks})"
            " ORDER BY id",
            (league_id, *statuses),
        )
        # a removed team lists everyone who was on it (also the member whose removal dissolved it),
        # so its games stay its own in the standings
        members = await self._all(
            "SELECT m.team_id, m.user_id, m.status FROM league_members m JOIN league_teams t"
            " ON t.id = m.team_id WHERE m.league_id = ? AND (m.status <> 'removed' OR t.status = 'removed')"
            " ORDER BY m.joined_at, m.user_id",
            (league_id,),
        )
        by_team: dict[int, list[int]] = {}
        invited: dict[int, list[int]] = {}
        for team_id, uid, m_status in members:
            by_team.setdefault(team_id, []).append(uid)
            if m_status == "invited":
                invited.setdefault(team_id, []).append(uid)
        out = []
        for tid, name, status, captain, created in rows:
            ms = sorted(by_team.get(tid, []), key=lambda u: (u != captain, u))
            out.append(Team(tid, league_id, name, status, captain, ms, sorted(invited.get(tid, [])), created))
        return out
