"""GuildSettings: a server's stored settings (``/spades config``: defaults for new tables, the
league admin role, the language) and the language its public messages speak, with one cache.

The composition root (``SpadesBot.setup_hook``) builds one and hands it to the table service, the
league and the cogs; every read or change of a server's settings goes through it, so the cached
language follows a change made here at once, and one made through another process of a sharded
bot (docs/SHARDING.md) within ``LANGUAGE_TTL`` seconds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.cache import TTLCache
from bot.i18n import (
    DEFAULT,
    LANGUAGE_NAMES,
    LANGUAGES,
    Command,
    Msg,
    OptionName,
    _,
    follows_opener,
    join,
    public_language,
)
from bot.storage import Storage

log = logging.getLogger(__name__)

# the server's settings key that says an admin was told how to choose the server's language
LANGUAGE_NOTED = "language_noted"

#: seconds a server's chosen language is used as read before it is read again (a change made
#: through another process is followed within this long)
LANGUAGE_TTL = 30.0

#: the guild the gateway told us about (its preferred locale and features), or None
GuildLookup = Callable[[int], "discord.Guild | None"]


def _no_guild(_guild_id: int) -> discord.Guild | None:
    return None


class GuildSettings:
    """The servers' settings in storage, and each server's chosen language (read again after
    ``LANGUAGE_TTL`` seconds)."""

    def __init__(
        self,
        storage: Storage,
        *,
        guild: GuildLookup = _no_guild,
        ttl: float = LANGUAGE_TTL,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.storage = storage
        self._guild = guild
        # guild -> the language chosen with /spades config language (None: the server's own)
        self._languages: TTLCache[int, str | None] = TTLCache(ttl, timer=timer)

    # ---- the stored settings ----------------------------------------------------------------
    async def get(self, guild_id: int) -> dict[str, Any]:
        """The server's settings as stored (defaults filled in); read from storage every time."""
        return dict(await self.storage.settings.guild(guild_id))

    async def update(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        """Store ``changes`` over the server's settings; the settings as stored now."""
        settings = dict(await self.storage.settings.set_guild(guild_id, **changes))
        if "language" in changes:
            self.language_changed(guild_id, changes["language"])
        return settings

    # ---- the language of public messages ---------------------------------------------------------
    def language_changed(self, guild_id: int, language: str | None) -> None:
        """A server chose another language (None: its own again), stored by someone else."""
        self._languages.put(guild_id, language if language in LANGUAGES else None)

    async def chosen_language(self, guild_id: int) -> str | None:
        """The language set with ``/spades config language`` (None: none), read again once the
        last read is older than the TTL (the last one read while storage cannot be read)."""
        if not self._languages.fresh(guild_id):
            try:
                chosen = (await self.storage.settings.guild(guild_id)).get("language")
            except Exception:
                log.exception("the settings of guild %s could not be read", guild_id)
                return self._languages.get(guild_id)  # (read again next time)
            self._languages.put(guild_id, chosen if chosen in LANGUAGES else None)
        return self._languages.get(guild_id)

    def guild_locale(self, guild_id: int) -> tuple[Any, bool]:
        """The server's preferred locale and whether it has Community (as the gateway told us)."""
        guild = self._guild(guild_id)
        if guild is None:
            return None, False
        return guild.preferred_locale, "COMMUNITY" in (guild.features or ())

    async def server_language(self, guild_id: int, opener: str | None = None) -> str:
        """The language a server's tables speak in public: the one set with ``/spades config
        language``, else the preferred locale of a Community server, else ``opener``'s (the member
        who opened the table or posted the message: a server without Community reports en-US),
        else English (``bot.i18n.public_language``)."""
        chosen = await self.chosen_language(guild_id)
        preferred, community = self.guild_locale(guild_id)
        return public_language(chosen, preferred, community=community, opener=opener)

    async def language_note(self, guild_id: int, language: str, *, can_manage: bool) -> Msg | None:
        """Once per server, for a member who can change it (Manage Server), the first time a table
        speaks its opener's language: how to give every table the server's language. Nothing for
        anyone else (and the note waits for a member who can act on it). ``language``: the table's."""
        if not can_manage:
            return None
        chosen = await self.chosen_language(guild_id)
        preferred, community = self.guild_locale(guild_id)
        if not follows_opener(chosen, preferred, community=community):
            return None
        try:
            if (await self.storage.settings.guild(guild_id)).get(LANGUAGE_NOTED):
                return None
            await self.storage.settings.set_guild(guild_id, **{LANGUAGE_NOTED: True})
        except Exception:
            log.exception("the language note of guild %s could not be stored", guild_id)
            return None
        return _(
            "🌐 This server has not chosen a language for the bot, so each table speaks the language of "
            "the member who opens it (this one: %(language)s). To choose one for every table: %(command)s.",
            language=LANGUAGE_NAMES.get(language, LANGUAGE_NAMES[DEFAULT]),
            command=join("`", Command("/spades config"), " ", OptionName("language"), ":`", sep=""),
        )
