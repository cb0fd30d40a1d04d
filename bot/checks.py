"""Options checked on our side too: Discord checks a slash command's option types and ranges, but
an interaction is only data, and a client or a stale command definition can send anything. A
wrong type or a value out of range gets its specific answer here, before any command runs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as T

from bot.i18n import N_, ChoiceName, Msg, OptionName, Text, _, channel_mention, join
from bot.permissions import permission_name

_WHAT = {
    T.string: N_("text"),
    T.integer: N_("a whole number"),
    T.number: N_("a number"),
    T.boolean: N_("true or false"),
    T.user: N_("a member"),
    T.channel: N_("a channel"),
    T.role: N_("a role"),
    T.mentionable: N_("a member or a role"),
    T.attachment: N_("a file"),
}
_SNOWFLAKES = (T.user, T.channel, T.role, T.mentionable, T.attachment)


def _leaves(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The options given to the command itself (inside its subcommand group and subcommand)."""
    for opt in options:
        if opt.get("type") in (1, 2):  # subcommand, subcommand group
            return _leaves(list(opt.get("options") or []))
    return options


def _number(name: Text, what: Text, low: float | None, high: float | None) -> Msg:
    """`` `play_seconds` must be a whole number from 15 to 600.`` (the range Discord was told)."""
    lo = "" if low is None else format(low, "g")
    hi = "" if high is None else format(high, "g")
    if lo and hi:
        return _("`%(name)s` must be %(what)s from %(min)s to %(max)s.", name=name, what=what, min=lo, max=hi)
    if lo:
        return _("`%(name)s` must be %(what)s of at least %(min)s.", name=name, what=what, min=lo)
    if hi:
        return _("`%(name)s` must be %(what)s of at most %(max)s.", name=name, what=what, max=hi)
    return _("`%(name)s` must be %(what)s.", name=name, what=what)


def check_value(param: app_commands.Parameter, value: Any) -> Text | None:
    """Why ``value`` does not fit the option ``param``, or None when it does (a lazy message: the
    option is named as the user's client shows it)."""
    name, kind = OptionName(param.display_name), param.type
    low, high = param.min_value, param.max_value
    what = Msg(_WHAT.get(kind, N_("a value")))
    if kind == T.string:
        if not isinstance(value, str):
            return _("`%(name)s` must be %(what)s.", name=name, what=what)
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            return _(
                "`%(name)s` must be text of %(min)s to %(max)s characters.",
                name=name,
                min=low or 0,
                max=high or 6000,
            )
    elif kind in (T.integer, T.number):
        numeric = (int,) if kind == T.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric) or not math.isfinite(value):
            return _number(name, what, low, high)
        if (low is not None and value < low) or (high is not None and value > high):
            return _number(name, what, low, high)
    elif kind == T.boolean:
        if not isinstance(value, bool):
            return _("`%(name)s` must be %(what)s.", name=name, what=what)
    elif kind in _SNOWFLAKES and not str(value).isdigit():
        return _("`%(name)s` must be %(what)s.", name=name, what=what)
    if param.choices and kind != T.boolean:
        allowed = [c.value for c in param.choices]
        if value not in allowed:
            # the choices as the reader's client lists them, not their English names
            shown = (join("`", ChoiceName(c.name), "`", sep="") for c in param.choices[:25])
            choices = join(*shown, sep=", ")
            return _("`%(name)s` must be one of: %(choices)s.", name=name, choices=choices)
    return None


def bad_option(interaction: discord.Interaction[Any]) -> Text | None:
    """The first problem with the options of a slash command, or None (also for anything that is
    not a slash command: context menus and autocomplete are left alone)."""
    if interaction.type != discord.InteractionType.application_command:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    if data.get("type", 1) != 1:
        return None
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None  # (an unknown command: the tree answers that one)
    params = {p.display_name: p for p in command.parameters}
    for opt in _leaves(list(data.get("options") or [])):
        if not isinstance(opt, dict):
            return _("This command changed since Discord loaded it. Please try again in a minute.")
        param = params.get(str(opt.get("name")))
        if param is None:
            return _("This command changed since Discord loaded it. Please try again in a minute.")
        problem = check_value(param, opt.get("value"))
        if problem is not None:
            return problem
    return None


# ---- the bot's own permissions where a table runs ---------------------------------------------

#: what the bot needs in a channel to run a table there (the README's invite link asks for them)
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")
THREAD_PERMISSIONS = ("view_channel", "send_messages_in_threads", "embed_links", "read_message_history")
#: used when granted, not required: without Attach Files the table pictures are left out
OPTIONAL_PERMISSIONS = ("attach_files",)


def missing_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """The permissions the bot lacks in the interaction's channel to run a table there (Discord
    sends the bot's permissions with every interaction: ``app_permissions``)."""
    perms = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    needed = THREAD_PERMISSIONS if in_thread else TABLE_PERMISSIONS
    return [p for p in needed if not getattr(perms, p, False)]


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server or Administrator in this channel (the cogs' and the buttons' one test)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def cannot_change_settings(interaction: discord.Interaction[Any]) -> Text | None:
    """Why this member can't change the server's settings (outside a server, or without Manage
    Server), or None."""
    if interaction.guild_id is None:
        return _("Server settings only exist in a server.")
    if not is_admin(interaction):
        return _("Only members with Manage Server can change the server's settings.")
    return None


def cannot_sync(interaction: discord.Interaction[Any], owner_ids: Iterable[int]) -> Text | None:
    """Why this member can't sync the bot's commands (neither an owner nor Manage Server), or None."""
    if interaction.user.id in set(owner_ids) or is_admin(interaction):
        return None
    return _("Only the bot's owner or members with Manage Server can sync commands.")


def cannot_run_table(interaction: discord.Interaction[Any]) -> Text | None:
    """Why no table can run in this channel (naming the missing permissions and who can give
    them), or None."""
    missing = missing_permissions(interaction)
    if not missing:
        return None
    names = join(*(join("**", permission_name(p), "**", sep="") for p in missing), sep=", ")
    where = channel_mention(interaction.channel_id) if interaction.channel_id else _("this channel")
    return _(
        "I can't run a table in %(where)s: I'm missing %(perms)s here. Someone who can manage this "
        "channel (Manage Channels or Manage Roles, such as a server admin) can give my role these "
        "permissions in the channel's settings (Edit Channel → Permissions).",
        where=where,
        perms=names,
    )
