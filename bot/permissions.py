"""Discord's permissions by the names its client shows (Server Settings → Roles, Edit Channel →
Permissions), in the reader's language: a refusal that names a missing permission names it as the
reader will find it in their own Discord."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import N_, ListOf, Msg, Text

# discord.py's flag names (aliases included) -> the English name in Discord's client; the catalogs
# hold each name as Discord's client shows it in Polish, Czech and Russian
PERMISSION_NAMES: dict[str, str] = {
    "administrator": N_("Administrator"),
    "view_channel": N_("View Channel"),
    "read_messages": N_("View Channel"),
    "manage_channels": N_("Manage Channels"),
    "manage_roles": N_("Manage Roles"),
    "manage_permissions": N_("Manage Roles"),
    "manage_guild": N_("Manage Server"),
    "create_instant_invite": N_("Create Invite"),
    "change_nickname": N_("Change Nickname"),
    "manage_nicknames": N_("Manage Nicknames"),
    "kick_members": N_("Kick Members"),
    "ban_members": N_("Ban Members"),
    "moderate_members": N_("Timeout Members"),
    "view_audit_log": N_("View Audit Log"),
    "manage_webhooks": N_("Manage Webhooks"),
    "manage_expressions": N_("Manage Expressions"),
    "manage_emojis": N_("Manage Expressions"),
    "manage_emojis_and_stickers": N_("Manage Expressions"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "create_public_threads": N_("Create Public Threads"),
    "create_private_threads": N_("Create Private Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "add_reactions": N_("Add Reactions"),
    "external_emojis": N_("Use External Emoji"),
    "use_external_emojis": N_("Use External Emoji"),
    "external_stickers": N_("Use External Stickers"),
    "use_external_stickers": N_("Use External Stickers"),
    "mention_everyone": N_("Mention @everyone, @here, and All Roles"),
    "manage_messages": N_("Manage Messages"),
    "manage_threads": N_("Manage Threads"),
    "read_message_history": N_("Read Message History"),
    "use_application_commands": N_("Use Application Commands"),
    "manage_events": N_("Manage Events"),
    "create_events": N_("Create Events"),
}


def permission_name(flag: str) -> Text:
    """A permission as the reader's Discord names it (``send_messages``: "Send Messages",
    "Wysyłanie wiadomości", …); a flag without a catalog entry in English words."""
    known = PERMISSION_NAMES.get(flag)
    if known is not None:
        return Msg(known)
    return flag.replace("_", " ").replace("guild", "server").title().replace(" In ", " in ")


def permission_list(flags: Iterable[str]) -> ListOf:
    """Permissions as a list in the reader's language ("Send Messages and Embed Links")."""
    names: list[Text] = []
    for flag in flags:
        name = permission_name(flag)
        if str(name) not in (str(n) for n in names):
            names.append(name)
    return ListOf(tuple(names))


__all__ = ["PERMISSION_NAMES", "permission_list", "permission_name"]
