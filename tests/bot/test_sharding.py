"""ShardKeeper (bot/sharding.py): wait for shards, renew, notice a loss, take over, release."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.sharding import ShardKeeper
from bot.storage import Storage
from fakediscord import Stopwatch
from tests.bot.storage.factories import guild_on


async def test_a_restarted_process_waits_for_the_old_lease_then_takes_over(
    two: tuple[Storage, Storage], caplog: pytest.LogCaptureFixture
) -> None:
    a, b = two
    old = ShardKeeper(a, count=2, shard_ids=(0, 1), lease_seconds=1.0, owner="old")
    assert await old.acquire() == {0, 1}
    assert old.owns_guild(guild_on(1, 2)) and old.owns_guild(None)
    # the old process is killed: nobody renews; the new one waits, then takes over
    new = ShardKeeper(b, count=2, shard_ids=(0, 1), lease_seconds=1.0, owner="new")
    caplog.set_level(logging.INFO, logger="bot.sharding")
    got = await asyncio.wait_for(new.acquire(), 10)
    assert got == {0, 1}
    assert any("waiting for shard(s) 0,1 held by old" in r.getMessage() for r in caplog.records)
    # the old one wakes up: it learns it lost both shards and its writes are fenced
    lost: list[set[int]] = []

    async def on_lost(shards: set[int]) -> None:
        lost.append(shards)

    old.on_lost.append(on_lost)
    await old.tick()
    assert lost == [{0, 1}] and old.held == set()
    await new.close()
    await old.close()


async def test_a_clean_stop_hands_over_at_once_and_the_loop_takes_over(two: tuple[Storage, Storage]) -> None:
    a, b = two
    first = ShardKeeper(a, count=2, shard_ids=(1,), lease_seconds=30, owner="first")
    await first.acquire()
    second = ShardKeeper(b, count=2, shard_ids=(1,), lease_seconds=0.6, owner="second")
    assert await second.acquire(patience=0) == set()
    gained: list[set[int]] = []

    async def on_gained(shards: set[int]) -> None:
        gained.append(shards)

    second.on_gained.append(on_gained)
    second.start()
    await first.close()  # SIGTERM: the lease is released, not left to run out
    watch = Stopwatch()  # the next renewal (every 0.2 s) takes it: waited for, not counted
    while not gained:
        assert not watch.past(10.0), "the released shard was never taken"
        await asyncio.sleep(0.01)
    assert gained == [{1}] and second.held == {1}
    await second.close()
    assert await b.shards.leases() == []


async def test_a_crashed_process_on_this_machine_is_taken_over_at_once(two: tuple[Storage, Storage]) -> None:
    import subprocess
    import sys

    from bot.storage import gone_here, new_owner

    a, b = two
    # a process that ran here and died (its pid no longer exists)
    script = "import os; print(os.getpid())"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    host_pid = new_owner().split(":")[0] + ":" + done.stdout.strip() + ":dead01"
    assert gone_here(host_pid)
    assert not gone_here("elsewhere:123:abc")  # another machine: only its lease running out counts
    assert await a.shards.acquire(host_pid, 2, (0, 1), ttl=3600) == {0, 1}
    keeper = ShardKeeper(b, count=2, shard_ids=(0, 1), lease_seconds=3600)
    assert await asyncio.wait_for(keeper.acquire(), 10) == {0, 1}  # not an hour later
    await keeper.close()


async def test_a_lease_that_ran_out_during_a_stall_is_renewed_and_its_tables_restored(
    two: tuple[Storage, Storage], caplog: pytest.LogCaptureFixture
) -> None:
    """One process stalls past its lease and nobody takes its shards meanwhile: saves refused in
    that window let their tables go, so the renewal that keeps the shards restores them too (it
    kept the shards silently, and the tables let go stayed gone until a restart)."""
    a, _ = two
    keeper = ShardKeeper(a, count=2, shard_ids=(0, 1), lease_seconds=0.5, owner="stalled")
    assert await keeper.acquire() == {0, 1}
    gained: list[set[int]] = []
    lost: list[set[int]] = []

    async def on_gained(shards: set[int]) -> None:
        gained.append(shards)

    async def on_lost(shards: set[int]) -> None:
        lost.append(shards)

    keeper.on_gained.append(on_gained)
    keeper.on_lost.append(on_lost)
    await keeper.tick()  # on time: nothing to restore
    assert gained == [] and lost == []
    time.sleep(0.6)  # the whole process stalls (blocking, as a stalled loop does) past its lease
    caplog.set_level(logging.WARNING, logger="bot.sharding")
    await keeper.tick()
    assert gained == [{0, 1}] and lost == [] and keeper.held == {0, 1}
    assert any("ran out during a stall" in r.getMessage() for r in caplog.records)
    await keeper.tick()  # renewed in time again: no second restore
    assert gained == [{0, 1}]
    await keeper.close()
