"""What goes to a table's channel and when: ordered posts and the live table message (coalesced
edits), with the hand panels (``bot.table.panels``) refreshed as the table changes.

Subscribes to the store's changes; the components and texts come from ``bot.views`` and
``bot.render``, which are given a table and know nothing of this module. The live message is edited
through a fresh interaction token of a click on it when the table has one (``bot.table.tokens``: not
counted by the global rate limit), else with the bot token once the budget grants a slot.

Everything posted in a channel speaks the server's language (``language``, set by the service):
posts are rendered when they go out, so a post may be a lazy message or a function of the language.
A refreshed hand panel speaks its player's language (the locale of the interaction that opened it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import render
from bot.clock import Clock
from bot.i18n import DEFAULT
from bot.i18n import render as text_in
from bot.model import Table, humans_to_act
from bot.ratelimit import BOTS, HUMAN, POSTS, GlobalBudget, Ticket, prepaid
from bot.safe import PrivateMessage, PublicMessage
from bot.table.outbound import DiscordPublisher, Picture, Publisher, Unsent
from bot.table.outbox import Outbox
from bot.table.panels import PANEL_INTERVAL, PANEL_TTL, Fence, HandPanels, open_fence
from bot.table.post_pictures import _record_of, game_pictures, hand_pictures
from bot.table.staleness import Staleness
from bot.table.store import TableStore
from bot.table.tokens import PublicTokens
from bot.tasks import cancel_all
from bot.views.buttons import game_over_view, hand_post_view, table_view
from engine import CardPlayed, GameOver, HandScored

__all__ = [
    "PANEL_INTERVAL",
    "PANEL_TTL",
    "DiscordPublisher",
    "Picture",
    "Publisher",
    "Staleness",
    "TablePublisher",
    "Unsent",
    "game_pictures",
    "hand_pictures",
]

log = logging.getLogger(__name__)

# Seconds between two edits of one live message: Discord lets a bot edit about 5 messages per 5 s
# in one channel (an interaction token: 5 per 2 s), and the hand panels go through other routes.
EDIT_INTERVAL = 1.2
# Seconds a live message waits for more changes before it is drawn.
DEBOUNCE = 0.25
# A live message or post Discord refused for a while (429 after discord.py's own retries, 5xx):
# tried again after RETRY_BASE, 2x, 4x... seconds, RETRIES times at most.
RETRY_BASE = 1.0
RETRIES = 6
# The budget's queue, in seconds of this process's share, beyond which the live message is edited
# in place instead of posted again at the bottom (a post and a delete); it moves down once the
# queue is shorter again (the next redraw while a human is to act).
REPOST_BACKLOG = 1.0
# The newest bot messages remembered per channel (ours: posts and live messages), to know whether
# a table's live message is still the newest one there (a delete below it can make it so again).
RECENT_KEPT = 12
# Live messages redrawn per second through clicks' tokens, all tables together. Discord does not
# count them, but each costs the event loop ~1-2 ms (drawing, sending, reading the answer): past
# this the public messages lag (most urgent tables first) instead of every answer at every table.
REDRAWS_PER_SECOND = 100.0

#: a post: text (lazy texts are rendered in the server's language) or a function of the language
Content = Any
#: a message id, or a function that tells it when the request's turn comes (None: no message)
MessageRef = int | Callable[[], int | None]
Language = Callable[[int], Awaitable[str]]


async def _english(table_id: int) -> str:
    return DEFAULT


def _hand_post(table: Table, ev: HandScored) -> Callable[[str], str]:
    return lambda lang: render.hand_post(table, ev, lang)


def _hand_view(table: Table, record: dict[str, Any] | None) -> Callable[[str], discord.ui.View] | None:
    if record is None:
        return None
    return lambda lang: hand_post_view(table, record, lang)


class TablePublisher:
    """Posts in order per table, one coalesced live message per table, and the hand panels.

    With a :class:`~bot.ratelimit.GlobalBudget` every channel request waits for its slot there
    first, at its table's level: a live message whose table waits for a human before posts,
    posts before tables where only bots act. The live message is drawn once its slot is granted,
    so however long it queued it shows the table as it is then (latest state wins), and a table
    changing while queued keeps its one place in the queue. When a click on the live message left
    a fresh token (``remember_public``), the live message is edited through it instead, with no
    slot. Hand panels go through each player's interaction token (not counted by the global limit)
    and follow every card, so the public message may lag behind under load without a player
    waiting on it.
    """

    def __init__(
        self,
        store: TableStore,
        out: Publisher,
        *,
        clock: Clock,
        budget: GlobalBudget | None = None,
    ) -> None:
        self.store = store
        self.out = out
        self.clock = clock  # the live message's debounce, edit pacing and retries
        self.budget = budget
        self.staleness = Staleness()
        self._renders: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._repost: set[int] = set()
        self._last_edit: dict[int, float] = {}
        self._tickets: dict[int, Ticket] = {}
        self.outbox = Outbox()  # each table's posts, in order
        self._posters = self.outbox.tasks
        self.panels = HandPanels(store, self.staleness, clock=clock)
        self.tokens = PublicTokens()  # tokens of clicks on the live messages (public edits)
        # the event loop's share for those redraws (the same priority queue as the bot token's)
        self.redraws = GlobalBudget(REDRAWS_PER_SECOND)
        # what the live message's buttons depended on when last sent (None: send them again)
        self._live_shapes: dict[int, tuple[Any, ...]] = {}
        # per channel, the ids of our newest messages there (oldest first): where the live table is
        self._recent: dict[int, list[int]] = {}
        self._closed = False
        self.pictures = True  # attach the table picture and score chart to hand and game posts
        #: the language of a table's public messages (the service sets the server's)
        self.language: Language = _english
        #: whether anything may be sent for a table now: the service's check that its shard is still
        #: this process's (after a stall past the lease, once a renewal said so)
        self.fence: Fence = open_fence

    # ---- after a saved change ------------------------------------------------------------
    def after(self, old: Table, new: Table, events: list[Any], actor: int | None = None) -> None:
        """The posts a change causes (a hand's result, the game's end), the live message, panels."""
        if self.staleness.enabled and any(isinstance(ev, CardPlayed) for ev in events):
            self.staleness.played(new, self._humans(new))
        for ev in events:
            if isinstance(ev, HandScored):
                record = _record_of(new, ev.hand_no)
                self.post(
                    new.id,
                    new.channel_id,
                    _hand_post(new, ev),
                    view=_hand_view(new, record),
                    pictures=hand_pictures(new, record) if record is not None else None,
                    hand=True,
                )
            elif isinstance(ev, GameOver):
                self.post(
                    new.id,
                    new.channel_id,
                    lambda lang: render.game_post(new, lang),
                    view=lambda lang: game_over_view(new, lang),
                    pictures=game_pictures(new),
                )
        self.render_soon(new.id)
        self.panels.changed(new, actor)

    @staticmethod
    def _humans(t: Table) -> list[int]:
        return [s.user_id for s in t.seats if s is not None and not s.bot and s.user_id is not None]

    # ---- the budget ---------------------------------------------------------------------------
    def level(self, table_id: int) -> int:
        """How urgent the table's live message is: a human to act (or players gathering) first."""
        t = self.store.get(table_id)
        if t is None:
            return BOTS
        if t.status == "open":
            return HUMAN
        for seat in t.seats_to_act():
            s = t.seats[seat]
            if s is not None and not s.automatic:
                return HUMAN
        return BOTS

    async def _slot(
        self, level: int, table_id: int | None = None, budget: GlobalBudget | None = None
    ) -> None:
        """Wait for a request slot at ``level`` of the bot token's budget (or of ``budget``; no
        budget: at once)."""
        budget = budget or self.budget
        if budget is None:
            return
        ticket = budget.ticket(level)
        if table_id is not None:
            self._tickets[table_id] = ticket
        try:
            await ticket.wait()
        finally:
            if table_id is not None and self._tickets.get(table_id) is ticket:
                del self._tickets[table_id]

    async def _paid(
        self, level: int, request: Callable[[], Awaitable[Any]], table_id: int | None = None
    ) -> Any:
        """One channel request, sent once the budget grants it a slot (and, for a table, once the
        fence lets it: None is returned for a request held back)."""
        await self._slot(level)
        if table_id is not None and not await self.fence(table_id):
            return None
        with prepaid() if self.budget is not None else contextlib.nullcontext():
            return await request()

    def _backlogged(self) -> bool:
        b = self.budget
        return b is not None and b.waiting > b.per_second * REPOST_BACKLOG

    # ---- outbox: ordered channel posts -------------------------------------------------------
    def post(
        self,
        table_id: int,
        channel_id: int,
        content: Content,
        *,
        view: discord.ui.View | Callable[[str], discord.ui.View] | None = None,
        mention: int | None = None,
        sent: Callable[[int | None], None] | None = None,
        pictures: Callable[[str], list[Picture]] | None = None,
        hand: bool = False,
    ) -> None:
        """Queue a channel post behind the table's earlier ones (``hand``: a hand's result).
        ``content`` (and ``view``) may be lazy: they are drawn in the server's language when the
        post goes out. ``pictures`` draws the files to attach in that language; it runs in an
        executor (off the event loop), and a failure posts the text alone. ``sent`` is told the
        post's message id (None if it failed)."""

        async def job() -> None:
            lang = await self.language(table_id)
            text = content(lang) if callable(content) else text_in(content, lang)
            shown = view(lang) if callable(view) else view
            files: list[Picture] = []
            if pictures is not None and self.pictures:
                try:
                    files = await asyncio.get_running_loop().run_in_executor(None, pictures, lang)
                except Exception:
                    log.exception("drawing the pictures of a post at table %s failed", table_id)
            extra: dict[str, Any] = {"files": files} if files else {}
            for attempt in range(RETRIES):
                try:
                    message_id = await self._paid(
                        POSTS,
                        lambda: self.out.send(channel_id, text, view=shown, mention=mention, **extra),
                        table_id,
                    )
                    if message_id is not None:
                        self._posted(table_id, channel_id, message_id, hand=hand)
                    if sent is not None:
                        sent(message_id)
                    return
                except Unsent as exc:
                    log.warning("%s; trying again", exc)
                    await asyncio.sleep(RETRY_BASE * 2**attempt)
            log.error("a post for table %s could not be sent", table_id)
            if sent is not None:
                sent(None)

        self._enqueue(table_id, job)

    def delete(self, table_id: int, channel_id: int, message_id: MessageRef) -> None:
        """Delete one of the table's posts, in order with its other posts. ``message_id`` may be a
        function, asked when the delete's turn comes (a post queued before it has gone out by then;
        None: nothing to delete)."""

        async def job() -> None:
            target = message_id() if callable(message_id) else message_id
            if target is None:
                return
            if await self.fence(table_id):  # (right before the request)
                await self.out.delete(channel_id, target)
                self._forget(channel_id, target)

        self._enqueue(table_id, job)

    def edit_post(self, table_id: int, channel_id: int, message_id: MessageRef, content: Content) -> None:
        """Rewrite one of the table's posts (a reminder once the bot played), in order with its
        other posts; ``message_id`` as for :meth:`delete`. It pings nobody again."""

        async def job() -> None:
            target = message_id() if callable(message_id) else message_id
            if target is None:
                return
            lang = await self.language(table_id)
            text = content(lang) if callable(content) else text_in(content, lang)
            try:
                await self._paid(POSTS, lambda: self.out.edit(channel_id, target, text), table_id)
            except Unsent as exc:  # (a reminder left as it was is no reason to hold the table up)
                log.warning("%s; left as it was", exc)

        self._enqueue(table_id, job)

    # ---- where the live message is -------------------------------------------------------------
    def _posted(self, table_id: int, channel_id: int, message_id: int, *, hand: bool = False) -> None:
        """One of our posts went out in ``channel_id``: the live table there is no longer the newest
        message; it moves below at once if a human is to act (else when one is: ``after``)."""
        recent = self._recent.setdefault(channel_id, [])
        recent.append(message_id)
        del recent[:-RECENT_KEPT]
        self.panels.pushed(table_id, hand=hand)
        t = self.store.get(table_id)
        if t is not None and self._waits_for_human(t) and not self.at_bottom(t):
            self.render_soon(table_id)

    def _forget(self, channel_id: int, message_id: int) -> None:
        recent = self._recent.get(channel_id)
        if recent is not None and message_id in recent:
            recent.remove(message_id)
            if not recent:
                del self._recent[channel_id]

    def at_bottom(self, t: Table) -> bool:
        """Whether the table's live message is the newest of our messages in its channel (as far as
        this process knows: after a start nothing is known, and it is taken to be)."""
        recent = self._recent.get(t.channel_id)
        return not recent or recent[-1] == t.message_id

    @staticmethod
    def _waits_for_human(t: Table) -> bool:
        return t.status == "playing" and t.game is not None and bool(humans_to_act(t))

    def _moves_down(self, table_id: int) -> bool:
        """The live message is to be posted again at the bottom: asked for (a start, the repost
        command), or a human is to act and other posts came below it (unless the budget's queue is
        long: then it is edited in place, and moves at a later redraw)."""
        if table_id in self._repost:
            return True
        t = self.store.get(table_id)
        return (
            t is not None
            and t.message_id is not None
            and self._waits_for_human(t)
            and not self.at_bottom(t)
            and not self._backlogged()
        )

    def _enqueue(self, table_id: int, job: Callable[[], Awaitable[None]]) -> None:
        if not self._closed:
            self.outbox.put(table_id, job)

    # ---- the live message ----------------------------------------------------------------------
    def render_soon(self, table_id: int, *, repost: bool = False) -> None:
        """Coalesce edits: one edit per table after a short debounce, at most ~1 per second, and
        one place in the budget's queue however often the table changes meanwhile."""
        if self._closed or table_id not in self.store.tables:  # (an evicted table has nothing to show)
            return
        if repost:
            self._repost.add(table_id)
        self._dirty.add(table_id)
        ticket = self._tickets.get(table_id)
        if ticket is not None:
            ticket.raise_to(self.level(table_id))
        task = self._renders.get(table_id)
        if task is None or task.done():
            self._renders[table_id] = asyncio.create_task(
                self._render_loop(table_id), name=f"render-{table_id}"
            )

    async def _render_loop(self, table_id: int) -> None:
        failures = 0
        while table_id in self._dirty:
            await self.clock.sleep(DEBOUNCE)
            wait = self._last_edit.get(table_id, float("-inf")) + EDIT_INTERVAL - self.clock.now()
            if wait > 0:
                await self.clock.sleep(wait)
            if self._has_token(table_id):  # (the event loop's share of redraws, then a token)
                await self._slot(self.level(table_id), table_id, self.redraws)
            public = self._token(table_id)
            if public is None:
                await self._slot(self.level(table_id), table_id)
            self._dirty.discard(table_id)
            try:
                if public is None or not await self._render_through(table_id, public):
                    if public is not None:  # the token was refused: the bot token, in its turn
                        await self._slot(self.level(table_id), table_id)
                    await self._render_now(table_id)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Unsent as exc:
                # nothing is lost: the table is drawn again (as it is then) once Discord lets us
                failures += 1
                if failures <= RETRIES:
                    log.warning("%s; trying again", exc)
                    self._dirty.add(table_id)
                    await self.clock.sleep(RETRY_BASE * 2 ** (failures - 1))
                else:
                    log.error("the live message of table %s could not be updated", table_id)
            except Exception:
                log.exception("rendering table %s failed", table_id)
            self._last_edit[table_id] = self.clock.now()

    def _has_token(self, table_id: int) -> bool:
        t = self.store.get(table_id)
        return t is not None and not self._moves_down(table_id) and self.tokens.has(table_id, t.message_id)

    @staticmethod
    def _shape(t: Table, lang: str) -> tuple[Any, ...]:
        """What ``table_view`` depends on: the same shape, the same buttons."""
        back = any(s is not None and not s.bot and (s.away or s.left) for s in t.seats)
        return (t.message_id, t.status, back, lang)

    def _token(self, table_id: int) -> PublicMessage | None:
        """A fresh token of a click on the table's live message, unless it is to be posted again."""
        t = self.store.get(table_id)
        if t is None or self._moves_down(table_id):  # (a token never keeps it where it is)
            return None
        return self.tokens.pick(table_id, t.message_id)

    async def _render_through(self, table_id: int, public: PublicMessage) -> bool:
        """Draw the table now into its live message through a click's token (no budget slot);
        False if Discord refused it (the token is then forgotten)."""
        t = self.store.get(table_id)
        if t is None:
            return True
        lang = await self.language(table_id)
        if not await self.fence(table_id):  # (right before the request: nothing awaited between)
            return True
        t = self.store.get(table_id) or t
        if t.message_id != public.message_id:
            self.tokens.discard(table_id, public)
            return False
        drawn = time.monotonic()
        shape = self._shape(t, lang)

        async def fence() -> bool:  # (asked again once the edit's turn on the token comes)
            return await self.fence(table_id)

        if self._live_shapes.get(table_id) == shape:  # the text only: the buttons stay as they are
            edited = await public.edit(render.table_message(t, lang), view=None, text_only=True, fence=fence)
        else:
            self._live_shapes.pop(table_id, None)
            edited = await public.edit(render.table_message(t, lang), view=table_view(t, lang), fence=fence)
            if edited:
                self._live_shapes[table_id] = shape
        if edited is None:  # held back by the fence: nothing sent, nothing else to try
            return True
        if edited:
            self.tokens.edits += 1
            self.staleness.public_shown(table_id, drawn)
            return True
        self.tokens.refused += 1
        self.tokens.discard(table_id, public)
        return False

    async def _render_now(self, table_id: int) -> None:
        """Draw the table now and edit (or post) its live message; the request's slot is taken."""
        budget = self.budget
        t = self.store.get(table_id)
        if t is None:
            return
        lang = await self.language(table_id)
        if not await self.fence(table_id):  # (right before the request: nothing awaited between)
            return
        t = self.store.get(table_id) or t
        drawn = time.monotonic()
        content = render.table_message(t, lang)
        view = table_view(t, lang)
        repost = self._moves_down(table_id)
        self._repost.discard(table_id)
        if t.message_id is not None and not repost:
            with prepaid() if budget is not None else contextlib.nullcontext():
                edited = await self.out.edit(t.channel_id, t.message_id, content, view=view)
            if edited:
                self._live_shapes[table_id] = self._shape(t, lang)
                self.staleness.public_shown(table_id, drawn)
                return
            await self._slot(self.level(table_id))  # the message is gone: a post takes another slot
        self._live_shapes.pop(table_id, None)
        # (re)post at the bottom of the channel; the old one is removed to keep one live message
        old_id, channel_id = t.message_id, t.channel_id
        with prepaid() if budget is not None else contextlib.nullcontext():
            new_id = await self.out.send(channel_id, content, view=view)
        if new_id is None:
            return
        recent = self._recent.setdefault(channel_id, [])
        recent.append(new_id)
        del recent[:-RECENT_KEPT]
        self.staleness.public_shown(table_id, drawn)
        if old_id is not None:
            await self._paid(self.level(table_id), lambda: self.out.delete(channel_id, old_id), table_id)
            self._forget(channel_id, old_id)
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is not None:
                t.message_id = new_id
                await self.store.save_quietly(t)

    # ---- hand panels and public tokens ---------------------------------------------------------
    def remember_panel(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        """Keep a user's latest hand panel (a ``PrivateMessage`` only) for refreshes."""
        self.panels.remember(table_id, user_id, panel)

    def refresh_panel(self, table_id: int, user_id: int) -> None:
        """Redraw a user's remembered panel soon (they acted by a typed command)."""
        self.panels.refresh(table_id, user_id)

    def remember_public(self, table_id: int, public: PublicMessage) -> None:
        """Keep the token of a click on the table's live message (a ``PublicMessage`` only): the
        live message is redrawn through it, with no slot of the budget, until it expires."""
        self.tokens.add(table_id, public)

    # ---- state for eviction, tests and shutdown --------------------------------------------------
    def idle(self, table_id: int | None = None) -> bool:
        """No post queued or going out and no live-message edit owed (for one table, or any)."""
        ids = [table_id] if table_id is not None else [*self._posters, *self._renders, *self._dirty]
        return all(
            tid not in self._dirty
            and all(task is None or task.done() for task in (self._posters.get(tid), self._renders.get(tid)))
            for tid in ids
        )

    async def wait_sent(self, table_id: int) -> None:
        """Until the table's queued posts and pending edits are out."""
        while True:
            busy = [
                task
                for task in (self._posters.get(table_id), self._renders.get(table_id))
                if task is not None and not task.done()
            ]
            if busy:
                await asyncio.wait(busy)
            elif table_id in self._dirty:
                await asyncio.sleep(0.05)
            else:
                return

    def holds(self, table_id: int) -> bool:
        """Whether anything is still kept for the table (eviction tests)."""
        return (
            table_id in self._renders
            or self.outbox.holds(table_id)
            or table_id in self._last_edit
            or table_id in self._live_shapes
            or self.panels.holds(table_id)
            or self.tokens.holds(table_id)
        )

    def queued(self) -> int:
        """Channel posts waiting to go out, all tables (the health line)."""
        return self.outbox.queued()

    def stop(self, table_id: int) -> None:
        """Cancel the table's pending posts and edits (its shard went to another process) and forget it."""
        for task in (self._renders.get(table_id), self._posters.get(table_id)):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
        self.drop(table_id)

    def drop(self, table_id: int) -> None:
        self._renders.pop(table_id, None)
        self._dirty.discard(table_id)
        self._repost.discard(table_id)
        self._last_edit.pop(table_id, None)
        self.outbox.drop(table_id)
        self._tickets.pop(table_id, None)
        self._live_shapes.pop(table_id, None)
        self.panels.drop(table_id)
        self.tokens.drop(table_id)

    async def close(self, *, drain: float = 2.0) -> None:
        """Give queued posts (a hand's result, say) ``drain`` seconds to go out, then stop."""
        self._closed = True
        posters = [t for t in self._posters.values() if not t.done()]
        if posters and drain > 0:
            await asyncio.wait(posters, timeout=drain)
        await cancel_all(
            [
                *self._renders.values(),
                *self._posters.values(),
                *self.panels.tasks.values(),
                *self.panels.retiring,
            ]
        )
