"""The fake's sharded gateway: one session per shard, each guild's events on its own shard only."""

from __future__ import annotations

import discord

from fakediscord import FakeDiscord


def _events(fake: FakeDiscord, shard: int, name: str) -> list[dict]:
    session = fake.gateway.shards[shard].session
    assert session is not None
    return [p["d"] for p in session.buffer if p["t"] == name]


async def test_each_shard_session_carries_only_its_guilds() -> None:
    async with FakeDiscord() as fake:
        zero = fake.add_guild("zero", shard=(0, 2))
        one = fake.add_guild("one", shard=(1, 2))
        assert ((zero.id >> 22) % 2, (one.id >> 22) % 2) == (0, 1)
        client = discord.AutoShardedClient(intents=discord.Intents.none() | discord.Intents(guilds=True),
                                           shard_count=2)  # fmt: skip
        async with fake.run_bot(client):
            assert {g.id: g.shard_id for g in client.guilds} == {zero.id: 0, one.id: 1}
            assert set(fake.gateway.shards) == {0, 1} and fake.gateway.connected
            for shard, guild in ((0, zero), (1, one)):
                [ready] = _events(fake, shard, "READY")
                assert ready["shard"] == [shard, 2] and [g["id"] for g in ready["guilds"]] == [str(guild.id)]
                assert [g["id"] for g in _events(fake, shard, "GUILD_CREATE")] == [str(guild.id)]
            # a guild's later events (a new channel here) reach its shard only
            one.add_text_channel("late")
            assert [c["name"] for c in _events(fake, 1, "CHANNEL_CREATE")] == ["late"]
            assert _events(fake, 0, "CHANNEL_CREATE") == []
            got = client.get_guild(one.id)
            await fake.settle()
            assert got is not None and any(c.name == "late" for c in got.channels)
