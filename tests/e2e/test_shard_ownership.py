"""Shard ownership inside one bot process: fenced writes, a lost shard, a shard taken back.

Another process is played by editing the lease table on a connection of its own (as a second
process would); the bot under test is the real one, driven through the fake Discord, its leases
renewed on its own timer (every ``LEASE / 3`` seconds). What it holds is read from the lease table,
what it does from its answers, its table message and its log.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import discord
import pytest

from bot.model import MOVING
from bot.storage import Lease, Storage
from fakediscord import Stopwatch
from tests.e2e.harness import Spades, live_message, open_seen, said

pytestmark = pytest.mark.both_backends

LEASE = 9.0  # renewed every 3 s: the steal and the next click fit between two renewals
STALL_LEASE = 3.0  # the stall test: a short lease, stalled past


def messages(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if text in r.getMessage()]


async def test_a_stolen_shard_fences_writes_drops_the_tables_and_comes_back(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    alice, bob = spades.users["alice"], spades.users["bob"]
    fake = spades.fake
    async with spades.running(shard_lease_seconds=LEASE), spades.stored() as other:

        async def lease() -> Lease | None:
            return next((x for x in await other.shards.leases() if x.shard_id == 0), None)

        mine = await lease()  # this process holds the one shard
        assert mine is not None
        table_id = await open_seen(spades, alice)  # (once its table message is up)
        seats = (await spades.stored_table(table_id)).data["seats"]

        # another process takes the shard (this one stalled past its lease, say), right after a
        # renewal of this one's: on a connection of its own, as that process would
        last, watch = await lease(), Stopwatch()
        assert last is not None and last.owner == mine.owner
        while (now := await lease()) is not None and now.expires_at == last.expires_at:
            assert not watch.past(LEASE), "the lease was not renewed"
            await asyncio.sleep(0.02)
        async with other.backend.transaction() as tx:
            await tx.execute(
                "UPDATE shard_leases SET owner = 'thief', expires_at = expires_at + 3600000"
                " WHERE shard_id = 0"
            )
        r = await fake.slash(bob, spades.channel, "join")
        assert await said(r) == MOVING  # the fence refused the save
        assert await spades.no_table_in()  # and this process let the table go
        assert (await spades.stored_table(table_id)).data["seats"] == seats  # nothing written

        # its next renewal notices the loss; interactions of a shard this process does not hold
        # are left to the process that does
        await spades.wait_for(lambda: bool(messages(caplog, "lost shard(s) [0]")), what="the loss noticed")
        r = await fake.slash(bob, spades.channel, "join")
        assert r.type is None
        assert [v.kind for v in fake.take_violations()] == ["no_response"]
        assert (await spades.stored_table(table_id)).data["seats"] == seats

        # the other process stops: the lease is free, this one takes the shard back and restores
        async with other.backend.transaction() as tx:
            await tx.execute("DELETE FROM shard_leases WHERE owner = 'thief'")
        await spades.wait_for(
            lambda: any(f"table {table_id}" in m for m in messages(caplog, "restored 1 live table")),
            what="the table restored",
        )
        back = await lease()
        assert back is not None and back.owner == mine.owner
        r = await fake.slash(bob, spades.channel, "join")
        assert (await said(r)) != MOVING
        # the restored table takes his seat: stored, and on the table message
        assert bob.id in {s["user_id"] for s in (await spades.stored_table(table_id)).data["seats"] if s}
        await spades.wait_for(
            lambda: (
                (m := live_message(spades, spades.channel, table_id)) is not None
                and f"<@{bob.id}>" in m.content
            ),
            what="bob on the table",
        )


def _stall_while_another_takes_over(db_path: str, stall: float, table_id: int) -> None:
    """This whole process stops for ``stall`` seconds (its event loop blocked, as SIGSTOP or a
    paused VM would), and meanwhile another process takes the expired shard and moves the table
    on: on a connection of its own, in a thread of its own (the bot's loop cannot run)."""

    async def another_process() -> None:
        time.sleep(stall)  # the stalled process's lease runs out meanwhile
        db = await Storage.open(db_path)
        try:
            async with db.backend.transaction() as tx:
                await tx.execute(
                    "UPDATE shard_leases SET owner = 'thief', expires_at = expires_at + 3600000"
                    " WHERE shard_id = 0"
                )
                await tx.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (table_id,))
        finally:
            await db.close()

    thread = threading.Thread(target=lambda: asyncio.run(another_process()))
    thread.start()
    thread.join()  # (blocks this event loop: the bot is stalled)


def _started_requests(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """(monotonic time, "METHOD path") of every request discord.py starts, bot token or webhook.

    Observes the client library, changes nothing: a request that discord.py had already started
    when the process stopped (waiting in its lock for the token, or written to the socket) reaches
    the fake only after the process wakes, yet it left before the stall."""
    started: list[tuple[float, str]] = []
    for cls in (discord.http.HTTPClient, discord.webhook.async_.AsyncWebhookAdapter):
        original = cls.request

        async def request(self: Any, route: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            path = "/" + str(route.url).split("/api/v10/", 1)[-1]
            started.append((time.monotonic(), f"{route.method} {path}"))
            return await _original(self, route, *args, **kwargs)

        monkeypatch.setattr(cls, "request", request)
    return started


async def test_a_process_stalled_past_its_lease_sends_nothing_for_the_lost_shard_after_it_wakes(
    spades: Spades, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34, item 2: a process stalled past its lease while another took its shard over wakes
    with posts, live-message edits, panel refreshes and bot turns due for the lost tables. Its
    saves were fenced, but it sent them anyway (stale table messages, stale panels); now every
    send first waits for a renewal, which reports the shard lost and drops its tables: not one
    request for them leaves the woken process, and it keeps none of them in memory."""
    caplog.set_level(logging.INFO)
    alice = spades.users["alice"]
    fake = spades.fake
    started = _started_requests(monkeypatch)
    async with spades.running(shard_lease_seconds=STALL_LEASE, speed=20):
        table_id = (await spades.open_table(alice, play_seconds=600, bid_seconds=600)).id
        channel = spades.channel
        r = await spades.slash(alice, "spades start", fill=True)  # three bots
        await said(r)
        assert await spades.wait_turn() == [alice]
        # the stall starts soon after a renewal of the lease (no renewal's transaction open)
        async with spades.stored() as other:

            async def expiry() -> int | None:
                return next((x.expires_at for x in await other.shards.leases() if x.shard_id == 0), None)

            last = await expiry()
            while await expiry() == last:
                await asyncio.sleep(0.01)
        # her move: the bots' turns after it, the table message and her panel's refresh are due
        await said(await spades.decide(alice))
        tokens = {rec.token for rec in fake.interactions.values() if rec.channel is channel}
        mark = len(fake.requests)
        _stall_while_another_takes_over(spades.db_path, STALL_LEASE + 1.5, table_id)
        woke = time.monotonic()
        await spades.wait_for(lambda: bool(messages(caplog, "lost shard(s) [0]")), what="the loss noticed")
        await asyncio.sleep(2.0)  # whatever was due (bot turns, redraws, panels) has had its chance

        def about_the_table(path: str) -> bool:
            return str(channel.id) in path or any(token in path for token in tokens)

        # nothing about the table was started after the wake...
        after = [what for at, what in started if at > woke and about_the_table(what)]
        assert after == [], after
        # ...and what reached the fake after the stall had been started before it
        before = {what for at, what in started if at < woke}
        sent = [f"{q.method} {q.path}" for q in fake.requests[mark:] if about_the_table(q.path)]
        assert all(what in before for what in sent), (sent, before)
        # (read from the running bot, on purpose: what it keeps in memory is the subject)
        assert spades.bot is not None and spades.bot.tables.get(table_id) is None
        stored = await spades.stored_table(table_id)
        assert stored.status == "playing"
        fake.take_violations()
