"""This process's share of the global REST budget (bot/ratelimit.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from discord.http import Route

from bot.ratelimit import GlobalBudget, exempt


class _Http:
    """Stands in for discord.py's HTTPClient: records when each request went out."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, str]] = []

    async def request(self, route: Route, **kwargs: Any) -> str:
        self.sent.append((time.monotonic(), route.path))
        return route.path


def test_interaction_answers_are_exempt() -> None:
    assert exempt(Route("POST", "/interactions/{i}/{t}/callback", i=1, t="x"))
    assert exempt(Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                        webhook_id=1, webhook_token="tok"))  # fmt: skip
    assert not exempt(Route("POST", "/channels/{channel_id}/messages", channel_id=5))
    assert not exempt(Route("GET", "/webhooks/{webhook_id}", webhook_id=1))


async def test_requests_beyond_the_share_wait_and_answers_never_do() -> None:
    http = _Http()
    budget = GlobalBudget(5.0)
    budget.install(http)  # type: ignore[arg-type]
    post = Route("POST", "/channels/{channel_id}/messages", channel_id=5)
    answer = Route("POST", "/interactions/{i}/{t}/callback", i=1, t="x")
    started = time.monotonic()
    posts = [asyncio.ensure_future(http.request(post)) for _ in range(15)]
    await asyncio.sleep(0.05)
    assert budget.waiting >= 9  # the first second's share went out, the rest queue
    answers = await asyncio.gather(*(http.request(answer) for _ in range(20)))
    assert len(answers) == 20 and budget.sent <= 6  # answers went out past the queue, uncounted
    await asyncio.gather(*posts)
    assert budget.sent == 15 and budget.waiting == 0
    # 15 posts at 5/s: the last one cannot leave before about two seconds (a lower bound only)
    last_post = max(t for t, path in http.sent if path.startswith("/channels/"))
    assert last_post - started >= 1.8


def test_the_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        GlobalBudget(0)
