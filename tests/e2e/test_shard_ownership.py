"""Shard ownership inside one bot process: fenced writes, a lost shard, a shard taken back.

Another process is played by editing the lease table on a connection of its own (as a second
process would); the bot under test is the real one, driven through the fake Discord, its leases
renewed on its own timer (every ``LEASE / 3`` seconds). What it holds is read from the lease table,
what it does from its answers, its table message and its log.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.model import MOVING
from bot.sandbox.fake import Stopwatch
from bot.storage import Lease
from tests.e2e.conftest import Spades, answer_of, live_message, open_seen

pytestmark = pytest.mark.both_backends

LEASE = 9.0  # renewed every 3 s: the steal and the next click fit between two renewals


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
            return next((x for x in await other.shard_leases() if x.shard_id == 0), None)

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
        assert await answer_of(spades, r) == MOVING  # the fence refused the save
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
        assert (await answer_of(spades, r)) != MOVING
        # the restored table takes his seat: stored, and on the table message
        assert bob.id in {s["user_id"] for s in (await spades.stored_table(table_id)).data["seats"] if s}
        await spades.wait_for(
            lambda: (
                (m := live_message(spades, spades.channel, table_id)) is not None
                and f"<@{bob.id}>" in m.content
            ),
            what="bob on the table",
        )
