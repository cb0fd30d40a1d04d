"""The checks REST handlers share before they act: the resource a route names (404 with Discord's
code), whether the bot may act on it (403/50013, 50007 for DMs), and the request body (the OpenAPI
spec, the documented limits, component emojis: 400/50035)."""

from __future__ import annotations

from typing import Any

from discord import Permissions

from .. import uploads, validation
from ..models import Channel, DMChannel, Guild, Json, Message, User
from ..state import FakeState
from .wire import ApiError, Request, int_param


class Checks:
    """Lookups, permission and body checks; every resource's handlers call them."""

    def __init__(self, state: FakeState) -> None:
        self.state = state

    def scope(self, req: Request) -> int | None:
        if int_param(req.params["application_id"]) != self.state.application_id:
            raise ApiError(403, 50001, "Missing Access", violation=True, kind="wrong_application")
        gid = req.params.get("guild_id")
        if gid is None:
            return None
        if int_param(gid) not in self.state.guilds:
            raise ApiError(403, 50001, "Missing Access", violation=True, kind="unknown_guild")
        return int_param(gid)

    def guild(self, req: Request) -> Guild:
        guild = self.state.guilds.get(int_param(req.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def channel(self, req: Request) -> Channel:
        cid = int_param(req.params["channel_id"])
        for guild in self.state.guilds.values():
            if cid in guild.channels:
                return guild.channels[cid]
        raise ApiError(404, 10003, "Unknown Channel")

    def target(self, req: Request) -> Channel | DMChannel:
        """A guild channel or one of the bot's DM channels."""
        cid = int_param(req.params["channel_id"])
        dm = next((d for d in self.state.dm_channels.values() if d.id == cid), None)
        return dm if dm is not None else self.channel(req)

    def channel_message(self, channel: Channel | DMChannel, req: Request) -> Message:
        msg = self.state.messages.get(int_param(req.params["message_id"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel is not channel:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def need(self, channel: Channel, *perms: str) -> None:
        have = channel.guild.member(self.state.bot_user).permissions_in(channel)
        missing = [p for p in perms if not have & Permissions(**{p: True}).value]
        if missing:
            raise ApiError(403, 50013, f"Missing Permissions ({', '.join(missing)} in #{channel.name})")

    def need_in(self, target: Channel | DMChannel, *perms: str) -> None:
        if isinstance(target, Channel):
            self.need(target, *perms)
        elif "send_messages" in perms:
            self.check_dm_allowed(target.recipient)

    def check_dm_allowed(self, user: User) -> None:
        shares_guild = any(user.id in g.members for g in self.state.guilds.values())
        if user.bot or not user.dms_open or not shares_guild:
            raise ApiError(403, 50007, "Cannot send messages to this user")

    def check_body(self, method: str, template: str, body: Any, *, kind: str | None = None) -> None:
        """OpenAPI schema plus the documented limits the schema leaves out; raises ApiError 50035."""
        if kind in ("message", "message_edit") and isinstance(body, dict):
            self.check_emojis(body)
        if not self.state.validate:
            return
        errors = validation.validate_request(method, template, body)
        if kind is not None and isinstance(body, dict):
            errors += validation.check_limits(kind, body)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)

    def check_emojis(self, body: Json, where: str = "") -> None:
        """A custom emoji on a component must be one Discord knows (here: the application's)."""
        errors = uploads.component_emoji_errors(body.get("components"), set(self.state.app_emojis))
        if errors:
            errors = [where + e for e in errors]
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
