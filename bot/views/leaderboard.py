"""The leaderboard's components: ◀ page ▶, the sort picker, and the finished game's Leaderboard button.

Persistent ``DynamicItem``s: their custom ids carry guild, sort and page, so they keep working after
a restart. What a click does is registered above the views (``cogs.stats``, with ``handles``).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ui import Button, DynamicItem, Select

from bot.i18n import DEFAULT, N_, gettext
from bot.render.stats import page_count, sort_key, split_sort
from bot.storage import SORT_LABELS, SORTS
from bot.views.registry import dispatch


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
        await dispatch(interaction, self)


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
        await dispatch(interaction, self)


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
        await dispatch(interaction, self)


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
