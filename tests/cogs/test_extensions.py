"""Every extension loads into a real SpadesBot (no network), and the command tree is well-formed."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import discord
import pytest

import cogs
from bot.client import EXTENSIONS, SpadesBot
from bot.config import Config
from bot.storage import Storage


def test_every_cog_module_is_an_extension() -> None:
    modules = {f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)}
    with_setup = {m for m in modules if hasattr(importlib.import_module(m), "setup")}
    assert with_setup == set(EXTENSIONS)


@pytest.mark.parametrize("name", EXTENSIONS)
async def test_extension_loads_and_unloads(bot: SpadesBot, name: str) -> None:
    await bot.load_extension(name)
    assert name in bot.extensions
    assert bot.tree.get_commands(), f"{name} registered no application command"
    await bot.unload_extension(name)
    assert name not in bot.extensions


async def test_all_extensions_together(bot: SpadesBot) -> None:
    for name in EXTENSIONS:
        await bot.load_extension(name)
    names = {c.qualified_name for c in bot.tree.walk_commands()}
    for required in ("join", "bid", "play", "leaderboard", "stats"):
        assert required in names
    payload = await bot.command_payload()  # exactly what a sync would send
    assert len({c["name"] for c in payload}) == len(payload)
    for command in payload:
        assert 1 <= len(command["name"]) <= 32 and command["name"] == command["name"].lower()
        assert 1 <= len(command.get("description", "x")) <= 100
    assert isinstance(bot.tree.get_command("leaderboard"), discord.app_commands.Command)
    # the cog answers through the very service the bot restores and closes
    cog = bot.get_cog("TablesCog")
    assert cog is not None and getattr(cog, "service", None) is bot.tables


async def test_command_hash_follows_the_definition_not_the_instance(tmp_path: Path) -> None:
    """Two bots built alike hash alike (so a restart does not resync), and any change to the
    command tree changes the hash (so a new command is synced)."""
    hashes = []
    for i in range(2):
        storage = await Storage.open(tmp_path / f"h{i}.db")
        other = SpadesBot(Config(token="t", database_path=str(tmp_path / f"h{i}.db")), storage=storage)
        other.build_services()
        try:
            for name in EXTENSIONS:
                await other.load_extension(name)
            hashes.append(await other.command_hash())
            await other.unload_extension("cogs.stats")
            hashes.append(await other.command_hash())
        finally:
            await other.close()
    full_a, partial_a, full_b, partial_b = hashes
    assert full_a == full_b and partial_a == partial_b
    assert full_a != partial_a
    assert len(full_a) == 64 and int(full_a, 16) >= 0
