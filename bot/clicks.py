"""What a click or a command's result does for the user who acted: answer within Discord's 3 s,
show a ``Result``, show (or refresh in place) their hand panel, and the handlers of the table and
hand-panel components (registered with ``bot.views.registry.handles`` when this module is imported).

A card click: ``CardButton`` -> ``on_card`` -> ``service.play.act`` (engine, then storage through
the store's commit, then the publisher) -> ``show_hand`` redraws the panel in place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.checks import cannot_run_table, is_admin
from bot.i18n import N_, ButtonName, Text, _, join, user_language
from bot.model import MOVING, Offer, Result, Table
from bot.render.posts import score_sheet
from bot.render.rules import rules_pages
from bot.safe import acknowledge_public, on_ephemeral_message, safe_defer, safe_send, send_private, watch
from bot.table.panels import MOVED
from bot.table.service import TableService
from bot.views.buttons import abandon_view, fill_view, leave_view
from bot.views.items import (
    TABLE_ACTIONS,
    BidSelect,
    CardButton,
    PanelButton,
    PassSelect,
    TableButton,
    card_id,
)
from bot.views.panel import hand_panel
from bot.views.registry import NOT_READY, handles

T = TypeVar("T")

NOT_HERE = _("That table belongs to another server.")
PANEL_ONLY = _(
    "Cards and bids are played from your own hand panel: press **%(button)s** on the table.",
    button=ButtonName(N_("My hand")),
)


class TablesHost(ABC):
    """The client a component handler finds on ``interaction.client``: the application
    (``bot.client.SpadesBot``), whose composition root built the table service."""

    @property
    @abstractmethod
    def table_service(self) -> TableService | None:
        """The table service, or None before ``setup_hook`` built it."""


def service_of(interaction: discord.Interaction) -> TableService | None:
    client = interaction.client
    return client.table_service if isinstance(client, TablesHost) else None


async def ready_service(interaction: discord.Interaction) -> TableService | None:
    """The table service, or None after telling the user it is not up yet (start-up)."""
    service = service_of(interaction)
    if service is None:
        await safe_send(interaction, NOT_READY)
    return service


async def timely(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """Await ``work``; if the interaction is still unanswered after ``bot.safe.DEFER_AFTER`` s (a
    busy database, say), it is acknowledged first so the answer can follow (``bot.safe.watch``,
    which the client starts for every interaction: a panel is then updated in place, any other
    answer arrives in an ephemeral message, never on the public table message)."""
    watch(interaction)
    return await work


async def show_hand(
    interaction: discord.Interaction, table_id: int, *, in_place: bool, hint: Text = ""
) -> None:
    """Send (or update in place, when the click came from the panel) the user's hand panel, in
    their language, and remember it for turn refreshes. Written only to an ephemeral message
    (``send_private``). A click on the table's live message is first acknowledged with a deferred
    update, whose token the publisher keeps to redraw that public message (``remember_public``)."""
    service = await ready_service(interaction)
    if service is None:
        return
    lang = user_language(interaction)
    t = service.get(table_id)
    content, view = hand_panel(t, interaction.user.id, hint, lang)
    if not in_place and view is not None and on_live_message(interaction, t):
        # a deferred update first: the click's token can then redraw the public live message
        # (exempt from the global rate limit) and the panel goes in an ephemeral follow-up
        public = await acknowledge_public(interaction)
        if public is not None:
            service.posts.remember_public(table_id, public)
    if not await service.posts.fence(table_id):
        # (right before the write) another process runs the table now, this one having stalled
        # past its shard's lease: never a panel drawn from a state older than the stored one; a
        # click still unanswered is told why
        if not interaction.response.is_done():
            await send_private(interaction, MOVING)
        return
    message = getattr(interaction, "message", None)
    if (
        in_place
        and view is not None
        and message is not None
        and on_ephemeral_message(interaction)
        and service.posts.panels.due(table_id, interaction.user.id, int(message.id))
        and await send_private(interaction, MOVED, in_place=True) is not None
    ):
        # pushed up the channel (a hand post below it, or other posts): this one now says where
        # the hand went, and the hand goes to a new ephemeral message at the bottom
        in_place = False
    written = await send_private(interaction, content, view=view, in_place=in_place)
    if written is not None and view is not None:
        service.remember_panel(table_id, interaction.user.id, written)


def on_live_message(interaction: discord.Interaction, t: Table | None) -> bool:
    """A click on the table's public live message (not a panel, a hand post or an old message)."""
    message = getattr(interaction, "message", None)
    return (
        t is not None
        and message is not None
        and t.message_id is not None
        and message.id == t.message_id
        and not on_ephemeral_message(interaction)
        and not interaction.response.is_done()
    )


def foreign(interaction: discord.Interaction, t: Table | None) -> bool:
    """A table of another server than the interaction's (a custom_id is never trusted); from a
    DM, any table."""
    return interaction.guild_id is None or (t is not None and t.guild_id != interaction.guild_id)


async def answer(
    interaction: discord.Interaction, result: Result, table_id: int | None = None, *, in_place: bool = False
) -> None:
    """Show a service result to the user who acted: a message, or their refreshed hand panel."""
    tid = table_id if table_id is not None else (result.table.id if result.table is not None else None)
    if result.show_hand and tid is not None:
        await show_hand(interaction, tid, in_place=in_place, hint=result.message)
        return
    service = service_of(interaction)
    if result.ok and tid is not None and service is not None:
        # a typed /play or /bid: the panel the player keeps open must not offer that card again
        service.posts.refresh_panel(tid, interaction.user.id)
    view = None
    lang = user_language(interaction)
    match result.offer:
        case Offer(kind="fill", table_id=offered):
            view = fill_view(offered, lang)
        case Offer(kind="leave", table_id=offered):
            view = leave_view(offered, lang)
        case Offer(kind="abandon", table_id=offered):
            view = abandon_view(offered, lang)
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
    if foreign(interaction, None):  # a DM: no table of any server, nothing read
        await safe_send(interaction, NOT_HERE)
        return
    # a finished table may have left memory: read it back
    t = await timely(interaction, service.load(tid))
    if t is None:
        await safe_send(interaction, _("That table no longer exists. Open a new one with `/spades new`."))
        return
    if foreign(interaction, t):
        await safe_send(interaction, NOT_HERE)
        return
    if action == "rematch":
        problem = cannot_run_table(interaction)
        if problem is not None:
            await safe_send(interaction, problem)
            return
        await safe_defer(interaction, ephemeral=True, thinking=True)
        work = service.lifecycle.rematch(tid, user.id, user.display_name, user_language(interaction))
        await answer(interaction, await timely(interaction, work))
        return
    if action == "hand":
        await show_hand(interaction, tid, in_place=False)
        return
    if action in ("rules", "score"):
        lang = user_language(interaction)
        pages = rules_pages(t, lang) if action == "rules" else [score_sheet(t, lang)]
        for page in pages:  # long rule sets take more than one message
            await safe_send(interaction, page)
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
    if item.card is None:  # not a card of any deck: nothing to look up
        await safe_send(interaction, _("That is not a card of this game."))
        return
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
        cards = [card_id(v) for v in item.item.values]
    except ValueError:
        cards = []
    if any(c is None for c in cards):
        await safe_send(interaction, _("That is not a card of this game."))
        return
    await panel_action(interaction, item.table_id, "pass", cards, item.stamp)


NEVER_ASKED = _(
    "Saved: you won't be asked about blind nil again, your cards show as soon as a hand is dealt "
    "(`/spades me` changes it)."
)


@handles(PanelButton)
async def on_panel_button(interaction: discord.Interaction, item: PanelButton) -> None:
    if item.action == "never":
        await never_ask(interaction, item.table_id)
    elif item.action in ("keep", "discard"):
        await panel_action(interaction, item.table_id, "draw", item.action == "keep", item.stamp)
    else:
        await panel_action(interaction, item.table_id, item.action, None, item.stamp)


async def never_ask(interaction: discord.Interaction, table_id: int) -> None:
    """The blind-nil prompt's "Never ask me": the player's ``/spades me`` preference is set (which
    shows their cards at this table too), the panel is redrawn in place with the cards, and a
    message of its own says what was saved (a note in the panel would go at its next redraw)."""
    service = await ready_service(interaction)
    if service is None:
        return
    if not on_ephemeral_message(interaction):
        await safe_send(interaction, PANEL_ONLY)
        return
    if foreign(interaction, service.get(table_id)):
        await safe_send(interaction, NOT_HERE)
        return
    await timely(interaction, service.set_player(interaction.user.id, no_blind_nil=True))
    await show_hand(interaction, table_id, in_place=True)
    await safe_send(interaction, NEVER_ASKED, ephemeral=True)


async def panel_action(
    interaction: discord.Interaction, table_id: int, action: str, arg: Any, stamp: int
) -> None:
    """A click in a hand panel: act, then redraw the same ephemeral message in place."""
    service = await ready_service(interaction)
    if service is None:
        return
    if not on_ephemeral_message(interaction):
        # a panel's custom_id on a message others see: never act, never change that message
        await safe_send(interaction, PANEL_ONLY)
        return
    if foreign(interaction, service.get(table_id)):
        await safe_send(interaction, NOT_HERE)
        return
    work = service.play.act(table_id, interaction.user.id, action, arg, stamp=stamp)
    result = await timely(interaction, work)
    if result.ok or result.show_hand:
        await show_hand(interaction, table_id, in_place=True, hint=result.message)
    else:
        # a refusal on a current panel: keep the panel and say why
        await show_hand(interaction, table_id, in_place=True, hint=join("⚠️", result.message))
