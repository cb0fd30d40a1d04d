"""The league service over real storage and a recording gateway (Discord and tables faked at the seam).

These tests drive nights by the clock: check-in opens, the night starts, rounds are seated, results
come in (or time is called), the night's results and standings are posted, the next night follows;
restarts, races and missed nights included. The end-to-end tests through the fake Discord cover the
wiring; these cover the rules of running a night.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.league.gateway import SeatState
from bot.league.schedule import Night
from bot.league.seating import Seating, TablePlan, partner_repeats
from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.storage import Storage
from bot.storage.leagues import LeagueRow, LeagueStore
from engine.ruleset import Ruleset

GUILD, CHANNEL, ADMIN = 1, 10, 999


class Clock:
    """A test clock (``bot.clock.Clock``): its time is ``at``, set by the test; sleeping takes none."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> float:
        return self.at.timestamp()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)

    def advance(self, **kw: float) -> None:
        self.at += timedelta(**kw)

    def real_seconds(self, seconds: float) -> float:
        return 0.0  # (sleeping takes no real time)


@dataclass
class FakeGateway:
    db: Storage
    posts: list[tuple[int, str]] = field(default_factory=list)
    checkin_posts: list[tuple[int, int, str, int | None]] = field(default_factory=list)
    checkin_edits: list[tuple[int, str, bool]] = field(default_factory=list)
    opened: dict[int, list[int | None]] = field(default_factory=dict)  # table id -> seats
    finished: dict[int, TableOutcome] = field(default_factory=dict)
    time_called: list[int] = field(default_factory=list)
    events: list[tuple[int | None, Night | None, dict[str, Any] | None]] = field(default_factory=list)
    admin_notes: list[str] = field(default_factory=list)
    next_thread: int = 5000
    next_event: int = 700
    discord_events: dict[int, list[Any]] = field(default_factory=dict)  # id -> [night, status]
    interested: dict[int, list[int]] = field(default_factory=dict)  # event id -> users
    clock: Clock | None = None
    pinged: list[list[int]] = field(default_factory=list)  # per post, whom it pinged
    stopped: list[int] = field(default_factory=list)  # live tables stopped without a result
    forfeited: list[int] = field(default_factory=list)  # of those, stopped by a forfeit
    thread_missing: list[str] = field(default_factory=list)
    dms: list[tuple[int, str]] = field(default_factory=list)
    dms_closed: set[int] = field(default_factory=set)
    # live seats' states (the attendance tests set them; a table missing here is not live)
    seats: dict[int, dict[int, SeatState]] = field(default_factory=dict)
    released: list[tuple[int, int]] = field(default_factory=list)
    offers: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    time_calls: list[str] = field(default_factory=list)  # the time call each call_time was given
    table_settings: dict[int, dict[str, Any]] = field(default_factory=dict)  # league table -> settings
    rulesets: dict[int, Ruleset] = field(default_factory=dict)  # league table -> its rules

    async def post(
        self, channel_id: int, content: str, *, role_id: int | None = None, users: Sequence[int] = ()
    ) -> int | None:
        assert len(content) <= 2000
        self.posts.append((channel_id, content))
        self.pinged.append(list(users))
        return len(self.posts)

    async def post_checkin(
        self, channel_id: int, night_id: int, content: str, *, role_id: int | None
    ) -> int | None:
        self.checkin_posts.append((channel_id, night_id, content, role_id))
        return 100 + len(self.checkin_posts)

    async def edit_checkin(
        self,
        channel_id: int,
        message_id: int,
        night_id: int,
        content: str,
        *,
        closed: bool,
        playing: bool = False,
    ) -> None:
        self.checkin_edits.append((message_id, content, closed))

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: str,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int] | None:
        self.next_thread += 1
        self.table_settings[league_table_id] = dict(settings or {})
        self.rulesets[league_table_id] = ruleset
        row = await self.db.tables.create(
            guild_id, self.next_thread, ADMIN, {"league_table": league_table_id}
        )
        self.opened[row.id] = seats
        return self.next_thread, row.id

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        return self.finished.get(table_id)

    async def call_time(self, table_id: int, time_call: str = "as_it_stands") -> TableOutcome | None:
        self.time_called.append(table_id)
        self.time_calls.append(time_call)
        if time_call != "as_it_stands":
            return None  # the last hand is being played: the result comes when the game ends
        return TableOutcome([120, 90], [1, 2], 0, complete=False)

    async def sync_event(
        self,
        league: LeagueRow,
        night: Night | None,
        *,
        recurrence: dict[str, Any] | None,
        event_id: int | None,
    ) -> int | None:
        self.events.append((event_id, night, recurrence))
        if night is None:
            if event_id is not None:
                await self.set_event_status(league, event_id, 4)
            return None
        if event_id is None:
            self.next_event += 1
            self.discord_events[self.next_event] = [night, 1]
            return self.next_event
        assert await self.event_status(league, event_id) == 1, "only a scheduled event is moved"
        self.discord_events[event_id][0] = night
        return event_id

    async def event_status(self, league: LeagueRow, event_id: int) -> int | None:
        """As Discord does: an external event begins by itself at its start time."""
        event = self.discord_events.get(event_id)
        if event is None:
            return None
        if event[1] == 1 and self.clock is not None and self.clock.at >= event[0].start_utc:
            event[1] = 2
        return int(event[1])

    async def set_event_status(self, league: LeagueRow, event_id: int, status: int) -> bool:
        old = await self.event_status(league, event_id)
        assert (old, status) in ((1, 2), (2, 3), (1, 4)), f"Discord refuses {old} -> {status}"
        self.discord_events[event_id][1] = status
        return True

    async def event_users(self, league: LeagueRow, event_id: int) -> list[int]:
        return list(self.interested.get(event_id, []))

    def events_by_night(self) -> dict[int, list[int]]:
        """Every Discord event ever made, by night number: their statuses."""
        out: dict[int, list[int]] = {}
        for night, status in self.discord_events.values():
            out.setdefault(night.number, []).append(status)
        return out

    async def tell_admins(self, league: LeagueRow, content: str) -> None:
        self.admin_notes.append(content)

    async def dm(self, guild_id: int, user_id: int, content: Any) -> bool:
        if user_id in self.dms_closed:
            return False
        self.dms.append((user_id, str(content)))
        return True

    async def missing_thread_permissions(self, channel_id: int) -> list[str]:
        return list(self.thread_missing)

    async def stop_table(self, table_id: int, *, cancelled: bool, forfeit: bool = False) -> None:
        self.stopped.append(table_id)
        self.forfeited.extend([table_id] if forfeit else [])

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        seats = self.opened.get(table_id)
        if seats is None or out_id not in seats:
            return False
        seats[seats.index(out_id)] = in_id
        live = self.seats.get(table_id)
        if live is not None and out_id in live:
            old = live.pop(out_id)
            live[in_id] = SeatState(old.acts, 0, False)
        return True

    async def seat_states(self, table_id: int) -> dict[int, SeatState] | None:
        live = self.seats.get(table_id)
        return dict(live) if live is not None else None

    async def release_seat(self, table_id: int, user_id: int) -> bool:
        self.released.append((table_id, user_id))
        live = self.seats.get(table_id)
        if live is not None and user_id in live:
            st = live[user_id]
            live[user_id] = SeatState(st.acts, st.auto, True)
        return True

    async def offer_seat(
        self, channel_id: int, league_table_id: int, out_id: int, standby_id: int, content: str
    ) -> int | None:
        self.offers.append((channel_id, league_table_id, out_id, standby_id, content))
        return 9000 + len(self.offers)

    def posted(self, needle: str) -> list[str]:
        return [c for _, c in self.posts if needle in c]


@pytest.fixture
def db(storage: Storage) -> Storage:
    """The shared migrated SQLite ``storage`` (tests/conftest.py), by this file's name for it."""
    return storage


# Monday 19 October 2026, noon UTC; the league meets Thursdays 20:00 New York (00:00 UTC Friday)
MONDAY = datetime(2026, 10, 19, 12, 0, tzinfo=UTC)
FIRST_START = datetime(2026, 10, 23, 0, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY)


@pytest.fixture
def gateway(db: Storage, clock: Clock) -> FakeGateway:
    return FakeGateway(db, clock=clock)


@pytest.fixture
def service(db: Storage, gateway: FakeGateway, clock: Clock) -> LeagueService:
    return LeagueService(LeagueStore(db), gateway, clock=clock)


async def create(service: LeagueService, **kw: Any) -> LeagueRow:
    args: dict[str, Any] = dict(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor_id=ADMIN,
        name="Spades Thursday",
        weekday="thursday",
        at="8pm",
        zone="America/New_York",
        weeks=8,
        fmt="rotating",
        preset="standard",
        rounds=2,
        round_minutes=30,
        leftover="bye",
    )
    args.update(kw)
    return await service.create_league(**args)


async def open_checkin(service: LeagueService, clock: Clock) -> int:
    clock.at = FIRST_START - timedelta(minutes=30)
    await service.tick()
    night = await service.current_night((await service.store.rosters.leagues(GUILD))[0])
    assert night is not None and night.status == "checkin"
    return night.id


async def finish_all(service: LeagueService, gateway: FakeGateway, round_no: int, night_id: int) -> None:
    for lt in await service.store.rounds.round_tables(night_id, round_no):
        assert lt.table_id is not None
        outcome = TableOutcome([510, 300], [2, 4], 0, complete=True)
        gateway.finished[lt.table_id] = outcome
        await service.game_finished(lt.table_id, outcome)


async def test_create_validates_and_makes_the_event(service: LeagueService, gateway: FakeGateway) -> None:
    league = await create(service)
    assert league.status == "active"
    ((event_id, night, rule),) = gateway.events
    assert event_id is None and night is not None and night.start_utc == FIRST_START
    assert rule is None  # the season crosses the DST change on 1 November: one event per night
    assert league.settings["event_id"] == 701


async def test_the_clock_and_a_new_league_syncing_at_once_make_one_event(
    service: LeagueService, gateway: FakeGateway
) -> None:
    """The league clock ticks while the new league's event is still being created on Discord: the
    tick finds the league without an event, yet must not create a second one."""
    created = asyncio.Event()
    real_sync = gateway.sync_event

    async def slow_sync(*args: Any, **kwargs: Any) -> int | None:
        if not created.is_set():
            created.set()
            await asyncio.sleep(0.05)  # Discord answering slowly
        return await real_sync(*args, **kwargs)

    gateway.sync_event = slow_sync  # type: ignore[method-assign]

    async def tick_while_creating() -> None:
        await created.wait()
        await service.tick()

    league, _ = await asyncio.gather(create(service), tick_while_creating())
    assert len(gateway.events) == 2, "the tick synced the event too"
    assert gateway.events[0][0] is None  # created once ...
    assert all(event_id == 701 for event_id, _night, _rule in gateway.events[1:])  # ... then only updated
    stored = await service.store.rosters.get_league(league.id)
    assert stored is not None and stored.settings["event_id"] == 701


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"zone": "New York"}, "not an IANA time zone"),
        ({"weeks": 0}, "1 to 52 weeks"),
        ({"at": "25:00"}, "hour is 0 to 23"),
        ({"first_date": "2026-10-15"}, "in the past"),
        ({"fmt": "solo"}, "partnerships"),
        ({"rounds": 9}, "1 to 8 rounds"),
        ({"target": 10}, "target score is 50 to 1000"),
        ({"preset": "poker"}, "not a ruleset"),
        ({"name": "<@1> night"}, "mentions"),
    ],
)
async def test_bad_input_is_refused_and_nothing_is_written(
    service: LeagueService, kw: dict[str, Any], message: str
) -> None:
    with pytest.raises(LeagueRefusal, match=message):
        await create(service, **kw)
    assert await service.store.rosters.leagues(GUILD) == []


async def test_second_league_at_the_same_time_in_the_channel(service: LeagueService) -> None:
    await create(service)
    with pytest.raises(LeagueRefusal, match="already meets in this channel"):
        await create(service, name="Other", at="20:30")
    with pytest.raises(LeagueRefusal, match="already has a league called"):
        await create(service, name="spades thursday", channel_id=11)
    await create(service, name="Other", channel_id=11)  # another channel is fine


async def test_a_whole_night(service: LeagueService, gateway: FakeGateway, clock: Clock) -> None:
    # (no late check-in: it closes at the start; time called the old way: scored as it stands)
    league = await create(service, late_minutes=0, time_call="as_it_stands")
    await service.tick()
    assert gateway.checkin_posts == []  # too early
    night_id = await open_checkin(service, clock)
    assert len(gateway.checkin_posts) == 1
    players = list(range(1, 10))
    for p in players:
        assert "checked in" in await service.check_in(night_id, p)
    with pytest.raises(LeagueRefusal, match="already checked in"):
        await service.check_in(night_id, 1)
    assert "9" in gateway.checkin_edits[-1][1]
    await service.tick()  # still before the start: nothing happens
    assert gateway.opened == {}
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    # 9 players, 4 seats, byes: 2 tables and one bye
    r1 = await service.store.rounds.round_tables(night_id, 1)
    assert len(r1) == 2 and all(t.table_id is not None for t in r1)
    assert len(await service.store.rounds.byes(night_id)) == 1
    assert gateway.posted("round 1 of 2") and gateway.checkin_edits[-1][2] is True  # check-in closed
    with pytest.raises(LeagueRefusal, match="Check-in closed"):
        await service.check_in(night_id, 42)
    await finish_all(service, gateway, 1, night_id)
    assert gateway.posted("round 1 results")
    r2 = await service.store.rounds.round_tables(night_id, 2)
    assert len(r2) == 2
    rounds = [Seating(tuple(TablePlan(tuple(tuple(s) for s in t.sides)) for t in r)) for r in (r1, r2)]
    assert partner_repeats(rounds) == 0
    byes = await service.store.rounds.byes(night_id)
    assert len(byes) == 2 and byes[0][1] != byes[1][1]  # the bye rotated
    # round 2 runs out of time: unfinished games are scored as they stand
    clock.advance(minutes=31)
    await service.tick()
    assert len(gateway.time_called) == 2
    assert gateway.posted("Time was called")
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "finished"
    assert gateway.posted("night 1 results") and gateway.posted("season 1 standings")
    rows, held = await service.standings_rows(league)
    assert held == 1 and sum(r.games for r in rows) == 16
    # the next week's night starts by itself: the event moved, check-in opens, the night starts
    assert gateway.events[-1][1] is not None and gateway.events[-1][1].number == 2
    clock.at = FIRST_START + timedelta(days=7, minutes=-30)
    await service.tick()
    assert len(gateway.checkin_posts) == 2


async def test_dst_week_starts_at_local_20_00(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, weeks=3)
    # nights 1 and 2 pass without players (cancelled); night 3 is after the US DST change
    for week in range(2):
        clock.at = FIRST_START + timedelta(days=7 * week, minutes=-30)
        await service.tick()
        clock.at = FIRST_START + timedelta(days=7 * week, seconds=5)
        await service.tick()
    assert len(gateway.posted("is off")) == 2
    third_start = datetime(2026, 11, 6, 1, 0, tzinfo=UTC)  # 20:00 EST
    clock.at = third_start - timedelta(minutes=31)
    await service.tick()
    assert len(gateway.checkin_posts) == 2  # not yet: 19:29 local
    clock.at = third_start - timedelta(minutes=30)
    await service.tick()
    assert len(gateway.checkin_posts) == 3


async def test_restart_mid_round_resumes_and_nothing_fires_twice(
    db: Storage, service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service)
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    assert len(await service.store.rounds.round_tables(night_id, 2)) == 2
    # "restart": a fresh service on the same database; one game of round 2 ended while it was down
    r2 = await service.store.rounds.round_tables(night_id, 2)
    assert r2[0].table_id is not None
    gateway.finished[r2[0].table_id] = TableOutcome([500, 200], [0, 0], 0, complete=True)
    fresh = LeagueService(LeagueStore(db), gateway, clock=clock)
    other = LeagueService(LeagueStore(db), gateway, clock=clock)
    opened_before = len(gateway.opened)
    await asyncio.gather(fresh.tick(), other.tick())
    assert len(gateway.opened) == opened_before  # nothing re-seated or re-opened
    assert (await service.store.rounds.round_tables(night_id, 2))[0].status == "finished"
    assert len(gateway.posted("round 1 results")) == 1
    assert r2[1].table_id is not None
    outcome = TableOutcome([300, 510], [0, 0], 1, complete=True)
    gateway.finished[r2[1].table_id] = outcome
    await asyncio.gather(
        fresh.game_finished(r2[1].table_id, outcome), other.game_finished(r2[1].table_id, outcome)
    )
    assert len(gateway.posted("night 1 results")) == 1
    assert len(gateway.posted("round 2 results")) == 1


async def test_two_schedulers_open_check_in_once(db: Storage, gateway: FakeGateway, clock: Clock) -> None:
    a = LeagueService(LeagueStore(db), gateway, clock=clock)
    b = LeagueService(LeagueStore(db), gateway, clock=clock)
    await create(a)
    clock.at = FIRST_START - timedelta(minutes=30)
    await asyncio.gather(a.tick(), b.tick(), a.tick())
    assert len(gateway.checkin_posts) == 1


class WaitingClock(Clock):
    """A test clock whose sleep lasts until the test ends it; it records the seconds asked for."""

    def __init__(self, at: datetime) -> None:
        super().__init__(at)
        self.asked: list[float] = []
        self.over = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.over.wait()


async def until(done: Any, *, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the scheduler did not get there")


async def test_the_scheduler_waits_on_the_league_clock_and_an_admin_change_wakes_it(
    db: Storage, gateway: FakeGateway
) -> None:
    """Between ticks the scheduler sleeps on the league's clock (not real time); a change that
    pokes it (here an admin postponing the night) makes it tick at once, before the sleep is over."""
    clock = WaitingClock(MONDAY)
    service = LeagueService(LeagueStore(db), gateway, clock=clock)
    league = await create(service)
    clock.at = FIRST_START - timedelta(minutes=30)
    service.start(interval=30)
    try:
        await until(lambda: clock.asked)
        assert clock.asked == [30] and len(gateway.checkin_posts) == 1  # the first tick opened check-in
        night = await service.current_night(league)
        assert night is not None
        for p in (1, 2, 3, 4):
            await service.check_in(night.id, p)
        # the league's time passes the start while the scheduler sleeps; the postponed start
        # (5 minutes after the first) is behind it too, so the woken tick starts the night
        clock.at = FIRST_START + timedelta(minutes=10)
        await service.postpone(league, ADMIN, 5)
        assert not gateway.posted("round 1 of 2")
        await until(lambda: len(clock.asked) == 2)  # woken: ticked again, sleeping again
        assert not clock.over.is_set() and clock.asked == [30, 30]
        assert gateway.posted("round 1 of 2")
    finally:
        await service.stop()


async def test_missed_start_within_grace_runs_late_and_says_so(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service)
    clock.at = FIRST_START + timedelta(minutes=10)  # the bot was down through check-in and the start
    await service.tick()
    ((_, night_id, content, _),) = gateway.checkin_posts
    assert "offline" in content
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "checkin" and night.starts_at > FIRST_START.timestamp()


async def test_missed_night_beyond_grace_extends_the_season_and_tells_admins(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service, weeks=2)
    clock.at = FIRST_START + timedelta(hours=2)
    await service.tick()
    assert gateway.checkin_posts == []
    assert gateway.admin_notes and "missed" in gateway.admin_notes[0]
    league = (await service.store.rosters.leagues(GUILD))[0]
    nights = service.schedule_of(league).nights()
    assert [n.day.isoformat() for n in nights] == ["2026-10-29", "2026-11-05"]
    await service.tick()
    assert len(gateway.admin_notes) == 1  # said once


async def test_a_missed_nights_reason_is_stored_as_a_code_and_read_in_each_language(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """The audit entry keeps a code, not English words: `/league history` words it for its reader."""
    from bot.i18n import render

    league = await create(service, weeks=2)
    clock.at = FIRST_START + timedelta(hours=2)
    await service.tick()
    (entry,) = [e for e in await service.store.audit.log(league.id, limit=10) if e.action == "missed"]
    assert entry.detail.get("why") == "bot_offline" and not entry.reason
    history = await service.history_text(league)
    assert "the bot was not running at the start" in render(history, "en")
    assert "bot nie działał w chwili rozpoczęcia" in render(history, "pl")
    assert "бот не работал в момент начала" in render(history, "ru")
    assert "bot nie działał" in render(gateway.admin_notes[0], "pl")


async def test_an_admin_change_at_the_moment_a_night_is_missed_keeps_both(
    service: LeagueService, gateway: FakeGateway, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The missed night's extension of the season and an admin's rename land at the same moment:
    the extension is written on a fresh read (its first write is stale), and the rename stays."""
    await create(service, weeks=2)
    store = service.store
    original = store.rosters.update_league
    raced: list[str] = []

    async def racing(league: LeagueRow, **kw: Any) -> LeagueRow:
        if kw.get("action") == "extend" and not raced:
            admin = await store.rosters.get_league(league.id)
            assert admin is not None
            admin.name = "Spades Friday"
            await original(admin, actor_id=ADMIN, action="rename")
            raced.append("rename")
        return await original(league, **kw)

    monkeypatch.setattr(store.rosters, "update_league", racing)
    clock.at = FIRST_START + timedelta(hours=2)
    await service.tick()
    assert raced == ["rename"]
    league = (await store.rosters.leagues(GUILD))[0]
    assert league.name == "Spades Friday"
    nights = service.schedule_of(league).nights()
    assert [n.day.isoformat() for n in nights] == ["2026-10-29", "2026-11-05"]
    # the post names the league as the admin just renamed it
    assert gateway.admin_notes and "2026-11-05" in gateway.admin_notes[0]
    assert "Spades Friday" in gateway.admin_notes[0]


async def test_season_ends_with_final_standings_and_champions(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, weeks=1, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    await service.tick()
    final = gateway.posted("final standings")
    assert len(final) == 1 and "Champions" in final[0]
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert league.status == "ended"
    assert gateway.events_by_night() == {1: [3]}  # the played night's event is completed


async def test_late_arrival_joins_the_next_round_after_reopen(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service, late_minutes=0)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    with pytest.raises(LeagueRefusal, match="re-open"):
        await service.check_in(night_id, 5)
    await service.reopen_checkin(league, ADMIN)
    for p in (5, 6, 7, 8):
        assert "next round" in await service.check_in(night_id, p)
    await finish_all(service, gateway, 1, night_id)
    r2 = await service.store.rounds.round_tables(night_id, 2)
    assert sorted(p for t in r2 for p in t.players) == list(range(1, 9))


async def test_fixed_teams_sign_up_by_invite(
    service: LeagueService, clock: Clock, gateway: FakeGateway
) -> None:
    league = await create(service, fmt="fixed")
    with pytest.raises(LeagueRefusal, match="invite"):
        await service.sign_up(league, 1)
    await service.invite(league, 1, 2, "Aces")
    await service.invite(league, 3, 4, "Kings")
    assert (await service.answer_invite(league, 2, accept=True)).name == "Aces"
    await service.answer_invite(league, 4, accept=True)
    night_id = await open_checkin(service, clock)
    for p in (1, 2, 3):  # 4 does not come: a bot partners 3
        await service.check_in(night_id, p)
    with pytest.raises(LeagueRefusal, match="fixed teams"):
        await service.check_in(night_id, 9)
    clock.at = FIRST_START
    await service.tick()
    (table,) = await service.store.rounds.round_tables(night_id, 1)
    assert {frozenset(s) for s in table.sides} == {frozenset({1, 2}), frozenset({3, None})}
    seats = gateway.opened[table.table_id]  # type: ignore[index]
    # partners sit across: seats 0 and 2 are one side, 1 and 3 the other
    assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} == {
        frozenset({1, 2}),
        frozenset({3, None}),
    }


async def test_in_fixed_teams_only_a_member_of_a_complete_team_checks_in(
    service: LeagueService, clock: Clock
) -> None:
    """Only complete teams are seated: a member whose invite is still pending, or whose team was
    dissolved by a decline, is told so at check-in instead of sitting out every round unseated."""
    league = await create(service, fmt="fixed")
    await service.invite(league, 1, 2, "Aces")
    await service.answer_invite(league, 2, accept=True)
    await service.invite(league, 3, 4, "Kings")  # 4 has not answered
    await service.invite(league, 5, 6, "Queens")
    await service.answer_invite(league, 6, accept=False)  # dissolved: 5 has no team now
    night_id = await open_checkin(service, clock)
    await service.check_in(night_id, 1)
    with pytest.raises(LeagueRefusal) as pending:
        await service.check_in(night_id, 3)
    assert str(pending.value) == (
        "Your team **Kings** isn't complete yet: waiting for <@4> to accept the invite"
        " (`/league accept`). Check in once it is complete."
    )
    with pytest.raises(LeagueRefusal, match=r"You have no team in \*\*.*\*\* now .*`/league invite`"):
        await service.check_in(night_id, 5)
    assert await service.check_in(night_id, 5, coming=False)  # saying "not coming" is always fine
    answers = await service.store.nights.checkins(night_id)
    assert answers.get(1) == "in" and 3 not in answers and answers.get(5) == "out"
    await service.answer_invite(league, 4, accept=True)  # the team is complete: 3 checks in now
    await service.check_in(night_id, 3)
    assert (await service.store.nights.checkins(night_id)).get(3) == "in"


async def test_admin_tools(service: LeagueService, gateway: FakeGateway, clock: Clock) -> None:
    league = await create(service, rounds=1)
    msg = await service.postpone(league, ADMIN, 15)
    assert "now starts" in msg
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(minutes=1)
    await service.tick()
    assert await service.store.rounds.round_tables(night_id, 1) == []  # postponed: not yet
    await service.start_now(league, ADMIN)  # an admin starts it anyway
    (table,) = await service.store.rounds.round_tables(night_id, 1)
    out_id = table.players[0]
    assert "now plays for" in await service.substitute(league, ADMIN, out_id, 77, "had to leave")
    assert 77 in gateway.opened[table.table_id] and out_id not in gateway.opened[table.table_id]  # type: ignore[index]
    with pytest.raises(LeagueRefusal, match="not at a table"):
        await service.substitute(league, ADMIN, 555, 78, None)
    await finish_all(service, gateway, 1, night_id)
    with pytest.raises(LeagueRefusal, match="reason"):
        await service.correct(
            league, ADMIN, night_number=1, round_no=1, table_no=1, scores=[1, 2], reason=" "
        )
    fixed = await service.correct(
        league,
        ADMIN,
        night_number=1,
        round_no=1,
        table_no=1,
        scores=[300, 510],
        reason="scores entered the wrong way round",
    )
    assert fixed.winner_side == 1 and fixed.corrected
    history = await service.history_text(league)
    assert "wrong way round" in history and "corrected" in history
    assert len(history) <= 2000
    standings = await service.standings_text(league)
    assert "<@77>" in standings


async def test_pause_skip_resume(service: LeagueService, clock: Clock, gateway: FakeGateway) -> None:
    league = await create(service, weeks=3)
    league, last = await service.skip(league, ADMIN, "2026-10-29")
    assert last.day.isoformat() == "2026-11-12"
    with pytest.raises(LeagueRefusal, match="already skipped"):
        await service.skip(league, ADMIN, "2026-10-29")
    league = await service.pause(league, ADMIN)
    clock.at = FIRST_START + timedelta(hours=1)
    await service.tick()
    assert gateway.checkin_posts == [] and gateway.admin_notes == []  # paused: nothing happens
    league = await service.resume(league, ADMIN)
    nights = service.schedule_of(league).nights()
    assert nights[0].day.isoformat() == "2026-11-05"  # the date passed while paused is skipped
    text = await service.schedule_text(league)
    assert "skipped" in text


async def test_me_and_schedule_texts(service: LeagueService, clock: Clock) -> None:
    league = await create(service)
    me = await service.me_text(league, 5)
    assert "not signed up" in me
    await service.sign_up(league, 5)
    me = await service.me_text(league, 5)
    assert "signed up" in me and "provisional" in me
    sched = await service.schedule_text(league)
    assert sched.count("Night ") == 8 and "America/New_York" in sched


async def test_removed_player_cannot_sign_back_up_but_an_admin_can_add_them(
    service: LeagueService, clock: Clock
) -> None:
    league = await create(service)
    await service.sign_up(league, 5)
    await service.remove(league, ADMIN, 5, "no-shows")
    with pytest.raises(LeagueRefusal, match="took you off"):
        await service.sign_up(league, 5)
    night_id = await open_checkin(service, clock)
    with pytest.raises(LeagueRefusal, match="took you off"):
        await service.check_in(night_id, 5)
    await service.add_member(league, ADMIN, 5)
    assert "checked in" in await service.check_in(night_id, 5)
    # a player who left by themselves may come back
    await service.leave(league, 6) if await service.store.rosters.member(league.id, 6) else None
    await service.sign_up(league, 6)
    await service.leave(league, 6)
    await service.sign_up(league, 6)


async def test_retime_moves_scheduled_nights(service: LeagueService, clock: Clock) -> None:
    league = await create(service)
    await service.tick()  # night 1's row exists
    night = await service.current_night(league)
    assert night is not None and night.night_date == "2026-10-22"
    league = await service.edit(league, ADMIN, weekday="tuesday", at="19:00")
    night = await service.current_night(league)
    assert night is not None and night.night_date == "2026-10-20" and night.status == "scheduled"
    nights = await service.store.nights.nights(league.id)
    assert {n.night_date: n.status for n in nights}["2026-10-22"] == "cancelled"
    with pytest.raises(LeagueRefusal, match="Nothing to change"):
        await service.edit(league, ADMIN)


async def test_an_edit_is_audited_as_data_not_english(service: LeagueService) -> None:
    """The audit keeps what changed as values (worded when shown, in the reader's language)."""
    league = await create(service)
    league = await service.edit(league, ADMIN, weekday="tuesday", at="19:00", target=300)
    (entry, *_older) = await service.store.audit.log(league.id, actions=["edit"])
    assert entry.detail["schedule"] == league.schedule
    assert entry.detail["round"] == league.ruleset and entry.detail["round"]["target_score"] == 300


async def test_a_process_runs_only_the_leagues_of_its_shards(
    db: Storage, gateway: FakeGateway, clock: Clock
) -> None:
    mine = LeagueService(LeagueStore(db), gateway, clock=clock, owns=lambda guild: guild != GUILD)
    await create(mine)
    clock.at = FIRST_START - timedelta(minutes=30)
    await mine.tick()
    assert gateway.checkin_posts == []  # another process's guild
    await LeagueService(LeagueStore(db), gateway, clock=clock).tick()
    assert len(gateway.checkin_posts) == 1


async def test_a_player_cannot_sit_in_two_leagues_at_once(service: LeagueService, clock: Clock) -> None:
    a = await create(service)
    b = await create(service, name="Other", channel_id=11)
    clock.at = FIRST_START - timedelta(minutes=30)
    await service.tick()
    night_a = await service.current_night(a)
    night_b = await service.current_night(b)
    assert night_a is not None and night_b is not None
    for p in (1, 2, 3, 4):
        await service.check_in(night_a.id, p)
    await service.check_in(night_b.id, 1)  # before the start: fine
    for p in (5, 6, 7, 8):
        await service.check_in(night_b.id, p)
    clock.at = FIRST_START
    await service.tick()
    in_a = [p for t in await service.store.rounds.round_tables(night_a.id, 1) for p in t.players]
    in_b = [p for t in await service.store.rounds.round_tables(night_b.id, 1) for p in t.players]
    assert 1 in in_a and 1 not in in_b and sorted(in_b) == [5, 6, 7, 8]  # seated in one league only
    await service.reopen_checkin(b, ADMIN)
    with pytest.raises(LeagueRefusal, match="seated at a table of \\*\\*Spades Thursday\\*\\* right now"):
        await service.check_in(night_b.id, 1)


async def test_a_table_that_cannot_open_is_retried_and_admins_told_once(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    real_open = gateway.open_table
    fails = 0

    async def refuse(**kw: Any) -> tuple[int, int] | None:
        nonlocal fails
        fails += 1
        return None

    gateway.open_table = refuse  # type: ignore[method-assign]
    clock.at = FIRST_START
    await service.tick()
    await service.tick()
    assert fails == 2 and len(gateway.admin_notes) == 1
    gateway.open_table = real_open  # type: ignore[method-assign]
    await service.tick()
    (table,) = await service.store.rounds.round_tables(night_id, 1)
    assert table.table_id is not None and table.status == "playing"


async def test_one_player_is_not_a_night(service: LeagueService, gateway: FakeGateway, clock: Clock) -> None:
    await create(service, leftover="bot")
    night_id = await open_checkin(service, clock)
    await service.check_in(night_id, 1)
    clock.at = FIRST_START
    await service.tick()
    assert gateway.opened == {} and gateway.posted("1 player checked in, and a night needs 2")
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "cancelled"


async def test_fixed_teams_of_three_invite_two_partners_and_play_a_six_seat_table(
    service: LeagueService, clock: Clock, gateway: FakeGateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.i18n import render

    threes = await create(service, fmt="fixed", preset="six-player-threes", rounds=1)
    pairs = await create(service, name="Thursday Pairs", fmt="fixed", at="9pm")
    # the number of partners must fit the team size; the answer says what is allowed
    with pytest.raises(LeagueRefusal) as one:
        await service.invite(threes, 1, [2], "Aces")
    assert "plays in teams of three: invite both your partners, with `partner` and `partner2`" in render(
        one.value.message, "en"
    )
    assert "`партнёр` и `партнёр2`" in render(one.value.message, "ru")  # the options' Russian names
    with pytest.raises(LeagueRefusal) as two:
        await service.invite(pairs, 1, [2, 3], "Aces")
    assert "plays in pairs: invite one partner with `partner` and leave `partner2` out" in render(
        two.value.message, "en"
    )
    with pytest.raises(LeagueRefusal, match="two different partners"):
        await service.invite(threes, 1, [2, 2], "Aces")
    with pytest.raises(LeagueRefusal, match="fixed teams of three: invite your two partners"):
        await service.sign_up(threes, 1)
    with pytest.raises(LeagueRefusal, match="fixed teams: invite your partner with"):
        await service.sign_up(pairs, 1)
    assert await service.store.rosters.members(threes.id, include_invited=True) == []

    aces = await service.invite(threes, 1, [2, 3], "Aces")
    assert aces.status == "pending"
    assert (await service.answer_invite(threes, 2, accept=True)).invited == [3]
    me = render(await service.me_text(threes, 1), "en")
    assert "Team **Aces** (invite pending: waiting for <@3> to accept)" in me
    assert (await service.answer_invite(threes, 3, accept=True)).status == "active"
    assert "Team **Aces** (active)" in render(await service.me_text(threes, 3), "en")
    # a decline dissolves the team, and the league channel says so (the others are free again)
    await service.invite(threes, 4, [5, 6], "Kings")
    await service.answer_invite(threes, 5, accept=False)
    (said,) = [render(c, "en") for c in gateway.posted("declined")]
    assert said == (
        "👋 **Kings** won't play in **Spades Thursday**: <@5> declined the invite."
        " <@4> and <@6> can form a new team with `/league invite`."
    )
    with pytest.raises(LeagueRefusal, match="no pending team invite"):
        await service.answer_invite(threes, 6, accept=True)
    await service.invite(threes, 4, [6, 7], "Kings")
    for p in (6, 7):
        await service.answer_invite(threes, p, accept=True)

    night_id = await open_checkin(service, clock)
    for p in (1, 2, 3, 4, 6, 7):
        await service.check_in(night_id, p)
    with pytest.raises(LeagueRefusal, match="fixed teams of three: sign up with your two partners"):
        await service.check_in(night_id, 5)  # declined Kings: not on the roster
    clock.at = FIRST_START
    await service.tick()
    (table,) = await service.store.rounds.round_tables(night_id, 1)
    assert sorted(map(sorted, table.sides)) == [[1, 2, 3], [4, 6, 7]]  # type: ignore[arg-type]
    assert table.table_id is not None
    seats = gateway.opened[table.table_id]
    assert {frozenset(seats[0::2]), frozenset(seats[1::2])} == {frozenset({1, 2, 3}), frozenset({4, 6, 7})}
    await finish_all(service, gateway, 1, night_id)
    rows, held = await service.standings_rows(threes)
    names = await service.entrant_names(threes)
    assert held == 1 and [r.games for r in rows] == [1, 1]
    # side 0 won (finish_all): its team leads the standings, shown with its three players
    top = "**Aces** (<@1> + <@2> + <@3>)" if 1 in table.sides[0] else "**Kings** (<@4> + <@6> + <@7>)"
    assert render(names(rows[0].entrant), "en") == top
    assert rows[0].wins == 1 and rows[1].losses + rows[1].close_losses == 1
    before = render(await service.standings_text(threes), "en")
    # an admin takes a member off: the team is dissolved, its game stays the team's in the standings
    await service.remove(threes, ADMIN, 2, "moved away")
    assert render(await service.standings_text(threes), "en") == before
    assert "(invite pending" not in render(await service.me_text(threes, 1), "en")
    assert "Team **Aces**" not in render(await service.me_text(threes, 1), "en")
    with pytest.raises(LeagueRefusal, match="is not on this league's roster"):
        await service.remove(threes, ADMIN, 2, "again")
    # admins don't put players on fixed teams: the players form a new team by invite
    with pytest.raises(LeagueRefusal, match="sign up with `/league invite`"):
        await service.add_member(threes, ADMIN, 8)
    import time

    import bot.storage.league_rosters as rosters

    monkeypatch.setattr(rosters, "_now", lambda: int(time.time()) + 60)  # a minute after the game
    await service.invite(threes, 1, [3, 8], "Aces Again")
    for p in (3, 8):
        await service.answer_invite(threes, p, accept=True)
    assert {t.name: t.members for t in await service.store.rosters.teams(threes.id)} == {
        "Kings": [4, 6, 7],
        "Aces Again": [1, 3, 8],
    }
    # the new team did not play the game the old one played: the old team keeps it
    rows, _held = await service.standings_rows(threes)
    names = await service.entrant_names(threes)
    games = {render(names(r.entrant), "en").split("**")[1]: r.games for r in rows}
    assert games == {"Aces": 1, "Kings": 1, "Aces Again": 0}


async def test_a_substitute_plays_for_the_fixed_team(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service, fmt="fixed", rounds=1)
    for captain, partner, name in ((1, 2, "Aces"), (3, 4, "Kings")):
        await service.invite(league, captain, partner, name)
        await service.answer_invite(league, partner, accept=True)
    night_id = await open_checkin(service, clock)
    for p in (1, 2, 3, 4):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await service.substitute(league, ADMIN, 2, 9, "called away")
    await finish_all(service, gateway, 1, night_id)
    rows, _held = await service.standings_rows(league)
    assert len(rows) == 2 and all(str(r.entrant).startswith("team:") for r in rows)
    assert sorted(r.games for r in rows) == [1, 1]


async def test_starting_a_night_with_too_few_players_says_what_the_admin_can_do(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """Issue 8: `/league admin start` with nobody checked in opens check-in early and says so, with
    the admin's options, in the admin's language."""
    from bot.i18n import render

    league = await create(service, rounds=1)
    await service.sign_up(league, 1)
    with pytest.raises(LeagueRefusal) as refused:
        await service.start_now(league, ADMIN)
    english = render(refused.value.message, "en")
    assert "Not enough players are checked in" in english and ": 0," in english
    assert "I opened check-in early" in english and f"<#{CHANNEL}>" in english
    assert "`/league admin start`" in english and "`/league admin postpone`" in english
    assert len(gateway.checkin_posts) == 1  # check-in really is open now
    night = await service.current_night(league)
    assert night is not None and night.status == "checkin"
    polish = render(refused.value.message, "pl")
    assert "Otworzyłem zgłoszenia wcześniej" in polish and "`/liga admin start`" in polish
    assert "`/liga admin przesuń`" in polish and "Run `" not in polish
    # a second try, with check-in already open and one player in, says check-in is open
    await service.check_in(night.id, 1)
    with pytest.raises(LeagueRefusal) as again:
        await service.start_now(league, ADMIN)
    text = render(again.value.message, "cs")
    assert ": 1," in text and "Přihlašování je otevřené" in text and "`/liga admin start`" in text


@pytest.mark.parametrize("lang", ["pl", "cs", "ru"])
async def test_league_posts_and_answers_follow_the_language(
    service: LeagueService, gateway: FakeGateway, clock: Clock, lang: str
) -> None:
    """Posts and answers are lazy texts: rendered in another language, none of the English template
    is left and no placeholder is unfilled; long lists still fit Discord's 2,000 characters."""
    from bot.i18n import render

    league = await create(service, rounds=1, leftover="bot")
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(minutes=1)
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    texts = [
        gateway.checkin_posts[0][2],
        *(c for _, c in gateway.posts),
        await service.standings_text(league),
        await service.schedule_text(league),
        await service.history_text(league),
        await service.me_text(league, 1),
    ]
    assert any("seats are drawn" in t for t in texts)  # the check-in post, in English as a str
    for t in texts:
        shown = render(t, lang)
        assert shown != str(t), t
        assert "%(" not in shown and len(shown) <= 2000
        for english in ("night ", "round ", "Table ", "Check in", "standings", "Rating", "Next night"):
            assert english not in shown, (lang, english, shown)


async def test_a_league_created_inside_its_check_in_window_does_not_blame_the_bot(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """Created 10 minutes before its first night: check-in opens at once and says why, not that
    the bot was offline (it was not)."""
    clock.at = FIRST_START - timedelta(minutes=10)
    league = await create(service)
    await service.tick()
    ((_, night_id, content, _),) = gateway.checkin_posts
    assert "created after its check-in time" in content and "offline" not in content
    night = await service.current_night(league)
    assert night is not None and night.id == night_id and night.status == "checkin"


async def test_a_night_of_one_round_posts_its_results_once(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    (night_post,) = gateway.posted("night 1 results")
    assert not gateway.posted("round 1 results")  # the same single line is not posted twice
    assert "🏆" in night_post and night_post.index("**510**") < night_post.index("**300**")


async def test_missing_the_last_night_gives_its_week_back_and_the_season_goes_on(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """The missed last night is replaced by the week after it: no final standings at once, and
    the event is on the new last night (it was created for it and cancelled in the same tick)."""
    await create(service, weeks=1)
    clock.at = FIRST_START + timedelta(hours=2)
    await service.tick()
    await service.tick()
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert league.status == "active"
    assert [n.day.isoformat() for n in service.schedule_of(league).nights()] == ["2026-10-29"]
    assert gateway.posted("final standings") == []
    assert gateway.events[-1][1] is not None and gateway.events[-1][1].key == "2026-10-29"
    # the night given back is held as usual
    clock.at = FIRST_START + timedelta(days=7, minutes=-30)
    await service.tick()
    assert len(gateway.checkin_posts) == 1


async def test_a_night_just_after_the_spring_forward_gap_runs(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """03:15 in Warsaw on the last Sunday of March: check-in opens 30 real minutes before the start
    (not after it), nothing says the bot was offline, and the night starts."""
    start = datetime(2027, 3, 28, 1, 15, tzinfo=UTC)
    clock.at = start - timedelta(days=2)
    await create(service, weekday="sunday", at="03:15", zone="Europe/Warsaw", weeks=2)
    clock.at = start - timedelta(minutes=31)
    await service.tick()
    assert gateway.checkin_posts == []
    clock.at = start - timedelta(minutes=30)
    await service.tick()
    ((_, night_id, content, _),) = gateway.checkin_posts
    assert "offline" not in content
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = start
    await service.tick()
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "playing"
    assert gateway.admin_notes == []


async def test_the_nights_event_is_active_from_its_start_and_completed_at_its_end(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """One event per night: active when the night starts, completed when it ends, a fresh one for
    the next night (never a second "night 2", never a running event moved or cancelled)."""
    await create(service, weeks=2, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    assert gateway.events_by_night() == {1: [1]}
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    assert gateway.events_by_night() == {1: [2]}
    await finish_all(service, gateway, 1, night_id)  # the night ends before its event's end time
    await service.tick()
    await service.tick()
    assert gateway.events_by_night() == {1: [3], 2: [1]}
    # night 2 is the last: played, the season ends and its event is completed, not cancelled
    clock.at = FIRST_START + timedelta(days=7, minutes=-30)
    await service.tick()
    night2 = await service.current_night((await service.store.rosters.leagues(GUILD))[0])
    assert night2 is not None
    for p in range(1, 5):
        await service.check_in(night2.id, p)
    clock.at = FIRST_START + timedelta(days=7, seconds=5)
    await service.tick()
    await finish_all(service, gateway, 1, night2.id)
    await service.tick()
    assert gateway.events_by_night() == {1: [3], 2: [3]}


async def test_a_night_cancelled_at_its_start_ends_its_running_event(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """Too few players at the start: Discord has started the event, so it is completed (a cancel
    would be refused) and the next night gets its own."""
    await create(service, weeks=3)
    await open_checkin(service, clock)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    await service.tick()
    # (the week given back: the next night is night 1 again, a week later, with its own event)
    assert gateway.events_by_night() == {1: [3, 1]}
    assert [n.start_utc for n, st in gateway.discord_events.values() if st == 1] == [
        FIRST_START + timedelta(days=7)
    ]


async def test_a_night_below_the_minimum_is_cancelled_and_gives_its_week_back(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service, weeks=2, min_players=6)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    assert gateway.opened == {}
    (off,) = gateway.posted("is off")
    assert "4 players checked in, and a night needs 6" in off and "2026-11-05" in off
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert [n.day.isoformat() for n in service.schedule_of(league).nights()] == ["2026-10-29", "2026-11-05"]


async def test_without_a_name_the_servers_one_league_is_meant(service: LeagueService) -> None:
    with pytest.raises(LeagueRefusal) as none_yet:
        await service.league(GUILD, None)
    assert "no league yet" in str(none_yet.value.message)
    first = await create(service)
    assert (await service.league(GUILD, None)).id == first.id
    assert (await service.league(GUILD, "  ")).id == first.id
    await create(service, name="Spades Monday", weekday="monday", channel_id=CHANNEL + 1)
    with pytest.raises(LeagueRefusal) as several:
        await service.league(GUILD, None)
    said = str(several.value.message)
    assert "several leagues" in said and "Spades Thursday" in said and "Spades Monday" in said
    # the option as each reader's client names it
    from bot.i18n import render

    assert "`league:`" in render(several.value.message, "en")
    assert "`liga:`" in render(several.value.message, "pl") and "`лига:`" in render(
        several.value.message, "ru"
    )
    assert (await service.league(GUILD, "Spades Monday")).name == "Spades Monday"


async def test_the_seating_post_pings_exactly_the_seated_players(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service)
    night_id = await open_checkin(service, clock)
    for p in range(1, 10):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    (i,) = [i for i, (_, c) in enumerate(gateway.posts) if "round 1 of 2" in c]
    (bye,) = [u for _r, u in await service.store.rounds.byes(night_id)]
    assert sorted(gateway.pinged[i]) == sorted(set(range(1, 10)) - {bye})
    assert all(not users for j, users in enumerate(gateway.pinged) if j != i)  # no other post pings


async def test_a_late_check_in_joins_the_next_round_without_an_admin(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """Check-in stays open ``late_minutes`` after the start (the post says until when); a late
    arrival is seated from the next round; after the grace the post closes and refuses."""
    await create(service, late_minutes=20, round_minutes=60)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    assert gateway.checkin_edits[-1][2] is False and "late arrivals" in gateway.checkin_edits[-1][1]
    clock.at = FIRST_START + timedelta(minutes=10)
    for p in (5, 6, 7, 8):
        assert "next round" in await service.check_in(night_id, p)
    await finish_all(service, gateway, 1, night_id)
    r2 = await service.store.rounds.round_tables(night_id, 2)
    assert sorted(p for t in r2 for p in t.players) == list(range(1, 9))
    clock.at = FIRST_START + timedelta(minutes=21)
    await service.tick()
    assert gateway.checkin_edits[-1][2] is True  # closed
    with pytest.raises(LeagueRefusal, match="Check-in closed"):
        await service.check_in(night_id, 9)


async def test_check_in_window_and_late_grace_are_settings_checked_where_typed(
    service: LeagueService, clock: Clock
) -> None:
    with pytest.raises(LeagueRefusal, match="5 to 720 minutes"):
        await create(service, checkin_minutes=2)
    with pytest.raises(LeagueRefusal, match="0 to 120 minutes"):
        await create(service, late_minutes=500)
    league = await create(service, checkin_minutes=60)
    clock.at = FIRST_START - timedelta(minutes=61)
    await service.tick()
    night = await service.current_night(league)
    assert night is not None and night.status == "scheduled"
    assert night.checkin_at == int((FIRST_START - timedelta(minutes=60)).timestamp())
    league = await service.edit(league, ADMIN, checkin_minutes=15)
    night = await service.current_night(league)
    assert night is not None and night.checkin_at == int((FIRST_START - timedelta(minutes=15)).timestamp())
    with pytest.raises(LeagueRefusal, match="0 to 120 minutes"):
        await service.edit(league, ADMIN, late_minutes=-1)


async def test_cancel_tonight_in_any_phase_gives_the_week_back(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """Under way: the live tables stop, nothing of the night counts, the season ends a week later,
    the night's running event is completed (not cancelled). Before check-in too."""
    league = await create(service, weeks=2, late_minutes=0)
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    r1 = await service.store.rounds.round_tables(night_id, 1)
    first = r1[0]
    assert first.table_id is not None
    gateway.finished[first.table_id] = TableOutcome([510, 300], [2, 4], 0, complete=True)
    await service.game_finished(first.table_id, gateway.finished[first.table_id])
    assert "week back" in str(await service.cancel_tonight(league, ADMIN, "storm"))
    assert sorted(gateway.stopped) == sorted(t.table_id or 0 for t in r1[1:])
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "cancelled"
    assert await service.store.rounds.night_results(night_id) == []  # nothing counts
    (post,) = gateway.posted("is cancelled by")
    assert "storm" in post and "2026-11-05" in post
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert [n.day.isoformat() for n in service.schedule_of(league).nights()] == ["2026-10-29", "2026-11-05"]
    assert gateway.events_by_night() == {1: [3, 1]}  # completed; a fresh event for the next night
    # a night not started yet is cancelled the same way (its scheduled event moves to the next)
    assert "week back" in str(await service.cancel_tonight(league, ADMIN))
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert [n.day.isoformat() for n in service.schedule_of(league).nights()] == ["2026-11-05", "2026-11-12"]
    assert [s for n, s in gateway.discord_events.values() if s == 1] == [1]


async def test_an_admin_voids_a_table_and_its_result_no_longer_counts(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service, rounds=1, late_minutes=0)
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    t1, t2 = await service.store.rounds.round_tables(night_id, 1)
    assert t1.table_id is not None and t2.table_id is not None
    await service.game_finished(t1.table_id, TableOutcome([510, 300], [2, 4], 0, complete=True))
    with pytest.raises(LeagueRefusal, match="no table 7"):
        await service.void_table(league, ADMIN, round_no=None, table_no=7, reason="typo")
    assert "is void" in str(
        await service.void_table(league, ADMIN, round_no=None, table_no=2, reason="cheat")
    )
    assert gateway.stopped == [t2.table_id]
    # the round (and the one-round night) is over: only table 1 counts
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "finished"
    assert [r.table_no for r in await service.store.rounds.night_results(night_id)] == [1]
    # a late result of the voided game is not recorded
    await service.game_finished(t2.table_id, TableOutcome([510, 300], [2, 4], 0, complete=True))
    assert [r.table_no for r in await service.store.rounds.night_results(night_id)] == [1]


async def test_the_organiser_hears_before_the_night_that_threads_are_missing(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    from bot.i18n import render

    await create(service)
    gateway.thread_missing = ["create_public_threads"]
    await open_checkin(service, clock)
    (note,) = gateway.admin_notes
    assert "Create Public Threads" in render(note, "en") and "one table of each round" in render(note, "en")


async def test_interested_members_get_one_nudge_when_check_in_opens(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(service)
    event_id = (await service.store.rosters.get_league(league.id)).settings["event_id"]  # type: ignore[union-attr]
    gateway.interested[event_id] = [7, 8, 8]
    night_id = await open_checkin(service, clock)
    (i,) = [i for i, (_, c) in enumerate(gateway.posts) if "marked the event as Interested" in c]
    assert gateway.pinged[i] == [7, 8]
    await service.check_in(night_id, 7)
    await service.tick()
    assert len(gateway.posted("marked the event as Interested")) == 1  # one nudge per night


async def test_opt_in_direct_messages_for_check_in_and_seating(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    """``/league me notify:``: a test message says whether DMs are open; check-in opening and the
    player's table come by DM; a DM that bounces is named in the channel."""
    league = await create(service)
    for p in range(1, 5):
        await service.sign_up(league, p)
    with pytest.raises(LeagueRefusal, match="not on"):
        await service.set_notify(league, 42, "both")
    assert "you get direct messages" in str(await service.set_notify(league, 1, "both"))
    assert gateway.dms[-1][0] == 1
    await service.set_notify(league, 2, "seating")
    gateway.dms_closed.add(3)
    answer = await service.set_notify(league, 3, "checkin")
    from bot.i18n import render

    assert "could not reach you" in render(answer, "en")
    gateway.dms.clear()
    night_id = await open_checkin(service, clock)
    assert [u for u, c in gateway.dms] == [1] and "Check-in for" in gateway.dms[0][1]
    (bounced,) = gateway.posted("could not send a direct message")
    assert "<@3>" in bounced
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    assert sorted(u for u, c in gateway.dms if "your table" in c) == [1, 2]
