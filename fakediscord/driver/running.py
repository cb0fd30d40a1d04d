"""Running the bot against the fake: pointing discord.py at it and starting the bot, waiting until
it is idle (``settle``), gateway drills (drop, reconnect, invalidate), and moving the fake clock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from ..clock import Stopwatch, cpu_waits
from ..interactions import Interactions
from ..records import FakeDiscordUsageError
from ..rest.ratelimits import RateLimits
from ..state import FakeState

ClientT = TypeVar("ClientT", bound=discord.Client)
T = TypeVar("T")


#: How long (``Stopwatch`` time) a bot may take to become ready, and to close. Bounds for a hang,
#: not speed checks: a bot's start and stop also wait on other processes (its search workers at
#: idle priority, a database server), whose time a loaded machine stretches and ``Stopwatch``
#: cannot discount.
READY_SECONDS = 30.0
CLOSE_SECONDS = 30.0
#: How long (``Stopwatch`` time) ``settle`` waits for a bot to go quiet: a loaded machine spreads a
#: burst of the bot's work (a bot's turn, its posts and redraws) over longer than a quiet one does.
SETTLE_SECONDS = 30.0


class Running:
    """``run_bot``, ``settle``, the gateway drills (``drop_gateway``, ``send_reconnect``,
    ``invalidate_session``) and ``advance_clock``."""

    def __init__(self, state: FakeState, desk: Interactions, limits: RateLimits) -> None:
        self.state = state
        self.gateway = state.gateway
        self.desk = desk
        self.limits = limits

    @contextlib.asynccontextmanager
    async def run_bot(
        self, bot: ClientT, token: str = "x", *, timeout: float = READY_SECONDS, sync_commands: bool = False
    ) -> AsyncIterator[ClientT]:
        """Point discord.py at this fake, start ``bot``, wait until it is ready; close it on exit.

        Patches ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` for the duration,
        shortens the bot's ``guild_ready_timeout`` (discord.py waits that long after the last
        GUILD_CREATE before READY; 2 s by default) and skips the 5 s courtesy sleep discord.py makes
        before re-IDENTIFYing. ``sync_commands`` syncs ``bot.tree`` globally and
        for each guild the tree has guild commands for, over the fake's HTTP API, once ready.
        """
        self.state.token = token
        old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.state.base_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.state.gateway_url)
        state = bot._connection
        old_ready_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = min(old_ready_timeout, self.state.guild_ready_timeout)
        # discord.py sleeps 5 s before every re-IDENTIFY (not before RESUME); not worth waiting for here.
        had_hook = "before_identify_hook" in vars(bot)
        old_hook = bot.before_identify_hook
        bot.before_identify_hook = _no_identify_delay  # type: ignore[method-assign]
        handler = _ErrorCollector(self.state.bot_errors)
        discord_logger = logging.getLogger("discord")
        discord_logger.addHandler(handler)
        task = asyncio.create_task(bot.start(token), name="fake-discord bot")
        try:
            watch = Stopwatch()
            while not bot.is_ready():
                if task.done():
                    exc = None if task.cancelled() else task.exception()
                    raise AssertionError(
                        f"the bot stopped before it was ready: {exc!r}; violations: {self.state.violations}"
                    ) from exc
                if watch.past(timeout):
                    raise AssertionError(
                        f"the bot was not ready within {timeout} s; violations: {self.state.violations}"
                    )
                await asyncio.sleep(0.005)
            if sync_commands:
                tree = getattr(bot, "tree", None)
                if tree is None:
                    raise FakeDiscordUsageError("sync_commands needs a commands.Bot (with .tree)")
                await tree.sync()
                for guild in self.state.guilds.values():
                    if tree.get_commands(guild=discord.Object(guild.id)):
                        await tree.sync(guild=discord.Object(guild.id))
            await self.settle()
            yield bot
        finally:
            try:
                await _within(bot.close(), CLOSE_SECONDS)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await _within(task, 5)
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

    async def settle(self, *, quiet: float | None = None, timeout: float = SETTLE_SECONDS) -> None:
        """Wait until the bot is idle: no request in flight or undelivered event, none for ``quiet`` s.

        The quiet period, like the timeout, leaves out the time the process waited for a CPU: on a
        loaded machine a bot kept off the CPU is not taken for one with nothing left to do."""
        quiet = self.state.quiet_period if quiet is None else quiet
        watch = Stopwatch()
        mark, waited = self.state.last_activity, cpu_waits()  # the activity the quiet period counts from
        while True:
            now = time.monotonic()
            busy = (
                self.state.inflight > 0
                or self.gateway.pending() > 0
                or self.state.retries_outstanding()
                or bool(self.desk.unanswered())
                or self.limits.bucket_exhausted(now)
                or self.limits.global_exhausted(now)
            )
            if busy:
                self.state.last_activity = now
            if self.state.last_activity != mark:
                mark, waited = self.state.last_activity, cpu_waits()
            elif now - mark - (cpu_waits() - waited) >= quiet:
                return
            if watch.past(timeout):
                raise AssertionError(
                    f"the bot did not settle within {timeout} s "
                    f"({self.state.inflight} requests in flight, "
                    f"{self.gateway.pending()} events undelivered)"
                )
            await asyncio.sleep(min(0.01, quiet / 4))

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
        watch = Stopwatch()
        while not cond():
            if watch.past(timeout):
                raise AssertionError(f"{what} within {timeout} s")
            await asyncio.sleep(0.01)

    def advance_clock(self, seconds: float = 0.0, *, minutes: float = 0.0) -> None:
        """Move the fake clock forward: interaction deadlines and token lifetimes use it."""
        self.state.clock.advance(seconds + 60 * minutes)


async def _within(aw: Awaitable[T], seconds: float) -> T:
    """``asyncio.wait_for`` timed by a ``Stopwatch``: on a loaded machine, closing the bot is not
    failed for the seconds the process was not given a CPU."""
    task = asyncio.ensure_future(aw)
    watch = Stopwatch()
    while True:
        done, _ = await asyncio.wait({task}, timeout=0.05)
        if done:
            return task.result()
        if watch.past(seconds):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise TimeoutError(f"not done within {seconds:g} s")


async def _no_identify_delay(shard_id: int | None, *, initial: bool = False) -> None:
    return None


class _ErrorCollector(logging.Handler):
    """Collects ERROR records from discord.py's loggers (exceptions in commands, views, events)."""

    def __init__(self, sink: list[logging.LogRecord]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record)
