"""The channel side of the publisher: what a table's posts and live message go out through
(``Publisher``: Discord in production, a recorder in unit tests) and its Discord implementation.

Every request here uses the bot token, so it is counted by Discord's global rate limit; the
``TablePublisher`` takes a slot of the ``GlobalBudget`` before calling these.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import discord

log = logging.getLogger(__name__)

REFUSALS_TO_STOP = 2  # posts refused in a row (403, or the channel gone) before a table stops there


class Unsent(Exception):
    """Discord refused a post or an edit for now (rate limited, or a server error): try again."""


def _transient(exc: discord.HTTPException) -> bool:
    return exc.status == 429 or exc.status >= 500


Picture = tuple[str, bytes]  # a file name and PNG bytes


class Publisher(Protocol):
    """How the service talks to channels (Discord in production, a recorder in unit tests)."""

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[Picture] = (),
    ) -> int | None: ...

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool: ...

    async def delete(self, channel_id: int, message_id: int) -> bool: ...


class DiscordPublisher:
    """Publisher over the bot's HTTP client; never pings anyone unless ``mention`` names them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        # told the channel where Discord refused posts for a missing permission (403) twice in a row
        self.on_forbidden: Callable[[int], None] | None = None
        self._refusals: dict[int, int] = {}

    async def dm(self, user_id: int, content: str) -> bool:
        """A direct message (the host of a table the bot can no longer post at); False if refused."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not message user %s: %s", user_id, exc.status)
            return False
        return True

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[Picture] = (),
    ) -> int | None:
        channel = self.bot.get_partial_messageable(channel_id)
        # A ping notifies exactly that one user, even if the text names others.
        allowed = (
            discord.AllowedMentions(
                users=[discord.Object(mention)], roles=False, everyone=False, replied_user=False
            )
            if mention
            else discord.AllowedMentions.none()
        )
        extra: dict[str, Any] = {}
        if view is not None:
            extra["view"] = view
        if files:
            extra["files"] = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
        try:
            msg = await channel.send(content, allowed_mentions=allowed, **extra)
        except discord.Forbidden as exc:
            if files:
                # no Attach Files permission there: the post matters more than its picture
                log.warning(
                    "posting pictures in channel %s is not allowed (%s): posting the text alone",
                    channel_id,
                    exc.code,
                )
                return await self.send(channel_id, content, view=view, mention=mention)
            log.warning("posting in channel %s failed: %s (%s)", channel_id, exc.status, exc.code)
            self._refused(channel_id)
            return None
        except discord.NotFound as exc:  # the channel was deleted
            log.warning("posting in channel %s failed: %s (%s)", channel_id, exc.status, exc.code)
            self._refused(channel_id)
            return None
        except discord.HTTPException as exc:
            if _transient(exc):
                raise Unsent(f"posting in channel {channel_id}: {exc.status}") from exc
            log.warning("posting in channel %s failed: %s", channel_id, exc.status)
            return None
        self._refusals.pop(channel_id, None)
        return msg.id

    def _refused(self, channel_id: int) -> None:
        """A post refused for a missing permission (or a deleted channel): once is a glitch, the
        second time in a row the channel is lost to the bot and its table must stop."""
        self._refusals[channel_id] = self._refusals.get(channel_id, 0) + 1
        if self._refusals[channel_id] >= REFUSALS_TO_STOP and self.on_forbidden is not None:
            self._refusals.pop(channel_id, None)
            self.on_forbidden(channel_id)

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.edit(content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            if _transient(exc):
                raise Unsent(f"editing message {message_id}: {exc.status}") from exc
            log.warning("editing message %s failed: %s", message_id, exc.status)
            return False
        return True

    async def delete(self, channel_id: int, message_id: int) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.delete()
        except discord.HTTPException:
            return False
        return True
