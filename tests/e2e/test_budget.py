"""The bot's one budget of bot-token requests under Discord's global limit (bot/ratelimit.py and the
publisher): a burst is queued and coalesced, never refused; a forced 429 is honoured and nothing
is lost. Only Discord is fake."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.client import SpadesBot
from bot.config import Config
from fakediscord import Channel, FakeDiscord, Message, Stopwatch, User
from tests.clock import TestClock

LIVE_PREFIX = "♠ **Spades**"
EDIT = "/channels/{channel_id}/messages/{message_id}"


@asynccontextmanager
async def bot_on(
    fake: FakeDiscord, db: Path, *, per_second: float, card_emojis: bool = True
) -> AsyncIterator[SpadesBot]:
    config = Config(
        token="x", database_path=str(db), deal_seed=3, discord_rate_limit=per_second, card_emojis=card_emojis
    )
    bot = SpadesBot(config, clock=TestClock(50))
    async with fake.run_bot(bot, sync_commands=False):
        yield bot


def live(fake: FakeDiscord, channel: Channel) -> Message:
    found = [m for m in fake.public_messages(channel) if m.content.startswith(LIVE_PREFIX) and not m.deleted]
    assert found, "no live message"
    return found[-1]


async def wait_for(pred: object, what: str, timeout: float = 30.0) -> None:
    watch = Stopwatch()
    while not pred():  # type: ignore[operator]
        assert not watch.past(timeout), f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def peak_per_second(fake: FakeDiscord, since: float) -> int:
    """Most bot-token requests the fake saw in any one second since ``since`` (fake clock)."""
    times = sorted(r.at for r in fake.requests if r.bot_token and r.at >= since)
    peak, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= 1.0:
            start += 1
        peak = max(peak, end - start + 1)
    return peak


async def test_a_burst_over_the_global_limit_is_queued_and_coalesced_not_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.global_limit = 4  # Discord's global limit, scaled down: 4 bot-token requests per second
    guild = fake.add_guild("Busy server")
    tables = 6
    channels = [guild.add_text_channel(f"table-{i}") for i in range(tables)]
    hosts = [fake.add_user(f"host{i}") for i in range(tables)]
    guests: list[list[User]] = [[fake.add_user(f"guest{i}x{j}") for j in range(3)] for i in range(tables)]
    # (no card emojis: their 54 uploads at start would take 14 s of this budget before the first
    # table opens; the next test starts with them)
    async with bot_on(fake, tmp_path / "spades.db", per_second=4, card_emojis=False):
        for host, channel in zip(hosts, channels, strict=True):
            r = await fake.slash(host, channel, "spades new")
            assert r.error is None, r.error
        await wait_for(lambda: all(fake.public_messages(c) for c in channels), "the live messages")
        await fake.settle(quiet=0.5, timeout=30)
        since = fake.clock.now()
        edits_before = len(fake.requests_to("PATCH", EDIT))

        # 18 players click Join on 6 tables at once: 18 changes of 6 live messages, where the
        # token may send 4 requests a second
        async def join(user: User, channel: Channel) -> None:
            r = await fake.click(user, live(fake, channel), label="Join")
            assert r.error is None and r.ephemeral, r.error or r.content

        watch = Stopwatch()  # (the time this process had a CPU: a loaded machine is not the bot's doing)
        await asyncio.gather(*(join(u, c) for c, group in zip(channels, guests, strict=True) for u in group))
        answers = watch.elapsed()
        # every player's answer came at once: interaction answers do not queue behind the budget
        assert answers < 2.5, answers

        def all_shown() -> bool:
            return all(
                all(f"<@{u.id}>" in live(fake, c).content for u in group)
                for c, group in zip(channels, guests, strict=True)
            )

        await wait_for(all_shown, "every join on every live message")
        await fake.settle(quiet=0.5, timeout=30)

    assert fake.rate_limit_hits == []  # nothing was refused: no 429 of any kind
    assert fake.invalid_requests == []
    assert peak_per_second(fake, since) <= 4
    edits = len(fake.requests_to("PATCH", EDIT)) - edits_before
    # coalesced: a live message queued for its turn shows every change made meanwhile at once
    assert tables <= edits < 18, edits
    for c, group in zip(channels, guests, strict=True):  # the latest state won on every table
        assert all(f"<@{u.id}>" in live(fake, c).content for u in group)


async def test_a_forced_429_is_honoured_and_no_update_is_lost(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.global_limit = 50
    guild = fake.add_guild("Server")
    channel = guild.add_text_channel("spades")
    host, guest, late = fake.add_user("host"), fake.add_user("guest"), fake.add_user("latecomer")
    async with bot_on(fake, tmp_path / "spades.db", per_second=50):
        r = await fake.slash(host, channel, "spades new")
        assert r.error is None, r.error
        await wait_for(lambda: bool(fake.public_messages(channel)), "the live message")
        await fake.settle(quiet=0.3)
        message = live(fake, channel)
        # Discord answers the next edits with a global 429 (retry after 0.3 s), more times than
        # discord.py retries by itself (5): the publisher must try again later, not give up
        fake.fail_next("PATCH", EDIT, status=429, retry_after=0.3, is_global=True, times=6)
        refused_at = fake.clock.now()
        r = await fake.click(guest, message, label="Join")
        assert r.error is None and r.ephemeral
        await asyncio.sleep(0.1)
        r = await fake.click(late, message, label="Join")  # a second change while refused
        assert r.error is None and r.ephemeral
        await wait_for(
            lambda: f"<@{guest.id}>" in message.content and f"<@{late.id}>" in message.content,
            "both joins on the live message",
        )
        await fake.settle(quiet=0.3, timeout=30)

    refused = [q for q in fake.requests_to("PATCH", EDIT) if q.status == 429]
    assert len(refused) == 6
    # honoured: after each global 429 the edit was tried again only once Retry-After had passed,
    # and no other bot-token request left meanwhile (one already on its way, within 50 ms, aside)
    edits = fake.requests_to("PATCH", EDIT)
    for q in refused:
        again = [x for x in edits if x.at > q.at]
        assert again and again[0].at - q.at >= 0.29, (q.at, again[0].at if again else None)
        meanwhile = [x for x in fake.requests if x.bot_token and q.at + 0.05 < x.at < q.at + 0.29]
        assert meanwhile == [], meanwhile
    ok = [q for q in fake.requests_to("PATCH", EDIT) if q.status == 200 and q.at > refused_at]
    assert ok, "the live message was never updated after the 429s"
    # the same message, edited in place (no repost), shows the latest state
    assert live(fake, channel).id == message.id
    assert fake.invalid_requests == refused
