"""The components under the history, a game's score sheet, a replay and the forget-me question.

Persistent ``DynamicItem``s (custom ids, well under 100 characters, listed in ``cogs.history``),
and the views they make up: a page of the history with its game picker, the hand picker under a
score sheet, a replay's navigation. What a click does is registered above the views
(``cogs.history``, with ``handles``); labels are in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord.ui import Button, DynamicItem, Select

from bot.i18n import DEFAULT, N_, gettext
from bot.render.history import game_choice
from bot.storage import HistoryPage as Page
from bot.storage import StoredHand
from bot.views.registry import dispatch
from engine.record import HandReplay


class HistoryPage(
    DynamicItem[Button[Any]],
    template=r"hi:(?P<guild>\d+):(?P<kind>[csu]):(?P<ref>\d+):(?P<page>\d+):(?P<dir>[pn])$",
):
    """◀ / ▶ under /history: that page, in place."""

    def __init__(
        self, guild_id: int, kind: str, ref: int, page: int, direction: str, *, disabled: bool = False
    ) -> None:
        super().__init__(
            Button(
                label="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"hi:{guild_id}:{kind}:{ref}:{page}:{direction}",
            )
        )
        self.guild_id, self.kind, self.ref, self.page = guild_id, kind, ref, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPage:
        return cls(int(match["guild"]), match["kind"], int(match["ref"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class HistorySelect(
    DynamicItem[Select[Any]],
    template=r"hisel:(?P<guild>\d+):(?P<kind>[csu]):(?P<ref>\d+):(?P<page>\d+)$",
):
    """Pick a game of the page: its score sheet and score chart, with a hand picker to replay."""

    def __init__(
        self,
        guild_id: int,
        kind: str,
        ref: int,
        page: int,
        options: list[discord.SelectOption] | None = None,
        *,
        lang: str = DEFAULT,
    ) -> None:
        select: Select[Any] = Select(
            custom_id=f"hisel:{guild_id}:{kind}:{ref}:{page}",
            placeholder=gettext(lang, "Open a game's score sheet…"),
            options=(options or [discord.SelectOption(label="—", value="0")])[:25],
        )
        super().__init__(select)
        self.guild_id, self.kind, self.ref = guild_id, kind, ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistorySelect:
        return cls(int(match["guild"]), match["kind"], int(match["ref"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class GameHandSelect(DynamicItem[Select[Any]], template=r"hig:(?P<game>\d+)$"):
    """Under a game's score sheet: pick a hand to replay."""

    def __init__(
        self, game_id: int, options: list[discord.SelectOption] | None = None, *, lang: str = DEFAULT
    ) -> None:
        super().__init__(
            Select(
                custom_id=f"hig:{game_id}",
                placeholder=gettext(lang, "Replay a hand…"),
                options=(options or [discord.SelectOption(label="—", value="1")])[:25],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameHandSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class ReplayNav(
    DynamicItem[Button[Any]],
    template=r"rp:(?P<t>\d+):(?P<g>\d+):(?P<h>\d+):(?P<step>\d+):(?P<tag>[a-z]+)$",
):
    """Previous / Next (and first, last, other hands) in a replay: the step, in place."""

    def __init__(
        self,
        table_id: int,
        game_no: int,
        hand_no: int,
        step: int,
        tag: str,
        *,
        label: str = "",
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            Button(
                label=label or tag,
                emoji=emoji,
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rp:{table_id}:{game_no}:{max(hand_no, 0)}:{step}:{tag}",
            ),
            row=row,
        )
        self.table_id, self.game_no, self.hand_no, self.step = table_id, game_no, hand_no, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayNav:
        return cls(int(match["t"]), int(match["g"]), int(match["h"]), int(match["step"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class VerifyButton(DynamicItem[Button[Any]], template=r"rpv:(?P<t>\d+):(?P<g>\d+):(?P<h>\d+)$"):
    """🔐 Verify deal in a replay: recompute the deal from the revealed key (ephemeral answer)."""

    def __init__(
        self, table_id: int, game_no: int, hand_no: int, *, row: int | None = None, lang: str = DEFAULT
    ) -> None:
        super().__init__(
            Button(
                label=gettext(lang, "Verify deal"),
                emoji="🔐",
                style=discord.ButtonStyle.success,
                custom_id=f"rpv:{table_id}:{game_no}:{hand_no}",
            ),
            row=row,
        )
        self.table_id, self.game_no, self.hand_no = table_id, game_no, hand_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VerifyButton:
        return cls(int(match["t"]), int(match["g"]), int(match["h"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class HandPostButton(
    DynamicItem[Button[Any]], template=r"hv:(?P<t>\d+):(?P<g>\d+):(?P<h>\d+):(?P<what>[rvw])$"
):
    """Replay hand / Verify deal / Review my hand under a hand's public post (answers are
    ephemeral follow-ups: the public post itself never changes)."""

    def __init__(self, table_id: int, game_no: int, hand_no: int, what: str) -> None:
        # dispatch only: the post's own buttons (bot.views) are labelled in the server's language
        label = {"r": N_("Replay hand"), "w": N_("Review my hand")}.get(what, N_("Verify deal"))
        super().__init__(
            Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"hv:{table_id}:{game_no}:{hand_no}:{what}",
            )
        )
        self.table_id, self.game_no, self.hand_no, self.what = table_id, game_no, hand_no, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandPostButton:
        return cls(int(match["t"]), int(match["g"]), int(match["h"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


class ForgetButton(DynamicItem[Button[Any]], template=r"fg:(?P<user>\d+):(?P<answer>[yn])$"):
    """Yes, forget me / Cancel (only the player who asked may answer)."""

    def __init__(self, user_id: int, answer: str, lang: str = DEFAULT) -> None:
        yes = answer == "y"
        super().__init__(
            Button(
                label=gettext(lang, "Yes, forget me") if yes else gettext(lang, "Cancel"),
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"fg:{user_id}:{answer}",
            )
        )
        self.user_id, self.answer = user_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetButton:
        return cls(int(match["user"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self)


DYNAMIC_ITEMS: tuple[type[DynamicItem[Any]], ...] = (
    HistoryPage,
    HistorySelect,
    GameHandSelect,
    ReplayNav,
    VerifyButton,
    HandPostButton,
    ForgetButton,
)


def history_view(first: Page, guild_id: int, kind: str, ref: int, lang: str = DEFAULT) -> discord.ui.View:
    """Under a page of the history (``kind``/``ref``: whose, as in the custom ids): ◀ page ▶ when
    there is more than one page, and the picker of the page's games."""
    view = discord.ui.View(timeout=None)
    p = first.page - 1
    if first.pages > 1:
        view.add_item(HistoryPage(guild_id, kind, ref, max(p - 1, 0), "p", disabled=not first.has_prev))
        view.add_item(
            Button(
                label=f"{first.page} / {first.pages}",
                disabled=True,
                custom_id=f"hipos:{guild_id}:{kind}:{ref}:{p}",
                style=discord.ButtonStyle.secondary,
            )
        )
        view.add_item(HistoryPage(guild_id, kind, ref, p + 1, "n", disabled=not first.has_next))
    options = []
    for g in first.games:
        label, about = game_choice(g)
        options.append(discord.SelectOption(label=label, value=str(g.id), description=about))
    view.add_item(HistorySelect(guild_id, kind, ref, p, options, lang=lang))
    return view


def hand_picker(game_id: int, hands: Sequence[StoredHand], lang: str = DEFAULT) -> discord.ui.View | None:
    """Under a game's score sheet: pick one of its (last 25) hands to replay; None without hands."""
    view = discord.ui.View(timeout=None)
    shown = hands[-25:]
    options = [
        discord.SelectOption(label=gettext(lang, "Hand %(n)s", n=h.hand_no), value=str(h.hand_no))
        for h in shown
    ]
    if not options:
        return None
    view.add_item(GameHandSelect(game_id, options, lang=lang))
    return view


def replay_view(
    table_id: int, game_no: int, replay: HandReplay, hands_in_game: int, step: int, lang: str = DEFAULT
) -> discord.ui.View:
    """A replay's navigation at ``step``: deal, previous, next, scoring; the neighbouring hands; and
    Verify deal for a fair deal."""
    view = discord.ui.View(timeout=None)
    last = replay.steps - 1
    step = max(0, min(step, last))
    t, g, h = table_id, game_no, replay.hand_no
    nav = (
        ("f", 0, "⏮", gettext(lang, "Deal")),
        ("p", step - 1, "◀", gettext(lang, "Previous")),
        ("n", step + 1, "▶", gettext(lang, "Next")),
        ("l", last, "⏭", gettext(lang, "Scoring")),
    )
    for tag, target, emoji, label in nav:
        off = (tag in "fp" and step == 0) or (tag in "nl" and step == last)
        view.add_item(
            ReplayNav(t, g, h, max(0, min(target, last)), tag, label=label, emoji=emoji, disabled=off, row=0)
        )
    # the neighbouring hands by number; at either end a disabled button that names no hand
    first, last_hand = h <= 1, h >= hands_in_game
    back = gettext(lang, "Previous hand") if first else gettext(lang, "Hand %(n)s", n=h - 1)
    ahead = gettext(lang, "Next hand") if last_hand else gettext(lang, "Hand %(n)s", n=h + 1)
    view.add_item(ReplayNav(t, g, max(1, h - 1), 0, "hp", label=back, emoji="⬅", disabled=first, row=1))
    view.add_item(ReplayNav(t, g, h + 1, 0, "hn", label=ahead, emoji="➡", disabled=last_hand, row=1))
    if replay.record.get("fair"):
        view.add_item(VerifyButton(t, g, h, row=1, lang=lang))
    return view


def forget_view(user_id: int, lang: str = DEFAULT) -> discord.ui.View:
    """Yes, forget me / Cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(user_id, "y", lang))
    view.add_item(ForgetButton(user_id, "n", lang))
    return view
