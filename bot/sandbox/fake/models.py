"""The fake's world: users, guilds, roles, members, channels, threads and messages.

Every object renders itself as the complete JSON payload Discord would send, because discord.py drops
the gateway connection on a payload with a missing key (a member without ``flags``, for instance).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from discord import Permissions

if TYPE_CHECKING:
    from .fake import FakeDiscord

Json = dict[str, Any]

#: What a bot invited with the usual "send messages, embed links, read history" scopes gets.
DEFAULT_BOT_PERMISSIONS = Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    manage_messages=True,
    manage_events=True,
    create_events=True,
    use_application_commands=True,
).value

#: @everyone in a freshly created server.
DEFAULT_EVERYONE_PERMISSIONS = Permissions.general().value | Permissions.text().value
DEFAULT_EVERYONE_PERMISSIONS &= ~(
    Permissions(
        manage_channels=True,
        manage_roles=True,
        manage_guild=True,
        manage_webhooks=True,
        manage_expressions=True,
        view_audit_log=True,
        view_guild_insights=True,
        manage_messages=True,
        manage_threads=True,
        mention_everyone=True,
        send_tts_messages=True,
        administrator=True,
        kick_members=True,
        ban_members=True,
        moderate_members=True,
        manage_events=True,
        create_expressions=True,
    ).value
)
#: What Discord reports as the app's permissions in a DM with the bot.
DM_APP_PERMISSIONS = Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
ADMINISTRATOR = Permissions(administrator=True).value
MANAGE_GUILD = Permissions(manage_guild=True).value

TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class User:
    """A Discord account. ``global_name`` is the display name, ``username`` the unique handle."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    #: False: the user blocks DMs from server members (the bot's DMs answer 403/50007)
    dms_open: bool = True

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
            "collectibles": None,
            "display_name_styles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.username} id={self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild: Guild
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "name": self.name,
            "description": None,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    """A user's membership of a guild: roles, nickname and the permissions they imply."""

    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = ""

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def base_permissions(self) -> int:
        """Guild-level permissions (owner and administrator get everything)."""
        if self.user.id == self.guild.owner_id:
            return Permissions.all().value
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR:
            return Permissions.all().value
        return value

    def permissions_in(self, channel: Channel | None) -> int:
        """Permissions in a channel, with overwrites applied as Discord documents it."""
        base = self.base_permissions
        if channel is None or base & ADMINISTRATOR or self.user.id == self.guild.owner_id:
            return base
        target = channel.parent if channel.is_thread and channel.parent is not None else channel
        value = base
        everyone = target.overwrites.get(self.guild.id)
        if everyone:
            value = (value & ~everyone[1]) | everyone[0]
        allow = deny = 0
        for role in self.roles:
            ow = target.overwrites.get(role.id)
            if ow:
                allow |= ow[0]
                deny |= ow[1]
        value = (value & ~deny) | allow
        mine = target.overwrites.get(self.user.id)
        if mine:
            value = (value & ~mine[1]) | mine[0]
        if not value & Permissions(view_channel=True).value:
            return 0
        return value

    def payload(self, *, with_user: bool = True, permissions_in: Channel | None = None) -> Json:
        data: Json = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "unusual_dm_activity_until": None,
            "collectibles": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions_in is not None:
            data["permissions"] = str(self.permissions_in(permissions_in))
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel or a thread (``type`` 11 public, 12 private) under a text channel."""

    id: int
    guild: Guild
    name: str
    type: int = TEXT_CHANNEL
    parent: Channel | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    #: target id (role, member or the guild id for @everyone) -> (allow, deny)
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    archived: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (10, PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def add_thread(self, name: str, *, private: bool = False, owner: User | None = None) -> Channel:
        """A thread under this text channel (visible to the bot on the next GUILD_CREATE or at once)."""
        if self.is_thread:
            raise ValueError("threads cannot have threads")
        return self.guild.add_thread(self, name, private=private, owner=owner)

    def set_permissions(self, target: User | Role | Guild, *, allow: int = 0, deny: int = 0) -> None:
        """Set a permission overwrite (``target`` a member's user, a role, or the guild for @everyone)."""
        if self.is_thread:
            raise ValueError("threads inherit their parent's overwrites")
        self.overwrites[target.id] = (allow, deny)
        self.guild.fake._channel_changed(self)

    def payload(self) -> Json:
        last = next((m.id for m in reversed(self.messages) if not m.ephemeral and not m.deleted), None)
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "nsfw": False,
            "flags": 0,
            "rate_limit_per_user": 0,
            "last_message_id": None if last is None else str(last),
            "last_pin_timestamp": None,
        }
        if self.is_thread:
            assert self.parent is not None
            created = self.guild.fake.clock.iso()
            data.update(
                parent_id=str(self.parent.id),
                owner_id=str(self.owner_id or self.guild.owner_id),
                member_count=1,
                message_count=len(self.messages),
                total_message_sent=len(self.messages),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": created,
                    "locked": False,
                    "create_timestamp": created,
                    **({"invitable": True} if self.type == PRIVATE_THREAD else {}),
                },
                applied_tags=[],
            )
        else:
            data.update(
                position=self.position,
                parent_id=None,
                topic=self.topic,
                default_thread_rate_limit_per_user=0,
                default_auto_archive_duration=4320,
                permission_overwrites=[
                    {
                        "id": str(target),
                        "type": 0 if target == self.guild.id or target in self.guild.roles else 1,
                        "allow": str(allow),
                        "deny": str(deny),
                    }
                    for target, (allow, deny) in self.overwrites.items()
                ],
            )
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name} id={self.id} type={self.type}>"


@dataclass(eq=False)
class DMChannel:
    """The bot's direct-message channel with one user."""

    id: int
    recipient: User
    messages: list[Message] = field(default_factory=list)
    type: int = 1
    is_thread = False

    @property
    def name(self) -> str:
        return f"DM with {self.recipient.username}"

    def payload(self) -> Json:
        last = next((m.id for m in reversed(self.messages) if not m.ephemeral and not m.deleted), None)
        return {
            "id": str(self.id),
            "type": 1,
            "last_message_id": None if last is None else str(last),
            "recipients": [self.recipient.payload()],
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<DMChannel with {self.recipient.username} id={self.id}>"


@dataclass(eq=False)
class ScheduledEvent:
    """A guild scheduled event as the bot created it (the stored payload is what the bot gets back)."""

    id: int
    guild: Guild
    data: Json

    @property
    def name(self) -> str:
        return str(self.data.get("name", ""))


class Guild:
    """A server. Create with :meth:`FakeDiscord.add_guild`; the bot joins it with its own role."""

    def __init__(self, fake: FakeDiscord, id: int, name: str, owner: User, locale: str = "en-US") -> None:
        self.fake = fake
        self.id = id
        self.name = name
        self.owner_id = owner.id
        self.preferred_locale = locale
        self.roles: dict[int, Role] = {id: Role(id=id, guild=self, name="@everyone", permissions=0)}
        self.everyone.permissions = DEFAULT_EVERYONE_PERMISSIONS
        self.channels: dict[int, Channel] = {}
        self.members: dict[int, Member] = {}
        self.scheduled_events: dict[int, ScheduledEvent] = {}
        self.joined_at = fake.clock.iso()

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if not c.is_thread]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def add_role(
        self, name: str, *, permissions: int = 0, managed: bool = False, bot_id: int | None = None
    ) -> Role:
        role = Role(
            id=self.fake._snowflake(),
            guild=self,
            name=name,
            permissions=permissions,
            position=len(self.roles),
            managed=managed,
            bot_id=bot_id,
        )
        self.roles[role.id] = role
        self.fake._role_created(role)
        return role

    def add_text_channel(self, name: str, *, topic: str | None = None, id: int | None = None) -> Channel:
        channel = Channel(
            id=id or self.fake._snowflake(),
            guild=self,
            name=name,
            topic=topic,
            position=len(self.text_channels),
        )
        self.channels[channel.id] = channel
        self.fake._channel_created(channel)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        private: bool = False,
        owner: User | None = None,
        thread_id: int | None = None,
    ) -> Channel:
        """A thread under ``parent`` (``thread_id``: a thread started from that message shares its id)."""
        thread = Channel(
            id=thread_id or self.fake._snowflake(),
            guild=self,
            name=name,
            type=PRIVATE_THREAD if private else PUBLIC_THREAD,
            parent=parent,
            owner_id=(owner.id if owner else self.owner_id),
        )
        self.channels[thread.id] = thread
        self.fake._channel_created(thread)
        return thread

    def add_member(self, user: User, *, roles: list[Role] | None = None, nick: str | None = None) -> Member:
        member = Member(
            user=user, guild=self, roles=list(roles or []), nick=nick, joined_at=self.fake.clock.iso()
        )
        self.members[user.id] = member
        self.fake._member_added(member)
        return member

    def set_roles(self, user: User, roles: list[Role]) -> Member:
        """Replace a member's roles (GUILD_MEMBER_UPDATE reaches the bot if it asked for members)."""
        member = self.member(user)
        member.roles = [r for r in roles if r.guild is self and r.id != self.id]
        self.fake._member_updated(member)
        return member

    def remove_member(self, user: User) -> None:
        """The user leaves the server (GUILD_MEMBER_REMOVE)."""
        member = self.members.pop(self.member(user).id)
        self.fake._member_removed(member)

    def remove_channel(self, channel: Channel) -> None:
        """Delete a channel (and its threads) as an admin would; the bot gets CHANNEL_DELETE."""
        for thread in [c for c in self.channels.values() if c.parent is channel]:
            self.remove_channel(thread)
        del self.channels[channel.id]
        self.fake._channel_deleted(channel)

    def member(self, user: User | int) -> Member:
        uid = user if isinstance(user, int) else user.id
        try:
            return self.members[uid]
        except KeyError:
            raise KeyError(f"user {uid} is not a member of guild {self.name!r}") from None

    def payload(self, *, full: bool = True) -> Json:
        data: Json = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "widget_enabled": False,
            "widget_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_presences": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw": False,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": False,
            "safety_alerts_channel_id": None,
            "incidents_data": None,
            "latest_onboarding_question_id": None,
            "home_header": None,
            "hub_type": None,
            "inventory_settings": None,
        }
        if full:
            data.update(
                joined_at=self.joined_at,
                large=False,
                unavailable=False,
                member_count=len(self.members),
                voice_states=[],
                members=[m.payload() for m in self.members.values()],
                channels=[c.payload() for c in self.channels.values() if not c.is_thread],
                threads=[c.payload() for c in self.channels.values() if c.is_thread],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[e.data for e in self.scheduled_events.values()],
                soundboard_sounds=[],
                lazy=True,
                embedded_activities=[],
                activity_instances=[],
                application_command_counts={},
                version=0,
            )
        return data

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"


@dataclass(eq=False)
class Message:
    """A message as users see it: edits are applied in place, ``history`` keeps earlier versions.

    ``visible_to`` is the one user who sees an ephemeral message (``None`` for public messages).
    """

    id: int
    channel: Channel | DMChannel | None
    author: User
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    visible_to: User | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: Json | None = None
    message_reference: Json | None = None
    deleted: bool = False
    history: list[Json] = field(default_factory=list)
    bot_id: int = 0
    #: Uploaded files: ``id``, ``filename``, ``size``, ``url``, ``content_type`` (no contents kept).
    attachments: list[Json] = field(default_factory=list)
    #: Users the content mentions (as ``allowed_mentions`` lets through), roles, @everyone.
    mentions: list[User] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    #: Ids of the users this message notified when it was sent (edits never notify).
    pinged: list[int] = field(default_factory=list)
    #: emoji ("♠" or "name:id") -> ids of the users who reacted, in order
    reactions: dict[str, list[int]] = field(default_factory=dict)

    def reaction_payloads(self, me: int) -> list[Json]:
        out = []
        for emoji, users in self.reactions.items():
            name, _, eid = emoji.partition(":")
            out.append(
                {
                    "emoji": {"id": eid or None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": me in users,
                    "me_burst": False,
                    "burst_colors": [],
                    "burst_count": 0,
                }
            )
        return out

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking" (not yet edited)."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.history)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for assertions that should not care where text sits."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
            if embed.get("author", {}).get("name"):
                parts.append(embed["author"]["name"])
            if embed.get("footer", {}).get("text"):
                parts.append(embed["footer"]["text"])
        for comp in iter_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def iter_components(self) -> Iterator[Json]:
        return iter_components(self.components)

    @property
    def buttons(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(
        self, *, label: str | None = None, custom_id: str | None = None, type: int | None = None
    ) -> Json:
        """The one component matching ``label`` and/or ``custom_id`` (raises if none or several)."""
        if label is None and custom_id is None:
            raise ValueError("give a label or a custom_id")
        found = [
            c
            for c in self.iter_components()
            if (type is None or c.get("type") == type)
            and (label is None or c.get("label") == label or c.get("placeholder") == label)
            and (custom_id is None or c.get("custom_id") == custom_id)
        ]
        if not found:
            what = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
            have = [
                (c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in self.iter_components()
            ]
            raise LookupError(f"message {self.id} has no component with {what}; it has {have}")
        if len(found) > 1:
            raise LookupError(f"message {self.id} has {len(found)} components matching; use custom_id")
        return found[0]

    def snapshot(self) -> Json:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
            "attachments": copy.deepcopy(self.attachments),
        }

    def payload(self) -> Json:
        channel_id = self.channel.id if self.channel is not None else 0
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "mention_channels": [],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "reactions": self.reaction_payloads(self.bot_id),
            "pinned": False,
            "flags": self.flags,
            "components": copy.deepcopy(self.components),
        }
        if isinstance(self.channel, Channel):
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.message_reference is not None:
            data["message_reference"] = copy.deepcopy(self.message_reference)
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message id={self.id}{flags} content={self.content[:40]!r} embeds={len(self.embeds)}>"


def iter_components(components: list[Json]) -> Iterator[Json]:
    """Every component, depth first, through action rows, sections, containers and accessories."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from iter_components(comp["components"])
        if "accessory" in comp:
            yield from iter_components([comp["accessory"]])
