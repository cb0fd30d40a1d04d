"""Channels and their messages as the bot uses them: reading a channel, typing, opening a DM, listing,
sending (replies included), reading, editing and deleting messages, starting threads."""

from __future__ import annotations

from typing import Any

from ..models import EPHEMERAL, Channel, DMChannel
from ..state import FakeState
from ..store import MessageStore
from ..world import World
from .checks import Checks
from .wire import ApiError, Request, has_content, int_param


class ChannelRoutes:
    """``/channels/{channel_id}/...`` (messages, typing, threads) and ``/users/@me/channels`` (DMs)."""

    def __init__(self, state: FakeState, checks: Checks, world: World, store: MessageStore) -> None:
        self.state = state
        self.checks = checks
        self.world = world
        self.store = store

    async def get_channel(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.need_in(channel, "view_channel")
        return 200, channel.payload()

    async def typing(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.need_in(channel, "view_channel", "send_messages")
        return 204, None

    async def open_dm(self, req: Request) -> tuple[int, Any]:
        self.checks.check_body("POST", "/users/@me/channels", req.body)
        body = req.body or {}
        user = self.state.users.get(int_param(body.get("recipient_id", 0)))
        if user is None:
            raise ApiError(
                400, 50035, "Invalid Form Body", errors=["recipient_id: Unknown user"], violation=True
            )
        return 200, self.world.dm_channel(user).payload()

    async def list_messages(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.need_in(channel, "view_channel", "read_message_history")
        limit = int(req.query.get("limit", 50))
        if not 1 <= limit <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", errors=["limit: must be 1..100"], violation=True)
        msgs = [m for m in channel.messages if not m.ephemeral and not m.deleted]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int_param(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int_param(req.query["after"])]
            return 200, [m.payload() for m in reversed(msgs[:limit])]
        return 200, [m.payload() for m in reversed(msgs[-limit:])]

    async def create_message(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.check_body("POST", "/channels/{channel_id}/messages", req.body, kind="message")
        self.checks.need_in(
            channel, "view_channel", "send_messages_in_threads" if channel.is_thread else "send_messages"
        )
        if req.files:
            self.checks.need_in(channel, "attach_files")
        body = req.body or {}
        if not has_content(body) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        if body.get("flags") and int(body["flags"]) & EPHEMERAL:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=["flags: ephemeral only in interaction responses"],
                violation=True,
            )
        reference = body.get("message_reference")
        if reference and reference.get("fail_if_not_exists", True):
            target = self.state.messages.get(int_param(reference.get("message_id", 0)))
            if target is None or target.deleted or target.ephemeral:
                raise ApiError(400, 50035, "Invalid Form Body", errors=["message_reference: Unknown message"])
        if reference:  # Discord answers with string snowflakes and the reference's full address
            target_id = str(reference.get("message_id"))
            reference = {
                "type": reference.get("type", 0),
                "message_id": target_id,
                "channel_id": str(reference.get("channel_id") or channel.id),
                **({"guild_id": str(channel.guild.id)} if isinstance(channel, Channel) else {}),
            }
        msg = self.store.new_message(
            channel, self.state.bot_user, body, req.files, message_reference=reference or None
        )
        if reference:
            msg.type = 19
        self.store.dispatch_message("MESSAGE_CREATE", msg)
        return 200, msg.payload()

    async def get_message(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.need_in(channel, "view_channel", "read_message_history")
        return 200, self.checks.channel_message(channel, req).payload()

    async def edit_message(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        self.checks.check_body(
            "PATCH", "/channels/{channel_id}/messages/{message_id}", req.body, kind="message_edit"
        )
        msg = self.checks.channel_message(channel, req)
        body = req.body or {}
        if msg.author is not self.state.bot_user and set(body) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.store.apply_fields(msg, body, creating=False, files=req.files)
        self.store.dispatch_message("MESSAGE_UPDATE", msg)
        return 200, msg.payload()

    async def delete_message(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.target(req)
        msg = self.checks.channel_message(channel, req)
        if msg.author is not self.state.bot_user:
            if isinstance(channel, DMChannel):
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self.checks.need(channel, "manage_messages")
        msg.deleted = True
        self.store.dispatch_delete(msg)
        return 204, None

    async def create_thread(self, req: Request) -> tuple[int, Any]:
        channel = self.checks.channel(req)
        template = "/channels/{channel_id}/" + (
            "messages/{message_id}/threads" if "message_id" in req.params else "threads"
        )
        self.checks.check_body("POST", template, req.body)
        if channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = req.body or {}
        errors: list[str] = []
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append("name: Must be between 1 and 100 in length.")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        if "message_id" in req.params:
            msg = self.checks.channel_message(channel, req)
            self.checks.need(channel, "view_channel", "create_public_threads")
            if any(c.id == msg.id for c in channel.guild.channels.values()):
                raise ApiError(400, 160004, "A thread has already been created for this message")
            private = False
        else:
            msg = None
            private = body.get("type", 12) == 12
            self.checks.need(
                channel, "view_channel", "create_private_threads" if private else "create_public_threads"
            )
        thread = channel.guild.add_thread(
            channel, str(name), private=private, owner=self.state.bot_user, thread_id=msg.id if msg else None
        )
        return 201, thread.payload()
