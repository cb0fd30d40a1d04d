"""The bot's reactions on messages: adding its own, removing its own or (with Manage Messages)
another user's, listing who reacted, clearing them."""

from __future__ import annotations

from typing import Any

from ..models import Channel, Message
from ..state import FakeState
from ..store import MessageStore
from .checks import Checks
from .wire import ApiError, Request, int_param


class ReactionRoutes:
    """``/channels/{channel_id}/messages/{message_id}/reactions/...``."""

    def __init__(self, state: FakeState, checks: Checks, store: MessageStore) -> None:
        self.state = state
        self.checks = checks
        self.store = store

    def _reaction_message(self, req: Request) -> tuple[Channel, Message, str]:
        channel = self.checks.channel(req)
        msg = self.checks.channel_message(channel, req)
        emoji = req.params["emoji"]
        return channel, msg, emoji

    async def add_reaction(self, req: Request) -> tuple[int, Any]:
        channel, msg, emoji = self._reaction_message(req)
        self.checks.need(channel, "view_channel", "read_message_history")
        users = msg.reactions.setdefault(emoji, [])
        if not users:
            self.checks.need(channel, "add_reactions")
        if self.state.bot_user.id not in users:
            users.append(self.state.bot_user.id)
            self.store.dispatch_reaction("MESSAGE_REACTION_ADD", self.state.bot_user, msg, emoji)
        return 204, None

    async def remove_reaction(self, req: Request) -> tuple[int, Any]:
        channel, msg, emoji = self._reaction_message(req)
        uid = self.state.bot_user.id if "user_id" not in req.params else int_param(req.params["user_id"])
        if uid != self.state.bot_user.id:
            self.checks.need(channel, "manage_messages")
        users = msg.reactions.get(emoji, [])
        if uid in users:
            users.remove(uid)
            if not users:
                del msg.reactions[emoji]
            self.store.dispatch_reaction("MESSAGE_REACTION_REMOVE", self.state.users[uid], msg, emoji)
        return 204, None

    async def reaction_users(self, req: Request) -> tuple[int, Any]:
        _, msg, emoji = self._reaction_message(req)
        if emoji not in msg.reactions:
            raise ApiError(404, 10014, "Unknown Emoji")
        return 200, [self.state.users[u].payload() for u in msg.reactions[emoji]]

    async def clear_reactions(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.channel(req)
        msg = self.checks.channel_message(channel, req)
        self.checks.need(channel, "manage_messages")
        msg.reactions.clear()
        return 204, None
