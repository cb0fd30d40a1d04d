"""Test-only parts of the fake Discord: the pytest fixture (``plugin.py``) and the network guard.

The fake itself ships with the bot as :mod:`bot.sandbox.fake` (the sandbox uses it too); it is
re-exported here so ``from tests.fakediscord import FakeDiscord`` keeps working.
"""

from bot.sandbox.fake import (
    Channel,
    DMChannel,
    FakeDiscord,
    FakeDiscordUsageError,
    Guild,
    InteractionResult,
    Member,
    Message,
    RecordedRequest,
    Role,
    ScheduledEvent,
    User,
    Violation,
)

__all__ = [
    "Channel",
    "DMChannel",
    "FakeDiscord",
    "FakeDiscordUsageError",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "RecordedRequest",
    "Role",
    "ScheduledEvent",
    "User",
    "Violation",
]
