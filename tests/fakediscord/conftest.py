"""Fixtures for the fake Discord's own tests: a world with a guild, a channel, users and the demo bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest_asyncio

from fakediscord import Channel, FakeDiscord, Guild, User

from .demo_bot import DemoBot


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    admin: User
    bot: DemoBot


@pytest_asyncio.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[World]:
    fake = fake_discord
    guild = fake.add_guild("Test server")
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", global_name="Bobby")
    admin = fake.add_user("root", manage_guild=True)
    bot = DemoBot()
    async with fake.run_bot(bot, token="x", sync_commands=True):
        yield World(fake, guild, channel, alice, bob, admin, bot)
