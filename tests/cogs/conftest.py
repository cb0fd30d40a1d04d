"""Fixtures of the cogs' tests: a ``SpadesBot`` with its services built on the shared ``storage``
(not connected to Discord; a test loads the extensions it needs)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import SpadesBot
from bot.config import Config
from bot.storage import Storage


@pytest.fixture
async def bot(storage: Storage, tmp_path: Path) -> AsyncIterator[SpadesBot]:
    spades = SpadesBot(Config(token="t", database_path=str(tmp_path / "spades.db")), storage=storage)
    spades.build_services()  # (what setup_hook does before it loads the extensions)
    yield spades
    await spades.close()
