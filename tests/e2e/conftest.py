"""End-to-end fixtures: ``spades`` (a world on the fake Discord, the bot run on its database by
``spades.running()``) and ``e2e_database`` (a SQLite file, or a PostgreSQL database for a test
marked ``both_backends``). The helpers the tests act and read with are in tests/e2e/harness.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from fakediscord import FakeDiscord
from fakediscord.rest.ratelimits import GLOBAL_LIMIT
from tests.e2e.harness import Spades


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run the end-to-end test on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "e2e_database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("e2e_database", ["sqlite", "postgresql"], indirect=True)


@pytest_asyncio.fixture
async def e2e_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The bot's database: a SQLite file, or (parametrized) a new PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield str(tmp_path / "spades.db")
        return
    from tests.postgres_server import create_database, drop_database

    server = request.getfixturevalue("postgres_server")
    url = await create_database(server)
    yield url
    await drop_database(server, url)


@pytest_asyncio.fixture
async def spades(fake_discord: FakeDiscord, e2e_database: str) -> AsyncIterator[Spades]:
    fake = fake_discord
    # Discord's global limit (50 bot-token requests/s, interactions exempt) costs nothing here, so it
    # is always on (no test reaches it); the per-route buckets (5 edits per 5 s per channel) would
    # hold a game at speed 50 back by seconds per trick, so they stay off here.
    fake.global_limit = GLOBAL_LIMIT
    guild = fake.add_guild("Spades club")
    channel = guild.add_text_channel("spades")
    users = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")}
    users["admin"] = fake.add_user("root", manage_guild=True)
    yield Spades(fake, guild, channel, users, e2e_database)
