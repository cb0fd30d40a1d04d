"""Shard ownership inside one bot process: fenced writes, a lost shard, a shard taken back.

Another process is played by editing the lease table on a connection of its own (as a second
process would); the bot under test is the real one, driven through the fake Discord.
"""

from __future__ import annotations

import pytest

from bot.model import MOVING
from tests.e2e.conftest import Spades, answer_of

pytestmark = pytest.mark.both_backends


async def test_a_stolen_shard_fences_writes_drops_the_tables_and_comes_back(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running() as bot:
        keeper = bot.shard_keeper
        assert keeper is not None and keeper.held == {0}
        t = await spades.open_table(alice)
        # another process takes the shard (this one stalled past its lease, say): on a connection
        # of its own, as that process would
        async with spades.stored() as other, other.backend.transaction() as tx:
            await tx.execute(
                "UPDATE shard_leases SET owner = 'thief', expires_at = expires_at + 3600000"
                " WHERE shard_id = 0"
            )
        seats = (await spades.stored_table(t.id)).data["seats"]
        r = await spades.slash(bob, "join")
        assert await answer_of(spades, r) == MOVING  # the fence refused the save: nothing written
        assert t.id not in spades.service.tables  # and this process let the table go
        assert (await spades.stored_table(t.id)).data["seats"] == seats

        await keeper.tick()  # the renewal notices the loss
        assert keeper.held == set()
        # interactions of a shard this process does not hold are left to the process that does
        r = await spades.fake.slash(bob, spades.channel, "join")
        assert r.type is None
        assert [v.kind for v in spades.fake.take_violations()] == ["no_response"]

        # the other process stops: the lease is free, this one takes the shard back and restores
        async with spades.stored() as other, other.backend.transaction() as tx:
            await tx.execute("DELETE FROM shard_leases WHERE owner = 'thief'")
        await keeper.tick()
        assert keeper.held == {0} and t.id in spades.service.tables
        r = await spades.slash(bob, "join")
        assert (await answer_of(spades, r)) != MOVING
        # the restored table takes his seat: stored, and on the table message
        assert bob.id in {s["user_id"] for s in (await spades.stored_table(t.id)).data["seats"] if s}
        await spades.wait_for(lambda: f"<@{bob.id}>" in spades.live().content, what="bob on the table")
