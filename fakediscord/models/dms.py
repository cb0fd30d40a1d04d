"""The bot's direct-message channel with one user."""

from __future__ import annotations

from dataclasses import dataclass, field

from .constants import Json
from .messages import Message
from .users import User


@dataclass(eq=False)
class DMChannel:
    """The bot's direct-message channel with one user."""

    id: int
    recipient: User
    messages: list[Message] = field(default_factory=list)
    type: int = 1
    is_thread = False

    @property
    def guild_id(self) -> None:
        return None

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
