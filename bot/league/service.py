"""The league service: runs league nights from the database, whatever restarts in between.

Everything a night does is driven by ``tick()``: it looks at the stored leagues and nights and does
what is due (open check-in, start the night, call time on a round, record results that finished
while the bot was down, seat the next round, close the night). Each step is a compare-and-set on
the stored night or round, so a step runs once even when two ticks (or a tick and a game-finished
callback) race, and a restart simply resumes at the next tick.

Discord and the table machinery are behind :class:`LeagueGateway`; the cog calls the public
methods and answers :class:`LeagueRefusal` messages ephemerally.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Protocol

from bot.storage.leagues import (
    LeagueError,
    LeagueRow,
    LeagueStore,
    LeagueTable,
    NightRow,
    Result,
)
from engine.ruleset import Ruleset, RulesetError

from . import schedule as sch
from . import seating, standings, text
from .ratings import Rating, rate_stored
from .settings import LeagueSettings, SettingsError, check_format, check_name, clash, slot_key, team_size

log = logging.getLogger(__name__)

TICK_SECONDS = 30.0


class LeagueRefusal(Exception):
    """A user-facing refusal: the message is answered ephemerally as is."""


@dataclass(frozen=True)
class TableOutcome:
    """How a league table's game ended (or stood when time was called)."""

    scores: list[int]
    bags: list[int]
    winner_side: int | None
    complete: bool
    game_id: int | None = None


class LeagueGateway(Protocol):
    """What the service needs from Discord and the table machinery (wired by the bot)."""

    async def post(self, channel_id: int, content: str, *, role_id: int | None = None) -> int | None:
        """Post a message; returns its id (None when it could not be posted)."""

    async def post_checkin(
        self, channel_id: int, night_id: int, content: str, *, role_id: int | None
    ) -> int | None:
        """Post the check-in message with its Check in / Can't make it buttons."""

    async def edit_checkin(
        self, channel_id: int, message_id: int, night_id: int, content: str, *, closed: bool
    ) -> None:
        """Update the check-in message (the list of players; buttons removed once closed)."""

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: str,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
    ) -> tuple[int, int] | None:
        """Open a live table for these seats (None = a bot) in a new thread of ``channel_id`` (or the
        channel itself); returns (thread or channel id, table id), None when it could not."""

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        """The result of a table whose game is over; None while it is still being played."""

    async def call_time(self, table_id: int) -> TableOutcome | None:
        """Stop a table (time is up) and return its scores as they stand."""

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        """Give a player's seat at a live table to another player; False if it could not."""

    async def sync_event(
        self,
        league: LeagueRow,
        night: sch.Night | None,
        *,
        recurrence: dict[str, Any] | None,
        event_id: int | None,
    ) -> int | None:
        """Create or update the Discord scheduled event for ``night`` (cancel it when None);
        returns the event id to keep."""

    async def tell_admins(self, league: LeagueRow, content: str) -> None:
        """Tell the league's admins something went wrong (a missed night, a table that failed)."""


@dataclass
class NightView:
    """A night of a league with its schedule entry (for posts and commands)."""

    league: LeagueRow
    night: NightRow


def _utc(seconds: int | float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _unix(dt: datetime) -> int:
    return int(dt.timestamp())


class LeagueService:
    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        *,
        clock: Callable[[], datetime] | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.store = store
        # with shards, a process runs only the leagues of the guilds whose shard it holds
        self.owns = owns or (lambda _guild_id: True)
        self.gateway = gateway
        self.clock = clock or (lambda: datetime.now(UTC))
        self._lock = asyncio.Lock()  # one tick or callback changes league state at a time
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._spawned: set[asyncio.Task[None]] = set()
        self._told_open_failed: set[int] = set()

    # --- the scheduler loop ---------------------------------------------------------------------

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

    def spawn(self, work: Awaitable[None], name: str) -> None:
        """Run ``work`` in the background (a listener must not block the table that called it)."""

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

    def poke(self) -> None:
        """Run a tick soon (something changed: a game ended, an admin started a night)."""
        self._wake.set()

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

    # --- helpers --------------------------------------------------------------------------------

    @staticmethod
    def schedule_of(league: LeagueRow) -> sch.Schedule:
        return sch.from_dict(league.schedule)

    @staticmethod
    def settings_of(league: LeagueRow) -> LeagueSettings:
        return LeagueSettings.from_dict(league.settings)

    @staticmethod
    def ruleset_of(league: LeagueRow) -> Ruleset:
        return Ruleset.from_dict(league.ruleset)

    def now(self) -> datetime:
        return self.clock()

    async def rate_pending(self) -> int:
        """Rate every finished game not rated yet (all servers, oldest first); each exactly once."""
        return await self.store.rate_pending_games(rate_stored)

    # --- creating and changing leagues ------------------------------------------------------------

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
    ) -> LeagueRow:
        """Validate everything first (LeagueRefusal with the reason), then write once."""
        now = self.now()
        try:
            name = check_name(name)
            wd = sch.parse_weekday(weekday)
            local = sch.parse_time(at)
            zone_key = sch.parse_zone(zone).key
            sch.check_weeks(weeks)
            first = sch.parse_date(first_date) if first_date else None
            schedule = sch.Schedule.starting_after(
                now, weekday=wd, at=local, zone_name=zone_key, weeks=weeks, first_day=first
            )
            ruleset = self._ruleset(preset, target, hand_limit)
            fmt = check_format(fmt, ruleset)
            settings = LeagueSettings(
                rounds=rounds,
                round_minutes=round_minutes,
                leftover=leftover,
                points=points or standings.PointsRule(),
                role_id=role_id,
                admin_role_id=admin_role_id,
            )
        except (sch.ScheduleError, SettingsError, standings.PointsError) as exc:
            raise LeagueRefusal(str(exc)) from None
        await self._check_clash(channel_id, schedule, settings, except_id=None, now=now)
        try:
            league = await self.store.create_league(
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                fmt=fmt,
                ruleset=ruleset.to_dict(),
                settings=settings.to_dict(),
                schedule=sch.to_dict(schedule),
                slot_key=slot_key(schedule),
                created_by=actor_id,
            )
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None
        await self._sync_event(league)
        self.poke()
        return league

    @staticmethod
    def _ruleset(preset: str, target: int | None, hand_limit: int | None) -> Ruleset:
        overrides: dict[str, Any] = {}
        if target is not None:
            if not 50 <= target <= 1000:
                raise SettingsError(f"A round's target score is 50 to 1000 (you gave {target}).")
            overrides["target_score"] = target
        if hand_limit is not None:
            if not 1 <= hand_limit <= 30:
                raise SettingsError(f"A round's hand limit is 1 to 30 hands (you gave {hand_limit}).")
            overrides["max_hands"] = hand_limit
        try:
            return Ruleset.preset(preset, **overrides)
        except RulesetError as exc:
            raise SettingsError(str(exc)) from None

    async def _check_clash(
        self,
        channel_id: int,
        schedule: sch.Schedule,
        settings: LeagueSettings,
        *,
        except_id: int | None,
        now: datetime,
    ) -> None:
        others = []
        for other in await self.store.leagues_in_channel(channel_id):
            if other.id == except_id:
                continue
            others.append((other.name, self.schedule_of(other), self.settings_of(other).night_length))
        name = clash(schedule, settings.night_length, others, now=now)
        if name is not None:
            raise LeagueRefusal(
                f"**{name}** already meets in this channel at that time; choose another time or channel."
            )

    async def league(self, guild_id: int, name: str) -> LeagueRow:
        """The server's league called ``name``; a refusal listing the leagues otherwise."""
        found = await self.store.league_named(guild_id, name)
        if found is not None:
            return found
        names = [lg.name for lg in await self.store.leagues(guild_id)]
        hint = f" Leagues here: {', '.join(names[:10])}." if names else " This server has no league yet."
        raise LeagueRefusal(f"There is no league called `{name[:50]}`.{hint}")

    async def league_names(self, guild_id: int, prefix: str = "") -> list[str]:
        p = prefix.casefold()
        return [lg.name for lg in await self.store.leagues(guild_id) if p in lg.name.casefold()][:25]

    async def _save(
        self,
        league: LeagueRow,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> LeagueRow:
        try:
            return await self.store.update_league(
                league, actor_id=actor_id, action=action, detail=detail, reason=reason
            )
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    async def _held(self, league: LeagueRow) -> list[NightRow]:
        return [n for n in await self.store.nights(league.id, league.season) if n.status in ("finished",)]

    async def _open_night(self, league: LeagueRow) -> NightRow | None:
        for n in await self.store.nights(league.id, league.season):
            if n.status in ("checkin", "playing"):
                return n
        return None

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
    ) -> LeagueRow:
        now = self.now()
        changes: dict[str, Any] = {}
        try:
            settings = self.settings_of(league)
            new_settings = settings.with_changes(
                **{
                    k: v
                    for k, v in {
                        "rounds": rounds,
                        "round_minutes": round_minutes,
                        "leftover": leftover,
                        "role_id": role_id,
                    }.items()
                    if v is not None
                }
            )
            if points:
                new_settings = new_settings.with_changes(
                    points=standings.PointsRule.from_dict({**settings.points.to_dict(), **points})
                )
            schedule = self.schedule_of(league)
            if any(v is not None for v in (weekday, at, zone, weeks)):
                if await self._open_night(league) is not None and any(
                    v is not None for v in (weekday, at, zone)
                ):
                    raise LeagueRefusal("A night is under way: change the day or time after it ends.")
                held = len(await self._held(league))
                schedule = schedule.retime(
                    now,
                    weekday=sch.parse_weekday(weekday) if weekday else None,
                    at=sch.parse_time(at) if at else None,
                    zone_name=zone,
                    weeks=weeks,
                    held=held,
                )
                changes["schedule"] = sch.describe(schedule) + f", {schedule.total_weeks} weeks"
            ruleset = self.ruleset_of(league)
            if target is not None or hand_limit is not None:
                overrides = {**ruleset.overrides()}
                base = self._ruleset(
                    ruleset.name,
                    target if target is not None else overrides.get("target_score"),
                    hand_limit if hand_limit is not None else overrides.get("max_hands"),
                )
                ruleset = base
                changes["round"] = ruleset.describe()
            if name is not None:
                name = check_name(name)
                changes["name"] = name
        except (sch.ScheduleError, SettingsError, standings.PointsError) as exc:
            raise LeagueRefusal(str(exc)) from None
        if new_settings != settings:
            changes["settings"] = {
                k: v for k, v in new_settings.to_dict().items() if settings.to_dict().get(k) != v
            }
        if not changes:
            raise LeagueRefusal("Nothing to change: give at least one new value.")
        await self._check_clash(league.channel_id, schedule, new_settings, except_id=league.id, now=now)
        league.settings = {**league.settings, **new_settings.to_dict()}
        league.schedule = sch.to_dict(schedule)
        league.slot_key = slot_key(schedule)
        league.ruleset = ruleset.to_dict()
        if name is not None:
            league.name = name
        league = await self._save(league, actor_id, "edit", changes)
        await self._reconcile(league)
        await self._sync_event(league)
        self.poke()
        return league

    async def pause(self, league: LeagueRow, actor_id: int, reason: str | None = None) -> LeagueRow:
        if league.status != "active":
            raise LeagueRefusal(f"**{league.name}** is {league.status}, not running.")
        if await self._open_night(league) is not None:
            raise LeagueRefusal("A night is under way: pause the league after it ends.")
        league.status = "paused"
        league.settings = {**league.settings, "paused_at": _unix(self.now())}
        league = await self._save(league, actor_id, "pause", reason=reason)
        await self._sync_event(league)
        return league

    async def resume(self, league: LeagueRow, actor_id: int) -> LeagueRow:
        if league.status != "paused":
            raise LeagueRefusal(f"**{league.name}** is not paused.")
        now = self.now()
        paused_at = _utc(int(league.settings.get("paused_at") or _unix(now)))
        held = {
            date.fromisoformat(n.night_date)
            for n in await self.store.nights(league.id, league.season)
            if n.status not in ("scheduled",)
        }
        schedule = self.schedule_of(league).skip_between(paused_at, now, held)
        league.schedule = sch.to_dict(schedule)
        league.status = "active"
        league.settings = {k: v for k, v in league.settings.items() if k != "paused_at"}
        league = await self._save(
            league, actor_id, "resume", {"skipped": sorted(d.isoformat() for d in schedule.skipped)}
        )
        await self._reconcile(league)
        await self._sync_event(league)
        self.poke()
        return league

    async def skip(
        self, league: LeagueRow, actor_id: int, day: str, reason: str | None = None
    ) -> tuple[LeagueRow, sch.Night]:
        """Skip one date; the season gets one week longer. Returns the new last night."""
        try:
            d = sch.parse_date(day)
            schedule = self.schedule_of(league).skip(d)
        except sch.ScheduleError as exc:
            raise LeagueRefusal(str(exc)) from None
        nights = {n.night_date: n for n in await self.store.nights(league.id, league.season)}
        row = nights.get(d.isoformat())
        if row is not None and row.status != "scheduled":
            raise LeagueRefusal(f"The night of {d.isoformat()} is {row.status}: it can't be skipped now.")
        if row is not None:
            await self.store.transition(row.id, ["scheduled"], "skipped")
        league.schedule = sch.to_dict(schedule)
        league = await self._save(league, actor_id, "skip", {"date": d.isoformat()}, reason)
        await self._reconcile(league)
        await self._sync_event(league)
        self.poke()
        return league, schedule.last_night

    async def end_season(
        self, league: LeagueRow, actor_id: int | None, reason: str | None = None
    ) -> LeagueRow:
        if league.status not in ("active", "paused"):
            raise LeagueRefusal(f"**{league.name}**'s season is already over.")
        if await self._open_night(league) is not None:
            raise LeagueRefusal("A night is under way: end the season after it ends.")
        for n in await self.store.nights(league.id, league.season):
            if n.status == "scheduled":
                await self.store.transition(n.id, ["scheduled"], "cancelled")
        league.status = "ended"
        league = await self._save(league, actor_id, "end", reason=reason)
        await self._sync_event(league)
        await self._post_final(league)
        return league

    async def new_season(self, league: LeagueRow, actor_id: int, *, weeks: int | None = None) -> LeagueRow:
        if league.status != "ended":
            raise LeagueRefusal("End the current season first (`/league end`).")
        old = self.schedule_of(league)
        try:
            schedule = sch.Schedule.starting_after(
                self.now(),
                weekday=old.weekday,
                at=old.at,
                zone_name=old.zone_name,
                weeks=old.total_weeks if weeks is None else weeks,
                checkin_minutes=old.checkin_minutes,
                grace_minutes=old.grace_minutes,
            )
        except sch.ScheduleError as exc:
            raise LeagueRefusal(str(exc)) from None
        await self._check_clash(
            league.channel_id, schedule, self.settings_of(league), except_id=league.id, now=self.now()
        )
        league.schedule = sch.to_dict(schedule)
        league.season += 1
        league.status = "active"
        league = await self._save(league, actor_id, "new_season", {"season": league.season})
        await self._sync_event(league)
        self.poke()
        return league

    async def archive(self, league: LeagueRow, actor_id: int) -> LeagueRow:
        if league.status in ("active", "paused"):
            raise LeagueRefusal("End the season first (`/league end`), then archive the league.")
        league.status = "archived"
        return await self._save(league, actor_id, "archive")

    # --- roster ---------------------------------------------------------------------------------

    async def sign_up(self, league: LeagueRow, user_id: int) -> None:
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                "This league plays in fixed teams: invite your partner with `/league invite`, "
                "or accept an invite with `/league accept`."
            )
        try:
            await self.store.sign_up(league.id, user_id)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    @staticmethod
    def _open_for_signups(league: LeagueRow) -> None:
        if league.status not in ("active", "paused"):
            raise LeagueRefusal(f"**{league.name}** is {league.status}: sign-ups are closed.")

    async def leave(self, league: LeagueRow, user_id: int) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=user_id)
        except LeagueError:
            raise LeagueRefusal(f"You're not signed up for **{league.name}**.") from None

    async def invite(
        self,
        league: LeagueRow,
        captain_id: int,
        partner_id: int,
        team_name: str,
        *,
        partner_is_bot: bool = False,
    ) -> None:
        self._open_for_signups(league)
        if league.format != seating.FIXED:
            raise LeagueRefusal(f"**{league.name}** has no fixed teams: just `/league signup`.")
        if partner_is_bot:
            raise LeagueRefusal("Invite a person: bots can't sign up for a league.")
        if self.ruleset_of(league).team_size != 2:
            raise LeagueRefusal("Teams of three are not supported for fixed-partner leagues yet.")
        try:
            name = check_name(team_name)
            await self.store.invite(league.id, captain_id, partner_id, name)
        except SettingsError as exc:
            raise LeagueRefusal(str(exc).replace("league name", "team name")) from None
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    async def answer_invite(self, league: LeagueRow, user_id: int, *, accept: bool) -> str:
        try:
            team = await self.store.answer_invite(league.id, user_id, accept=accept)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None
        return team.name

    async def add_member(self, league: LeagueRow, actor_id: int, user_id: int) -> None:
        """An admin puts a player on the roster (also one they removed before)."""
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                "Fixed-partner leagues take teams: the players sign up with `/league invite`."
            )
        try:
            await self.store.sign_up(league.id, user_id, actor_id=actor_id)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    async def remove(self, league: LeagueRow, actor_id: int, user_id: int, reason: str | None) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=actor_id, reason=reason)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    # --- check-in -------------------------------------------------------------------------------

    async def check_in(self, night_id: int, user_id: int, *, coming: bool = True) -> str:
        """A player's Check in / Can't make it click; returns the confirmation text."""
        async with self._lock:
            night = await self.store.get_night(night_id)
            if night is None:
                raise LeagueRefusal("This league night no longer exists.")
            league = await self.store.get_league(night.league_id)
            if league is None or league.status == "archived":
                raise LeagueRefusal("This league no longer exists.")
            if night.status == "playing" and not night.data.get("late_checkin"):
                raise LeagueRefusal(
                    f"Check-in closed at {text.ts(night.starts_at, 't')}: the night has started. "
                    "Ask an admin to re-open check-in; you'd join the next round."
                )
            member = await self.store.member(league.id, user_id)
            if member is None or member.status != "active":
                if not coming:
                    raise LeagueRefusal(
                        f"You're not signed up for **{league.name}**, so there's nothing to cancel."
                    )
                if league.format == seating.FIXED:
                    raise LeagueRefusal(
                        f"**{league.name}** plays in fixed teams: sign up with a partner (`/league"
                        " invite`) first."
                    )
                try:
                    await self.store.sign_up(league.id, user_id)
                except LeagueError as exc:
                    raise LeagueRefusal(str(exc)) from None
            if coming:
                busy = await self.store.busy_players([user_id], except_league=league.id)
                if busy:
                    other = await self.store.get_league(busy[user_id])
                    raise LeagueRefusal(
                        "You're seated at a table of"
                        f" **{other.name if other else 'another league'}** right now; "
                        "finish that game first."
                    )
            try:
                await self.store.check_in(night_id, user_id, "in" if coming else "out")
            except LeagueError as exc:
                raise LeagueRefusal(str(exc)) from None
            await self._refresh_checkin(league, night)
        if coming:
            if night.status == "playing":
                return "You're checked in: you'll be seated from the next round."
            return (
                f"You're checked in for **{league.name}**. Seats are drawn at"
                f" {text.ts(night.starts_at, 't')}."
            )
        return "Got it: you're marked as not coming tonight."

    async def _refresh_checkin(self, league: LeagueRow, night: NightRow, *, closed: bool = False) -> None:
        message_id = night.data.get("checkin_message_id")
        if not message_id:
            return
        content = await self._checkin_text(league, night, closed=closed)
        try:
            await self.gateway.edit_checkin(
                int(night.data.get("checkin_channel_id") or league.channel_id),
                int(message_id),
                night.id,
                content,
                closed=closed,
            )
        except Exception:
            log.warning("league %s: could not edit the check-in message", league.id, exc_info=True)

    async def _checkin_text(
        self, league: LeagueRow, night: NightRow, *, closed: bool = False, late_note: str = ""
    ) -> str:
        answers = await self.store.checkins(night.id)
        schedule = self.schedule_of(league)
        entry = sch.Night(
            night.number,
            date.fromisoformat(night.night_date),
            _utc(night.starts_at).astimezone(schedule.zone),
        )
        return text.checkin_post(
            league.name,
            entry,
            _utc(night.starts_at),
            [u for u, s in answers.items() if s == "in"],
            cant=[u for u, s in answers.items() if s == "out"],
            late_note=late_note or str(night.data.get("late_note", "")),
            role_id=self.settings_of(league).role_id,
            closed=closed,
        )

    # --- admin tools for a night ----------------------------------------------------------------

    async def current_night(self, league: LeagueRow) -> NightRow | None:
        """The night under way, else the next scheduled one (None when the season is over)."""
        open_night = await self._open_night(league)
        if open_night is not None:
            return open_night
        nights = [n for n in await self.store.nights(league.id, league.season) if n.status == "scheduled"]
        return nights[0] if nights else await self._ensure_next(league)

    async def reopen_checkin(self, league: LeagueRow, actor_id: int) -> str:
        night = await self._open_night(league)
        if night is None:
            raise LeagueRefusal("No night is under way: check-in opens by itself before the next one.")
        if night.status == "checkin":
            raise LeagueRefusal("Check-in is already open.")
        await self.store.transition(
            night.id,
            ["playing"],
            "playing",
            data={"late_checkin": True},
            audit=(actor_id, "reopen_checkin", {}, None),
        )
        msg = await self.gateway.post_checkin(
            league.channel_id,
            night.id,
            await self._checkin_text(
                league, night, late_note="Check-in is open again: late arrivals join the next round."
            ),
            role_id=None,
        )
        if msg:
            await self.store.update_night_data(
                night.id, checkin_message_id=msg, checkin_channel_id=league.channel_id
            )
        return "Check-in is open again: whoever checks in now joins the next round."

    async def start_now(self, league: LeagueRow, actor_id: int) -> str:
        """Start the next night now (early), opening check-in first if needed."""
        if league.status != "active":
            raise LeagueRefusal(f"**{league.name}** is {league.status}.")
        async with self._lock:
            night = await self.current_night(league)
            if night is None:
                raise LeagueRefusal("The season has no night left to start.")
            if night.status == "playing":
                raise LeagueRefusal("The night is already under way.")
            now = _unix(self.now())
            if night.status == "scheduled":
                opened = await self._open_checkin(league, night, note="Check-in opened early by an admin.")
                if opened is None:
                    raise LeagueRefusal("Someone else just started this night.")
                night = opened
            await self.store.audit(
                league.id,
                actor_id=actor_id,
                action="start_early",
                night_id=night.id,
                detail={"scheduled": night.starts_at, "now": now},
            )
            started = await self._start_night(league, night, force=True)
        if not started:
            raise LeagueRefusal("Not enough players are checked in to seat a table yet.")
        return "The night has started: seats are drawn."

    async def postpone(self, league: LeagueRow, actor_id: int, minutes: int) -> str:
        """Start the current or next night later (check-in stays open until then)."""
        if not 5 <= minutes <= 240:
            raise LeagueRefusal("Postpone by 5 to 240 minutes.")
        night = await self.current_night(league)
        if night is None or night.status == "playing":
            raise LeagueRefusal("Only a night that has not started can start later.")
        new_start = night.starts_at + minutes * 60
        moved = await self.store.transition(
            night.id,
            [night.status],
            night.status,
            starts_at=new_start,
            data={"postponed": True, "late_note": f"Start moved to {text.ts(new_start, 't')} by an admin."},
            audit=(actor_id, "start_late", {"minutes": minutes}, None),
        )
        if moved is None:
            raise LeagueRefusal("The night just started.")
        await self._refresh_checkin(league, moved)
        self.poke()
        return f"The night now starts {text.ts(new_start, 'F')}."

    async def substitute(
        self, league: LeagueRow, actor_id: int, out_id: int, in_id: int, reason: str | None
    ) -> str:
        night = await self._open_night(league)
        if night is None or night.status != "playing" or night.round_no == 0:
            raise LeagueRefusal("Substitutions are for a night under way.")
        tables = await self.store.round_tables(night.id, night.round_no)
        lt = next((t for t in tables if out_id in t.players and t.status in ("seated", "playing")), None)
        if lt is None:
            raise LeagueRefusal(f"<@{out_id}> is not at a table of this round.")
        if any(in_id in t.players for t in tables if t.status in ("seated", "playing")):
            raise LeagueRefusal(f"<@{in_id}> is already playing this round.")
        busy = await self.store.busy_players([in_id], except_league=league.id)
        if busy:
            raise LeagueRefusal(f"<@{in_id}> is seated in another league's game right now.")
        try:
            await self.store.substitute(
                lt.id, out_id, in_id, league_id=league.id, actor_id=actor_id, reason=reason
            )
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None
        if await self.store.member(league.id, in_id) is None and league.format != seating.FIXED:
            with contextlib.suppress(LeagueError):
                await self.store.sign_up(league.id, in_id, actor_id=actor_id)
        live = ""
        if lt.table_id is not None and not await self.gateway.substitute(
            lt.table_id, out_id, in_id, guild_id=league.guild_id
        ):
            live = " (the game itself had just ended, so only the league's records changed)"
        return f"<@{in_id}> now plays for <@{out_id}> at table {lt.table_no}{live}."

    async def correct(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        night_number: int,
        round_no: int,
        table_no: int,
        scores: Sequence[int],
        reason: str,
    ) -> Result:
        if not reason.strip():
            raise LeagueRefusal("Give a reason: it is kept in the league's history.")
        nights = [n for n in await self.store.nights(league.id, league.season) if n.number == night_number]
        if not nights:
            raise LeagueRefusal(f"There is no night {night_number} in this season.")
        tables = await self.store.round_tables(nights[0].id, round_no)
        lt = next((t for t in tables if t.table_no == table_no), None)
        if lt is None:
            raise LeagueRefusal(f"Night {night_number} has no table {table_no} in round {round_no}.")
        if len(scores) != len(lt.sides):
            raise LeagueRefusal(
                f"Give {len(lt.sides)} scores (one per side, in table order), like `420 380`."
            )
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        winner = leaders[0] if len(leaders) == 1 else None
        try:
            return await self.store.correct_result(
                lt.id,
                league_id=league.id,
                scores=list(scores),
                winner_side=winner,
                actor_id=actor_id,
                reason=reason.strip()[:200],
            )
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    # --- reading ----------------------------------------------------------------------------------

    async def standings_rows(
        self, league: LeagueRow, season: int | None = None
    ) -> tuple[list[standings.Row], int]:
        season = season or league.season
        results = await self.store.season_results(league.id, season)
        rule = self.settings_of(league).points
        team_of: dict[int, Hashable] = {}
        entrants: list[Hashable]
        if league.format == seating.FIXED:
            teams = await self.store.teams(league.id, statuses=("active", "removed"))
            for t in teams:
                for m in t.members:
                    team_of[m] = f"team:{t.id}"
            entrants = [f"team:{t.id}" for t in teams if t.status == "active"]
        else:
            entrants = [m.user_id for m in await self.store.members(league.id)]

        def entrant(uid: int) -> Hashable:
            return team_of.get(uid, uid) if league.format == seating.FIXED else uid

        def side_entrants(side: list[int | None]) -> tuple[Hashable, ...]:
            # fixed teams: a side is its team, also when a substitute played for one of its members
            teams = [team_of[p] for p in side if p is not None and p in team_of]
            if league.format == seating.FIXED and teams:
                return tuple(dict.fromkeys(teams))
            return tuple(dict.fromkeys(entrant(p) for p in side if p is not None))

        games = []
        for r in results:
            sides = tuple(side_entrants(side) for side in r.sides)
            games.append(
                standings.GameResult(r.night_number, sides, tuple(r.scores), tuple(r.bags), r.winner_side)
            )
        nights = await self.store.nights(league.id, season)
        held = [n.number for n in nights if n.status == "finished"]
        byes = [(n, entrant(u)) for n, u in await self.store.season_byes(league.id, season)]
        rows = standings.standings(games, rule, entrants=entrants, byes=byes, nights_held=held)
        return rows, len(held)

    async def entrant_names(self, league: LeagueRow) -> Callable[[Hashable], str]:
        names: dict[Hashable, str] = {}
        if league.format == seating.FIXED:
            for t in await self.store.teams(league.id, statuses=("active", "removed")):
                names[f"team:{t.id}"] = f"**{t.name}** ({' + '.join(text.mention(m) for m in t.members)})"

        def name(e: Hashable) -> str:
            return names.get(e) or (text.mention(e) if isinstance(e, int) else str(e))

        return name

    async def standings_text(self, league: LeagueRow, *, title: str | None = None) -> str:
        rows, held = await self.standings_rows(league)
        name = await self.entrant_names(league)
        lines = text.standings_lines(rows, name, held)
        rule = self.settings_of(league).points
        head = title or f"🏅 **{league.name}: season {league.season} standings** (after {held} nights)"
        return text.standings_post(
            head, lines, f"-# Points: {rule.describe()}. Ties: head to head, point difference, fewest bags."
        )

    async def schedule_text(self, league: LeagueRow) -> str:
        schedule = self.schedule_of(league)
        held = {n.night_date: n.status for n in await self.store.nights(league.id, league.season)}
        lines = text.schedule_lines(schedule, held, self.now())
        settings = self.settings_of(league)
        ruleset = self.ruleset_of(league)
        foot = (
            f"-# {seating_label(league.format)}, {settings.rounds} rounds of up to"
            f" {settings.round_minutes} min "
            f"({ruleset.describe()}); leftover players:"
            f" {'a bot seat' if settings.leftover == 'bot' else 'a bye'}."
        )
        status = "" if league.status == "active" else f" ({league.status})"
        return text.lines_within(text.schedule_header(league.name, schedule) + status, lines, foot)

    async def history_text(self, league: LeagueRow) -> str:
        nights = [
            n for n in await self.store.nights(league.id) if n.status in ("finished", "missed", "cancelled")
        ]
        lines = []
        for n in nights[-8:]:
            results = await self.store.night_results(n.id)
            label = f"**S{n.season} night {n.number}** ({n.night_date}): {n.status}"
            lines.append(label)
            for r in results[:8]:
                lines.append(
                    " "
                    + text.result_line(
                        r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected
                    ).replace("Table", f"R{r.round_no} table", 1)
                )
        audit = await self.store.audit_log(
            league.id,
            limit=10,
            actions=[
                "correct",
                "sub",
                "remove",
                "skip",
                "start_early",
                "start_late",
                "reopen_checkin",
                "missed",
                "pause",
                "resume",
                "end",
            ],
        )
        foot_lines = ["**Admin log**"] if audit else []
        for e in audit:
            who = text.mention(e.actor_id) if e.actor_id else "the bot"
            reason = f": {e.reason}" if e.reason else ""
            foot_lines.append(
                f"{text.ts(e.at, 'd')} {who} {e.action.replace('_', ' ')}{_audit_detail(e.detail)}{reason}"
            )
        if not lines and not audit:
            return f"📜 **{league.name}**: no nights played yet."
        return text.lines_within(f"📜 **{league.name}: history**", lines + foot_lines)

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

    # --- the scheduler's work -------------------------------------------------------------------

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

    async def _open_checkin(self, league: LeagueRow, night: NightRow, *, note: str = "") -> NightRow | None:
        opened = await self.store.transition(
            night.id, ["scheduled"], "checkin", data={"late_note": note} if note else None
        )
        if opened is None:
            return None
        settings = self.settings_of(league)
        content = await self._checkin_text(league, opened, late_note=note)
        msg = await self.gateway.post_checkin(league.channel_id, opened.id, content, role_id=settings.role_id)
        if msg:
            await self.store.update_night_data(
                opened.id, checkin_message_id=msg, checkin_channel_id=league.channel_id
            )
            opened.data.update(checkin_message_id=msg, checkin_channel_id=league.channel_id)
        return opened

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

    async def _eligible(self, league: LeagueRow, night: NightRow) -> tuple[list[int], list[list[int]]]:
        """Checked-in players who may be seated now (on the roster, not playing another league)."""
        answers = await self.store.checkins(night.id)
        members = {m.user_id: m for m in await self.store.members(league.id)}
        ins = [u for u, s in answers.items() if s == "in" and u in members]
        busy = await self.store.busy_players(ins, except_league=league.id)
        ins = [u for u in ins if u not in busy]
        teams: list[list[int]] = []
        if league.format == seating.FIXED:
            for t in await self.store.teams(league.id):
                present = [m for m in t.members if m in ins]
                if present:
                    teams.append(present)
        return ins, teams

    async def _seat(self, league: LeagueRow, night: NightRow, round_no: int) -> seating.Seating | None:
        ruleset = self.ruleset_of(league)
        settings = self.settings_of(league)
        players, teams = await self._eligible(league, night)
        # a league game needs two people at least (one player and three bots is practice)
        if len(players) < 2 or (league.format == seating.FIXED and len(teams) < 2):
            return None
        ratings = {
            u: Rating(r.mu, r.sigma, r.games)
            for u, r in (await self.store.ratings(league.guild_id, players)).items()
        }
        history = seating.History()
        for night_id, _rnd, sides in await self.store.season_pairings(league.id, league.season):
            plan = seating.TablePlan(tuple(tuple(s) for s in sides))
            history.record(seating.Seating((plan,)), tonight=night_id == night.id)
        for n_no, u in await self.store.season_byes(league.id, league.season):
            history.byes_season[u] += 1
            if n_no == night.number:
                history.byes_tonight[u] += 1
        try:
            return seating.seat_round(
                players=players,
                teams=teams,
                ratings={u: r.conservative for u, r in ratings.items()},
                table_size=ruleset.num_seats,
                team_size=team_size(league.format, ruleset),
                fmt=league.format,
                leftover=settings.leftover,
                history=history,
                seed=night.id * 100 + round_no,
            )
        except seating.SeatingError:
            return None

    async def _start_night(self, league: LeagueRow, night: NightRow, *, force: bool = False) -> bool:
        plan = await self._seat(league, night, 1)
        if plan is None:
            if not force:
                closed = await self.store.transition(
                    night.id,
                    ["checkin"],
                    "cancelled",
                    audit=(None, "cancelled", {"reason": "not enough players"}, None),
                )
                if closed is not None:
                    await self._refresh_checkin(league, closed, closed=True)
                    await self.gateway.post(
                        league.channel_id,
                        f"✖️ **{league.name}**: night {night.number} is off: not enough players checked in.",
                    )
                    await self._sync_event(league)
            return False
        await self._refresh_checkin(league, night, closed=True)
        return await self._start_round(league, night, 1, plan)

    async def _start_round(
        self, league: LeagueRow, night: NightRow, round_no: int, plan: seating.Seating
    ) -> bool:
        settings = self.settings_of(league)
        ruleset = self.ruleset_of(league)
        ends_at = self.now() + timedelta(minutes=settings.round_minutes)
        tables = await self.store.start_round(
            night.id,
            round_no,
            tables=[t.sides for t in plan.tables],
            byes=list(plan.byes),
            ends_at=_unix(ends_at),
        )
        if tables is None:
            return False  # someone else seated this round
        if round_no > 1 and night.data.get("late_checkin"):
            await self.store.transition(night.id, ["playing"], "playing", data={"late_checkin": False})
        await self._open_tables(league, night, tables, ruleset)
        fresh = await self.store.round_tables(night.id, round_no)
        post = text.seating_post(
            league.name,
            night.number,
            round_no,
            settings.rounds,
            [(t.table_no, t.sides, t.channel_id) for t in fresh],
            plan.byes,
            ends_at,
        )
        await self.gateway.post(league.channel_id, post)
        return True

    async def _open_tables(
        self, league: LeagueRow, night: NightRow, tables: Sequence[LeagueTable], ruleset: Ruleset
    ) -> None:
        for lt in tables:
            if lt.table_id is not None:
                continue
            plan = seating.TablePlan(tuple(tuple(s) for s in lt.sides))
            seats = plan.seats(ruleset.sides)
            try:
                opened = await self.gateway.open_table(
                    guild_id=league.guild_id,
                    channel_id=league.channel_id,
                    title=f"{league.name} · night {night.number} · round {lt.round_no} · table {lt.table_no}",
                    seats=seats,
                    ruleset=ruleset,
                    league_table_id=lt.id,
                )
            except Exception:
                log.exception("league %s: opening table %s failed", league.id, lt.id)
                opened = None
            if opened is None:
                if lt.id not in self._told_open_failed:  # once, not at every retry
                    self._told_open_failed.add(lt.id)
                    await self.gateway.tell_admins(
                        league,
                        f"⚠️ **{league.name}**: I couldn't open table {lt.table_no} of round {lt.round_no} "
                        "(can I create threads here?). I keep trying until the round's time is up.",
                    )
                continue
            channel_id, table_id = opened
            await self.store.link_table(lt.id, channel_id=channel_id, table_id=table_id)

    async def _advance_round(self, league: LeagueRow, night: NightRow, now: datetime) -> None:
        round_no = night.round_no
        if round_no == 0:
            return
        info = await self.store.round_info(night.id, round_no)
        if info is None or info["status"] != "playing":
            # the round finished but the next one was not seated (a crash in between)
            await self._after_round(league, night, round_no)
            return
        tables = await self.store.round_tables(night.id, round_no)
        # tables not opened yet (a crash right after seating, or Discord refused): retry
        pending = [t for t in tables if t.table_id is None and t.status == "seated"]
        if pending:
            await self._open_tables(league, night, pending, self.ruleset_of(league))
            tables = await self.store.round_tables(night.id, round_no)
        # results of games that ended while we were not listening
        for t in tables:
            if t.status == "playing" and t.table_id is not None:
                outcome = await self.gateway.table_outcome(t.table_id)
                if outcome is not None:
                    await self._record(t, outcome)
        timed_out = info["ends_at"] is not None and now >= _utc(info["ends_at"])
        if timed_out:
            for t in await self.store.round_tables(night.id, round_no):
                if t.status != "playing" or t.table_id is None:
                    continue
                outcome = await self.gateway.call_time(t.table_id)
                if outcome is not None:
                    await self._record(t, outcome)
        tables = await self.store.round_tables(night.id, round_no)
        if all(t.status in ("finished", "void") for t in tables) or (
            timed_out and not any(t.status == "playing" for t in tables)
        ):
            await self._finish_round(league, night, round_no, timed_out=timed_out)

    async def _record(self, lt: LeagueTable, outcome: TableOutcome) -> bool:
        return await self.store.record_result(
            lt.id,
            scores=outcome.scores,
            bags=outcome.bags,
            winner_side=outcome.winner_side,
            complete=outcome.complete,
            game_id=outcome.game_id,
        )

    async def game_finished(self, table_id: int, outcome: TableOutcome) -> None:
        """The table machinery's callback: a league table's game is over."""
        lt = await self.store.league_table_for(table_id)
        if lt is None:
            return
        async with self._lock:
            if await self._record(lt, outcome):
                night = await self.store.get_night(lt.night_id)
                if night is None:
                    return
                league = await self.store.get_league(night.league_id)
                if league is None:
                    return
                await self._advance_round(league, night, self.now())

    async def _finish_round(
        self, league: LeagueRow, night: NightRow, round_no: int, *, timed_out: bool
    ) -> None:
        if not await self.store.finish_round(night.id, round_no):
            return
        results = [r for r in await self.store.night_results(night.id) if r.round_no == round_no]
        lines = [
            text.result_line(r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected)
            for r in results
        ]
        settings = self.settings_of(league)
        note = "Next round's seats follow." if round_no < settings.rounds else ""
        if timed_out:
            note = ("⏱️ Time was called: unfinished games were scored as they stood. " + note).strip()
        await self.gateway.post(
            league.channel_id,
            text.round_results_post(league.name, night.number, round_no, lines, next_note=note),
        )
        await self._after_round(league, night, round_no)

    async def _after_round(self, league: LeagueRow, night: NightRow, round_no: int) -> None:
        settings = self.settings_of(league)
        if round_no < settings.rounds:
            plan = await self._seat(league, night, round_no + 1)
            if plan is not None and await self._start_round(league, night, round_no + 1, plan):
                return
            if plan is not None:
                return  # another caller seated it
        await self._finish_night(league, night)

    async def _finish_night(self, league: LeagueRow, night: NightRow) -> None:
        done = await self.store.transition(night.id, ["playing"], "finished")
        if done is None:
            return
        results = await self.store.night_results(night.id)
        lines = [
            text.result_line(r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected).replace(
                "Table", f"R{r.round_no} table", 1
            )
            for r in results
        ]
        await self.gateway.post(
            league.channel_id, text.lines_within(f"🌙 **{league.name}: night {night.number} results**", lines)
        )
        await self.gateway.post(league.channel_id, await self.standings_text(league))
        fresh = await self.store.get_league(league.id)
        if fresh is not None:
            league = fresh
        await self._sync_event(league)
        self.poke()

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

    async def _post_final(self, league: LeagueRow) -> None:
        rows, held = await self.standings_rows(league)
        name = await self.entrant_names(league)
        champs = standings.champions(rows)
        lines = text.standings_lines(rows, name, held)
        head = f"🏆 **{league.name}: season {league.season} final standings**"
        foot = (
            ("Champions: " + ", ".join(name(c) for c in champs) + " 🎉")
            if champs
            else "No games were played."
        )
        await self.gateway.post(league.channel_id, text.standings_post(head, lines, foot))

    async def _reconcile(self, league: LeagueRow) -> None:
        """After a schedule change: scheduled night rows follow the new schedule (new times, or
        cancelled when their date is no longer a night)."""
        schedule = self.schedule_of(league)
        wanted = {n.key: n for n in schedule.nights()}
        for row in await self.store.nights(league.id, league.season):
            if row.status != "scheduled":
                continue
            n = wanted.get(row.night_date)
            if n is None or league.status in ("ended", "archived"):
                await self.store.transition(row.id, ["scheduled"], "cancelled")
            elif row.starts_at != _unix(n.start_utc) or row.number != n.number:
                if row.data.get("postponed") and row.number == n.number:
                    continue  # an admin moved this night's start: keep it
                await self.store.ensure_night(
                    league.id,
                    league.season,
                    n.number,
                    n.key,
                    _unix(n.start_utc),
                    _unix(schedule.checkin_opens(n)),
                )

    async def _sync_event(self, league: LeagueRow) -> None:
        """Keep the league's Discord scheduled event on its next night (cancelled when none)."""
        settings = league.settings
        if not settings.get("events", True):
            return
        event_id = settings.get("event_id")
        nxt: sch.Night | None = None
        rule = None
        if league.status == "active":
            schedule = self.schedule_of(league)
            now = self.now()
            done = {
                n.night_date
                for n in await self.store.nights(league.id, league.season)
                if n.status not in ("scheduled",)
            }
            upcoming = [n for n in schedule.nights() if n.start_utc > now and n.key not in done]
            nxt = upcoming[0] if upcoming else None
            rule = (
                sch.recurrence_rule(schedule, now)
                if nxt is not None
                and len(upcoming) == len([n for n in schedule.nights() if n.start_utc > now])
                else None
            )
        try:
            new_id = await self.gateway.sync_event(league, nxt, recurrence=rule, event_id=event_id)
        except Exception:
            log.warning("league %s: scheduled event sync failed", league.id, exc_info=True)
            return
        night_key = nxt.key if nxt is not None else None  # (also when creating it failed: no retry storm)
        if new_id != event_id or league.settings.get("event_night") != night_key:
            fresh = await self.store.get_league(league.id)
            if fresh is None:
                return
            fresh.settings = {**fresh.settings, "event_id": new_id, "event_night": night_key}
            try:
                fresh = await self.store.update_league(
                    fresh, actor_id=None, action="event", detail={"event_id": new_id, "night": night_key}
                )
            except LeagueError:
                return
            league.settings, league.version = fresh.settings, fresh.version


def seating_label(fmt: str) -> str:
    return {"fixed": "Fixed partners", "rotating": "Rotating partners", "solo": "Solo"}.get(fmt, fmt)


def _audit_detail(detail: dict[str, Any]) -> str:
    if not detail:
        return ""
    if "after" in detail:
        return (
            f" (round {detail.get('round')}, table {detail.get('table')}: now"
            f" {detail['after'].get('scores')})"
        )
    if "out" in detail:
        return f" (<@{detail['out']}> → <@{detail['in']}>)"
    if "date" in detail:
        return f" ({detail['date']})"
    if "user" in detail:
        return f" (<@{detail['user']}>)"
    return ""
