"""/leaderboard and /stats: the server's standings, read from storage (no SQL, no scoring here).

The leaderboard is public (it is the server's shared table of honour) and pages with persistent
buttons whose custom_id carries guild, sort and page, so they keep working after a restart.
/stats answers ephemerally by default: it is one person's lookup and the channel stays quiet;
``share:True`` posts it for everyone.

A public leaderboard or shared stats speak the server's language; an ephemeral one the reader's.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import SpadesBot
from bot.errors import report_interaction_error
from bot.i18n import DEFAULT, resolve, user_language
from bot.i18n import render as render_text
from bot.league.ratings import PROVISIONAL_GAMES
from bot.lexicon.words import SORT_LABELS
from bot.render.stats import (
    BOTS_HAVE_NO_STATS,
    EMPTY_SERVER,
    NOT_IN_SERVER,
    PAGE_SIZE,
    WRONG_SERVER,
    leaderboard_embed,
    no_stats,
    page_count,
    sort_key,
    split_sort,
    stats_embed,
)
from bot.safe import NOT_ON_MESSAGE, PUBLIC, UPDATE, answer_as, on_its_message, safe_edit, safe_send
from bot.storage import SORTS
from bot.views.leaderboard import (
    DYNAMIC_ITEMS,
    LeaderboardButton,
    LeaderboardPage,
    LeaderboardSort,
    leaderboard_view,
)
from bot.views.registry import handles

log = logging.getLogger(__name__)

MAX_PAGE = 100_000  # (a page past the end shows the last one)


async def public_language(interaction: discord.Interaction[Any]) -> str:
    """The server's language for a message everyone sees (``/spades config language``, else the
    server's Discord language)."""
    client = interaction.client
    if isinstance(client, SpadesBot) and interaction.guild_id is not None:
        return str(await client.settings.server_language(interaction.guild_id))
    return resolve(interaction.guild_locale)


async def message_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the message a button sits on: the reader's on an ephemeral one."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        return user_language(interaction)
    return await public_language(interaction)


def sort_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=SORT_LABELS[s], value=s) for s in SORTS]


async def leaderboard_payload(
    bot: SpadesBot, guild_id: int, sort: str, page: int, guild_name: str | None, lang: str = DEFAULT
) -> tuple[discord.Embed, discord.ui.View] | None:
    """The embed and view for one page (clamped to the pages that exist); None when nobody played."""
    total = await bot.storage.stats.count(guild_id)
    if total == 0:
        return None
    page = min(max(page, 0), page_count(total) - 1)
    base, humans_only = split_sort(sort)
    players = await bot.storage.stats.leaderboard(
        guild_id, sort=base, limit=PAGE_SIZE, offset=page * PAGE_SIZE, humans_only=humans_only
    )
    embed = leaderboard_embed(
        players,
        sort=base,
        page=page,
        total=total,
        guild_name=guild_name,
        lang=lang,
        humans_only=humans_only,
        provisional=PROVISIONAL_GAMES,
    )
    return embed, leaderboard_view(guild_id, sort_key(base, humans_only), page, total, lang)


async def _reply(interaction: discord.Interaction[Any], content: Any) -> None:
    # (after a public deferral the answer takes the deferral's visibility: a refusal is short)
    await safe_send(interaction, render_text(content, user_language(interaction)), ephemeral=True)


async def show_page(interaction: discord.Interaction[Any], guild_id: int, sort: str, page: int) -> None:
    """A button or select click: edit the leaderboard message in place (errors answered, not lost)."""
    try:
        await _show_page(interaction, guild_id, sort, page)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "leaderboard page")


async def _show_page(interaction: discord.Interaction[Any], guild_id: int, sort: str, page: int) -> None:
    answer_as(interaction, UPDATE)  # (a slow read: the deferral keeps the page edit possible)
    if interaction.guild_id != guild_id:
        await _reply(interaction, WRONG_SERVER)
        return
    if not on_its_message(interaction):  # a made-up id sent with another message: never edit that one
        await _reply(interaction, NOT_ON_MESSAGE)
        return
    page = min(page, MAX_PAGE)
    sort = sort_key(*split_sort(sort))
    guild_name = interaction.guild.name if interaction.guild else None
    lang = await message_language(interaction)
    payload = await leaderboard_payload(interaction.client, guild_id, sort, page, guild_name, lang)
    if payload is None:
        await _reply(interaction, EMPTY_SERVER)
        return
    embed, view = payload
    await safe_edit(interaction, embed=embed, view=view)


async def send_first_page(
    interaction: discord.Interaction[Any], guild_id: int, *, sort: str = "wins", ephemeral: bool = False
) -> None:
    """Answer with page 1 of ``guild_id``'s leaderboard (or why there is none)."""
    if not ephemeral:
        answer_as(interaction, PUBLIC)
    if interaction.guild_id is None:
        await _reply(interaction, NOT_IN_SERVER)
        return
    if interaction.guild_id != guild_id:
        await _reply(interaction, WRONG_SERVER)
        return
    name = interaction.guild.name if interaction.guild else None
    lang = user_language(interaction) if ephemeral else await public_language(interaction)
    payload = await leaderboard_payload(interaction.client, guild_id, sort, 0, name, lang)
    if payload is None:
        await _reply(interaction, EMPTY_SERVER)
        return
    embed, view = payload
    await safe_send(interaction, embed=embed, view=view, ephemeral=ephemeral)


# ---- the leaderboard's components (drawn by bot.views.leaderboard) ----------------------------------


@handles(LeaderboardPage)
async def on_page(interaction: discord.Interaction[Any], item: LeaderboardPage) -> None:
    await show_page(interaction, item.guild_id, item.sort, item.page)


@handles(LeaderboardSort)
async def on_sort(interaction: discord.Interaction[Any], item: LeaderboardSort) -> None:
    # a select's interaction data (discord.py types it as the union of every component's)
    data = cast("dict[str, Any]", interaction.data or {})
    values = data.get("values") or []
    await show_page(interaction, item.guild_id, str(values[0]) if values else "wins", 0)


@handles(LeaderboardButton)
async def on_leaderboard_button(interaction: discord.Interaction[Any], item: LeaderboardButton) -> None:
    try:
        await send_first_page(interaction, item.guild_id, ephemeral=True)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "leaderboard button")


class StatsCog(commands.Cog, name="Stats"):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's Spades leaderboard")
    @app_commands.describe(
        sort="What to rank by (default: wins)",
        bots="Count games where bots filled seats in wins and games (default: no)",
    )
    @app_commands.choices(sort=sort_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[SpadesBot],
        sort: app_commands.Choice[str] | None = None,
        bots: bool = False,
    ) -> None:
        key = sort.value if sort is not None else "wins"
        await send_first_page(interaction, interaction.guild_id or 0, sort=sort_key(key, not bots))

    @app_commands.command(name="stats", description="Spades stats in this server (yours, or someone's)")
    @app_commands.describe(user="Whose stats (default: yours)", share="Post them for the channel to see")
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction[SpadesBot],
        user: discord.User | None = None,
        share: bool = False,
    ) -> None:
        if interaction.guild_id is None:
            await _reply(interaction, NOT_IN_SERVER)
            return
        if share:
            answer_as(interaction, PUBLIC)
        target = user or interaction.user
        if target.bot:
            await _reply(interaction, BOTS_HAVE_NO_STATS)
            return
        found = await self.bot.storage.stats.player(interaction.guild_id, target.id)
        if found is None:
            mine = target.id == interaction.user.id
            await _reply(interaction, no_stats(None if mine else target.mention))
            return
        total = await self.bot.storage.stats.count(interaction.guild_id)
        lang = await public_language(interaction) if share else user_language(interaction)
        against_bot = await self.bot.storage.reviews.bid_accuracy(interaction.guild_id, target.id)
        embed = stats_embed(
            found,
            name=target.display_name,
            total=total,
            avatar=target.display_avatar.url,
            lang=lang,
            against_bot=against_bot,
        )
        await safe_send(interaction, embed=embed, ephemeral=not share)


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(StatsCog(bot))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
