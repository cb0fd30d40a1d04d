"""Discord's global rate limit in the fake: bot-token requests per second, interaction routes exempt,
a global 429 discord.py honours, and the count of invalid requests (401/403/429)."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

import fakediscord.rest.ratelimits as ratelimits
from fakediscord import FakeDiscord, RecordedRequest

from .conftest import World
from .demo_bot import DemoBot

MESSAGES = "/channels/{channel_id}/messages"


def peak_per_second(requests: list[RecordedRequest]) -> int:
    """The most accepted bot-token requests in any one-second window."""
    times = sorted(r.at for r in requests if r.bot_token and r.status not in (0, 429))
    best = 0
    start = 0
    for end, t in enumerate(times):
        while times[start] <= t - 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


def test_the_global_limit_is_50_with_rate_limits_and_configurable() -> None:
    assert FakeDiscord().global_limit is None
    assert FakeDiscord(rate_limits=True).global_limit == ratelimits.GLOBAL_LIMIT == 50
    assert FakeDiscord(global_limit=7).global_limit == 7
    assert FakeDiscord(rate_limits=True, global_limit=0).global_limit is None


async def test_over_the_global_limit_is_a_global_429_with_discords_headers() -> None:
    async with FakeDiscord(global_limit=3) as fake:
        fake.token = "x"
        guild = fake.add_guild()
        channels = [guild.add_text_channel(f"c{i}") for i in range(4)]
        headers = {"Authorization": "Bot x", "Content-Type": "application/json"}
        statuses: list[int] = []
        async with aiohttp.ClientSession() as session:
            for channel in channels:  # four channels: no per-route bucket is involved
                url = f"{fake.base_url}/channels/{channel.id}/messages"
                async with session.post(url, data=b'{"content": "hi"}', headers=headers) as resp:
                    statuses.append(resp.status)
                    if resp.status == 429:
                        body = await resp.json()
                        got = dict(resp.headers)
        assert statuses == [200, 200, 200, 429]
        assert body["global"] is True and 0 < body["retry_after"] <= 1.0
        assert got["X-RateLimit-Global"] == "true" and got["X-RateLimit-Scope"] == "global"
        assert int(got["Retry-After"]) >= 1 and got["Via"]
        assert [r.status for r in fake.rate_limit_hits] == [429]
        assert fake.invalid_requests == fake.rate_limit_hits
        assert len(fake.public_messages(channels[3])) == 0  # refused, not stored
        await asyncio.sleep(1.0)  # the window slides: the next second has room again
        async with aiohttp.ClientSession() as session:
            url = f"{fake.base_url}/channels/{channels[3].id}/messages"
            async with session.post(url, data=b'{"content": "hi"}', headers=headers) as resp:
                assert resp.status == 200
        assert fake.violations == []


async def test_discord_py_waits_out_a_global_429_and_delivers_everything() -> None:
    # (discord.py retries a request 5 times: a much larger burst fails for real, as on Discord)
    async with FakeDiscord(global_limit=10) as fake:
        guild = fake.add_guild()
        channels = [guild.add_text_channel(f"c{i}") for i in range(16)]
        async with fake.run_bot(DemoBot()) as bot:
            sends = []
            for channel in channels:
                ch = bot.get_channel(channel.id)
                assert isinstance(ch, discord.TextChannel)
                sends.append(ch.send(f"to {channel.name}"))
            await asyncio.gather(*sends)
            await fake.settle()
        for channel in channels:
            assert [m.content for m in fake.public_messages(channel)] == [f"to {channel.name}"]
        assert fake.rate_limit_hits, "16 posts at once must overrun 10 per second"
        assert all(r.response["global"] is True for r in fake.rate_limit_hits)
        assert peak_per_second(fake.requests) <= 10
        assert fake.violations == [] and fake.bot_errors == []


async def test_interaction_routes_are_exempt_from_the_global_limit(world: World) -> None:
    fake = world.fake
    fake.global_limit = 1
    await asyncio.sleep(1.0)  # the window empties of start-up requests
    for _ in range(3):
        r = await fake.slash(world.alice, world.channel, "demo greet", name="x", times=2)
        assert r.type == 4 and r.error is None  # the callback went through: exempt
    callbacks = [r for r in fake.requests if r.route and r.route.startswith("/interactions/")]
    assert len(callbacks) == 3 and not any(r.bot_token for r in callbacks)
    assert all(r.status != 429 for r in callbacks)
    # a bot-token route in the same second is limited: one post goes through, the second waits
    await fake.slash(world.alice, world.channel, "demo post")  # posts, then edits the message
    await fake.settle()
    assert [m.content for m in fake.public_messages(world.channel)] == ["second"]
    assert fake.rate_limit_hits and all(r.bot_token for r in fake.rate_limit_hits)
    assert fake.violations == [] and fake.bot_errors == []


async def test_invalid_requests_are_counted_and_a_ban_is_a_violation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ratelimits, "INVALID_REQUEST_LIMIT", 4)
    async with FakeDiscord(global_limit=1) as fake:
        fake.token = "right"
        guild = fake.add_guild()
        channel = guild.add_text_channel("spades")
        hidden = guild.add_text_channel("staff")
        hidden.set_permissions(fake.bot_user, deny=discord.Permissions(send_messages=True).value)
        good = {"Authorization": "Bot right", "Content-Type": "application/json"}
        bad = {"Authorization": "Bot wrong", "Content-Type": "application/json"}
        statuses = []
        async with aiohttp.ClientSession() as session:
            for url, headers in [
                (f"{fake.base_url}/channels/{channel.id}/messages", good),  # 200
                (f"{fake.base_url}/channels/{channel.id}/messages", bad),  # 401
                (f"{fake.base_url}/channels/{channel.id}/messages", good),  # 429 (global, 1/s)
            ]:
                async with session.post(url, data=b'{"content": "x"}', headers=headers) as resp:
                    statuses.append(resp.status)
            await asyncio.sleep(1.0)
            url = f"{fake.base_url}/channels/{hidden.id}/messages"
            async with session.post(url, data=b'{"content": "x"}', headers=good) as resp:
                statuses.append(resp.status)  # 403 missing access
            assert not [v for v in fake.violations if v.kind == "invalid_request_ban"]
            async with session.post(url, data=b'{"content": "x"}', headers=bad) as resp:
                statuses.append(resp.status)  # 401: the fourth invalid one
        assert statuses == [200, 401, 429, 403, 401]
        assert [r.status for r in fake.invalid_requests] == [401, 429, 403, 401]
        bans = [v for v in fake.take_violations() if v.kind == "invalid_request_ban"]
        assert len(bans) == 1 and "10 minutes" in bans[0].reason
