"""Each human's latest hand panel (an ephemeral message), redrawn as the table changes.

A panel is edited through its player's interaction token (not counted by the global rate limit)
and follows every card, a few coalesced into one edit, so nobody at a table waits on the public
live message. Only a ``bot.safe.PrivateMessage`` (made by ``send_private``, an ephemeral message)
can be kept here: a refresh can never write a hand to a public message.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import render
from bot.cache import TTLCache
from bot.clock import Clock
from bot.i18n import user_language
from bot.model import Table
from bot.safe import PrivateMessage
from bot.table.staleness import Staleness
from bot.table.store import TableStore
from bot.views.panel import hand_panel

PANEL_TTL = 14 * 60  # interaction tokens live 15 minutes
# Seconds between two refreshes of one hand panel: Discord lets an interaction token edit about
# 5 times per 2 s; a panel follows the trick card by card, a few coalesced into one edit.
PANEL_INTERVAL = 0.45

Key = tuple[int, int]  # (table id, user id)
#: whether anything may be sent for a table now (this process still runs its shard)
Fence = Callable[[int], Awaitable[bool]]


async def open_fence(table_id: int) -> bool:
    return True


class HandPanels:
    """The latest ephemeral hand panel per (table, user), refreshed as the table changes."""

    def __init__(self, store: TableStore, staleness: Staleness, *, clock: Clock) -> None:
        self.store = store
        self.staleness = staleness
        self.clock = clock  # the refresh pacing; a panel's token age is Discord's (monotonic)
        self._panels: TTLCache[Key, PrivateMessage] = TTLCache(PANEL_TTL)  # (timed by monotonic)
        self._dirty: set[Key] = set()
        self.tasks: dict[Key, asyncio.Task[None]] = {}
        # what a panel's buttons depended on when the bot last redrew them (see _shape)
        self._shapes: dict[Key, tuple[Any, ...]] = {}
        self.fence: Fence = open_fence  # (the service's: the table's shard is still this process's)

    def remember(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        """Keep a user's latest panel: only a ``PrivateMessage`` (an ephemeral message, never the
        public message a button sits on) can be remembered, so a refresh never shows a hand."""
        if not isinstance(panel, PrivateMessage):
            raise TypeError("only a private message (bot.safe.send_private) can hold a hand panel")
        self._panels.put((table_id, user_id), panel)
        self._shapes.pop((table_id, user_id), None)  # drawn by the click: redraw all next time
        # the click that drew it showed the table as it is
        self.staleness.panel_shown(table_id, user_id, time.monotonic())

    def refresh(self, table_id: int, user_id: int) -> None:
        """Redraw a user's remembered panel soon (they acted by a typed command: the panel still
        shows the card they played)."""
        key = (table_id, user_id)
        if not self._panels.fresh(key):
            return
        self._shapes.pop(key, None)
        self._mark(key)

    def changed(self, new: Table, actor: int | None = None) -> None:
        """Every other human's remembered panel is redrawn (coalesced): their turn, the trick."""
        for s in new.seats:
            if s is None or s.bot or s.user_id is None or s.user_id == actor:
                continue
            key = (new.id, s.user_id)
            if key not in self._panels:
                continue
            if not self._panels.fresh(key):
                self._panels.pop(key)
                continue
            self._mark(key)

    def _mark(self, key: Key) -> None:
        self._dirty.add(key)
        task = self.tasks.get(key)
        if task is None or task.done():
            self.tasks[key] = asyncio.create_task(self._loop(key), name=f"panel-{key}")

    async def _loop(self, key: Key) -> None:
        while key in self._dirty and key in self._panels:
            self._dirty.discard(key)
            await self._redraw(*key)
            await self.clock.sleep(PANEL_INTERVAL)
        self.tasks.pop(key, None)

    @staticmethod
    def _shape(t: Table | None, user_id: int) -> tuple[Any, ...] | None:
        """While a card is played, what a player's panel buttons depend on; None outside the
        simple case (play phase, the player at the table, cards in view). Other players' cards
        change only the text: the buttons (this seat's stamp, cards, turn) stay as drawn."""
        if t is None or t.status != "playing" or t.game is None:
            return None
        seat = t.seat_of(user_id)
        if seat is None:
            return None
        me = t.seats[seat]
        g = t.game
        if me is None or me.away or me.left or g.phase.name != "PLAY":
            return None
        return (g.hand_no, me.acts, seat in t.seats_to_act())

    async def _redraw(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        panel = self._panels.get(key)
        if panel is None:
            return
        if not await self.fence(table_id):  # (another process runs the table now: never an old state)
            return
        drawn = time.monotonic()
        t = self.store.get(table_id)
        lang = user_language(panel.interaction)
        shape = self._shape(t, user_id)

        async def fence() -> bool:  # (asked again once the edit's turn on the token comes)
            return await self.fence(table_id)

        if shape is not None and self._shapes.get(key) == shape:
            # the text only (the trick, the turn): drawing the buttons again costs ~10x more
            assert t is not None
            seat = t.seat_of(user_id)
            assert seat is not None
            text = render.hand_panel_text(t, seat, lang=lang)
            ok = await panel.edit(text, view=None, text_only=True, fence=fence)
        else:
            content, view = hand_panel(t, user_id, lang=lang)
            ok = await panel.edit(content, view=view, fence=fence)
            if ok and shape is not None:
                self._shapes[key] = shape
        if not ok:
            if self._panels.get(key) is panel:
                self._panels.pop(key)
                self._shapes.pop(key, None)
            return
        self.staleness.panel_shown(table_id, user_id, drawn)

    def holds(self, table_id: int) -> bool:
        return any(k[0] == table_id for k in self._panels) or any(k[0] == table_id for k in self.tasks)

    def drop(self, table_id: int) -> None:
        for key in [k for k in self._panels if k[0] == table_id]:
            self._panels.pop(key)
        self._dirty = {k for k in self._dirty if k[0] != table_id}
        for key in [k for k in self._shapes if k[0] == table_id]:
            del self._shapes[key]
        for key in [k for k in self.tasks if k[0] == table_id]:
            self.tasks.pop(key).cancel()
