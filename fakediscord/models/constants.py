"""Discord's numbers the fake's world uses: permission sets, channel types, message flags."""

from __future__ import annotations

from typing import Any

from discord import Permissions

Json = dict[str, Any]

#: What a bot invited with the usual "send messages, embed links, read history" scopes gets.
DEFAULT_BOT_PERMISSIONS = Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    manage_messages=True,
    manage_events=True,
    create_events=True,
    use_application_commands=True,
).value

#: @everyone in a freshly created server.
DEFAULT_EVERYONE_PERMISSIONS = Permissions.general().value | Permissions.text().value
DEFAULT_EVERYONE_PERMISSIONS &= ~(
    Permissions(
        manage_channels=True,
        manage_roles=True,
        manage_guild=True,
        manage_webhooks=True,
        manage_expressions=True,
        view_audit_log=True,
        view_guild_insights=True,
        manage_messages=True,
        manage_threads=True,
        mention_everyone=True,
        send_tts_messages=True,
        administrator=True,
        kick_members=True,
        ban_members=True,
        moderate_members=True,
        manage_events=True,
        create_expressions=True,
    ).value
)
#: What Discord reports as the app's permissions in a DM with the bot.
DM_APP_PERMISSIONS = Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
ADMINISTRATOR = Permissions(administrator=True).value
MANAGE_GUILD = Permissions(manage_guild=True).value

TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
