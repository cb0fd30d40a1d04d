"""/leaderboard and /stats: the server's standings, read from storage (no SQL, no scoring here).

The leaderboard is public (it is the server's shared table of honour) and pages with persistent
buttons whose custom_id carries guild, sort and page, so they keep working after a restart.
/stats answers ephemerally by default: it is one person's lookup and the channel stays quiet;
``share:True`` posts it for everyone.

A public leaderboard or shared stats speak the server's language; an ephemeral one the reader's.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from discord.ui import Button, DynamicItem, Select

from bot.client import SpadesBot
from bot.errors import report_interaction_error
from bot.i18n import DEFAULT, N_, Num, _, gettext, ngettext, resolve, user_language
from bot.i18n import render as render_text
from bot.league.ratings import PROVISIONAL_GAMES
from bot.safe import NOT_ON_MESSAGE, PUBLIC, UPDATE, answer_as, on_its_message, safe_edit, safe_send
from bot.storage import SORT_LABELS, SORTS, PlayerStats

log = logging.getLogger(__name__)

PAGE_SIZE = 10
MAX_PAGE = 100_000  # (a page past the end shows the last one)
BOT_MARK = "🤖"
EMBED_COLOUR = discord.Colour.dark_green()

EMPTY_SERVER = _(
    "No finished hands in this server yet, so there is no leaderboard. Open a table with "
    "`/spades new`: every finished hand counts."
)
NOT_IN_SERVER = _("The leaderboard and stats belong to a server: use this command in a server channel.")
WRONG_SERVER = _("This leaderboard belongs to another server. Use `/leaderboard` here for this one.")
BOTS_HAVE_NO_STATS = _("Bots don't keep stats: only people are on the leaderboard.")


def _pct(value: float, lang: str = DEFAULT) -> str:
    """A percentage (0-100) as the language writes it: ``67%``, ``67 %``."""
    return Num(round(value) / 100, percent=True).render(lang)


def _num(value: float, pattern: str, lang: str) -> str:
    return Num(value, pattern).render(lang)


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


ALL_GAMES = "__all"  # a sort key suffix: count games with bots in W/G too


def split_sort(key: str) -> tuple[str, bool]:
    """``wins`` -> ("wins", humans only); ``wins__all`` -> ("wins", every game); unknown -> wins."""
    base, _sep, flag = key.partition("__")
    return (base if base in SORTS else "wins"), flag != "all"


def sort_key(sort: str, humans_only: bool) -> str:
    return sort if humans_only else sort + ALL_GAMES


def sort_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=SORT_LABELS[s], value=s) for s in SORTS]


def page_count(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def rating_text(p: PlayerStats, lang: str = DEFAULT) -> str:
    """``rating 12.3`` (``?`` while provisional) or ``unrated``."""
    if p.rating is None:
        return gettext(lang, "unrated")
    mark = "?" if p.rated_games < PROVISIONAL_GAMES else ""
    return gettext(lang, "rating %(value)s%(mark)s", value=_num(p.rating, "0.0", lang), mark=mark)


def leaderboard_line(p: PlayerStats, lang: str = DEFAULT, sort: str = "wins") -> str:
    """One player's line; W and G as counted by the board (games with bots are marked)."""
    bots = f" ({BOT_MARK} {p.games_with_bots})" if p.games_with_bots else ""
    record = gettext(lang, "%(wins)s W / %(games)s G", wins=p.wins, games=p.games)
    if sort == "rating":
        rated = ngettext(lang, "%(n)s rated game", "%(n)s rated games", p.rated_games)
        return f"**{p.rank}.** <@{p.user_id}> · {rating_text(p, lang)} ({rated}) · {record}{bots}"
    if p.contracts_bid:
        bids = gettext(
            lang,
            "bids %(pct)s (%(made)s/%(bid)s)",
            pct=_pct(p.bid_accuracy, lang),
            made=p.contracts_made,
            bid=p.contracts_bid,
        )
    else:
        bids = gettext(lang, "bids –")
    win = gettext(lang, "win %(pct)s", pct=_pct(p.win_pct, lang))
    nils = gettext(lang, "nils %(made)s/%(tried)s", made=p.nils_made, tried=p.nils_attempted)
    bags = gettext(lang, "%(n)s bags/hand", n=_num(p.bags_per_hand, "0.0", lang))
    return f"**{p.rank}.** <@{p.user_id}> · {record}{bots} · {win} · {bids} · {nils} · {bags}"


def leaderboard_embed(
    players: list[PlayerStats],
    *,
    sort: str,
    page: int,
    total: int,
    guild_name: str | None,
    lang: str = DEFAULT,
    humans_only: bool = True,
) -> discord.Embed:
    title = gettext(lang, "🏆 Leaderboard · %(server)s", server=guild_name) if guild_name else None
    embed = discord.Embed(
        title=title or gettext(lang, "🏆 Leaderboard"),
        description="\n".join(leaderboard_line(p, lang, sort) for p in players),
        colour=EMBED_COLOUR,
    )
    sorted_by = gettext(lang, "Sorted by %(what)s", what=gettext(lang, SORT_LABELS[sort]).lower())
    where = gettext(lang, "page %(page)s/%(pages)s", page=page + 1, pages=page_count(total))
    players_n = ngettext(lang, "%(n)s player", "%(n)s players", total)
    if humans_only:
        legend = gettext(
            lang,
            "W/G count games between people; %(mark)s n = games with bots (not counted) · ? = provisional",
            mark=BOT_MARK,
        )
    else:
        legend = gettext(
            lang, "W/G count every game; %(mark)s n = of them with bots · ? = provisional", mark=BOT_MARK
        )
    embed.set_footer(text=f"{sorted_by} · {where} · {players_n} · {legend}")
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

    def __init__(self, guild_id: int, current: str = "wins", lang: str = DEFAULT) -> None:
        base, humans_only = split_sort(current)
        select: Select[Any] = Select(
            custom_id=f"lbsort:{guild_id}",
            placeholder=gettext(lang, "Sort by…"),
            options=[
                discord.SelectOption(
                    label=gettext(lang, "Sort by %(what)s", what=gettext(lang, SORT_LABELS[s]).lower()),
                    value=sort_key(s, humans_only),
                    default=s == base,
                )
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
                # dispatch only: the post's own button (bot.views) is labelled in the server's language
                label=N_("Leaderboard"),
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


def leaderboard_view(guild_id: int, sort: str, page: int, total: int, lang: str = DEFAULT) -> discord.ui.View:
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
    view.add_item(LeaderboardSort(guild_id, sort, lang))
    return view


async def leaderboard_payload(
    bot: SpadesBot, guild_id: int, sort: str, page: int, guild_name: str | None, lang: str = DEFAULT
) -> tuple[discord.Embed, discord.ui.View] | None:
    """The embed and view for one page (clamped to the pages that exist); None when nobody played."""
    total = await bot.storage.leaderboard_count(guild_id)
    if total == 0:
        return None
    page = min(max(page, 0), page_count(total) - 1)
    base, humans_only = split_sort(sort)
    players = await bot.storage.leaderboard(
        guild_id, sort=base, limit=PAGE_SIZE, offset=page * PAGE_SIZE, humans_only=humans_only
    )
    embed = leaderboard_embed(
        players, sort=base, page=page, total=total, guild_name=guild_name, lang=lang, humans_only=humans_only
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


def stats_embed(
    p: PlayerStats, *, name: str, total: int, avatar: str | None, lang: str = DEFAULT
) -> discord.Embed:
    embed = discord.Embed(title=f"♠ {name}", colour=EMBED_COLOUR)
    if avatar:
        embed.set_thumbnail(url=avatar)
    embed.add_field(
        name=gettext(lang, "Rank"),
        value=gettext(lang, "#%(rank)s of %(total)s by wins", rank=p.rank, total=total),
    )
    embed.add_field(
        name=gettext(lang, "Games"),
        value=gettext(
            lang, "%(games)s (%(wins)s W · %(losses)s L)", games=p.games, wins=p.wins, losses=p.losses
        ),
    )
    embed.add_field(name=gettext(lang, "Win rate"), value=_pct(p.win_pct, lang) if p.games else "–")
    embed.add_field(
        name=gettext(lang, "Bid accuracy"),
        value=gettext(
            lang,
            "%(pct)s (%(made)s/%(bid)s contracts made)",
            pct=_pct(p.bid_accuracy, lang),
            made=p.contracts_made,
            bid=p.contracts_bid,
        )
        if p.contracts_bid
        else "–",
    )
    embed.add_field(
        name=gettext(lang, "Nils"),
        value=gettext(lang, "%(made)s made of %(tried)s", made=p.nils_made, tried=p.nils_attempted),
    )
    embed.add_field(
        name=gettext(lang, "Bags"),
        value=ngettext(
            lang,
            "%(per)s per hand (%(bags)s in %(n)s hand)",
            "%(per)s per hand (%(bags)s in %(n)s hands)",
            p.hands,
            per=_num(p.bags_per_hand, "0.00", lang),
            bags=p.bags,
        ),
    )
    with_bots = gettext(lang, "%(n)s of %(games)s", n=p.games_with_bots, games=p.games)
    if p.games_with_bots:
        with_bots = gettext(lang, "%(n)s of %(games)s (they count)", n=p.games_with_bots, games=p.games)
    embed.add_field(
        name=gettext(lang, "%(mark)s Games with bots", mark=BOT_MARK),
        value=with_bots,
        inline=False,
    )
    return embed


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
        found = await self.bot.storage.player_stats(interaction.guild_id, target.id)
        if found is None:
            if target.id == interaction.user.id:
                text = _(
                    "You have no finished hands in this server yet. Stats start with the first finished "
                    "hand (`/spades new` opens a table)."
                )
            else:
                text = _(
                    "%(who)s has no finished hands in this server yet. Stats start with the first finished "
                    "hand (`/spades new` opens a table).",
                    who=target.mention,
                )
            await _reply(interaction, text)
            return
        total = await self.bot.storage.leaderboard_count(interaction.guild_id)
        lang = await public_language(interaction) if share else user_language(interaction)
        embed = stats_embed(
            found, name=target.display_name, total=total, avatar=target.display_avatar.url, lang=lang
        )
        await safe_send(interaction, embed=embed, ephemeral=not share)


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(StatsCog(bot))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
