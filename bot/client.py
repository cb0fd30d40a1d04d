"""SpadesBot: the commands.Bot subclass that owns storage, loads the cogs and syncs commands on purpose."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from .checks import bad_option
from .config import Config
from .emojis import CARD_EMOJIS
from .errors import report_interaction_error
from .i18n import SpadesTranslator, translated_payload
from .safe import safe_send, watch
from .storage import Storage
from .tasks import cancel_all

if TYPE_CHECKING:
    from .table.service import TableService

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.tables", "cogs.stats", "cogs.history")
UNKNOWN_COMPONENT = "That button or menu is no longer in use. `/table` shows the current table."


class SpadesTree(app_commands.CommandTree["SpadesBot"]):
    """The one global error handler for slash commands, and options checked before any runs."""

    async def interaction_check(self, interaction: discord.Interaction[SpadesBot], /) -> bool:
        problem = bad_option(interaction)
        if problem is not None:
            await safe_send(interaction, problem)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[SpadesBot], error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else None
        await report_interaction_error(interaction, error, f"command /{command or '?'}", command=command)


class SpadesBot(commands.Bot):
    """The application. ``storage`` may be injected (tests); otherwise it is opened in setup_hook."""

    tables: TableService  # set by cogs.tables' setup()

    def __init__(
        self,
        config: Config,
        *,
        storage: Storage | None = None,
        extensions: tuple[str, ...] = EXTENSIONS,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # non-privileged; interactions carry the members we need
        # The bot never joins voice: discord.py's start-up warnings about missing voice libraries
        # would only puzzle whoever runs it.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        options.setdefault(
            "allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True)
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=SpadesTree,
            owner_ids=set(config.owner_ids) or None,
            **options,
        )
        self.config = config
        self._storage = storage
        self.extension_names = extensions
        self._sync_lock = asyncio.Lock()
        self._item_types: set[type[discord.ui.DynamicItem[Any]]] = set()
        self._emoji_task: asyncio.Task[Any] | None = None

    @property
    def storage(self) -> Storage:
        if self._storage is None:
            raise RuntimeError("storage is not open yet: it opens in setup_hook")
        return self._storage

    @storage.setter
    def storage(self, value: Storage) -> None:
        self._storage = value

    async def setup_hook(self) -> None:
        if self._storage is None:
            self._storage = await Storage.open(self.config.database_path, faults=self.config.faults)
        for name in self.extension_names:
            await self.load_extension(name)
        # command, option and choice names and descriptions in Polish, Czech and Russian
        await self.tree.set_translator(SpadesTranslator())
        await self.sync_commands()
        if self.config.card_emojis:
            # in the background: the hand buttons stay text until (and unless) the faces are there
            self._emoji_task = asyncio.create_task(CARD_EMOJIS.sync(self), name="card-emojis")

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._item_types.update(items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self._item_types.difference_update(items)

    def handles_custom_id(self, custom_id: str) -> bool:
        """Whether a registered component (a persistent DynamicItem) answers this custom_id."""
        return any(
            item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in self._item_types
        )

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction is answered in time (``bot.safe.watch``); a component that no handler
        claims (a custom_id from an old version, or made up) is told so at once."""
        if interaction.type == discord.InteractionType.component:
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = str(data.get("custom_id", ""))
            if not self.handles_custom_id(custom_id):
                log.debug("no handler for custom_id %r", custom_id[:100])
                await safe_send(interaction, UNKNOWN_COMPONENT)
                return
        watch(interaction)

    async def on_ready(self) -> None:
        user = self.user
        log.info("logged in as %s (%s) in %d servers", user, user and user.id, len(self.guilds))

    async def close(self) -> None:
        if self._emoji_task is not None:
            await cancel_all([self._emoji_task])
        CARD_EMOJIS.clear()
        try:
            await super().close()
        finally:
            if self._storage is not None:
                await self._storage.close()

    # --- command sync ---------------------------------------------------------------------------

    @property
    def command_scope(self) -> discord.Object | None:
        """The dev guild when DEV_GUILD_ID is set (instant updates), else None (global)."""
        gid = self.config.dev_guild_id
        return None if gid is None else discord.Object(id=gid)

    async def command_payload(self) -> list[dict[str, Any]]:
        """Exactly what a sync would send for the current scope (translations included), in a
        stable order."""
        scope = self.command_scope
        if scope is not None:
            self.tree.copy_global_to(guild=scope)
        return await translated_payload(self.tree, scope)

    async def command_hash(self) -> str:
        """Changes whenever a sync would send something else: a command, or one translation."""
        payload = await self.command_payload()
        blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def command_hash_key(self) -> str:
        scope = self.command_scope
        where = "global" if scope is None else f"guild:{scope.id}"
        return f"command_hash:{self.application_id}:{where}"

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync application commands if their definition changed (or ``force``); True if synced.

        A failed sync is logged and leaves the stored hash alone, so the next start retries.
        """
        async with self._sync_lock:
            digest = await self.command_hash()
            key = self.command_hash_key()
            if not force and await self.storage.get_meta(key) == digest:
                log.info("application commands unchanged (%s); not syncing", key)
                return False
            try:
                synced = await self.tree.sync(guild=self.command_scope)
            except discord.HTTPException:
                log.exception("command sync failed (%s)", key)
                if force:
                    raise
                return False
            await self.storage.set_meta(key, digest)
            log.info("synced %d application commands (%s)", len(synced), key)
            return True
