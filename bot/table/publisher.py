"""What goes to a table's channel and when: ordered posts, the live table message (coalesced
edits), and the registry of hand panels refreshed in place when a player's turn comes.

Subscribes to the store's changes; the components and texts come from ``bot.views`` and
``bot.render``, which are given a table and know nothing of this module.

Everything posted in a channel speaks the server's language (``language``, set by the service):
posts are rendered when they go out, so a post may be a lazy message or a function of the language.
A refreshed hand panel speaks its player's language (the locale of the interaction that opened it).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord

from bot import render
from bot.i18n import DEFAULT, user_language
from bot.i18n import render as text_in
from bot.model import Table
from bot.pictures import picture_name, score_chart_png, table_png
from bot.ratelimit import BOTS, HUMAN, POSTS, GlobalBudget, Ticket, prepaid
from bot.replays import game_series, hand_scene
from bot.safe import PrivateMessage
from bot.table.store import TableStore, event_kind
from bot.tasks import cancel_all
from bot.views import game_over_view, hand_panel, hand_post_view, table_view

log = logging.getLogger(__name__)

# Seconds between two edits of one live message: Discord lets a bot edit about 5 messages per 5 s
# in one channel, and the hand panels' refreshes go through other routes.
EDIT_INTERVAL = 1.2
PANEL_TTL = 14 * 60  # interaction tokens live 15 minutes
# Seconds between two refreshes of one hand panel: Discord lets an interaction token edit about
# 5 times per 2 s; a panel follows the trick card by card, a few coalesced into one edit.
PANEL_INTERVAL = 0.45
# A live message or post Discord refused for a while (429 after discord.py's own retries, 5xx):
# tried again after RETRY_BASE, 2x, 4x... seconds, RETRIES times at most.
RETRY_BASE = 1.0
RETRIES = 6
# The budget's queue, in seconds of this process's share, beyond which a hand's end edits the
# live message in place instead of posting it again at the bottom (a post and a delete).
REPOST_BACKLOG = 1.0
REFUSALS_TO_STOP = 2  # posts refused in a row (403, or the channel gone) before a table stops there

#: a post: text (lazy texts are rendered in the server's language) or a function of the language
Content = Any
Language = Callable[[int], Awaitable[str]]


async def _english(table_id: int) -> str:
    return DEFAULT


def _hand_post(table: Table, ev: Any) -> Callable[[str], str]:
    return lambda lang: render.hand_post(table, ev, lang)


class Unsent(Exception):
    """Discord refused a post or an edit for now (rate limited, or a server error): try again."""


def _transient(exc: discord.HTTPException) -> bool:
    return exc.status == 429 or exc.status >= 500


class Staleness:
    """When each card played became visible: in the public live message, and in each human's
    hand panel (seconds from the saved play to Discord's answer to the edit that showed it).
    Off unless ``enabled`` (the benchmark turns it on)."""

    def __init__(self) -> None:
        self.enabled = False
        self.public: list[float] = []
        self.panel: list[float] = []
        self._public_owed: dict[int, list[float]] = {}
        self._panel_owed: dict[tuple[int, int], list[float]] = {}

    def played(self, table: Table, humans: list[int]) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        self._public_owed.setdefault(table.id, []).append(now)
        for uid in humans:
            self._panel_owed.setdefault((table.id, uid), []).append(now)

    def public_shown(self, table_id: int, drawn: float) -> None:
        self._settle(self._public_owed.get(table_id), drawn, self.public)

    def panel_shown(self, table_id: int, user_id: int, drawn: float) -> None:
        self._settle(self._panel_owed.get((table_id, user_id)), drawn, self.panel)

    @staticmethod
    def _settle(owed: list[float] | None, drawn: float, into: list[float]) -> None:
        if not owed:
            return
        now = time.monotonic()
        kept = [t for t in owed if t > drawn]
        into.extend(now - t for t in owed if t <= drawn)
        owed[:] = kept


def _hand_view(table: Table, record: dict[str, Any] | None) -> Callable[[str], discord.ui.View] | None:
    if record is None:
        return None
    return lambda lang: hand_post_view(table, record, lang)


Picture = tuple[str, bytes]  # a file name and PNG bytes


class Publisher(Protocol):
    """How the service talks to channels (Discord in production, a recorder in unit tests)."""

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[Picture] = (),
    ) -> int | None: ...

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool: ...

    async def delete(self, channel_id: int, message_id: int) -> bool: ...


class DiscordPublisher:
    """Publisher over the bot's HTTP client; never pings anyone unless ``mention`` names them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        # told the channel where Discord refused posts for a missing permission (403) twice in a row
        self.on_forbidden: Callable[[int], None] | None = None
        self._refusals: dict[int, int] = {}

    async def dm(self, user_id: int, content: str) -> bool:
        """A direct message (the host of a table the bot can no longer post at); False if refused."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not message user %s: %s", user_id, exc.status)
            return False
        return True

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[Picture] = (),
    ) -> int | None:
        channel = self.bot.get_partial_messageable(channel_id)
        # A ping notifies exactly that one user, even if the text names others.
        allowed = (
            discord.AllowedMentions(
                users=[discord.Object(mention)], roles=False, everyone=False, replied_user=False
            )
            if mention
            else discord.AllowedMentions.none()
        )
        extra: dict[str, Any] = {}
        if view is not None:
            extra["view"] = view
        if files:
            extra["files"] = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
        try:
            msg = await channel.send(content, allowed_mentions=allowed, **extra)
        except discord.Forbidden as exc:
            if files:
                # no Attach Files permission there: the post matters more than its picture
                log.warning(
                    "posting pictures in channel %s is not allowed (%s): posting the text alone",
                    channel_id,
                    exc.code,
                )
                return await self.send(channel_id, content, view=view, mention=mention)
            log.warning("posting in channel %s failed: %s (%s)", channel_id, exc.status, exc.code)
            self._refused(channel_id)
            return None
        except discord.NotFound as exc:  # the channel was deleted
            log.warning("posting in channel %s failed: %s (%s)", channel_id, exc.status, exc.code)
            self._refused(channel_id)
            return None
        except discord.HTTPException as exc:
            if _transient(exc):
                raise Unsent(f"posting in channel {channel_id}: {exc.status}") from exc
            log.warning("posting in channel %s failed: %s", channel_id, exc.status)
            return None
        self._refusals.pop(channel_id, None)
        return msg.id

    def _refused(self, channel_id: int) -> None:
        """A post refused for a missing permission (or a deleted channel): once is a glitch, the
        second time in a row the channel is lost to the bot and its table must stop."""
        self._refusals[channel_id] = self._refusals.get(channel_id, 0) + 1
        if self._refusals[channel_id] >= REFUSALS_TO_STOP and self.on_forbidden is not None:
            self._refusals.pop(channel_id, None)
            self.on_forbidden(channel_id)

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.edit(content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            if _transient(exc):
                raise Unsent(f"editing message {message_id}: {exc.status}") from exc
            log.warning("editing message %s failed: %s", message_id, exc.status)
            return False
        return True

    async def delete(self, channel_id: int, message_id: int) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.delete()
        except discord.HTTPException:
            return False
        return True


class TablePublisher:
    """Posts in order per table, one coalesced live message per table, and the hand panels.

    With a :class:`~bot.ratelimit.GlobalBudget` every channel request waits for its slot there
    first, at its table's level: a live message whose table waits for a human before posts,
    posts before tables where only bots act. The live message is drawn once its slot is granted,
    so however long it queued it shows the table as it is then (latest state wins), and a table
    changing while queued keeps its one place in the queue. Hand panels go through each player's
    interaction token (not counted by the global limit) and follow every card, so the public
    message may lag behind under load without a player waiting on it.
    """

    def __init__(
        self,
        store: TableStore,
        out: Publisher,
        *,
        time_scale: float = 1.0,
        budget: GlobalBudget | None = None,
    ) -> None:
        self.store = store
        self.out = out
        self.time_scale = time_scale
        self.budget = budget
        self.staleness = Staleness()
        self._renders: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._repost: set[int] = set()
        self._last_edit: dict[int, float] = {}
        self._tickets: dict[int, Ticket] = {}
        self._outbox: dict[int, asyncio.Queue[Callable[[], Awaitable[None]]]] = {}
        self._posters: dict[int, asyncio.Task[None]] = {}
        # the latest ephemeral hand panel per (table, user), refreshed as the table changes
        self._panels: dict[tuple[int, int], tuple[PrivateMessage, float]] = {}
        self._panel_dirty: set[tuple[int, int]] = set()
        self._panel_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        # what a panel's buttons depended on when the bot last redrew them (see _panel_shape)
        self._panel_shapes: dict[tuple[int, int], tuple[Any, ...]] = {}
        self._closed = False
        self.pictures = True  # attach the table picture and score chart to hand and game posts
        #: the language of a table's public messages (the service sets the server's)
        self.language: Language = _english

    # ---- after a saved change ------------------------------------------------------------
    def after(self, old: Table, new: Table, events: list[Any], actor: int | None = None) -> None:
        """The posts a change causes (a hand's result, the game's end), the live message, panels."""
        kinds = [event_kind(ev) for ev in events]
        if self.staleness.enabled and "CardPlayed" in kinds:
            self.staleness.played(new, self._humans(new))
        for ev in events:
            kind = event_kind(ev)
            if kind == "HandScored":
                record = _record_of(new, getattr(ev, "hand_no", None))
                self.post(
                    new.id,
                    new.channel_id,
                    _hand_post(new, ev),
                    view=_hand_view(new, record),
                    pictures=hand_pictures(new, record) if record is not None else None,
                )
                if "GameOver" not in kinds:
                    # keep the live table at the bottom of the channel, below the hand's post
                    self._enqueue(new.id, self._repost_job(new.id))
            elif kind == "GameOver":
                self.post(
                    new.id,
                    new.channel_id,
                    lambda lang: render.game_post(new, lang),
                    view=lambda lang: game_over_view(new, lang),
                    pictures=game_pictures(new),
                )
        self.render_soon(new.id)
        self._refresh_panels(old, new, actor)

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

    async def _slot(self, level: int, table_id: int | None = None) -> None:
        """Wait for a request slot at ``level`` (no budget: at once)."""
        if self.budget is None:
            return
        ticket = self.budget.ticket(level)
        if table_id is not None:
            self._tickets[table_id] = ticket
        try:
            await ticket.wait()
        finally:
            if table_id is not None and self._tickets.get(table_id) is ticket:
                del self._tickets[table_id]

    async def _paid(self, level: int, request: Callable[[], Awaitable[Any]]) -> Any:
        """One channel request, sent once the budget grants it a slot."""
        await self._slot(level)
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
        pictures: Callable[[], list[Picture]] | None = None,
    ) -> None:
        """Queue a channel post behind the table's earlier ones. ``content`` (and ``view``) may be
        lazy: they are drawn in the server's language when the post goes out. ``pictures`` draws
        the files to attach; it runs in an executor (off the event loop), and a failure posts the
        text alone. ``sent`` is told the post's message id (None if it failed)."""

        async def job() -> None:
            lang = await self.language(table_id)
            text = content(lang) if callable(content) else text_in(content, lang)
            shown = view(lang) if callable(view) else view
            files: list[Picture] = []
            if pictures is not None and self.pictures:
                try:
                    files = await asyncio.get_running_loop().run_in_executor(None, pictures)
                except Exception:
                    log.exception("drawing the pictures of a post at table %s failed", table_id)
            extra: dict[str, Any] = {"files": files} if files else {}
            for attempt in range(RETRIES):
                try:
                    message_id = await self._paid(
                        POSTS, lambda: self.out.send(channel_id, text, view=shown, mention=mention, **extra)
                    )
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

    def delete(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Delete one of the table's posts, in order with its other posts."""

        async def job() -> None:
            await self.out.delete(channel_id, message_id)

        self._enqueue(table_id, job)

    def _repost_job(self, table_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            # under load an edit in place (one request) instead of a post and a delete
            self.render_soon(table_id, repost=not self._backlogged())

        return job

    def _enqueue(self, table_id: int, job: Callable[[], Awaitable[None]]) -> None:
        if self._closed:
            return
        q = self._outbox.setdefault(table_id, asyncio.Queue())
        q.put_nowait(job)
        task = self._posters.get(table_id)
        if task is None or task.done():
            self._posters[table_id] = asyncio.create_task(self._drain(table_id), name=f"outbox-{table_id}")

    async def _drain(self, table_id: int) -> None:
        q = self._outbox[table_id]
        while not q.empty():
            job = q.get_nowait()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a post for table %s failed", table_id)

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
        debounce = 0.25 * min(self.time_scale, 1.0)
        interval = EDIT_INTERVAL * min(self.time_scale, 1.0)
        failures = 0
        while table_id in self._dirty:
            await asyncio.sleep(debounce)
            wait = self._last_edit.get(table_id, 0.0) + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self._slot(self.level(table_id), table_id)
            self._dirty.discard(table_id)
            try:
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
                    await asyncio.sleep(RETRY_BASE * 2 ** (failures - 1) * min(self.time_scale, 1.0))
                else:
                    log.error("the live message of table %s could not be updated", table_id)
            except Exception:
                log.exception("rendering table %s failed", table_id)
            self._last_edit[table_id] = time.monotonic()

    async def _render_now(self, table_id: int) -> None:
        """Draw the table now and edit (or post) its live message; the request's slot is taken."""
        budget = self.budget
        t = self.store.get(table_id)
        if t is None:
            return
        lang = await self.language(table_id)
        t = self.store.get(table_id) or t
        drawn = time.monotonic()
        content = render.table_message(t, lang)
        view = table_view(t, lang)
        repost = table_id in self._repost
        self._repost.discard(table_id)
        if t.message_id is not None and not repost:
            with prepaid() if budget is not None else contextlib.nullcontext():
                edited = await self.out.edit(t.channel_id, t.message_id, content, view=view)
            if edited:
                self.staleness.public_shown(table_id, drawn)
                return
            await self._slot(self.level(table_id))  # the message is gone: a post takes another slot
        # (re)post at the bottom of the channel; the old one is removed to keep one live message
        old_id, channel_id = t.message_id, t.channel_id
        with prepaid() if budget is not None else contextlib.nullcontext():
            new_id = await self.out.send(channel_id, content, view=view)
        if new_id is None:
            return
        self.staleness.public_shown(table_id, drawn)
        if old_id is not None:
            await self._paid(self.level(table_id), lambda: self.out.delete(channel_id, old_id))
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is not None:
                t.message_id = new_id
                await self.store.save_quietly(t)

    # ---- hand panels: each human's latest ephemeral follows the table ---------------------------
    def remember_panel(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        """Keep a user's latest panel: only a ``PrivateMessage`` (an ephemeral message, never the
        public message a button sits on) can be remembered, so a refresh never shows a hand."""
        if not isinstance(panel, PrivateMessage):
            raise TypeError("only a private message (bot.safe.send_private) can hold a hand panel")
        self._panels[(table_id, user_id)] = (panel, time.monotonic())
        self._panel_shapes.pop((table_id, user_id), None)  # drawn by the click: redraw all next time
        # the click that drew it showed the table as it is
        self.staleness.panel_shown(table_id, user_id, time.monotonic())

    def refresh_panel(self, table_id: int, user_id: int) -> None:
        """Redraw a user's remembered panel soon (they acted by a typed command: the panel still
        shows the card they played)."""
        key = (table_id, user_id)
        remembered = self._panels.get(key)
        if remembered is None or time.monotonic() - remembered[1] > PANEL_TTL:
            return
        self._panel_shapes.pop(key, None)
        self._mark_panel(key)

    def _mark_panel(self, key: tuple[int, int]) -> None:
        self._panel_dirty.add(key)
        task = self._panel_tasks.get(key)
        if task is None or task.done():
            self._panel_tasks[key] = asyncio.create_task(self._panel_loop(key), name=f"panel-{key}")

    def _refresh_panels(self, old: Table, new: Table, actor: int | None = None) -> None:
        """Every other human's remembered panel is redrawn (coalesced): their turn, the trick."""
        for s in new.seats:
            if s is None or s.bot or s.user_id is None or s.user_id == actor:
                continue
            key = (new.id, s.user_id)
            remembered = self._panels.get(key)
            if remembered is None:
                continue
            if time.monotonic() - remembered[1] > PANEL_TTL:
                del self._panels[key]
                continue
            self._mark_panel(key)

    async def _panel_loop(self, key: tuple[int, int]) -> None:
        interval = PANEL_INTERVAL * min(self.time_scale, 1.0)
        while key in self._panel_dirty and key in self._panels:
            self._panel_dirty.discard(key)
            await self._refresh_panel(*key)
            await asyncio.sleep(interval)
        self._panel_tasks.pop(key, None)

    @staticmethod
    def _panel_shape(t: Table | None, user_id: int) -> tuple[Any, ...] | None:
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

    async def _refresh_panel(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        remembered = self._panels.get(key)
        if remembered is None:
            return
        panel = remembered[0]
        drawn = time.monotonic()
        t = self.store.get(table_id)
        lang = user_language(panel.interaction)
        shape = self._panel_shape(t, user_id)
        if shape is not None and self._panel_shapes.get(key) == shape:
            # the text only (the trick, the turn): drawing the buttons again costs ~10x more
            assert t is not None
            seat = t.seat_of(user_id)
            assert seat is not None
            ok = await panel.edit(render.hand_panel_text(t, seat, lang=lang), view=None, text_only=True)
        else:
            content, view = hand_panel(t, user_id, lang=lang)
            ok = await panel.edit(content, view=view)
            if ok and shape is not None:
                self._panel_shapes[key] = shape
        if not ok:
            if self._panels.get(key, (None,))[0] is panel:
                self._panels.pop(key, None)
                self._panel_shapes.pop(key, None)
            return
        self.staleness.panel_shown(table_id, user_id, drawn)

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
            or table_id in self._posters
            or table_id in self._outbox
            or table_id in self._last_edit
            or any(k[0] == table_id for k in self._panels)
            or any(k[0] == table_id for k in self._panel_tasks)
        )

    def queued(self) -> int:
        """Channel posts waiting to go out, all tables (the health line)."""
        return sum(q.qsize() for q in self._outbox.values())

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
        self._outbox.pop(table_id, None)
        self._posters.pop(table_id, None)
        self._tickets.pop(table_id, None)
        for key in [k for k in self._panels if k[0] == table_id]:
            del self._panels[key]
        self._panel_dirty = {k for k in self._panel_dirty if k[0] != table_id}
        for key in [k for k in self._panel_shapes if k[0] == table_id]:
            del self._panel_shapes[key]
        for key in [k for k in self._panel_tasks if k[0] == table_id]:
            self._panel_tasks.pop(key).cancel()

    async def close(self, *, drain: float = 2.0) -> None:
        """Give queued posts (a hand's result, say) ``drain`` seconds to go out, then stop."""
        self._closed = True
        posters = [t for t in self._posters.values() if not t.done()]
        if posters and drain > 0:
            await asyncio.wait(posters, timeout=drain)
        await cancel_all([*self._renders.values(), *self._posters.values(), *self._panel_tasks.values()])


# ---- pictures of hand and game posts (the data is read now, the drawing runs in an executor) ----

def _record_of(t: Table, hand_no: int | None) -> dict[str, Any] | None:
    if t.game is None:
        return None
    for rec in reversed(t.game.hand_records):
        if hand_no is None or rec.get("hand_no") == hand_no:
            return rec
    return None


def _picture_names(t: Table) -> list[str]:
    return [picture_name(s.name if s is not None else "", i) for i, s in enumerate(t.seats)]


def hand_pictures(t: Table, record: dict[str, Any]) -> Callable[[], list[Picture]]:
    """The table after this hand: seats, bids and tricks, the score."""
    scene = hand_scene(record, _picture_names(t), subtitle=t.ruleset.describe()[:70])
    name = f"hand-{record.get('hand_no', 0)}.png"
    return lambda: [(name, table_png(scene))]


def game_pictures(t: Table) -> Callable[[], list[Picture]] | None:
    """At game over: the final table with the winner, and the score over the game's hands."""
    g = t.game
    if g is None or not g.hand_records:
        return None
    names = _picture_names(t)
    records = list(g.hand_records)
    scene = hand_scene(records[-1], names, winner=g.winner, subtitle=t.ruleset.describe()[:70])
    series = game_series(records, names, winner=g.winner, title=f"Score by hand · table {t.id}")
    return lambda: [("game.png", table_png(scene)), ("scores.png", score_chart_png(series))]
