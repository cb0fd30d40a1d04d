"""This process's share of the bot token's global REST budget.

Discord allows a bot token about 50 requests per second in all (the *global* limit), whichever
process sends them. Several shard processes of one bot each take a share: by default
``len(SHARD_IDS) / SHARD_COUNT`` of ``DISCORD_RATE_LIMIT`` (50), or ``RATE_LIMIT_SHARE`` when set
(see docs/SHARDING.md). The share is enforced before a request leaves, with a leaky bucket
(aiolimiter), so the processes together stay under the limit instead of meeting global 429s.

Interaction responses and follow-ups (``/interactions/…``, webhooks with a token) are not bound
by the global limit and never wait here: an answer within Discord's 3 s never queues behind a
burst of channel posts.
"""

from __future__ import annotations

import logging
from typing import Any

from aiolimiter import AsyncLimiter
from discord.http import HTTPClient, Route

log = logging.getLogger(__name__)


def exempt(route: Route) -> bool:
    """Requests the global limit does not count (interaction callbacks and token webhooks)."""
    return route.path.startswith("/interactions/") or (
        route.path.startswith("/webhooks/") and route.webhook_token is not None
    )


class GlobalBudget:
    """A leaky bucket of ``per_second`` requests, shared by every REST call of this process."""

    def __init__(self, per_second: float) -> None:
        if per_second <= 0:
            raise ValueError("the request budget must be positive")
        self.per_second = per_second
        # a bucket of one second: at most per_second requests in any second, bursts included
        self._limiter = AsyncLimiter(per_second, 1.0)
        self.waiting = 0  # requests queued for the budget right now (the health line reports it)
        self.sent = 0

    async def acquire(self) -> None:
        self.waiting += 1
        try:
            await self._limiter.acquire()
        finally:
            self.waiting -= 1
        self.sent += 1

    def install(self, http: HTTPClient) -> None:
        """Route every counted request of ``http`` (a discord.py client's ``.http``) through here."""
        original = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            if not exempt(route):
                await self.acquire()
            return await original(route, **kwargs)

        http.request = request  # type: ignore[method-assign]
        log.info("REST budget of this process: %.1f requests/s", self.per_second)
