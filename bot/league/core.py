"""What every part of the league service shares: the stored leagues and their settings, one change
at a time (:class:`Pulse`), and the league's Discord scheduled event (:class:`ScheduledEvents`).

The collaborators (``checkin``, ``results``, ``rounds``, ``nights``, ``admin``, ``tonight``,
``signup``, ``card``) each receive the store, the gateway, the clock and the collaborators they
call (``service`` builds them); nothing here knows them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from bot import lexicon
from bot.clock import Clock, utcnow
from bot.i18n import OptionName, _, join
from bot.storage.leagues import (
    BOOKKEEPING_KEYS,
    LeagueError,
    LeagueRow,
    LeagueStore,
    NightRow,
    StaleLeague,
    Team,
)
from engine.house_rules import HouseRulesError, check_rules, parse_house_rules
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


#: what ``rules:`` takes to clear a league's house rules (as ``/spades config rules:`` does)
CLEAR_RULES = ("none", "off", "clear", "-")
#: options a league sets with their own slash options, not in its house rules
OWN_OPTIONS = ("target_score", "max_hands")


def parse_rules(text: str) -> dict[str, Any]:
    """The house rules an admin typed (``bag_limit=5 set_limit=2``, as ``/spades new rules:``
    takes them), read; ``none`` clears them. SettingsError with the house-rules refusal's code."""
    if text.strip().lower() in CLEAR_RULES:
        return {}
    try:
        return parse_house_rules(text)
    except HouseRulesError as exc:
        raise _rules_refused(exc) from None


def _rules_refused(exc: HouseRulesError) -> SettingsError:
    """A house-rules refusal as the league's: the words and the code ``/spades new`` gives."""
    message = lexicon.explain_rules(exc)
    return SettingsError(message, exc.code or "house_rules")


def house_rules(ruleset: Ruleset) -> dict[str, Any]:
    """A league's house rules: its options over the preset but the target and the hand limit."""
    return {k: v for k, v in ruleset.overrides().items() if k not in OWN_OPTIONS}


def build_ruleset(
    preset: str, target: int | None, hand_limit: int | None, house: dict[str, Any] | None = None
) -> Ruleset:
    """A league round's rules: a preset with its house rules (``house``: options read by
    ``parse_rules``) and an admin's target score and hand limit, checked as ``/spades new`` checks
    them (a refusal says which rule and why)."""
    overrides: dict[str, Any] = dict(house or {})
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
    if house:
        try:
            return check_rules(preset, overrides)
        except HouseRulesError as exc:
            raise _rules_refused(exc) from None
    try:
        return Ruleset.preset(preset, **overrides)
    except RulesetError as exc:
        raise SettingsError(lexicon.explain(exc), "ruleset") from None


def table_ruleset(ruleset: Ruleset, sides: Sequence[Sequence[int | None]]) -> Ruleset:
    """The rules one league table plays: the league's, but a table of three at a league of four
    seats (the ``threes`` leftover rule, ``bot.league.seating``) plays the cutthroat preset with the
    league's target score and hand limit."""
    if ruleset.num_seats == 4 and len(sides) == 3 and all(len(s) == 1 for s in sides):
        keep = {k: v for k, v in ruleset.overrides().items() if k in ("target_score", "max_hands")}
        return Ruleset.preset("cutthroat", **keep)
    return ruleset


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
                "This server has several leagues: choose one with `%(option)s:` (%(names)s).",
                option=OptionName("league"),
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

    async def give_week_back(self, league: LeagueRow, day: date) -> tuple[sch.Schedule, LeagueRow]:
        """Skip the night ``day`` that was not held (missed or cancelled), so the season ends a
        week later; the schedule and the league as stored. The league is read fresh and written
        if its version is still current: an admin's change at the same moment makes it read and
        skip again, never lose either change (the night is marked already, so no later tick
        would extend it)."""
        schedule = schedule_of(league)
        for _attempt in range(5):
            fresh = await self.store.rosters.get_league(league.id)
            if fresh is None:
                break
            schedule = schedule_of(fresh)
            if day in schedule.skipped or schedule.night_on(day) is None:
                return schedule, fresh
            schedule = schedule.skip(day)
            fresh.schedule = sch.to_dict(schedule)
            try:
                await self.store.rosters.update_league(
                    fresh, actor_id=None, action="extend", detail={"missed": day.isoformat()}
                )
            except StaleLeague:
                continue
            return schedule, fresh
        return schedule, league

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
            elif (
                row.starts_at != _unix(n.start_utc)
                or row.number != n.number
                or row.checkin_at != _unix(schedule.checkin_opens(n))
            ):
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


# Discord's scheduled event statuses
EVENT_SCHEDULED, EVENT_ACTIVE, EVENT_COMPLETED, EVENT_CANCELED = 1, 2, 3, 4


class ScheduledEvents:
    """The league's Discord scheduled event: one per night, following the night's life cycle.

    The event shows the night under way (check-in or playing), else the next one. It is marked
    active when the night starts (Discord also starts an external event by itself at its start
    time) and completed when the night ends; the next night then gets a fresh event. Discord
    allows only SCHEDULED -> ACTIVE -> COMPLETED and SCHEDULED -> CANCELED, and no change after
    either end: an event that is active is never moved or cancelled, only completed, and one that
    is over is left alone. The scheduled event of a night that did not happen (missed, cancelled,
    skipped) or moved shows the next night instead; with no night left it is cancelled.
    """

    def __init__(self, store: LeagueStore, gateway: LeagueGateway, clock: Clock) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}  # one scheduled-event sync per league at a time

    async def sync(self, league: LeagueRow) -> None:
        """Bring the league's Discord scheduled event in line with its nights.

        One sync per league at a time, from the event as stored: the league clock and an admin's
        command syncing at once would otherwise both see no event and create two."""
        lock = self._locks.setdefault(league.id, asyncio.Lock())
        async with lock:
            stored = await self.store.rosters.get_league(league.id)
            if stored is None:
                return
            kept = {k: stored.settings[k] for k in BOOKKEEPING_KEYS if k in stored.settings}
            league.settings = {**league.settings, **kept}
            try:
                await self._sync_locked(league)
            except Exception:
                log.warning("league %s: scheduled event sync failed", league.id, exc_info=True)

    async def _target(self, league: LeagueRow) -> tuple[sch.Night | None, NightRow | None]:
        """The night the event should show (with its row, when it has one): the night under way,
        else the next night of the season not over yet. Its start is the row's (a postponed start)."""
        if league.status != "active":
            return None, None
        schedule = schedule_of(league)
        rows = {n.night_date: n for n in await self.store.nights.nights(league.id, league.season)}
        for row in rows.values():
            if row.status in ("checkin", "playing"):
                return self._night(schedule, row), row
        now = utcnow(self.clock)
        for n in schedule.nights():
            found = rows.get(n.key)
            if found is not None and found.status != "scheduled":
                continue
            if found is not None:
                n = self._night(schedule, found)
            if n.start_utc > now:
                return n, found
        return None, None

    @staticmethod
    def _night(schedule: sch.Schedule, row: NightRow) -> sch.Night:
        start = datetime.fromtimestamp(row.starts_at, UTC).astimezone(schedule.zone)
        return sch.Night(row.number, date.fromisoformat(row.night_date), start)

    async def _sync_locked(self, league: LeagueRow) -> None:
        settings = league.settings
        if not settings.get("events", True):
            return
        stored_id: int | None = settings.get("event_id")
        shown: str | None = settings.get("event_night")
        night, row = await self._target(league)
        future = night is not None and night.start_utc > utcnow(self.clock)  # (Discord: not in the past)
        if stored_id is not None:
            event_id: int = stored_id
            status = await self.gateway.event_status(league, event_id)
            if status in (EVENT_SCHEDULED, EVENT_ACTIVE):
                if night is not None and shown == night.key:
                    # the event of this very night
                    if row is not None and row.status == "playing":
                        if status == EVENT_SCHEDULED:
                            await self.gateway.set_event_status(league, event_id, EVENT_ACTIVE)
                    elif status == EVENT_SCHEDULED and future:
                        await self.gateway.sync_event(league, night, recurrence=None, event_id=event_id)
                    return
                # the event of another night: over (completed), or not held
                if status == EVENT_ACTIVE or await self._held(league, shown):
                    if status == EVENT_SCHEDULED:
                        await self.gateway.set_event_status(league, event_id, EVENT_ACTIVE)
                    await self.gateway.set_event_status(league, event_id, EVENT_COMPLETED)
                elif night is not None and future:
                    # a night not held (missed, cancelled, skipped, moved): the event, still
                    # scheduled, shows the next night instead (its "Interested" members keep it)
                    kept = await self.gateway.sync_event(league, night, recurrence=None, event_id=event_id)
                    await self._remember(league, kept, night.key)
                    return
                else:
                    await self.gateway.set_event_status(league, event_id, EVENT_CANCELED)
            # (gone, completed or cancelled: final, the next night gets a fresh event)
        new_id = None
        if night is not None and future:
            new_id = await self.gateway.sync_event(league, night, recurrence=None, event_id=None)
        await self._remember(league, new_id, night.key if night is not None and new_id is not None else None)

    async def _held(self, league: LeagueRow, key: str | None) -> bool:
        """Whether the night ``key`` was held (started, whatever came of it)."""
        if key is None:
            return False
        for row in await self.store.nights.nights(league.id, league.season):
            if row.night_date == key:
                return row.status in ("playing", "finished") or row.round_no > 0
        return False

    async def _remember(self, league: LeagueRow, event_id: int | None, key: str | None) -> None:
        changed = event_id != league.settings.get("event_id") or league.settings.get("event_night") != key
        if changed and await self.store.rosters.set_league_event(league.id, event_id, key):
            league.settings = {**league.settings, "event_id": event_id, "event_night": key}
