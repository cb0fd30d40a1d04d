"""A league seat whose member Discord no longer knows gets a stand-in name in the server's
language (the table's public messages show it)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.league.tables import ServiceTables


class _Gone(discord.NotFound):
    def __init__(self) -> None:  # no HTTP response to build one from
        Exception.__init__(self, "Unknown Member")


def _tables(lang: str, members: dict[int, str]) -> ServiceTables:
    async def fetch_member(user_id: int) -> Any:
        raise _Gone()

    guild = SimpleNamespace(
        get_member=lambda uid: SimpleNamespace(display_name=members[uid]) if uid in members else None,
        fetch_member=fetch_member,
    )
    client = SimpleNamespace(get_guild=lambda gid: guild)

    async def server_language(guild_id: int) -> str:
        return lang

    service = SimpleNamespace(server_language=server_language)
    return ServiceTables(client, service, store=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "Player 1234"), ("pl", "Gracz 1234"), ("cs", "Hráč 1234"), ("ru", "Игрок 1234")],
)
async def test_an_unknown_member_is_named_in_the_servers_language(lang: str, expected: str) -> None:
    tables = _tables(lang, {42: "Alice"})
    assert await tables._name(1, 42) == "Alice"
    assert await tables._name(1, 99_000_000_000_001_234) == expected
