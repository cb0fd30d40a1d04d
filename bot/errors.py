"""Answering a failed interaction: a user's mistake gets its specific line, a bug gets a logged,
redacted traceback and the generic apology. Used by the command tree and by component callbacks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from .i18n import Command, Msg, Text, _, _n, render, user_language
from .logs import is_private_exception
from .permissions import permission_list

log = logging.getLogger(__name__)

GENERIC_APOLOGY = _(
    "Sorry, something went wrong on my side while handling that. Please try again in a moment."
)


def user_error_message(error: app_commands.AppCommandError, command: str | None) -> Msg | None:
    """The specific line for an error that is the user's (or the setup's), or None for a bug."""
    slash = Command(command) if command else _("this command")
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("%(command)s only works in a server channel, not in direct messages.", command=slash)
    if isinstance(error, app_commands.MissingPermissions):
        perms = permission_list(error.missing_permissions)  # two flags may share one name
        return _n(
            "You need the %(perms)s permission to use %(command)s.",
            "You need the %(perms)s permissions to use %(command)s.",
            len(perms.items),
            perms=perms,
            command=slash,
        )
    if isinstance(error, app_commands.BotMissingPermissions):
        perms = permission_list(error.missing_permissions)
        return _n(
            "I need the %(perms)s permission in this channel for %(command)s.",
            "I need the %(perms)s permissions in this channel for %(command)s.",
            len(perms.items),
            perms=perms,
            command=slash,
        )
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = f"{error.retry_after:.0f}"
        return _("Slow down: you can use %(command)s again in %(seconds)s s.", command=slash, seconds=seconds)
    if isinstance(error, app_commands.TransformerError):
        value = repr(str(error.value)[:100])
        return _("%(value)s is not a valid value there.", value=value)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return _("This command changed since Discord loaded it. Please try again in a minute.")
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use %(command)s here.", command=slash)
    return None


async def report_interaction_error(
    interaction: discord.Interaction[Any],
    error: BaseException,
    what: str,
    *,
    command: str | None = None,
) -> None:
    """Log a failed interaction (never a held card) and answer the user ephemerally.

    A user error (missing permission, DMs, cooldown…) gets its specific line and no traceback; a
    bug gets an ERROR log with a redacted traceback and the generic apology. Component callbacks
    (which discord.py only logs) can call this from their own ``except`` to behave the same way.
    """
    message = user_error_message(error, command) if isinstance(error, app_commands.AppCommandError) else None
    if message is not None:
        log.debug("user error in %s: %s", what, type(error).__name__)
    else:
        original: BaseException = getattr(error, "original", error)
        log.error(
            "%s failed (guild %s, channel %s, user %s)",
            what,
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id if interaction.user else None,
            exc_info=original,
        )
        if not is_private_exception(original):
            log.debug("details: %r", original)
        message = GENERIC_APOLOGY
    await answer_ephemeral(interaction, message)


def _response_lock(interaction: Any) -> asyncio.Lock:
    """The interaction's lock around its initial response (the same one ``bot.safe`` takes, so an
    apology and a deferral in time never both try to be the first answer)."""
    extras = getattr(interaction, "extras", None)
    if not isinstance(extras, dict):
        return asyncio.Lock()
    lock: asyncio.Lock = extras.setdefault("spades.response_lock", asyncio.Lock())
    return lock


async def answer_ephemeral(interaction: discord.Interaction[Any], content: Text) -> bool:
    """Answer or follow up ephemerally (in the user's language); False if the interaction is gone."""
    content = render(content, user_language(interaction))
    async with _response_lock(interaction):
        try:
            if interaction.response.is_done():
                await interaction.followup.send(content, ephemeral=True)
            else:
                await interaction.response.send_message(content, ephemeral=True)
        except (discord.NotFound, discord.HTTPException) as exc:
            log.debug("could not answer interaction %s: %s", interaction.id, exc)
            return False
    return True
