"""The scheduler: the tick loop and each night's lifecycle (scheduled -> check-in -> playing -> done).

``tick()`` does what is due for every league from the stored state, so a restart resumes at the
next tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Hashable
from datetime import date, datetime, timedelta

from bot.storage.leagues import LeagueError, LeagueRow, NightRow

from . import schedule as sch
from . import seating, text
from .gateway import TICK_SECONDS, _unix, _utc
from .ratings import Rating
from .rounds import RoundsMixin

log = logging.getLogger(__name__)


class NightsMixin(RoundsMixin):
    """The tick loop: create the next night, open check-in, start, miss or end it, end the season."""

    def start(self, *, interval: float = TICK_SECONDS) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(interval), name="league-scheduler")

    async def stop(self) -> None:
        """Stop the scheduler and the work in flight (all of it resumes from storage at the next start)."""
        tasks = [t for t in (self._task, *self._spawned) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._task = None
        self._spawned.clear()

    async def _run(self, interval: float) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("league tick failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=interval)

    async def tick(self) -> None:
        """Do everything that is due, for every league."""
        async with self._lock:
            for league in await self.store.leagues(statuses=("active",)):
                if not self.owns(league.guild_id):
                    continue
                try:
                    await self._tick_league(league)
                except Exception:
                    log.exception("league %s: tick failed", league.id)

    async def _tick_league(self, league: LeagueRow) -> None:
        now = self.now()
        # nights under way first (a restart in the middle of one)
        for night in await self.store.nights(league.id, league.season):
            if night.status in ("checkin", "playing"):
                await self._advance(league, night, now)
        # then the next scheduled night
        upcoming = await self._ensure_next(league)
        if upcoming is not None and upcoming.status == "scheduled":
            if (
                league.settings.get("events", True)
                and league.settings.get("event_night") != upcoming.night_date
            ):
                await self._sync_event(league)  # (a restart between a night's end and its event update)
            await self._advance(league, upcoming, now)
        elif upcoming is None and await self._open_night(league) is None:
            await self._season_over(league)

    async def _advance(self, league: LeagueRow, night: NightRow, now: datetime) -> None:
        schedule = self.schedule_of(league)
        grace = schedule.grace()
        if night.status == "scheduled" and now >= _utc(night.checkin_at):
            late = sch.lateness(_utc(night.checkin_at), now, grace)
            note = ""
            if late != sch.ON_TIME and now >= _utc(night.starts_at) - timedelta(minutes=1):
                note = (
                    "The bot was offline when check-in should have opened: check in now, the"
                    " night starts shortly."
                )
            elif late != sch.ON_TIME:
                note = "Check-in opened late (the bot was offline)."
            opened = await self._open_checkin(league, night, note=note)
            if opened is None:
                return
            night = opened
            if late != sch.ON_TIME and now >= _utc(night.starts_at):
                # the start was missed too but is within the grace: give players a few minutes
                late_start = _unix(now + timedelta(minutes=min(10, schedule.grace_minutes // 2 or 1)))
                moved = await self.store.transition(
                    night.id,
                    ["checkin"],
                    "checkin",
                    starts_at=late_start,
                    audit=(None, "start_late", {"reason": "bot offline"}, None),
                )
                if moved is not None:
                    night = moved
                    await self._refresh_checkin(league, night)
                return
        if night.status == "checkin" and now >= _utc(night.starts_at):
            if sch.lateness(_utc(night.starts_at), now, grace) == sch.MISSED:
                await self._miss(league, night, "the bot was not running at the start")
                return
            await self._start_night(league, night)
            return
        if night.status == "playing":
            await self._advance_round(league, night, now)

    async def _ensure_next(self, league: LeagueRow) -> NightRow | None:
        """Make sure the next night of the season has a row; mark nights missed while we were away."""
        schedule = self.schedule_of(league)
        now = self.now()
        rows = {n.night_date: n for n in await self.store.nights(league.id, league.season)}
        grace = schedule.grace()
        for n in schedule.nights():
            row = rows.get(n.key)
            if row is not None and row.status in ("finished", "missed", "skipped", "cancelled"):
                continue
            if row is None:
                row = await self.store.ensure_night(
                    league.id,
                    league.season,
                    n.number,
                    n.key,
                    _unix(n.start_utc),
                    _unix(schedule.checkin_opens(n)),
                )
            elif row.status == "scheduled" and row.number != n.number:
                row = await self.store.ensure_night(
                    league.id, league.season, n.number, n.key, row.starts_at, row.checkin_at
                )
            if row.status == "scheduled" and now > _utc(row.starts_at) + grace:
                await self._miss(league, row, "the bot was not running at the start")
                continue
            return row
        return None

    async def _miss(self, league: LeagueRow, night: NightRow, why: str) -> None:
        missed = await self.store.transition(
            night.id,
            ["scheduled", "checkin"],
            "missed",
            audit=(None, "missed", {"date": night.night_date}, why),
        )
        if missed is None:
            return
        await self._refresh_checkin(league, missed, closed=True)
        schedule = self.schedule_of(league)
        day = date.fromisoformat(night.night_date)
        if day not in schedule.skipped and schedule.night_on(day) is not None:
            schedule = schedule.skip(day)
            fresh = await self.store.get_league(league.id)
            if fresh is not None:
                fresh.schedule = sch.to_dict(schedule)
                await self.store.update_league(
                    fresh, actor_id=None, action="extend", detail={"missed": night.night_date}
                )
                league.schedule, league.version = fresh.schedule, fresh.version
        last = schedule.last_night
        msg = (
            f"⚠️ **{league.name}**: night {night.number} ({night.night_date}) was"
            f" missed: {why}, and the grace "
            f"period of {schedule.grace_minutes} minutes is over. The season now ends on"
            f" {last.day.isoformat()}."
        )
        await self.gateway.post(league.channel_id, msg)
        await self.gateway.tell_admins(league, msg)
        await self._sync_event(league)

    async def _season_over(self, league: LeagueRow) -> None:
        """Every night of the season is behind us: end it and post the final standings once."""
        fresh = await self.store.get_league(league.id)
        if fresh is None or fresh.status != "active":
            return
        fresh.status = "ended"
        try:
            fresh = await self.store.update_league(fresh, actor_id=None, action="season_over")
        except LeagueError:
            return
        await self._post_final(fresh)
        await self._sync_event(fresh)

    async def current_night(self, league: LeagueRow) -> NightRow | None:
        """The night under way, else the next scheduled one (None when the season is over)."""
        open_night = await self._open_night(league)
        if open_night is not None:
            return open_night
        nights = [n for n in await self.store.nights(league.id, league.season) if n.status == "scheduled"]
        return nights[0] if nights else await self._ensure_next(league)

    async def me_text(self, league: LeagueRow, user_id: int) -> str:
        member = await self.store.member(league.id, user_id)
        rows, held = await self.standings_rows(league)
        entrant: Hashable = user_id
        team_line = ""
        if league.format == seating.FIXED:
            teams = await self.store.teams(league.id, statuses=("active", "pending"))
            team = next((t for t in teams if user_id in t.members), None)
            if team is not None:
                entrant = f"team:{team.id}"
                team_line = f"Team **{team.name}** ({team.status})\n"
        row = next((r for r in rows if r.entrant == entrant), None)
        stored = (await self.store.ratings(league.guild_id, [user_id])).get(user_id)
        rating = Rating(stored.mu, stored.sigma, stored.games) if stored else Rating()
        night = await self.current_night(league)
        answer = ""
        if night is not None:
            ans = (await self.store.checkins(night.id)).get(user_id)
            answer = {"in": "checked in", "out": "not coming"}.get(ans or "", "not checked in")
            answer = f"\nNext night: {text.ts(night.starts_at)}: {answer}"
        if member is None:
            head = f"You're not signed up for **{league.name}**."
        else:
            head = (
                f"**{league.name}**: you're"
                f" {'invited to a team' if member.status == 'invited' else 'signed up'}."
            )
        if row is None:
            stats = "No league games yet."
        else:
            stats = (
                f"Rank {row.rank} of {len(rows)} · {row.total} pts · {row.wins}W"
                f" {row.close_losses}CL {row.losses}L"
                f" · nights {row.attendance(held)}"
            )
        rated = (
            f"Rating {rating.display()} ({rating.games} rated"
            f" games{', provisional' if rating.provisional else ''})"
        )
        return text.clip(f"{head}\n{team_line}{stats}\n{rated}{answer}")
