"""Faults a test injects: the next requests to a route answered with an error status (429 with
``retry_after``, 5xx) or held for a while, and the retries discord.py then owes (``settle`` waits
for them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from ..records import RecordedRequest
from ..state import FakeState
from .wire import json_response


@dataclass
class Fault:
    method: str
    route: str
    status: int | None
    retry_after: float
    times: int
    delay: float
    is_global: bool
    json: Any = None


class Faults:
    """The driver's ``fail_next``/``delay_next`` and the answers they give."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self._faults: list[Fault] = []

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
        self._faults.append(Fault(method.upper(), route, status, retry_after, times, 0.0, is_global, json))

    def delay_next(self, method: str, route: str, seconds: float, *, times: int = 1) -> None:
        """Hold the next ``times`` requests to ``route`` for ``seconds`` before handling them."""
        self._faults.append(Fault(method.upper(), route, None, 0.0, times, seconds, False))

    def take(self, method: str, template: str | None, path: str) -> Fault | None:
        for fault in self._faults:
            if fault.method == method and fault.route in (template, path):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault
        return None

    def response(self, record: RecordedRequest, fault: Fault) -> web.Response:
        status = fault.status or 500
        record.status = status
        # discord.py retries 429 after retry_after and 500/502/504 after 1 s (then 3, 5, 7 s): settle()
        # waits for that retry instead of calling the bot idle while it sleeps.
        retries = (
            sum(1 for r in self.state.requests if (r.method, r.path) == (record.method, record.path)) - 1
        )
        wait = fault.retry_after if status == 429 else 1 + 2 * retries if status in (500, 502, 504) else None
        if wait is not None:
            self.state.expect_retry(record.method, record.path, wait + 1.0)
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
        return json_response(status, body)
