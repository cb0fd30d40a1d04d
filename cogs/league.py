"""`/league …`: thin adapters over ``bot.league.service.LeagueService`` (no SQL, no league rules):
each command parses its options, calls the service, renders the answer with ``bot.render.league``
and answers.

Every answer is ephemeral unless it is meant for the channel (standings with ``share``); every
command defers first (storage may be slow) and answers a refusal with its specific reason.
Creating and changing a league needs Manage Server or the league's admin role.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot import lexicon
from bot.guild_settings import GuildSettings
from bot.i18n import Text, _, gettext, join, render, resolve, user_language
from bot.league import schedule as sch
from bot.league.attendance import CREDIT_LABELS, NO_SHOW_LABELS
from bot.league.discord_io import DYNAMIC_ITEMS
from bot.league.playoffs import ORDER_LABELS, SWITCH_LABELS
from bot.league.schedule_input import WEEKDAYS, zone_suggestions
from bot.league.season_rules import RANKING_LABELS
from bot.league.service import LeagueRefusal, LeagueService
from bot.league.settings import FORMAT_LABELS, LEFTOVER_LABELS, TIME_CALL_LABELS
from bot.render import league as text
from bot.safe import safe_defer, safe_send, within
from bot.storage.leagues import LeagueRow
from engine.house_rules import rule_suggestions

if TYPE_CHECKING:
    from bot.client import SpadesBot

log = logging.getLogger(__name__)

T = TypeVar("T")


FORMAT_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in FORMAT_LABELS.items()]
LEFTOVER_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in LEFTOVER_LABELS.items()]
NO_SHOW_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in NO_SHOW_LABELS.items()]
ON_OFF_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in SWITCH_LABELS.items()]
ORDER_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in ORDER_LABELS.items()]
RANKING_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in RANKING_LABELS.items()]
CREDIT_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in CREDIT_LABELS.items()]
AUTOCOMPLETE_READ = 1.0  # seconds the rules autocomplete may wait for the league's preset
WEEKDAY_CHOICES = [app_commands.Choice(name=d, value=d.lower()) for d in WEEKDAYS]
NOTIFY_CHOICES = [
    app_commands.Choice(name="No direct messages", value="off"),
    app_commands.Choice(name="When check-in opens", value="checkin"),
    app_commands.Choice(name="My table each round", value="seating"),
    app_commands.Choice(name="Both", value="both"),
]


def _preset_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n, value=n) for n in list(engine.PRESETS)[:25]]


def _scores(typed: str) -> list[int]:
    parts = re.split(r"[\s,;/-]+", typed.strip())
    try:
        return [int(p) for p in parts if p]
    except ValueError:
        raise LeagueRefusal(_("Scores are whole numbers separated by spaces, like `420 380`.")) from None


class LeagueCog(commands.Cog):
    league = app_commands.Group(name="league", description="Weekly Spades league nights", guild_only=True)
    admin = app_commands.Group(name="admin", description="Fix a league night", parent=league)
    # its own command: /league is near Discord's 8,000 characters a command
    seasons = app_commands.Group(
        name="league-season", description="A league season's odd numbers and standings", guild_only=True
    )

    def __init__(self, service: LeagueService, settings: GuildSettings) -> None:
        self.service = service
        self.settings = settings

    # ---- plumbing ------------------------------------------------------------------------------

    async def _run(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Text | None]],
        *,
        public: bool = False,
        view: Callable[[], discord.ui.View | None] | None = None,
        files: Callable[[], list[discord.File]] | None = None,
    ) -> None:
        """Defer, run, answer: a refusal is answered with its reason, a bug with an apology. Answers
        are lazy texts: a private one is shown in the user's language, a public one in the server's."""
        await safe_defer(interaction, ephemeral=not public, thinking=True)
        message: Text | None
        try:
            message = await work()
        except LeagueRefusal as exc:
            if public:
                # the deferral was public: the refusal goes privately (``safe_send`` drops the
                # public "thinking" first)
                await safe_send(interaction, exc.message, ephemeral=True)
                return
            message = exc.message
        except Exception:
            log.exception(
                "/league %s failed", interaction.command.qualified_name if interaction.command else "?"
            )
            message = text.APOLOGY
        if message and public:
            message = render(message, await self._server_language(interaction))
        if message:
            extra = {"files": files()} if files is not None else {}
            await safe_send(
                interaction, message, ephemeral=not public, view=view() if view else None, **extra
            )

    async def _server_language(self, interaction: discord.Interaction[Any]) -> str:
        """The language of the server's public messages (``/spades config language``)."""
        if interaction.guild_id is not None:
            with contextlib.suppress(Exception):
                return str(await self.settings.server_language(interaction.guild_id))
        return resolve(interaction.guild_locale)

    async def _league(self, interaction: discord.Interaction[Any], name: str | None) -> LeagueRow:
        """The league named, or the server's one league when no name is given."""
        assert interaction.guild_id is not None
        return await self.service.league(interaction.guild_id, name)

    async def _admin_league(self, interaction: discord.Interaction[Any], name: str | None) -> LeagueRow:
        league = await self._league(interaction, name)
        if not await self._is_admin(interaction, league):
            raise LeagueRefusal(text.NOT_ADMIN)
        return league

    async def _is_admin(self, interaction: discord.Interaction[Any], league: LeagueRow | None) -> bool:
        perms = getattr(interaction, "permissions", None)
        if perms is not None and (perms.manage_guild or perms.administrator):
            return True
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        wanted = set()
        if league is not None and league.settings.get("admin_role_id"):
            wanted.add(int(league.settings["admin_role_id"]))
        if interaction.guild_id is not None:
            settings = await self.settings.get(interaction.guild_id)
            if settings.get("league_admin_role_id"):
                wanted.add(int(settings["league_admin_role_id"]))
        return bool(roles & wanted)

    # ---- autocomplete --------------------------------------------------------------------------

    async def league_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = await self.service.league_names(interaction.guild_id, current)
        return [app_commands.Choice(name=n, value=n) for n in names]

    async def zone_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        # the reader's locale first, then the server's ("Lon" offers Europe/London first anyway)
        locales = tuple(
            str(loc.value) for loc in (interaction.locale, interaction.guild_locale) if loc is not None
        )
        return [app_commands.Choice(name=z, value=z) for z in zone_suggestions(current, locales=locales)]

    async def rules_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The house rules, suggested as ``/spades new rules:`` suggests them, over the preset
        chosen (``/league create``) or the league's own (``/league edit``)."""
        preset = getattr(interaction.namespace, "preset", None)
        if not isinstance(preset, str) and interaction.guild_id is not None:
            # autocomplete cannot be deferred: a slow database must not make it miss Discord's 3 s
            name = getattr(interaction.namespace, "league", None)
            found = await within(AUTOCOMPLETE_READ, self._quiet_league(interaction.guild_id, name))
            preset = self.service.ruleset_of(found).name if found is not None else None
        lang = user_language(interaction)
        return [
            app_commands.Choice(name=lexicon.rules_suggestion(s, lang), value=s.value)
            for s in rule_suggestions(current, preset if isinstance(preset, str) else None)
        ]

    async def time_call_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """What happens when a round's time is up, in the reader's words (the value stays)."""
        lang = user_language(interaction)
        typed = current.strip().lower()
        out = []
        for value, words in TIME_CALL_LABELS.items():
            shown = f"{value}: {gettext(lang, words)}"[:100]
            if typed in shown.lower():
                out.append(app_commands.Choice(name=shown, value=value))
        return out

    async def _quiet_league(self, guild_id: int, name: Any) -> LeagueRow | None:
        try:
            return await self.service.league(guild_id, name if isinstance(name, str) and name else None)
        except LeagueRefusal:
            return None

    # ---- creating and changing -----------------------------------------------------------------

    @league.command(name="create", description="Create a weekly league night in this channel")
    @app_commands.describe(
        name="The league's name, like Spades Thursday",
        weekday="The day it meets every week",
        time="The local start time, like 20:00 or 8pm",
        timezone="IANA time zone, like America/New_York (start typing a city)",
        weeks="Season length in weeks (nights played)",
        format="Fixed partners, rotating partners or solo",
        preset="The rules (standard, cutthroat, five-player, …)",
        rounds="Games (rounds) per night",
        round_minutes="A round's time limit",
        target="A round's target score (default: the preset's)",
        hand_limit="A round's hand limit, so nights end on time",
        leftover="What happens to players who don't fill a table",
        first_date="The first night's date, YYYY-MM-DD (default: the next one)",
        role="A role pinged when check-in opens",
        admin_role="A role that may run this league besides server managers",
        checkin_minutes="How many minutes before the start check-in opens (5-720, default 30)",
        late_minutes="Minutes after the start a late check-in joins the next round (0-120, default 30)",
        min_players="Fewer checked in at the start cancels the night, week given back (0 = two)",
        rules="House rules, as in /spades new",
        time_call="When a round's time is up",
        bid_seconds="Seconds to bid",
        play_seconds="Seconds to play",
    )
    @app_commands.choices(
        format=FORMAT_CHOICES,
        leftover=LEFTOVER_CHOICES,
        weekday=WEEKDAY_CHOICES,
        preset=_preset_choices(),
    )
    @app_commands.autocomplete(
        timezone=zone_autocomplete, rules=rules_autocomplete, time_call=time_call_autocomplete
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 50],
        weekday: str,
        time: app_commands.Range[str, 1, 20],
        timezone: app_commands.Range[str, 1, 60],
        weeks: app_commands.Range[int, -1000, 1000] = 8,
        format: str = "rotating",
        preset: str = "standard",
        rounds: app_commands.Range[int, -100, 100] = 2,
        round_minutes: app_commands.Range[int, -1000, 1000] = 45,
        target: app_commands.Range[int, -10000, 10000] | None = None,
        hand_limit: app_commands.Range[int, -100, 100] | None = None,
        leftover: str = "bot",
        first_date: app_commands.Range[str, 1, 20] | None = None,
        role: discord.Role | None = None,
        admin_role: discord.Role | None = None,
        checkin_minutes: app_commands.Range[int, -10000, 10000] | None = None,
        late_minutes: app_commands.Range[int, -10000, 10000] | None = None,
        min_players: app_commands.Range[int, -1000, 1000] | None = None,
        rules: app_commands.Range[str, 1, 300] | None = None,
        time_call: app_commands.Range[str, 1, 40] | None = None,
        bid_seconds: app_commands.Range[int, -10000, 10000] | None = None,
        play_seconds: app_commands.Range[int, -10000, 10000] | None = None,
    ) -> None:
        async def work() -> Text:
            if not await self._is_admin(interaction, None):
                raise LeagueRefusal(text.NOT_ADMIN)
            assert interaction.guild_id is not None and interaction.channel_id is not None
            if isinstance(interaction.channel, discord.Thread):
                raise LeagueRefusal(
                    _("Create the league in a text channel, not a thread: tables get their own threads.")
                )
            league = await self.service.create_league(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                actor_id=interaction.user.id,
                name=name,
                weekday=weekday,
                at=time,
                zone=timezone,
                weeks=weeks,
                fmt=format,
                preset=preset,
                target=target,
                hand_limit=hand_limit,
                rounds=rounds,
                round_minutes=round_minutes,
                leftover=leftover,
                first_date=first_date,
                role_id=role.id if role else None,
                admin_role_id=admin_role.id if admin_role else None,
                checkin_minutes=checkin_minutes,
                late_minutes=late_minutes,
                min_players=min_players,
                rules=rules,
                time_call=time_call,
                bid_seconds=bid_seconds,
                play_seconds=play_seconds,
            )
            schedule = self.service.schedule_of(league)
            created = text.created(league, schedule, sch.describe(schedule))
            return join(created, self.service.tables_text(league), sep="\n")

        await self._run(interaction, work)

    @league.command(name="edit", description="Change a league's schedule, rounds or rules")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        name="A new name",
        weekday="A new weekday",
        time="A new local start time",
        timezone="A new time zone",
        weeks="A new season length",
        rounds="Rounds per night",
        round_minutes="A round's time limit",
        leftover="Leftover players",
        role="The check-in role",
        target="A round's target score",
        hand_limit="A round's hand limit",
        win_points="League points for a win",
        close_loss_points="League points for a close loss",
        close_margin="How close a close loss is (game points)",
        drop_worst_week="Drop each player's worst week",
        checkin_minutes="Minutes before the start check-in opens (5-720)",
        late_minutes="Minutes after the start late check-ins are taken (0-120)",
        min_players="The minimum of players for a night (0 = two)",
    )
    @app_commands.choices(leftover=LEFTOVER_CHOICES, weekday=WEEKDAY_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete, timezone=zone_autocomplete)
    async def edit(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        name: app_commands.Range[str, 1, 50] | None = None,
        weekday: str | None = None,
        time: app_commands.Range[str, 1, 20] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        weeks: app_commands.Range[int, -1000, 1000] | None = None,
        rounds: app_commands.Range[int, -100, 100] | None = None,
        round_minutes: app_commands.Range[int, -1000, 1000] | None = None,
        leftover: str | None = None,
        role: discord.Role | None = None,
        target: app_commands.Range[int, -10000, 10000] | None = None,
        hand_limit: app_commands.Range[int, -100, 100] | None = None,
        win_points: app_commands.Range[int, -100, 100] | None = None,
        close_loss_points: app_commands.Range[int, -100, 100] | None = None,
        close_margin: app_commands.Range[int, -10000, 10000] | None = None,
        drop_worst_week: bool | None = None,
        checkin_minutes: app_commands.Range[int, -10000, 10000] | None = None,
        late_minutes: app_commands.Range[int, -10000, 10000] | None = None,
        min_players: app_commands.Range[int, -1000, 1000] | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            points = {
                k: v
                for k, v in {
                    "win": win_points,
                    "close_loss": close_loss_points,
                    "close_margin": close_margin,
                    "drop_worst_week": drop_worst_week,
                }.items()
                if v is not None
            }
            lg = await self.service.edit(
                lg,
                interaction.user.id,
                name=name,
                weekday=weekday,
                at=time,
                zone=timezone,
                weeks=weeks,
                rounds=rounds,
                round_minutes=round_minutes,
                leftover=leftover,
                role_id=role.id if role else None,
                target=target,
                hand_limit=hand_limit,
                points=points or None,
                checkin_minutes=checkin_minutes,
                late_minutes=late_minutes,
                min_players=min_players,
            )
            return text.saved(await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @league.command(name="pause", description="Pause a league: no nights until it is resumed")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)", reason="Why (audit log)")
    async def pause(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self.service.pause(
                await self._admin_league(interaction, league), interaction.user.id, reason
            )
            return text.paused(lg)

        await self._run(interaction, work)

    @league.command(name="resume", description="Resume a paused league")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def resume(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self.service.resume(await self._admin_league(interaction, league), interaction.user.id)
            return text.resumed(await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @league.command(name="skip", description="Skip one night (the season gets a week longer)")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        reason="Why (audit log)",
        date="The night's date, YYYY-MM-DD",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def skip(
        self,
        interaction: discord.Interaction[Any],
        date: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 1, 200] | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            _league, last = await self.service.skip(
                await self._admin_league(interaction, league), interaction.user.id, date, reason
            )
            return text.skipped(date, last)

        await self._run(interaction, work)

    @league.command(name="end", description="End the season now and post the final standings")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)", reason="Why (audit log)")
    async def end(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self.service.end_season(
                await self._admin_league(interaction, league), interaction.user.id, reason
            )
            return text.season_ended(lg)

        await self._run(interaction, work)

    @league.command(name="season", description="Start a new season of an ended league")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)", weeks="A new season length"
    )
    async def season(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        weeks: app_commands.Range[int, -1000, 1000] | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self.service.new_season(
                await self._admin_league(interaction, league), interaction.user.id, weeks=weeks
            )
            return text.season_started(lg, await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @league.command(name="archive", description="Archive an ended league (its history stays)")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def archive(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self.service.archive(
                await self._admin_league(interaction, league), interaction.user.id
            )
            return text.archived(lg)

        await self._run(interaction, work)

    # ---- players -------------------------------------------------------------------------------

    @league.command(name="signup", description="Sign up for a league")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def signup(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            await self.service.sign_up(lg, interaction.user.id)
            return text.signed_up(lg)

        await self._run(interaction, work)

    @league.command(name="leave", description="Leave a league")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def leave(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            await self.service.leave(lg, interaction.user.id)
            return text.left(lg)

        await self._run(interaction, work)

    @league.command(name="invite", description="Fixed teams: invite your partner(s)")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        partner="Your partner",
        team="Your team's name",
        partner2="Second partner (teams of three)",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def invite(
        self,
        interaction: discord.Interaction[Any],
        partner: discord.Member,
        team: app_commands.Range[str, 1, 50],
        partner2: discord.Member | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            partners = [partner] if partner2 is None else [partner, partner2]
            made = await self.service.invite(
                lg,
                interaction.user.id,
                [p.id for p in partners],
                team,
                partner_is_bot=any(p.bot for p in partners),
            )
            return text.invited(lg, made, [p.id for p in partners])

        await self._run(interaction, work)

    @league.command(name="accept", description="Fixed teams: accept your partner's invite")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def accept(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            made = await self.service.answer_invite(lg, interaction.user.id, accept=True)
            return text.accepted(lg, made)

        await self._run(interaction, work)

    @league.command(name="decline", description="Fixed teams: decline an invite")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def decline(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            made = await self.service.answer_invite(lg, interaction.user.id, accept=False)
            return text.declined(made)

        await self._run(interaction, work)

    @league.command(name="standings", description="The season's standings")
    @app_commands.describe(
        league="The league (default: the server's only league)", share="Post them in the channel for everyone"
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def standings(
        self, interaction: discord.Interaction[Any], share: bool = False, league: str | None = None
    ) -> None:
        async def work() -> Text:
            return await self.service.standings_text(await self._league(interaction, league))

        await self._run(interaction, work, public=share)

    @league.command(name="schedule", description="The season's nights")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def schedule(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            return await self.service.schedule_text(await self._league(interaction, league))

        await self._run(interaction, work)

    @league.command(name="history", description="Past nights, their results and the admin log")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def history(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        from bot.league.discord_io import history_view

        shown: list[discord.ui.View | None] = [None]

        async def work() -> Text:
            row = await self._league(interaction, league)
            page = await self.service.history_page(row)
            shown[0] = history_view(row.id, page)  # ◀ ▶ through older nights
            return page.text

        await self._run(interaction, work, view=lambda: shown[0])

    @league.command(name="me", description="Your standing, rating and next night")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)",
        notify="Direct messages: when check-in opens, with your table, both, or none",
    )
    @app_commands.choices(notify=NOTIFY_CHOICES)
    async def me(
        self, interaction: discord.Interaction[Any], league: str | None = None, notify: str | None = None
    ) -> None:
        async def work() -> Text:
            lg = await self._league(interaction, league)
            if notify is not None:
                return await self.service.set_notify(lg, interaction.user.id, notify)
            return await self.service.me_text(lg, interaction.user.id)

        await self._run(interaction, work)

    # ---- admin tools ---------------------------------------------------------------------------

    @admin.command(name="sub", description="Substitute a player at their table tonight")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        out="The player leaving",
        player="The player taking the seat",
        reason="Why (audit log)",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def sub(
        self,
        interaction: discord.Interaction[Any],
        out: discord.Member,
        player: discord.Member,
        reason: app_commands.Range[str, 1, 200] | None = None,
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            if player.bot:
                raise LeagueRefusal(
                    _("Substitute a person; to let a bot play, the player can just leave the table.")
                )
            lg = await self._admin_league(interaction, league)
            return await self.service.substitute(lg, interaction.user.id, out.id, player.id, reason)

        await self._run(interaction, work)

    @admin.command(name="attendance", description="The no-show rule, substitutes and dropping no-shows")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        no_show="What a player earns whose seat someone else played for most of a game",
        percent="Percent of a game someone else may play a seat before its player is a no-show",
        miss_minutes="Minutes into a round a player may miss before being a no-show (0: never)",
        drop_after="No-shows in a season that take a player off the roster (0: never)",
        credit="Who a substitute's seat counts for",
    )
    @app_commands.choices(no_show=NO_SHOW_CHOICES, credit=CREDIT_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete)
    async def attendance(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        no_show: str | None = None,
        percent: app_commands.Range[int, -1000, 1000] | None = None,
        miss_minutes: app_commands.Range[int, -1000, 1000] | None = None,
        drop_after: app_commands.Range[int, -1000, 1000] | None = None,
        credit: str | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            lg = await self.service.set_attendance(
                lg,
                interaction.user.id,
                no_show=no_show,
                share=percent,
                miss_minutes=miss_minutes,
                drop_after=drop_after,
                credit=credit,
            )
            return text.saved(await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @admin.command(name="noshows", description="The season's no-shows per player")
    @app_commands.describe(league="The league (default: the server's only league)")
    @app_commands.autocomplete(league=league_autocomplete)
    async def noshows(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            rule = self.service.settings_of(lg).attendance
            return text.no_show_counts(lg.name, lg.season, await self.service.no_shows(lg), rule.drop_after)

        await self._run(interaction, work)

    @admin.command(name="add", description="Put a player on the roster")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)", player="The player")
    async def add(
        self, interaction: discord.Interaction[Any], player: discord.Member, league: str | None = None
    ) -> None:
        async def work() -> Text:
            if player.bot:
                raise LeagueRefusal(
                    _("Bots can't sign up for a league: they fill empty seats by themselves.")
                )
            lg = await self._admin_league(interaction, league)
            await self.service.add_member(lg, interaction.user.id, player.id)
            return text.member_added(lg, player.id)

        await self._run(interaction, work)

    @admin.command(name="remove", description="Remove a player from the league")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)", player="The player", reason="Why (audit log)"
    )
    async def remove(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        reason: app_commands.Range[str, 1, 200],
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            await self.service.remove(lg, interaction.user.id, player.id, reason)
            return text.member_removed(lg, player.id)

        await self._run(interaction, work)

    @admin.command(name="correct", description="Correct a table's result (kept in the history)")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        night="Night number",
        round="Round number",
        table="Table number",
        scores="Final scores per side in table order, like 420 380",
        reason="Why",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def correct(
        self,
        interaction: discord.Interaction[Any],
        night: app_commands.Range[int, 1, 100],
        round: app_commands.Range[int, 1, 10],
        table: app_commands.Range[int, 1, 100],
        scores: app_commands.Range[str, 1, 60],
        reason: app_commands.Range[str, 1, 200],
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            result = await self.service.correct(
                lg,
                interaction.user.id,
                night_number=night,
                round_no=round,
                table_no=table,
                scores=_scores(scores),
                reason=reason,
            )
            return text.corrected(night, round, table, result.scores)

        await self._run(interaction, work)

    @admin.command(name="reopen", description="Re-open check-in (late arrivals join the next round)")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def reopen(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            return await self.service.reopen_checkin(
                await self._admin_league(interaction, league), interaction.user.id
            )

        await self._run(interaction, work)

    @admin.command(name="start", description="Start the next night now")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(league="The league (default: the server's only league)")
    async def start(self, interaction: discord.Interaction[Any], league: str | None = None) -> None:
        async def work() -> Text:
            return await self.service.start_now(
                await self._admin_league(interaction, league), interaction.user.id
            )

        await self._run(interaction, work)

    @admin.command(name="postpone", description="Start the next night later")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)", minutes="How many minutes later"
    )
    async def postpone(
        self,
        interaction: discord.Interaction[Any],
        minutes: app_commands.Range[int, -1000, 1000],
        league: str | None = None,
    ) -> None:
        async def work() -> Text:
            return await self.service.postpone(
                await self._admin_league(interaction, league), interaction.user.id, minutes
            )

        await self._run(interaction, work)

    @admin.command(name="cancel", description="Cancel tonight in any phase (the season gets its week back)")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)",
        reason="Why (shown on the post and in the history)",
    )
    async def cancel(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        reason: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        async def work() -> Text:
            return await self.service.cancel_tonight(
                await self._admin_league(interaction, league), interaction.user.id, reason
            )

        await self._run(interaction, work)

    @admin.command(name="void", description="Void a table of tonight's round: its result does not count")
    @app_commands.autocomplete(league=league_autocomplete)
    @app_commands.describe(
        league="The league (default: the server's only league)",
        table="Table number",
        reason="Why (kept in the history)",
        round="Round number (default: the current or last round)",
    )
    async def void(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 100],
        reason: app_commands.Range[str, 1, 200],
        league: str | None = None,
        round: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        async def work() -> Text:
            return await self.service.void_table(
                await self._admin_league(interaction, league),
                interaction.user.id,
                round_no=round,
                table_no=table,
                reason=reason,
            )

        await self._run(interaction, work)

    @admin.command(name="role", description="A server-wide role that may create and run leagues")
    @app_commands.describe(role="The role (leave empty: server managers only)")
    async def admin_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        async def work() -> Text:
            perms = getattr(interaction, "permissions", None)
            if not (perms and (perms.manage_guild or perms.administrator)):
                raise LeagueRefusal(
                    _("Only server managers (Manage Server) can choose the league admin role.")
                )
            assert interaction.guild_id is not None
            await self.settings.update(interaction.guild_id, league_admin_role_id=role.id if role else None)
            return text.admin_role_set(role.id if role else None)

        await self._run(interaction, work)

    @seasons.command(name="tables", description="The league tables' house rules, turn timers and time call")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        rules="House rules, as in /spades new",
        time_call="When a round's time is up",
        bid_seconds="Seconds to bid (15-600)",
        play_seconds="Seconds to play a card (15-600)",
    )
    @app_commands.autocomplete(
        league=league_autocomplete, rules=rules_autocomplete, time_call=time_call_autocomplete
    )
    async def season_tables(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        rules: app_commands.Range[str, 1, 300] | None = None,
        time_call: app_commands.Range[str, 1, 40] | None = None,
        bid_seconds: app_commands.Range[int, -10000, 10000] | None = None,
        play_seconds: app_commands.Range[int, -10000, 10000] | None = None,
    ) -> None:
        """``/league edit`` for the league's tables (its own command: /league is near Discord's
        8,000 characters a command): the same ``rules`` as ``/spades new``, the time call, timers."""

        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            lg = await self.service.edit(
                lg,
                interaction.user.id,
                rules=rules,
                time_call=time_call,
                bid_seconds=bid_seconds,
                play_seconds=play_seconds,
            )
            return text.saved(await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @seasons.command(name="rules", description="Odd numbers, bye points and how the standings rank")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        leftover="Players who don't fill a table",
        bye_points="League points for a night's bye (0-10)",
        ranking="What the standings rank by",
        min_nights="Nights played to be ranked and champion (0-52)",
        duplicate="Every table of a round plays the same deals; rank by matchpoints",
    )
    @app_commands.choices(leftover=LEFTOVER_CHOICES, ranking=RANKING_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete)
    async def season_rules(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        leftover: str | None = None,
        bye_points: app_commands.Range[int, -1000, 1000] | None = None,
        ranking: str | None = None,
        min_nights: app_commands.Range[int, -1000, 1000] | None = None,
        duplicate: bool | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            lg = await self.service.set_season_rules(
                lg,
                interaction.user.id,
                leftover=leftover,
                bye_points=bye_points,
                ranking=ranking,
                min_nights=min_nights,
                duplicate=duplicate,
            )
            return text.saved(await self.service.schedule_text(lg))

        await self._run(interaction, work)

    @seasons.command(name="forfeit", description="Award a table to one side: the other side forfeits")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        table="Table number",
        loser="A player of the side that forfeits",
        reason="Why (kept in the history)",
        round="Round number (default: the current or last round)",
        night="Night number (default: tonight or the last night)",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def forfeit(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, 100],
        loser: discord.Member,
        reason: app_commands.Range[str, 1, 200],
        league: str | None = None,
        round: app_commands.Range[int, 1, 10] | None = None,
        night: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """A forfeit (its own command: /league is near Discord's 8,000 characters a command)."""

        async def work() -> Text:
            return await self.service.forfeit_table(
                await self._admin_league(interaction, league),
                interaction.user.id,
                table_no=table,
                loser_id=loser.id,
                reason=reason,
                round_no=round,
                night_number=night,
            )

        await self._run(interaction, work)

    @seasons.command(name="correct", description="Correct a table's result in any season")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        night="Night number",
        round="Round number",
        table="Table number",
        scores="Final scores per side in table order, like 420 380",
        reason="Why",
        season="Default: the current one",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def season_correct(
        self,
        interaction: discord.Interaction[Any],
        night: app_commands.Range[int, 1, 100],
        round: app_commands.Range[int, 1, 10],
        table: app_commands.Range[int, 1, 100],
        scores: app_commands.Range[str, 1, 60],
        reason: app_commands.Range[str, 1, 200],
        league: str | None = None,
        season: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        """``/league admin correct`` with a season (past seasons too)."""

        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            result = await self.service.correct(
                lg,
                interaction.user.id,
                night_number=night,
                round_no=round,
                table_no=table,
                scores=_scores(scores),
                reason=reason,
                season=season,
            )
            return text.corrected(night, round, table, result.scores)

        await self._run(interaction, work)

    @seasons.command(
        name="playoffs", description="Playoffs after the season: who qualifies, when the finals are"
    )
    @app_commands.describe(
        league="The league (default: the server's only league)",
        playoffs="Playoffs after the regular season, or not",
        qualifiers="Who qualifies: fixed teams 2 or 4 (default 4), rotating partners 4 or 8 players",
        min_nights="Nights played to qualify (0-52)",
        order="What orders the qualifiers",
        finals_date="The finals night, YYYY-MM-DD on the league's weekday (next: a week after the last)",
    )
    @app_commands.choices(playoffs=ON_OFF_CHOICES, order=ORDER_CHOICES)
    @app_commands.autocomplete(league=league_autocomplete)
    async def season_playoffs(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        playoffs: str | None = None,
        qualifiers: app_commands.Range[int, -1000, 1000] | None = None,
        min_nights: app_commands.Range[int, -1000, 1000] | None = None,
        order: str | None = None,
        finals_date: app_commands.Range[str, 0, 40] | None = None,
    ) -> None:
        async def work() -> Text:
            lg = await self._admin_league(interaction, league)
            lg = await self.service.set_playoffs(
                lg,
                interaction.user.id,
                on=None if playoffs is None else playoffs == "on",
                size=qualifiers,
                min_nights=min_nights,
                order=order,
                finals_date=finals_date,
            )
            return text.saved(self.service.playoffs_text(lg))

        await self._run(interaction, work)

    @seasons.command(name="seating", description="A night's seating record, to check its seed")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        night="The night's number (default: the latest)",
        season="Default: the current one",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def season_seating(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        night: app_commands.Range[int, 1, 1000] | None = None,
        season: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        attached: list[tuple[str, str]] = []

        async def work() -> Text:
            lg = await self._league(interaction, league)
            answer, made = await self.service.seating_file(lg, night, season)
            attached.append(made)
            return answer

        def files() -> list[discord.File]:
            return [discord.File(io.BytesIO(body.encode()), filename=name) for name, body in attached]

        await self._run(interaction, work, files=files)

    @league.command(name="export", description="A season's results as CSV files")
    @app_commands.describe(
        league="The league (default: the server's only league)",
        season="Default: the current one",
    )
    @app_commands.autocomplete(league=league_autocomplete)
    async def export(
        self,
        interaction: discord.Interaction[Any],
        league: str | None = None,
        season: app_commands.Range[int, -1000, 1000] | None = None,
    ) -> None:
        attached: list[tuple[str, str]] = []

        async def work() -> Text:
            lg = await self._league(interaction, league)
            guild = interaction.guild

            def name_of(uid: int) -> str:
                member = guild.get_member(uid) if guild is not None else None
                return str(member.display_name) if member is not None else ""

            attached.extend(await self.service.export_files(lg, season, name_of))
            return text.exported(lg.name, season or lg.season)

        def files() -> list[discord.File]:
            return [discord.File(io.BytesIO(body.encode()), filename=name) for name, body in attached]

        await self._run(interaction, work, files=files)


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(LeagueCog(bot.leagues, bot.settings))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
