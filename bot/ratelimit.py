"""This process's share of the bot token's global REST budget, and the one place that decides
which bot-token request goes out next.

Discord allows a bot token about 50 requests per second in all (the *global* limit), whichever
process sends them. Several shard processes of one bot each take a share: by default
``len(SHARD_IDS) / SHARD_COUNT`` of ``DISCORD_RATE_LIMIT`` (50), or ``RATE_LIMIT_SHARE`` when set
(see docs/SHARDING.md). The share is enforced before a request leaves, with a leaky bucket
(aiolimiter), so the processes together stay under the limit instead of meeting global 429s.

Requests wait for the budget in priority order (:data:`URGENT` first, then :data:`HUMAN`,
:data:`POSTS`, :data:`BOTS`), first come first served within a level. The table publisher takes
its slot *before* it draws a live message (``acquire`` then :func:`prepaid`), so what goes out is
the table's latest state, however long it waited (latest state wins).

Interaction responses and follow-ups (``/interactions/…``, webhooks with a token) are not bound
by the global limit and never wait here: an answer within Discord's 3 s never queues behind a
burst of channel posts.

The budget runs on Discord's time (``time.monotonic``, as discord.py's own buckets), never on the
game's ``bot.clock.Clock``: a faster sandbox or test clock must not let more requests out per second.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import logging
import math
import time
from collections.abc import Iterator
from typing import Any

from aiolimiter import AsyncLimiter
from discord.http import HTTPClient, Route

log = logging.getLogger(__name__)

#: Priorities, most urgent first: requests outside the publisher (command sync, a thread...),
#: the live message of a table where a human is to act, hand and game posts, tables of bots only.
URGENT, HUMAN, POSTS, BOTS = 0, 1, 2, 3
LEVELS = 4

#: Discord counts requests in any one second; a leaky bucket lets ``burst + rate`` through in a
#: second, and requests sent on time can arrive bunched: keep this fraction of the share in hand.
HEADROOM = 0.1
#: Seconds a request may wait at a lower level before it goes ahead of more urgent ones (so the
#: tables of bots only lag, but are never starved by a steady stream of human tables).
MAX_WAIT = 6.0

# A request whose slot was already taken (by the publisher, before drawing its content).
_prepaid: contextvars.ContextVar[bool] = contextvars.ContextVar("budget_prepaid", default=False)


def exempt(route: Route) -> bool:
    """Requests the global limit does not count (interaction callbacks and token webhooks)."""
    return route.path.startswith("/interactions/") or (
        route.path.startswith("/webhooks/") and route.webhook_token is not None
    )


@contextlib.contextmanager
def prepaid() -> Iterator[None]:
    """The first budgeted request of this task inside the block was paid for already (with
    :meth:`GlobalBudget.acquire`): it does not queue again."""
    token = _prepaid.set(True)
    try:
        yield
    finally:
        _prepaid.reset(token)


class Ticket:
    """A place in the budget's queue; its level can be raised while it waits."""

    __slots__ = ("budget", "future", "level", "since")

    def __init__(self, budget: GlobalBudget, level: int) -> None:
        self.budget = budget
        self.level = level
        self.since = time.monotonic()
        self.future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def raise_to(self, level: int) -> None:
        """Move to a more urgent level (a human's turn came while the edit was queued)."""
        if level < self.level and not self.future.done():
            self.level = level
            self.budget._queues[level].append(self)  # the old entry is skipped when reached

    async def wait(self) -> None:
        budget = self.budget
        budget.waiting += 1
        try:
            await self.future
        except asyncio.CancelledError:
            if self.future.done() and not self.future.cancelled():
                budget._spare += 1  # granted as we were cancelled: the slot goes to the next one
            self.future.cancel()
            raise
        finally:
            budget.waiting -= 1
        budget.sent += 1
        budget.sent_by_level[self.level] += 1


class GlobalBudget:
    """At most ``per_second`` requests in any second (less :data:`HEADROOM`), every counted REST
    call of this process, granted most urgent first."""

    def __init__(self, per_second: float) -> None:
        if per_second <= 0:
            raise ValueError("the request budget must be positive")
        self.per_second = per_second
        usable = per_second * (1 - HEADROOM)
        # a burst of a tenth of a second's share: a busy event loop that wakes the queue late can
        # still send its share in a few wake-ups instead of two requests each
        self.burst = max(1, round(per_second / 10))
        self.rate = max(usable - self.burst, usable / 2)
        # a bucket of ``burst`` refilled at ``rate``: at most burst + rate requests in any second
        self._limiter = AsyncLimiter(self.burst, self.burst / self.rate)
        self._queues: list[collections.deque[Ticket]] = [collections.deque() for _ in range(LEVELS)]
        self._pump: asyncio.Task[None] | None = None
        self._spare = 0
        self._http: HTTPClient | None = None
        # when the last counted requests actually left (a busy loop sends granted ones late)
        self._left: collections.deque[float] = collections.deque()
        self.held_back = 0  # requests the send-time check made wait
        self.waiting = 0  # requests queued for the budget right now (the health line reports it)
        self.sent = 0
        self.sent_by_level = [0] * LEVELS

    def ticket(self, level: int = URGENT) -> Ticket:
        """Queue for a slot at ``level`` (await ``ticket.wait()``); see :meth:`acquire`."""
        t = Ticket(self, level)
        self._queues[level].append(t)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run(), name="rest-budget")
        return t

    async def acquire(self, level: int = URGENT) -> None:
        """Wait for a slot: the next request may go out without meeting the global limit."""
        await self.ticket(level).wait()

    def _next(self) -> Ticket | None:
        old = time.monotonic() - MAX_WAIT
        for level, q in enumerate(self._queues):
            while q and (q[0].future.done() or q[0].level != level):
                q.popleft()
            if level > HUMAN and q and q[0].since < old:  # waited too long: served now
                return q.popleft()
        for level, q in enumerate(self._queues):
            while q:
                t = q.popleft()
                if not t.future.done() and t.level == level:  # (else cancelled, or moved up)
                    return t
        return None

    def _pending(self) -> bool:
        return any(not t.future.done() for q in self._queues for t in q)

    async def _run(self) -> None:
        while self._pending():
            if self._spare:
                self._spare -= 1
            else:
                await self._limiter.acquire()
                http = self._http
                over = getattr(http, "_global_over", None) if http is not None else None
                if isinstance(over, asyncio.Event) and not over.is_set():
                    # discord.py is honouring a global 429: nothing leaves until it is over
                    await over.wait()
            t = self._next()
            if t is None:
                return
            t.future.set_result(None)

    async def _leave(self) -> None:
        """A last check as a granted request leaves: never more than ``burst + rate`` in the last
        second by the time they are sent (an event loop busy for a moment releases granted
        requests together, which Discord would count in one second)."""
        # a whole number of requests: with a small budget (4 a second: ``burst + rate`` is 3.6)
        # ``len(left) < 3.6`` let a fourth through, exactly the limit, and a request that reached
        # Discord a little late then made a fifth in Discord's second
        cap = math.floor(self.burst + self.rate)
        left = self._left
        while True:
            now = time.monotonic()
            while left and left[0] <= now - 1.0:
                left.popleft()
            if len(left) < cap:
                left.append(now)
                return
            self.held_back += 1
            await asyncio.sleep(left[0] + 1.0 - now)

    def install(self, http: HTTPClient) -> None:
        """Route every counted request of ``http`` (a discord.py client's ``.http``) through here."""
        original = http.request
        self._http = http

        async def request(route: Route, **kwargs: Any) -> Any:
            if exempt(route):
                return await original(route, **kwargs)
            if _prepaid.get():
                _prepaid.set(False)
            else:
                await self.acquire(URGENT)
            await self._leave()
            return await original(route, **kwargs)

        http.request = request  # type: ignore[method-assign]
        log.info("REST budget of this process: %.1f requests/s", self.per_second)
