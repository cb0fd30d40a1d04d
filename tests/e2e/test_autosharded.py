"""`python -m bot` runs discord.py's AutoShardedBot: without SHARD_COUNT, every shard Discord
recommends in this one process (and this process holds every guild's lease)."""

from __future__ import annotations

import logging
import os

import pytest

from bot.client import ShardedSpadesBot, make_bot
from bot.config import Config
from tests.e2e.harness import Spades, said


async def test_one_process_runs_every_shard_and_plays(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """What it holds is read from the lease table (on a connection of the test's own) and from the
    health line it logs for operators; that it plays, from /spades new."""
    caplog.set_level(logging.INFO)
    config = Config(token="x", database_path=spades.db_path, deal_seed=7, health_seconds=0.2)
    bot = make_bot(config, clock=spades.clock_at(50))
    assert isinstance(bot, ShardedSpadesBot)
    async with spades.fake.run_bot(bot), spades.stored() as other:
        spades.bot = bot
        (lease,) = await other.shards.leases()  # one shard, and this process holds it
        assert (lease.shard_id, lease.shard_count) == (0, 1)
        assert f":{os.getpid()}:" in lease.owner
        r = await spades.slash(spades.users["alice"], "spades new")
        assert "is open" in await said(r)

        def health() -> bool:
            return any("health: shards 0 of 1, 1 live tables" in rec.getMessage() for rec in caplog.records)

        await spades.wait_for(health, what="the health line")
        spades.bot = None
