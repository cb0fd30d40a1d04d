"""/leaderboard and /stats: the server's standings, read from storage (no SQL, no scoring here).

The leaderboard is public (it is the server's shared table of honour) and pages with persistent
buttons whose custom_id carries guild, sort and page, so they keep working after a restart.
/stats answers ephemerally by default: it is one person's lookup and the channel stays quiet;
``share:True`` posts it for everyone.
"""

from __future__ import annotations

import logging
import math
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from discord.ui import Button, DynamicItem, Select

from bot.errors import report_interaction_error
from bot.safe import PUBLIC, UPDATE, answer_as, safe_edit, safe_send
from bot.storage import SORT_LABELS, SORTS, PlayerStats

if TYPE_CHECKING:
    from bot.client import SpadesBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
BOT_MARK = "🤖"
EMBED_COLOUR = discord.Colour.dark_green()

EMPTY_SERVER = (
    "No finished hands in this server yet, so there is no leaderboard. Open a table with "
    "`/spades new`: every finished hand counts."
)
NOT_IN_SERVER = "The leaderboard and stats belong to a server: use this command in a server channel."
WRONG_SERVER = "This leaderboard belongs to another server. Use `/leaderboard` here for this one."
BOTS_HAVE_NO_STATS = "Bots don't keep stats: only people are on the leaderboard."


def _pct(value: float) -> str:
    return f"{value:.0f}%"


def sort_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=SORT_LABELS[s], value=s) for s in SORTS]


def page_count(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def leaderboard_line(p: PlayerStats) -> str:
    """One player's line; games with bots are counted and marked."""
    bots = f" ({BOT_MARK} {p.games_with_bots})" if p.games_with_bots else ""
    bids = (
        f"bids {_pct(p.bid_accuracy)} ({p.contracts_made}/{p.contracts_bid})" if p.contracts_bid else "bids –"
    )
    return (
        f"**{p.rank}.** <@{p.user_id}> · {p.wins} W / {p.games} G{bots} · win {_pct(p.win_pct)} · "
        f"{bids} · nils {p.nils_made}/{p.nils_attempted} · {p.bags_per_hand:.1f} bags/hand"
    )


def leaderboard_embed(
    players: list[PlayerStats], *, sort: str, page: int, total: int, guild_name: str | None
) -> discord.Embed:
    embed = discord.Embed(
        title=f"🏆 Leaderboard · {guild_name}" if guild_name else "🏆 Leaderboard",
        description="\n".join(leaderboard_line(p) for p in players),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(
        text=(
            f"Sorted by {SORT_LABELS[sort].lower()} · page {page + 1}/{page_count(total)} · "
            f"{total} player{'s' if total != 1 else ''} · {BOT_MARK} n = games played with bots "
            "(they count) · W wins, G games"
        )
    )
    return embed


class LeaderboardPage(
    DynamicItem[Button[Any]], template=r"lb:(?P<guild>\d+):(?P<sort>[a-z_]+):(?P<page>\d+):(?P<dir>[pn])$"
):
    """◀ / ▶: shows page ``page`` of the guild's leaderboard under ``sort``, in place."""

    def __init__(
        self, guild_id: int, sort: str, page: int, direction: str, *, disabled: bool = False
    ) -> None:
        # the direction keeps ◀ and ▶ distinct even when both point at the same page
        super().__init__(
            Button(
                label="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:{guild_id}:{sort}:{page}:{direction}",
            )
        )
        self.guild_id, self.sort, self.page = guild_id, sort, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardPage:
        return cls(int(match["guild"]), match["sort"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show_page(interaction, self.guild_id, self.sort, self.page)


class LeaderboardSort(DynamicItem[Select[Any]], template=r"lbsort:(?P<guild>\d+)$"):
    """The sort picker under the leaderboard: re-sorts and goes back to page 1, in place."""

    def __init__(self, guild_id: int, current: str = "wins") -> None:
        select: Select[Any] = Select(
            custom_id=f"lbsort:{guild_id}",
            placeholder="Sort by…",
            options=[
                discord.SelectOption(label=f"Sort by {SORT_LABELS[s].lower()}", value=s, default=s == current)
                for s in SORTS
            ],
        )
        super().__init__(select)
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardSort:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # a select's interaction data (discord.py types it as the union of every component's)
        data = cast("dict[str, Any]", interaction.data or {})
        values = data.get("values") or []
        await show_page(interaction, self.guild_id, str(values[0]) if values else "wins", 0)


class LeaderboardButton(DynamicItem[Button[Any]], template=r"lbshow:(?P<guild>\d+)$"):
    """[ Leaderboard ] under a finished game: the server's first page, ephemerally (the channel
    already saw the result; the standings are a personal look)."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            Button(
                label="Leaderboard",
                style=discord.ButtonStyle.secondary,
                emoji="🏆",
                custom_id=f"lbshow:{guild_id}",
            )
        )
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await send_first_page(interaction, self.guild_id, ephemeral=True)
        except Exception as exc:
            await report_interaction_error(interaction, exc, "leaderboard button")


DYNAMIC_ITEMS: tuple[type[DynamicItem[Any]], ...] = (LeaderboardPage, LeaderboardSort, LeaderboardButton)


def leaderboard_view(guild_id: int, sort: str, page: int, total: int) -> discord.ui.View:
    """◀ page ▶ when there is more than one page, and the sort picker."""
    pages = page_count(total)
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(LeaderboardPage(guild_id, sort, max(page - 1, 0), "p", disabled=page <= 0))
        view.add_item(
            Button(
                label=f"{page + 1} / {pages}",
                disabled=True,
                custom_id=f"lbpos:{guild_id}:{sort}:{page}",
                style=discord.ButtonStyle.secondary,
            )
        )
        view.add_item(
            LeaderboardPage(guild_id, sort, min(page + 1, pages - 1), "n", disabled=page >= pages - 1)
        )
    view.add_item(LeaderboardSort(guild_id, sort))
    return view


async def leaderboard_payload(
    bot: SpadesBot, guild_id: int, sort: str, page: int, guild_name: str | None
) -> tuple[discord.Embed, discord.ui.View] | None:
    """The embed and view for one page (clamped to the pages that exist); None when nobody played."""
    total = await bot.storage.leaderboard_count(guild_id)
    if total == 0:
        return None
    page = min(max(page, 0), page_count(total) - 1)
    players = await bot.storage.leaderboard(guild_id, sort=sort, limit=PAGE_SIZE, offset=page * PAGE_SIZE)
    embed = leaderboard_embed(players, sort=sort, page=page, total=total, guild_name=guild_name)
    return embed, leaderboard_view(guild_id, sort, page, total)


async def _reply(interaction: discord.Interaction[Any], content: str) -> None:
    # (after a public deferral the answer takes the deferral's visibility: a refusal is short)
    await safe_send(interaction, content, ephemeral=True)


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
    if sort not in SORTS:
        sort = "wins"
    guild_name = interaction.guild.name if interaction.guild else None
    payload = await leaderboard_payload(interaction.client, guild_id, sort, page, guild_name)
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
    payload = await leaderboard_payload(interaction.client, guild_id, sort, 0, name)
    if payload is None:
        await _reply(interaction, EMPTY_SERVER)
        return
    embed, view = payload
    await safe_send(interaction, embed=embed, view=view, ephemeral=ephemeral)


def stats_embed(p: PlayerStats, *, name: str, total: int, avatar: str | None) -> discord.Embed:
    embed = discord.Embed(title=f"♠ {name}", colour=EMBED_COLOUR)
    if avatar:
        embed.set_thumbnail(url=avatar)
    embed.add_field(name="Rank", value=f"#{p.rank} of {total} by wins")
    embed.add_field(name="Games", value=f"{p.games} ({p.wins} W · {p.losses} L)")
    embed.add_field(name="Win rate", value=_pct(p.win_pct) if p.games else "–")
    embed.add_field(
        name="Bid accuracy",
        value=f"{_pct(p.bid_accuracy)} ({p.contracts_made}/{p.contracts_bid} contracts made)"
        if p.contracts_bid
        else "–",
    )
    embed.add_field(name="Nils", value=f"{p.nils_made} made of {p.nils_attempted}")
    embed.add_field(name="Bags", value=f"{p.bags_per_hand:.2f} per hand ({p.bags} in {p.hands} hands)")
    embed.add_field(
        name=f"{BOT_MARK} Games with bots",
        value=f"{p.games_with_bots} of {p.games}" + (" (they count)" if p.games_with_bots else ""),
        inline=False,
    )
    return embed


class StatsCog(commands.Cog, name="Stats"):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's Spades leaderboard")
    @app_commands.describe(sort="What to rank by (default: wins)")
    @app_commands.choices(sort=sort_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[SpadesBot], sort: app_commands.Choice[str] | None = None
    ) -> None:
        key = sort.value if sort is not None else "wins"
        await send_first_page(interaction, interaction.guild_id or 0, sort=key)

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
        found = await self.bot.storage.player_stats(interaction.guild_id, target.id)
        if found is None:
            who = "You have" if target.id == interaction.user.id else f"{target.mention} has"
            await _reply(
                interaction,
                f"{who} no finished hands in this server yet. Stats start with the first finished hand "
                "(`/spades new` opens a table).",
            )
            return
        total = await self.bot.storage.leaderboard_count(interaction.guild_id)
        embed = stats_embed(found, name=target.display_name, total=total, avatar=target.display_avatar.url)
        await safe_send(interaction, embed=embed, ephemeral=not share)


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(StatsCog(bot))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
