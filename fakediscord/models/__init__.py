"""The fake's world: users, guilds, roles, members, channels, threads, DMs and messages.

``constants`` (permission sets, channel types, flags) -> ``users`` -> ``messages`` -> ``dms`` ->
``guilds``; each object renders itself as the payload Discord sends.
"""

from .constants import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_GUILD,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    Json,
)
from .dms import DMChannel
from .guilds import Channel, Guild, Member, Role, ScheduledEvent, WorldHost
from .messages import Message, Place, iter_components
from .users import User

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "DM_APP_PERMISSIONS",
    "EPHEMERAL",
    "IS_COMPONENTS_V2",
    "LOADING",
    "MANAGE_GUILD",
    "PRIVATE_THREAD",
    "PUBLIC_THREAD",
    "TEXT_CHANNEL",
    "Channel",
    "DMChannel",
    "Guild",
    "Json",
    "Member",
    "Message",
    "Place",
    "Role",
    "ScheduledEvent",
    "User",
    "WorldHost",
    "iter_components",
]
