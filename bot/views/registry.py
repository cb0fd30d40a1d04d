"""Where a click goes: the registry of click handlers, and the guarded callback every
persistent component of ``bot.views`` shares.

The handlers themselves live above the views (``bot.clicks`` registers them with ``handles``), so
drawing a panel never imports the table service.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.i18n import _
from bot.safe import safe_send

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # table ids are 64-bit database integers
APOLOGY = _("Sorry, something went wrong on my side. Nothing was changed; please try again.")
_DEFERRED = (
    discord.InteractionResponseType.deferred_channel_message,
    discord.InteractionResponseType.deferred_message_update,
)


NOT_READY = _("The tables are not ready yet; try again in a moment.")

ClickHandler = Callable[[discord.Interaction, Any], Awaitable[None]]
H = TypeVar("H", bound=ClickHandler)
_handlers: dict[type, ClickHandler] = {}


def handles(item_type: type) -> Callable[[H], H]:
    """Register what a click on ``item_type`` does: ``handler(interaction, item)``. The handlers
    live above the views (``bot.clicks``), so drawing a panel never imports the service."""

    def register(handler: H) -> H:
        _handlers[item_type] = handler
        return handler

    return register


async def dispatch(interaction: discord.Interaction[Any], item: Any) -> None:
    """A click on ``item``, to the handler registered for its type (``handles``)."""
    handler = _handlers.get(type(item))
    if handler is None:
        await safe_send(interaction, NOT_READY)
        return
    await handler(interaction, item)


class Guarded:
    """Every component callback answers, even when something unexpected fails inside."""

    async def _handle(self, interaction: discord.Interaction) -> None:
        handler = _handlers.get(type(self))
        if handler is None:
            await safe_send(interaction, NOT_READY)
            return
        if not 0 < getattr(self, "table_id", 1) <= MAX_ID:  # (a made-up id no database could hold)
            await safe_send(interaction, _("That table no longer exists. Open a new one with `/spades new`."))
            return
        await handler(interaction, self)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._handle(interaction)
        except Exception:
            log.exception("a component callback failed (%s)", type(self).__name__)
            # unanswered, or only deferred (``timely`` after 2 s): either way the user has had
            # no word yet, so the apology goes out (as a follow-up after a deferral)
            if not interaction.response.is_done() or interaction.response.type in _DEFERRED:
                await safe_send(interaction, APOLOGY)
