"""The Discord side of league nights: check-in buttons, posts, scheduled events.

``DiscordLeagueGateway`` implements :class:`bot.league.service.LeagueGateway` over discord.py; the
table part (opening a league table, its outcome, calling time) is delegated to a
:class:`LeagueTables` adapter over the table service. The check-in buttons are persistent
``DynamicItem``s whose custom_id carries the night, so they keep working after a restart.
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import discord
from discord.http import Route
from discord.ui import Button, DynamicItem

from bot.errors import report_interaction_error
from bot.i18n import DEFAULT, Text, _, gettext, mention, render, resolve, role_mention
from bot.safe import NOT_ON_MESSAGE, clip_text, fits, on_its_message, safe_defer, safe_edit, safe_send, watch
from bot.storage.leagues import LeagueRow
from engine.ruleset import Ruleset

from . import schedule as sch
from .finals import finals_number
from .gateway import SeatState
from .results import HistoryPage
from .service import LeagueRefusal, LeagueService, TableOutcome

log = logging.getLogger(__name__)

APOLOGY = _("Sorry, something went wrong on my side; nothing was changed. Please try again.")
EVENT_DESCRIPTION_MAX = 1000
MAX_PAGE = 100_000  # (a page past the end shows the oldest nights)
NIGHT_ELSEWHERE = _("That league night belongs to another server: check in from that server's post.")
LEAGUE_ELSEWHERE = _("That league belongs to another server: use `/league history` here for this server's.")


class LeagueTables(Protocol):
    """The table machinery as the league needs it (implemented over the table service)."""

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: Text,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int] | None: ...

    async def table_outcome(self, table_id: int) -> TableOutcome | None: ...

    async def call_time(self, table_id: int, time_call: str = "as_it_stands") -> TableOutcome | None: ...

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool: ...

    async def stop_table(self, table_id: int, *, cancelled: bool, forfeit: bool = False) -> None: ...

    async def seat_states(self, table_id: int) -> dict[int, SeatState] | None: ...

    async def release_seat(self, table_id: int, user_id: int) -> bool: ...


class LeagueHost(ABC):
    """The client a league button finds on ``interaction.client``: the application
    (``bot.client.SpadesBot``), whose composition root built the league service."""

    @property
    @abstractmethod
    def league_service(self) -> LeagueService | None:
        """The league service, or None before ``setup_hook`` built it."""


def league_service(interaction: discord.Interaction[Any]) -> LeagueService | None:
    client = interaction.client
    return client.league_service if isinstance(client, LeagueHost) else None


class CheckinButton(DynamicItem[Button[Any]], template=r"lg:ci:(?P<night>\d+):(?P<answer>in|out|sub)$"):
    """Check in / I'll sub / Can't make it, on the check-in post of one night; once the night is
    under way, "Can't make it" reads "I'm out for tonight" (a check-out)."""

    def __init__(self, night_id: int, answer: str, lang: str = DEFAULT, *, playing: bool = False) -> None:
        if answer == "in":
            label, emoji, style = gettext(lang, "Check in"), "✅", discord.ButtonStyle.success
        elif answer == "sub":
            label, emoji, style = gettext(lang, "I'll sub"), "🙋", discord.ButtonStyle.primary
        elif playing:
            label, emoji, style = gettext(lang, "I'm out for tonight"), "🚪", discord.ButtonStyle.secondary
        else:
            label, emoji, style = gettext(lang, "Can't make it"), "✖️", discord.ButtonStyle.secondary
        super().__init__(
            Button(label=label, emoji=emoji, style=style, custom_id=f"lg:ci:{night_id}:{answer}")
        )
        self.night_id = night_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CheckinButton:
        return cls(int(match["night"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # the custom_id is never trusted: a night of this server (checked in ``check_in`` against
        # the night's league before anything else is read), a number a database can hold
        if interaction.guild_id is None:
            await safe_send(interaction, NIGHT_ELSEWHERE)
            return
        if not fits(self.night_id):
            await safe_send(interaction, _("This league night no longer exists."))
            return
        service = league_service(interaction)
        if service is None:
            await safe_send(interaction, _("League nights are not running right now; try again in a minute."))
            return
        await safe_defer(interaction, ephemeral=True, thinking=True)
        try:
            message = await service.answer(
                self.night_id, interaction.user.id, self.answer, guild_id=interaction.guild_id
            )
        except LeagueRefusal as exc:
            message = exc.message
        except Exception:
            log.exception("league check-in failed (night %s)", self.night_id)
            message = APOLOGY
        await safe_send(interaction, message)


def history_view(league_id: int, page: HistoryPage) -> discord.ui.View | None:
    """◀ (older nights) · position · ▶ (newer) under ``/league history``, when it has pages."""
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    oldest, latest = page.page >= page.pages - 1, page.page == 0
    view.add_item(LeagueHistoryButton(league_id, min(page.page + 1, page.pages - 1), "p", disabled=oldest))
    view.add_item(
        Button(
            label=f"{page.pages - page.page} / {page.pages}",
            disabled=True,
            style=discord.ButtonStyle.secondary,
            custom_id=f"lghpos:{league_id}:{page.page}",
        )
    )
    view.add_item(LeagueHistoryButton(league_id, max(page.page - 1, 0), "n", disabled=latest))
    return view


class LeagueHistoryButton(
    DynamicItem[Button[Any]], template=r"lgh:(?P<league>\d+):(?P<page>\d+):(?P<dir>[pn])$"
):
    """◀ / ▶ under ``/league history``: that page of nights, in place (page 0 is the latest)."""

    def __init__(self, league_id: int, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(
            Button(
                label="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lgh:{league_id}:{page}:{direction}",
            )
        )
        self.league_id, self.page = league_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeagueHistoryButton:
        return cls(int(match["league"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # the custom_id is never trusted: only the history message it is on changes (a made-up
        # id sent with another message, the public check-in post say, changes nothing), only a
        # league of this server, only an id a database can hold
        if interaction.guild_id is None:
            await safe_send(interaction, LEAGUE_ELSEWHERE)
            return
        if not on_its_message(interaction):
            await safe_send(interaction, NOT_ON_MESSAGE)
            return
        if not fits(self.league_id):
            await safe_send(interaction, _("That league no longer exists."))
            return
        service = league_service(interaction)
        if service is None:
            await safe_send(interaction, _("League nights are not running right now; try again in a minute."))
            return
        watch(interaction)  # acknowledged in time if the storage is slow
        try:
            league = await service.store.rosters.get_league(self.league_id)
            if league is None:
                await safe_send(interaction, _("That league no longer exists."))
                return
            if league.guild_id != interaction.guild_id:
                await safe_send(interaction, LEAGUE_ELSEWHERE)
                return
            page = await service.history_page(league, min(self.page, MAX_PAGE))
            await safe_edit(interaction, page.text, view=history_view(league.id, page))
        except Exception as exc:
            await report_interaction_error(interaction, exc, "league history page")


class TakeSeatButton(DynamicItem[Button[Any]], template=r"lg:take:(?P<table>\d+):(?P<out>\d+)$"):
    """ "Take this seat", offered to a standby player in a league table's thread."""

    def __init__(self, league_table_id: int, out_id: int, lang: str = DEFAULT) -> None:
        super().__init__(
            Button(
                label=gettext(lang, "Take this seat"),
                emoji="🙋",
                style=discord.ButtonStyle.success,
                custom_id=f"lg:take:{league_table_id}:{out_id}",
            )
        )
        self.league_table_id = league_table_id
        self.out_id = out_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakeSeatButton:
        return cls(int(match["table"]), int(match["out"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # the custom_id is never trusted: a table of this server's league (checked in take_seat),
        # numbers a database can hold
        if interaction.guild_id is None or not fits(self.league_table_id) or not fits(self.out_id):
            await safe_send(interaction, _("That table no longer exists."))
            return
        service = league_service(interaction)
        if service is None:
            await safe_send(interaction, _("League nights are not running right now; try again in a minute."))
            return
        await safe_defer(interaction, ephemeral=True, thinking=True)
        try:
            message = await service.take_seat(
                self.league_table_id, self.out_id, interaction.user.id, guild_id=interaction.guild_id
            )
        except LeagueRefusal as exc:
            message = exc.message
        except Exception:
            log.exception("league take-seat failed (table %s)", self.league_table_id)
            message = APOLOGY
        await safe_send(interaction, message)


DYNAMIC_ITEMS: tuple[type[DynamicItem[Any]], ...] = (CheckinButton, LeagueHistoryButton, TakeSeatButton)


def checkin_view(night_id: int, lang: str = DEFAULT, *, playing: bool = False) -> discord.ui.View:
    """Check in, I'll sub, Can't make it (``playing``: the night is under way, the last one reads
    I'm out for tonight)."""
    view = discord.ui.View(timeout=None)
    view.add_item(CheckinButton(night_id, "in", lang))
    view.add_item(CheckinButton(night_id, "sub", lang))
    view.add_item(CheckinButton(night_id, "out", lang, playing=playing))
    return view


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat()


#: what a thread per league table needs of the bot in the league's channel
THREAD_NEEDS = ("create_public_threads", "send_messages_in_threads")


class DiscordLeagueGateway:
    """League posts and scheduled events through discord.py; tables through ``tables``."""

    def __init__(
        self,
        client: discord.Client,
        tables: LeagueTables | None = None,
        language: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        self.client = client
        self.tables = tables
        # a server's language for its public posts (the table service's, with /spades config language)
        self.language = language

    async def _language(self, guild_id: int | None) -> str:
        if guild_id is None:
            return DEFAULT
        if self.language is not None:
            try:
                return await self.language(guild_id)
            except Exception:
                log.warning("league: the language of server %s is unknown", guild_id, exc_info=True)
        guild = self.client.get_guild(guild_id)
        return resolve(getattr(guild, "preferred_locale", None))

    async def _text(self, channel: Any, content: Text) -> tuple[str, str]:
        """``content`` in the language of the channel's server (and that language)."""
        guild = getattr(channel, "guild", None)
        lang = await self._language(getattr(guild, "id", None) or getattr(channel, "guild_id", None))
        return clip_text(render(content, lang)), lang

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def post(
        self, channel_id: int, content: Text, *, role_id: int | None = None, users: Sequence[int] = ()
    ) -> int | None:
        try:
            channel = await self._channel(channel_id)
            mentions = discord.AllowedMentions(
                everyone=False,
                users=[discord.Object(u) for u in users] if users else False,
                roles=[discord.Object(role_id)] if role_id else False,
                replied_user=False,
            )
            shown, _lang = await self._text(channel, content)
            msg = await channel.send(shown, allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("league post to channel %s failed", channel_id, exc_info=True)
            return None
        return int(msg.id)

    async def post_checkin(
        self, channel_id: int, night_id: int, content: Text, *, role_id: int | None
    ) -> int | None:
        try:
            channel = await self._channel(channel_id)
            mentions = discord.AllowedMentions(
                everyone=False, users=False, roles=[discord.Object(role_id)] if role_id else False
            )
            shown, lang = await self._text(channel, content)
            msg = await channel.send(shown, view=checkin_view(night_id, lang), allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("league check-in post to channel %s failed", channel_id, exc_info=True)
            return None
        return int(msg.id)

    async def edit_checkin(
        self,
        channel_id: int,
        message_id: int,
        night_id: int,
        content: Text,
        *,
        closed: bool,
        playing: bool = False,
    ) -> None:
        channel = await self._channel(channel_id)
        message = channel.get_partial_message(message_id)
        shown, lang = await self._text(channel, content)
        if closed:
            # check-in is over: while the night is under way the post keeps I'll sub and I'm out
            # for tonight (and Check in, for a late check-in or a player coming back)
            view = checkin_view(night_id, lang, playing=True) if playing else None
        else:
            # still open: a late check-in window during play shows I'm out for tonight already
            view = checkin_view(night_id, lang, playing=playing)
        try:
            await message.edit(
                content=shown,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("editing league check-in message %s failed", message_id, exc_info=True)

    async def tell_admins(self, league: LeagueRow, content: Text) -> None:
        role_id = league.settings.get("admin_role_id")
        who = role_mention(int(role_id)) if role_id else mention(league.created_by)
        try:
            channel = await self._channel(league.channel_id)
            mentions = discord.AllowedMentions(
                everyone=False,
                roles=[discord.Object(role_id)] if role_id else False,
                users=[discord.Object(league.created_by)] if not role_id else False,
            )
            note = _("%(who)s (league admins): %(message)s", who=who, message=content)
            shown, _lang = await self._text(channel, note)
            await channel.send(shown, allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("telling league %s's admins failed", league.id, exc_info=True)

    async def offer_seat(
        self, channel_id: int, league_table_id: int, out_id: int, standby_id: int, content: Text
    ) -> int | None:
        try:
            channel = await self._channel(channel_id)
            shown, lang = await self._text(channel, content)
            view = discord.ui.View(timeout=None)
            view.add_item(TakeSeatButton(league_table_id, out_id, lang))
            msg = await channel.send(
                shown,
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(standby_id)], replied_user=False
                ),
            )
        except discord.HTTPException:
            log.warning("league seat offer to channel %s failed", channel_id, exc_info=True)
            return None
        return int(msg.id)

    # --- scheduled events ---------------------------------------------------------------------

    def event_payload(
        self, league: LeagueRow, night: sch.Night, recurrence: dict[str, Any] | None, lang: str = DEFAULT
    ) -> dict[str, Any]:
        rounds = int(league.settings.get("rounds", 2))
        minutes = int(league.settings.get("round_minutes", 45))
        end = sch.ends_at(night, timedelta(minutes=rounds * minutes))
        schedule = sch.from_dict(league.schedule)
        description = gettext(
            lang,
            "Spades league night %(n)s of %(total)s (%(schedule)s). Check in on the bot's post in the league"
            " channel before %(time)s %(zone)s; seats are drawn at the start.",
            n=night.number,
            total=schedule.total_weeks,
            schedule=sch.describe(schedule),
            time=night.start.strftime("%H:%M"),
            zone=schedule.zone_name,
        )
        name = gettext(lang, "%(league)s: night %(n)s", league=league.name, n=night.number)
        if finals_number(league) == night.number:  # the playoffs' finals night (bot.league.playoffs)
            name = gettext(lang, "%(league)s: finals", league=league.name)
        payload: dict[str, Any] = {
            "name": name[:100],
            "description": description[:EVENT_DESCRIPTION_MAX],
            "scheduled_start_time": _iso(night.start),
            "scheduled_end_time": _iso(end),
            "privacy_level": 2,  # guild only
            "entity_type": 3,  # external: the night happens in a text channel
            "entity_metadata": {"location": self._location(league)},
        }
        if recurrence is not None:
            payload["recurrence_rule"] = recurrence
        return payload

    def _location(self, league: LeagueRow) -> str:
        channel = self.client.get_channel(league.channel_id)
        name = getattr(channel, "name", None)
        return f"#{name}" if name else f"<#{league.channel_id}>"

    def _event_route(self, method: str, league: LeagueRow, event_id: int, tail: str = "") -> Route:
        return Route(
            method,
            "/guilds/{guild_id}/scheduled-events/{event_id}" + tail,
            guild_id=league.guild_id,
            event_id=event_id,
        )

    async def event_status(self, league: LeagueRow, event_id: int) -> int | None:
        try:
            data = await self.client.http.request(self._event_route("GET", league, event_id))
        except discord.NotFound:
            return None
        return int(data.get("status", 1))

    async def set_event_status(self, league: LeagueRow, event_id: int, status: int) -> bool:
        try:
            route = self._event_route("PATCH", league, event_id)
            await self.client.http.request(route, json={"status": status})
        except discord.HTTPException:
            log.warning("setting scheduled event %s to status %s failed", event_id, status, exc_info=True)
            return False
        return True

    async def event_users(self, league: LeagueRow, event_id: int) -> list[int]:
        users: list[int] = []
        after = 0
        try:
            while True:
                route = self._event_route("GET", league, event_id, "/users")
                page = await self.client.http.request(route, params={"limit": 100, "after": after})
                users += [int(u["user"]["id"]) for u in page]
                if len(page) < 100:
                    return users
                after = users[-1]
        except discord.HTTPException:
            log.warning("reading scheduled event %s's users failed", event_id, exc_info=True)
            return users

    async def sync_event(
        self,
        league: LeagueRow,
        night: sch.Night | None,
        *,
        recurrence: dict[str, Any] | None,
        event_id: int | None,
    ) -> int | None:
        http = self.client.http
        if night is None:
            if event_id is not None and not await self.set_event_status(league, event_id, 4):
                return event_id
            return None
        payload = self.event_payload(league, night, recurrence, await self._language(league.guild_id))
        if event_id is not None:
            try:
                await http.request(self._event_route("PATCH", league, event_id), json=payload)
                return event_id
            except discord.NotFound:
                pass  # deleted by someone: make a new one
            except discord.HTTPException:
                log.warning("updating scheduled event %s failed", event_id, exc_info=True)
                return event_id
        try:
            data = await http.request(
                Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=league.guild_id), json=payload
            )
        except discord.Forbidden:
            log.info("league %s: no permission to create scheduled events", league.id)
            return None
        except discord.HTTPException:
            log.warning("creating a scheduled event for league %s failed", league.id, exc_info=True)
            return None
        return int(data["id"])

    # --- tables ---------------------------------------------------------------------------------

    def _need_tables(self) -> LeagueTables:
        if self.tables is None:
            raise RuntimeError("league tables are not wired to the table service")
        return self.tables

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: str,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int] | None:
        return await self._need_tables().open_table(
            guild_id=guild_id,
            channel_id=channel_id,
            title=title,
            seats=seats,
            ruleset=ruleset,
            league_table_id=league_table_id,
            settings=settings,
        )

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        return await self._need_tables().table_outcome(table_id)

    async def call_time(self, table_id: int, time_call: str = "as_it_stands") -> TableOutcome | None:
        return await self._need_tables().call_time(table_id, time_call)

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        return await self._need_tables().substitute(table_id, out_id, in_id, guild_id=guild_id)

    async def stop_table(self, table_id: int, *, cancelled: bool, forfeit: bool = False) -> None:
        await self._need_tables().stop_table(table_id, cancelled=cancelled, forfeit=forfeit)

    async def dm(self, guild_id: int, user_id: int, content: Text) -> bool:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            lang = await self._language(guild_id)
            await user.send(clip_text(render(content, lang)), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("league: a direct message to %s could not be delivered", user_id)
            return False
        return True

    async def missing_thread_permissions(self, channel_id: int) -> list[str]:
        try:
            channel = await self._channel(channel_id)
        except discord.HTTPException:
            return []
        guild = getattr(channel, "guild", None)
        me = getattr(guild, "me", None)
        if me is None or not hasattr(channel, "permissions_for"):
            return []
        have = channel.permissions_for(me)
        return [p for p in THREAD_NEEDS if not getattr(have, p, False)]

    async def seat_states(self, table_id: int) -> dict[int, SeatState] | None:
        return await self._need_tables().seat_states(table_id)

    async def release_seat(self, table_id: int, user_id: int) -> bool:
        return await self._need_tables().release_seat(table_id, user_id)
