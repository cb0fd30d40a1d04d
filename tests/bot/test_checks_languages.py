"""The option and permission refusals are lazy messages: each user reads them in their language,
the option named as their client shows it and the permissions as Discord's settings call them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.checks import cannot_run_table, check_value
from bot.i18n import render
from cogs.tables import TablesCog


def _interaction(**perms: bool) -> Any:
    return SimpleNamespace(app_permissions=discord.Permissions(**perms), channel=None, channel_id=42)


def test_missing_permissions_are_named_in_the_users_language() -> None:
    problem = cannot_run_table(_interaction(view_channel=True, read_message_history=True))
    assert problem is not None
    assert "I'm missing **Send Messages**, **Embed Links** here" in render(problem, "en")
    polish = render(problem, "pl")
    assert "**Wysyłanie wiadomości**, **Osadzanie linków**" in polish and "<#42>" in polish
    assert "**Отправлять сообщения**" in render(problem, "ru")
    assert cannot_run_table(_interaction(view_channel=True, read_message_history=True, send_messages=True,
                                         embed_links=True)) is None


def test_a_bad_option_names_the_option_as_the_client_shows_it() -> None:
    new = next(c for c in TablesCog.__cog_app_commands__ if c.name == "spades").get_command("new")
    assert isinstance(new, discord.app_commands.Command)
    param = next(p for p in new.parameters if p.name == "play_seconds")
    problem = check_value(param, "abc")
    assert problem is not None
    assert render(problem, "en").startswith("`play_seconds` must be a whole number")
    assert render(problem, "pl").startswith("`sekundy_na_zagranie` musi być liczbą całkowitą")
    assert render(problem, "cs").startswith("`sekundy_na_tah` musí být celé číslo")
