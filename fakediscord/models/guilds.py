"""A server and what lives in it: roles, members (and the permissions they imply), channels and
threads, scheduled events.

Every object renders itself as the complete JSON payload Discord would send, because discord.py drops
the gateway connection on a payload with a missing key (a member without ``flags``, for instance).
A guild reaches the fake that owns it only through :class:`WorldHost`: the clock, new ids, and hooks
that tell a connected bot about a change made by a test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from discord import Permissions

from ..clock import FakeClock
from .constants import (
    ADMINISTRATOR,
    DEFAULT_EVERYONE_PERMISSIONS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    Json,
)
from .messages import Message
from .users import User


class WorldHost(Protocol):
    """What the guild objects need from the fake that owns them (the fake's ``World`` is one)."""

    clock: FakeClock

    def _snowflake(self) -> int: ...
    def _channel_created(self, channel: Channel) -> None: ...
    def _channel_changed(self, channel: Channel) -> None: ...
    def _channel_deleted(self, channel: Channel) -> None: ...
    def _role_created(self, role: Role) -> None: ...
    def _member_added(self, member: Member) -> None: ...
    def _member_updated(self, member: Member) -> None: ...
    def _member_removed(self, member: Member) -> None: ...


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
    def guild_id(self) -> int:
        return self.guild.id

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
class ScheduledEvent:
    """A guild scheduled event as the bot created it (the stored payload is what the bot gets back)."""

    id: int
    guild: Guild
    data: Json
    interested: list[User] = field(default_factory=list)  # who marked it "Interested", in order

    @property
    def name(self) -> str:
        return str(self.data.get("name", ""))

    @property
    def status(self) -> int:
        return int(self.data.get("status", 1))

    def mark_interested(self, user: User) -> None:
        """``user`` clicks "Interested" on the event (once; the user count follows)."""
        if user not in self.interested:
            self.interested.append(user)
            self.data["user_count"] = len(self.interested)


class Guild:
    """A server. Create with :meth:`FakeDiscord.add_guild`; the bot joins it with its own role."""

    def __init__(
        self,
        fake: WorldHost,
        id: int,
        name: str,
        owner: User,
        locale: str = "en-US",
        community: bool | None = None,
    ) -> None:
        self.fake = fake
        self.id = id
        self.name = name
        self.owner_id = owner.id
        # Discord lets only a Community server choose its language: any other reports en-US
        self.community = locale != "en-US" if community is None else community
        if not self.community and locale != "en-US":
            raise ValueError("a server without Community reports en-US as its preferred locale")
        self.preferred_locale = locale
        self.roles: dict[int, Role] = {id: Role(id=id, guild=self, name="@everyone", permissions=0)}
        self.everyone.permissions = DEFAULT_EVERYONE_PERMISSIONS
        self.channels: dict[int, Channel] = {}
        self.members: dict[int, Member] = {}
        self.scheduled_events: dict[int, ScheduledEvent] = {}
        self.joined_at = fake.clock.iso()

    @property
    def features(self) -> list[str]:
        return ["COMMUNITY"] if self.community else []

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
            "features": self.features,
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
