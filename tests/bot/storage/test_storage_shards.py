"""Shard leases and fenced writes (bot/storage/shards.py), on SQLite and on PostgreSQL.

Two ``Storage`` objects on one database stand for two bot processes."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Claim, NotOwner, ShardCountMismatch, StaleTable, Storage
from tests.bot.storage.factories import guild_on


async def test_a_shard_has_one_owner_until_released(two: tuple[Storage, Storage]) -> None:
    a, b = two
    assert await a.shards.acquire("A", 2, (0, 1), ttl=30) == {0, 1}
    assert await b.shards.acquire("B", 2, (1,), ttl=30) == set()
    assert await a.shards.acquire("A", 2, (0, 1), ttl=30) == {0, 1}  # taking again is renewing
    assert await a.shards.renew("A", ttl=30) == {0, 1}
    await a.shards.release("A")  # a clean stop: the next process takes over at once
    assert await b.shards.acquire("B", 2, (1,), ttl=30) == {1}
    assert [(lease.shard_id, lease.owner) for lease in await a.shards.leases()] == [(1, "B")]


async def test_a_lease_that_runs_out_is_taken_over(two: tuple[Storage, Storage]) -> None:
    a, b = two
    assert await a.shards.acquire("A", 2, (0, 1), ttl=0.3) == {0, 1}
    assert await b.shards.acquire("B", 2, (1,), ttl=30) == set()
    await asyncio.sleep(0.5)  # A was killed: nobody renews
    assert await b.shards.acquire("B", 2, (1,), ttl=30) == {1}
    assert await a.shards.renew("A", ttl=30) == {0}  # A comes back: it learns shard 1 is gone


async def test_processes_with_another_shard_count_are_refused(two: tuple[Storage, Storage]) -> None:
    a, b = two
    await a.shards.acquire("A", 2, (0,), ttl=30)
    with pytest.raises(ShardCountMismatch, match="SHARD_COUNT=2"):
        await b.shards.acquire("B", 4, (1,), ttl=30)


async def test_restore_reads_only_the_tables_of_its_shards(two: tuple[Storage, Storage]) -> None:
    a, _ = two
    ids = {}
    for shard in range(3):
        for n in range(2):
            row = await a.tables.create(guild_on(shard, 3, n), 1000 + shard * 10 + n, 1, {"shard": shard})
            ids.setdefault(shard, []).append(row.id)
    assert [r.id for r in await a.tables.live(shards=(3, (0, 2)))] == sorted(ids[0] + ids[2])
    assert [r.id for r in await a.tables.live(shards=(3, (1,)))] == ids[1]
    assert len(await a.tables.live()) == 6
    assert await a.tables.live(shards=(1, (0,))) == await a.tables.live()  # unsharded: everything


async def test_writes_are_fenced_by_the_lease(two: tuple[Storage, Storage]) -> None:
    a, b = two
    g0, g1 = guild_on(0, 2), guild_on(1, 2)
    a.shards.claim, b.shards.claim = Claim("A", 2), Claim("B", 2)
    await a.shards.acquire("A", 2, (0, 1), ttl=0.4)
    t0 = await a.tables.create(g0, 10, 1, {"n": 0})
    t1 = await a.tables.create(g1, 11, 1, {"n": 0})
    # B may neither create nor save on A's shards
    with pytest.raises(NotOwner):
        await b.tables.create(g1, 12, 1, {})
    stolen = await b.tables.get(t1.id)
    assert stolen is not None
    stolen.data = {"n": "B"}
    with pytest.raises(NotOwner):
        await b.tables.save(stolen)
    assert stolen.version == 1

    # A is paused past its lease; B takes shard 1 over and plays on
    await asyncio.sleep(0.6)
    assert await b.shards.acquire("B", 2, (1,), ttl=30) == {1}
    taken = await b.tables.get(t1.id)
    assert taken is not None
    taken.data = {"n": "B"}
    await b.tables.save(taken)
    # A wakes up: its write on shard 1 is refused, not a silent overwrite, and nothing is lost
    t1.data = {"n": "A, late"}
    with pytest.raises((NotOwner, StaleTable)):
        await a.tables.save(t1)
    stored = await a.tables.get(t1.id)
    assert stored is not None and stored.data == {"n": "B"}
    # its own shard 0: the lease ran out unclaimed; nobody else runs its tables, so A's writes go
    # through (refused, they would let a table go that no process runs), and renewing keeps it
    t0.data = {"n": 1}
    assert (await a.tables.save(t0)).version == 2
    assert (await a.tables.create(guild_on(0, 2, 1), 12, 1, {})).version == 1
    assert await a.shards.renew("A", ttl=30) == {0}
    t0.data = {"n": 2}
    assert (await a.tables.save(t0)).version == 3


async def test_fenced_group_commit_refuses_only_the_tables_not_owned(two: tuple[Storage, Storage]) -> None:
    a, b = two
    g0, g1 = guild_on(0, 2), guild_on(1, 2)
    await a.shards.acquire("A", 2, (0, 1), ttl=30)
    a.shards.claim = Claim("A", 2)
    mine = await a.tables.create(g0, 10, 1, {"n": 0})
    other = await a.tables.create(g1, 11, 1, {"n": 0})
    await a.shards.release("A")
    await a.shards.acquire("A", 2, (0,), ttl=30)
    await b.shards.acquire("B", 2, (1,), ttl=30)
    mine.data, other.data = {"n": 1}, {"n": 1}
    results = await asyncio.gather(a.tables.save(mine), a.tables.save(other), return_exceptions=True)
    assert results[0] is mine and mine.version == 2
    assert isinstance(results[1], NotOwner) and results[1].shard_id == 1 and other.version == 1


async def test_a_stale_save_under_a_lease_is_stale_not_a_lost_shard(two: tuple[Storage, Storage]) -> None:
    """The owner of a shard saving an old copy of a table is told the table changed (it reloads
    and the player tries again), not that it lost the shard (it would let the table go)."""
    a, _ = two
    a.shards.claim = Claim("A", 2)
    await a.shards.acquire("A", 2, (0, 1), ttl=30)
    row = await a.tables.create(guild_on(0, 2), 10, 1, {"n": 0})
    racer = await a.tables.get(row.id)
    assert racer is not None
    row.data = {"n": 1}
    await a.tables.save(row)
    racer.data = {"n": 2}
    with pytest.raises(StaleTable) as info:
        await a.tables.save(racer)
    assert not isinstance(info.value, NotOwner) and info.value.table_id == row.id
    stored = await a.tables.get(row.id)
    assert stored is not None and stored.data == {"n": 1}
