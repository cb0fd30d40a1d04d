"""The scheduler: the tick loop and each night's lifecycle (scheduled -> check-in -> playing -> done).

``tick()`` does what is due for every league from the stored state, so a restart resumes at the
next tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timedelta

from bot.clock import Clock, utcnow
from bot.render import league as text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, NightRow

from . import schedule as sch
from .checkin import Checkin
from .core import Leagues, Pulse, ScheduledEvents, schedule_of
from .gateway import CREATED, TICK_SECONDS, LeagueGateway, _unix, _utc, missed_reason
from .playoffs import Playoffs
from .results import Results
from .rounds import Rounds

log = logging.getLogger(__name__)


class NightScheduler:
    """The tick loop: create the next night, open check-in, start, miss or end it, end the season."""

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        clock: Clock,
        *,
        owns: Callable[[int], bool],
        pulse: Pulse,
        leagues: Leagues,
        checkin: Checkin,
        rounds: Rounds,
        results: Results,
        events: ScheduledEvents,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        # with shards, a process runs only the leagues of the guilds whose shard it holds
        self.owns = owns
        self.pulse = pulse
        self.leagues = leagues
        self.checkin = checkin
        self.rounds = rounds
        self.results = results
        self.events = events
        self.playoffs: Playoffs | None = None  # (service: bot.league.playoffs)
        self._task: asyncio.Task[None] | None = None
        self._spawned: set[asyncio.Task[None]] = set()

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` in the background (a listener must not block the table that called it);
        :meth:`stop` cancels it."""

        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("league: %s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=f"league-{name}")
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

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
            await self.pulse.rest(self.clock, interval)

    async def tick(self) -> None:
        """Do everything that is due, for every league."""
        async with self.pulse.lock:
            for league in await self.store.rosters.leagues(statuses=("active",)):
                if not self.owns(league.guild_id):
                    continue
                try:
                    await self._tick_league(league)
                except Exception:
                    log.exception("league %s: tick failed", league.id)

    async def _tick_league(self, league: LeagueRow) -> None:
        now = utcnow(self.clock)
        # nights under way first (a restart in the middle of one)
        for night in await self.store.nights.nights(league.id, league.season):
            if night.status in ("checkin", "playing"):
                await self._advance(league, night, now)
        # then the next scheduled night, on the league as stored now (a night missed or cancelled
        # above gave its week back: the season is a week longer than ``league`` says)
        league = await self.store.rosters.get_league(league.id) or league
        if league.status != "active":
            return
        upcoming = await self._ensure_next(league)
        if upcoming is not None and upcoming.status == "scheduled":
            if (
                league.settings.get("events", True)
                and league.settings.get("event_night") != upcoming.night_date
            ):
                await self.events.sync(league)  # (a restart between a night's end and its event update)
            await self._advance(league, upcoming, now)
        elif upcoming is None and await self.leagues.open_night(league) is None:
            await self._season_over(league)

    async def _advance(self, league: LeagueRow, night: NightRow, now: datetime) -> None:
        schedule = schedule_of(league)
        grace = schedule.grace()
        # (a row stored before check-in times were computed on instants may open after its start)
        checkin_at = _utc(min(night.checkin_at, night.starts_at))
        if night.status == "scheduled" and now >= checkin_at:
            late = sch.lateness(checkin_at, now, grace)
            note = ""
            if int(league.settings.get(CREATED, 0)) >= night.checkin_at:
                # created less than the check-in window before its night: late, the bot not offline
                note = "new_league"
            elif late != sch.ON_TIME and now >= _utc(night.starts_at) - timedelta(minutes=1):
                note = "offline_start"
            elif late != sch.ON_TIME:
                note = "offline"
            opened = await self.checkin.open(league, night, note=note)
            if opened is None:
                return
            night = opened
            if late != sch.ON_TIME and now >= _utc(night.starts_at):
                # the start was missed too but is within the grace: give players a few minutes
                late_start = _unix(now + timedelta(minutes=min(10, schedule.grace_minutes // 2 or 1)))
                moved = await self.store.nights.transition(
                    night.id,
                    ["checkin"],
                    "checkin",
                    starts_at=late_start,
                    audit=(None, "start_late", {"reason": "bot offline"}, None),
                )
                if moved is not None:
                    night = moved
                    await self.checkin.refresh(league, night)
                return
        if night.status == "checkin" and now >= _utc(night.starts_at):
            if sch.lateness(_utc(night.starts_at), now, grace) == sch.MISSED:
                await self._miss(league, night, "bot_offline")
                return
            await self.rounds.start_night(league, night)
            return
        if night.status == "playing":
            await self.rounds.advance_round(league, night, now)

    async def _ensure_next(self, league: LeagueRow) -> NightRow | None:
        """Make sure the next night of the season has a row; mark nights missed while we were away.

        A missed night gives its week back (the schedule grows by a night), so after one the
        nights are read again from the league as stored: the last night of a season missed is
        followed by the night it gave back, not by the end of the season."""
        for _attempt in range(64):
            row, missed = await self._next_row(league)
            if not missed:
                return row
            league = await self.store.rosters.get_league(league.id) or league
        return None

    async def _next_row(self, league: LeagueRow) -> tuple[NightRow | None, bool]:
        """The next night's row (created if need be), or whether a night was missed on the way."""
        schedule = schedule_of(league)
        now = utcnow(self.clock)
        rows = {n.night_date: n for n in await self.store.nights.nights(league.id, league.season)}
        grace = schedule.grace()
        for n in schedule.nights():
            row = rows.get(n.key)
            if row is not None and row.status in ("finished", "missed", "skipped", "cancelled"):
                continue
            if row is None:
                row = await self.store.nights.ensure_night(
                    league.id,
                    league.season,
                    n.number,
                    n.key,
                    _unix(n.start_utc),
                    _unix(schedule.checkin_opens(n)),
                )

            elif row.status == "scheduled" and row.number != n.number:
                row = await self.store.nights.ensure_night(
                    league.id, league.season, n.number, n.key, row.starts_at, row.checkin_at
                )
            if row.status == "scheduled" and now > _utc(row.starts_at) + grace:
                await self._miss(league, row, "bot_offline")
                return None, True
            return row, False
        return None, False

    async def _miss(self, league: LeagueRow, night: NightRow, why: str) -> None:
        """The night is missed for ``why`` (a code of ``MISSED_REASONS``: stored as the code and
        worded when read, so the history reads in each reader's language)."""
        missed = await self.store.nights.transition(
            night.id,
            ["scheduled", "checkin"],
            "missed",
            audit=(None, "missed", {"date": night.night_date, "why": why}, None),
        )
        if missed is None:
            return
        await self.checkin.refresh(league, missed, closed=True)
        schedule, league = await self._extend_past(league, date.fromisoformat(night.night_date))
        last = schedule.last_night
        msg = text.night_missed(
            league.name, night.number, night.night_date, missed_reason(why), schedule.grace_minutes, last
        )
        await self.gateway.post(league.channel_id, msg)
        await self.gateway.tell_admins(league, msg)
        await self.events.sync(league)

    async def _extend_past(self, league: LeagueRow, day: date) -> tuple[sch.Schedule, LeagueRow]:
        """Skip the missed night ``day``: the season ends a week later."""
        return await self.leagues.give_week_back(league, day)

    async def _season_over(self, league: LeagueRow) -> None:
        """Every night of the season is behind us: end it and post the final standings once."""
        fresh = await self.store.rosters.get_league(league.id)
        if fresh is None or fresh.status != "active":
            return
        if self.playoffs is not None and await self.playoffs.season_end(fresh):
            return  # the finals were scheduled, or played and the champion named
        fresh.status = "ended"
        try:
            fresh = await self.store.rosters.update_league(fresh, actor_id=None, action="season_over")
        except LeagueError:
            return
        await self.results.post_final(fresh)
        await self.events.sync(fresh)

    async def current_night(self, league: LeagueRow) -> NightRow | None:
        """The night under way, else the next scheduled one (None when the season is over)."""
        open_night = await self.leagues.open_night(league)
        if open_night is not None:
            return open_night
        nights = [
            n for n in await self.store.nights.nights(league.id, league.season) if n.status == "scheduled"
        ]
        return nights[0] if nights else await self._ensure_next(league)
