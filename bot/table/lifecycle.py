"""A table's life: open it (by command, as a rematch, or seated by another feature), start it,
abandon it, and put its live message back at the bottom of the channel.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
from typing import Any

from bot import lexicon
from bot.guild_settings import GuildSettings
from bot.i18n import LANGUAGES, N_, ButtonName, _, _n, mention
from bot.model import (
    CLOSED,
    DEFAULT_BID_SECONDS,
    DEFAULT_PLAY_SECONDS,
    HOST_LANGUAGE,
    LIVE,
    MOVING,
    NO_TABLE,
    SAVE_FAILED,
    Offer,
    Result,
    Seat,
    Table,
    damaged,
    ok,
    refuse,
    unix_now,
)
from bot.storage import ChannelBusy, NotOwner, TableDamaged
from bot.table.options import table_options
from bot.table.publisher import TablePublisher
from bot.table.seating import bot_seat, seat_list
from bot.table.store import TableStore
from engine import Game, Ruleset

log = logging.getLogger(__name__)


def overrides(t: Table) -> dict[str, Any]:
    d = t.ruleset.to_dict()
    if isinstance(d, dict):
        return {k: v for k, v in d.items() if k != "preset"}
    return {}


class Lifecycle:
    """Opening, starting, abandoning and rematching tables."""

    def __init__(
        self,
        store: TableStore,
        publisher: TablePublisher,
        *,
        settings: GuildSettings,
        seed: int | None = None,
    ) -> None:
        self.store = store
        self.settings = settings  # the servers' defaults for a new table
        self.publisher = publisher
        self.deal_seed = seed

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str | None = None,
        target: int | None = None,
        play_seconds: int | None = None,
        bid_seconds: int | None = None,
        options: dict[str, Any] | None = None,
        rules: str | None = None,
        seats: list[Seat | None] | None = None,
        rematch_of: int | None = None,
        bot_level: str | None = None,
        host_language: str | None = None,
    ) -> Result:
        """Open a table in a channel with the host seated (or ``seats`` for a rematch).
        ``rules`` is the house-rules text (``bag_limit=5 ten_for_200=on``) over the preset;
        ``host_language`` the host's client language, kept with the table (``HOST_LANGUAGE``)."""
        chosen = table_options(
            await self._guild_settings(guild_id),
            preset=preset,
            target=target,
            play_seconds=play_seconds,
            bid_seconds=bid_seconds,
            options=options,
            rules=rules,
            bot_level=bot_level,
        )
        if isinstance(chosen, Result):
            return chosen
        name, ruleset, timers = chosen.preset, chosen.ruleset, dict(chosen.settings)
        n = ruleset.num_seats
        if seats is None:
            seat_list: list[Seat | None] = [None] * n
            seat_list[0] = Seat(host_id, host_name)
        else:
            # players who left the last game don't get their seat back in the rematch
            seat_list = [copy.copy(s) if s is not None and not s.left else None for s in seats][:n]
            for s in seat_list:
                if s is not None:
                    s.away, s.timeouts, s.acts, s.auto_acts = False, 0, 0, 0
            if all(s is None or s.bot for s in seat_list):
                return refuse(
                    "rematch_nobody_left",
                    _("Nobody from that game is still seated: open a new table with `/spades new`."),
                )
            if host_id not in [s.user_id for s in seat_list if s is not None and not s.bot]:
                return refuse(
                    "rematch_left",
                    _("You left that game, so you can't open its rematch: `/spades new` opens a table."),
                )
        if rematch_of is not None:
            timers["rematch_of"] = rematch_of
        if host_language in LANGUAGES:
            timers[HOST_LANGUAGE] = host_language
        table = await self._open(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            ruleset=ruleset,
            preset=name,
            seats=seat_list,
            settings=timers,
        )
        if isinstance(table, Result):
            return table
        if seats is not None and not table.empty_seats():
            # a rematch with every seat taken starts at once
            async with self.store.lock(table.id):
                result = await self.start_locked(table.id, host_id, fill=False)
            if result.ok:
                return ok(
                    _("Rematch started at table %(table)s.", table=table.id),
                    table=self.store.tables[table.id],
                )
        self.publisher.render_soon(table.id, repost=True)
        # (said to the host, who is seated already: the others join, the host starts)
        host_seat = table.seat_of(host_id)
        return ok(
            _(
                "Table %(table)s is open: %(rules)s. You have seat %(seat)s; the others press "
                "**%(join)s**, then you press **%(start)s** (empty seats can go to bots).",
                table=table.id,
                seat=(host_seat or 0) + 1,
                join=ButtonName(N_("Join")),
                start=ButtonName(N_("Start")),
                rules=lexicon.describe(ruleset),
            ),
            table=table,
        )

    async def _open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        ruleset: Ruleset,
        preset: str,
        seats: list[Seat | None],
        settings: dict[str, Any],
    ) -> Table | Result:
        """Save a new open table (one live table per channel) and keep it in memory."""
        table = Table(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="open",
            ruleset=ruleset,
            preset=preset,
            seats=seats,
            settings=settings,
        )
        try:
            row = await self.store.storage.tables.create(
                table.guild_id, table.channel_id, table.host_id, table.to_data()
            )
        except ChannelBusy:
            existing = self.store.in_channel(table.channel_id)
            if existing:
                return refuse(
                    "channel_busy",
                    _(
                        "This channel already has a live table (table %(table)s). Join it, or finish or "
                        "abandon it first (`/spades abandon`).",
                        table=existing.id,
                    ),
                )
            return refuse(
                "channel_busy",
                _(
                    "This channel already has a live table. Join it, or finish or abandon it first "
                    "(`/spades abandon`)."
                ),
            )
        except TableDamaged as exc:
            return refuse("damaged", damaged(exc.table_id))
        except NotOwner:
            return refuse("moving", MOVING)
        except Exception:
            # disk full, an unwritable WAL, a lost database: answered like a refused bid
            log.exception("saving a new table in channel %s failed", table.channel_id)
            return refuse("save_failed", SAVE_FAILED)
        table.id, table.row = row.id, row
        self.store.index(table)
        log.info("table %s opened in channel %s (%s)", table.id, table.channel_id, table.ruleset.name)
        return table

    async def open_seated(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: list[Seat | None],
        ruleset: Ruleset,
        preset: str | None = None,
        settings: dict[str, Any] | None = None,
        start: bool = True,
    ) -> Result:
        """Open a table another feature has already seated (a league night seats its players):
        ``seats`` as given (``None`` seats get bots when it starts), this ``ruleset``, in a channel
        or thread. With ``start`` the game is dealt at once. No guild defaults apply."""
        if len(seats) != ruleset.num_seats:
            return refuse(
                "seats_mismatch",
                _n(
                    "This ruleset seats %(n)s player, not %(given)s.",
                    "This ruleset seats %(n)s players, not %(given)s.",
                    ruleset.num_seats,
                    given=len(seats),
                ),
            )
        timers = {"play_seconds": DEFAULT_PLAY_SECONDS, "bid_seconds": DEFAULT_BID_SECONDS}
        timers.update(settings or {})
        table = await self._open(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            ruleset=ruleset,
            preset=preset or ruleset.name,
            seats=[copy.copy(s) for s in seats],
            settings=timers,
        )
        if isinstance(table, Result):
            return table
        if start:
            async with self.store.lock(table.id):
                result = await self.start_locked(table.id, host_id, fill=True)
            if not result.ok:
                return result
            return ok(_("Table %(table)s started.", table=table.id), table=self.store.tables[table.id])
        self.publisher.render_soon(table.id, repost=True)
        return ok(_("Table %(table)s is open.", table=table.id), table=table)

    async def _guild_settings(self, guild_id: int) -> dict[str, Any]:
        try:
            return await self.settings.get(guild_id)
        except Exception:
            log.exception("reading settings of guild %s failed", guild_id)
            return {}

    async def start(
        self, table_id: int | None, user_id: int, *, channel_id: int | None = None, fill: bool = False
    ) -> Result:
        found = await self.store.find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            return await self.start_locked(found.id, user_id, fill=fill)

    async def start_locked(self, table_id: int, user_id: int, *, fill: bool) -> Result:
        t = self.store.get(table_id)
        if t is None:
            return refuse("closed", CLOSED)
        if t.status != "open":
            return refuse("already_started", _("This game has already started."))
        if user_id != t.host_id:
            return refuse(
                "host_only", _("Only the host (%(host)s) can start the game.", host=mention(t.host_id))
            )
        empty = t.empty_seats()
        if empty and not fill:
            return refuse(
                "seats_empty",
                _n(
                    "%(n)s seat is empty (%(seats)s). Wait for players, or fill the empty seats with bots "
                    "and start.",
                    "%(n)s seats are empty (%(seats)s). Wait for players, or fill the empty seats with bots "
                    "and start.",
                    len(empty),
                    seats=seat_list(empty),
                ),
                offer=Offer("fill", t.id),
            )
        new = t.copy()
        for s in empty:
            new.seats[s] = bot_seat(new, s)
        try:
            dup = new.settings.get("duplicate")
            if isinstance(dup, dict) and isinstance(dup.get("seed"), str):
                # a league's duplicate round (engine.duplicate): every table of the round is dealt
                # the round's deals, the same dealer first
                new.game = Game.new(
                    new.ruleset, seed=dup["seed"], salt=str(dup.get("salt", "")), dealer=0, fair=True
                )
            else:
                new.game = Game.new(new.ruleset, seed=self.deal_seed, fair=True)
        except Exception:
            log.exception("dealing at table %s failed", table_id)
            return refuse("deal_failed", _("Sorry, the cards could not be dealt. Please try again."))
        new.status = "playing"
        new.started_at = unix_now()
        refusal = await self.store.commit(t, new)
        if refusal:
            return refusal
        return ok(
            _("The game is on! Press **%(button)s** to see your cards.", button=ButtonName(N_("My hand"))),
            show_hand=True,
            table=new,
        )

    async def abandon(
        self,
        channel_id: int,
        user_id: int,
        *,
        is_admin: bool = False,
        confirmed: bool = False,
        table_id: int | None = None,
    ) -> Result:
        found = await self.store.find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        t = found
        if t.status not in LIVE:
            return refuse("no_table", NO_TABLE)
        if user_id != t.host_id and not is_admin:
            return refuse(
                "host_or_admin_only",
                _(
                    "Only the host (%(host)s) or someone with Manage Server can abandon this table.",
                    host=mention(t.host_id),
                ),
            )
        if not confirmed:
            return ok(
                _("Abandon table %(table)s? The game so far is not counted.", table=t.id),
                offer=Offer("abandon", t.id),
            )
        async with self.store.lock(t.id):
            t = self.store.get(t.id) or t
            if t.status not in LIVE:
                return refuse("already_closed", _("This table is already closed."))
            new = t.copy()
            new.status = "abandoned"
            new.deadline = None
            refusal = await self.store.commit(t, new)
            if refusal:
                return refusal
        post = _("🛑 Table %(table)s was abandoned by %(who)s.", table=t.id, who=mention(user_id))
        self.publisher.post(t.id, t.channel_id, post)
        return ok(_("Table %(table)s is abandoned.", table=t.id))

    async def close_unreachable(self, table_id: int) -> Table | None:
        """Close a live table whose channel the bot can no longer post in (not counted); the
        closed table, or None if it was not live."""
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is None or t.status not in LIVE:
                return None
            new = t.copy()
            new.status = "abandoned"
            new.deadline = None
            if await self.store.commit(t, new):
                return None
        log.warning("table %s closed: the bot can no longer post in channel %s", table_id, t.channel_id)
        return new

    async def rematch(self, table_id: int, user_id: int, name: str, language: str | None = None) -> Result:
        """Open the rematch of a finished game (in memory or, once evicted, read from storage);
        ``language``: the client language of the player who asks (the rematch's host)."""
        try:
            async with self.store.lock(table_id):
                return await self._rematch_locked(table_id, user_id, name, language)
        finally:
            self.store.drop_lock_if_unused(table_id)  # an evicted table's lock is not kept either

    async def _rematch_locked(self, table_id: int, user_id: int, name: str, language: str | None) -> Result:
        t = await self.store.load(table_id)
        if t is None:
            return refuse("no_such_table", _("That table no longer exists."))
        if t.status != "finished":
            return refuse("not_over", _("That game isn't over yet."))
        if t.seat_of(user_id) is None:
            return refuse(
                "rematch_not_player",
                _(
                    "Only the players of that game can ask for a rematch. Open a new table with "
                    "`/spades new`."
                ),
            )
        if t.rematch_id is not None:
            return refuse(
                "rematch_open", _("The rematch is already open (table %(table)s).", table=t.rematch_id)
            )
        seats = [copy.copy(s) for s in t.seats]
        result = await self.create(
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            host_id=user_id,
            host_name=name,
            preset=t.preset,
            options=overrides(t),
            play_seconds=t.settings.get("play_seconds"),
            bid_seconds=t.settings.get("bid_seconds"),
            seats=seats,
            rematch_of=t.id,
            bot_level=t.settings.get("bot_level"),
            host_language=language or t.settings.get(HOST_LANGUAGE),
        )
        if not result.ok or result.table is None:
            return result
        new = t.copy()
        new.rematch_id = result.table.id
        assert t.row is not None
        try:
            new.row = await self.store.storage.tables.save(dataclasses.replace(t.row, data=new.to_data()))
        except Exception:
            # the rematch is open either way; a second click then meets the channel's live table
            log.warning("table %s: the rematch id could not be saved", table_id)
        else:
            if table_id in self.store.tables:
                self.store.tables[table_id] = new
        return result

    async def repost(self, channel_id: int) -> Result:
        t = self.store.in_channel(channel_id)
        if t is None:
            return refuse("no_table", NO_TABLE)
        self.publisher.render_soon(t.id, repost=True)
        return ok(_("Here's the table, at the bottom of the channel."))
