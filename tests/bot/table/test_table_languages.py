"""Which language a table speaks in public: the server's own (``/spades config language``), a
Community server's preferred locale, else the language of the member who opened the table (kept
with the table, so a restart keeps it); an admin is told once per server how to choose one. A lazy
public answer is rendered in that language too."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import _, follows_opener, public_language, render
from bot.model import HOST_LANGUAGE
from bot.safe import PublicLanguages, safe_send
from bot.storage import Storage
from tests.bot.factories import FakeInteraction
from tests.bot.table.factories import GUILD, make_service, open_table


@pytest.mark.parametrize(
    ("chosen", "preferred", "community", "opener", "lang"),
    [
        ("cs", "en-US", False, "pl", "cs"),  # the server's own choice wins
        ("cs", "ru", True, "pl", "cs"),
        (None, "ru", True, "pl", "ru"),  # a Community server's language
        (None, "en-US", True, "pl", "en"),  # a Community server that speaks English
        (None, "en-US", False, "pl", "pl"),  # no Community: en-US says nothing, the opener's
        (None, None, False, "ru", "ru"),
        (None, "en-US", False, None, "en"),
        (None, "en-US", False, "pt-BR", "en"),  # (not a language of the bot's)
    ],
)
def test_the_public_language(chosen: Any, preferred: Any, community: bool, opener: Any, lang: str) -> None:
    assert public_language(chosen, preferred, community=community, opener=opener) == lang
    follows = follows_opener(chosen, preferred, community=community)
    assert follows == (chosen is None and not community and preferred in ("en-US", None))


async def test_a_table_keeps_its_openers_language_across_a_restart(storage: Storage) -> None:
    svc = make_service(storage)
    t = await open_table(svc, host_language="pl")
    assert t.settings[HOST_LANGUAGE] == "pl"
    assert await svc.language_of(t.id) == "pl"
    await svc.close()
    again = make_service(storage)  # a restart: the table comes back from storage
    await again.restore()
    assert await again.language_of(t.id) == "pl"
    # once the server chooses a language, every table speaks it
    await storage.settings.set_guild(GUILD, language="ru")
    again.language_changed(GUILD, "ru")
    assert await again.language_of(t.id) == "ru"
    await again.close()


async def test_an_admin_is_told_once_per_server_how_to_choose_its_language(storage: Storage) -> None:
    svc = make_service(storage)
    assert (
        await svc.settings.language_note(GUILD, "pl", can_manage=False) is None
    )  # not for a member who can't
    note = await svc.settings.language_note(GUILD, "pl", can_manage=True)
    assert note is not None
    polish = render(note, "pl")
    assert "(ten: Polski)" in polish and "`/piki ustawienia język:`" in polish
    assert await svc.settings.language_note(GUILD, "pl", can_manage=True) is None  # once
    assert (await storage.settings.guild(GUILD)).get("language_noted") is True
    # a server that chose its language needs no note
    await storage.settings.set_guild(GUILD + 1, language="cs")
    assert await svc.settings.language_note(GUILD + 1, "cs", can_manage=True) is None
    await svc.close()


async def test_a_lazy_public_answer_speaks_the_tables_language() -> None:
    class Client(PublicLanguages):
        async def public_language(self, interaction: Any) -> str:
            return "pl"

    text = _("Table %(table)s started.", table=3)
    i: Any = FakeInteraction()
    i.client, i.guild_locale, i.locale = Client(), discord.Locale.american_english, discord.Locale.czech
    assert await safe_send(i, text, ephemeral=False)
    assert i.calls[-1][1][0] == render(text, "pl")
    # without the bot's answer: the locale Discord reports for the server
    bare: Any = FakeInteraction()
    bare.client, bare.guild_locale = SimpleNamespace(), discord.Locale.russian
    assert await safe_send(bare, text, ephemeral=False)
    assert bare.calls[-1][1][0] == render(text, "ru")
