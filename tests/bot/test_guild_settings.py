"""A server's chosen language as GuildSettings holds it: read again after its TTL, so a change made
through another process is followed here."""

from __future__ import annotations

from pathlib import Path

from bot.guild_settings import LANGUAGE_TTL, GuildSettings
from bot.storage import Storage


async def test_a_language_chosen_through_another_process_is_followed_after_the_ttl(tmp_path: Path) -> None:
    path = tmp_path / "spades.db"
    here_db, there_db = await Storage.open(path), await Storage.open(path)  # two processes, one file
    try:
        now = [500.0]
        here = GuildSettings(here_db, timer=lambda: now[0])
        there = GuildSettings(there_db)
        assert await here.chosen_language(1) is None

        await there.update(1, language="pl")  # /spades config language through the other process
        assert await there.chosen_language(1) == "pl"
        now[0] += LANGUAGE_TTL / 2
        assert await here.chosen_language(1) is None  # still the value read
        now[0] += LANGUAGE_TTL
        assert await here.chosen_language(1) == "pl"  # read again
        assert await here.server_language(1) == "pl"

        await here.update(1, language="cs")  # a change made here is followed here at once
        assert await here.chosen_language(1) == "cs"
    finally:
        await here_db.close()
        await there_db.close()
