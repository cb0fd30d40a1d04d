"""A local Discord that the real discord.py talks to (placeholder doc, full example below soon)."""

from .fake import FakeDiscord
from .models import Channel, Guild, Member, Message, Role, User
from .records import FakeDiscordUsageError, InteractionResult, RecordedRequest, Violation

__all__ = [
    "Channel",
    "FakeDiscord",
    "FakeDiscordUsageError",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "RecordedRequest",
    "Role",
    "User",
    "Violation",
]
