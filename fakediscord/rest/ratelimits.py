"""Discord's rate limits, opt-in: per-route buckets with ``X-RateLimit-*`` headers, the global limit
on bot-token requests, and the count of invalid requests (401/403/429) that gets an IP banned."""

from __future__ import annotations

import collections
import json
import time

from aiohttp import web

from ..records import RecordedRequest, Violation
from ..state import FakeState

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


class RateLimits:
    """Buckets, the global window and the invalid-request count (``rate_limits``, ``global_limit``)."""

    def __init__(
        self,
        state: FakeState,
        *,
        rate_limits: bool | dict[tuple[str, str], tuple[int, float, str]] = False,
        global_limit: int | None = None,
    ) -> None:
        self.state = state
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

    def global_exhausted(self, now: float) -> bool:
        """The global window is full: discord.py may be paused on a global 429 until it frees up."""
        window = self._global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        return self.global_limit is not None and len(window) >= self.global_limit

    def bucket_exhausted(self, now: float) -> bool:
        """A rate-limit bucket at 0 until it resets: discord.py may be holding a request for it."""
        assert self.rate_limits is not None or not self._buckets
        for (method, template, _), (reset_at, count) in self._buckets.items():
            if self.rate_limits and count >= self.rate_limits[(method, template)][0] and now < reset_at:
                return True
        return False

    def global_rate_limit(self, record: RecordedRequest) -> web.Response | None:
        """A sliding one-second window over bot-token requests: ``None`` lets the request through."""
        assert self.global_limit is not None
        now = time.monotonic()
        if not self.global_exhausted(now):
            self._global_window.append(now)
            return None
        retry_after = round(max(self._global_window[0] + 1.0 - now, 0.001), 3)
        return self._too_many(
            record, now, retry_after, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        )

    def _too_many(
        self, record: RecordedRequest, now: float, retry_after: float, scope: dict[str, str]
    ) -> web.Response:
        """Discord's 429: recorded, the retry it allows remembered (a retry before it is invalid),
        ``global`` in the body when the scope header says so."""
        self.rate_limit_hits.append(record)
        record.status = 429
        is_global = "X-RateLimit-Global" in scope
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        record.response = body
        self.state.expect_retry(record.method, record.path, retry_after + 1.0)
        headers = {
            "Content-Type": "application/json",
            "Via": "1.1 google",
            "Retry-After": str(max(1, int(retry_after + 0.999))),
        } | scope
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

    def rate_limit(self, record: RecordedRequest, template: str) -> dict[str, str] | web.Response:
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
            return self._too_many(
                record, now, retry_after, {"X-RateLimit-Scope": "user", "X-RateLimit-Bucket": bucket}
            )
        self._buckets[key] = (reset_at, count + 1)
        reset_after = max(reset_at - now, 0.001)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - count - 1),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    def count_invalid(self, record: RecordedRequest) -> None:
        """Discord counts 401/403/429 answers per IP; 10,000 in 10 minutes is a temporary ban."""
        now = time.monotonic()
        self.invalid_requests.append(record)
        times = self._invalid_times
        times.append(now)
        while times and times[0] <= now - INVALID_REQUEST_WINDOW:
            times.popleft()
        if len(times) == INVALID_REQUEST_LIMIT:
            self.state.record_violation(
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
