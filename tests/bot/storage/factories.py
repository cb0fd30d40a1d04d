"""Factories for the storage tests."""

from __future__ import annotations

from bot.storage import shard_of


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A realistic 18-digit guild id on ``shard``."""
    base = (275_000_000_000 + n) * count + shard  # a timestamp part, shifted like a snowflake
    guild = (base << 22) | 4321
    assert shard_of(guild, count) == shard
    return guild
