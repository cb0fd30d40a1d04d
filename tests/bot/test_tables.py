"""TableService unit tests: real Storage on a temp SQLite file, a recording publisher instead of
Discord. The end-to-end behaviour through the fake Discord lives in tests/e2e/."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import engine
from bot import render
from bot.config import Config
from bot.model import MOVED_ON, Seat, Table, humans_to_act
from bot.storage import Storage
from bot.table.service import TableService
from bot.views import hand_panel
from engine.bots import get_bot

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL, DAVE, ERIN = 11, 12, 13, 14, 15


@dataclass
class Post:
    channel_id: int
    content: str
    view: discord.ui.View | None
    mention: int | None = None
    edits: list[str] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    edited_at: list[float] = field(default_factory=list)


class RecordingPublisher:
    """Stands in for the channel: records every post and edit."""

    def __init__(self) -> None:
        self.posts: dict[int, Post] = {}
        self.order: list[int] = []
        self.deleted: list[int] = []
        self._next = 1

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[tuple[str, bytes]] = (),
    ) -> int | None:
        mid = self._next
        self._next += 1
        self.posts[mid] = Post(channel_id, content, view, mention, files=list(files))
        self.order.append(mid)
        return mid

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool:
        post = self.posts.get(message_id)
        if post is None or message_id in self.deleted:
            return False
        post.edits.append(content)
        post.edited_at.append(time.monotonic())
        post.content, post.view = content, view
        return True

    async def delete(self, channel_id: int, message_id: int) -> bool:
        self.deleted.append(message_id)
        return True

    def texts(self) -> list[str]:
        out = []
        for mid in self.order:
            p = self.posts[mid]
            out.extend([*p.edits, p.content])
        return out


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    db = await Storage.open(tmp_path / "spades.db")
    yield db
    await db.close()


def make_service(storage: Storage, *, time_scale: float = 0.01, seed: int | None = 7) -> TableService:
    config = Config(token="x", time_scale=time_scale, deal_seed=seed)
    bot: Any = SimpleNamespace(storage=storage, config=config)
    return TableService(bot, publisher=RecordingPublisher())


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[TableService]:
    svc = make_service(storage)
    yield svc
    await svc.close()


async def open_table(svc: TableService, **kw: Any) -> Table:
    res = await svc.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice", **kw
    )
    assert res.ok, res.message
    assert res.table is not None
    return res.table


# ---- seating ------------------------------------------------------------------------------------


async def test_create_persists_an_open_table_with_the_host_seated(
    service: TableService, storage: Storage
) -> None:
    t = await open_table(service)
    row = await storage.live_table_in(CHANNEL)
    assert row is not None and row.id == t.id and row.status == "open"
    restored = Table.from_row(row)
    assert restored.seats[0] == Seat(ALICE, "alice")
    assert restored.seats[1:] == [None, None, None]
    assert restored.settings["play_seconds"] == 60 and restored.settings["bid_seconds"] == 90


async def test_second_table_in_a_channel_is_refused(service: TableService) -> None:
    t = await open_table(service)
    res = await service.lifecycle.create(guild_id=GUILD, channel_id=CHANNEL, host_id=BOB, host_name="bob")
    assert not res.ok
    assert res.message == (
        f"This channel already has a live table (table {t.id}). Join it, or finish or "
        "abandon it first (`/spades abandon`)."
    )


async def test_unknown_preset_and_bad_timers_are_refused(service: TableService) -> None:
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="a", preset="nope"
    )
    assert not res.ok and "nope" in res.message and "standard" in res.message
    assert res.message.startswith("`nope` is not a preset. Presets: standard, ")
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=ALICE, host_name="a", preset="Classic Online"
    )
    assert res.ok and res.table is not None and res.table.ruleset.name == "classic-online"
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="a", play_seconds=5
    )
    assert not res.ok
    assert res.message == "Turn timers must be between 15 and 600 seconds (you asked for 5)."


async def test_join_fills_seats_then_table_full(service: TableService) -> None:
    await open_table(service)
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        res = await service.seating.join(CHANNEL, uid, name)
        assert res.ok, res.message
    res = await service.seating.join(CHANNEL, ERIN, "erin")
    assert not res.ok and res.message == "This table is full (4/4)."
    res = await service.seating.join(CHANNEL, BOB, "bob")
    assert not res.ok and res.message == "You're already at this table (seat 2)."


async def test_join_by_team_puts_partners_opposite(service: TableService) -> None:
    t = await open_table(service)
    res = await service.seating.join(CHANNEL, BOB, "bob", team=1)
    assert res.ok
    t = service.tables[t.id]
    assert t.seat_of(BOB) == 2  # partner of seat 0
    assert "partner: <@11>" in res.message
    res = await service.seating.join(CHANNEL, CAROL, "carol", team=1)
    assert not res.ok and res.message.startswith("Team 1 is full.")


async def test_only_the_host_starts_and_empty_seats_are_offered_to_bots(service: TableService) -> None:
    t = await open_table(service)
    await service.seating.join(CHANNEL, BOB, "bob")
    res = await service.lifecycle.start(t.id, BOB)
    assert not res.ok and res.message == "Only the host (<@11>) can start the game."
    res = await service.lifecycle.start(t.id, ALICE)
    assert not res.ok and res.data.get("offer_fill")
    assert res.message.startswith("2 seats are empty (3, 4).")
    res = await service.seating.add_bot(CHANNEL, BOB)
    assert not res.ok and res.message == "Only the host (<@11>) can add bots."


async def test_host_leaving_hands_the_table_over(service: TableService) -> None:
    t = await open_table(service)
    await service.seating.join(CHANNEL, BOB, "bob")
    res = await service.seating.leave(CHANNEL, ALICE)
    assert res.ok
    assert service.tables[t.id].host_id == BOB
    res = await service.seating.leave(CHANNEL, CAROL)
    assert not res.ok and res.message == "You're not seated at this table."


async def test_actions_without_a_table_or_seat_are_refused(service: TableService) -> None:
    res = await service.play.act(None, ALICE, "play", 0, channel_id=CHANNEL)
    assert not res.ok and "no Spades table" in res.message
    await open_table(service)
    res = await service.play.act(None, BOB, "play", 0, channel_id=CHANNEL)
    assert not res.ok and res.message == "You're not playing at this table."
    res = await service.play.act(None, ALICE, "play", 0, channel_id=CHANNEL)
    assert not res.ok and res.message == "The game hasn't started yet: the host presses **Start**."


async def test_live_message_is_posted_once_and_edited(service: TableService) -> None:
    t = await open_table(service)
    pub: RecordingPublisher = service.publisher  # type: ignore[assignment]
    for uid, name in ((BOB, "bob"), (CAROL, "carol")):
        await service.seating.join(CHANNEL, uid, name)
    await asyncio.sleep(0.1)
    t = service.tables[t.id]
    assert t.message_id is not None
    live = [m for m in pub.order if m not in pub.deleted]
    assert live == [t.message_id]
    assert "<@13>" in pub.posts[t.message_id].content


def test_moved_on_text() -> None:
    assert MOVED_ON == "This hand has moved on: here is your current hand."


async def _four_humans(service: TableService) -> Table:
    t = await open_table(service, play_seconds=600, bid_seconds=600)
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await service.seating.join(CHANNEL, uid, name)
    res = await service.lifecycle.start(t.id, ALICE)
    assert res.ok, res.message
    return service.tables[t.id]


async def test_a_failed_save_changes_nothing_and_is_not_acknowledged(
    service: TableService, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await _four_humans(service)
    assert t.game is not None
    seat = t.game.to_act
    assert seat is not None
    user = t.seats[seat].user_id  # type: ignore[union-attr]
    before, stamp = t.game.to_dict(), t.stamp

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk full")

    monkeypatch.setattr(storage, "save_table", broken)
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok
    assert res.message == "Sorry, I couldn't save that just now; nothing changed. Please try again."
    t = service.tables[t.id]
    assert t.game is not None and t.game.to_dict() == before and t.stamp == stamp
    monkeypatch.undo()
    res = await service.play.act(t.id, user, "bid", "3")
    assert res.ok and res.message == "You bid 3."
    row = await storage.get_table(t.id)
    assert row is not None and row.data["stamp"] == stamp + 1  # persisted before acknowledged


async def test_a_concurrent_writer_is_detected(service: TableService, storage: Storage) -> None:
    t = await _four_humans(service)
    assert t.game is not None and t.row is not None
    seat = t.game.to_act
    user = t.seats[seat].user_id  # type: ignore[index, union-attr]
    await asyncio.sleep(0.1)  # let the live message be posted (it saves its message id)
    other = await storage.get_table(t.id)
    assert other is not None
    await storage.save_table(other)  # another process saved the table in between
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok and res.message == "The table changed while you clicked; please try again."
    res = await service.play.act(t.id, user, "bid", "3")  # reloaded: the retry goes through
    assert res.ok


async def test_concurrent_actions_on_one_table_count_once(service: TableService) -> None:
    t = await _four_humans(service)
    assert t.game is not None
    seat = t.game.to_act
    user = t.seats[seat].user_id  # type: ignore[index, union-attr]
    stamp = t.seats[seat].acts  # type: ignore[index, union-attr]
    results = await asyncio.gather(*(service.play.act(t.id, user, "bid", "4", stamp=stamp) for _ in range(5)))
    assert sum(r.ok for r in results) == 1
    assert all(r.message == MOVED_ON for r in results if not r.ok)
    g = service.tables[t.id].game
    assert g is not None and [b for b in g.view(seat).bids if b is not None] == [g.view(seat).bids[seat]]


async def test_restore_brings_back_the_same_tables(storage: Storage) -> None:
    first = make_service(storage)
    t = await _four_humans(first)
    await first.close()
    second = make_service(storage)
    try:
        assert await second.restore() == 1
        again = second.in_channel(CHANNEL)
        assert again is not None and again.id == t.id and again.stamp == t.stamp
        assert again.game is not None and t.game is not None and again.game.to_dict() == t.game.to_dict()
        assert [s.user_id if s else None for s in again.seats] == [ALICE, BOB, CAROL, DAVE]
    finally:
        await second.close()


async def test_live_message_edits_are_coalesced(storage: Storage) -> None:
    svc = make_service(storage, time_scale=1.0)  # real pacing: at most ~1 edit per second
    try:
        t = await open_table(svc)
        pub: RecordingPublisher = svc.publisher  # type: ignore[assignment]
        await asyncio.sleep(0.4)
        assert len(pub.order) == 1  # the first post
        for _ in range(60):  # a burst of changes, as bots playing quickly would cause
            svc.posts.render_soon(t.id)
            await asyncio.sleep(0.02)
        await asyncio.sleep(1.5)
        post = pub.posts[pub.order[0]]
        assert 1 <= len(post.edits) <= 3
        gaps = [b - a for a, b in zip(post.edited_at, post.edited_at[1:], strict=False)]
        assert all(g >= 1.1 for g in gaps), gaps  # never faster than one edit per EDIT_INTERVAL
    finally:
        await svc.close()


PANEL_ACTIONS = {
    "Look": "look",
    "BidAction": "bid",
    "PlayAction": "play",
    "PassAction": "pass",
    "DrawAction": "draw",
    "MisdealAction": "misdeal",
}


@pytest.mark.parametrize("preset", [*sorted(engine.PRESETS), "cutthroat+jokers"])
async def test_every_preset_plays_a_hand_through_the_service(storage: Storage, preset: str) -> None:
    """One human (acting as the heuristic bot would) and bots play a whole hand of every preset; the
    hand panel stays within Discord's limits at every step."""
    svc = make_service(storage, time_scale=0.001)
    try:
        name, _, extra = preset.partition("+")
        options = {"jokers": True} if extra == "jokers" else None  # 18-card hands
        t = await open_table(svc, preset=name, options=options, play_seconds=600, bid_seconds=600)
        assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok
        for _ in range(3000):
            t = svc.tables[t.id]
            assert t.game is not None
            if t.status != "playing" or t.game.hand_records:
                break
            if ALICE not in [t.seats[s].user_id for s in humans_to_act(t)]:  # type: ignore[union-attr]
                await asyncio.sleep(0.002)
                continue
            content, view = hand_panel(svc.get(t.id), ALICE)
            assert len(content) <= 2000
            if view is not None:  # discord.py itself refuses a sixth row or a sixth button in a row
                assert len(view.children) <= 25
                assert all(len(getattr(i, "custom_id", "")) <= 100 for i in view.children)
            action = get_bot("heuristic", 1).act(t.game.view(t.seat_of(ALICE)))  # type: ignore[arg-type]
            kind = PANEL_ACTIONS[type(action).__name__]
            arg = {
                "bid": getattr(action, "bid", None),
                "play": getattr(action, "card", None),
                "pass": getattr(action, "cards", None),
                "draw": getattr(action, "keep", None),
            }.get(kind)
            if kind == "bid" and action.bid.kind == "blind_nil":  # type: ignore[attr-defined]
                kind = "blind"
            res = await svc.play.act(t.id, ALICE, kind, arg)
            assert res.ok, res.message
            assert len(render.table_message(svc.tables[t.id])) <= 2000
        t = svc.tables[t.id]
        assert t.game is not None and len(t.game.hand_records) >= 1, "the hand did not finish"
    finally:
        await svc.close()


async def test_whatever_a_player_types_is_answered_and_changes_nothing(service: TableService) -> None:
    """Typed bids and cards go through the engine's parsers: junk is refused, never raised."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    t = await _four_humans(service)
    assert t.game is not None
    seat = t.game.to_act
    user = t.seats[seat].user_id  # type: ignore[index, union-attr]
    snapshot = t.game.to_dict()
    texts: list[str] = []

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.text(max_size=12))
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    for text in [*texts, "99", "-1", "blind 99", "nil nil", "♠♠", "10", "AS AS", "0"]:
        try:
            parsed = engine.parse_card(text)
        except ValueError:
            parsed = None
        if parsed is not None:
            res = await service.play.act(t.id, user, "play", parsed)  # bidding: playing is refused
            assert not res.ok and res.message
        try:
            bid = engine.Bid.parse(text)
        except ValueError:
            continue
        try:
            t.game.clone().bid(seat, bid)  # type: ignore[arg-type]
            continue  # a legal bid ("0" is nil, say) would count: keep the table as it is
        except engine.IllegalAction:
            pass
        res = await service.play.act(t.id, user, "bid", bid)
        assert not res.ok and res.message
        g = service.tables[t.id].game
        assert g is not None and g.to_dict() == snapshot


def test_house_rules_round_trip_and_suggestions_fit_discord() -> None:
    from engine.house_rules import (
        HouseRulesError,
        format_rules,
        parse_house_rules,
        rule_kinds,
        rules_suggestions,
    )

    text = "bag_limit=off lose_score=−200 ten_for_200=yes whiz=0 Target_Score=300"
    options = parse_house_rules(text)
    assert options == {
        "bag_limit": None,
        "lose_score": -200,
        "ten_for_200": True,
        "whiz": False,
        "target_score": 300,
    }
    assert parse_house_rules(format_rules(options)) == options
    for bad in ("bag_limit=", "x=1", "ten_for_200", "target_score=1e3"):
        with pytest.raises(HouseRulesError):
            parse_house_rules(bad)
    # every option name is offered somewhere, values fit in 100 characters, at most 25 at a time
    offered = {v.split("=")[0] for k in rule_kinds() for _, v in rules_suggestions(k[:4])}
    assert offered == set(rule_kinds())
    long = " ".join(["bag_limit=5"] * 7)  # 83 characters typed already
    found = rules_suggestions(long + " ")
    assert found and all(len(v) <= 100 and len(n) <= 100 for n, v in found)
    assert f"{long} ten_for_200=" in [v for _, v in found]
    assert not any("blind_nil_min_deficit" in v for _, v in found)  # would pass 100 characters


# ---- memory: closed tables leave the service ------------------------------------------------------


async def wait_until(pred: Any, what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


async def test_finished_tables_leave_memory_and_old_posts_still_work(storage: Storage) -> None:
    """Alice times out twice (marked away: the bots play on), the one-hand game ends and the table
    leaves memory; its Score sheet, Rematch and stale hand panels then read it from storage."""
    svc = make_service(storage, time_scale=0.001)
    svc.evict_grace = 0.0
    try:
        finished: list[int] = []
        for _ in range(3):
            t = await open_table(svc, options={"max_hands": 1}, play_seconds=15, bid_seconds=15)
            assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok
            await wait_until(lambda t=t: t.id not in svc.tables, f"table {t.id} to finish and leave")
            finished.append(t.id)
        assert svc.tables == {} and svc.by_channel == {}
        assert not any(svc.holds(tid) for tid in finished)
        rows = [await storage.get_table(tid) for tid in finished]
        assert [r.status if r else None for r in rows] == ["finished"] * 3
        # the last game's post: its score sheet, /score in the channel, a stale card click
        last = await svc.load(finished[-1])
        assert last is not None and last.game is not None and last.status == "finished"
        assert svc.tables == {}  # loading does not bring it back into memory
        sheet = render.score_sheet(last)
        lines = sheet.splitlines()
        assert lines[0] == f"**Score sheet · table {last.id}**" and len(lines) == 3  # the one hand
        shown = await svc.last_in_channel(CHANNEL)
        assert shown is not None and shown.id == finished[-1]
        res = await svc.play.act(finished[-1], ALICE, "play", 0, stamp=0)
        assert not res.ok and res.message == "This game is over. Open a new table with `/spades new`."
        # the stale panel is redrawn as just that answer (no cards, no buttons)
        assert hand_panel(svc.get(finished[-1]), ALICE, f"⚠️ {res.message}") == (f"⚠️ {res.message}", None)
        res = await svc.seating.back(finished[0], ALICE)
        assert not res.ok and res.message == "This game is over. Open a new table with `/spades new`."
        # Rematch on the evicted game: a new live table with the same seats, once
        res = await svc.lifecycle.rematch(finished[-1], ALICE, "alice")
        assert res.ok and res.table is not None, res.message
        again = res.table
        assert [s.name if s else None for s in again.seats] == [s.name if s else None for s in last.seats]
        res = await svc.lifecycle.rematch(finished[-1], ALICE, "alice")
        assert not res.ok and res.message == f"The rematch is already open (table {again.id})."
        assert not svc.holds(finished[-1])
    finally:
        await svc.close()


# ---- the seams other features build on: seating a table, hearing when games end ----------------


async def test_open_seated_deals_a_table_another_feature_has_seated(storage: Storage) -> None:
    """A league night seats its players in its own thread: the table starts at once, empty seats get
    bots, nothing of the guild's defaults applies, and a second table in that thread is refused."""
    svc = make_service(storage)
    thread = 9000
    try:
        rs = engine.Ruleset.preset("standard", target_score=300)
        seats = [Seat(ALICE, "alice"), None, Seat(BOB, "bob"), None]
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread, host_id=ALICE, seats=seats, ruleset=rs
        )
        assert res.ok and res.table is not None, res.message
        t = svc.in_channel(thread)
        assert t is not None and t.id == res.table.id and t.status == "playing" and t.game is not None
        assert [s.user_id if s else None for s in t.seats] == [ALICE, None, BOB, None]
        assert [s.bot if s else None for s in t.seats] == [False, True, False, True]
        assert t.ruleset.target_score == 300
        row = await storage.get_table(t.id)
        assert row is not None and row.status == "playing" and row.channel_id == thread
        again = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread, host_id=BOB, seats=seats, ruleset=rs
        )
        assert not again.ok and "already has a live table" in again.message
        wrong = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread + 1, host_id=BOB, seats=seats[:3], ruleset=rs
        )
        assert not wrong.ok and wrong.message == "This ruleset seats 4 players, not 3."
    finally:
        await svc.close()


async def test_listeners_hear_every_hand_and_the_game_after_they_are_saved(storage: Storage) -> None:
    """Subscribers get each scored hand and the finished game, after storage has them; one that
    raises is logged and changes nothing for the table or the other subscribers."""
    svc = make_service(storage, time_scale=0.001)
    hands: list[tuple[int, int]] = []
    games: list[Any] = []

    def broken(table: Table, game: Any) -> None:
        raise RuntimeError("a league bug")

    svc.on_game_finished(broken)
    svc.on_hand_finished(lambda table, hand: hands.append((table.id, hand.hand_no)))
    svc.on_game_finished(lambda table, game: games.append((table.status, game)))
    try:
        bots = [Seat(None, n, bot=True) for n in ("Bea", "Ray", "Kit", "Max")]
        rs = engine.Ruleset.preset("standard", max_hands=2)
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, seats=bots, ruleset=rs
        )
        assert res.ok and res.table is not None
        tid = res.table.id
        await wait_until(lambda: bool(games), "the game to finish")
        assert hands == [(tid, 1), (tid, 2)]
        ((status, game),) = games
        assert status == "finished" and game.table_id == tid and game.hands == 2
        row = await storage.get_table(tid)
        assert row is not None and row.status == "finished"
        assert len(await storage.hand_records(tid)) == 2
    finally:
        await svc.close()
