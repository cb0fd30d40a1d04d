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
REFUSALS_TO_STOP = 2  # posts refused in a row (403, or the channel gone) before a table stops there

#: a post: text (lazy texts are rendered in the server's language) or a function of the language
Content = Any
Language = Callable[[int], Awaitable[str]]


async def _english(table_id: int) -> str:
    return DEFAULT


def _hand_post(table: Table, ev: Any) -> Callable[[str], str]:
    return lambda lang: render.hand_post(table, ev, lang)


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
    """Posts in order per table, one coalesced live message per table, and the hand panels."""

    def __init__(self, store: TableStore, out: Publisher, *, time_scale: float = 1.0) -> None:
        self.store = store
        self.out = out
        self.time_scale = time_scale
        self._renders: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._repost: set[int] = set()
        self._last_edit: dict[int, float] = {}
        self._outbox: dict[int, asyncio.Queue[Callable[[], Awaitable[None]]]] = {}
        self._posters: dict[int, asyncio.Task[None]] = {}
        # the latest ephemeral hand panel per (table, user), refreshed when their turn comes
        self._panels: dict[tuple[int, int], tuple[PrivateMessage, float]] = {}
        self._panel_tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self.pictures = True  # attach the table picture and score chart to hand and game posts
        #: the language of a table's public messages (the service sets the server's)
        self.language: Language = _english

    # ---- after a saved change ------------------------------------------------------------
    def after(self, old: Table, new: Table, events: list[Any], actor: int | None = None) -> None:
        """The posts a change causes (a hand's result, the game's end), the live message, panels."""
        kinds = [event_kind(ev) for ev in events]
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
            if files:
                message_id = await self.out.send(channel_id, text, view=shown, mention=mention, files=files)
            else:
                message_id = await self.out.send(channel_id, text, view=shown, mention=mention)
            if sent is not None:
                sent(message_id)

        self._enqueue(table_id, job)

    def delete(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Delete one of the table's posts, in order with its other posts."""

        async def job() -> None:
            await self.out.delete(channel_id, message_id)

        self._enqueue(table_id, job)

    def _repost_job(self, table_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            self.render_soon(table_id, repost=True)

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
        """Coalesce edits: one edit per table after a short debounce, at most ~1 per second."""
        if self._closed or table_id not in self.store.tables:  # (an evicted table has nothing to show)
            return
        if repost:
            self._repost.add(table_id)
        self._dirty.add(table_id)
        task = self._renders.get(table_id)
        if task is None or task.done():
            self._renders[table_id] = asyncio.create_task(
                self._render_loop(table_id), name=f"render-{table_id}"
            )

    async def _render_loop(self, table_id: int) -> None:
        debounce = 0.25 * min(self.time_scale, 1.0)
        interval = EDIT_INTERVAL * min(self.time_scale, 1.0)
        while table_id in self._dirty:
            await asyncio.sleep(debounce)
            wait = self._last_edit.get(table_id, 0.0) + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(table_id)
            try:
                await self._render_now(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rendering table %s failed", table_id)
            self._last_edit[table_id] = time.monotonic()

    async def _render_now(self, table_id: int) -> None:
        t = self.store.get(table_id)
        if t is None:
            return
        lang = await self.language(table_id)
        t = self.store.get(table_id) or t
        content = render.table_message(t, lang)
        view = table_view(t, lang)
        repost = table_id in self._repost
        self._repost.discard(table_id)
        if (
            t.message_id is not None
            and not repost
            and await self.out.edit(t.channel_id, t.message_id, content, view=view)
        ):
            return
        # (re)post at the bottom of the channel; the old one is removed to keep one live message
        old_id = t.message_id
        new_id = await self.out.send(t.channel_id, content, view=view)
        if new_id is None:
            return
        if old_id is not None:
            await self.out.delete(t.channel_id, old_id)
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is not None:
                t.message_id = new_id
                await self.store.save_quietly(t)

    # ---- hand panels: refresh the user's latest ephemeral when their turn comes -------------------
    def remember_panel(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        """Keep a user's latest panel: only a ``PrivateMessage`` (an ephemeral message, never the
        public message a button sits on) can be remembered, so a refresh never shows a hand."""
        if not isinstance(panel, PrivateMessage):
            raise TypeError("only a private message (bot.safe.send_private) can hold a hand panel")
        self._panels[(table_id, user_id)] = (panel, time.monotonic())

    def refresh_panel(self, table_id: int, user_id: int) -> None:
        """Redraw a user's remembered panel now (they acted by a typed command: the panel still
        shows the card they played)."""
        remembered = self._panels.get((table_id, user_id))
        if remembered is None or time.monotonic() - remembered[1] > PANEL_TTL:
            return
        task = asyncio.create_task(self._refresh_panel(table_id, user_id, remembered[0]))
        self._panel_tasks.add(task)
        task.add_done_callback(self._panel_tasks.discard)

    def _refresh_panels(self, old: Table, new: Table, actor: int | None = None) -> None:
        """Redraw the remembered panels a change made stale: the seat's turn came or went, something
        acted for the seat (a bot, a setting), or a new hand was dealt. The actor's own panel is
        redrawn by whoever answers them."""
        before = set(old.seats_to_act())
        after = set(new.seats_to_act())
        new_hand = (old.game.hand_no if old.game else None) != (new.game.hand_no if new.game else None)
        for seat, s in enumerate(new.seats):
            if s is None or s.bot or s.user_id is None or s.user_id == actor:
                continue
            remembered = self._panels.get((new.id, s.user_id))
            if remembered is None:
                continue
            inter, since = remembered
            if time.monotonic() - since > PANEL_TTL:
                del self._panels[(new.id, s.user_id)]
                continue
            olds = old.seats[seat] if seat < len(old.seats) else None
            acted_for = olds is not None and olds.acts != s.acts
            if (seat in after) == (seat in before) and not acted_for and not new_hand:
                continue
            task = asyncio.create_task(self._refresh_panel(new.id, s.user_id, inter))
            self._panel_tasks.add(task)
            task.add_done_callback(self._panel_tasks.discard)

    async def _refresh_panel(self, table_id: int, user_id: int, panel: PrivateMessage) -> None:
        lang = user_language(panel.interaction)
        content, view = hand_panel(self.store.get(table_id), user_id, lang=lang)
        if not await panel.edit(content, view=view):
            self._panels.pop((table_id, user_id), None)

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
        for key in [k for k in self._panels if k[0] == table_id]:
            del self._panels[key]

    async def close(self, *, drain: float = 2.0) -> None:
        """Give queued posts (a hand's result, say) ``drain`` seconds to go out, then stop."""
        self._closed = True
        posters = [t for t in self._posters.values() if not t.done()]
        if posters and drain > 0:
            await asyncio.wait(posters, timeout=drain)
        await cancel_all([*self._renders.values(), *self._posters.values(), *self._panel_tasks])


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
