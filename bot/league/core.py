"""The league service's state and shared helpers: the store, the gateway, the clock, stored settings.

Every part of the service (``checkin``, ``results``, ``rounds``, ``nights``, ``admin``, ``signup``)
builds on :class:`ServiceCore`; it also keeps the Discord scheduled event in step with the schedule.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from bot import lexicon
from bot.i18n import _, join
from bot.storage.leagues import BOOKKEEPING_KEYS, LeagueError, LeagueRow, LeagueStore, NightRow, Team
from engine.ruleset import Ruleset, RulesetError

from . import schedule as sch
from .gateway import LeagueGateway, LeagueRefusal, _unix
from .ratings import rate_stored
from .settings import LeagueSettings, SettingsError, clash

log = logging.getLogger(__name__)


class ServiceCore:
    """The service's state, its stored-settings readers and the steps every part shares."""

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
        self._event_locks: dict[int, asyncio.Lock] = {}  # one scheduled-event sync per league at a time

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

    async def team_of(self, league: LeagueRow, user_id: int) -> Team | None:
        """The user's team in a fixed-partner league: complete ("active") or waiting for an accept."""
        teams = await self.store.teams(league.id, statuses=("active", "pending"))
        return next((t for t in teams if user_id in t.members), None)

    async def rate_pending(self) -> int:
        """Rate every finished game not rated yet (all servers, oldest first); each exactly once."""
        return await self.store.rate_pending_games(rate_stored)

    @staticmethod
    def _ruleset(preset: str, target: int | None, hand_limit: int | None) -> Ruleset:
        overrides: dict[str, Any] = {}
        if target is not None:
            if not 50 <= target <= 1000:
                raise SettingsError(
                    _("A round's target score is 50 to 1000 (you gave %(n)s).", n=target), "target_range"
                )
            overrides["target_score"] = target
        if hand_limit is not None:
            if not 1 <= hand_limit <= 30:
                raise SettingsError(
                    _("A round's hand limit is 1 to 30 hands (you gave %(n)s).", n=hand_limit),
                    "hand_limit_range",
                )
            overrides["max_hands"] = hand_limit
        try:
            return Ruleset.preset(preset, **overrides)
        except RulesetError as exc:
            raise SettingsError(lexicon.explain(exc), "ruleset") from None

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
                _(
                    "**%(league)s** already meets in this channel at that time; choose another time"
                    " or channel.",
                    league=name,
                )
            )

    async def league(self, guild_id: int, name: str) -> LeagueRow:
        """The server's league called ``name``; a refusal listing the leagues otherwise."""
        found = await self.store.league_named(guild_id, name)
        if found is not None:
            return found
        names = [lg.name for lg in await self.store.leagues(guild_id)]
        hint = (
            _("Leagues here: %(names)s.", names=", ".join(names[:10]))
            if names
            else _("This server has no league yet.")
        )
        raise LeagueRefusal(join(_("There is no league called `%(name)s`.", name=name[:50]), hint))

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
            raise LeagueRefusal.of(exc) from None

    async def _held(self, league: LeagueRow) -> list[NightRow]:
        return [n for n in await self.store.nights(league.id, league.season) if n.status in ("finished",)]

    async def _open_night(self, league: LeagueRow) -> NightRow | None:
        for n in await self.store.nights(league.id, league.season):
            if n.status in ("checkin", "playing"):
                return n
        return None

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
        """Keep the league's Discord scheduled event on its next night (cancelled when none).

        One sync per league at a time, from the event as stored: the league clock and an admin's
        command syncing at once would otherwise both see no event and create two."""
        lock = self._event_locks.setdefault(league.id, asyncio.Lock())
        async with lock:
            stored = await self.store.get_league(league.id)
            if stored is None:
                return
            kept = {k: stored.settings[k] for k in BOOKKEEPING_KEYS if k in stored.settings}
            league.settings = {**league.settings, **kept}
            await self._sync_event_locked(league)

    async def _sync_event_locked(self, league: LeagueRow) -> None:
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
        changed = new_id != event_id or league.settings.get("event_night") != night_key
        if changed and await self.store.set_league_event(league.id, new_id, night_key):
            league.settings = {**league.settings, "event_id": new_id, "event_night": night_key}
