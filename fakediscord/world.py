"""Building the world (guilds, users, DM channels), telling a connected bot about changes a test
makes to it, and checking that a user can act where a test says they do."""

from __future__ import annotations

from discord import Permissions

from .gateway import INTENT_GUILD_MEMBERS
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    MANAGE_GUILD,
    Channel,
    DMChannel,
    Guild,
    Json,
    Member,
    Message,
    Role,
    User,
)
from .records import FakeDiscordUsageError
from .state import FakeState


class World:
    """The world-building part of the driver API; it is the :class:`~.models.WorldHost` of its guilds."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.gateway = state.gateway
        self.clock = state.clock

    def _snowflake(self) -> int:
        return self.state.snowflake()

    def add_guild(
        self,
        name: str = "Test server",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        community: bool | None = None,
        id: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server with the bot in it (the bot gets a managed role with the usual bot permissions).

        ``shard=(i, n)`` gives it an id on shard ``i`` of ``n`` (``(id >> 22) % n == i``). A server
        with another ``locale`` than en-US has Community (only those choose one); ``community=True``
        gives an en-US server Community too."""
        owner = owner or self.state.owner
        guild_id = id or self.state.snowflake()
        if shard is not None and id is None:
            wanted, count = shard
            stamp = guild_id >> 22
            stamp += (wanted - stamp) % count
            guild_id = (stamp << 22) | (guild_id & 0x3FFFFF)
            self.state.snowflakes.skip_to(guild_id)
        guild = Guild(self, guild_id, name, owner, locale=locale, community=community)
        self.state.guilds[guild.id] = guild
        guild.members[owner.id] = Member(user=owner, guild=guild, joined_at=self.state.clock.iso())
        bot_role = Role(
            id=self.state.snowflake(),
            guild=guild,
            name=self.state.bot_user.global_name or self.state.bot_user.username,
            permissions=DEFAULT_BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.state.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.state.bot_user.id] = Member(
            user=self.state.bot_user, guild=guild, roles=[bot_role], joined_at=self.state.clock.iso()
        )
        if self.gateway.session is not None:
            self.gateway.dispatch("GUILD_CREATE", guild.payload())
        return guild

    def remove_guild(self, guild: Guild, *, outage: bool = False) -> None:
        """The bot is removed from ``guild`` (GUILD_DELETE); with ``outage`` the guild only becomes
        unavailable (GUILD_DELETE with ``unavailable: true``) and stays in the fake."""
        if not outage:
            del self.state.guilds[guild.id]
        if self.gateway.session is not None:
            self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id), "unavailable": outage})

    def add_user(
        self,
        username: str,
        *,
        global_name: str | None = None,
        guild: Guild | None = None,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: list[Role] | None = None,
        locale: str = "en-US",
        bot: bool = False,
        id: int | None = None,
    ) -> User:
        """A user, made a member of ``guild`` (or of every guild so far).

        ``manage_guild``/``administrator`` give the member a role with that permission.
        """
        user = User(
            id=id or self.state.snowflake(),
            username=username,
            global_name=global_name if global_name is not None else username.capitalize(),
            bot=bot,
            locale=locale,
        )
        self.state.users[user.id] = user
        for g in [guild] if guild is not None else list(self.state.guilds.values()):
            member_roles = [r for r in roles or [] if r.guild is g]
            if manage_guild or administrator:
                name = "Admin" if administrator else "Manager"
                role = next((r for r in g.roles.values() if r.name == name and not r.managed), None)
                if role is None:
                    perms = Permissions(administrator=True).value if administrator else MANAGE_GUILD
                    role = g.add_role(name, permissions=perms)
                member_roles.append(role)
            g.add_member(user, roles=member_roles)
        return user

    def member(self, user: User, guild: Guild | None = None) -> Member:
        guild = guild or self._only_guild()
        return guild.member(user)

    def _only_guild(self) -> Guild:
        if len(self.state.guilds) != 1:
            raise FakeDiscordUsageError("there is not exactly one guild: pass guild=")
        return next(iter(self.state.guilds.values()))

    def dm_channel(self, user: User) -> DMChannel:
        """The bot's DM channel with ``user`` (created on first use, as Discord does)."""
        channel = self.state.dm_channels.get(user.id)
        if channel is None:
            channel = self.state.dm_channels[user.id] = DMChannel(id=self.state.snowflake(), recipient=user)
        return channel

    # Hooks the models call so the bot hears about changes made while it is connected.
    def _channel_created(self, channel: Channel) -> None:
        if self.gateway.session is not None and channel.guild.id in self.state.guilds:
            event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
            data = channel.payload()
            if channel.is_thread:
                data["newly_created"] = True
            self.gateway.dispatch(event, data)

    def _channel_changed(self, channel: Channel) -> None:
        if self.gateway.session is not None:
            self.gateway.dispatch(
                "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload()
            )

    def _role_created(self, role: Role) -> None:
        if self.gateway.session is not None and role.guild.id in self.state.guilds:
            self.gateway.dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(role.guild.id), "role": role.payload()}
            )

    def _member_added(self, member: Member) -> None:
        if (
            self.gateway.session is not None
            and member.guild.id in self.state.guilds
            and self.gateway.intents & INTENT_GUILD_MEMBERS
        ):
            self.gateway.dispatch("GUILD_MEMBER_ADD", member.payload() | {"guild_id": str(member.guild.id)})

    def _member_updated(self, member: Member) -> None:
        if self.gateway.session is not None and self.gateway.intents & INTENT_GUILD_MEMBERS:
            self.gateway.dispatch(
                "GUILD_MEMBER_UPDATE", member.payload() | {"guild_id": str(member.guild.id)}
            )

    def _member_removed(self, member: Member) -> None:
        if self.gateway.session is not None and self.gateway.intents & INTENT_GUILD_MEMBERS:
            self.gateway.dispatch(
                "GUILD_MEMBER_REMOVE", {"guild_id": str(member.guild.id), "user": member.user.payload()}
            )

    def _channel_deleted(self, channel: Channel) -> None:
        if self.gateway.session is not None:
            self.gateway.dispatch(
                "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel.payload()
            )

    def dispatch(self, event: str, data: Json) -> None:
        """Push any gateway dispatch event to the bot (delivered in order, replayed on RESUME)."""
        self.gateway.dispatch(event, data)

    # What the Discord client lets a user do: be in the guild, see the channel or message.
    def check_member(self, user: User, channel: Channel) -> Member:
        if channel.guild.id not in self.state.guilds:
            raise FakeDiscordUsageError(f"{channel!r} is not in a known guild")
        if channel.id not in channel.guild.channels:
            raise FakeDiscordUsageError(f"#{channel.name} was deleted")
        member = channel.guild.members.get(user.id)
        if member is None:
            raise FakeDiscordUsageError(f"{user.username} is not a member of {channel.guild.name!r}")
        if not member.permissions_in(channel) & Permissions(view_channel=True).value:
            raise FakeDiscordUsageError(f"{user.username} cannot see #{channel.name}")
        return member

    def visible_component_message(self, user: User, message: Message) -> Channel | DMChannel:
        if message.deleted:
            raise FakeDiscordUsageError(f"message {message.id} was deleted")
        if message.ephemeral and message.visible_to is not user:
            raise FakeDiscordUsageError(f"{user.username} cannot see ephemeral message {message.id}")
        channel = message.channel
        if not isinstance(channel, Channel | DMChannel):
            raise FakeDiscordUsageError("message has no channel")
        if isinstance(channel, DMChannel):
            if channel.recipient is not user:
                raise FakeDiscordUsageError(f"{user.username} cannot see {channel.name}")
        else:
            self.check_member(user, channel)
        if message.loading:
            raise FakeDiscordUsageError(
                f"message {message.id} is still 'thinking' (deferred, not yet edited)"
            )
        return channel
