"""FakeDiscord: the aiohttp server (REST + gateway) and the driver API tests use.

See the package docstring (``bot/sandbox/fake/__init__.py``) for the driver API and an example.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
import yarl
from aiohttp import BodyPartReader, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from . import uploads, validation
from .clock import FakeClock, SnowflakeFactory
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGE_REACTIONS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    INTENT_SCHEDULED_EVENTS,
    Gateway,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_GUILD,
    Channel,
    DMChannel,
    Guild,
    Json,
    Member,
    Message,
    Role,
    ScheduledEvent,
    User,
)
from .records import FakeDiscordUsageError, InteractionRecord, InteractionResult, RecordedRequest, Violation

_log = logging.getLogger(__name__)
ClientT = TypeVar("ClientT", bound=discord.Client)

API_PREFIX = "/api/v10"
#: Discord: the initial response must arrive within 3 s of the interaction.
INTERACTION_DEADLINE = 3.0
#: Discord: interaction tokens (follow-ups, @original) are valid for 15 minutes.
TOKEN_LIFETIME = 15 * 60.0
ALLOWED_MESSAGE_FLAGS = 4 | EPHEMERAL | 4096 | IS_COMPONENTS_V2
#: Opt-in rate limits, (method, route) -> (requests, per seconds, bucketed by this route parameter).
#: Discord does not publish them; these are the values bots observe for the routes a game bot uses.
RATE_LIMITS: dict[tuple[str, str], tuple[int, float, str]] = {
    ("POST", "/channels/{channel_id}/messages"): (5, 5.0, "channel_id"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): (5, 5.0, "channel_id"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): (5, 1.0, "channel_id"),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): (1, 0.25, "channel_id"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): (5, 2.0, "webhook_token"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): (5, 2.0, "webhook_token"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): (5, 2.0, "webhook_token"),
}
#: Discord: a bot may make 50 requests per second with its bot token, all routes together. Interaction
#: routes (callbacks, follow-ups, ``@original``) are exempt: they are authorised by the interaction token.
GLOBAL_LIMIT = 50
#: Discord: an IP that makes 10,000 invalid requests (401, 403, 429) in 10 minutes is banned for a while.
INVALID_REQUEST_LIMIT = 10_000
INVALID_REQUEST_WINDOW = 600.0
P = discord.Permissions


class ApiError(Exception):
    """Answer the request with Discord's error shape; ``violation`` records it as a bot bug."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: list[str] | None = None,
        violation: bool = False,
        kind: str = "",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or []
        self.violation = violation
        self.kind = kind or ("invalid_body" if code == 50035 else "error")


@dataclass
class _Request:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Json]
    headers: dict[str, str]


Handler = Callable[[_Request], Awaitable[tuple[int, Any]]]


@dataclass
class _RouteDef:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


@dataclass
class _Fault:
    method: str
    route: str
    status: int | None
    retry_after: float
    times: int
    delay: float
    is_global: bool
    json: Any = None


def _compile(template: str) -> re.Pattern[str]:
    pattern = re.sub(
        r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
    )
    return re.compile(f"^{pattern}$")


def _resp(status: int, data: Any = None) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly (discord.py compares the header verbatim)."""
    if status == 204 or data is None:
        return web.Response(status=204 if data is None else status)
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def _error_body(err: ApiError) -> Json:
    body: Json = {"message": err.message, "code": err.code}
    if err.errors:
        body["errors"] = validation.errors_tree(err.errors)
    return body


class FakeDiscord:
    """A local Discord for one test. Use ``async with FakeDiscord() as fake:`` (see the package doc)."""

    def __init__(
        self,
        *,
        bot_name: str = "Spades",
        validate: bool = True,
        quiet_period: float = 0.1,
        guild_ready_timeout: float = 0.05,
        privileged_intents: bool = True,
        rate_limits: bool | dict[tuple[str, str], tuple[int, float, str]] = False,
        global_limit: int | None = None,
        bot_id: int | None = None,
    ) -> None:
        """``privileged_intents=False``: the application has not enabled members, presences and
        message content in the developer portal, so asking for them closes the gateway with 4014.

        ``rate_limits=True`` enforces :data:`RATE_LIMITS` (or pass your own table): answers carry
        Discord's ``X-RateLimit-*`` headers, which discord.py obeys by waiting, and a request over the
        limit gets a 429 (listed in ``rate_limit_hits``). Off by default to keep tests fast.

        The global limit: at most ``global_limit`` bot-token requests in any second, all routes
        together (interaction callbacks, follow-ups and ``@original`` are exempt, as on Discord); the
        next one gets a 429 with ``"global": true``, ``X-RateLimit-Global`` and ``Retry-After``, which
        discord.py honours by pausing every request. ``None`` (the default) means :data:`GLOBAL_LIMIT`
        (50) when ``rate_limits`` is on and no global limit otherwise; ``0`` turns it off. It can be
        changed before the bot starts (``fake.global_limit = 50``).

        ``bot_id`` fixes the bot's user (and application) id, as ``id=`` does for guilds, channels
        and users: a world rebuilt with the same ids matches what a bot stored (the sandbox uses it).

        Every 401, 403 and 429 answer is counted in ``invalid_requests`` (Discord bans an IP that makes
        :data:`INVALID_REQUEST_LIMIT` of them in 10 minutes; reaching that records a violation)."""
        self.clock = FakeClock()
        self._snowflakes = SnowflakeFactory(self.clock)
        self.validate = validate
        self.quiet_period = quiet_period
        self.guild_ready_timeout = guild_ready_timeout
        self.bot_user = User(
            id=bot_id or self._snowflake(), username=bot_name.lower(), global_name=bot_name, bot=True
        )
        self.application_id = self.bot_user.id
        #: GATEWAY_PRESENCE | GATEWAY_GUILD_MEMBERS | GATEWAY_MESSAGE_CONTENT when granted
        self.application_flags = (1 << 12) | (1 << 14) | (1 << 18) if privileged_intents else 0
        self.privileged_intents = privileged_intents
        self.owner = User(id=self._snowflake(), username="owner", global_name="Server Owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.messages: dict[int, Message] = {}
        #: recipient user id -> the bot's DM channel with them
        self.dm_channels: dict[int, DMChannel] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        #: (guild id or None for global) -> command name -> command payload as Discord stores it
        self.commands: dict[int | None, dict[str, Json]] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.bot_errors: list[logging.LogRecord] = []
        self.token: str | None = None
        self.gateway = Gateway(self)
        self._faults: list[_Fault] = []
        self._routes: list[_RouteDef] = []
        self._inflight = 0
        self.rate_limits: dict[tuple[str, str], tuple[int, float, str]] | None = (
            (dict(RATE_LIMITS) if rate_limits is True else dict(rate_limits)) if rate_limits else None
        )
        #: (method, template, major parameter value) -> (window end, requests in the window)
        self._buckets: dict[tuple[str, str, str], tuple[float, int]] = {}
        self.rate_limit_hits: list[RecordedRequest] = []
        self.global_limit: int | None = (
            (GLOBAL_LIMIT if rate_limits else None) if global_limit is None else (global_limit or None)
        )
        #: monotonic times of the bot-token requests of the last second (the global window)
        self._global_window: collections.deque[float] = collections.deque()
        #: answers with 401, 403 or 429 (what Discord counts towards its invalid-request ban)
        self.invalid_requests: list[RecordedRequest] = []
        self._invalid_times: collections.deque[float] = collections.deque()
        self._thinking_seen: set[int] = set()
        #: the bytes of every uploaded attachment, by attachment id (``attachment_bytes``)
        self.attachment_data: dict[str, bytes] = {}
        #: the application's emojis (``/applications/{id}/emojis``) and their images
        self.app_emojis: dict[int, Json] = {}
        self.app_emoji_images: dict[int, bytes] = {}
        #: (method, path) answered with a fault the client retries -> monotonic time the retry is due by
        self._retries_due: dict[tuple[str, str], float] = {}
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self.port = 0
        self._build_routes()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._dispatch_rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown_prefix)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        server = self._site._server
        sockets = getattr(server, "sockets", None)
        assert sockets, "the fake's server did not bind"
        self.port = sockets[0].getsockname()[1]

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def _snowflake(self) -> int:
        return self._snowflakes.next()

    # ------------------------------------------------------------------ world building

    def add_guild(
        self,
        name: str = "Test server",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        id: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server with the bot in it (the bot gets a managed role with the usual bot permissions).

        ``shard=(i, n)`` gives it an id on shard ``i`` of ``n`` (``(id >> 22) % n == i``)."""
        owner = owner or self.owner
        guild_id = id or self._snowflake()
        if shard is not None and id is None:
            wanted, count = shard
            stamp = guild_id >> 22
            stamp += (wanted - stamp) % count
            guild_id = (stamp << 22) | (guild_id & 0x3FFFFF)
            self._snowflakes.skip_to(guild_id)
        guild = Guild(self, guild_id, name, owner, locale=locale)
        self.guilds[guild.id] = guild
        guild.members[owner.id] = Member(user=owner, guild=guild, joined_at=self.clock.iso())
        bot_role = Role(
            id=self._snowflake(),
            guild=guild,
            name=self.bot_user.global_name or self.bot_user.username,
            permissions=DEFAULT_BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(
            user=self.bot_user, guild=guild, roles=[bot_role], joined_at=self.clock.iso()
        )
        if self.gateway.session is not None:
            self.gateway.dispatch("GUILD_CREATE", guild.payload())
        return guild

    def remove_guild(self, guild: Guild, *, outage: bool = False) -> None:
        """The bot is removed from ``guild`` (GUILD_DELETE); with ``outage`` the guild only becomes
        unavailable (GUILD_DELETE with ``unavailable: true``) and stays in the fake."""
        if not outage:
            del self.guilds[guild.id]
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
            id=id or self._snowflake(),
            username=username,
            global_name=global_name if global_name is not None else username.capitalize(),
            bot=bot,
            locale=locale,
        )
        self.users[user.id] = user
        for g in [guild] if guild is not None else list(self.guilds.values()):
            member_roles = [r for r in roles or [] if r.guild is g]
            if manage_guild or administrator:
                name = "Admin" if administrator else "Manager"
                role = next((r for r in g.roles.values() if r.name == name and not r.managed), None)
                if role is None:
                    perms = P(administrator=True).value if administrator else MANAGE_GUILD
                    role = g.add_role(name, permissions=perms)
                member_roles.append(role)
            g.add_member(user, roles=member_roles)
        return user

    def member(self, user: User, guild: Guild | None = None) -> Member:
        guild = guild or self._only_guild()
        return guild.member(user)

    def _only_guild(self) -> Guild:
        if len(self.guilds) != 1:
            raise FakeDiscordUsageError("there is not exactly one guild: pass guild=")
        return next(iter(self.guilds.values()))

    # Hooks the models call so the bot hears about changes made while it is connected.
    def _channel_created(self, channel: Channel) -> None:
        if self.gateway.session is not None and channel.guild.id in self.guilds:
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
        if self.gateway.session is not None and role.guild.id in self.guilds:
            self.gateway.dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(role.guild.id), "role": role.payload()}
            )

    def _member_added(self, member: Member) -> None:
        if (
            self.gateway.session is not None
            and member.guild.id in self.guilds
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

    # ------------------------------------------------------------------ running the bot

    @contextlib.asynccontextmanager
    async def run_bot(
        self, bot: ClientT, token: str = "x", *, timeout: float = 10.0, sync_commands: bool = False
    ) -> AsyncIterator[ClientT]:
        """Point discord.py at this fake, start ``bot``, wait until it is ready; close it on exit.

        Patches ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` for the duration,
        shortens the bot's ``guild_ready_timeout`` (discord.py waits that long after the last
        GUILD_CREATE before READY; 2 s by default) and skips the 5 s courtesy sleep discord.py makes
        before re-IDENTIFYing. ``sync_commands`` syncs ``bot.tree`` globally and
        for each guild the tree has guild commands for, over the fake's HTTP API, once ready.
        """
        self.token = token
        old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.base_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        state = bot._connection
        old_ready_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = min(old_ready_timeout, self.guild_ready_timeout)
        # discord.py sleeps 5 s before every re-IDENTIFY (not before RESUME); not worth waiting for here.
        had_hook = "before_identify_hook" in vars(bot)
        old_hook = bot.before_identify_hook
        bot.before_identify_hook = _no_identify_delay  # type: ignore[method-assign]
        handler = _ErrorCollector(self.bot_errors)
        discord_logger = logging.getLogger("discord")
        discord_logger.addHandler(handler)
        task = asyncio.create_task(bot.start(token), name="fake-discord bot")
        try:
            deadline = time.monotonic() + timeout
            while not bot.is_ready():
                if task.done():
                    exc = None if task.cancelled() else task.exception()
                    raise AssertionError(
                        f"the bot stopped before it was ready: {exc!r}; violations: {self.violations}"
                    ) from exc
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"the bot was not ready within {timeout} s; violations: {self.violations}"
                    )
                await asyncio.sleep(0.005)
            if sync_commands:
                tree = getattr(bot, "tree", None)
                if tree is None:
                    raise FakeDiscordUsageError("sync_commands needs a commands.Bot (with .tree)")
                await tree.sync()
                for guild in self.guilds.values():
                    if tree.get_commands(guild=discord.Object(guild.id)):
                        await tree.sync(guild=discord.Object(guild.id))
            await self.settle()
            yield bot
        finally:
            try:
                await asyncio.wait_for(bot.close(), timeout=5)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, timeout=5)
            finally:
                if not task.done():
                    task.cancel()
                Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
                state.guild_ready_timeout = old_ready_timeout
                if had_hook:
                    bot.before_identify_hook = old_hook  # type: ignore[method-assign]
                else:
                    del bot.before_identify_hook
                discord_logger.removeHandler(handler)
                self.gateway.session = None
                self.gateway.connection = None

    async def settle(self, *, quiet: float | None = None, timeout: float = 10.0) -> None:
        """Wait until the bot is idle: no request in flight or undelivered event, none for ``quiet`` s."""
        quiet = self.quiet_period if quiet is None else quiet
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            self._retries_due = {k: t for k, t in self._retries_due.items() if t > now}
            busy = (
                self._inflight > 0
                or self.gateway.pending() > 0
                or bool(self._retries_due)
                or bool(self._unanswered())
                or self._bucket_exhausted(now)
                or self._global_exhausted(now)
            )
            if busy:
                self._last_activity = now
            elif now - self._last_activity >= quiet:
                return
            if now > deadline:
                raise AssertionError(
                    f"the bot did not settle within {timeout} s "
                    f"({self._inflight} requests in flight, {self.gateway.pending()} events undelivered)"
                )
            await asyncio.sleep(min(0.01, quiet / 4))

    def _global_exhausted(self, now: float) -> bool:
        """The global window is full: discord.py may be paused on a global 429 until it frees up."""
        window = self._global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        return self.global_limit is not None and len(window) >= self.global_limit

    def _bucket_exhausted(self, now: float) -> bool:
        """A rate-limit bucket at 0 until it resets: discord.py may be holding a request for it."""
        assert self.rate_limits is not None or not self._buckets
        for (method, template, _), (reset_at, count) in self._buckets.items():
            if self.rate_limits and count >= self.rate_limits[(method, template)][0] and now < reset_at:
                return True
        return False

    def _unanswered(self) -> list[InteractionRecord]:
        """Interactions still inside their 3 s window with no answer (and no rejected attempt)."""
        now = self.clock.now()
        return [
            r
            for r in self.interactions.values()
            if r.response_type is None and not r.errors and now - r.created <= INTERACTION_DEADLINE
        ]

    def thinking(self) -> list[InteractionRecord]:
        """Deferred responses (type 5) the bot never completed: users still see "thinking..."."""
        return [
            r
            for r in self.interactions.values()
            if r.original is not None and r.original.loading and r.id not in self._thinking_seen
        ]

    def take_thinking(self) -> list[InteractionRecord]:
        """Return :meth:`thinking` and stop reporting those (for tests that leave one on purpose)."""
        found = self.thinking()
        self._thinking_seen.update(r.id for r in found)
        return found

    def pings(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Messages that notified ``user`` (mentioned and allowed by ``allowed_mentions``), in order."""
        return [
            m
            for m in self.messages.values()
            if user.id in m.pinged and (channel is None or m.channel is channel)
        ]

    async def drop_gateway(self, *, code: int = 4000, wait: bool = True, timeout: float = 10.0) -> None:
        """Close the bot's gateway connection; with ``wait``, return once it has RESUMEd."""
        before = self.gateway.resume_count
        await self.gateway.drop(code)
        if wait:
            await self._wait_for(
                lambda: self.gateway.resume_count > before, timeout, "the bot did not RESUME"
            )

    async def send_reconnect(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """Op 7 RECONNECT (Discord asks the client to reconnect): the bot must RESUME."""
        before = self.gateway.resume_count
        await self.gateway.reconnect()
        if wait:
            await self._wait_for(
                lambda: self.gateway.resume_count > before, timeout, "the bot did not RESUME"
            )

    async def invalidate_session(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """INVALID_SESSION (not resumable): with ``wait``, return once the bot has IDENTIFYed again."""
        before = self.gateway.identify_count
        await self.gateway.invalidate(resumable=False)
        if wait:
            await self._wait_for(
                lambda: self.gateway.identify_count > before, timeout, "the bot did not IDENTIFY"
            )

    async def _wait_for(self, cond: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} within {timeout} s")
            await asyncio.sleep(0.01)

    def advance_clock(self, seconds: float = 0.0, *, minutes: float = 0.0) -> None:
        """Move the fake clock forward: interaction deadlines and token lifetimes use it."""
        self.clock.advance(seconds + 60 * minutes)

    # ------------------------------------------------------------------ faults

    def fail_next(
        self,
        method: str,
        route: str,
        *,
        status: int = 429,
        retry_after: float = 0.05,
        times: int = 1,
        is_global: bool = False,
        json: Any = None,
    ) -> None:
        """Answer the next ``times`` requests to ``route`` (a template like
        ``/channels/{channel_id}/messages`` or a concrete path) with ``status``.

        429 carries ``retry_after`` (and the ``Via`` header discord.py needs to trust it); other
        statuses carry ``json`` or Discord's generic error body.
        """
        self._faults.append(_Fault(method.upper(), route, status, retry_after, times, 0.0, is_global, json))

    def delay_next(self, method: str, route: str, seconds: float, *, times: int = 1) -> None:
        """Hold the next ``times`` requests to ``route`` for ``seconds`` before handling them."""
        self._faults.append(_Fault(method.upper(), route, None, 0.0, times, seconds, False))

    def _take_fault(self, method: str, template: str | None, path: str) -> _Fault | None:
        for fault in self._faults:
            if fault.method == method and fault.route in (template, path):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    # ------------------------------------------------------------------ reading what users see

    def public_messages(self, channel: Channel) -> list[Message]:
        """The channel's messages everyone sees, oldest first, edits applied, deleted ones gone."""
        return [m for m in channel.messages if not m.ephemeral and not m.deleted]

    def ephemeral_messages(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What only ``user`` sees (in ``channel`` or anywhere), oldest first, edits applied."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral
            and not m.deleted
            and m.visible_to is user
            and (channel is None or m.channel is channel)
        ]

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """Everything ``user`` sees in ``channel``: public messages and their own ephemeral ones."""
        return [m for m in channel.messages if not m.deleted and (not m.ephemeral or m.visible_to is user)]

    def bot_messages(self) -> list[Message]:
        """Every message the bot sent anywhere (public or ephemeral, including deleted), in order."""
        return [m for m in self.messages.values() if m.author is self.bot_user]

    def message(self, message_id: int) -> Message:
        return self.messages[message_id]

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """Recorded requests for a route template (``/channels/{channel_id}/messages``) or path."""
        return [r for r in self.requests if r.method == method.upper() and route in (r.route, r.path)]

    def peak_rate(self, method: str, route: str, window: float, *, per: str | None = "channel_id") -> int:
        """Most requests to ``route`` inside any ``window`` seconds (per value of the ``per`` route
        parameter, e.g. per channel as Discord buckets message edits; ``None``: all together).

        Discord does not publish its limits, but e.g. 5 message edits per 5 s per channel is what bots
        meet in practice: ``assert fake.peak_rate("PATCH", EDIT, 5.0) <= 5`` keeps a bot under it.
        """
        groups: dict[str | None, list[float]] = {}
        for r in self.requests_to(method, route):
            groups.setdefault(r.params.get(per) if per else None, []).append(r.at)
        best = 0
        for times in groups.values():
            times.sort()
            start = 0
            for end, t in enumerate(times):
                while start <= end and t - times[start] >= window:
                    start += 1
                best = max(best, end - start + 1)
        return best

    def take_violations(self) -> list[Violation]:
        """Return and clear the recorded violations (for tests that provoke them on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    def commands_for(self, guild: Guild | None = None) -> list[Json]:
        """The synced commands a user in ``guild`` sees (guild commands, then global ones)."""
        found = dict(self.commands.get(None, {}))
        if guild is not None:
            found.update(self.commands.get(guild.id, {}))
        return list(found.values())

    # ------------------------------------------------------------------ acting as users

    def _check_member(self, user: User, channel: Channel) -> Member:
        if channel.guild.id not in self.guilds:
            raise FakeDiscordUsageError(f"{channel!r} is not in a known guild")
        if channel.id not in channel.guild.channels:
            raise FakeDiscordUsageError(f"#{channel.name} was deleted")
        member = channel.guild.members.get(user.id)
        if member is None:
            raise FakeDiscordUsageError(f"{user.username} is not a member of {channel.guild.name!r}")
        if not member.permissions_in(channel) & P(view_channel=True).value:
            raise FakeDiscordUsageError(f"{user.username} cannot see #{channel.name}")
        return member

    def _find_command(self, guild: Guild, name: str, type_: int = 1) -> Json:
        cmd = next(
            (c for c in self.commands_for(guild) if c["name"] == name and c.get("type", 1) == type_), None
        )
        if cmd is None:
            known = sorted(c["name"] for c in self.commands_for(guild) if c.get("type", 1) == type_)
            kind = {1: "slash", 2: "user", 3: "message"}[type_]
            raise FakeDiscordUsageError(f"no synced {kind} command {name!r} (synced: {known})")
        return cmd

    def _check_command_allowed(self, cmd: Json, user: User, channel: Channel) -> None:
        perms = channel.guild.member(user).permissions_in(channel)
        if not perms & P(use_application_commands=True).value:
            raise FakeDiscordUsageError(
                f"{user.username} may not use application commands in #{channel.name}"
            )
        required = cmd.get("default_member_permissions")
        if required is not None and (int(required) & perms) != int(required):
            raise FakeDiscordUsageError(
                f"{cmd['name']!r} needs permissions {int(required)} that {user.username} lacks: "
                "Discord hides it"
            )
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise FakeDiscordUsageError(f"{cmd['name']!r} is not available in servers (contexts={contexts})")

    async def user_command(self, user: User, channel: Channel, name: str, target: User) -> InteractionResult:
        """``user`` runs the user context-menu command ``name`` (Apps > name) on ``target``."""
        self._check_member(user, channel)
        cmd = self._find_command(channel.guild, name, 2)
        self._check_command_allowed(cmd, user, channel)
        resolved: Json = {}
        target_id = self._option_value({"name": "target", "type": 6}, target, resolved, channel)
        data = {"id": cmd["id"], "name": name, "type": 2, "target_id": target_id, "resolved": resolved}
        return await self._send_interaction(self._interaction_base(2, user, channel, data))

    async def message_command(self, user: User, message: Message, name: str) -> InteractionResult:
        """``user`` runs the message context-menu command ``name`` on ``message``."""
        channel = self._visible_component_message(user, message)
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("message commands are only modelled in servers")
        cmd = self._find_command(channel.guild, name, 3)
        self._check_command_allowed(cmd, user, channel)
        data = {
            "id": cmd["id"],
            "name": name,
            "type": 3,
            "target_id": str(message.id),
            "resolved": {"messages": {str(message.id): message.payload()}},
        }
        return await self._send_interaction(self._interaction_base(2, user, channel, data))

    def _interaction_base(
        self, type_: int, user: User, channel: Channel | DMChannel, data: Json
    ) -> InteractionRecord:
        if isinstance(channel, DMChannel):
            return self._dm_interaction_base(type_, user, channel, data)
        guild = channel.guild
        member = guild.member(user)
        bot_member = guild.member(self.bot_user)
        iid = self._snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": channel.payload() | {"permissions": str(member.permissions_in(channel))},
            "member": member.payload(permissions_in=channel),
            "token": token,
            "version": 1,
            "app_permissions": str(bot_member.permissions_in(channel)),
            "locale": user.locale,
            "guild_locale": guild.preferred_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10485760,
        }
        return self._register(iid, token, type_, user, channel, guild, payload)

    def _dm_interaction_base(
        self, type_: int, user: User, channel: DMChannel, data: Json
    ) -> InteractionRecord:
        iid = self._snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "user": user.payload(),
            "token": token,
            "version": 1,
            "app_permissions": str(DM_APP_PERMISSIONS),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": "0"},
            "context": 1,
            "attachment_size_limit": 10485760,
        }
        return self._register(iid, token, type_, user, channel, None, payload)

    def _register(
        self,
        iid: int,
        token: str,
        type_: int,
        user: User,
        channel: Channel | DMChannel,
        guild: Guild | None,
        payload: Json,
    ) -> InteractionRecord:
        record = InteractionRecord(
            id=iid,
            token=token,
            type=type_,
            user=user,
            channel=channel,
            guild=guild,
            created=self.clock.now(),
            payload=payload,
        )
        self.interactions[iid] = record
        self._by_token[token] = record
        return record

    async def _send_interaction(self, record: InteractionRecord) -> InteractionResult:
        if not self.gateway.connected and self.gateway.session is None:
            raise FakeDiscordUsageError("the bot is not connected (use fake.run_bot(bot))")
        self.gateway.dispatch("INTERACTION_CREATE", record.payload)
        self._last_activity = time.monotonic()
        while not record.responded.is_set():
            idle = self._inflight == 0 and time.monotonic() - self._last_activity > self.quiet_period
            if record.errors and idle:
                break  # the bot's answer was rejected and it is not trying again: the user sees a failure
            if self.clock.now() - record.created > INTERACTION_DEADLINE:
                reason = f"no initial response within {INTERACTION_DEADLINE:g} s (the user sees a failure)"
                record.errors.append(reason)
                self._violation(Violation(kind="no_response", reason=reason, status=0, code=10062))
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.responded.wait(), 0.02)
        return InteractionResult(record)

    async def slash(
        self, user: User, channel: Channel, command: str, /, options: Json | None = None, **kwargs: Any
    ) -> InteractionResult:
        """``user`` runs ``/command`` (``"spades new"`` for a subcommand) in ``channel``.

        Options come as keyword arguments (or ``options=`` for names that are not identifiers);
        users, channels and roles are passed as the fake's objects. The interaction is built from
        the *synced* command: an unknown command or option, a missing required option, a value of the
        wrong type, outside min/max or not among the choices fails the test here, since Discord's
        client would not let a user send it. Returns once the bot's initial response arrived (or 3 s).
        """
        given = dict(options or {}) | kwargs
        self._check_member(user, channel)
        data = self._command_data(user, channel, command, given, focused=None)
        record = self._interaction_base(2, user, channel, data)
        return await self._send_interaction(record)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, option: str, value: str, /, **kwargs: Any
    ) -> list[Json]:
        """``user`` types ``value`` into ``option`` of ``/command``: returns the choices the bot offered."""
        self._check_member(user, channel)
        data = self._command_data(user, channel, command, dict(kwargs), focused=(option, value))
        record = self._interaction_base(4, user, channel, data)
        result = await self._send_interaction(record)
        if result.type != 8:
            if result.type is not None:
                raise AssertionError(f"autocomplete answered with callback type {result.type}, expected 8")
            return []
        return result.choices or []

    def _command_data(
        self, user: User, channel: Channel, command: str, given: Json, focused: tuple[str, str] | None
    ) -> Json:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise FakeDiscordUsageError("empty command name")
        cmd = self._find_command(channel.guild, parts[0])
        self._check_command_allowed(cmd, user, channel)
        resolved: Json = {}
        options = self._build_options(cmd, parts, given, focused, resolved, channel)
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    def _build_options(
        self,
        cmd: Json,
        parts: list[str],
        given: Json,
        focused: tuple[str, str] | None,
        resolved: Json,
        channel: Channel,
    ) -> list[Json]:
        defs: list[Json] = cmd.get("options") or []
        path = [parts[0]]
        wrappers: list[Json] = []
        for part in parts[1:]:
            sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise FakeDiscordUsageError(f"/{' '.join(path)} has no subcommand {part!r} (has {subs})")
            path.append(part)
            wrappers.append({"name": part, "type": sub["type"], "options": []})
            defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o["type"] in (1, 2)]
            raise FakeDiscordUsageError(f"/{' '.join(path)} needs a subcommand: one of {subs}")
        leaf: list[Json] = []
        names = {o["name"] for o in defs}
        for key in given:
            if key not in names and not (focused and key == focused[0]):
                raise FakeDiscordUsageError(f"/{' '.join(path)} has no option {key!r} (has {sorted(names)})")
        if focused is not None and focused[0] not in names:
            raise FakeDiscordUsageError(
                f"/{' '.join(path)} has no option {focused[0]!r} (has {sorted(names)})"
            )
        for opt in defs:
            name = opt["name"]
            if focused is not None and name == focused[0]:
                if not opt.get("autocomplete"):
                    raise FakeDiscordUsageError(f"option {name!r} of /{' '.join(path)} has no autocomplete")
                leaf.append({"name": name, "type": opt["type"], "value": focused[1], "focused": True})
                continue
            if name not in given:
                if opt.get("required") and focused is None:
                    raise FakeDiscordUsageError(f"/{' '.join(path)} needs option {name!r}")
                continue
            leaf.append(
                {
                    "name": name,
                    "type": opt["type"],
                    "value": self._option_value(opt, given[name], resolved, channel),
                }
            )
        options = leaf
        for wrapper in reversed(wrappers):
            wrapper["options"] = options
            options = [wrapper]
        return options

    def _option_value(self, opt: Json, value: Any, resolved: Json, channel: Channel) -> Any:
        t = opt["type"]
        name = opt["name"]
        guild = channel.guild

        def bad(why: str) -> FakeDiscordUsageError:
            return FakeDiscordUsageError(f"option {name!r}: {why} (got {value!r})")

        if t == 3:
            if not isinstance(value, str):
                raise bad("expects a string")
            if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
                raise bad(f"length must be {opt.get('min_length', 0)}..{opt.get('max_length', 6000)}")
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("expects an integer")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad("expects a number")
        elif t == 5:
            if not isinstance(value, bool):
                raise bad("expects a boolean")
        elif t in (6, 9) and isinstance(value, User | Member):
            user = value if isinstance(value, User) else value.user
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if user.id in guild.members:
                resolved.setdefault("members", {})[str(user.id)] = guild.members[user.id].payload(
                    with_user=False, permissions_in=channel
                )
            return str(user.id)
        elif t in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif t == 7 and isinstance(value, Channel):
            types = opt.get("channel_types")
            if types and value.type not in types:
                raise bad(f"channel type must be one of {types}")
            member_perms = guild.members[self.bot_user.id].permissions_in(value)
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(member_perms),
                **({"parent_id": str(value.parent.id)} if value.parent else {}),
                **({"thread_metadata": value.payload()["thread_metadata"]} if value.is_thread else {}),
            }
            return str(value.id)
        else:
            raise bad(f"unsupported value for option type {t}")
        if t in (4, 10):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise bad(f"must be within {lo}..{hi}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise bad(f"must be one of {[c['value'] for c in choices]}")
        return value

    def _visible_component_message(self, user: User, message: Message) -> Channel | DMChannel:
        if message.deleted:
            raise FakeDiscordUsageError(f"message {message.id} was deleted")
        if message.ephemeral and message.visible_to is not user:
            raise FakeDiscordUsageError(f"{user.username} cannot see ephemeral message {message.id}")
        channel = message.channel
        if channel is None:
            raise FakeDiscordUsageError("message has no channel")
        if isinstance(channel, DMChannel):
            if channel.recipient is not user:
                raise FakeDiscordUsageError(f"{user.username} cannot see {channel.name}")
        else:
            self._check_member(user, channel)
        if message.loading:
            raise FakeDiscordUsageError(
                f"message {message.id} is still 'thinking' (deferred, not yet edited)"
            )
        return channel

    async def click(
        self, user: User, message: Message, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionResult:
        """``user`` clicks the button with ``label`` or ``custom_id`` on ``message``.

        Fails the test if the user cannot see the message or the button is missing, disabled, or a
        link/premium button (those never reach the bot).
        """
        channel = self._visible_component_message(user, message)
        button = message.find_component(label=label, custom_id=custom_id, type=2)
        if button.get("disabled"):
            raise FakeDiscordUsageError(f"button {button.get('label')!r} on message {message.id} is disabled")
        if "custom_id" not in button:
            raise FakeDiscordUsageError(
                f"button {button.get('label')!r} is a link/premium button, not clickable"
            )
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._component_interaction(user, channel, message, data)

    async def select(
        self,
        user: User,
        message: Message,
        *,
        values: list[Any],
        custom_id: str | None = None,
        label: str | None = None,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu (``label`` matches its placeholder).

        String selects take option values; user/role/channel selects take the fake's objects.
        """
        channel = self._visible_component_message(user, message)
        select = message.find_component(label=label, custom_id=custom_id)
        ctype = select.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise FakeDiscordUsageError(f"component {select.get('custom_id')!r} is not a select menu")
        if select.get("disabled"):
            raise FakeDiscordUsageError(f"select {select.get('custom_id')!r} is disabled")
        lo, hi = select.get("min_values", 1), select.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordUsageError(
                f"select {select['custom_id']!r} takes {lo}..{hi} values, got {len(values)}"
            )
        resolved: Json = {}
        out: list[str] = []
        if ctype == 3:
            allowed = [o["value"] for o in select.get("options", [])]
            for v in values:
                if v not in allowed:
                    raise FakeDiscordUsageError(
                        f"{v!r} is not an option of {select['custom_id']!r}: {allowed}"
                    )
                out.append(v)
            if len(set(out)) != len(out):
                raise FakeDiscordUsageError("the same option cannot be picked twice")
        else:
            if not isinstance(channel, Channel):
                raise FakeDiscordUsageError("user/role/channel selects are only modelled in servers")
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            opt = {"name": select["custom_id"], "type": kind, "channel_types": select.get("channel_types")}
            out = [self._option_value(opt, v, resolved, channel) for v in values]
        data: Json = {"custom_id": select["custom_id"], "component_type": ctype, "values": out}
        if resolved:
            data["resolved"] = resolved
        return await self._component_interaction(user, channel, message, data)

    async def _component_interaction(
        self, user: User, channel: Channel | DMChannel, message: Message, data: Json
    ) -> InteractionResult:
        record = self._interaction_base(3, user, channel, data)
        record.payload["message"] = message.payload()
        record.source_message = message
        return await self._send_interaction(record)

    async def submit_modal(
        self, user: User, result: InteractionResult, values: dict[str, str | list[Any]]
    ) -> InteractionResult:
        """``user`` fills in the modal the bot opened (``result.type == 9``) and submits it.

        ``values`` maps each input's custom_id to the text typed (text inputs) or to the picked values
        (selects in labels: option values, or the fake's users/roles/channels). Required inputs,
        lengths and option counts are enforced as the client would.
        """
        modal = result.modal
        if modal is None:
            raise FakeDiscordUsageError("the bot did not answer with a modal")
        origin = result.record
        if user is not origin.user:
            raise FakeDiscordUsageError("only the user the modal was shown to can submit it")
        if origin.modal_submitted:
            raise FakeDiscordUsageError("this modal was already submitted (the client closed it)")
        rows: list[Json] = []
        seen: set[str] = set()
        resolved: Json = {}
        for row in modal.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            out_inner = [
                self._modal_value(comp, values, resolved, origin.channel)
                for comp in inner
                if comp.get("type") in (3, 4, 5, 6, 7, 8)
            ]
            seen.update(comp["custom_id"] for comp in inner if "custom_id" in comp)
            if "component" in row:
                if out_inner:
                    rows.append({"type": 18, "id": row.get("id", 0), "component": out_inner[0]})
            elif out_inner:
                rows.append({"type": 1, "id": row.get("id", 0), "components": out_inner})
            elif row.get("type") == 10:
                rows.append({"type": 10, "id": row.get("id", 0)})
        unknown = set(values) - seen
        if unknown:
            raise FakeDiscordUsageError(f"the modal has no inputs {sorted(unknown)}")
        data: Json = {"custom_id": modal["custom_id"], "components": rows}
        if resolved:
            data["resolved"] = resolved
        origin.modal_submitted = True
        record = self._interaction_base(5, user, origin.channel, data)
        if origin.source_message is not None:
            record.payload["message"] = origin.source_message.payload()
            record.source_message = origin.source_message
        return await self._send_interaction(record)

    def _modal_value(
        self, comp: Json, values: dict[str, Any], resolved: Json, channel: Channel | DMChannel
    ) -> Json:
        cid = comp["custom_id"]
        base = {"type": comp["type"], "custom_id": cid, "id": comp.get("id", 0)}
        if comp["type"] == 4:
            text = values.get(cid, comp.get("value") or "")
            if not isinstance(text, str):
                raise FakeDiscordUsageError(f"text input {cid!r} takes a string")
            if comp.get("required", True) and not text:
                raise FakeDiscordUsageError(f"text input {cid!r} is required")
            if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                raise FakeDiscordUsageError(f"text input {cid!r}: length out of range")
            return base | {"value": text}
        picked = values.get(cid, [])
        if not isinstance(picked, list):
            raise FakeDiscordUsageError(f"select {cid!r} takes a list of values")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if comp.get("required", True) and not picked and lo:
            raise FakeDiscordUsageError(f"select {cid!r} is required")
        if picked and not lo <= len(picked) <= hi:
            raise FakeDiscordUsageError(f"select {cid!r} takes {lo}..{hi} values, got {len(picked)}")
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in picked if v not in allowed]
            if bad:
                raise FakeDiscordUsageError(f"{bad} are not options of {cid!r}: {allowed}")
            return base | {"values": list(picked)}
        kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
        opt = {"name": cid, "type": kind, "channel_types": comp.get("channel_types")}
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("user/role/channel selects are only modelled in servers")
        return base | {"values": [self._option_value(opt, v, resolved, channel) for v in picked]}

    async def react(self, user: User, message: Message, emoji: str) -> None:
        """``user`` adds reaction ``emoji`` ("♠", or "name:id" for a custom emoji) to ``message``."""
        channel = self._visible_component_message(user, message)
        if message.ephemeral:
            raise FakeDiscordUsageError("ephemeral messages cannot be reacted to")
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("reactions are only modelled in servers")
        may_add = channel.guild.member(user).permissions_in(channel) & P(add_reactions=True).value
        if not may_add and emoji not in message.reactions:
            raise FakeDiscordUsageError(f"{user.username} may not add new reactions in #{channel.name}")
        users = message.reactions.setdefault(emoji, [])
        if user.id not in users:
            users.append(user.id)
            self._dispatch_reaction("MESSAGE_REACTION_ADD", user, message, emoji)

    async def unreact(self, user: User, message: Message, emoji: str) -> None:
        """``user`` removes their reaction ``emoji`` from ``message``."""
        users = message.reactions.get(emoji, [])
        if user.id not in users:
            raise FakeDiscordUsageError(f"{user.username} has not reacted with {emoji}")
        users.remove(user.id)
        if not users:
            del message.reactions[emoji]
        self._dispatch_reaction("MESSAGE_REACTION_REMOVE", user, message, emoji)

    def dm_channel(self, user: User) -> DMChannel:
        """The bot's DM channel with ``user`` (created on first use, as Discord does)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = self.dm_channels[user.id] = DMChannel(id=self._snowflake(), recipient=user)
        return channel

    def dm_messages(self, user: User) -> list[Message]:
        """The DM conversation between the bot and ``user``, oldest first, edits applied."""
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else [m for m in channel.messages if not m.deleted]

    async def dm(self, user: User, content: str) -> Message:
        """``user`` writes to the bot in DMs (MESSAGE_CREATE with the direct messages intent)."""
        msg = self._new_message(self.dm_channel(user), user, {"content": content})
        self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """``user`` posts a plain message in ``channel`` (dispatched as MESSAGE_CREATE)."""
        self._check_member(user, channel)
        msg = self._new_message(channel, user, {"content": content})
        self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    # ------------------------------------------------------------------ messages

    def _new_message(
        self,
        channel: Channel | DMChannel,
        author: User,
        body: Json,
        files: list[Json] | None = None,
        **extra: Any,
    ) -> Message:
        msg = Message(
            id=self._snowflake(),
            channel=channel,
            author=author,
            timestamp=self.clock.iso(),
            bot_id=self.bot_user.id,
            **extra,
        )
        self._apply_fields(msg, body, creating=True, files=files)
        self.messages[msg.id] = msg
        channel.messages.append(msg)
        return msg

    def _apply_fields(
        self,
        msg: Message,
        body: Json,
        *,
        creating: bool,
        files: list[Json] | None = None,
        notify: bool | None = None,
    ) -> None:
        """Apply a create/edit body; a create (or ``notify``) notifies the users it mentions."""
        if not creating:
            msg.history.append(msg.snapshot())
            msg.edited_timestamp = self.clock.iso()
        if files or "attachments" in body:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = (
                [a for a in msg.attachments if a["id"] in keep] if "attachments" in body else msg.attachments
            )
            msg.attachments = kept + [self._attachment(msg, f) for f in files or []]
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [validation.normalize_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            msg.components = validation.normalize_components(body["components"] or [])
        if body.get("flags") is not None:
            fixed = msg.flags & (EPHEMERAL | IS_COMPONENTS_V2)  # neither can change after sending
            msg.flags = (int(body["flags"]) & ALLOWED_MESSAGE_FLAGS) | fixed
        msg.flags &= ~LOADING if not creating else ~0
        if "content" in body or "allowed_mentions" in body:
            notify = creating if notify is None else notify
            self._resolve_mentions(msg, body.get("allowed_mentions"), notify=notify)

    def _resolve_mentions(self, msg: Message, allowed: Json | None, *, notify: bool) -> None:
        """Who the content mentions, filtered by ``allowed_mentions`` (absent: everything parses)."""
        parse = set(allowed.get("parse", [])) if allowed is not None else {"users", "roles", "everyone"}
        allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
        allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
        guild = msg.channel.guild if isinstance(msg.channel, Channel) else None
        users: list[User] = []
        for raw in re.findall(r"<@!?(\d+)>", msg.content):
            user = self.users.get(int(raw))
            if user is not None and user not in users and ("users" in parse or user.id in allowed_users):
                users.append(user)
        roles = [
            int(raw)
            for raw in re.findall(r"<@&(\d+)>", msg.content)
            if guild is not None
            and int(raw) in guild.roles
            and ("roles" in parse or int(raw) in allowed_roles)
        ]
        everyone = "everyone" in parse and ("@everyone" in msg.content or "@here" in msg.content)
        if everyone and guild is not None and msg.author.id in guild.members:
            where = msg.channel if isinstance(msg.channel, Channel) else None
            everyone = bool(guild.member(msg.author).permissions_in(where) & P(mention_everyone=True).value)
        msg.mentions, msg.mention_roles, msg.mention_everyone = users, roles, everyone
        if not notify or msg.ephemeral or msg.flags & 4096:  # 4096: SUPPRESS_NOTIFICATIONS
            return
        pinged = {u.id for u in users}
        if guild is not None:
            for member in guild.members.values():
                if everyone or any(r.id in roles for r in member.roles):
                    pinged.add(member.id)
        pinged.discard(msg.author.id)
        msg.pinged = sorted(pinged)

    def _attachment(self, msg: Message, upload: Json) -> Json:
        aid = self._snowflake()
        filename = str(upload.get("filename") or "file")
        channel_id = msg.channel.id if msg.channel else 0
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{filename}"
        data = upload.get("data") or b""
        # Discord reports what the bytes are, not what the client claimed (discord.py sends
        # application/octet-stream), and the size of an image
        sniffed, width, height = uploads.sniff(data)
        attachment: Json = {
            "id": str(aid),
            "filename": filename,
            "size": int(upload.get("size", len(data))),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": sniffed or upload.get("content_type") or "application/octet-stream",
        }
        if width is not None:
            attachment |= {"width": width, "height": height}
        self.attachment_data[str(aid)] = bytes(data)
        return attachment

    def attachment_bytes(self, attachment: Json | str | int) -> bytes:
        """The bytes the bot uploaded for an attachment (its payload dict or its id)."""
        aid = str(attachment["id"] if isinstance(attachment, dict) else attachment)
        try:
            return self.attachment_data[aid]
        except KeyError:
            raise FakeDiscordUsageError(f"no attachment {aid} was uploaded") from None

    def _dispatch_message(self, event: str, msg: Message) -> None:
        if msg.ephemeral or msg.channel is None:
            return
        if isinstance(msg.channel, DMChannel):
            if self.gateway.intents & INTENT_DIRECT_MESSAGES:  # DMs always carry their content
                self.gateway.dispatch(event, msg.payload())
            return
        if not self.gateway.intents & INTENT_GUILD_MESSAGES:
            return
        data = msg.payload()
        mentioned = f"<@{self.bot_user.id}>" in msg.content
        privileged = bool(self.gateway.intents & INTENT_MESSAGE_CONTENT)
        if not privileged and msg.author is not self.bot_user and not mentioned:
            data.update(content="", embeds=[], components=[], attachments=[])  # privileged intent missing
        member = msg.channel.guild.members.get(msg.author.id)
        if member is not None:
            data["member"] = member.payload(with_user=False)
        self.gateway.dispatch(event, data)

    def _dispatch_delete(self, msg: Message) -> None:
        if msg.ephemeral or msg.channel is None:
            return
        data: Json = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        if isinstance(msg.channel, DMChannel):
            if self.gateway.intents & INTENT_DIRECT_MESSAGES:
                self.gateway.dispatch("MESSAGE_DELETE", data)
        elif self.gateway.intents & INTENT_GUILD_MESSAGES:
            self.gateway.dispatch("MESSAGE_DELETE", data | {"guild_id": str(msg.channel.guild.id)})

    # ------------------------------------------------------------------ HTTP plumbing

    def _violation(self, violation: Violation) -> None:
        _log.warning("fake discord violation: %s", violation)
        self.violations.append(violation)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        self._inflight += 1
        self._last_activity = time.monotonic()
        try:
            return await handler(request)
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()

    async def _unknown_prefix(self, request: web.Request) -> web.Response:
        self._violation(
            Violation(
                kind="unknown_route",
                reason="not under /api/v10",
                method=request.method,
                path=request.path,
                status=404,
                code=0,
            )
        )
        return _resp(404, {"message": "404: Not Found", "code": 0})

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Json]]:
        ctype = request.headers.get("Content-Type", "")
        if not request.can_read_body:
            return None, []
        if ctype.startswith("multipart/form-data"):
            body: Any = None
            files: list[Json] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    try:
                        body = json.loads(await part.text())
                    except ValueError as exc:
                        raise ApiError(
                            400, 50109, "The request body contains invalid JSON.", violation=True
                        ) from exc
                else:
                    content = await part.read()
                    upload = {"field": part.name, "filename": part.filename, "size": len(content)}
                    files.append(upload | {"content_type": part.headers.get("Content-Type"), "data": content})
            if (why := uploads.too_large(files)) is not None:
                raise ApiError(413, 40005, f"Request entity too large: {why}", violation=True)
            errors = uploads.upload_errors(files, body)
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        if ctype != "application/json":
            raise ApiError(
                400, 50035, f"Content-Type must be application/json, got {ctype!r}", violation=True
            )
        try:
            return json.loads(raw), []
        except ValueError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.", violation=True) from exc

    async def _dispatch_rest(self, request: web.Request) -> web.Response:
        response, record = await self._answer_rest(request)
        if response.status in (401, 403, 429):
            self._count_invalid(record)
        return response

    def _count_invalid(self, record: RecordedRequest) -> None:
        """Discord counts 401/403/429 answers per IP; 10,000 in 10 minutes is a temporary ban."""
        now = time.monotonic()
        self.invalid_requests.append(record)
        times = self._invalid_times
        times.append(now)
        while times and times[0] <= now - INVALID_REQUEST_WINDOW:
            times.popleft()
        if len(times) == INVALID_REQUEST_LIMIT:
            self._violation(
                Violation(
                    kind="invalid_request_ban",
                    reason=f"{INVALID_REQUEST_LIMIT} invalid requests (401/403/429) in 10 minutes: "
                    "Discord would ban this IP for a while",
                    method=record.method,
                    path=record.path,
                    status=record.status or 0,
                    code=0,
                )
            )

    async def _answer_rest(self, request: web.Request) -> tuple[web.Response, RecordedRequest]:
        path = "/" + request.match_info["tail"]
        method = request.method
        record = RecordedRequest(
            method=method,
            path=path,
            route=None,
            params={},
            query=dict(request.query),
            json=None,
            at=self.clock.now(),
        )
        self.requests.append(record)
        self._retries_due.pop((method, path), None)
        route, match = None, None
        for r in self._routes:
            if r.method == method:
                match = r.regex.match(path)
                if match:
                    route = r
                    break
        if route is None or match is None:
            record.status = 404
            self._violation(
                Violation(
                    kind="unknown_route",
                    reason="the fake does not know this route",
                    method=method,
                    path=path,
                    status=404,
                    code=0,
                )
            )
            return _resp(404, {"message": "404: Not Found", "code": 0}), record
        record.route = route.template
        record.params = match.groupdict()
        record.bot_token = route.auth
        try:
            body, files = await self._read_body(request)
        except ApiError as err:
            return self._error(record, err), record
        record.json = body
        record.files = [f["filename"] for f in files]
        fault = self._take_fault(method, route.template, path)
        if fault is not None:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                return self._fault_response(record, fault), record
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            error = ApiError(401, 0, "401: Unauthorized", violation=True, kind="unauthorized")
            return self._error(record, error), record
        if route.auth and self.global_limit is not None:
            refused = self._global_rate_limit(record)
            if refused is not None:
                return refused, record
        limit_headers: dict[str, str] = {}
        if self.rate_limits is not None:
            limited = self._rate_limit(record, route.template)
            if isinstance(limited, web.Response):
                return limited, record
            limit_headers = limited
        req = _Request(method, path, record.params, dict(request.query), body, files, dict(request.headers))
        try:
            status, data = await route.handler(req)
        except ApiError as err:
            return self._error(record, err), record
        record.status = status
        record.response = data
        response = _resp(status, data)
        response.headers.update(limit_headers)
        return response, record

    def _global_rate_limit(self, record: RecordedRequest) -> web.Response | None:
        """A sliding one-second window over bot-token requests: ``None`` lets the request through."""
        assert self.global_limit is not None
        now = time.monotonic()
        if not self._global_exhausted(now):
            self._global_window.append(now)
            return None
        retry_after = round(max(self._global_window[0] + 1.0 - now, 0.001), 3)
        self.rate_limit_hits.append(record)
        record.status = 429
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
        record.response = body
        self._retries_due[(record.method, record.path)] = now + retry_after + 1.0
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
        }
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def _rate_limit(self, record: RecordedRequest, template: str) -> dict[str, str] | web.Response:
        """Fixed-window buckets (see :data:`RATE_LIMITS`): headers for the answer, or a 429."""
        assert self.rate_limits is not None
        rule = self.rate_limits.get((record.method, template))
        if rule is None:
            return {}
        limit, per, major = rule
        key = (record.method, template, record.params.get(major, ""))
        now = time.monotonic()
        reset_at, count = self._buckets.get(key, (0.0, 0))
        if now >= reset_at:
            reset_at, count = now + per, 0
        bucket = f"{abs(hash((record.method, template))):x}"
        if count >= limit:
            retry_after = round(reset_at - now, 3)
            self.rate_limit_hits.append(record)
            record.status = 429
            body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
            record.response = body
            self._retries_due[(record.method, record.path)] = now + retry_after + 1.0
            headers = {
                "Content-Type": "application/json",
                "Via": "1.1 google",
                "Retry-After": str(max(1, int(retry_after + 0.999))),
                "X-RateLimit-Scope": "user",
                "X-RateLimit-Bucket": bucket,
            }
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        self._buckets[key] = (reset_at, count + 1)
        reset_after = max(reset_at - now, 0.001)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - count - 1),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    def _fault_response(self, record: RecordedRequest, fault: _Fault) -> web.Response:
        status = fault.status or 500
        record.status = status
        # discord.py retries 429 after retry_after and 500/502/504 after 1 s (then 3, 5, 7 s): settle()
        # waits for that retry instead of calling the bot idle while it sleeps.
        retries = sum(1 for r in self.requests if (r.method, r.path) == (record.method, record.path)) - 1
        wait = fault.retry_after if status == 429 else 1 + 2 * retries if status in (500, 502, 504) else None
        if wait is not None:
            self._retries_due[(record.method, record.path)] = time.monotonic() + wait + 1.0
        if status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
            }
            headers = {
                "Content-Type": "application/json",
                "Via": "1.1 google",
                "Retry-After": str(max(1, int(fault.retry_after + 0.999))),
                "X-RateLimit-Scope": "global" if fault.is_global else "user",
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            record.response = body
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        body = (
            fault.json if fault.json is not None else {"message": f"{status}: fake-discord fault", "code": 0}
        )
        record.response = body
        return _resp(status, body)

    def _error(self, record: RecordedRequest, err: ApiError) -> web.Response:
        record.status = err.status
        body = _error_body(err)
        record.response = body
        if err.violation:
            self._violation(
                Violation(
                    kind=err.kind,
                    reason=err.message,
                    method=record.method,
                    path=record.path,
                    status=err.status,
                    code=err.code,
                    errors=list(err.errors),
                )
            )
        return _resp(err.status, body)

    def _check_body(self, method: str, template: str, body: Any, *, kind: str | None = None) -> None:
        """OpenAPI schema plus the documented limits the schema leaves out; raises ApiError 50035."""
        if kind in ("message", "message_edit") and isinstance(body, dict):
            self._check_emojis(body)
        if not self.validate:
            return
        errors = validation.validate_request(method, template, body)
        if kind is not None and isinstance(body, dict):
            errors += validation.check_limits(kind, body)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)

    def _route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        self._routes.append(_RouteDef(method, template, _compile(template), handler, auth))

    def _build_routes(self) -> None:
        r = self._route
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._open_dm)
        for scope in ("/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"):
            r("GET", scope + "/commands", self._list_commands)
            r("PUT", scope + "/commands", self._put_commands)
            r("POST", scope + "/commands", self._post_command)
            r("GET", scope + "/commands/{command_id}", self._get_command)
            r("PATCH", scope + "/commands/{command_id}", self._patch_command)
            r("DELETE", scope + "/commands/{command_id}", self._delete_command)
        r("GET", "/applications/{application_id}/emojis", self._list_app_emojis)
        r("POST", "/applications/{application_id}/emojis", self._create_app_emoji)
        r("GET", "/applications/{application_id}/emojis/{emoji_id}", self._get_app_emoji)
        r("PATCH", "/applications/{application_id}/emojis/{emoji_id}", self._edit_app_emoji)
        r("DELETE", "/applications/{application_id}/emojis/{emoji_id}", self._delete_app_emoji)
        r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._callback, auth=False)
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        r("POST", hook, self._followup, auth=False)
        for which in ("@original", "{message_id}"):
            r("GET", hook + "/messages/" + which, self._get_webhook_message, auth=False)
            r("PATCH", hook + "/messages/" + which, self._edit_webhook_message, auth=False)
            r("DELETE", hook + "/messages/" + which, self._delete_webhook_message, auth=False)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._create_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        reactions = "/channels/{channel_id}/messages/{message_id}/reactions"
        r("PUT", reactions + "/{emoji}/@me", self._add_reaction)
        r("DELETE", reactions + "/{emoji}/@me", self._remove_reaction)
        r("DELETE", reactions + "/{emoji}/{user_id}", self._remove_reaction)
        r("GET", reactions + "/{emoji}", self._reaction_users)
        r("DELETE", reactions, self._clear_reactions)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("GET", "/guilds/{guild_id}/scheduled-events", self._list_events)
        r("POST", "/guilds/{guild_id}/scheduled-events", self._create_event)
        r("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", self._get_event)
        r("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", self._edit_event)
        r("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", self._delete_event)

    # ------------------------------------------------------------------ REST: identity

    async def _get_gateway(self, req: _Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, req: _Request) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, req: _Request) -> tuple[int, Any]:
        return 200, self.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
        }

    async def _get_application(self, req: _Request) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.global_name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "flags_new": str(self.application_flags),
            "integration_types_config": {"0": {}},
        }

    async def _get_user(self, req: _Request) -> tuple[int, Any]:
        user = self.users.get(_int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    # ------------------------------------------------------------------ REST: application emojis

    def _check_emojis(self, body: Json, where: str = "") -> None:
        """A custom emoji on a component must be one Discord knows (here: the application's)."""
        errors = uploads.component_emoji_errors(body.get("components"), set(self.app_emojis))
        if errors:
            errors = [where + e for e in errors]
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)

    def _app_emoji(self, req: _Request) -> Json:
        self._scope(req)
        emoji = self.app_emojis.get(_int(req.params["emoji_id"]))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji", violation=True, kind="unknown_emoji")
        return emoji

    async def _list_app_emojis(self, req: _Request) -> tuple[int, Any]:
        self._scope(req)
        return 200, {"items": [copy.deepcopy(e) for e in self.app_emojis.values()]}

    async def _create_app_emoji(self, req: _Request) -> tuple[int, Any]:
        self._scope(req)
        self._check_body("POST", "/applications/{application_id}/emojis", req.body)
        body = req.body if isinstance(req.body, dict) else {}
        if len(self.app_emojis) >= uploads.MAX_APP_EMOJIS:
            raise ApiError(400, 30008, "Maximum number of emojis reached (2000)", violation=True)
        errors = []
        taken = {str(e["name"]) for e in self.app_emojis.values()}
        if (why := uploads.emoji_name_error(body.get("name"), taken)) is not None:
            errors.append(why)
        image, bad = uploads.emoji_image(body.get("image"))
        if bad is not None:
            errors.append(bad)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        assert image is not None
        eid = self._snowflake()
        kind, _, _ = uploads.sniff(image)
        emoji = {
            "id": str(eid),
            "name": body["name"],
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": kind == "image/gif",
            "available": True,
        }
        self.app_emojis[eid] = emoji
        self.app_emoji_images[eid] = image
        return 201, copy.deepcopy(emoji)

    async def _get_app_emoji(self, req: _Request) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._app_emoji(req))

    async def _edit_app_emoji(self, req: _Request) -> tuple[int, Any]:
        emoji = self._app_emoji(req)
        self._check_body("PATCH", "/applications/{application_id}/emojis/{emoji_id}", req.body)
        name = (req.body or {}).get("name")
        taken = {str(e["name"]) for e in self.app_emojis.values() if e is not emoji}
        if (why := uploads.emoji_name_error(name, taken)) is not None:
            raise ApiError(400, 50035, "Invalid Form Body", errors=[why], violation=True)
        emoji["name"] = name
        return 200, copy.deepcopy(emoji)

    async def _delete_app_emoji(self, req: _Request) -> tuple[int, Any]:
        emoji = self._app_emoji(req)
        eid = int(emoji["id"])
        del self.app_emojis[eid]
        self.app_emoji_images.pop(eid, None)
        return 204, None

    # ------------------------------------------------------------------ REST: commands

    def _scope(self, req: _Request) -> int | None:
        if _int(req.params["application_id"]) != self.application_id:
            raise ApiError(403, 50001, "Missing Access", violation=True, kind="wrong_application")
        gid = req.params.get("guild_id")
        if gid is None:
            return None
        if _int(gid) not in self.guilds:
            raise ApiError(403, 50001, "Missing Access", violation=True, kind="unknown_guild")
        return _int(gid)

    def _store_command(self, scope: int | None, body: Json, existing: Json | None = None) -> Json:
        cmd = copy.deepcopy(body)
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "" if cmd["type"] != 1 else cmd.get("description", ""))
        old = existing or self.commands.get(scope, {}).get(cmd["name"])
        cmd["id"] = old["id"] if old and old.get("type") == cmd["type"] else str(self._snowflake())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self._snowflake())
        if scope is not None:
            cmd["guild_id"] = str(scope)
        perms = cmd.get("default_member_permissions")
        cmd["default_member_permissions"] = None if perms is None else str(perms)
        cmd.setdefault("nsfw", False)
        if scope is None:
            cmd.setdefault("contexts", None)
            if cmd.get("integration_types") is None:
                cmd["integration_types"] = [0]
        cmd["dm_permission"] = cmd.get("dm_permission", True) if scope is None else None
        return cmd

    async def _list_commands(self, req: _Request) -> tuple[int, Any]:
        scope = self._scope(req)
        return 200, list(self.commands.get(scope, {}).values())

    async def _put_commands(self, req: _Request) -> tuple[int, Any]:
        scope = self._scope(req)
        body = req.body if req.body is not None else []
        self._check_body("PUT", _template(req, "/commands"), body)
        errors: list[str] = []
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body", errors=["body: must be an array"], violation=True)
        for i, cmd in enumerate(body):
            errors += [f"{i}.{e}" for e in validation.check_limits("command", cmd)]
        keys = [(c.get("name"), c.get("type", 1)) for c in body if isinstance(c, dict)]
        dupes = {k for k in keys if keys.count(k) > 1}
        if dupes:
            errors.append(f"duplicate command names: {sorted(str(d) for d in dupes)}")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        stored = {c["name"]: self._store_command(scope, c) for c in body}
        self.commands[scope] = stored
        return 200, list(stored.values())

    async def _post_command(self, req: _Request) -> tuple[int, Any]:
        scope = self._scope(req)
        self._check_body("POST", _template(req, "/commands"), req.body, kind="command")
        cmd = self._store_command(scope, req.body)
        self.commands.setdefault(scope, {})[cmd["name"]] = cmd
        return 201, cmd

    def _command_by_id(self, req: _Request) -> tuple[int | None, Json]:
        scope = self._scope(req)
        for cmd in self.commands.get(scope, {}).values():
            if cmd["id"] == req.params["command_id"]:
                return scope, cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(self, req: _Request) -> tuple[int, Any]:
        return 200, self._command_by_id(req)[1]

    async def _patch_command(self, req: _Request) -> tuple[int, Any]:
        scope, cmd = self._command_by_id(req)
        self._check_body("PATCH", _template(req, "/commands/{command_id}"), req.body)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version", "guild_id")}
        merged.update(req.body or {})
        errors = validation.check_limits("command", merged)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        new = self._store_command(scope, merged, existing=cmd)
        table = self.commands.setdefault(scope, {})
        table.pop(cmd["name"], None)
        table[new["name"]] = new
        return 200, new

    async def _delete_command(self, req: _Request) -> tuple[int, Any]:
        scope, cmd = self._command_by_id(req)
        self.commands.get(scope, {}).pop(cmd["name"], None)
        return 204, None

    # ------------------------------------------------------------------ REST: interactions

    def _record_for(self, iid: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or str(record.id) != iid:
            raise ApiError(404, 10062, "Unknown interaction", violation=True, kind="unknown_interaction")
        return record

    async def _callback(self, req: _Request) -> tuple[int, Any]:
        record = self._record_for(req.params["interaction_id"], req.params["interaction_token"])
        try:
            return self._respond(record, req)
        except ApiError as err:
            if record.response_type is None:
                record.errors.append(f"initial response rejected: {err.code} {err.message} {err.errors}")
            raise

    def _respond(self, record: InteractionRecord, req: _Request) -> tuple[int, Any]:
        age = self.clock.now() - record.created
        if age > INTERACTION_DEADLINE:
            raise ApiError(
                404,
                10062,
                f"Unknown interaction (initial response {age:.2f} s after the interaction; the limit is 3 s)",
                violation=True,
                kind="late_response",
            )
        if record.response_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=True,
                kind="double_response",
            )
        body = req.body
        if not isinstance(body, dict) or not isinstance(body.get("type"), int):
            raise ApiError(400, 50035, "Invalid Form Body", errors=["type: required integer"], violation=True)
        ctype = body["type"]
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[record.type]
        if ctype not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=[
                    f"type: callback type {ctype} is not valid for interaction type {record.type} "
                    f"(allowed {sorted(allowed)})"
                ],
                violation=True,
            )
        if ctype in (6, 7) and record.source_message is None:
            raise ApiError(
                400, 50035, "Invalid Form Body", errors=["type: no message to update"], violation=True
            )
        kind = {4: "message", 7: "message", 8: "autocomplete", 9: "modal"}.get(ctype)
        data = body.get("data") or {}
        if kind == "message" and isinstance(data, dict):
            self._check_emojis(data, where="data.")
        if self.validate:
            errors = validation.validate_request(
                "POST", "/interactions/{interaction_id}/{interaction_token}/callback", body
            )
            if kind is not None:
                errors += [f"data.{e}" for e in validation.check_limits(kind, data)]
            if kind == "autocomplete":
                errors += [f"data.{e}" for e in self._check_choices_against_option(record, data)]
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        if ctype == 4 and not _has_content(data) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        record.response_type = ctype
        record.response_data = copy.deepcopy(data)
        record.responded_at = self.clock.now()
        resource: Json | None = None
        if ctype in (4, 5):
            flags = int(data.get("flags") or 0)
            msg_body = dict(data)
            if ctype == 5:
                msg_body = {"flags": flags & EPHEMERAL}
            msg = self._interaction_message(record, msg_body, req.files)
            if ctype == 5:
                msg.flags |= LOADING
            record.original = msg
            resource = msg.payload()
            self._dispatch_message("MESSAGE_CREATE", msg)
        elif ctype in (6, 7):
            source = record.source_message
            assert source is not None
            record.original = source
            if ctype == 7:
                self._apply_fields(source, data, creating=False, files=req.files)
                self._dispatch_message("MESSAGE_UPDATE", source)
            resource = source.payload()
        record.responded.set()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        interaction: Json = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(
                record.original and record.original.ephemeral and ctype in (4, 5)
            ),
        }
        if record.original is not None:
            interaction["response_message_id"] = str(record.original.id)
        if record.guild is not None:
            interaction["guild_id"] = str(record.guild.id)
        interaction["channel_id"] = str(record.channel.id)
        out: Json = {"interaction": interaction}
        if resource is not None and ctype in (4, 7):  # the spec returns a resource for these only
            out["resource"] = {"type": ctype, "message": resource}
        return 200, out

    def _check_choices_against_option(self, record: InteractionRecord, data: Json) -> list[str]:
        """Autocomplete choices must have the focused option's type (Discord rejects mismatches)."""
        focused = _focused_option(record.payload["data"].get("options", []))
        if focused is None:
            return []
        wanted: dict[int, type | tuple[type, ...]] = {3: str, 4: int, 10: (int, float)}
        want = wanted.get(focused["type"])
        errors = []
        for i, choice in enumerate(data.get("choices") or []):
            value = choice.get("value") if isinstance(choice, dict) else None
            if want is not None and (isinstance(value, bool) or not isinstance(value, want)):
                errors.append(f"choices.{i}.value: {value!r} does not match option type {focused['type']}")
        return errors

    def _interaction_message(
        self, record: InteractionRecord, body: Json, files: list[Json] | None = None
    ) -> Message:
        flags = int(body.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL)
        command_type = record.payload["data"].get("type", 1) if record.type == 2 else None
        # CHAT_INPUT_COMMAND (20) for slash commands, CONTEXT_MENU_COMMAND (23) for the menus, else DEFAULT
        cmd_type = {None: 0, 1: 20}.get(command_type, 23)
        msg = self._new_message(
            record.channel,
            self.bot_user,
            body,
            files,
            type=cmd_type if not record.original else 0,
            visible_to=record.user if ephemeral else None,
            webhook_id=self.application_id,
            application_id=self.application_id,
            interaction_metadata={
                "id": str(record.id),
                "type": record.type,
                "user": record.user.payload(),
                "authorizing_integration_owners": {"0": str(record.guild.id) if record.guild else "0"},
                **(
                    {"name": record.payload["data"]["name"], "command_type": command_type}
                    if record.type == 2
                    else {}
                ),
            },
        )
        if ephemeral:
            msg.flags |= EPHEMERAL
        return msg

    def _token_record(self, req: _Request) -> InteractionRecord:
        if _int(req.params["webhook_id"]) != self.application_id:
            raise ApiError(404, 10015, "Unknown Webhook", violation=True, kind="unknown_webhook")
        record = self._by_token.get(req.params["webhook_token"])
        if record is None:
            raise ApiError(401, 50027, "Invalid Webhook Token", violation=True, kind="invalid_token")
        if self.clock.now() - record.created > TOKEN_LIFETIME:
            raise ApiError(
                401, 50027, "Invalid Webhook Token (the interaction token expired after 15 minutes)"
            )
        if record.response_type is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook (follow-up before the initial response)",
                violation=True,
                kind="early_followup",
            )
        return record

    def _webhook_message(self, record: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            if record.original is None:
                raise ApiError(404, 10008, "Unknown Message")
            return record.original
        msg = self.messages.get(_int(message_id))
        if msg is None or msg.deleted or (msg is not record.original and msg not in record.followups):
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, req: _Request) -> tuple[int, Any]:
        record = self._token_record(req)
        self._check_body("POST", "/webhooks/{webhook_id}/{webhook_token}", req.body, kind="message")
        body = req.body or {}
        if not _has_content(body) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        original = record.original
        if original is not None and original.loading and record.response_type == 5:
            # Discord: the first follow-up after a deferred (thinking) response replaces the thinking
            # message and keeps its visibility.
            self._apply_fields(original, body, creating=False, files=req.files, notify=True)
            original.history.clear()
            original.edited_timestamp = None
            msg = original
        else:
            msg = self._interaction_message(record, body, req.files)
            record.followups.append(msg)
        self._dispatch_message("MESSAGE_CREATE", msg)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload()
        return 204, None

    async def _get_webhook_message(self, req: _Request) -> tuple[int, Any]:
        record = self._token_record(req)
        return 200, self._webhook_message(record, req.params.get("message_id", "@original")).payload()

    async def _edit_webhook_message(self, req: _Request) -> tuple[int, Any]:
        record = self._token_record(req)
        template = "/webhooks/{webhook_id}/{webhook_token}/messages/" + (
            "{message_id}" if "message_id" in req.params else "@original"
        )
        self._check_body("PATCH", template, req.body, kind="message_edit")
        msg = self._webhook_message(record, req.params.get("message_id", "@original"))
        self._apply_fields(msg, req.body or {}, creating=False, files=req.files)
        self._dispatch_message("MESSAGE_UPDATE", msg)
        return 200, msg.payload()

    async def _delete_webhook_message(self, req: _Request) -> tuple[int, Any]:
        record = self._token_record(req)
        msg = self._webhook_message(record, req.params.get("message_id", "@original"))
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        msg.deleted = True
        self._dispatch_delete(msg)
        return 204, None

    # ------------------------------------------------------------------ REST: channels and messages

    def _channel(self, req: _Request) -> Channel:
        cid = _int(req.params["channel_id"])
        for guild in self.guilds.values():
            if cid in guild.channels:
                return guild.channels[cid]
        raise ApiError(404, 10003, "Unknown Channel")

    def _need(self, channel: Channel, *perms: str) -> None:
        have = channel.guild.member(self.bot_user).permissions_in(channel)
        missing = [p for p in perms if not have & P(**{p: True}).value]
        if missing:
            raise ApiError(403, 50013, f"Missing Permissions ({', '.join(missing)} in #{channel.name})")

    def _target(self, req: _Request) -> Channel | DMChannel:
        """A guild channel or one of the bot's DM channels."""
        cid = _int(req.params["channel_id"])
        dm = next((d for d in self.dm_channels.values() if d.id == cid), None)
        return dm if dm is not None else self._channel(req)

    def _need_in(self, target: Channel | DMChannel, *perms: str) -> None:
        if isinstance(target, Channel):
            self._need(target, *perms)
        elif "send_messages" in perms:
            self._check_dm_allowed(target.recipient)

    def _check_dm_allowed(self, user: User) -> None:
        shares_guild = any(user.id in g.members for g in self.guilds.values())
        if user.bot or not user.dms_open or not shares_guild:
            raise ApiError(403, 50007, "Cannot send messages to this user")

    def _channel_message(self, channel: Channel | DMChannel, req: _Request) -> Message:
        msg = self.messages.get(_int(req.params["message_id"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel is not channel:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _get_channel(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._need_in(channel, "view_channel")
        return 200, channel.payload()

    async def _typing(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._need_in(channel, "view_channel", "send_messages")
        return 204, None

    async def _open_dm(self, req: _Request) -> tuple[int, Any]:
        self._check_body("POST", "/users/@me/channels", req.body)
        body = req.body or {}
        user = self.users.get(_int(body.get("recipient_id", 0)))
        if user is None:
            raise ApiError(
                400, 50035, "Invalid Form Body", errors=["recipient_id: Unknown user"], violation=True
            )
        return 200, self.dm_channel(user).payload()

    async def _list_messages(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._need_in(channel, "view_channel", "read_message_history")
        limit = int(req.query.get("limit", 50))
        if not 1 <= limit <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", errors=["limit: must be 1..100"], violation=True)
        msgs = [m for m in channel.messages if not m.ephemeral and not m.deleted]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < _int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > _int(req.query["after"])]
            return 200, [m.payload() for m in reversed(msgs[:limit])]
        return 200, [m.payload() for m in reversed(msgs[-limit:])]

    async def _create_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._check_body("POST", "/channels/{channel_id}/messages", req.body, kind="message")
        self._need_in(
            channel, "view_channel", "send_messages_in_threads" if channel.is_thread else "send_messages"
        )
        if req.files:
            self._need_in(channel, "attach_files")
        body = req.body or {}
        if not _has_content(body) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        if body.get("flags") and int(body["flags"]) & EPHEMERAL:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=["flags: ephemeral only in interaction responses"],
                violation=True,
            )
        reference = body.get("message_reference")
        if reference and reference.get("fail_if_not_exists", True):
            target = self.messages.get(_int(reference.get("message_id", 0)))
            if target is None or target.deleted or target.ephemeral:
                raise ApiError(400, 50035, "Invalid Form Body", errors=["message_reference: Unknown message"])
        if reference:  # Discord answers with string snowflakes and the reference's full address
            target_id = str(reference.get("message_id"))
            reference = {
                "type": reference.get("type", 0),
                "message_id": target_id,
                "channel_id": str(reference.get("channel_id") or channel.id),
                **({"guild_id": str(channel.guild.id)} if isinstance(channel, Channel) else {}),
            }
        msg = self._new_message(channel, self.bot_user, body, req.files, message_reference=reference or None)
        if reference:
            msg.type = 19
        self._dispatch_message("MESSAGE_CREATE", msg)
        return 200, msg.payload()

    async def _get_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._need_in(channel, "view_channel", "read_message_history")
        return 200, self._channel_message(channel, req).payload()

    async def _edit_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        self._check_body(
            "PATCH", "/channels/{channel_id}/messages/{message_id}", req.body, kind="message_edit"
        )
        msg = self._channel_message(channel, req)
        body = req.body or {}
        if msg.author is not self.bot_user and set(body) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._apply_fields(msg, body, creating=False, files=req.files)
        self._dispatch_message("MESSAGE_UPDATE", msg)
        return 200, msg.payload()

    async def _delete_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._target(req)
        msg = self._channel_message(channel, req)
        if msg.author is not self.bot_user:
            if isinstance(channel, DMChannel):
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._need(channel, "manage_messages")
        msg.deleted = True
        self._dispatch_delete(msg)
        return 204, None

    async def _create_thread(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req)
        template = "/channels/{channel_id}/" + (
            "messages/{message_id}/threads" if "message_id" in req.params else "threads"
        )
        self._check_body("POST", template, req.body)
        if channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = req.body or {}
        errors: list[str] = []
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append("name: Must be between 1 and 100 in length.")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        if "message_id" in req.params:
            msg = self._channel_message(channel, req)
            self._need(channel, "view_channel", "create_public_threads")
            if any(c.id == msg.id for c in channel.guild.channels.values()):
                raise ApiError(400, 160004, "A thread has already been created for this message")
            private = False
        else:
            msg = None
            private = body.get("type", 12) == 12
            self._need(
                channel, "view_channel", "create_private_threads" if private else "create_public_threads"
            )
        thread = channel.guild.add_thread(
            channel, str(name), private=private, owner=self.bot_user, thread_id=msg.id if msg else None
        )
        return 201, thread.payload()

    def _reaction_message(self, req: _Request) -> tuple[Channel, Message, str]:
        channel = self._channel(req)
        msg = self._channel_message(channel, req)
        emoji = req.params["emoji"]
        return channel, msg, emoji

    async def _add_reaction(self, req: _Request) -> tuple[int, Any]:
        channel, msg, emoji = self._reaction_message(req)
        self._need(channel, "view_channel", "read_message_history")
        users = msg.reactions.setdefault(emoji, [])
        if not users:
            self._need(channel, "add_reactions")
        if self.bot_user.id not in users:
            users.append(self.bot_user.id)
            self._dispatch_reaction("MESSAGE_REACTION_ADD", self.bot_user, msg, emoji)
        return 204, None

    async def _remove_reaction(self, req: _Request) -> tuple[int, Any]:
        channel, msg, emoji = self._reaction_message(req)
        uid = self.bot_user.id if "user_id" not in req.params else _int(req.params["user_id"])
        if uid != self.bot_user.id:
            self._need(channel, "manage_messages")
        users = msg.reactions.get(emoji, [])
        if uid in users:
            users.remove(uid)
            if not users:
                del msg.reactions[emoji]
            self._dispatch_reaction("MESSAGE_REACTION_REMOVE", self.users[uid], msg, emoji)
        return 204, None

    async def _reaction_users(self, req: _Request) -> tuple[int, Any]:
        _, msg, emoji = self._reaction_message(req)
        if emoji not in msg.reactions:
            raise ApiError(404, 10014, "Unknown Emoji")
        return 200, [self.users[u].payload() for u in msg.reactions[emoji]]

    async def _clear_reactions(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req)
        msg = self._channel_message(channel, req)
        self._need(channel, "manage_messages")
        msg.reactions.clear()
        return 204, None

    def _dispatch_reaction(self, event: str, user: User, msg: Message, emoji: str) -> None:
        if not self.gateway.intents & INTENT_GUILD_MESSAGE_REACTIONS or not isinstance(msg.channel, Channel):
            return
        name, _, eid = emoji.partition(":")
        data: Json = {
            "user_id": str(user.id),
            "channel_id": str(msg.channel.id),
            "message_id": str(msg.id),
            "guild_id": str(msg.channel.guild.id),
            "emoji": {"id": eid or None, "name": name},
            "burst": False,
            "type": 0,
        }
        if event == "MESSAGE_REACTION_ADD":
            data["message_author_id"] = str(msg.author.id)
            member = msg.channel.guild.members.get(user.id)
            if member is not None:
                data["member"] = member.payload()
        self.gateway.dispatch(event, data)

    # ------------------------------------------------------------------ REST: guilds

    def _guild(self, req: _Request) -> Guild:
        guild = self.guilds.get(_int(req.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, req: _Request) -> tuple[int, Any]:
        guild = self._guild(req)
        data = guild.payload(full=False)
        if req.query.get("with_counts") in ("1", "true", "True"):
            data |= {"approximate_member_count": len(guild.members), "approximate_presence_count": 0}
        return 200, data

    async def _get_guild_channels(self, req: _Request) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._guild(req).text_channels]

    async def _get_roles(self, req: _Request) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild(req).roles.values()]

    async def _get_member(self, req: _Request) -> tuple[int, Any]:
        member = self._guild(req).members.get(_int(req.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    # ------------------------------------------------------------------ REST: scheduled events

    def _event(self, guild: Guild, req: _Request) -> ScheduledEvent:
        event = guild.scheduled_events.get(_int(req.params["event_id"]))
        if event is None:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return event

    def _check_event(self, guild: Guild, data: Json) -> None:
        errors = validation.check_limits("scheduled_event", data)
        if data.get("entity_type") in (1, 2):
            cid = _int(data.get("channel_id") or 0)
            if cid not in guild.channels:
                errors.append("channel_id: a stage/voice event needs a channel of this guild")
        start = data.get("scheduled_start_time")
        if start and validation.parse_time(start) is not None and data.get("status", 1) == 1:
            when = validation.parse_time(start)
            if when is not None and when < self.clock.now():
                errors.append("scheduled_start_time: Cannot schedule event in the past.")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)

    async def _list_events(self, req: _Request) -> tuple[int, Any]:
        return 200, [e.data for e in self._guild(req).scheduled_events.values()]

    async def _create_event(self, req: _Request) -> tuple[int, Any]:
        guild = self._guild(req)
        self._check_body("POST", "/guilds/{guild_id}/scheduled-events", req.body)
        have = guild.member(self.bot_user).base_permissions
        if not have & (P(manage_events=True).value | P(create_events=True).value):
            raise ApiError(403, 50013, "Missing Permissions (manage_events)")
        body = req.body or {}
        self._check_event(guild, body)
        eid = self._snowflake()
        data: Json = {
            "id": str(eid),
            "guild_id": str(guild.id),
            "channel_id": body.get("channel_id"),
            "creator_id": str(self.bot_user.id),
            "creator": self.bot_user.payload(),
            "name": body["name"],
            "description": body.get("description"),
            "scheduled_start_time": body["scheduled_start_time"],
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body.get("privacy_level", 2),
            "status": 1,
            "entity_type": body["entity_type"],
            "entity_id": None,
            "entity_metadata": body.get("entity_metadata"),
            "user_count": 0,
            "image": None,
            "recurrence_rule": body.get("recurrence_rule"),
            "guild_scheduled_event_exceptions": [],
        }
        guild.scheduled_events[eid] = ScheduledEvent(id=eid, guild=guild, data=data)
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_CREATE", data)
        return 200, data

    async def _get_event(self, req: _Request) -> tuple[int, Any]:
        guild = self._guild(req)
        return 200, self._event(guild, req).data

    async def _edit_event(self, req: _Request) -> tuple[int, Any]:
        guild = self._guild(req)
        self._check_body("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", req.body)
        event = self._event(guild, req)
        merged = dict(event.data) | (req.body or {})
        if "status" in (req.body or {}):
            old, new = event.data["status"], req.body["status"]
            if (old, new) not in ((1, 2), (1, 4), (2, 3)) and old != new:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors=[f"status: cannot go from {old} to {new}"],
                    violation=True,
                )
        self._check_event(
            guild,
            merged | {"status": merged.get("status", 1) if "scheduled_start_time" in (req.body or {}) else 0},
        )
        event.data = merged
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", merged)
        return 200, merged

    async def _delete_event(self, req: _Request) -> tuple[int, Any]:
        guild = self._guild(req)
        event = self._event(guild, req)
        del guild.scheduled_events[event.id]
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_DELETE", event.data)
        return 204, None


async def _no_identify_delay(shard_id: int | None, *, initial: bool = False) -> None:
    return None


class _ErrorCollector(logging.Handler):
    """Collects ERROR records from discord.py's loggers (exceptions in commands, views, events)."""

    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError(404, 0, "404: Not Found") from None


def _template(req: _Request, suffix: str) -> str:
    base = "/applications/{application_id}"
    if "guild_id" in req.params:
        base += "/guilds/{guild_id}"
    return base + suffix


def _has_content(body: Json) -> bool:
    return any(body.get(k) for k in ("content", "embeds", "components", "poll", "sticker_ids", "attachments"))


def _focused_option(options: list[Json]) -> Json | None:
    for opt in options:
        if opt.get("focused"):
            return opt
        found = _focused_option(opt.get("options") or [])
        if found is not None:
            return found
    return None
