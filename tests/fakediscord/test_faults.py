"""Faults on demand: rate limits, server errors, slow responses, gateway drops, invalid sessions."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord

from fakediscord import FakeDiscord

from .conftest import World
from .demo_bot import DemoBot

MESSAGES = "/channels/{channel_id}/messages"


async def test_429_is_retried_after_retry_after(world: World) -> None:
    fake = world.fake
    fake.fail_next("POST", MESSAGES, status=429, retry_after=0.05)
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    posts = fake.requests_to("POST", MESSAGES)
    assert [r.status for r in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= 0.05
    assert [m.content for m in fake.public_messages(world.channel)] == ["second"]
    assert fake.violations == []


async def test_global_429_on_a_concrete_path(world: World) -> None:
    fake = world.fake
    path = f"/channels/{world.channel.id}/messages"
    fake.fail_next("POST", path, status=429, retry_after=0.02, is_global=True)
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    assert [r.status for r in fake.requests_to("POST", MESSAGES)] == [429, 200]


async def test_500_is_retried(world: World) -> None:
    fake = world.fake
    fake.fail_next("PATCH", MESSAGES + "/{message_id}", status=500)
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle(timeout=5)
    edits = fake.requests_to("PATCH", MESSAGES + "/{message_id}")
    assert [r.status for r in edits] == [500, 200]  # discord.py waits 1 s, then retries
    assert fake.public_messages(world.channel)[0].content == "second"


async def test_persistent_errors_reach_the_bot(world: World) -> None:
    fake = world.fake
    fake.fail_next("POST", MESSAGES, status=403, json={"message": "Missing Access", "code": 50001})
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    assert [r.status for r in fake.requests_to("POST", MESSAGES)] == [403]
    assert fake.public_messages(world.channel) == []
    # the demo command does not catch it: discord.py logs the exception, which the fixture would report
    assert any("Missing Access" in str(rec.exc_info[1]) for rec in fake.bot_errors if rec.exc_info)
    fake.bot_errors.clear()


async def test_delayed_response(world: World) -> None:
    fake = world.fake
    fake.delay_next("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 0.2)
    started = time.monotonic()
    r = await fake.slash(world.alice, world.channel, "demo greet", name="x")
    assert time.monotonic() - started >= 0.2
    assert r.type == 4 and r.content == "hello x"


async def test_gateway_drop_resumes_and_replays_missed_events(world: World) -> None:
    fake = world.fake
    disconnects: list[None] = []

    async def on_disconnect() -> None:
        disconnects.append(None)

    world.bot.add_listener(on_disconnect)
    await fake.drop_gateway(wait=False)
    # dispatched while the bot is disconnected: delivered after RESUME
    r = await fake.slash(world.alice, world.channel, "demo greet", name="again")
    assert r.type == 4 and r.content == "hello again"
    assert fake.gateway.resume_count == 1 and fake.gateway.identify_count == 1
    assert disconnects
    await fake.drop_gateway()  # and again, waiting for RESUME this time
    assert fake.gateway.resume_count == 2
    r = await fake.slash(world.alice, world.channel, "demo greet", name="third")
    assert r.content == "hello third"


async def test_invalid_session_makes_the_bot_identify_again(world: World) -> None:
    fake = world.fake
    await fake.invalidate_session()
    assert fake.gateway.identify_count == 2
    await asyncio.wait_for(world.bot.wait_until_ready(), 5)
    r = await fake.slash(world.alice, world.channel, "demo greet", name="fresh")
    assert r.content == "hello fresh"


async def test_any_dispatch_event_reaches_the_bot(world: World) -> None:
    fake = world.fake
    seen: asyncio.Queue[discord.abc.GuildChannel] = asyncio.Queue()
    world.bot.add_listener(seen.put, "on_guild_channel_delete")
    fake.dispatch(
        "CHANNEL_DELETE",
        world.channel.payload(),
    )
    deleted = await asyncio.wait_for(seen.get(), 2)
    assert deleted.id == world.channel.id
    assert world.bot.get_channel(world.channel.id) is None


async def test_peak_rate_counts_requests_per_channel_window(world: World) -> None:
    fake = world.fake
    other = world.guild.add_text_channel("other")
    for _ in range(3):
        await fake.slash(world.alice, world.channel, "demo post")
    await fake.slash(world.alice, other, "demo post")
    await fake.settle()
    edit = MESSAGES + "/{message_id}"
    assert fake.peak_rate("PATCH", edit, 5.0) == 3  # three edits in #spades, one in #other
    assert fake.peak_rate("PATCH", edit, 5.0, per=None) == 4
    assert fake.peak_rate("PATCH", edit, 0.0) == 0
    fake.advance_clock(10)
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    assert fake.peak_rate("PATCH", edit, 5.0) == 3  # the fourth came after the window


async def test_opt_in_rate_limits_pace_the_bot_and_429_the_impatient() -> None:
    limits = {("POST", MESSAGES): (2, 0.3, "channel_id")}
    async with FakeDiscord(rate_limits=limits) as fake:
        guild = fake.add_guild()
        channel = guild.add_text_channel("spades")
        async with fake.run_bot(DemoBot()) as bot:
            ch = bot.get_channel(channel.id)
            assert isinstance(ch, discord.TextChannel)
            started = time.monotonic()
            await asyncio.gather(*(ch.send(f"m{i}") for i in range(5)))
            elapsed = time.monotonic() - started
            assert sorted(m.content for m in fake.public_messages(channel)) == [f"m{i}" for i in range(5)]
            assert elapsed >= 0.55  # 2 per 0.3 s: the fifth message waits for the third window
            assert fake.rate_limit_hits == []  # paced by the headers: never refused (load-proof, unlike
            # timing the requests as they arrive, which a loaded machine bunches up)
            # a client that ignores the headers gets 429s with Discord's shape
            headers = {"Authorization": "Bot x", "Content-Type": "application/json"}
            url = f"{fake.base_url}/channels/{channel.id}/messages"
            async with aiohttp.ClientSession() as session:
                statuses = []
                for _ in range(3):
                    async with session.post(url, data=b'{"content": "spam"}', headers=headers) as resp:
                        statuses.append(resp.status)
                        if resp.status == 429:
                            body = await resp.json()
                            assert body["retry_after"] > 0 and resp.headers["Via"]
                        else:
                            assert int(resp.headers["X-RateLimit-Limit"]) == 2
            assert statuses[-1] == 429 and fake.rate_limit_hits
            assert fake.violations == []
