"""League admin tools over a league and its season: create and edit a league, pause, resume, skip a
night, end or start a season, archive. (Tonight's tools, start now, postpone, substitute, are in
``tonight``.)
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from bot.clock import Clock, utcnow
from bot.i18n import _, join
from bot.model import DEFAULT_BID_SECONDS, DEFAULT_PLAY_SECONDS
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore

from . import attendance, standings
from . import schedule as sch
from .core import (
    Leagues,
    Pulse,
    ScheduledEvents,
    build_ruleset,
    house_rules,
    parse_rules,
    ruleset_of,
    schedule_of,
    settings_of,
)
from .gateway import CREATED, LeagueGateway, LeagueRefusal, _unix, _utc, night_status, status_text
from .results import Results
from .schedule_input import ScheduleError, check_weeks, parse_date, parse_time, parse_weekday, parse_zone
from .settings import (
    DEFAULT_LATE_MINUTES,
    OVERTIME,
    LeagueSettings,
    SettingsError,
    check_checkin_minutes,
    check_format,
    check_leftover,
    check_name,
    slot_key,
)


class Admin:
    """The commands of a league's admins over the league and its season."""

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        clock: Clock,
        *,
        pulse: Pulse,
        leagues: Leagues,
        events: ScheduledEvents,
        results: Results,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.pulse = pulse
        self.leagues = leagues
        self.events = events
        self.results = results

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        actor_id: int,
        name: str,
        weekday: str,
        at: str,
        zone: str,
        weeks: int,
        fmt: str = "rotating",
        preset: str = "standard",
        target: int | None = None,
        hand_limit: int | None = None,
        rounds: int = 2,
        round_minutes: int = 45,
        leftover: str = "bot",
        first_date: str | None = None,
        role_id: int | None = None,
        admin_role_id: int | None = None,
        points: standings.PointsRule | None = None,
        checkin_minutes: int | None = None,
        late_minutes: int | None = None,
        min_players: int | None = None,
        rules: str | None = None,
        time_call: str | None = None,
        bid_seconds: int | None = None,
        play_seconds: int | None = None,
    ) -> LeagueRow:
        """Validate everything first (LeagueRefusal with the reason), then write once. ``rules``:
        house rules as ``/spades new`` takes them; ``time_call``: what happens when a round's time
        is up (``bot.league.settings.TIME_CALLS``); the turn timers of the league's tables."""
        now = utcnow(self.clock)
        try:
            name = check_name(name)
            wd = parse_weekday(weekday)
            local = parse_time(at)
            zone_key = parse_zone(zone).key
            check_weeks(weeks)
            first = parse_date(first_date) if first_date else None
            schedule = sch.Schedule.starting_after(
                now,
                weekday=wd,
                at=local,
                zone_name=zone_key,
                weeks=weeks,
                first_day=first,
                checkin_minutes=(
                    sch.DEFAULT_CHECKIN_MINUTES
                    if checkin_minutes is None
                    else check_checkin_minutes(checkin_minutes)
                ),
            )
            ruleset = build_ruleset(preset, target, hand_limit, parse_rules(rules) if rules else None)
            fmt = check_format(fmt, ruleset)
            check_leftover(leftover, fmt, ruleset)
            settings = LeagueSettings(
                rounds=rounds,
                round_minutes=round_minutes,
                leftover=leftover,
                points=points or standings.PointsRule(),
                role_id=role_id,
                admin_role_id=admin_role_id,
                late_minutes=DEFAULT_LATE_MINUTES if late_minutes is None else late_minutes,
                min_players=min_players or 0,
                time_call=time_call or OVERTIME,
                bid_seconds=DEFAULT_BID_SECONDS if bid_seconds is None else bid_seconds,
                play_seconds=DEFAULT_PLAY_SECONDS if play_seconds is None else play_seconds,
            )
        except (ScheduleError, SettingsError, standings.PointsError) as exc:
            raise LeagueRefusal.of(exc) from None
        await self.leagues.check_clash(channel_id, schedule, settings, except_id=None, now=now)
        try:
            league = await self.store.rosters.create_league(
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                fmt=fmt,
                ruleset=ruleset.to_dict(),
                # (when, on the league's clock: a first night's check-in opened late by creation)
                settings={**settings.to_dict(), CREATED: int(now.timestamp())},
                schedule=sch.to_dict(schedule),
                slot_key=slot_key(schedule),
                created_by=actor_id,
            )
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        await self.events.sync(league)
        self.pulse.poke()
        return league

    async def edit(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        name: str | None = None,
        weekday: str | None = None,
        at: str | None = None,
        zone: str | None = None,
        weeks: int | None = None,
        rounds: int | None = None,
        round_minutes: int | None = None,
        leftover: str | None = None,
        role_id: int | None = None,
        target: int | None = None,
        hand_limit: int | None = None,
        points: dict[str, Any] | None = None,
        checkin_minutes: int | None = None,
        late_minutes: int | None = None,
        min_players: int | None = None,
        rules: str | None = None,
        time_call: str | None = None,
        bid_seconds: int | None = None,
        play_seconds: int | None = None,
    ) -> LeagueRow:
        """Change what is given (None: unchanged). ``rules`` replaces the league's house rules
        (``none`` clears them); the target and the hand limit stay unless given too. Tonight's
        tables keep the rules they opened with: the next tables open with the new ones."""
        now = utcnow(self.clock)
        changes: dict[str, Any] = {}
        try:
            settings = settings_of(league)
            new_settings = settings.with_changes(
                **{
                    k: v
                    for k, v in {
                        "rounds": rounds,
                        "round_minutes": round_minutes,
                        "leftover": leftover,
                        "role_id": role_id,
                        "late_minutes": late_minutes,
                        "min_players": min_players,
                        "time_call": time_call,
                        "bid_seconds": bid_seconds,
                        "play_seconds": play_seconds,
                    }.items()
                    if v is not None
                }
            )
            if points:
                new_settings = new_settings.with_changes(
                    points=standings.PointsRule.from_dict({**settings.points.to_dict(), **points})
                )
            schedule = schedule_of(league)
            if any(v is not None for v in (weekday, at, zone, weeks)):
                if await self.leagues.open_night(league) is not None and any(
                    v is not None for v in (weekday, at, zone)
                ):
                    raise LeagueRefusal(_("A night is under way: change the day or time after it ends."))
                held = len(await self.leagues.held_nights(league))
                schedule = schedule.retime(
                    now,
                    weekday=parse_weekday(weekday) if weekday else None,
                    at=parse_time(at) if at else None,
                    zone_name=zone,
                    weeks=weeks,
                    held=held,
                )
                changes["schedule"] = sch.to_dict(schedule)  # (stored as data: words are made when shown)
            if checkin_minutes is not None and checkin_minutes != schedule.checkin_minutes:
                schedule = replace(schedule, checkin_minutes=check_checkin_minutes(checkin_minutes))
                changes["schedule"] = sch.to_dict(schedule)
            ruleset = ruleset_of(league)
            if target is not None or hand_limit is not None or rules is not None:
                overrides = {**ruleset.overrides()}
                base = build_ruleset(
                    ruleset.name,
                    target if target is not None else overrides.get("target_score"),
                    hand_limit if hand_limit is not None else overrides.get("max_hands"),
                    parse_rules(rules) if rules is not None else house_rules(ruleset),
                )
                if base != ruleset:
                    ruleset = base
                    changes["round"] = ruleset.to_dict()
            if name is not None:
                name = check_name(name)
                changes["name"] = name
            check_leftover(new_settings.leftover, league.format, ruleset)
        except (ScheduleError, SettingsError, standings.PointsError) as exc:
            raise LeagueRefusal.of(exc) from None
        if new_settings != settings:
            changes["settings"] = {
                k: v for k, v in new_settings.to_dict().items() if settings.to_dict().get(k) != v
            }
        if not changes:
            raise LeagueRefusal(_("Nothing to change: give at least one new value."))
        await self.leagues.check_clash(
            league.channel_id, schedule, new_settings, except_id=league.id, now=now
        )
        league.settings = {**league.settings, **new_settings.to_dict()}
        league.schedule = sch.to_dict(schedule)
        league.slot_key = slot_key(schedule)
        league.ruleset = ruleset.to_dict()
        if name is not None:
            league.name = name
        league = await self.leagues.save(league, actor_id, "edit", changes)
        await self.leagues.reconcile(league)
        await self.events.sync(league)
        self.pulse.poke()
        return league

    async def pause(self, league: LeagueRow, actor_id: int, reason: str | None = None) -> LeagueRow:
        if league.status != "active":
            raise LeagueRefusal(join(status_text(league), _("It can only be paused while it runs.")))
        if await self.leagues.open_night(league) is not None:
            raise LeagueRefusal(_("A night is under way: pause the league after it ends."))
        league.status = "paused"
        league.settings = {**league.settings, "paused_at": _unix(utcnow(self.clock))}
        league = await self.leagues.save(league, actor_id, "pause", reason=reason)
        await self.events.sync(league)
        return league

    async def resume(self, league: LeagueRow, actor_id: int) -> LeagueRow:
        if league.status != "paused":
            raise LeagueRefusal(_("**%(league)s** is not paused.", league=league.name))
        now = utcnow(self.clock)
        paused_at = _utc(int(league.settings.get("paused_at") or _unix(now)))
        held = {
            date.fromisoformat(n.night_date)
            for n in await self.store.nights.nights(league.id, league.season)
            if n.status not in ("scheduled",)
        }
        schedule = schedule_of(league).skip_between(paused_at, now, held)
        league.schedule = sch.to_dict(schedule)
        league.status = "active"
        league.settings = {k: v for k, v in league.settings.items() if k != "paused_at"}
        league = await self.leagues.save(
            league, actor_id, "resume", {"skipped": sorted(d.isoformat() for d in schedule.skipped)}
        )
        await self.leagues.reconcile(league)
        await self.events.sync(league)
        self.pulse.poke()
        return league

    async def skip(
        self, league: LeagueRow, actor_id: int, day: str, reason: str | None = None
    ) -> tuple[LeagueRow, sch.Night]:
        """Skip one date; the season gets one week longer. Returns the new last night."""
        try:
            d = parse_date(day)
            schedule = schedule_of(league).skip(d)
        except ScheduleError as exc:
            raise LeagueRefusal.of(exc) from None
        nights = {n.night_date: n for n in await self.store.nights.nights(league.id, league.season)}
        row = nights.get(d.isoformat())
        if row is not None and row.status != "scheduled":
            raise LeagueRefusal(
                _(
                    "The night of %(date)s is %(status)s: it can't be skipped now.",
                    date=d.isoformat(),
                    status=night_status(row.status),
                )
            )
        if row is not None:
            await self.store.nights.transition(row.id, ["scheduled"], "skipped")
        league.schedule = sch.to_dict(schedule)
        league = await self.leagues.save(league, actor_id, "skip", {"date": d.isoformat()}, reason)
        await self.leagues.reconcile(league)
        await self.events.sync(league)
        self.pulse.poke()
        return league, schedule.last_night

    async def end_season(
        self, league: LeagueRow, actor_id: int | None, reason: str | None = None
    ) -> LeagueRow:
        if league.status not in ("active", "paused"):
            raise LeagueRefusal(_("**%(league)s**'s season is already over.", league=league.name))
        if await self.leagues.open_night(league) is not None:
            raise LeagueRefusal(_("A night is under way: end the season after it ends."))
        for n in await self.store.nights.nights(league.id, league.season):
            if n.status == "scheduled":
                await self.store.nights.transition(n.id, ["scheduled"], "cancelled")
        league.status = "ended"
        league = await self.leagues.save(league, actor_id, "end", reason=reason)
        await self.events.sync(league)
        await self.results.post_final(league)
        return league

    async def new_season(self, league: LeagueRow, actor_id: int, *, weeks: int | None = None) -> LeagueRow:
        if league.status != "ended":
            raise LeagueRefusal(_("End the current season first (`/league end`)."))
        old = schedule_of(league)
        try:
            schedule = sch.Schedule.starting_after(
                utcnow(self.clock),
                weekday=old.weekday,
                at=old.at,
                zone_name=old.zone_name,
                weeks=old.total_weeks if weeks is None else weeks,
                checkin_minutes=old.checkin_minutes,
                grace_minutes=old.grace_minutes,
            )
        except ScheduleError as exc:
            raise LeagueRefusal.of(exc) from None
        await self.leagues.check_clash(
            league.channel_id, schedule, settings_of(league), except_id=league.id, now=utcnow(self.clock)
        )
        league.schedule = sch.to_dict(schedule)
        league.season += 1
        league.status = "active"
        league = await self.leagues.save(league, actor_id, "new_season", {"season": league.season})
        await self.events.sync(league)
        self.pulse.poke()
        return league

    async def archive(self, league: LeagueRow, actor_id: int) -> LeagueRow:
        if league.status in ("active", "paused"):
            raise LeagueRefusal(_("End the season first (`/league end`), then archive the league."))
        league.status = "archived"
        return await self.leagues.save(league, actor_id, "archive")

    async def set_attendance(self, league: LeagueRow, actor_id: int, **changes: Any) -> LeagueRow:
        """``/league admin attendance``: the no-show rule, the no-show share, the minutes a player
        may miss, the drop rule and who a substitute's seat counts for (``bot.league.attendance``)."""
        given = {k: v for k, v in changes.items() if v is not None}
        if not given:
            raise LeagueRefusal(_("Nothing to change: give at least one new value."))
        settings = settings_of(league)
        try:
            rule = attendance.AttendanceRule.from_dict({**settings.attendance.to_dict(), **given})
        except attendance.AttendanceError as exc:
            raise LeagueRefusal.of(exc) from None
        if rule == settings.attendance:
            raise LeagueRefusal(_("Nothing to change: those are the league's settings already."))
        new_settings = settings.with_changes(attendance=rule)
        league.settings = {**league.settings, **new_settings.to_dict()}
        return await self.leagues.save(league, actor_id, "edit", {"settings": {"attendance": rule.to_dict()}})
