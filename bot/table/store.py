"""Live tables in memory and the one path for every change (``TableStore.commit``).

A change is applied to a *copy* of the table, persisted with one ``storage.tables.save`` call (one
transaction, version-checked), and only then swapped in. Whatever follows (posts, the live message,
timers, leagues) subscribes to the store's events; the store imports none of it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from bot.clock import Clock
from bot.hand_stats import scored_rows
from bot.i18n import _
from bot.model import (
    CLOSED,
    GAME_OVER,
    LIVE,
    MOVING,
    NO_TABLE,
    SAVE_FAILED,
    Result,
    Table,
    finished_game,
    next_deadline,
    players,
    refuse,
)
from bot.storage import FinishedGame, HandResult, NotOwner, StaleTable, Storage, TableRow
from engine import GameOver, HandScored

log = logging.getLogger(__name__)

#: (old, new, engine events, the user who acted or None): after every saved change
ChangeListener = Callable[[Table, Table, list[Any], "int | None"], None]
HandListener = Callable[[Table, HandResult], None]
GameListener = Callable[[Table, FinishedGame], None]


class SaveFault(Protocol):
    """A fault seam around the one write path (drills and tests: ``bot.faults.SaveErrors``)."""

    def before_save(self) -> None:
        """Called before a save is attempted: what it raises reaches the caller (as a bug would)."""

    def during_save(self) -> None:
        """Called as the save starts: what it raises is a failed save (the action is refused)."""


class TableStore:
    """Every live table of this process, its lock, and its saved changes."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock,
        save_fault: SaveFault | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock  # the turn deadlines' time
        self.save_fault = save_fault  # None: no fault seam (production)
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        # called with (old, new) before every save: may change the working copy ``new`` (a player's
        # settings applied to a new deal); returns the seats it changed
        self.prepare: list[Callable[[Table, Table], list[int]]] = []
        self.changed: list[ChangeListener] = []
        self.reloaded: list[Callable[[Table], None]] = []  # a stale table re-read from storage
        self.closed: list[Callable[[int], None]] = []  # a table is no longer live
        self.hand_finished: list[HandListener] = []
        self.game_finished: list[GameListener] = []
        self.not_owner: list[Callable[[int], None]] = []  # another process runs the table's shard now

    # ---- lookup --------------------------------------------------------------------------
    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        tid = self.by_channel.get(channel_id)
        return self.tables.get(tid) if tid is not None else None

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def has_lock(self, table_id: int) -> bool:
        return table_id in self._locks

    def index(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.status in LIVE:
            self.by_channel[table.channel_id] = table.id
        else:
            if self.by_channel.get(table.channel_id) == table.id:
                del self.by_channel[table.channel_id]
            for listener in self.closed:
                listener(table.id)

    def drop(self, table_id: int) -> None:
        """Forget a table (and its lock); storage keeps it."""
        self.tables.pop(table_id, None)
        self._locks.pop(table_id, None)

    def drop_lock_if_unused(self, table_id: int) -> None:
        if table_id not in self.tables and not self.lock(table_id).locked():
            self._locks.pop(table_id, None)

    async def load(self, table_id: int) -> Table | None:
        """The table from memory, or (a closed table that was evicted) read from storage; the
        loaded copy is not kept."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        row = await self.storage.tables.get(table_id)
        return await self.from_row(row) if row is not None else None

    async def from_row(self, row: TableRow) -> Table | None:
        """The table of a stored row; a row the table code cannot load is set aside (marked,
        logged once, its channel freed) and reads as None: it never counts as live."""
        try:
            return Table.from_row(row)
        except Exception as exc:
            log.warning("table %s cannot be loaded (%s)", row.id, type(exc).__name__, exc_info=True)
            await self.storage.tables.set_aside(
                row.id,
                f"the table service cannot load it ({type(exc).__name__})",
                guild_id=row.guild_id,
                channel_id=row.channel_id,
            )
            return None

    async def last_in_channel(self, channel_id: int) -> Table | None:
        """The channel's live table, else its most recent table (finished or abandoned)."""
        t = self.in_channel(channel_id)
        if t is not None:
            return t
        row = await self.storage.tables.latest_in(channel_id)
        return await self.from_row(row) if row is not None else None

    async def find(self, table_id: int | None, channel_id: int | None) -> Table | Result:
        """The table an action names (by id, else the channel's live one), or the refusal to give."""
        if table_id is None:
            t = self.in_channel(channel_id) if channel_id is not None else None
            return t if t is not None else refuse("no_table", NO_TABLE)
        t = self.tables.get(table_id)
        if t is not None:
            return t
        # not in memory: a closed table (evicted) or none at all
        row = await self.storage.tables.get(table_id)
        if row is None:
            return refuse("no_table", NO_TABLE)
        if row.status == "finished":
            return refuse("game_over", GAME_OVER)
        return refuse("closed", CLOSED)

    # ---- the one path for every change ----------------------------------------------------
    async def commit(
        self,
        old: Table,
        new: Table,
        *,
        events: Iterable[Any] = (),
        touched: Iterable[int] = (),
        actor: int | None = None,
    ) -> Result | None:
        """Persist ``new`` (a copy of ``old``), then swap it in. Caller holds the table's lock.

        Returns a refusal if storage refused; None on success.
        """
        events = list(events)
        touched = list(touched)
        for prepare in self.prepare:
            touched += [s for s in prepare(old, new) if s not in touched]
        new.stamp = old.stamp + 1
        for s in touched:
            seat = new.seats[s]
            if seat is not None:
                seat.acts += 1
        hand: HandResult | None = None
        game_done: FinishedGame | None = None
        scored = next((e for e in events if isinstance(e, HandScored)), None)
        over = any(isinstance(e, GameOver) for e in events)
        if new.game is not None and scored is not None and new.game.hand_records:
            record = new.game.hand_records[-1]
            hand = HandResult(
                table_id=new.id,
                game_no=new.game_no,
                hand_no=len(new.game.hand_records),
                record=record,
                rows=scored_rows(scored, players(new, with_side=False)),
                result=record.get("result"),
            )
        if new.game is not None and over:
            new.status = "finished"
            new.deadline = None
            game_done = finished_game(new)
        elif new.status == "playing":
            new.deadline = next_deadline(old, new, touched, self.clock.now())
        assert old.row is not None
        row = dataclasses.replace(old.row, status=new.status, data=new.to_data(), host_id=new.host_id)
        if self.save_fault is not None:
            self.save_fault.before_save()
        try:
            if self.save_fault is not None:
                self.save_fault.during_save()
            new.row = await self.storage.tables.save(row, hand=hand, game=game_done)
        except StaleTable:
            log.warning("table %s changed under us; reloading", old.id)
            fresh = await self.storage.tables.get(old.id)
            reloaded = await self.from_row(fresh) if fresh is not None else None
            if reloaded is not None:
                self.index(reloaded)
                self._tell(self.reloaded, reloaded)
            return refuse("changed_meanwhile", _("The table changed while you clicked; please try again."))
        except NotOwner as exc:
            # this process lost the table's shard (it stalled past its lease): the new owner runs it
            log.warning("table %s: %s; letting it go", old.id, exc)
            self._tell(self.not_owner, old.id)
            return refuse("moving", MOVING)
        except Exception:
            log.exception("saving table %s failed", old.id)
            return refuse("save_failed", SAVE_FAILED)
        self.index(new)
        if new.status != old.status:
            log.info("table %s is %s", new.id, new.status)
        self._tell(self.changed, old, new, events, actor)
        if hand is not None:
            self._tell(self.hand_finished, new, hand)
        if game_done is not None:
            self._tell(self.game_finished, new, game_done)
        return None

    @staticmethod
    def _tell(listeners: Iterable[Callable[..., None]], *args: Any) -> None:
        """Call every subscriber; one that fails is logged and never undoes the saved change."""
        for listener in list(listeners):
            try:
                listener(*args)
            except Exception:
                log.exception("a table listener (%r) failed", listener)

    async def save_quietly(self, t: Table) -> Table | None:
        """Save a bookkeeping change (the live message's id, a rematch's id) that is not a move:
        no stamp, no events. Caller holds the lock. Returns the saved table, or None on failure."""
        if t.row is None:
            return None
        row = dataclasses.replace(t.row, status=t.status, data=t.to_data())
        try:
            t.row = await self.storage.tables.save(row)
        except Exception:
            log.exception("saving table %s failed", t.id)
            return None
        return t
