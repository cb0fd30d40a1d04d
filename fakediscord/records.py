"""What the fake records: requests, violations, and interactions with their responses."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .clock import Stopwatch
from .models import Channel, DMChannel, Guild, Json, Message, User


class FakeDiscordUsageError(AssertionError):
    """A test asked for something a Discord user could not do (unknown command, disabled button...).

    It subclasses AssertionError so pytest reports it as a failed expectation of the test.
    """


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, in arrival order."""

    method: str
    path: str
    #: The matched route template, e.g. ``/channels/{channel_id}/messages`` (``None`` if unknown).
    route: str | None
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    status: int = 0
    response: Any = None
    at: float = 0.0
    files: list[str] = field(default_factory=list)
    #: Authorised by the bot token, so under the global limit (interaction routes are not).
    bot_token: bool = False

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class Violation:
    """A request Discord would reject (or we are stricter about), or a rule the bot broke.

    ``code`` is Discord's JSON error code (50035 invalid form body, 10062 unknown interaction, 40060
    already acknowledged, 0 for an unknown route, ...), ``status`` the HTTP status we answered.
    """

    kind: str
    reason: str
    method: str = ""
    path: str = ""
    status: int = 400
    code: int = 50035
    errors: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        where = f" {self.method} {self.path}" if self.method else ""
        details = "".join(f"\n    - {e}" for e in self.errors)
        return f"[{self.kind}{where} -> {self.status}/{self.code}] {self.reason}{details}"


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the fake sent to the bot and everything the bot did in answer to it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel | DMChannel
    guild: Guild | None
    created: float
    payload: Json
    source_message: Message | None = None
    response_type: int | None = None
    response_data: Json | None = None
    responded_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    modal_submitted: bool = False
    #: the bot has followed its initial response up: a follow-up, or an edit of ``@original``
    followed_up: bool = False
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    #: started when the interaction is sent: its age for Discord's 3 s leaves out the time the
    #: process waited for a CPU (see ``Stopwatch``)
    watch: Stopwatch = field(default_factory=Stopwatch)

    def age(self, now: float) -> float:
        """Seconds since the interaction was created, on the fake clock (which tests may advance),
        less the time this process was kept off the CPU by other work on the machine."""
        return now - self.created - self.watch.starved()


class InteractionResult:
    """What a user saw after running a command, clicking or selecting: a live view of the response.

    ``type`` is the callback type (4 message, 5 deferred message, 6 deferred update, 7 update message,
    8 autocomplete choices, 9 modal) or ``None`` when the bot did not answer in time (then ``error``
    says why). ``message`` is the response message (for 6/7, the message the component is on); it is
    the live object, so edits the bot makes later show up after ``await fake.settle()``.
    """

    def __init__(self, record: InteractionRecord) -> None:
        self._record = record

    @property
    def id(self) -> int:
        return self._record.id

    @property
    def record(self) -> InteractionRecord:
        return self._record

    @property
    def type(self) -> int | None:
        return self._record.response_type

    @property
    def message(self) -> Message | None:
        return self._record.original

    @property
    def content(self) -> str | None:
        msg = self._record.original
        return None if msg is None else msg.content

    @property
    def text(self) -> str:
        """Content and embed text of the response message ("" if none)."""
        msg = self._record.original
        return "" if msg is None else msg.text

    @property
    def ephemeral(self) -> bool:
        """Only the user sees the response message (for 6/7: the updated message is ephemeral)."""
        msg = self._record.original
        return msg is not None and msg.ephemeral

    @property
    def response_data(self) -> Json:
        """The ``data`` of the bot's initial response exactly as sent (content, embeds, components,
        flags, choices, modal...), unaffected by later edits of the message; ``{}`` if none."""
        return dict(self._record.response_data or {})

    @property
    def answer(self) -> str:
        """What the bot said in reply: the initial response's content, else (after a deferral) the
        newest follow-up's or the response message's content."""
        said = self.response_data.get("content")
        if said:
            return str(said)
        if self._record.followups:
            return self._record.followups[-1].content
        return self.content or ""

    def has_answered(self) -> bool:
        """The bot's answer is all there: after a deferred message (5) the "thinking" message was
        replaced (edited, or deleted and a follow-up sent), after a deferred update (6) a follow-up
        or an edit of the message came; any other response is the answer itself."""
        record = self._record
        if record.response_type == 5:
            msg = record.original
            return msg is not None and (not msg.loading or (msg.deleted and bool(record.followups)))
        if record.response_type == 6:
            return record.followed_up
        return record.response_type is not None

    async def answered(self, timeout: float = 20.0, *, followup: bool = False) -> str:
        """:attr:`answer`, once :meth:`has_answered` (with ``followup``: once a follow-up message
        came, for a deferred update the bot answers with a message besides any edit): reading the
        answer right after a command cannot race a deferred one. ``AssertionError`` if the bot has
        not answered within ``timeout`` s (a ``Stopwatch``'s: time this process waited for a CPU is
        not counted)."""
        watch = Stopwatch()
        while not self.has_answered() or (followup and not self._record.followups):
            if self.error is not None:
                raise AssertionError(self.error)
            if watch.past(timeout):
                raise AssertionError(
                    f"no answer to interaction {self.id} (type {self.type}) within {timeout} s"
                )
            await asyncio.sleep(0.01)
        return self.answer

    @property
    def followups(self) -> list[Message]:
        return list(self._record.followups)

    @property
    def choices(self) -> list[Json] | None:
        if self._record.response_type != 8 or self._record.response_data is None:
            return None
        return list(self._record.response_data.get("choices", []))

    @property
    def modal(self) -> Json | None:
        if self._record.response_type != 9:
            return None
        return self._record.response_data

    @property
    def error(self) -> str | None:
        return "; ".join(self._record.errors) or None

    def __repr__(self) -> str:
        return f"<InteractionResult type={self.type} ephemeral={self.ephemeral} message={self.message!r}>"
