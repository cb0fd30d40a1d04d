"""The buttons drawn from a table state they are given: under the live table message (by phase),
under hand and game posts, and the confirmations offered ephemerally (fill, leave, abandon).
Labels are in the server's language (the offers: in the clicker's).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ui import Button

from bot.i18n import DEFAULT, gettext
from bot.model import Table
from bot.views.items import TableButton


def _button(
    table_id: int,
    action: str,
    label: str,
    style: discord.ButtonStyle,
    emoji: str | None = None,
    row: int | None = None,
) -> TableButton:
    return TableButton(table_id, action, label=label, style=style, emoji=emoji, row=row)


def table_view(t: Table, lang: str = DEFAULT) -> discord.ui.View | None:
    """Buttons under the live table message, by phase (labels in the server's language)."""
    view = discord.ui.View(timeout=None)
    if t.status == "open":
        view.add_item(_button(t.id, "join", gettext(lang, "Join"), discord.ButtonStyle.success))
        view.add_item(_button(t.id, "leave", gettext(lang, "Leave"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "start", gettext(lang, "Start"), discord.ButtonStyle.primary))
        view.add_item(_button(t.id, "rules", gettext(lang, "Rules"), discord.ButtonStyle.secondary))
    elif t.status == "playing":
        view.add_item(_button(t.id, "hand", gettext(lang, "My hand"), discord.ButtonStyle.primary, emoji="🂠"))
        if any(s is not None and not s.bot and (s.away or s.left) for s in t.seats):
            view.add_item(_button(t.id, "back", gettext(lang, "I'm back"), discord.ButtonStyle.success))
        view.add_item(_button(t.id, "rules", gettext(lang, "Rules"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "leave", gettext(lang, "Leave"), discord.ButtonStyle.secondary))
    elif t.status == "finished":
        view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
    else:
        return None
    return view


#: custom_id of the finished-game post's Leaderboard button; ``bot.views.leaderboard.LeaderboardButton``
#: (a persistent DynamicItem) dispatches it (``cogs.stats`` answers).
LEADERBOARD_ID = "lbshow:{guild}"


def game_over_view(t: Table, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(_button(t.id, "rematch", gettext(lang, "Rematch"), discord.ButtonStyle.success, emoji="🔁"))
    view.add_item(
        Button(
            label=gettext(lang, "Leaderboard"),
            style=discord.ButtonStyle.secondary,
            emoji="🏆",
            custom_id=LEADERBOARD_ID.format(guild=t.guild_id),
        )
    )
    view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
    return view


#: custom_id of a hand post's buttons (``v`` verify the deal, ``r`` replay the hand, ``w`` review
#: the presser's own play beside the strong bot's, ``bot.review``);
#: ``bot.views.history.HandPostButton`` dispatches them (``cogs.history`` answers).
HAND_POST_ID = "hv:{table}:{game}:{hand}:{what}"


def hand_post_view(t: Table, record: dict[str, Any], lang: str = DEFAULT) -> discord.ui.View:
    """Under a hand's result: replay it trick by trick, (fair deals) check its deal, and review
    one's own bid and plays beside the strong bot's."""
    view = discord.ui.View(timeout=None)
    ids = {"table": t.id, "game": t.game_no, "hand": int(record.get("hand_no", 0))}
    view.add_item(
        Button(
            label=gettext(lang, "Replay hand"),
            style=discord.ButtonStyle.secondary,
            emoji="🔁",
            custom_id=HAND_POST_ID.format(**ids, what="r"),
        )
    )
    if record.get("fair"):
        view.add_item(
            Button(
                label=gettext(lang, "Verify deal"),
                style=discord.ButtonStyle.secondary,
                emoji="🔐",
                custom_id=HAND_POST_ID.format(**ids, what="v"),
            )
        )
    view.add_item(
        Button(
            label=gettext(lang, "Review my hand"),
            style=discord.ButtonStyle.secondary,
            emoji="🧭",
            custom_id=HAND_POST_ID.format(**ids, what="w"),
        )
    )
    return view


def fill_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Fill empty seats with bots and start")
    view.add_item(_button(table_id, "fill", label, discord.ButtonStyle.primary, emoji="🤖"))
    return view


def leave_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Yes, leave: the bot takes my seat")
    view.add_item(_button(table_id, "leaveok", label, discord.ButtonStyle.danger))
    return view


def abandon_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Yes, abandon the table")
    view.add_item(_button(table_id, "abandon", label, discord.ButtonStyle.danger))
    return view
