"""The option and permission refusals are lazy messages: each user reads them in their language,
the option named as their client shows it and the permissions as Discord's settings call them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.checks import cannot_run_table, check_value, missing_permissions
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
    assert (
        cannot_run_table(
            _interaction(view_channel=True, read_message_history=True, send_messages=True, embed_links=True)
        )
        is None
    )


def test_a_bad_option_names_the_option_as_the_client_shows_it() -> None:
    new = next(c for c in TablesCog.__cog_app_commands__ if c.name == "spades").get_command("new")
    assert isinstance(new, discord.app_commands.Command)
    param = next(p for p in new.parameters if p.name == "play_seconds")
    problem = check_value(param, "abc")
    assert problem is not None
    assert render(problem, "en").startswith("`play_seconds` must be a whole number")
    assert render(problem, "pl").startswith("`sekundy_na_zagranie` musi być liczbą całkowitą")
    assert render(problem, "cs").startswith("`sekundy_na_tah` musí být celé číslo")


def test_a_stale_choice_lists_the_choices_as_the_client_shows_them() -> None:
    from cogs.league import LeagueCog

    create = next(c for c in LeagueCog.__cog_app_commands__ if c.name == "league").get_command("create")
    assert isinstance(create, discord.app_commands.Command)
    param = next(p for p in create.parameters if p.name == "format")
    problem = check_value(param, "no-such-format")
    assert problem is not None
    assert "`Fixed partners (teams sign up together)`" in render(problem, "en")
    polish = render(problem, "pl")
    assert "`Zmienne pary (tabela indywidualna)`" in polish and "Fixed partners" not in polish


def test_missing_permission_errors_name_them_as_each_client_does() -> None:
    from discord import app_commands

    from bot.errors import user_error_message

    one = user_error_message(app_commands.MissingPermissions(["manage_guild"]), "spades config")
    assert one is not None
    assert render(one, "en") == "You need the Manage Server permission to use /spades config."
    assert "Zarządzanie serwerem" in render(one, "pl") and "uprawnienia " in render(one, "pl")
    assert "Spravovat server" in render(one, "cs")
    assert "право Управлять сервером" in render(one, "ru")
    two = user_error_message(app_commands.BotMissingPermissions(["send_messages", "embed_links"]), None)
    assert two is not None
    assert render(two, "en") == (
        "I need the Send Messages and Embed Links permissions in this channel for this command."
    )
    polish = render(two, "pl")
    assert "uprawnień Wysyłanie wiadomości i Osadzanie linków" in polish, polish
    assert "Odesílat zprávy a Vkládat odkazy" in render(two, "cs").replace("\xa0", " ")
    assert "права Отправлять сообщения и Встраивать ссылки" in render(two, "ru")
    for lang in ("pl", "cs", "ru"):
        assert "Manage" not in render(one, lang) and "Send" not in render(two, lang)


def test_every_permission_flag_discord_has_a_name_for_is_known() -> None:
    """A flag named in a refusal must not fall back to English words: every permission the bot
    could need is in the table (and so in the catalogs, which the catalog test keeps translated)."""
    from bot.permissions import PERMISSION_NAMES, permission_name

    everyday = [
        "administrator",
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "embed_links",
        "attach_files",
        "read_message_history",
        "add_reactions",
        "manage_messages",
        "manage_channels",
        "manage_roles",
        "manage_guild",
        "manage_threads",
        "create_public_threads",
        "use_external_emojis",
        "mention_everyone",
        "manage_events",
        "create_events",
        "use_application_commands",
    ]
    for flag in everyday:
        assert flag in PERMISSION_NAMES and flag in discord.Permissions.VALID_FLAGS, flag
        name = permission_name(flag)
        assert render(name, "ru") != render(name, "en"), flag
    assert permission_name("some_new_flag") == "Some New Flag"


def test_sentences_name_permissions_as_the_permission_table_does() -> None:
    """A message that names a permission ("someone with Manage Server") uses the same words in each
    language as the refusals that list missing permissions (Discord's own names)."""
    from bot import i18n
    from bot.permissions import PERMISSION_NAMES

    names = sorted(set(PERMISSION_NAMES.values()), key=len, reverse=True)
    wrong = []
    for lang in i18n.TRANSLATED:
        catalog = i18n.read_catalog(lang)
        for message in catalog:
            english = message.id if isinstance(message.id, str) else (message.id or ("",))[0]
            if not english or english in names:
                continue
            text = message.string if isinstance(message.string, str) else message.string[0]
            for name in names:
                if name in english:
                    if i18n.gettext(lang, name) not in text:
                        wrong.append((lang, name, text))
                    break
    assert not wrong, wrong


def _thread() -> discord.Thread:
    """A thread as ``isinstance`` sees it (its state is never read by the check)."""
    return discord.Thread.__new__(discord.Thread)


def _asked(channel: Any, channel_id: int | None, **perms: bool) -> Any:
    """An interaction in ``channel`` where the bot has ``perms``."""
    perms_given = discord.Permissions(**perms)
    return SimpleNamespace(app_permissions=perms_given, channel=channel, channel_id=channel_id)


def test_the_whole_refusal_names_the_channel_or_this_channel_and_who_can_fix_it() -> None:
    both = " ".join(
        [
            "I'm missing **Send Messages**, **Embed Links** here. Someone who can manage this channel",
            "(Manage Channels or Manage Roles, such as a server admin) can give my role these",
            "permissions in the channel's settings (Edit Channel → Permissions).",
        ]
    )
    problem = cannot_run_table(_interaction(view_channel=True, read_message_history=True))
    assert problem is not None
    assert render(problem, "en") == "I can't run a table in <#42>: " + both
    problem = cannot_run_table(_asked(None, None, view_channel=True, read_message_history=True))
    assert problem is not None
    assert render(problem, "en") == "I can't run a table in this channel: " + both


def test_in_a_thread_the_bot_needs_send_messages_in_threads_not_send_messages() -> None:
    granted = {"view_channel": True, "embed_links": True, "read_message_history": True}
    in_thread = _asked(_thread(), 43, **granted, send_messages=True)
    problem = cannot_run_table(in_thread)
    assert problem is not None
    assert render(problem, "en").startswith(
        "I can't run a table in <#43>: I'm missing **Send Messages in Threads** here."
    )
    assert missing_permissions(in_thread) == ["send_messages_in_threads"]
    assert cannot_run_table(_asked(_thread(), 43, **granted, send_messages_in_threads=True)) is None
    # the same grant in a channel is not enough: a table posts with Send Messages there
    in_channel = _asked(None, 42, **granted, send_messages_in_threads=True)
    assert missing_permissions(in_channel) == ["send_messages"]


def test_a_permission_with_two_flag_names_is_named_once() -> None:
    from discord import app_commands

    from bot.errors import user_error_message

    problem = user_error_message(
        app_commands.BotMissingPermissions(["view_channel", "read_messages", "send_messages"]), None
    )
    assert problem is not None
    assert render(problem, "en") == (
        "I need the View Channel and Send Messages permissions in this channel for this command."
    )


def test_a_flag_discord_adds_later_is_named_in_words_with_server_for_guild() -> None:
    from bot.permissions import PERMISSION_NAMES, permission_name

    assert "view_guild_insights" not in PERMISSION_NAMES
    assert permission_name("view_guild_insights") == "View Server Insights"
    assert permission_name("create_posts_in_forums") == "Create Posts in Forums"
