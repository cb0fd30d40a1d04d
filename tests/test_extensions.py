"""Every extension loads into a real SpadesBot (no network), and the command tree is well-formed."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

import cogs
from bot.client import EXTENSIONS, SpadesBot
from bot.config import Config
from bot.storage import Storage


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[SpadesBot]:
    storage = await Storage.open(tmp_path / "spades.db")
    spades = SpadesBot(Config(token="t", database_path=str(tmp_path / "spades.db")), storage=storage)
    yield spades
    await spades.close()


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
    assert await bot.command_hash() == await bot.command_hash()  # stable within a process
    assert hasattr(bot, "tables")
    assert isinstance(bot.tree.get_command("leaderboard"), discord.app_commands.Command)
