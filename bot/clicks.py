"""What a click or a command's result does for the user who acted: answer within Discord's 3 s,
show a ``Result``, show (or refresh in place) their hand panel, and the handlers of the table and
hand-panel components (registered with ``bot.views.handles`` when this module is imported).

A card click: ``CardButton`` -> ``on_card`` -> ``service.play.act`` (engine, then storage through
the store's commit, then the publisher) -> ``show_hand`` redraws the panel in place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot import render
from bot.i18n import Text, _, join, user_language
from bot.model import Result
from bot.safe import safe_defer, safe_edit, safe_send
from bot.table.service import TableService
from bot.views import (
    NOT_READY,
    TABLE_ACTIONS,
    BidSelect,
    CardButton,
    PanelButton,
    PassSelect,
    TableButton,
    abandon_view,
    fill_view,
    hand_panel,
    handles,
    leave_view,
)

T = TypeVar("T")

#: Discord drops an interaction not answered within 3 s: slower work is deferred first.
DEFER_AFTER = 2.0


def service_of(interaction: discord.Interaction) -> TableService | None:
    return getattr(interaction.client, "tables", None)


async def ready_service(interaction: discord.Interaction) -> TableService | None:
    """The table service, or None after telling the user it is not up yet (start-up)."""
    service = service_of(interaction)
    if service is None:
        await safe_send(interaction, NOT_READY)
    return service


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server or Administrator in this channel (the cogs' and the buttons' one test)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


async def timely(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Await ``work``; if it is not done after ``DEFER_AFTER`` s (a busy database, say), acknowledge
    the interaction first so the answer can follow later (a component's message is then updated
    in place, a command's answer arrives as a follow-up)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await safe_defer(interaction, ephemeral=True)
    return await task


async def show_hand(
    interaction: discord.Interaction, table_id: int, *, in_place: bool, hint: Text = ""
) -> None:
    """Send (or update in place) the user's hand panel (in their language) and remember it for
    turn refreshes."""
    service = await ready_service(interaction)
    if service is None:
        return
    lang = user_language(interaction)
    content, view = hand_panel(service.get(table_id), interaction.user.id, hint, lang)
    if in_place:
        done = await safe_edit(interaction, content, view=view)
    else:
        done = await safe_send(interaction, content, view=view, ephemeral=True)
    if done and view is not None:
        service.remember_panel(table_id, interaction.user.id, interaction)


async def answer(
    interaction: discord.Interaction, result: Result, table_id: int | None = None, *, in_place: bool = False
) -> None:
    """Show a service result to the user who acted: a message, or their refreshed hand panel."""
    tid = table_id if table_id is not None else (result.table.id if result.table is not None else None)
    if result.show_hand and tid is not None:
        await show_hand(interaction, tid, in_place=in_place, hint=result.message)
        return
    view = None
    lang = user_language(interaction)
    if result.data.get("offer_fill") and tid is not None:
        view = fill_view(tid, lang)
    elif result.data.get("confirm_leave"):
        view = leave_view(int(result.data["confirm_leave"]), lang)
    elif result.data.get("confirm"):
        view = abandon_view(int(result.data["confirm"]), lang)
    await safe_send(interaction, result.message or _("Done."), view=view, ephemeral=True)


# ---- component handlers ---------------------------------------------------------------------------


@handles(TableButton)
async def on_table_button(interaction: discord.Interaction, item: TableButton) -> None:
    service = await ready_service(interaction)
    if service is None:
        return
    tid, action, user = item.table_id, item.action, interaction.user
    if action not in TABLE_ACTIONS:
        await safe_send(interaction, _("That button is no longer in use."))
        return
    if action == "rematch":
        await safe_defer(interaction, ephemeral=True, thinking=True)
        work = service.lifecycle.rematch(tid, user.id, user.display_name)
        await answer(interaction, await timely(interaction, work))
        return
    t = await service.load(tid)  # a finished table may have left memory: read it back
    if t is None:
        await safe_send(interaction, _("That table no longer exists. Open a new one with `/spades new`."))
        return
    if action == "hand":
        await show_hand(interaction, tid, in_place=False)
        return
    if action in ("rules", "score"):
        lang = user_language(interaction)
        text = render.rules_text(t, lang) if action == "rules" else render.score_sheet(t, lang)
        await safe_send(interaction, text)
        return
    # the rest act on the table; start and back may answer with the user's hand panel
    panel: int | None = None
    if action == "join":
        work = service.seating.join(t.channel_id, user.id, user.display_name, table_id=tid)
    elif action in ("leave", "leaveok"):
        work = service.seating.leave(t.channel_id, user.id, table_id=tid, confirmed=action == "leaveok")
    elif action in ("start", "fill"):
        work, panel = service.lifecycle.start(tid, user.id, fill=action == "fill"), tid
    elif action == "back":
        work, panel = service.seating.back(tid, user.id), tid
    else:  # abandon (confirmed: the button is the confirmation)
        work = service.lifecycle.abandon(
            t.channel_id, user.id, is_admin=is_admin(interaction), confirmed=True, table_id=tid
        )
    await answer(interaction, await timely(interaction, work), panel)


@handles(CardButton)
async def on_card(interaction: discord.Interaction, item: CardButton) -> None:
    await panel_action(interaction, item.table_id, "play", item.card, item.stamp)


@handles(BidSelect)
async def on_bid(interaction: discord.Interaction, item: BidSelect) -> None:
    values = list(item.item.values)
    if not values:
        await show_hand(interaction, item.table_id, in_place=True)
        return
    await panel_action(interaction, item.table_id, "bid", values[0], item.stamp)


@handles(PassSelect)
async def on_pass(interaction: discord.Interaction, item: PassSelect) -> None:
    try:
        cards = [int(v) for v in item.item.values]
    except ValueError:
        cards = []
    await panel_action(interaction, item.table_id, "pass", cards, item.stamp)


@handles(PanelButton)
async def on_panel_button(interaction: discord.Interaction, item: PanelButton) -> None:
    if item.action in ("keep", "discard"):
        await panel_action(interaction, item.table_id, "draw", item.action == "keep", item.stamp)
    else:
        await panel_action(interaction, item.table_id, item.action, None, item.stamp)


async def panel_action(
    interaction: discord.Interaction, table_id: int, action: str, arg: Any, stamp: int
) -> None:
    """A click in a hand panel: act, then redraw the same ephemeral message in place."""
    service = await ready_service(interaction)
    if service is None:
        return
    work = service.play.act(table_id, interaction.user.id, action, arg, stamp=stamp)
    result = await timely(interaction, work)
    if result.ok or result.show_hand:
        await show_hand(interaction, table_id, in_place=True, hint=result.message)
    else:
        # a refusal on a current panel: keep the panel and say why
        await show_hand(interaction, table_id, in_place=True, hint=join("⚠️", result.message))
