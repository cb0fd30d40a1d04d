"""Messages as the fake keeps them: creating and editing them (fields, mentions and who they
notify, attachments), and the gateway events that tell the bot about them (with the intents it
asked for: message content, DMs, reactions)."""

from __future__ import annotations

import re
from typing import Any

from discord import Permissions

from . import uploads, validation
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGE_REACTIONS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
)
from .models import EPHEMERAL, IS_COMPONENTS_V2, LOADING, Channel, DMChannel, Json, Message, User
from .records import FakeDiscordUsageError
from .state import FakeState

ALLOWED_MESSAGE_FLAGS = 4 | EPHEMERAL | 4096 | IS_COMPONENTS_V2


class MessageStore:
    """Where messages are made and changed; every sender (REST, interactions, users) goes through it."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.gateway = state.gateway
        #: the bytes of every uploaded attachment, by attachment id (``attachment_bytes``)
        self.attachment_data: dict[str, bytes] = {}

    def new_message(
        self,
        channel: Channel | DMChannel,
        author: User,
        body: Json,
        files: list[Json] | None = None,
        **extra: Any,
    ) -> Message:
        msg = Message(
            id=self.state.snowflake(),
            channel=channel,
            author=author,
            timestamp=self.state.clock.iso(),
            bot_id=self.state.bot_user.id,
            **extra,
        )
        self.apply_fields(msg, body, creating=True, files=files)
        self.state.messages[msg.id] = msg
        channel.messages.append(msg)
        return msg

    def apply_fields(
        self,
        msg: Message,
        body: Json,
        *,
        creating: bool,
        files: list[Json] | None = None,
        notify: bool | None = None,
    ) -> None:
        """Apply a create/edit body; a create (or ``notify``) notifies the users it mentions."""
        if not creating:
            msg.history.append(msg.snapshot())
            msg.edited_timestamp = self.state.clock.iso()
        if files or "attachments" in body:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = (
                [a for a in msg.attachments if a["id"] in keep] if "attachments" in body else msg.attachments
            )
            msg.attachments = kept + [self._attachment(msg, f) for f in files or []]
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [validation.normalize_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            msg.components = validation.normalize_components(body["components"] or [])
        if body.get("flags") is not None:
            fixed = msg.flags & (EPHEMERAL | IS_COMPONENTS_V2)  # neither can change after sending
            wanted = int(body["flags"]) & ALLOWED_MESSAGE_FLAGS
            if not creating:  # (an edit's ephemeral flag, or a follow-up's that fills a "thinking")
                wanted &= ~EPHEMERAL
            msg.flags = wanted | fixed
        msg.flags &= ~LOADING if not creating else ~0
        if "content" in body or "allowed_mentions" in body:
            notify = creating if notify is None else notify
            self._resolve_mentions(msg, body.get("allowed_mentions"), notify=notify)

    def _resolve_mentions(self, msg: Message, allowed: Json | None, *, notify: bool) -> None:
        """Who the content mentions, filtered by ``allowed_mentions`` (absent: everything parses)."""
        parse = set(allowed.get("parse", [])) if allowed is not None else {"users", "roles", "everyone"}
        allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
        allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
        guild = msg.channel.guild if isinstance(msg.channel, Channel) else None
        users: list[User] = []
        for raw in re.findall(r"<@!?(\d+)>", msg.content):
            user = self.state.users.get(int(raw))
            if user is not None and user not in users and ("users" in parse or user.id in allowed_users):
                users.append(user)
        roles = [
            int(raw)
            for raw in re.findall(r"<@&(\d+)>", msg.content)
            if guild is not None
            and int(raw) in guild.roles
            and ("roles" in parse or int(raw) in allowed_roles)
        ]
        everyone = "everyone" in parse and ("@everyone" in msg.content or "@here" in msg.content)
        if everyone and guild is not None and msg.author.id in guild.members:
            where = msg.channel if isinstance(msg.channel, Channel) else None
            everyone = bool(
                guild.member(msg.author).permissions_in(where) & Permissions(mention_everyone=True).value
            )
        msg.mentions, msg.mention_roles, msg.mention_everyone = users, roles, everyone
        if not notify or msg.ephemeral or msg.flags & 4096:  # 4096: SUPPRESS_NOTIFICATIONS
            return
        pinged = {u.id for u in users}
        if guild is not None:
            for member in guild.members.values():
                if everyone or any(r.id in roles for r in member.roles):
                    pinged.add(member.id)
        pinged.discard(msg.author.id)
        msg.pinged = sorted(pinged)

    def _attachment(self, msg: Message, upload: Json) -> Json:
        aid = self.state.snowflake()
        filename = str(upload.get("filename") or "file")
        channel_id = msg.channel.id if msg.channel else 0
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{filename}"
        data = upload.get("data") or b""
        # Discord reports what the bytes are, not what the client claimed (discord.py sends
        # application/octet-stream), and the size of an image
        sniffed, width, height = uploads.sniff(data)
        attachment: Json = {
            "id": str(aid),
            "filename": filename,
            "size": int(upload.get("size", len(data))),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": sniffed or upload.get("content_type") or "application/octet-stream",
        }
        if width is not None:
            attachment |= {"width": width, "height": height}
        self.attachment_data[str(aid)] = bytes(data)
        return attachment

    def attachment_bytes(self, attachment: Json | str | int) -> bytes:
        """The bytes the bot uploaded for an attachment (its payload dict or its id)."""
        aid = str(attachment["id"] if isinstance(attachment, dict) else attachment)
        try:
            return self.attachment_data[aid]
        except KeyError:
            raise FakeDiscordUsageError(f"no attachment {aid} was uploaded") from None

    def cdn_file(self, path: str) -> tuple[bytes, str] | None:
        """What Discord's CDN answers for ``path`` (bytes, content type), or None: an application
        emoji's image (``emojis/{id}.png``, also ``.webp`` and ``.gif``) or an uploaded attachment
        (``attachments/{channel_id}/{attachment_id}/{filename}``)."""
        parts = path.strip("/").split("/")
        if len(parts) == 2 and parts[0] == "emojis":
            stem = parts[1].rsplit(".", 1)[0]
            image = self.state.app_emoji_images.get(int(stem)) if stem.isdigit() else None
            if image is None:
                return None
            return image, uploads.sniff(image)[0] or "application/octet-stream"
        if len(parts) == 4 and parts[0] == "attachments":
            data = self.attachment_data.get(parts[2])
            if data is None:
                return None
            return data, uploads.sniff(data)[0] or "application/octet-stream"
        return None

    def dispatch_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral or msg.channel is None:
            return
        if isinstance(msg.channel, DMChannel):
            if self.gateway.intents & INTENT_DIRECT_MESSAGES:  # DMs always carry their content
                self.gateway.dispatch(event, msg.payload())
            return
        if not self.gateway.intents & INTENT_GUILD_MESSAGES or not isinstance(msg.channel, Channel):
            return
        data = msg.payload()
        mentioned = f"<@{self.state.bot_user.id}>" in msg.content
        privileged = bool(self.gateway.intents & INTENT_MESSAGE_CONTENT)
        if not privileged and msg.author is not self.state.bot_user and not mentioned:
            data.update(content="", embeds=[], components=[], attachments=[])  # privileged intent missing
        member = msg.channel.guild.members.get(msg.author.id)
        if member is not None:
            data["member"] = member.payload(with_user=False)
        self.gateway.dispatch(event, data)

    def dispatch_delete(self, msg: Message) -> None:
        if msg.ephemeral or msg.channel is None:
            return
        data: Json = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        if isinstance(msg.channel, DMChannel):
            if self.gateway.intents & INTENT_DIRECT_MESSAGES:
                self.gateway.dispatch("MESSAGE_DELETE", data)
        elif self.gateway.intents & INTENT_GUILD_MESSAGES:
            self.gateway.dispatch("MESSAGE_DELETE", data | {"guild_id": str(msg.channel.guild_id)})

    def dispatch_reaction(self, event: str, user: User, msg: Message, emoji: str) -> None:
        if not self.gateway.intents & INTENT_GUILD_MESSAGE_REACTIONS or not isinstance(msg.channel, Channel):
            return
        name, _, eid = emoji.partition(":")
        data: Json = {
            "user_id": str(user.id),
            "channel_id": str(msg.channel.id),
            "message_id": str(msg.id),
            "guild_id": str(msg.channel.guild.id),
            "emoji": {"id": eid or None, "name": name},
            "burst": False,
            "type": 0,
        }
        if event == "MESSAGE_REACTION_ADD":
            data["message_author_id"] = str(msg.author.id)
            member = msg.channel.guild.members.get(user.id)
            if member is not None:
                data["member"] = member.payload()
        self.gateway.dispatch(event, data)
