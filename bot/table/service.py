"""The table service: wires the store, the publisher, the turn clock and the commands together,
and owns what spans them: restoring live tables at start-up, evicting closed ones, shutting down.

Callers reach the commands through it: ``service.lifecycle`` (create, start, abandon, rematch,
open_seated, repost), ``service.seating`` (join, leave, add_bot, back) and ``service.play`` (act,
legal bids and cards). Other features subscribe to finished hands and games with
``on_hand_finished`` / ``on_game_finished``; the table code imports none of them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from bot.clock import Clock
from bot.guild_settings import GuildSettings
from bot.i18n import DEFAULT, LANGUAGES, _, channel_mention, render
from bot.model import HOST_LANGUAGE, LIVE, Result, Table, damaged_post, ok, set_aside_post
from bot.permissions import permission_list
from bot.ratelimit import GlobalBudget
from bot.render.settings import player_settings
from bot.safe import PrivateMessage
from bot.storage import Storage, shard_of
from bot.table.clock import TurnClock
from bot.table.lifecycle import Lifecycle
from bot.table.play import Play
from bot.table.players import Players
from bot.table.publisher import DiscordPublisher, Publisher, TablePublisher
from bot.table.seating import Seating
from bot.table.store import GameListener, HandListener, SaveFault, TableStore
from bot.table.thinker import SEARCH_NICE, Thinker
from bot.tasks import cancel_all

log = logging.getLogger(__name__)

# Seconds a finished or abandoned table stays in memory once its last posts are out (late clicks and
# panel refreshes right after the game); after that every path reads it from storage.
EVICT_GRACE = 5.0


class ShardView(Protocol):
    """What the service asks of the process's shard leases (``bot.sharding.ShardKeeper``)."""

    @property
    def held(self) -> frozenset[int] | set[int]: ...

    def owns_guild(self, guild_id: int) -> bool: ...

    async def confirmed(self) -> bool: ...


class TableService:
    """Every live table of this bot process, and the commands on them.

    Built by the composition root (``SpadesBot.setup_hook``) with everything it needs: the storage,
    the publisher (Discord's, or a test's), the one clock, the servers' settings, the deal seed, the
    shards this process runs (``shards``: None runs all ``shard_count``) and, with the Discord
    publisher, the bot's one REST budget."""

    def __init__(
        self,
        storage: Storage,
        *,
        publisher: Publisher,
        clock: Clock,
        settings: GuildSettings,
        deal_seed: int | None = None,
        search_workers_at_start: bool = False,
        shard_count: int = 1,
        shards: ShardView | None = None,
        budget: GlobalBudget | None = None,
        save_fault: SaveFault | None = None,
        evict_grace: float = EVICT_GRACE,
        search_nice: int = SEARCH_NICE,
    ) -> None:
        self.storage = storage
        self.time = clock
        self.settings = settings
        self.deal_seed = deal_seed
        # the strong bots' worker processes start at the first restore (the bot's start), before
        # any restored table's bot thinks
        self.search_workers_at_start = search_workers_at_start
        self.shard_count = shard_count
        self._shards = shards
        self.publisher: Publisher = publisher
        self.store = TableStore(self.storage, clock=clock, save_fault=save_fault)
        # the bot's one REST budget (bot/ratelimit.py), when it has one: channel posts and edits queue there
        self.posts = TablePublisher(self.store, publisher, clock=clock, budget=budget)
        self.posts.language = self.language_of
        # nothing is sent for a table whose shard this process may have lost (docs/SHARDING.md)
        self.posts.fence = self.posts.panels.fence = self._may_send
        self.players = Players(self.storage)
        self.store.prepare.append(self.players.auto_look)
        self.clock = TurnClock(
            self.store,
            self.posts,
            clock=clock,
            seed=self.deal_seed,
            thinker=Thinker(nice=search_nice),
            players=self.players,
        )
        self.lifecycle = Lifecycle(self.store, self.posts, settings=settings, seed=self.deal_seed)
        self.seating = Seating(self.store, self.posts)
        self.play = Play(self.store)
        if isinstance(publisher, DiscordPublisher):
            publisher.on_forbidden = self._cannot_post
        self._background: set[asyncio.Task[None]] = set()
        # after every saved change, in this order: the publisher (posts, the live message, panels),
        # then the clock and the players' settings (each listener on its own: one failing stops
        # none of the others)
        self.store.changed.append(self.posts.after)
        self.store.changed.append(self._changed)
        self.store.reloaded.append(self._reloaded)
        self.store.closed.append(self._evict_soon)
        self.store.not_owner.append(self._let_go)
        self._announced: set[int] = set()  # set-aside tables whose channel was told
        self._refused: set[int] = set()  # shards whose saves were refused (another process runs them)
        self._evictions: dict[int, asyncio.Task[None]] = {}
        self.evict_grace = evict_grace
        self._closed = False

    # ---- lookup (the store's) ---------------------------------------------------------------
    @property
    def tables(self) -> dict[int, Table]:
        return self.store.tables

    @property
    def by_channel(self) -> dict[int, int]:
        return self.store.by_channel

    def get(self, table_id: int) -> Table | None:
        return self.store.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        return self.store.in_channel(channel_id)

    async def load(self, table_id: int) -> Table | None:
        return await self.store.load(table_id)

    async def last_in_channel(self, channel_id: int) -> Table | None:
        return await self.store.last_in_channel(channel_id)

    def remember_panel(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        """Keep a user's latest hand panel (an ephemeral message) to refresh it in place when their
        turn comes."""
        self.posts.remember_panel(table_id, user_id, panel)

    # ---- the language of public messages (the servers' settings') ------------------------------
    async def server_language(self, guild_id: int, opener: str | None = None) -> str:
        return await self.settings.server_language(guild_id, opener)

    async def table_language(self, t: Table) -> str:
        """The language of a table's public messages (its opener's where the server has none)."""
        return await self.settings.server_language(t.guild_id, opener=t.settings.get(HOST_LANGUAGE))

    async def language_of(self, table_id: int) -> str:
        t = self.store.get(table_id)
        return DEFAULT if t is None else await self.table_language(t)

    def language_changed(self, guild_id: int, language: str | None) -> None:
        """A server chose another language (None: its own again): its live tables are redrawn."""
        self.settings.language_changed(guild_id, language)
        for t in list(self.store.tables.values()):
            if t.guild_id == guild_id and t.status in LIVE:
                self.posts.render_soon(t.id)

    # ---- observer hooks ----------------------------------------------------------------------
    def on_hand_finished(self, listener: HandListener) -> None:
        """Call ``listener(table, hand)`` after each scored hand is saved (sync; schedule your own
        tasks). A failing listener is logged and changes nothing at the table."""
        self.store.hand_finished.append(listener)

    def on_game_finished(self, listener: GameListener) -> None:
        """Call ``listener(table, finished_game)`` after a game's end is saved."""
        self.store.game_finished.append(listener)

    # ---- wiring -----------------------------------------------------------------------------
    def _changed(self, old: Table, new: Table, events: list[Any], actor: int | None) -> None:
        """Restart the table's turn clock; read the settings of players not seen before."""
        self.clock.schedule(new)
        if new.status in LIVE and self.players.unknown(new.humans()):
            self._in_background(self._read_players(new.id, new.humans()), f"players-{new.id}")

    # ---- players' own settings (/spades me) ---------------------------------------------------
    async def _read_players(self, table_id: int, user_ids: list[int]) -> None:
        try:
            await self.players.load(user_ids)
        except Exception:
            log.exception("reading player settings for table %s failed", table_id)
            return
        await self.apply_players(table_id)

    async def apply_players(self, table_id: int) -> None:
        """Apply what players' settings change at a table now (cards shown to a player who never
        bids blind nil), saved like any change."""
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is None or t.status != "playing" or not self.players.auto_look(t, t.copy()):
                return
            await self.store.commit(t, t.copy())  # (the store's prepare step turns the cards)

    async def set_player(
        self, user_id: int, *, no_blind_nil: bool | None = None, turn_ping: bool | None = None
    ) -> Result:
        """``/spades me``: change (or, with no change, show) the user's own settings."""
        if no_blind_nil is None and turn_ping is None:
            await self.players.load([user_id])
            now = self.players.get(user_id)
        else:
            now = await self.players.set(user_id, no_blind_nil=no_blind_nil, turn_ping=turn_ping)
            for t in list(self.tables.values()):
                if t.seat_of(user_id) is not None and t.status == "playing":
                    await self.apply_players(t.id)

        return ok(player_settings(now.no_blind_nil, now.turn_ping))

    def _in_background(self, work: Any, name: str) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _reloaded(self, table: Table) -> None:
        if not self.runs_guild(table.guild_id):  # (reloaded after its shard was lost: not ours)
            self._forget(table.id)
            return
        self.clock.schedule(table)
        self.posts.render_soon(table.id)

    # ---- a channel the bot can no longer post in -------------------------------------------
    def _cannot_post(self, channel_id: int) -> None:
        """Discord refused a post for a missing permission: the channel's table stops rather than
        run blind (bots playing on, players timing out on a table nobody sees)."""
        t = self.in_channel(channel_id)
        if t is None or self._closed:
            return
        self._in_background(self._close_unreachable(t.id), f"unreachable-{t.id}")

    async def _close_unreachable(self, table_id: int) -> None:
        t = await self.lifecycle.close_unreachable(table_id)
        if t is None:
            return
        note = _(
            "♠ I can no longer post in %(channel)s (a permission was taken away), so I closed Spades table "
            "%(table)s there; it does not count. Someone who can manage that channel can give my role "
            "%(perms)s there; then `/spades new` opens a new table.",
            channel=channel_mention(t.channel_id),
            table=t.id,
            # named as the permission table names them in each language
            perms=permission_list(("view_channel", "send_messages", "embed_links", "read_message_history")),
        )
        if isinstance(self.publisher, DiscordPublisher):
            # the host's own language (the one they opened the table in), else the table's
            host = t.settings.get(HOST_LANGUAGE)
            lang = host if host in LANGUAGES else await self.table_language(t)
            await self.publisher.dm(t.host_id, render(note, lang))

    # ---- eviction: closed tables leave memory ---------------------------------------------
    def _evict_soon(self, table_id: int) -> None:
        if self._closed:
            return
        task = self._evictions.get(table_id)
        if task is None or task.done():
            self._evictions[table_id] = asyncio.create_task(
                self._evict_when_quiet(table_id), name=f"evict-{table_id}"
            )

    async def _evict_when_quiet(self, table_id: int) -> None:
        """After the grace period, once the table's posts and live-message edits are out, drop
        everything kept for it (a rematch or a reload may have made it live again)."""
        await self.time.sleep(self.evict_grace)
        while True:
            await self.posts.wait_sent(table_id)
            if not self.store.lock(table_id).locked() and self.posts.idle(table_id):
                break
            await asyncio.sleep(0.05)
        t = self.store.get(table_id)
        if t is None or t.status in LIVE:
            return
        self.store.drop(table_id)
        self.posts.drop(table_id)
        self.clock.drop(table_id)
        self._evictions.pop(table_id, None)

    def holds(self, table_id: int) -> bool:
        """Whether anything at all is still kept in memory for the table."""
        return (
            table_id in self.store.tables
            or self.store.has_lock(table_id)
            or self.posts.holds(table_id)
            or self.clock.holds(table_id)
            or table_id in self._evictions
        )

    # ---- start-up / shutdown -------------------------------------------------------------
    def held_shards(self) -> set[int]:
        """The shards whose tables this process runs (every guild when unsharded)."""
        keeper = self._shards
        if keeper is None:
            return set(range(self.shard_count))
        return set(keeper.held)

    def runs_guild(self, guild_id: int | None) -> bool:
        return guild_id is None or shard_of(guild_id, self.shard_count) in self.held_shards()

    async def restore(self, shards: set[int] | None = None) -> int:
        """Load the live tables of this process's shards (or of ``shards``: a takeover) from
        storage and restart their timers and bot turns. A row that cannot be loaded is set aside
        (marked, logged once, its channel freed) and its channel is told; the others restore."""
        if self.search_workers_at_start:
            # in the background, off the event loop: neither readiness nor this restore waits
            self.clock.thinker.start()
        wanted = self.held_shards() if shards is None else shards
        self._refused -= wanted
        rows = await self.storage.tables.live(shards=(self.shard_count, wanted))
        restored: list[int] = []
        humans = [
            s["user_id"]
            for row in rows
            for s in (row.data.get("seats") or [])
            if isinstance(s, dict) and not s.get("bot") and isinstance(s.get("user_id"), int)
        ]
        try:
            await self.players.load(humans)
        except Exception:
            log.exception("reading player settings failed; the tables use the defaults")
        for row in rows:
            if row.id in self.store.tables:
                # kept through a stall nobody used to take the shard: what the fence held back then
                # (docs/SHARDING.md) is drawn now, from the table as it is
                self.posts.render_soon(row.id)
                continue
            table = await self.store.from_row(row)
            if table is None:
                continue
            self.store.index(table)
            self.clock.schedule(table)
            self.posts.render_soon(table.id)
            restored.append(table.id)
        self._announce_set_aside()
        where = "" if self.shard_count == 1 else f" on shard(s) {','.join(map(str, sorted(wanted)))}"
        ids = f": table {', '.join(map(str, restored))}" if restored and len(restored) <= 20 else ""
        log.info("restored %d live table(s)%s%s", len(restored), where, ids)
        return len(restored)

    def _announce_set_aside(self) -> None:
        """Tell each channel whose table was set aside (once) that it is free again."""
        for entry in self.storage.tables.aside:
            if entry.table_id in self._announced or entry.channel_id is None:
                continue
            if entry.guild_id is not None and not self.runs_guild(entry.guild_id):
                continue
            self._announced.add(entry.table_id)
            # marked: the channel is free; not (a damaged page): it stays blocked until repaired
            text = (set_aside_post if entry.marked else damaged_post)(entry.table_id)
            self.posts.post(entry.table_id, entry.channel_id, text)

    async def drop_shards(self, shards: set[int]) -> int:
        """Forget the tables of shards another process runs now (their state is in storage)."""
        gone = [t.id for t in self.store.tables.values() if shard_of(t.guild_id, self.shard_count) in shards]
        for table_id in gone:
            self._forget(table_id)
        return len(gone)

    async def _may_send(self, table_id: int) -> bool:
        """Whether a post, an edit or a panel may go out for the table now: its shard is still this
        process's. After a stall past the lease a renewal says so first (the shards lost meanwhile
        are dropped, their tables with them), so a process that another one replaced never shows
        a state older than the stored one."""
        keeper = self._shards
        if keeper is None:
            return True
        if not await keeper.confirmed():
            return False
        t = self.store.get(table_id)
        if t is None:
            return True
        shard = shard_of(t.guild_id, self.shard_count)
        return shard not in self._refused and keeper.owns_guild(t.guild_id)

    def _let_go(self, table_id: int) -> None:
        """A save was refused because another process holds the table's shard: every table of that
        shard is forgotten at once, and nothing is sent for it until this process restores it
        (the next renewal reports the loss; a takeover restores it)."""
        t = self.store.get(table_id)
        if t is None:
            self._forget(table_id)
            return
        shard = shard_of(t.guild_id, self.shard_count)
        self._refused.add(shard)
        count = self.shard_count
        for other in [x.id for x in self.store.tables.values() if shard_of(x.guild_id, count) == shard]:
            self._forget(other)

    def _forget(self, table_id: int) -> None:
        t = self.store.get(table_id)
        if t is not None and self.by_channel.get(t.channel_id) == table_id:
            del self.by_channel[t.channel_id]
        self.clock.stop(table_id)
        self.posts.stop(table_id)
        self.store.drop(table_id)
        task = self._evictions.pop(table_id, None)
        if task is not None:
            task.cancel()

    def health(self) -> dict[str, int]:
        """Numbers for the health line: live tables, queued channel posts."""
        live = sum(1 for t in self.store.tables.values() if t.status in LIVE)
        return {"live_tables": live, "posts_queued": self.posts.queued()}

    async def close(self, *, drain: float = 2.0) -> None:
        """Stop timers and bot turns, give queued channel posts (a hand's result, say) ``drain``
        seconds to go out, then stop everything. The tables themselves are already saved."""
        self._closed = True
        await self.clock.close()
        await self.posts.close(drain=drain)
        await cancel_all([*self._evictions.values(), *self._background])
