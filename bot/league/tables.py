"""League tables over the table service: a thread per table, results, calling time.

``ServiceTables`` implements :class:`bot.league.discord_io.LeagueTables` with the same table
machinery as any game (``TableService.lifecycle.open_seated``): timers, bots for absent players,
restart safety. Results come from storage (a game saved before a restart is still found), and the
service's game-finished listener tells the league at once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import Text, _, gettext, join, render
from bot.i18n import mention as user_mention
from bot.model import LIVE, Seat, Table
from bot.storage import FinishedGame, HandResult
from bot.storage.leagues import LeagueStore
from bot.table.service import TableService
from engine.ruleset import Ruleset

from .gateway import SeatState
from .service import LeagueService, TableOutcome
from .settings import AS_IT_STANDS, DRAW, FEWER_BAGS, OVERTIME

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 1440

#: the notice every table of a round gets when its time is up and the hand in progress is its last
LAST_HAND = {
    OVERTIME: _(
        "⏱️ Time is up for this league round: **last hand**. This hand is played to its end; the higher"
        " score then wins, and a tie plays one overtime hand."
    ),
    FEWER_BAGS: _(
        "⏱️ Time is up for this league round: **last hand**. This hand is played to its end; the higher"
        " score then wins, and a tie goes to the side with fewer bags."
    ),
    DRAW: _(
        "⏱️ Time is up for this league round: **last hand**. This hand is played to its end; the higher"
        " score then wins, and a tie is a draw."
    ),
}
#: what a league table's players are told when it opens: what happens when the round's time is up
TIME_CALL_NOTE = {
    OVERTIME: _(
        "When the round's time is up the hand in progress is the last; a tie plays one overtime hand."
    ),
    FEWER_BAGS: _("When the round's time is up the hand in progress is the last; a tie goes to fewer bags."),
    DRAW: _("When the round's time is up the hand in progress is the last; a tie is a draw."),
    AS_IT_STANDS: _("When the round's time is up the game stops and counts as it stands."),
}
OVERTIME_HAND = _(
    "🔔 The scores are level after the last hand: one **overtime hand** decides (a tie after it is a draw)."
)


def seat_counts(t: Table | None) -> dict[int, tuple[int, int]]:
    """{player: (the seat's actions, of those the bot's)} of a table's human seats."""
    if t is None:
        return {}
    return {
        s.user_id: (s.acts, s.auto_acts)
        for s in t.seats
        if s is not None and not s.bot and s.user_id is not None
    }


def outcome_of_game(game: FinishedGame, table: Table | None = None) -> TableOutcome:
    return TableOutcome(
        scores=[int(s.get("score", 0)) for s in game.sides],
        bags=[int(s.get("bags", 0)) for s in game.sides],
        winner_side=game.winner_side,
        complete=True,
        seats=seat_counts(table),
    )


def outcome_as_it_stands(t: Table) -> TableOutcome:
    """The scores of an unfinished game when time is called; the leader wins, a level game has no winner."""
    n = t.ruleset.num_sides
    if t.game is None:
        return TableOutcome([0] * n, [0] * n, None, complete=False, seats=seat_counts(t))
    scores = [int(x) for x in t.game.scores]
    bags = [int(x) for x in t.game.bags]
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    return TableOutcome(
        scores, bags, leaders[0] if len(leaders) == 1 else None, complete=False, seats=seat_counts(t)
    )


class ServiceTables:
    def __init__(self, client: discord.Client, tables: TableService, store: LeagueStore) -> None:
        self.client = client
        self.tables = tables
        self.store = store

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def _name(self, guild_id: int, user_id: int) -> str:
        guild = self.client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            return str(member.display_name)
        # a member Discord no longer knows: a stand-in name, in the server's language (the
        # table's public messages show it)
        lang = await self.tables.server_language(guild_id)
        return gettext(lang, "Player %(n)s", n=str(user_id)[-4:])

    def _already_open(self, league_table_id: int) -> Table | None:
        for t in self.tables.tables.values():
            if t.status in LIVE and t.settings.get("league_table") == league_table_id:
                return t
        return None

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: Text,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int] | None:
        """``settings``: the league's turn timers (``bid_seconds``, ``play_seconds``), its
        ``time_call`` (told to the players when the table opens) and, in a duplicate round, the
        round's deal seed and salt (``duplicate``: the table is dealt from them)."""
        existing = self._already_open(league_table_id)  # opened just before a restart
        if existing is not None:
            return existing.channel_id, existing.id
        where = channel_id
        channel = await self._channel(channel_id)
        create_thread = getattr(channel, "create_thread", None)
        if create_thread is not None:
            try:
                lang = await self.tables.server_language(guild_id)
                thread = await create_thread(
                    name=render(title, lang)[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
                where = thread.id
            except discord.HTTPException as exc:
                log.info(
                    "league table %s: no thread (%s); playing in the channel", league_table_id, exc.status
                )
        chairs: list[Seat | None] = []
        for uid in seats:
            chairs.append(None if uid is None else Seat(uid, await self._name(guild_id, uid)))
        me = self.client.user
        wanted = dict(settings or {})
        timers: dict[str, Any] = {k: int(wanted[k]) for k in ("bid_seconds", "play_seconds") if k in wanted}
        if isinstance(wanted.get("duplicate"), dict):  # the round's shared deals (engine.duplicate)
            timers["duplicate"] = {k: str(v) for k, v in wanted["duplicate"].items()}
        result = await self.tables.lifecycle.open_seated(
            guild_id=guild_id,
            channel_id=where,
            host_id=me.id if me is not None else 0,
            seats=chairs,
            ruleset=ruleset,
            settings={**timers, "league_table": league_table_id},
            start=True,
        )
        if not result.ok or result.table is None:
            log.warning("league table %s could not open: %s", league_table_id, result.code)
            return None
        note = TIME_CALL_NOTE.get(str(wanted.get("time_call", "")))
        # in its thread, or (no thread permission) in the channel, where a round's later tables
        # open one after another: each table's players are called when it opens, not only seated
        await self._call_players(guild_id, where, title, [u for u in seats if u is not None], note)
        return where, result.table.id

    async def _call_players(
        self, guild_id: int, thread_id: int, title: Text, players: list[int], note: Text | None = None
    ) -> None:
        """ "Your table is ready" in the table's thread, pinging exactly its seated players, with
        what happens when the round's time is up (``note``)."""
        mentions = " ".join(user_mention(u) for u in players)
        ready: Text = _("🃏 %(title)s: %(players)s, your table is ready.", title=title, players=mentions)
        if note is not None:
            ready = join(ready, note, sep="\n")
        try:
            thread = await self._channel(thread_id)
            lang = await self.tables.server_language(guild_id)
            await thread.send(
                render(ready, lang),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in players]
                ),
            )
        except discord.HTTPException:
            log.warning("calling the players of thread %s failed", thread_id, exc_info=True)

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        """Give ``out_id``'s seat at a live table to ``in_id`` (the game goes on; the new player's hand
        is the seat's hand). False when the table is over or the player is not seated there."""
        name = await self._name(guild_id, in_id)
        async with self.tables.store.lock(table_id):
            t = self.tables.get(table_id)
            if t is None or t.status not in LIVE:
                return False
            seat = t.seat_of(out_id)
            if seat is None or t.seat_of(in_id) is not None:
                return False
            new = t.copy()
            old = new.seats[seat]
            new.seats[seat] = Seat(in_id, name, acts=old.acts if old is not None else 0)
            if await self.tables.store.commit(t, new, touched=[seat]) is not None:
                return False
        self.tables.posts.post(
            table_id,
            t.channel_id,
            _(
                "🔁 %(player)s takes over %(absent)s's seat (a league substitute).",
                player=user_mention(in_id),
                absent=user_mention(out_id),
            ),
        )
        return True

    async def seat_states(self, table_id: int) -> dict[int, SeatState] | None:
        t = self.tables.get(table_id)
        if t is None or t.status not in LIVE:
            return None
        return {
            s.user_id: SeatState(s.acts, s.auto_acts, s.automatic)
            for s in t.seats
            if s is not None and not s.bot and s.user_id is not None
        }

    async def release_seat(self, table_id: int, user_id: int) -> bool:
        """The player checked out (or missed the table): the bot plays their seat from now on, as if
        they had left (a standby can take it over)."""
        async with self.tables.store.lock(table_id):
            t = self.tables.get(table_id)
            if t is None or t.status not in LIVE:
                return False
            seat = t.seat_of(user_id)
            if seat is None:
                return False
            new = t.copy()
            ns = new.seats[seat]
            assert ns is not None
            if ns.left:
                return True
            ns.left, ns.away, ns.timeouts = True, False, 0
            if await self.tables.store.commit(t, new, touched=[seat]) is not None:
                return False
        self.tables.posts.post(
            table_id,
            t.channel_id,
            _("🚪 %(player)s is out for tonight: 🤖 the bot plays their seat.", player=user_mention(user_id)),
        )
        return True

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        game = await self.store.rounds.game_for_table(table_id)
        t = self.tables.get(table_id) or await self.tables.load(table_id)
        if game is not None:
            return TableOutcome(
                game["scores"], game["bags"], game["winner_side"], True, game["game_id"], seat_counts(t)
            )
        if t is not None and t.status == "abandoned":
            return outcome_as_it_stands(t)  # closed without an end (an admin abandoned it)
        return None

    async def call_time(self, table_id: int, time_call: str = AS_IT_STANDS) -> TableOutcome | None:
        """Time is up at a live league table. ``as_it_stands``: the game stops and its scores count
        (returned). Otherwise the hand in progress becomes the last (``engine.Game.call_time`` with
        the league's tiebreak), every player is told, and None is returned: the result comes when
        the game ends (the game-finished listener). Calling again changes nothing."""
        t = self.tables.get(table_id)
        if t is None or t.status not in LIVE:
            return await self.table_outcome(table_id)
        if time_call != AS_IT_STANDS and t.game is not None:
            return await self._last_hand(t, time_call)
        outcome = outcome_as_it_stands(t)
        self.tables.posts.post(
            table_id, t.channel_id, _("⏱️ Time is up for this league round: the game is scored as it stands.")
        )
        me = self.client.user
        result = await self.tables.lifecycle.abandon(
            t.channel_id,
            me.id if me is not None else t.host_id,
            is_admin=True,
            confirmed=True,
            table_id=table_id,
        )
        if not result.ok:
            # the game ended at this very moment: its real result counts
            return await self.table_outcome(table_id)
        return outcome

    async def _last_hand(self, table: Table, tiebreak: str) -> TableOutcome | None:
        async with self.tables.store.lock(table.id):
            t = self.tables.get(table.id)
            if t is None or t.status not in LIVE or t.game is None:
                return await self.table_outcome(table.id)
            if t.game.time_call is not None:
                return None  # called already: its last hand is being played
            new = t.copy()
            assert new.game is not None
            new.game.call_time(tiebreak)
            refused = await self.tables.store.commit(t, new)
        if refused is not None:
            log.warning("league table %s: time could not be called (%s); next tick", t.id, refused.code)
            return None
        log.info("league table %s: time called (%s), last hand %s", t.id, tiebreak, t.game.hand_no)
        self.tables.posts.post(t.id, t.channel_id, LAST_HAND[tiebreak])
        self.tables.posts.render_soon(t.id)
        return None

    async def stop_table(self, table_id: int, *, cancelled: bool, forfeit: bool = False) -> None:
        """Stop a live league table without a result (the night cancelled, the table voided, or
        awarded by forfeit)."""
        t = self.tables.get(table_id)
        if t is None or t.status not in LIVE:
            return
        if cancelled:
            note = _("✖️ This league night is cancelled: the game stops here and does not count.")
        elif forfeit:
            note = _(
                "🏳️ A league admin awarded this table by forfeit: the game stops here; the standings"
                " show the forfeit."
            )
        else:
            note = _("✖️ A league admin voided this table: the game stops here and does not count.")
        self.tables.posts.post(table_id, t.channel_id, note)
        me = self.client.user
        await self.tables.lifecycle.abandon(
            t.channel_id,
            me.id if me is not None else t.host_id,
            is_admin=True,
            confirmed=True,
            table_id=table_id,
        )


def listen(tables: TableService, leagues: LeagueService) -> None:
    """Tell the league service about every finished game (and rate it), without blocking the table."""

    def on_game_finished(table: Table, game: FinishedGame) -> None:
        async def run() -> None:
            if table.settings.get("league_table"):
                await leagues.game_finished(table.id, outcome_of_game(game, table))
            await leagues.rate_pending()

        leagues.spawn(run(), f"game-{table.id}")

    def on_hand_finished(table: Table, hand: HandResult) -> None:
        game = table.game
        # the last hand at time ended level: the overtime hand is dealt now (once: it ends the game)
        if table.settings.get("league_table") and game is not None and game.overtime and not game.over:
            tables.posts.post(table.id, table.channel_id, OVERTIME_HAND)

    tables.on_game_finished(on_game_finished)
    tables.on_hand_finished(on_hand_finished)
