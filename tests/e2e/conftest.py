"""End-to-end harness: a real ``SpadesBot`` (real cogs, real database) against the fake Discord.

The database is a SQLite file; a test marked ``@pytest.mark.both_backends`` (or a module with
``pytestmark = pytest.mark.both_backends``) runs twice: on SQLite, then on a fresh database of the
real PostgreSQL server the tests start (tests/postgres_server.py).

``spades`` gives a world (a server, a channel, five users and an admin) and ``spades.running()``
starts a bot process on the world's database file; leaving it closes that process, so a second
``running()`` on the same world is a restart. The helpers act only through Discord (slash commands,
clicks, selects), in two ways:

- ``open_and_start`` / ``play_from_panel`` / ``game_posts`` (the end of this file) know only what
  Discord shows: the channel's messages and a player's own panel. Prefer them.
- ``Spades.decide`` / ``play_until`` / ``wait_turn`` (older) *read* the table service's state to
  know whose turn it is and to choose a move as the heuristic bot would; they never change it.

``check_public`` reads which cards are held to check that no public message shows one (an
invariant about what Discord shows); ``stored_table`` reads what is stored, on its own connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import engine
from bot.client import SpadesBot
from bot.config import Config, Faults
from bot.model import NO_TABLE, Table
from bot.sandbox.fake import Channel, FakeDiscord, Guild, InteractionResult, Message, User
from bot.sandbox.fake.rest.ratelimits import GLOBAL_LIMIT
from bot.storage import Storage, TableRow
from bot.storage.leagues import LeagueStore, NightRow
from bot.table.service import TableService
from engine.bots import get_bot

LIVE_PREFIX = "♠ **Spades**"
CARD_ID = re.compile(r"^sp:\d+:c:\d+:(\d+)$")


@dataclass
class Spades:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    users: dict[str, User]
    db_path: str  # a SQLite file, or a postgresql:// URL
    bot: SpadesBot | None = None
    checked: dict[int, int] = field(default_factory=dict)  # message id -> versions already checked
    public_checks: int = 0
    last_table: Table | None = None  # the newest table this harness has seen
    # the bot's own fault-injection settings (bot.config.Faults, the FAULT_* settings): a test sets
    # them before ``running()`` or while the bot runs (they are read at each operation)
    faults: Faults = field(default_factory=Faults)

    # ---- processes ------------------------------------------------------------------------
    @asynccontextmanager
    async def running(
        self,
        *,
        time_scale: float = 0.02,
        seed: int | None = 7,
        card_emojis: bool = False,
        **settings: Any,
    ) -> AsyncIterator[SpadesBot]:
        """The real bot on the fake Discord. ``settings`` are more ``Config`` fields; the product's
        own fault injection is ``self.faults``; card emojis are uploaded (55 requests) only by the
        tests that look at them. The strong bots' search workers start at the first strong decision
        unless a test asks for them at start-up (``search_workers_at_start=True``: the product's
        default; off here to spare most tests a process)."""
        settings.setdefault("search_workers_at_start", False)
        config = Config(
            token="x",
            database_path=self.db_path,
            time_scale=time_scale,
            deal_seed=seed,
            card_emojis=card_emojis,
            faults=self.faults,
            **settings,
        )
        bot = SpadesBot(config)
        self.bot = bot
        self.last_table = None
        try:
            async with self.fake.run_bot(bot, sync_commands=False):
                yield bot
        finally:
            self.bot = None

    @asynccontextmanager
    async def stored(self) -> AsyncIterator[Storage]:
        """The bot's database, opened on its own (to read what was persisted, bot running or not)."""
        db = await Storage.open(self.db_path)
        try:
            yield db
        finally:
            await db.close()

    async def stored_table(self, table_id: int) -> TableRow:
        """A table as stored in the bot's database (read on a connection of its own)."""
        async with self.stored() as db:
            row = await db.get_table(table_id)
        assert row is not None, f"table {table_id} is not stored"
        return row

    async def no_table_in(self, channel: Channel | None = None) -> bool:
        """What anyone sees: /table in ``channel`` answers that there is no table there."""
        r = await self.fake.slash(self.users["admin"], channel or self.channel, "table")
        return await answer_of(self, r) == NO_TABLE

    @property
    def service(self) -> TableService:
        assert self.bot is not None, "no bot running"
        return self.bot.tables

    # ---- reading ---------------------------------------------------------------------------
    def table(self) -> Table:
        t = self.service.in_channel(self.channel.id)
        if t is None:  # a finished table leaves the channel index: take the newest one
            newest = max(self.service.tables.values(), key=lambda x: x.id, default=None)
            last = self.last_table
            # (and, a few seconds later, memory: then the last state this harness saw)
            t = last if newest is None or (last is not None and last.id > newest.id) else newest
        assert t is not None, "no table"
        self.last_table = t
        return t

    def live(self) -> Message:
        """The live table message of the current table (the newest public one)."""
        msg = self.live_or_none()
        assert msg is not None, "no live table message"
        return msg

    def live_or_none(self) -> Message | None:
        tid = self.table().id
        msgs = [
            m
            for m in self.fake.public_messages(self.channel)
            if m.content.startswith(LIVE_PREFIX) and f"table {tid} " in m.content
        ]
        return msgs[-1] if msgs else None

    def user_at(self, seat: int) -> User | None:
        s = self.table().seats[seat]
        if s is None or s.bot or s.user_id is None:
            return None
        return self.fake.users[s.user_id]

    def seat_of(self, user: User) -> int:
        seat = self.table().seat_of(user.id)
        assert seat is not None
        return seat

    def acting_humans(self) -> list[User]:
        t = self.table()
        if t.status != "playing":
            return []
        out = []
        for s in t.seats_to_act():
            seat = t.seats[s]
            if seat is not None and not seat.automatic:
                u = self.user_at(s)
                if u is not None:
                    out.append(u)
        return out

    async def wait_for(
        self, pred: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
    ) -> None:
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    async def settle(self) -> None:
        """The fake is quiet *and* the bot owes no live-message edit or channel post.

        ``fake.settle()`` alone can't see the bot's own debounce timers: on a loaded machine the
        process may stall past the fake's quiet period while an edit is still due, and a test
        would then read the live message one version too early."""
        svc = self.service

        def idle() -> bool:
            return svc.posts.idle()

        for _ in range(3):
            await self.fake.settle()
            await self.wait_for(idle, what="the bot's pending edits and posts")
        await self.fake.settle()

    async def wait_turn(self, timeout: float = 20.0) -> None:
        """Until a human has to act, or the game is over."""
        await self.wait_for(
            lambda: self.table().status != "playing" or bool(self.acting_humans()), timeout, "a human's turn"
        )

    # ---- acting through Discord -----------------------------------------------------------------
    async def slash(self, user: User, command: str, **options: Any) -> InteractionResult:
        r = await self.fake.slash(user, self.channel, command, **options)
        self.check_public()
        return r

    async def open_table(self, host: User, **options: Any) -> Table:
        r = await self.slash(host, "spades new", **options)
        assert r.error is None, r.error
        await self.wait_for(lambda: self.service.in_channel(self.channel.id) is not None, what="the table")
        # this table's own live message (an earlier table's may still be in the channel)
        await self.wait_for(lambda: self.live_or_none() is not None, what="live message")
        return self.table()

    async def panel(self, user: User) -> Message:
        """Click "My hand" on the live message: the ephemeral panel."""

        def ready() -> bool:
            m = self.live_or_none()
            return m is not None and any(b.get("label") == "My hand" for b in m.buttons)

        await self.wait_for(ready, what="the My hand button")
        r = await self.fake.click(user, self.live(), label="My hand")
        return await self.panel_of(r)

    async def panel_of(self, r: InteractionResult) -> Message:
        """The ephemeral panel a click on the live message answered with: a deferred update of the
        live message (its token redraws that public message) and the panel in a follow-up."""
        assert r.error is None, r.error
        if r.type == 6:
            await self.wait_for(lambda: bool(r.followups), what="the panel's follow-up")
            msg = r.followups[-1]
        else:
            msg = r.message  # type: ignore[assignment]
        assert msg is not None and msg.ephemeral, r.content
        return msg

    async def decide(self, user: User, panel: Message | None = None) -> InteractionResult:
        """Do what the heuristic bot would do in ``user``'s seat, through the panel's components."""
        t = self.table()
        seat = self.seat_of(user)
        assert t.game is not None
        action = get_bot("heuristic", 1).act(t.game.view(seat))
        msg = panel or await self.panel(user)
        kind = type(action).__name__
        if kind == "Look":
            r = await self.fake.click(user, msg, label="Show my cards")
        elif kind == "BidAction":
            if action.bid.kind == "blind_nil":
                r = await self.fake.click(user, msg, label="Bid blind nil")
            else:
                sel = next(s for s in msg.selects if ":b:" in s["custom_id"])
                r = await self.fake.select(user, msg, custom_id=sel["custom_id"], values=[str(action.bid)])
        elif kind == "PlayAction":
            r = await self.fake.click(user, msg, custom_id=self.card_custom_id(msg, action.card))
        elif kind == "PassAction":
            sel = next(s for s in msg.selects if ":p:" in s["custom_id"])
            r = await self.fake.select(
                user, msg, custom_id=sel["custom_id"], values=[str(c) for c in action.cards]
            )
        else:
            raise AssertionError(f"unexpected action {action}")
        self.check_public()
        return r

    @staticmethod
    def card_custom_id(msg: Message, card: int) -> str:
        for b in msg.buttons:
            m = CARD_ID.match(b.get("custom_id", ""))
            if m and int(m.group(1)) == card:
                return str(b["custom_id"])
        raise AssertionError(f"no button for card {engine.card_str(card)} on the panel")

    async def play_until(
        self, done: Callable[[], bool], *, humans: list[User] | None = None, limit: int = 2000
    ) -> int:
        """Let every human act (as the heuristic bot would) until ``done()``; returns actions taken."""
        n = 0
        while not done():
            await self.wait_turn()
            if done() or self.table().status != "playing":
                break
            acting = self.acting_humans()
            if not acting:
                continue
            user = acting[0]
            if humans is not None:
                assert user in humans
            await self.decide(user)
            n += 1
            assert n < limit, "the game does not end"
        return n

    # ---- invariants ---------------------------------------------------------------------------
    def held_cards(self, table_id: int | None = None) -> set[int]:
        held: set[int] = set()
        for t in self.service.tables.values():
            if t.game is None or t.status != "playing" or (table_id is not None and t.id != table_id):
                continue
            for s in range(t.num_seats):
                held.update(engine.cards_of(t.game.hand(s)))
        return held

    def check_public(self) -> None:
        """No public message version that appeared since the last check shows a card held now.

        A version that names an earlier hand ("Hand 3" while hand 4 is on) is about cards that were
        played then; those may be dealt again, so it is checked against nothing newer."""
        if self.bot is None:
            return
        for m in self.fake.public_messages(self.channel):
            versions = [*(h.get("content", "") for h in m.history), m.content]
            labels = " ".join(str(c.get("label", "")) for c in m.buttons)
            start = self.checked.get(m.id, 0)
            for text in versions[start:]:
                held = self._held_for(text)
                for card in held:
                    assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}", text + " " + labels), (
                        f"public message shows held card {card}: {text!r}"
                    )
            self.checked[m.id] = len(versions)
            self.public_checks += 1

    def _held_for(self, text: str) -> set[str]:
        table = re.search(r"table (\d+)", text)
        hand = re.search(r"Hand (\d+)", text)
        tables = (
            [self.service.tables.get(int(table.group(1)))] if table else list(self.service.tables.values())
        )
        held: set[int] = set()
        for t in tables:
            if t is None or t.game is None or t.status != "playing":
                continue
            if hand and int(hand.group(1)) < t.game.hand_no:
                continue
            held |= self.held_cards(t.id)
        return {engine.card_pretty(c) for c in held}


def said(r: InteractionResult) -> str:
    """The text of the bot's answer itself (not of a message edited later)."""
    assert r.error is None, r.error
    data = r.record.response_data or {}
    if data.get("content"):
        return str(data["content"])
    followups = r.followups
    return followups[-1].content if followups else (r.content or "")


async def answer_of(spades: Spades, r: InteractionResult) -> str:
    """Like ``said``, waiting for the follow-up of a deferred answer."""
    if r.type == 5:
        await spades.wait_for(lambda: r.message is not None and not r.message.loading, what="the follow-up")
    elif r.type == 6:
        await spades.wait_for(lambda: bool(r.followups), what="the follow-up")
    return said(r)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run the end-to-end test on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "e2e_database" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("e2e_database", ["sqlite", "postgresql"], indirect=True)


@pytest_asyncio.fixture
async def e2e_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The bot's database: a SQLite file, or (parametrized) a new PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield str(tmp_path / "spades.db")
        return
    from tests.postgres_server import create_database, drop_database

    server = request.getfixturevalue("postgres_server")
    url = await create_database(server)
    yield url
    await drop_database(server, url)


@pytest_asyncio.fixture
async def spades(fake_discord: FakeDiscord, e2e_database: str) -> AsyncIterator[Spades]:
    fake = fake_discord
    # Discord's global limit (50 bot-token requests/s, interactions exempt) costs nothing here, so it
    # is always on (no test reaches it); the per-route buckets (5 edits per 5 s per channel) would
    # hold a game at time_scale 0.02 back by seconds per trick, so they stay off here.
    fake.global_limit = GLOBAL_LIMIT
    guild = fake.add_guild("Spades club")
    channel = guild.add_text_channel("spades")
    users = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")}
    users["admin"] = fake.add_user("root", manage_guild=True)
    yield Spades(fake, guild, channel, users, e2e_database)


# ---- playing as users do: only what Discord shows ---------------------------------------------------
#
# ``Spades.decide``/``play_until`` above pick moves with the heuristic bot from the table's state;
# the helpers below know only what the channel and a player's own panel show. New tests should use
# these (tests/e2e/test_stats.py, test_games.py do).

OPENED = re.compile(r"Table (\d+) is open")
LOBBY_SEAT = re.compile(r"(\d+)\. <@(\d+)>")
STALL = 60.0  # seconds without anything to click before a player's loop gives up


@dataclass
class SeenGame:
    """A table as its channel showed it: who sat where (seat index -> user id, from the lobby
    message; the other seats are bots) and where its posts are."""

    channel: Channel
    table_id: int
    lobby_id: int  # the table's message (its first version lists who sits where)
    seats: dict[int, int]
    with_bots: bool


def live_message(spades: Spades, channel: Channel, table_id: int) -> Message | None:
    """The newest table message of ``table_id`` in ``channel``."""
    msgs = [
        m
        for m in spades.fake.public_messages(channel)
        if m.content.startswith(LIVE_PREFIX) and f"table {table_id} " in m.content
    ]
    return msgs[-1] if msgs else None


def game_posts(spades: Spades, game: SeenGame) -> tuple[list[str], str | None]:
    """The table's hand posts and its game post (None while the game is on): the posts after its
    lobby message (the game post names no table; an earlier table's is older than the lobby)."""
    hands, final = [], None
    for m in spades.fake.public_messages(game.channel):
        if m.id <= game.lobby_id:
            continue
        if m.content.startswith("📋 ") and f"· table {game.table_id}\n" in m.content:
            hands.append(m.content)
        elif m.content.startswith("🏁 ") or (
            m.content.startswith("🏆 ") and "Rematch" in {b.get("label") for b in m.buttons}
        ):
            final = m.content
    return hands, final


async def open_and_start(spades: Spades, channel: Channel, humans: list[User], **options: Any) -> SeenGame:
    """The first human opens a table in ``channel`` (``/spades new`` with ``options``), the others
    /join, the host starts (bots take the seats left); who sits where is read from the lobby."""
    host = humans[0]
    r = await spades.fake.slash(host, channel, "spades new", **options)
    opened = OPENED.search(said(r))
    assert opened is not None, said(r)
    table_id = int(opened.group(1))
    for user in humans[1:]:
        r = await spades.fake.slash(user, channel, "join")
        assert said(r).startswith("You took seat"), said(r)

    def seated() -> bool:
        m = live_message(spades, channel, table_id)
        return m is not None and len(LOBBY_SEAT.findall(m.content)) == len(humans)

    await spades.wait_for(seated, what="everyone seated on the lobby message")
    lobby = live_message(spades, channel, table_id)
    assert lobby is not None
    seats = {int(n) - 1: int(uid) for n, uid in LOBBY_SEAT.findall(lobby.content)}
    assert set(seats.values()) == {u.id for u in humans}
    fill = len(humans) < 4
    r = await spades.fake.slash(host, channel, "spades start", fill=fill)
    assert r.error is None, r.error
    return SeenGame(channel, table_id, lobby.id, seats, with_bots=fill)


async def play_from_panel(spades: Spades, game: SeenGame, user: User) -> int:
    """``user`` plays their seat until the game post (see ``_panel_loop``); the actions taken."""
    actions, _ = await _panel_loop(spades, game, user, stop_at_card=False)
    return actions


async def panel_with_a_card(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` plays (as ``play_from_panel``) until their panel offers a card to play; that panel."""
    _, panel = await _panel_loop(spades, game, user, stop_at_card=True)
    assert panel is not None, "the game ended before a card was to play"
    return panel


def playable_cards(panel: Message) -> list[tuple[int, str]]:
    """(card, custom_id) of the card buttons the panel lets its player click now."""
    out = []
    for b in panel.buttons:
        m = CARD_ID.match(b.get("custom_id", ""))
        if m and not b.get("disabled"):
            out.append((int(m.group(1)), str(b["custom_id"])))
    return out


async def _panel_loop(
    spades: Spades, game: SeenGame, user: User, *, stop_at_card: bool
) -> tuple[int, Message | None]:
    """``user`` plays their seat until the game post, from their private panel alone, as a simple
    player would: looks at the cards, bids 3 (or the first bid offered), passes the first cards
    asked for, plays the first card the panel lets them. Returns the actions taken.

    Nothing here reads the bot's state: the panel follows the table (the bot edits it) and is
    opened again with "My hand" when it shows nothing to do for a moment."""
    actions = 0
    panel: Message | None = None
    acted_on: tuple[int, int] | None = None  # the panel version last acted on: wait for a newer one
    progress = time.monotonic()

    def over() -> bool:
        return game_posts(spades, game)[1] is not None

    def choices(
        m: Message | None,
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None]:
        """(look button, bid or pass select, playable card) the panel offers now."""
        if m is None or (m.id, len(m.history)) == acted_on:
            return None, None, None
        look = next(
            (b for b in m.buttons if b.get("label") == "Show my cards" and not b.get("disabled")), None
        )
        pick = next((s for s in m.selects if ":b:" in s["custom_id"] or ":p:" in s["custom_id"]), None)
        card = next(
            (b for b in m.buttons if CARD_ID.match(b.get("custom_id", "")) and not b.get("disabled")), None
        )
        return look, pick, card

    while not over():
        assert time.monotonic() - progress < STALL, f"{user.username} had nothing to do for {STALL} s"
        look, pick, card = choices(panel)
        if look is None and pick is None and card is None:
            try:  # the bot edits the panel as the table moves; open it again if nothing shows up
                await spades.wait_for(
                    lambda shown=panel: over() or any(choices(shown)),  # type: ignore[misc]
                    timeout=0.5,
                    what="the panel",
                )
            except AssertionError:
                live = live_message(spades, game.channel, game.table_id)
                if live is not None and any(b.get("label") == "My hand" for b in live.buttons):
                    r = await spades.fake.click(user, live, label="My hand")
                    if r.error is None:  # (the panel may come as a follow-up of a deferred update)
                        panel = await spades.panel_of(r)
            continue
        assert panel is not None
        if stop_at_card and card is not None and look is None and pick is None:
            return actions, panel
        if look is not None:
            r = await spades.fake.click(user, panel, label="Show my cards")
        elif pick is not None and ":b:" in pick["custom_id"]:
            values = [o["value"] for o in pick["options"]]
            choice = "3" if "3" in values else values[0]
            r = await spades.fake.select(user, panel, custom_id=pick["custom_id"], values=[choice])
        elif pick is not None:
            values = [o["value"] for o in pick["options"]][: int(pick.get("max_values", 1))]
            r = await spades.fake.select(user, panel, custom_id=pick["custom_id"], values=values)
        else:
            assert card is not None
            r = await spades.fake.click(user, panel, custom_id=card["custom_id"])
        assert r.error is None, r.error
        spades.check_public()
        actions += 1
        progress = time.monotonic()
        if r.message is not None and r.ephemeral:
            panel = r.message
        acted_on = (panel.id, len(panel.history))
    return actions, None


# ---- more Discord-only helpers (test_history.py, test_history_paging.py, test_bot_levels.py,
# test_storage_faults.py, test_shard_ownership.py, test_shard_processes.py) --------------------------

PANEL_BID = "3"  # what a simple player bids when the panel offers it


def opened_table(r: InteractionResult) -> int:
    """The table id a ``/spades new`` answer names ("Table N is open")."""
    found = OPENED.search(said(r))
    assert found is not None, said(r)
    return int(found.group(1))


def turn_shown(spades: Spades, game: SeenGame, user: User) -> bool:
    """The table message says it is ``user``'s turn ("➜ @user to ...")."""
    live = live_message(spades, game.channel, game.table_id)
    return live is not None and f"➜ <@{user.id}> to " in live.content


async def open_panel(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` clicks "My hand" on the table message: their private panel."""

    def ready() -> bool:
        m = live_message(spades, game.channel, game.table_id)
        return m is not None and any(b.get("label") == "My hand" for b in m.buttons)

    await spades.wait_for(ready, what="the My hand button")
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None
    r = await spades.fake.click(user, live, label="My hand")
    return await spades.panel_of(r)


async def act_from_panel(
    fake: FakeDiscord, user: User, panel: Message
) -> tuple[InteractionResult, str, int | None] | None:
    """One action, the first the panel offers (as ``_panel_loop`` picks): look at the cards, bid 3
    (or the first bid offered), pass the first cards asked for, or play the first playable card.
    (result, "look" | "bid" | "pass" | "play", the card played); None if the panel offers nothing."""
    look = next(
        (b for b in panel.buttons if b.get("label") == "Show my cards" and not b.get("disabled")), None
    )
    pick = next((s for s in panel.selects if ":b:" in s["custom_id"] or ":p:" in s["custom_id"]), None)
    cards = playable_cards(panel)
    if look is not None:
        return await fake.click(user, panel, label="Show my cards"), "look", None
    if pick is not None and ":b:" in pick["custom_id"]:
        values = [o["value"] for o in pick["options"]]
        choice = PANEL_BID if PANEL_BID in values else values[0]
        return await fake.select(user, panel, custom_id=pick["custom_id"], values=[choice]), "bid", None
    if pick is not None:
        values = [o["value"] for o in pick["options"]][: int(pick.get("max_values", 1))]
        return await fake.select(user, panel, custom_id=pick["custom_id"], values=values), "pass", None
    if cards:
        card, custom_id = cards[0]
        return await fake.click(user, panel, custom_id=custom_id), "play", card
    return None


async def play_from_panel_until(
    spades: Spades, game: SeenGame, user: User, done: Callable[[], bool], timeout: float = 120.0
) -> None:
    """``user`` plays as ``play_from_panel`` does until ``done()`` (or the game post); then stops."""
    player = asyncio.create_task(play_from_panel(spades, game, user))
    try:
        await spades.wait_for(lambda: done() or player.done(), timeout, "the condition while playing")
        if player.done():
            player.result()  # its failure, if any
        assert done(), "the game ended first"
    finally:
        if not player.done():
            player.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await player


async def until_stored(
    spades: Spades, pred: Callable[[TableRow], bool], table_id: int, timeout: float = 20.0, what: str = ""
) -> TableRow:
    """Until the table as stored (read on a connection of its own) satisfies ``pred``; that row."""
    end = time.monotonic() + timeout
    while True:
        row = await spades.stored_table(table_id)
        if pred(row):
            return row
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or 'the stored table'}")
        await asyncio.sleep(0.05)


# ---- helpers of test_resilience.py, test_hardening.py and test_spades_commands.py --------------------
#
# Only what Discord shows (the table message, a player's own panel, the answers) and what is stored.

TURN_LINE = re.compile(r"^➜ (.+?) to (bid|play|pass|draw|act)\b", re.M)
MENTION = re.compile(r"<@!?(\d+)>")


async def open_seen(spades: Spades, host: User, channel: Channel | None = None, **options: Any) -> int:
    """``host`` opens a table (``/spades new`` with ``options``): its id, read from the answer, once
    its table message is in the channel."""
    channel = channel or spades.channel
    r = await spades.fake.slash(host, channel, "spades new", **options)
    text = await answer_of(spades, r)
    opened = OPENED.search(text)
    assert opened is not None, text
    table_id = int(opened.group(1))
    await spades.wait_for(
        lambda: live_message(spades, channel, table_id) is not None, what="the table message"
    )
    return table_id


def seen_game(spades: Spades, table_id: int, channel: Channel | None = None) -> SeenGame:
    """A table still open as its table message shows it now (who sits where; the rest are bots)."""
    channel = channel or spades.channel
    lobby = live_message(spades, channel, table_id)
    assert lobby is not None, f"no table message of table {table_id}"
    seats = {int(n) - 1: int(uid) for n, uid in LOBBY_SEAT.findall(lobby.content)}
    return SeenGame(channel, table_id, lobby.id, seats, with_bots=False)


def table_text(spades: Spades, game: SeenGame) -> str:
    """The table message as the channel shows it now."""
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None, f"no table message of table {game.table_id}"
    return live.content


def turn_of(spades: Spades, game: SeenGame) -> tuple[list[int], str] | None:
    """Who the table message says must act (the humans' ids, by their mentions) and what to do
    ("bid", "play", ...); None when it names nobody (not started, over, between hands)."""
    live = live_message(spades, game.channel, game.table_id)
    m = TURN_LINE.search(live.content) if live is not None else None
    if m is None:
        return None
    return [int(u) for u in MENTION.findall(m.group(1))], m.group(2)


async def panel_answer(spades: Spades, r: InteractionResult) -> Message:
    """The ephemeral panel a click or command answered with: in the response itself, or (after a
    deferral: "thinking", or a deferred update of the table message) in the follow-up."""
    assert r.error is None, r.error
    if r.type == 5:
        await spades.wait_for(lambda: r.message is not None and not r.message.loading, what="the answer")
    elif r.type == 6 and not r.ephemeral:
        await spades.wait_for(lambda: bool(r.followups), what="the panel's follow-up")
        return r.followups[-1]
    msg = r.followups[-1] if r.type == 5 and r.followups else r.message
    assert msg is not None and msg.ephemeral, f"the panel must be ephemeral: {r.content!r}"
    return msg


async def my_hand(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` clicks "My hand" on the table message: their private panel as it is now."""

    def button() -> bool:
        live = live_message(spades, game.channel, game.table_id)
        return live is not None and any(b.get("label") == "My hand" for b in live.buttons)

    await spades.wait_for(button, what="the My hand button")
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None
    r = await spades.fake.click(user, live, label="My hand")
    return await panel_answer(spades, r)


def panel_offers(
    panel: Message,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None]:
    """(the "Show my cards" button, the bid or pass select, a playable card) the panel offers."""
    look = next(
        (b for b in panel.buttons if b.get("label") == "Show my cards" and not b.get("disabled")), None
    )
    pick = next((s for s in panel.selects if ":b:" in s["custom_id"] or ":p:" in s["custom_id"]), None)
    card = next(
        (b for b in panel.buttons if CARD_ID.match(b.get("custom_id", "")) and not b.get("disabled")), None
    )
    return look, pick, card


async def take_turn(
    spades: Spades, game: SeenGame, user: User, panel: Message | None = None
) -> InteractionResult:
    """``user`` takes one turn from their own panel (``panel``, else a fresh one from "My hand") as
    ``play_from_panel`` would: looks at face-down cards, then bids 3 (or the first bid offered),
    passes the first cards asked for or plays the first card it lets them. The bid, pass or play."""
    panel = panel or await my_hand(spades, game, user)
    end = time.monotonic() + STALL
    while True:
        look, pick, card = panel_offers(panel)
        if look is not None:
            r = await spades.fake.click(user, panel, label="Show my cards")
            assert r.error is None, r.error
            continue
        if pick is not None:
            values = [o["value"] for o in pick["options"]]
            if ":b:" in pick["custom_id"]:
                values = ["3" if "3" in values else values[0]]
            else:
                values = values[: int(pick.get("max_values", 1))]
            r = await spades.fake.select(user, panel, custom_id=pick["custom_id"], values=values)
        elif card is not None:
            r = await spades.fake.click(user, panel, custom_id=card["custom_id"])
        else:
            assert time.monotonic() < end, f"{user.username}'s panel offered nothing for {STALL} s"
            try:  # the bot redraws the panel as the table moves; open it again if nothing shows up
                await spades.wait_for(lambda p=panel: any(panel_offers(p)), timeout=0.5, what="the panel")  # type: ignore[misc]
            except AssertionError:
                panel = await my_hand(spades, game, user)
            continue
        assert r.error is None, r.error
        spades.check_public()
        return r


async def humans_play(spades: Spades, game: SeenGame, users: list[User], actions: int) -> int:
    """The humans of ``users`` whose turn the table message shows take ``actions`` turns in all
    (``take_turn``), stopping early when it names none of them; the turns taken."""
    by_id = {u.id: u for u in users}
    done = 0
    while done < actions:
        await spades.fake.settle()
        turn = turn_of(spades, game)
        acting = [by_id[u] for u in (turn[0] if turn else []) if u in by_id]
        if not acting:
            try:  # bots may still be moving
                await spades.wait_for(
                    lambda: any(u in by_id for u in (turn_of(spades, game) or ([], ""))[0]),
                    timeout=5,
                    what="a human's turn",
                )
            except AssertionError:
                break
            continue
        before = table_text(spades, game)
        await take_turn(spades, game, acting[0])
        done += 1
        # the table message follows (a debounced edit): never read whose turn it is from before
        await spades.wait_for(
            lambda shown=before: table_text(spades, game) != shown,  # type: ignore[misc]
            what="the table message to follow",
        )
    return done


async def stored_game(spades: Spades, table_id: int) -> engine.Game:
    """The game of a table as stored (read on a connection of its own)."""
    data = (await spades.stored_table(table_id)).data["game"]
    assert data is not None, f"table {table_id} has no game stored"
    return engine.Game.from_dict(data)


async def stored_seat(spades: Spades, table_id: int, index: int) -> dict[str, Any] | None:
    """Seat ``index`` (0-based) of a table as stored: ``user_id``, ``bot``, ``away``, ``left``..."""
    seat: dict[str, Any] | None = (await spades.stored_table(table_id)).data["seats"][index]
    return seat


async def stored_seat_of(spades: Spades, table_id: int, user: User) -> int | None:
    """The seat (0-based) ``user`` plays at a table as stored; None when not seated."""
    seats = (await spades.stored_table(table_id)).data["seats"]
    return next(
        (i for i, s in enumerate(seats) if s is not None and not s.get("bot") and s["user_id"] == user.id),
        None,
    )


async def seated_game(spades: Spades, table_id: int, humans: int, channel: Channel | None = None) -> SeenGame:
    """Once the open table's message lists ``humans`` players: the table as it shows it."""
    channel = channel or spades.channel

    def seated() -> bool:
        m = live_message(spades, channel, table_id)
        return m is not None and len(LOBBY_SEAT.findall(m.content)) == humans

    await spades.wait_for(seated, what=f"{humans} players on the table message")
    return seen_game(spades, table_id, channel)


async def wait_stored(
    spades: Spades, table_id: int, pred: Callable[[TableRow], bool], what: str, timeout: float = 20.0
) -> TableRow:
    """Until the table as stored (read on its own connection) satisfies ``pred``; that row."""
    end = time.monotonic() + timeout
    while not pred(row := await spades.stored_table(table_id)):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)
    return row


# ---- league storage and schedule as users and the database show them (test_league.py,
# test_league_admin.py) -----------------------------------------------------------------------------


@asynccontextmanager
async def stored_leagues(spades: Spades) -> AsyncIterator[LeagueStore]:
    """The league rows of the bot's database, read on a connection of the test's own."""
    async with spades.stored() as db:
        yield LeagueStore(db)


async def stored_night(spades: Spades, number: int) -> NightRow:
    """Night ``number`` of the guild's one league's current season, as stored."""
    async with stored_leagues(spades) as store:
        (league,) = await store.leagues(spades.guild.id)
        nights = [n for n in await store.nights(league.id, league.season) if n.number == number]
    assert len(nights) == 1, f"night {number} is not stored"
    return nights[0]
