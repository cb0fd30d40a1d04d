"""A click on a persistent component, straight to its ``DynamicItem``.

For every click on a ``DynamicItem``, discord.py rebuilds a whole ``View`` from the message the
component sits on (each of a hand panel's dozen buttons an object), only to find the clicked one
in it and swap the dynamic item in. The bot's items are rebuilt from their custom_id alone (their
``from_custom_id`` never reads the view), and the client has already checked that the clicked
component is on its message (``on_its_message``, the same test discord.py's lookup makes), so the
item is made from the interaction's data directly: the same checks, the same callback, a tenth of
the work.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from .safe import on_its_message

log = logging.getLogger(__name__)


def _base_item(component_type: int, custom_id: str) -> discord.ui.Item[Any]:
    """A stand-in for the clicked component (``from_custom_id`` takes one; ours ignore it)."""
    if component_type == discord.ComponentType.button.value:
        return discord.ui.Button(custom_id=custom_id)
    return discord.ui.Select(custom_id=custom_id)


async def call_dynamic_item(
    component_type: int,
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction[Any],
    custom_id: str,
    match: re.Match[str],
) -> None:
    """``ViewStore.schedule_dynamic_item_call`` without rebuilding the message's view."""
    if interaction.message is None or not on_its_message(interaction):
        return  # (discord.py drops such a click too; the client has answered it)
    try:
        item = await factory.from_custom_id(interaction, _base_item(component_type, custom_id), match)
    except Exception:
        log.exception("building the dynamic item %r failed", factory)
        return
    item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]  # (a select's values)
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("a dynamic item callback failed (%r)", item)


def install(client: discord.Client) -> None:
    """Dispatch the client's dynamic items with :func:`call_dynamic_item`."""
    store = client._connection._view_store
    store.schedule_dynamic_item_call = call_dynamic_item  # type: ignore[method-assign]
