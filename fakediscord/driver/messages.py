"""Users posting (in channels and DMs) and reacting, and the messages each user sees."""

from __future__ import annotations

from discord import Permissions

from ..models import Channel, Message, User
from ..records import FakeDiscordUsageError
from ..state import FakeState
from ..store import MessageStore
from ..world import World


class UserMessages:
    """``say``, ``dm``, ``react``/``unreact``; ``public_messages``, ``ephemeral_messages``,
    ``visible_messages``, ``dm_messages``, ``bot_messages``, ``message``, ``pings``."""

    def __init__(self, state: FakeState, world: World, store: MessageStore) -> None:
        self.state = state
        self.world = world
        self.store = store

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message in ``channel`` (dispatched as MESSAGE_CREATE)."""
        self.world.check_member(user, channel)
        msg = self.store.new_message(channel, user, {"content": content})
        self.store.dispatch_message("MESSAGE_CREATE", msg)
        return msg

    async def dm(self, user: User, content: str) -> Message:
        """``user`` writes to the bot in DMs (MESSAGE_CREATE with the direct messages intent)."""
        msg = self.store.new_message(self.world.dm_channel(user), user, {"content": content})
        self.store.dispatch_message("MESSAGE_CREATE", msg)
        return msg

    async def react(self, user: User, message: Message, emoji: str) -> None:
        """``user`` adds reaction ``emoji`` ("♠", or "name:id" for a custom emoji) to ``message``."""
        channel = self.world.visible_component_message(user, message)
        if message.ephemeral:
            raise FakeDiscordUsageError("ephemeral messages cannot be reacted to")
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("reactions are only modelled in servers")
        may_add = channel.guild.member(user).permissions_in(channel) & Permissions(add_reactions=True).value
        if not may_add and emoji not in message.reactions:
            raise FakeDiscordUsageError(f"{user.username} may not add new reactions in #{channel.name}")
        users = message.reactions.setdefault(emoji, [])
        if user.id not in users:
            users.append(user.id)
            self.store.dispatch_reaction("MESSAGE_REACTION_ADD", user, message, emoji)

    async def unreact(self, user: User, message: Message, emoji: str) -> None:
        """``user`` removes their reaction ``emoji`` from ``message``."""
        users = message.reactions.get(emoji, [])
        if user.id not in users:
            raise FakeDiscordUsageError(f"{user.username} has not reacted with {emoji}")
        users.remove(user.id)
        if not users:
            del message.reactions[emoji]
        self.store.dispatch_reaction("MESSAGE_REACTION_REMOVE", user, message, emoji)

    def public_messages(self, channel: Channel) -> list[Message]:
        """The channel's messages everyone sees, oldest first, edits applied, deleted ones gone."""
        return [m for m in channel.messages if not m.ephemeral and not m.deleted]

    def ephemeral_messages(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What only ``user`` sees (in ``channel`` or anywhere), oldest first, edits applied."""
        return [
            m
            for m in self.state.messages.values()
            if m.ephemeral
            and not m.deleted
            and m.visible_to is user
            and (channel is None or m.channel is channel)
        ]

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """Everything ``user`` sees in ``channel``: public messages and their own ephemeral ones."""
        return [m for m in channel.messages if not m.deleted and (not m.ephemeral or m.visible_to is user)]

    def dm_messages(self, user: User) -> list[Message]:
        """The DM conversation between the bot and ``user``, oldest first, edits applied."""
        channel = self.state.dm_channels.get(user.id)
        return [] if channel is None else [m for m in channel.messages if not m.deleted]

    def bot_messages(self) -> list[Message]:
        """Every message the bot sent anywhere (public or ephemeral, including deleted), in order."""
        return [m for m in self.state.messages.values() if m.author is self.state.bot_user]

    def message(self, message_id: int) -> Message:
        return self.state.messages[message_id]

    def pings(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Messages that notified ``user`` (mentioned and allowed by ``allowed_mentions``), in order."""
        return [
            m
            for m in self.state.messages.values()
            if user.id in m.pinged and (channel is None or m.channel is channel)
        ]
