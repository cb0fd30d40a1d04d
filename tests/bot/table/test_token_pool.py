"""bot.table.tokens: the pool of public-message tokens the publisher redraws live messages through."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import safe
from bot.storage import Storage
from bot.table import tokens
from bot.table.tokens import PublicTokens

CHANNEL = 2000


def public(message_id: int = 7, since: float | None = None) -> safe.PublicMessage:
    return safe.PublicMessage(
        SimpleNamespace(id=1),
        message_id,
        time.monotonic() if since is None else since,  # type: ignore[arg-type]
    )


def test_only_public_messages_are_kept() -> None:
    pool = PublicTokens()
    with pytest.raises(TypeError):
        pool.add(1, safe.PrivateMessage(SimpleNamespace(), None))  # type: ignore[arg-type]


def test_a_token_edits_only_its_own_message_and_only_while_fresh() -> None:
    pool = PublicTokens()
    pool.add(1, public(7))
    assert pool.pick(1, 8) is None  # the live message was posted again: the token points elsewhere
    assert not pool.holds(1)
    pool.add(1, public(7, since=time.monotonic() - tokens.TOKEN_TTL - 1))
    assert pool.pick(1, 7) is None and not pool.holds(1)  # expired
    assert pool.pick(2, 7) is None  # another table has none


def test_a_token_is_never_used_past_its_rate_limit_and_the_least_used_goes_first() -> None:
    pool = PublicTokens()
    a, b = public(7), public(7)
    pool.add(1, a)
    picked: list[Any] = [pool.pick(1, 7) for _ in range(tokens.PER_TOKEN + 1)]
    assert picked[: tokens.PER_TOKEN] == [a] * tokens.PER_TOKEN and picked[-1] is None
    pool.add(1, b)
    assert pool.pick(1, 7) is b
    assert pool.has(1, 7) and not pool.has(1, 8)


def test_the_pool_keeps_the_newest() -> None:
    pool = PublicTokens(size=2)
    first, second, third = public(), public(), public()
    for p in (first, second, third):
        pool.add(1, p)
    seen = {id(pool.pick(1, 7)) for _ in range(2 * tokens.PER_TOKEN)}
    assert seen == {id(second), id(third)}
    pool.drop(1)
    assert not pool.holds(1)


class StubInteraction:
    """An interaction whose ``@original`` is the live message: records edits, or refuses them."""

    def __init__(self) -> None:
        self.edits: list[str] = []
        self.refuse = False

    async def edit_original_response(self, **kw: Any) -> None:
        if self.refuse:
            raise discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"), "expired")
        self.edits.append(kw["content"])


async def test_the_live_message_goes_through_a_token_and_back_to_the_bot_token_when_refused(
    storage: Storage,
) -> None:
    from tests.bot.table.factories import BOB, CAROL, make_service, open_table

    svc = make_service(storage)
    try:
        t = await open_table(svc)
        await svc.posts.wait_sent(t.id)
        out: Any = svc.posts.out
        live_id = svc.get(t.id).message_id  # type: ignore[union-attr]
        assert live_id is not None
        edits_before = len(out.posts[live_id].edits)
        stub = StubInteraction()
        svc.posts.remember_public(t.id, safe.PublicMessage(stub, live_id, time.monotonic()))  # type: ignore[arg-type]

        assert (await svc.seating.join(CHANNEL, BOB, "bob", table_id=t.id)).ok
        await svc.posts.wait_sent(t.id)
        assert stub.edits and f"<@{BOB}>" in stub.edits[-1]  # redrawn through the click's token
        assert len(out.posts[live_id].edits) == edits_before  # and not with the bot token
        assert svc.posts.tokens.edits == len(stub.edits)

        stub.refuse = True  # the token expired: the bot token takes over, nothing is lost
        assert (await svc.seating.join(CHANNEL, CAROL, "carol", table_id=t.id)).ok
        await svc.posts.wait_sent(t.id)
        assert f"<@{CAROL}>" in out.posts[live_id].content
        assert svc.posts.tokens.refused == 1 and not svc.posts.tokens.holds(t.id)
    finally:
        await svc.close()
