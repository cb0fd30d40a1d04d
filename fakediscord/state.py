"""What every part of the fake shares: the world it serves (users, guilds, messages, DMs, synced
commands, the application's emojis), the bot's identity, the clock and ids, the gateway, and the
record of what happened (requests, violations, errors the bot logged).

Every part of :class:`~fakediscord.FakeDiscord` receives this state in its constructor (with the
other parts it calls) and keeps what only it needs on itself.
"""

from __future__ import annotations

import logging
import time

from .clock import FakeClock, SnowflakeFactory, Stopwatch
from .gateway import Gateway
from .models import DMChannel, Guild, Json, Message, User
from .records import RecordedRequest, Violation

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"


class FakeState:
    """The shared state; see :class:`~fakediscord.FakeDiscord` for the options."""

    def __init__(
        self,
        *,
        bot_name: str = "Spades",
        validate: bool = True,
        quiet_period: float = 0.1,
        guild_ready_timeout: float = 0.05,
        privileged_intents: bool = True,
        bot_id: int | None = None,
    ) -> None:
        self.clock = FakeClock()
        self.snowflakes = SnowflakeFactory(self.clock)
        self.validate = validate
        self.quiet_period = quiet_period
        self.guild_ready_timeout = guild_ready_timeout
        self.bot_user = User(
            id=bot_id or self.snowflake(), username=bot_name.lower(), global_name=bot_name, bot=True
        )
        self.application_id = self.bot_user.id
        #: GATEWAY_PRESENCE | GATEWAY_GUILD_MEMBERS | GATEWAY_MESSAGE_CONTENT when granted
        self.application_flags = (1 << 12) | (1 << 14) | (1 << 18) if privileged_intents else 0
        self.privileged_intents = privileged_intents
        self.owner = User(id=self.snowflake(), username="owner", global_name="Server Owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.messages: dict[int, Message] = {}
        #: recipient user id -> the bot's DM channel with them
        self.dm_channels: dict[int, DMChannel] = {}
        #: (guild id or None for global) -> command name -> command payload as Discord stores it
        self.commands: dict[int | None, dict[str, Json]] = {}
        #: the application's emojis (``/applications/{id}/emojis``) and their images
        self.app_emojis: dict[int, Json] = {}
        self.app_emoji_images: dict[int, bytes] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.bot_errors: list[logging.LogRecord] = []
        self.token: str | None = None
        self.gateway = Gateway(self)
        self.port = 0
        # What settle() counts as busy: requests being handled, and when something last happened.
        self.inflight = 0
        self.last_activity = time.monotonic()
        #: (method, path) answered with a fault the client retries -> when, and within how many seconds
        #: of this process's lived time (a starved process retries late, not never), the retry is due
        self.retries_due: dict[tuple[str, str], tuple[Stopwatch, float]] = {}

    def expect_retry(self, method: str, path: str, within: float) -> None:
        self.retries_due[(method, path)] = (Stopwatch(), within)

    def retries_outstanding(self) -> bool:
        """Whether a retry the client was told to make is still due (expired ones are dropped)."""
        self.retries_due = {k: v for k, v in self.retries_due.items() if not v[0].past(v[1])}
        return bool(self.retries_due)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> int:
        return self.snowflakes.next()

    def record_violation(self, violation: Violation) -> None:
        _log.warning("fake discord violation: %s", violation)
        self.violations.append(violation)
