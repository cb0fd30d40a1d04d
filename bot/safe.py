"""Interaction helpers that tolerate expired or already-answered interactions.

Discord gives an interaction one initial response within 3 s and a follow-up webhook for 15 min.
A double click, a slow event loop or a restart can make any of those calls fail; none of those
failures may crash a command or leave a table half-updated, so every call here logs and returns a
boolean instead of raising.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import Lazy, render, resolve, user_language

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


def _clip(content: str | None) -> str | None:
    """Discord refuses content over 2,000 characters: an answer that long is cut, never lost."""
    if content is None or len(content) <= MAX_CONTENT:
        return content
    return content[: MAX_CONTENT - 1] + "…"


def _text(interaction: discord.Interaction, content: Any, *, ephemeral: bool) -> str | None:
    """A lazy message (``bot.i18n``) in the reader's language: the clicking user's for an
    ephemeral answer, the server's (as Discord reports it) for a public one."""
    if content is None or not isinstance(content, Lazy):
        return _clip(content)
    lang = user_language(interaction) if ephemeral else resolve(getattr(interaction, "guild_locale", None))
    return _clip(render(content, lang))


_TOLERATED = (discord.NotFound, discord.HTTPException, discord.InteractionResponded)


async def safe_defer(
    interaction: discord.Interaction, *, ephemeral: bool = True, thinking: bool = False
) -> bool:
    """Acknowledge now, answer later (for work that may take more than a moment)."""
    if interaction.response.is_done():
        return False
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except _TOLERATED as exc:
        log.debug("defer failed for interaction %s: %s", interaction.id, exc)
        return False
    return True


async def safe_send(
    interaction: discord.Interaction, content: Any = None, *, ephemeral: bool = True, **kwargs: Any
) -> bool:
    """Answer the interaction: the initial response if still open, else a follow-up. A lazy
    message is rendered in the user's language (ephemeral) or the server's (public)."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    content = _text(interaction, content, ephemeral=ephemeral)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.followup.send(content or "", ephemeral=ephemeral, **kwargs)
    except _TOLERATED as exc:
        log.debug("send failed for interaction %s: %s", interaction.id, exc)
        return False
    return True


async def safe_edit(interaction: discord.Interaction, content: Any = None, **kwargs: Any) -> bool:
    """Update the message a component sits on (in place), falling back to editing the original
    (a lazy message in the user's language: the edited messages are their ephemeral panels)."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    content = _text(interaction, content, ephemeral=True)
    try:
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=content, **kwargs)
        else:
            await interaction.edit_original_response(content=content, **kwargs)
    except _TOLERATED as exc:
        log.debug("edit failed for interaction %s: %s", interaction.id, exc)
        return False
    return True


async def safe_modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
    """Open a modal if the interaction is still unanswered."""
    if interaction.response.is_done():
        return False
    try:
        await interaction.response.send_modal(modal)
    except _TOLERATED as exc:
        log.debug("modal failed for interaction %s: %s", interaction.id, exc)
        return False
    return True


async def safe_autocomplete(
    interaction: discord.Interaction, choices: list[discord.app_commands.Choice[str]]
) -> bool:
    """Answer an autocomplete request (at most 25 choices)."""
    if interaction.response.is_done():
        return False
    try:
        await interaction.response.autocomplete(choices[:25])
    except _TOLERATED as exc:
        log.debug("autocomplete failed for interaction %s: %s", interaction.id, exc)
        return False
    return True
