"""What every part of the league service shares: the stored leagues and their settings, one change
at a time (:class:`Pulse`), and the league's Discord scheduled event (:class:`ScheduledEvents`).

The collaborators (``checkin``, ``results``, ``rounds``, ``nights``, ``admin``, ``tonight``,
``signup``, ``card``) each receive the store, the gateway, the clock and the collaborators they
call (``service`` builds them); nothing here knows them.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from bot import lexicon
from bot.clock import Clock, utcnow
from bot.i18n import _, join
from bot.storage.leagues import BOOKKEEPING_KEYS, LeagueError, LeagueRow, LeagueStore, NightRow, Team
from engine.ruleset import Ruleset, RulesetError

from . import schedule as sch
from .gateway import LeagueGateway, LeagueRefusal, _unix
from .ratings import rate_stored
from .settings import LeagueSettings, SettingsError, clash

log = logging.getLogger(__name__)


def schedule_of(league: LeagueRow) -> sch.Schedule:
    return sch.from_dict(league.schedule)


def settings_of(league: LeagueRow) -> LeagueSettings:
    return LeagueSettings.from_dict(league.settings)


def ruleset_of(league: LeagueRow) -> Ruleset:
    return Ruleset.from_dict(league.ruleset)


def build_ruleset(preset: str, target: int | None, hand_limit: int | None) -> Ruleset:
    """A league round's rules: a preset with an admin's target score and hand limit."""
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
                _("A round's hand limit is 1 to 30 hands (you gave %(n)s).", n=hand_limit), "hand_limit_range"
            )
        overrides["max_hands"] = hand_limit
    try:
        return Ruleset.preset(preset, **overrides)
    except RulesetError as exc:
        raise SettingsError(lexicon.explain(exc), "ruleset") from None


class Pulse:
    """One tick or callback changes league state at a time (``lock``); ``poke()`` wakes the
    scheduler early (something changed: a game ended, an admin started a night)."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self._wake = asyncio.Event()

    def poke(self) -> None:
        self._wake.set()

    async def rest(self, clock: Clock, seconds: float) -> None:
        """Wait ``seconds`` on ``clock``, or less if poked from now on."""
        self._wake.clear()
        woken = asyncio.ensure_future(self._wake.wait())
        slept = asyncio.ensure_future(clock.sleep(seconds))
        try:
            await asyncio.wait({woken, slept}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            woken.cancel()
            slept.cancel()


class Leagues:
    """The stored leagues: finding one by name, saving a change, its nights and teams as stored."""

    def __init__(self, store: LeagueStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def now(self) -> datetime:
        return utcnow(self.clock)

    async def league(self, guild_id: int, name: str | None) -> LeagueRow:
        """The server's league called ``name``; without a name, the server's one league (archived
        ones aside); a refusal listing the leagues otherwise."""
        if not name or not name.strip():
            return await self._only_league(guild_id)
        found = await self.store.rosters.league_named(guild_id, name)
        if found is not None:
            return found
        names = [lg.name for lg in await self.store.rosters.leagues(guild_id)]
        hint = (
            _("Leagues here: %(names)s.", names=", ".join(names[:10]))
            if names
            else _("This server has no league yet.")
        )
        raise LeagueRefusal(join(_("There is no league called `%(name)s`.", name=name[:50]), hint))

    async def _only_league(self, guild_id: int) -> LeagueRow:
        leagues = await self.store.rosters.leagues(guild_id)
        current = [lg for lg in leagues if lg.status != "archived"] or leagues
        if len(current) == 1:
            return current[0]
        if not current:
            raise LeagueRefusal(_("This server has no league yet."))
        raise LeagueRefusal(
            _(
                "This server has several leagues: choose one with `league:` (%(names)s).",
                names=", ".join(lg.name for lg in current[:10]),
            )
        )

    async def league_names(self, guild_id: int, prefix: str = "") -> list[str]:
        p = prefix.casefold()
        return [lg.name for lg in await self.store.rosters.leagues(guild_id) if p in lg.name.casefold()][:25]

    async def team_of(self, league: LeagueRow, user_id: int) -> Team | None:
        """The user's team in a fixed-partner league: complete ("active") or waiting for an accept."""
        teams = await self.store.rosters.teams(league.id, statuses=("active", "pending"))
        return next((t for t in teams if user_id in t.members), None)

    async def rate_pending(self) -> int:
        """Rate every finished game not rated yet (all servers, oldest first); each exactly once."""
        return await self.store.ratings.rate_pending_games(rate_stored)

    async def check_clash(
        self,
        channel_id: int,
        schedule: sch.Schedule,
        settings: LeagueSettings,
        *,
        except_id: int | None,
        now: datetime,
    ) -> None:
        """A refusal when another league meets in ``channel_id`` at the same time."""
        others = []
        for other in await self.store.rosters.leagues_in_channel(channel_id):
            if other.id == except_id:
                continue
            others.append((other.name, schedule_of(other), settings_of(other).night_length))
        name = clash(schedule, settings.night_length, others, now=now)
        if name is not None:
            raise LeagueRefusal(
                _(
                    "**%(league)s** already meets in this channel at that time; choose another time"
                    " or channel.",
                    league=name,
                )
            )

    async def save(
        self,
        league: LeagueRow,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> LeagueRow:
        try:
            return await self.store.rosters.update_league(
                league, actor_id=actor_id, action=action, detail=detail, reason=reason
            )
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None

    async def held_nights(self, league: LeagueRow) -> list[NightRow]:
        return [
            n for n in await self.store.nights.nights(league.id, league.season) if n.status in ("finished",)
        ]

    async def open_night(self, league: LeagueRow) -> NightRow | None:
        """The night in check-in or under way, if any."""
        for n in await self.store.nights.nights(league.id, league.season):
            if n.status in ("checkin", "playing"):
                return n
        return None

    async def reconcile(self, league: LeagueRow) -> None:
        """After a schedule change: scheduled night rows follow the new schedule (new times, or
        cancelled when their date is no longer a night)."""
        schedule = schedule_of(league)
        wanted = {n.key: n for n in schedule.nights()}
        for row in await self.store.nights.nights(league.id, league.season):
            if row.status != "scheduled":
                continue
            n = wanted.get(row.night_date)
            if n is None or league.status in ("ended", "archived"):
                await self.store.nights.transition(row.id, ["scheduled"], "cancelled")
            elif row.starts_at != _unix(n.start_utc) or row.number != n.number:
                if row.data.get("postponed") and row.number == n.number:
                    continue  # an admin moved this night's start: keep it
                await self.store.nights.ensure_night(
                    league.id,
                    league.season,
                    n.number,
                    n.key,
                    _unix(n.start_utc),
                    _unix(schedule.checkin_opens(n)),
                )


class ScheduledEvents:
    """The league's Discord scheduled event, kept on its next night (cancelled when none)."""

    def __init__(self, store: LeagueStore, gateway: LeagueGateway, clock: Clock) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}  # one scheduled-event sync per league at a time

    async def sync(self, league: LeagueRow) -> None:
        """Keep the league's Discord scheduled event on its next night (cancelled when none).

        One sync per league at a time, from the event as stored: the league clock and an admin's
        command syncing at once would otherwise both see no event and create two."""
        lock = self._locks.setdefault(league.id, asyncio.Lock())
        async with lock:
            stored = await self.store.rosters.get_league(league.id)
            if stored is None:
                return
            kept = {k: stored.settings[k] for k in BOOKKEEPING_KEYS if k in stored.settings}
            league.settings = {**league.settings, **kept}
            await self._sync_locked(league)

    async def _sync_locked(self, league: LeagueRow) -> None:
        settings = league.settings
        if not settings.get("events", True):
            return
        event_id = settings.get("event_id")
        nxt: sch.Night | None = None
        rule = None
        if league.status == "active":
            schedule = schedule_of(league)
            now = utcnow(self.clock)
            done = {
                n.night_date
                for n in await self.store.nights.nights(league.id, league.season)
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
        if changed and await self.store.rosters.set_league_event(league.id, new_id, night_key):
            league.settings = {**league.settings, "event_id": new_id, "event_night": night_key}
