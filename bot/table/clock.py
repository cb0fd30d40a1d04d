"""The turn clock: bot turns, reminders, turn timeouts and away players.

One driver task per playing table, restarted after every saved change (it subscribes to the
store). A human gets at most one reminder per turn (``Reminder``): deleted once they acted, edited
to say when the bot played for them once it did; a seat the bot plays for (away, gone) gets none.
A bot seat (or an away player's) plays at the table's level (``settings["bot_level"]``),
thinking off the event loop during its human-like pause (`bot.table.thinker`); a player who just
ran out of time is played by the normal bot at once. Every move goes through the store's commit.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from dataclasses import dataclass
from typing import Any

import engine
from bot import i18n
from bot.clock import Clock
from bot.model import AWAY_AFTER_TIMEOUTS, Table, humans_to_act
from bot.table.players import Players
from bot.table.publisher import TablePublisher
from bot.table.store import TableStore
from bot.table.thinker import Thinker, decide, level_or_default
from bot.tasks import cancel_all
from engine import Game

log = logging.getLogger(__name__)


def bot_action(game: Game, seat: int, seed: int | None = None) -> Any:
    """Ask the normal bot what ``seat`` should do now (an engine Action), inline: for players who
    ran out of time or are away. It sees only the seat's own view, like a player would."""
    return decide(game, seat, "normal", seed, 0.0)  # (no search: the deadline is not read)


@dataclass
class Reminder:
    """A reminder posted (or queued) for one turn of one player."""

    user_id: int
    deadline: float  # the turn's deadline: one reminder per deadline
    message_id: int | None = None  # once it went out

    def sent(self, message_id: int | None) -> None:
        self.message_id = message_id

    def target(self) -> int | None:
        """Its message, asked when a later job of the table's ordered posts runs (it is out then)."""
        return self.message_id


class TurnClock:
    """Drives every playing table: the bots' moves, reminders and timeouts."""

    def __init__(
        self,
        store: TableStore,
        publisher: TablePublisher,
        *,
        clock: Clock,
        seed: int | None = None,
        thinker: Thinker | None = None,
        players: Players | None = None,
    ) -> None:
        self.thinker = thinker if thinker is not None else Thinker()
        self.players = players
        self._pinged: dict[tuple[int, int], float] = {}  # (table, user) -> the turn's deadline
        self._pings: dict[tuple[int, int], int] = {}  # (table, user) -> the ping's message
        self._reminders: dict[tuple[int, int], Reminder] = {}  # (table, user) -> this turn's reminder
        self.store = store
        self.publisher = publisher
        self.time = clock  # every pause, reminder and timeout waits on it
        self.seed = seed
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def schedule(self, t: Table) -> None:
        """(Re)start the table's driver: bot turns, reminders and turn timeouts."""
        old = self._drivers.pop(t.id, None)
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        if (self._pings or self._reminders) and not self._closed:
            self._clear_pings(t)
        if self._closed or t.status != "playing" or t.game is None or not t.seats_to_act():
            return
        self._drivers[t.id] = asyncio.create_task(self._drive(t.id, t.stamp), name=f"driver-{t.id}")

    async def _drive(self, table_id: int, stamp: int) -> None:
        t = self.store.get(table_id)
        if t is None or t.stamp != stamp:
            return
        if self._pings or self._reminders:
            self._clear_pings(t)
        auto = [s for s in t.seats_to_act() if (seat := t.seats[s]) is not None and seat.automatic]
        if auto:
            # bots take a human-like moment, unless every player has left: then nobody is watching
            # and the bots finish the game (it still counts) without keeping the channel busy.
            # The bot thinks during that moment (off the event loop), so it acts when the pause is
            # over, or when its search is, whichever comes later (the search stops at the pause:
            # its budget is the pause in real time, which a faster clock shortens).
            everyone_left = not any(s is not None and not s.bot and not s.left for s in t.seats)
            pause = 0.02 if everyone_left else random.uniform(1.0, 1.5)
            assert t.game is not None
            seat_no = auto[0]
            level = level_or_default(t.settings.get("bot_level"))  # bots and away players alike
            thinking = asyncio.ensure_future(
                self.thinker.plan(t.game.clone(), seat_no, level, self.seed, self.time.real_seconds(pause))
            )
            try:
                await self.time.sleep(pause)
                planned = await thinking
            finally:
                if not thinking.done():
                    thinking.cancel()
            await self._auto(table_id, stamp, [seat_no], timed_out=False, planned={seat_no: planned})
            return
        humans = humans_to_act(t)
        if not humans:
            return
        if t.deadline is None:  # (only for tables saved without one) start the clock now
            t.deadline = self.time.now() + t.turn_seconds()
        deadline = t.deadline  # the same for every table state with this stamp
        self._ping_turns(t, humans, deadline)
        lead = min(15.0, t.turn_seconds() / 4)
        remind_at = deadline - lead
        if self.time.now() < remind_at:
            await self.time.sleep(remind_at - self.time.now())
            t = self.store.get(table_id)
            if t is None or t.stamp != stamp:
                return
            for s in humans:
                seat = t.seats[s]
                if seat is not None and seat.user_id is not None and not seat.automatic:
                    self._remind(t, seat.user_id, deadline)
        if self.time.now() < deadline:
            await self.time.sleep(deadline - self.time.now())
        await self._auto(table_id, stamp, humans, timed_out=True)

    async def _auto(
        self,
        table_id: int,
        stamp: int,
        seats: list[int],
        *,
        timed_out: bool,
        planned: dict[int, list[Any]] | None = None,
    ) -> None:
        """A bot acts for ``seats`` (bots, away players, or players who timed out): the actions in
        ``planned`` (decided on the table state of ``stamp``), else the normal bot's."""
        async with self.store.lock(table_id):
            t = self.store.get(table_id)
            if t is None or t.stamp != stamp or t.game is None or t.status != "playing":
                return
            new = t.copy()
            assert new.game is not None
            events: list[Any] = []
            acted = [
                s
                for s in seats
                if self._bot_turn(new, s, events, timed_out=timed_out, planned=(planned or {}).get(s))
            ]
            if not acted:
                return
            reminded: dict[int, Reminder] = {}
            for s in acted:
                seat = new.seats[s]
                if seat is not None and not seat.bot:
                    seat.auto_acts += 1  # the bot played this human's turn
                    if timed_out and seat.user_id is not None:
                        # (taken before the commit: its listeners would delete it as a turn over)
                        reminder = self._reminders.pop((table_id, seat.user_id), None)
                        if reminder is not None:
                            reminded[s] = reminder
            refusal = await self.store.commit(t, new, events=events, touched=acted)
            if refusal is not None:
                for reminder in reminded.values():  # (still this turn's)
                    self._reminders[(table_id, reminder.user_id)] = reminder
                # storage trouble: try again shortly rather than stall the table
                await self.time.sleep(2.0)
                cur = self.store.get(table_id)
                if cur is not None:
                    self.schedule(cur)
                return
        if timed_out:
            played = i18n.timestamp(self.time.now(), "t")
            for s in acted:
                seat = new.seats[s]
                if seat is None or seat.user_id is None:
                    continue
                away = i18n._(
                    "💤 %(who)s missed two turns in a row and is marked away; the bot plays for them "
                    "until they press **I'm back**.",
                    who=seat.label,
                )
                reminder = reminded.get(s)
                if reminder is not None:
                    # the turn's reminder says what happened instead of a post of its own
                    text = (
                        away
                        if seat.away
                        else i18n._(
                            "⏰ %(user)s: the bot played for you at %(when)s.",
                            user=i18n.mention(seat.user_id),
                            when=played,
                        )
                    )
                    self.publisher.edit_post(t.id, t.channel_id, reminder.target, text)
                    continue
                note = i18n._("⏱ %(who)s ran out of time; the bot acted for them.", who=seat.label)
                self.publisher.post(t.id, t.channel_id, away if seat.away else note)

    def _bot_turn(
        self, new: Table, s: int, events: list[Any], *, timed_out: bool, planned: list[Any] | None = None
    ) -> bool:
        """The bot acts for seat ``s`` on the working copy ``new``; True if it did."""
        assert new.game is not None
        done = False
        todo = list(planned or [])
        # a look does not end the turn: the bot goes on to bid in the same step
        for _ in range(3):
            if s not in new.game.seats_to_act():
                break
            try:
                action = todo.pop(0) if todo else bot_action(new.game, s, self.seed)
                events.extend(new.game.apply(action) or [])
            except (engine.IllegalAction, ValueError) as exc:
                # never log the message: it may name the seat's cards
                log.error(
                    "the bot chose an illegal action at table %s (%s)",
                    new.id,
                    getattr(exc, "reason", None) or getattr(exc, "code", type(exc).__name__),
                )
                break
            done = True
            if not isinstance(action, engine.Look):
                break
        if not done:
            return False
        seat = new.seats[s]
        if timed_out and seat is not None and not seat.bot:
            seat.timeouts += 1
            if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
                seat.away = True
        return True

    def _ping_turns(self, t: Table, humans: list[int], deadline: float) -> None:
        """Ping the players who asked for it (``/spades me``) once when their turn starts."""
        if self.players is None:
            return
        for s in humans:
            seat = t.seats[s]
            uid = seat.user_id if seat is not None else None
            if uid is None or not self.players.get(uid).turn_ping:
                continue
            if self._pinged.get((t.id, uid)) == deadline:
                continue
            self._pinged[(t.id, uid)] = deadline
            if (t.id, uid) in self._pings:  # (the last turn's ping)
                self.publisher.delete(t.id, t.channel_id, self._pings.pop((t.id, uid)))
            self.publisher.post(
                t.id,
                t.channel_id,
                i18n._("🔔 %(player)s, your turn at table %(table)s.", player=i18n.mention(uid), table=t.id),
                mention=uid,
                sent=functools.partial(self._remember_ping, (t.id, uid)),
            )

    def _remind(self, t: Table, user_id: int, deadline: float) -> None:
        """One reminder for this turn of ``user_id`` (none if one went out for it already)."""
        key = (t.id, user_id)
        old = self._reminders.get(key)
        if old is not None and old.deadline == deadline:
            return
        if old is not None:  # (a turn of theirs with another deadline: that one is over)
            self.publisher.delete(t.id, t.channel_id, old.target)
        reminder = self._reminders[key] = Reminder(user_id, deadline)
        self.publisher.post(
            t.id,
            t.channel_id,
            i18n._(
                "⏰ %(user)s, it's your turn at table %(table)s: the bot plays for you %(when)s.",
                user=i18n.mention(user_id),
                table=t.id,
                when=i18n.timestamp(deadline, "R"),
            ),
            mention=user_id,
            sent=reminder.sent,
        )

    def _clear_pings(self, t: Table) -> None:
        """Delete the pings and reminders whose turn is over: the channel keeps only the ones that
        matter now (a reminder's post may still be queued: its delete runs after it)."""
        acting = {seat.user_id for s in humans_to_act(t) if (seat := t.seats[s]) is not None}
        over = t.status != "playing"
        for key in [k for k in self._pings if k[0] == t.id and (over or k[1] not in acting)]:
            self.publisher.delete(t.id, t.channel_id, self._pings.pop(key))
        for key in [k for k in self._reminders if k[0] == t.id]:
            reminder = self._reminders[key]
            if over or key[1] not in acting or (t.deadline is not None and reminder.deadline != t.deadline):
                del self._reminders[key]
                self.publisher.delete(t.id, t.channel_id, reminder.target)

    def _remember_ping(self, key: tuple[int, int], message_id: int | None) -> None:
        if message_id is not None:
            self._pings[key] = message_id

    def drop(self, table_id: int) -> None:
        self._drivers.pop(table_id, None)
        for key in [k for k in self._pings if k[0] == table_id]:
            del self._pings[key]
        for key in [k for k in self._pinged if k[0] == table_id]:
            del self._pinged[key]
        for key in [k for k in self._reminders if k[0] == table_id]:
            del self._reminders[key]

    def stop(self, table_id: int) -> None:
        """Cancel the table's driver (its shard went to another process) and forget it."""
        task = self._drivers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def holds(self, table_id: int) -> bool:
        return table_id in self._drivers

    async def close(self) -> None:
        self._closed = True
        await cancel_all(self._drivers.values())
        await self.thinker.aclose()
