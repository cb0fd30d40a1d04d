"""SpadesBot: the commands.Bot subclass and the composition root: ``setup_hook`` builds storage, the
clock, the servers' settings, the table and league services, hands them to the cogs and closes them
in ``close``; it also syncs commands on purpose."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from .checks import bad_option
from .clicks import TablesHost
from .clock import Clock, ScaledClock, SystemClock
from .collector import Collector
from .config import Config, Faults
from .dispatch import install as fast_dynamic_items
from .emojis import CARD_EMOJIS
from .errors import report_interaction_error
from .faults import SaveErrors
from .guild_settings import GuildSettings
from .i18n import CommandMentions, SpadesTranslator, _, resolve, translated_payload
from .league.discord_io import DiscordLeagueGateway, LeagueHost
from .league.service import LeagueService
from .league.tables import ServiceTables, listen
from .ratelimit import GlobalBudget
from .review import HandReviews
from .safe import (
    NOT_ON_MESSAGE,
    NamesCommands,
    PublicLanguages,
    install_webhook_adapter,
    on_its_message,
    safe_send,
    watch,
)
from .sharding import ShardKeeper
from .storage import Storage
from .storage.leagues import LeagueStore
from .table.outbound import DiscordPublisher
from .table.service import TableService
from .tasks import cancel_all

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.tables", "cogs.stats", "cogs.history", "cogs.league")
UNKNOWN_COMPONENT = _("That button or menu is no longer in use. `/table` shows the current table.")


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


#: how often, and how far apart, a process without shard 0 looks for the uploaded card emojis
EMOJI_LOOKS = 10
EMOJI_LOOK_SECONDS = 30.0


def clock_for(config: Config) -> Clock:
    """The clock ``TIME_SCALE`` asks for: real time, or a world that runs 1/TIME_SCALE times faster."""
    return SystemClock() if config.time_scale == 1.0 else ScaledClock(1 / config.time_scale)


class NotBuilt(RuntimeError):
    """A service was asked for before ``setup_hook`` built it."""


S = TypeVar("S")


def built(service: S | None, what: str) -> S:
    if service is None:
        raise NotBuilt(f"{what}: not built yet (the bot builds its services in setup_hook)")
    return service


class SpadesBot(commands.Bot, TablesHost, LeagueHost, PublicLanguages, NamesCommands):
    """The application. ``storage`` may be injected (tests); otherwise it is opened in setup_hook.
    ``clock``: the game's time (default: ``TIME_SCALE``'s, see :func:`clock_for`). ``faults``: fault
    seams to install whatever their values (the sandbox, tests; default: ``config.faults``, installed
    only when one is set)."""

    def __init__(
        self,
        config: Config,
        *,
        storage: Storage | None = None,
        clock: Clock | None = None,
        faults: Faults | None = None,
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
        self.clock: Clock = clock if clock is not None else clock_for(config)
        self.faults: Faults | None = (
            faults if faults is not None else (config.faults if config.faults.configured else None)
        )
        self._settings: GuildSettings | None = None
        self._tables: TableService | None = None
        self._leagues: LeagueService | None = None
        self._reviews: HandReviews | None = None
        self.extension_names = extensions
        self._sync_lock = asyncio.Lock()
        self._commands = CommandMentions()
        self._item_types: set[type[discord.ui.DynamicItem[Any]]] = set()
        self._emoji_task: asyncio.Task[Any] | None = None
        self.shard_keeper: ShardKeeper | None = None
        # this process's share of the token's global REST budget (docs/SHARDING.md): every
        # bot-token request waits there, most urgent first (bot/ratelimit.py)
        self.budget = GlobalBudget(config.requests_per_second)
        self.budget.install(self.http)
        fast_dynamic_items(self)  # a click goes to its item without rebuilding the message's view
        self._health: asyncio.Task[None] | None = None
        # the garbage collector's full pauses on a timer, not every few seconds (bot/collector.py)
        self.collector = Collector(config.gc_full_seconds)

    @property
    def storage(self) -> Storage:
        if self._storage is None:
            raise RuntimeError("storage is not open yet: it opens in setup_hook")
        return self._storage

    @storage.setter
    def storage(self, value: Storage) -> None:
        self._storage = value

    @property
    def settings(self) -> GuildSettings:
        """The servers' settings and languages (built in setup_hook)."""
        return built(self._settings, "the servers' settings")

    @property
    def tables(self) -> TableService:
        """Every live table of this process (built in setup_hook)."""
        return built(self._tables, "the table service")

    @property
    def leagues(self) -> LeagueService:
        """The league nights (built in setup_hook)."""
        return built(self._leagues, "the league service")

    @property
    def reviews(self) -> HandReviews:
        """Review my hand (``bot.review``): over the storage, the league store and the table
        service's search workers (built at the first review)."""
        if self._reviews is None:
            self._reviews = HandReviews(self.storage, self.leagues.store, self.tables.clock.thinker)
        return self._reviews

    @property
    def table_service(self) -> TableService | None:
        return self._tables

    @property
    def league_service(self) -> LeagueService | None:
        return self._leagues

    async def setup_hook(self) -> None:
        install_webhook_adapter()  # before the gateway's handlers start: they inherit it
        if self._storage is None:
            self._storage = await Storage.open(self.config.database_path, faults=self.faults)
        await self._take_shards()
        self.build_services()
        for name in self.extension_names:  # (in any order: each only adds its cog and components)
            await self.load_extension(name)
        await self.tables.restore()
        # games stored before ratings existed are rated once, oldest first
        rated = await self.leagues.rate_pending()
        if rated:
            log.info("rated %d finished games", rated)
        self.leagues.start()  # the scheduler: every TICK_SECONDS of the bot's clock, or when poked
        # command, option and choice names and descriptions in Polish, Czech and Russian
        await self.tree.set_translator(SpadesTranslator())
        await self.sync_commands()
        if self.config.card_emojis:
            # in the background: the hand buttons stay text until (and unless) the faces are there
            self._emoji_task = asyncio.create_task(self._card_emojis(), name="card-emojis")
        if self.config.health_seconds > 0:
            self._health = asyncio.create_task(self._health_loop(), name="health")
        self.collector.start()  # last: the modules, commands and restored tables are frozen

    def build_services(self) -> None:
        """The composition root: every service of the bot, with what it needs, once (``setup_hook``
        calls it once the shards are held; a test that loads extensions by hand may call it first)."""
        if self._tables is not None:
            return
        storage, config, keeper = self.storage, self.config, self.shard_keeper
        settings = GuildSettings(storage, guild=self.get_guild)
        self._settings = settings
        tables = TableService(
            storage,
            publisher=DiscordPublisher(self),
            clock=self.clock,
            settings=settings,
            deal_seed=config.deal_seed,
            search_workers_at_start=config.search_workers_at_start,
            search_nice=config.search_nice,
            shard_count=config.shards[0],
            shards=keeper,
            budget=self.budget,
            save_fault=SaveErrors(self.faults) if self.faults is not None else None,
        )
        self._tables = tables
        store = LeagueStore(storage)
        gateway = DiscordLeagueGateway(self, ServiceTables(self, tables, store), settings.server_language)
        leagues = LeagueService(
            store,
            gateway,
            clock=self.clock,
            # with shards, the league nights of the guilds whose shard this process holds (asked at
            # every tick, so a shard lost to another process or taken back is followed within a tick)
            owns=lambda guild_id: keeper is None or keeper.owns_guild(guild_id),
        )
        listen(tables, leagues)
        self._leagues = leagues

    async def _card_emojis(self) -> None:
        """The process that runs shard 0 uploads missing card faces; the others only learn them,
        looking again for a while until the uploads are there (names are unique per application)."""
        uploader = 0 in self.config.shards[1]
        for _look in range(EMOJI_LOOKS):
            report = await CARD_EMOJIS.sync(self, upload=uploader)
            if uploader or not report.waiting or report.error:
                return
            await asyncio.sleep(EMOJI_LOOK_SECONDS)

    async def _take_shards(self) -> None:
        """Hold this process's shards before restoring anything (docs/SHARDING.md): wait for a live
        holder (a rolling restart), fence every table write, and follow losses and takeovers."""
        count, ids = self.config.shards
        keeper = ShardKeeper(
            self.storage, count=count, shard_ids=ids, lease_seconds=self.config.shard_lease_seconds
        )
        await keeper.acquire()
        self.shard_keeper = keeper
        keeper.on_lost.append(self._shards_lost)
        keeper.on_gained.append(self._shards_gained)
        keeper.start()
        self._guard_interactions()

    async def _shards_lost(self, shards: set[int]) -> None:
        if self._tables is not None:
            await self._tables.drop_shards(shards)

    async def _shards_gained(self, shards: set[int]) -> None:
        if self._tables is not None:
            await self._tables.restore(shards)

    def _guard_interactions(self) -> None:
        """Leave the interactions of guilds on shards this process does not hold (now) unanswered:
        the process that holds them answers."""
        state = self._connection
        original = state.parsers["INTERACTION_CREATE"]

        def parse_interaction_create(data: dict[str, Any]) -> None:
            guild = data.get("guild_id")
            keeper = self.shard_keeper
            if guild is not None and keeper is not None and not keeper.owns_guild(int(guild)):
                log.debug("interaction in guild %s: its shard is not this process's now", guild)
                return
            original(data)

        state.parsers["INTERACTION_CREATE"] = parse_interaction_create

    def health_line(self) -> str:
        keeper = self.shard_keeper
        shards = keeper.describe() if keeper is not None else "no shards yet"
        service = self._tables
        numbers = service.health() if service is not None else {"live_tables": 0, "posts_queued": 0}
        saves = self._storage.tables.queued if self._storage is not None else 0
        latency = self.latency * 1000 if self.latency == self.latency else 0.0  # NaN before connecting
        return (
            f"health: {shards}, {numbers['live_tables']} live tables, {numbers['posts_queued']} posts "
            f"queued, {saves} saves queued, {self.budget.waiting} requests waiting for the budget "
            f"({self.budget.per_second:g}/s), gateway latency {latency:.0f} ms"
        )

    async def _health_loop(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(self.config.health_seconds)
            try:
                log.info(self.health_line())
            except Exception:
                log.exception("the health line failed")

    async def public_language(self, interaction: discord.Interaction) -> str:
        """The language of the public messages where ``interaction`` happened (``bot.safe``'s public
        answers): the channel's table's, else the server's."""
        service = self._tables
        if service is None or interaction.guild_id is None:
            return resolve(interaction.guild_locale)
        t = service.in_channel(interaction.channel_id) if interaction.channel_id is not None else None
        if t is not None:
            return str(await service.table_language(t))
        return str(await service.settings.server_language(interaction.guild_id))

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._item_types.update(items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self._item_types.difference_update(items)

    def handles_custom_id(self, custom_id: str) -> bool:
        """Whether a registered component (a persistent DynamicItem) answers this custom_id."""
        return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in self._item_types)

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
            if not on_its_message(interaction):
                # a made-up custom_id sent with another message's id: discord.py drops it
                # unanswered (it looks the component up on the message); it is refused here
                log.debug(
                    "custom_id %r is not on message %s",
                    custom_id[:100],
                    getattr(interaction.message, "id", None),
                )
                await safe_send(interaction, NOT_ON_MESSAGE)
                return
        watch(interaction)

    async def on_ready(self) -> None:
        user = self.user
        log.info("logged in as %s (%s) in %d servers", user, user and user.id, len(self.guilds))

    async def close(self) -> None:
        if self._emoji_task is not None:
            await cancel_all([self._emoji_task])
        CARD_EMOJIS.clear()
        self.collector.close()
        try:
            if self._health is not None:
                self._health.cancel()
            if self._leagues is not None:
                await self._leagues.stop()
            if self._tables is not None:
                await self._tables.close()
            await super().close()
        finally:
            try:
                if self.shard_keeper is not None:
                    await self.shard_keeper.close()  # released: another process may take over now
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
                await self._learn_command_ids(None)
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
            await self._learn_command_ids(synced)
            return True

    @property
    def command_mentions(self) -> CommandMentions:
        return self._commands

    async def _learn_command_ids(self, synced: list[app_commands.AppCommand] | None) -> None:
        """Texts that name a command become clickable mentions (``command_mentions``): the ids
        from this sync, else the ones stored with the last one, else (a database from before they
        were stored) asked of Discord once. Without them texts keep the command in code."""
        key = "command_ids:" + self.command_hash_key().removeprefix("command_hash:")
        ids: dict[str, int] | None = None
        if synced is not None:
            ids = {c.name: c.id for c in synced}
            await self.storage.set_meta(key, json.dumps(ids, sort_keys=True))
        else:
            stored = await self.storage.get_meta(key)
            if stored:
                ids = {str(k): int(v) for k, v in json.loads(stored).items()}
            else:
                try:
                    ids = {c.name: c.id for c in await self.tree.fetch_commands(guild=self.command_scope)}
                except discord.HTTPException:
                    log.warning("command ids unknown: commands stay plain text in answers")
                    return
                await self.storage.set_meta(key, json.dumps(ids, sort_keys=True))
        self._commands.learn(ids, await self.command_payload())


class ShardedSpadesBot(SpadesBot, commands.AutoShardedBot):
    """The application as ``python -m bot`` runs it: the shards ``SHARD_IDS`` of ``SHARD_COUNT``
    (docs/SHARDING.md), or without them every shard Discord recommends, in this one process."""

    def __init__(self, config: Config, **kwargs: Any) -> None:
        if config.sharded:
            count, ids = config.shards
            kwargs.setdefault("shard_count", count)
            kwargs.setdefault("shard_ids", list(ids))
        super().__init__(config, **kwargs)


def make_bot(config: Config, **kwargs: Any) -> SpadesBot:
    """The bot ``python -m bot`` runs (tests may also build a plain ``SpadesBot``: one connection)."""
    return ShardedSpadesBot(config, **kwargs)
