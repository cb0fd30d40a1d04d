"""Each human's latest hand panel (an ephemeral message), redrawn as the table changes.

A panel is edited through its player's interaction token (not counted by the global rate limit)
and follows every card, a few coalesced into one edit, so nobody at a table waits on the public
live message.

A panel stays near the message box when it is its player's turn: once a hand post went out below
it (a new hand), or ``PUSHED_AFTER`` other posts, the player's next turn brings a fresh panel, an
ephemeral follow-up of the latest interaction that wrote it (while that token lives), and the old
one is edited to say it moved (``MOVED``). Without a live token, the live table's **My hand** is
the way to a new one; any new panel in another message (**My hand** again, ``/spades hand``) retires
the one it replaces the same way, so a player has one panel with buttons. Only a
``bot.safe.PrivateMessage`` (made by ``send_private``, an ephemeral message) can be kept here: a
refresh can never write a hand to a public message.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot import render
from bot.cache import TTLCache
from bot.clock import Clock
from bot.i18n import _, user_language
from bot.model import Table, humans_to_act
from bot.safe import PrivateMessage, message_of, on_ephemeral_message, send_private, token_since
from bot.table.staleness import Staleness
from bot.table.store import TableStore
from bot.views.panel import hand_panel

PANEL_TTL = 14 * 60  # interaction tokens live 15 minutes
# Seconds between two refreshes of one hand panel: Discord lets an interaction token edit about
# 5 times per 2 s; a panel follows the trick card by card, a few coalesced into one edit.
PANEL_INTERVAL = 0.45

# Posts below a panel (hand posts aside: one of those is enough) before its player's next turn
# brings a fresh one.
PUSHED_AFTER = 2
#: what an old panel says once a fresh one was sent below
MOVED = _("⬇️ Your hand moved to a newer message below.")

Key = tuple[int, int]  # (table id, user id)


@dataclass
class Placed:
    """Where a panel message is: its id (None: not known), and the table's post counts when it
    was written (``HandPanels.posts``)."""

    message_id: int | None
    hands: int  # hand posts of the table that had gone out
    posts: int  # other posts of the table that had gone out
    since: float  # when its token's interaction reached the bot (time.monotonic)


#: whether anything may be sent for a table now (this process still runs its shard)
Fence = Callable[[int], Awaitable[bool]]


async def open_fence(table_id: int) -> bool:
    return True


def _elsewhere(old: PrivateMessage, new: PrivateMessage) -> bool:
    """Whether ``new`` is a panel in another message than ``old``, sent below it: not ``old``
    redrawn in place, not an older panel clicked and redrawn where it is, and not written after a
    click on ``old`` itself (that click already said where the hand went)."""
    old_id, new_id = message_of(old), message_of(new)
    if old_id is not None and old_id == new_id:
        return False
    if new.message_id is None and on_ephemeral_message(new.interaction):
        return False  # (an ephemeral panel redrawn in place)
    clicked = getattr(new.interaction, "message", None)
    if old_id is not None and clicked is not None and int(clicked.id) == old_id:
        return False
    return not (old.interaction is new.interaction and old.message_id == new.message_id)


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
        self._placed: dict[Key, Placed] = {}
        self._moving: set[Key] = set()  # panels to send again below, at their next redraw
        self._hands: dict[int, int] = {}  # table id -> hand posts gone out (this process)
        self._posts: dict[int, int] = {}  # table id -> other posts gone out
        self.moved = 0  # fresh panels sent below (the benchmark, tests)
        self.retiring: set[asyncio.Task[None]] = set()  # replaced panels being edited to say so

    def remember(self, table_id: int, user_id: int, panel: PrivateMessage, *, retire: bool = True) -> None:
        """Keep a user's latest panel: only a ``PrivateMessage`` (an ephemeral message, never the
        public message a button sits on) can be remembered, so a refresh never shows a hand. The
        panel it replaces, when that is another message whose token still lives, is edited to say
        the hand moved and loses its buttons (``retire``: False when the caller did it already)."""
        if not isinstance(panel, PrivateMessage):
            raise TypeError("only a private message (bot.safe.send_private) can hold a hand panel")
        key = (table_id, user_id)
        previous = self._panels.get(key)
        if retire and previous is not None and self._fresh(key) and _elsewhere(previous, panel):
            self._retire(table_id, previous)
        self._panels.put(key, panel)
        self._shapes.pop(key, None)  # drawn by the click: redraw all next time
        message_id = message_of(panel)
        since = token_since(panel.interaction)
        old = self._placed.get(key)
        if old is not None and message_id is not None and old.message_id == message_id:
            old.since = max(old.since, since)  # the same message, redrawn in place by a newer click
        else:
            self._placed[key] = Placed(
                message_id, self._hands.get(table_id, 0), self._posts.get(table_id, 0), since
            )
        self._moving.discard(key)
        # the click that drew it showed the table as it is
        self.staleness.panel_shown(table_id, user_id, time.monotonic())

    def _retire(self, table_id: int, panel: PrivateMessage) -> None:
        """Edit a replaced panel to say where the hand went, without its buttons (soon, through its
        own token: not counted by the global rate limit)."""

        async def fence() -> bool:
            return await self.fence(table_id)

        async def job() -> None:
            await panel.edit(MOVED, view=None, fence=fence)

        task = asyncio.create_task(job(), name=f"panel-retire-{table_id}")
        self.retiring.add(task)
        task.add_done_callback(self.retiring.discard)

    def refresh(self, table_id: int, user_id: int) -> None:
        """Redraw a user's remembered panel soon (they acted by a typed command: the panel still
        shows the card they played)."""
        key = (table_id, user_id)
        if not self._panels.fresh(key):
            return
        self._shapes.pop(key, None)
        self._mark(key)

    def changed(self, new: Table, actor: int | None = None) -> None:
        """Every other human's remembered panel is redrawn (coalesced): their turn, the trick; a
        panel pushed up (``due``) is sent again below when its player's turn comes."""
        turn = self._turn(new)
        for s in new.seats:
            if s is None or s.bot or s.user_id is None or s.user_id == actor:
                continue
            key = (new.id, s.user_id)
            if key not in self._panels:
                continue
            if not self._fresh(key):
                self._forget(key)
                continue
            if s.user_id in turn and self.due(new.id, s.user_id):
                self._moving.add(key)
            self._mark(key)

    def pushed(self, table_id: int, *, hand: bool = False) -> None:
        """One of the table's posts went out (``hand``: a hand's result): the panels are lower in
        the channel than it; one whose player is to act now is sent again below it if due."""
        counts = self._hands if hand else self._posts
        counts[table_id] = counts.get(table_id, 0) + 1
        t = self.store.get(table_id)
        if t is None:
            return
        for uid in self._turn(t):
            key = (table_id, uid)
            if key in self._panels and self._fresh(key) and self.due(table_id, uid):
                self._moving.add(key)
                self._mark(key)

    def due(self, table_id: int, user_id: int, message_id: int | None = None) -> bool:
        """Whether the user's panel (``message_id``, when known: the one clicked; else the one
        remembered) is pushed up: a hand post went out below it, or ``PUSHED_AFTER`` other posts.
        False for a panel this process does not know (it was not written since the start)."""
        placed = self._placed.get((table_id, user_id))
        if placed is None:
            return False
        if message_id is not None and placed.message_id != message_id:
            return False  # (an older panel, clicked: redrawn where it is, as asked)
        return (
            self._hands.get(table_id, 0) > placed.hands
            or self._posts.get(table_id, 0) - placed.posts >= PUSHED_AFTER
        )

    @staticmethod
    def _turn(t: Table) -> set[int]:
        """The humans to act now (not those the bot plays for)."""
        if t.status != "playing" or t.game is None:
            return set()
        return {uid for s in humans_to_act(t) if (seat := t.seats[s]) is not None and (uid := seat.user_id)}

    def _fresh(self, key: Key) -> bool:
        """The panel's token still lives (15 minutes from its interaction, a minute kept in hand)."""
        placed = self._placed.get(key)
        if placed is not None and time.monotonic() - placed.since > PANEL_TTL:
            return False
        return self._panels.fresh(key)

    def _forget(self, key: Key) -> None:
        self._panels.pop(key)
        self._placed.pop(key, None)
        self._moving.discard(key)
        self._shapes.pop(key, None)

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
        if key in self._moving and t is not None:
            self._moving.discard(key)
            if await self._move(key, panel, t, lang, drawn):
                return
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
                self._forget(key)
            return
        current = self._panels.get(key)
        if current is not None and current is not panel and _elsewhere(panel, current):
            # replaced by a newer panel while this edit was on its way (which drew the hand on the
            # old one again, after it was told where the hand went): told again
            self._retire(table_id, panel)
            return
        self.staleness.panel_shown(table_id, user_id, drawn)

    async def _move(self, key: Key, panel: PrivateMessage, t: Table, lang: str, drawn: float) -> bool:
        """Send the panel again as a new ephemeral follow-up of its token (at the bottom of the
        player's view) and edit the old one to say so; False if the token would not (then the old
        one is redrawn in place)."""
        table_id, user_id = key
        content, view = hand_panel(t, user_id, lang=lang)
        if view is None:
            return False
        written = await send_private(panel.interaction, content, view=view)
        if written is None:
            return False
        self.moved += 1
        await panel.edit(MOVED, view=None)
        self.remember(table_id, user_id, written, retire=False)
        self.staleness.panel_shown(table_id, user_id, drawn)
        return True

    def holds(self, table_id: int) -> bool:
        return any(k[0] == table_id for k in self._panels) or any(k[0] == table_id for k in self.tasks)

    def drop(self, table_id: int) -> None:
        for key in [k for k in self._panels if k[0] == table_id]:
            self._panels.pop(key)
        self._dirty = {k for k in self._dirty if k[0] != table_id}
        for key in [k for k in self._shapes if k[0] == table_id]:
            del self._shapes[key]
        for key in [k for k in self._placed if k[0] == table_id]:
            del self._placed[key]
        self._moving = {k for k in self._moving if k[0] != table_id}
        self._hands.pop(table_id, None)
        self._posts.pop(table_id, None)
        for key in [k for k in self.tasks if k[0] == table_id]:
            self.tasks.pop(key).cancel()
