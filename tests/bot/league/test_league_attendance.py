"""Attendance on league nights: the no-show rule, check-outs, standby players and substitutes
(``bot.league.attendance``, ``bot.league.standby``), over real storage and the recording gateway of
the league service's tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest

from bot.i18n import render
from bot.league import attendance
from bot.league.attendance import AttendanceError, AttendanceRule
from bot.league.gateway import SeatState
from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.league.standings import GameResult, PointsRule, standings
from bot.render.league import standings_lines
from bot.storage import Storage
from bot.storage.leagues import LeagueRow, LeagueStore, LeagueTable

from .test_league_service import ADMIN, FIRST_START, MONDAY, Clock, FakeGateway, create, open_checkin


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY)


@pytest.fixture
def gateway(storage: Storage) -> FakeGateway:
    return FakeGateway(storage)


@pytest.fixture
def service(storage: Storage, gateway: FakeGateway, clock: Clock) -> LeagueService:
    return LeagueService(LeagueStore(storage), gateway, clock=clock)


# ---- the pure rules ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sub:
    out_id: int
    in_id: int
    acts_at: int
    auto_at: int


def test_a_seat_mostly_played_by_the_bot_is_a_no_show() -> None:
    rule = AttendanceRule()
    played = attendance.credit([[1, 2], [3, None]], {1: (20, 15), 2: (20, 0), 3: (20, 10)}, [], rule)
    assert played.no_shows == {1}  # 75% by the bot; exactly half (3) is not over the share
    assert played.sides == [[1, 2], [3, None]]
    assert attendance.credit([[1, 2]], {1: (20, 15)}, [], AttendanceRule(share=80)).no_shows == set()
    assert attendance.credit([[1, 2]], {1: (20, 15)}, [], AttendanceRule(no_show="off")).no_shows == set()


def test_a_substituted_seat_counts_for_the_substitute_or_the_owner() -> None:
    # the owner (1) played 4 of the first 10 actions (the bot 6), the substitute (9) the last 10
    subs = [Sub(1, 9, 10, 6)]
    seats = {9: (20, 0), 2: (20, 0)}
    to_sub = attendance.credit([[9, 2]], seats, subs, AttendanceRule())
    assert to_sub.sides == [[9, 2]] and to_sub.as_sub == {9} and to_sub.no_shows == set()
    to_owner = attendance.credit([[9, 2]], seats, subs, AttendanceRule(credit="owner"))
    assert to_owner.sides == [[1, 2]] and to_owner.no_shows == {1}  # 4 of 20 played: a no-show
    kept = attendance.credit([[9, 2]], {9: (20, 0)}, [Sub(1, 9, 14, 0)], AttendanceRule(credit="owner"))
    assert kept.sides == [[1, 2]] and kept.no_shows == set()  # the owner played 14 of 20


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"share": 5}, "share_range"),
        ({"share": 95}, "share_range"),
        ({"miss_minutes": 61}, "miss_range"),
        ({"drop_after": -1}, "drop_range"),
        ({"no_show": "ban"}, "bad_no_show"),
        ({"credit": "nobody"}, "bad_credit"),
    ],
)
def test_attendance_settings_out_of_range_are_refused(kw: dict[str, object], code: str) -> None:
    with pytest.raises(AttendanceError) as refused:
        AttendanceRule(**kw)  # type: ignore[arg-type]
    assert refused.value.code == code


def test_a_no_show_forfeits_and_the_partner_keeps_the_win() -> None:
    rule = PointsRule()
    game = GameResult(1, ((1, 2), (3, 4)), (510, 300), (0, 0), 0, forfeits=frozenset({1}))
    rows = {r.entrant: r for r in standings([game], rule)}
    assert rows[2].points == rule.win and rows[2].wins == 1
    assert rows[1].points == rule.loss and rows[1].losses == 1 and rows[1].no_shows == 1
    assert rows[1].nights == set() and rows[1].point_diff == 0  # not a night attended
    skipped = GameResult(1, ((1, 2), (3, 4)), (510, 300), (0, 0), 0, skipped=frozenset({1}))
    rows = {r.entrant: r for r in standings([skipped], rule)}
    assert rows[1].games == 0 and rows[1].no_shows == 1 and rows[2].games == 1
    line = render(standings_lines([rows[1]], str, 1)[0], "en")
    assert "1 no-show" in line


# ---- a night -------------------------------------------------------------------------------------


async def start_night(service: LeagueService, clock: Clock, players: list[int], **kw: object) -> int:
    await create(service, leftover="bot", **kw)
    night_id = await open_checkin(service, clock)
    for p in players:
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    return night_id


async def the_table(service: LeagueService, night_id: int, round_no: int = 1) -> LeagueTable:
    (lt,) = await service.store.rounds.round_tables(night_id, round_no)
    assert lt.table_id is not None
    return lt


def live(gateway: FakeGateway, lt: LeagueTable, **states: SeatState) -> None:
    """The live table's seats: every seat played by its player, except those given."""
    assert lt.table_id is not None
    gateway.seats[lt.table_id] = {u: states.get(f"p{u}", SeatState(10, 0, False)) for u in lt.players}


async def league_of(service: LeagueService) -> LeagueRow:
    return (await service.store.rosters.leagues(1))[0]


async def test_a_no_show_earns_no_points_and_is_not_seated_again(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    night_id = await start_night(service, clock, [1, 2, 3, 4])
    lt = await the_table(service, night_id)
    absent = lt.sides[0][0]
    assert absent is not None
    partner = lt.sides[0][1]
    seats = {u: (20, 0) for u in lt.players} | {absent: (20, 16)}
    outcome = TableOutcome([510, 300], [0, 0], 0, complete=True, seats=seats)
    gateway.finished[lt.table_id or 0] = outcome
    await service.game_finished(lt.table_id or 0, outcome)
    league = await league_of(service)
    rows = {r.entrant: r for r in (await service.standings_rows(league))[0]}
    assert rows[absent].points == 0 and rows[absent].losses == 1 and rows[absent].no_shows == 1
    assert rows[partner].points == 2 and rows[partner].wins == 1  # the partner's win stands
    assert "1 no-show" in await service.standings_text(league)
    assert "1 no-show" in render(await service.me_text(league, absent), "en")
    r2 = await the_table(service, night_id, 2)
    assert absent not in r2.players and len(r2.players) == 3  # three players and a bot
    assert await service.no_shows(league) == {absent: 1}
    assert "no-show" in render(await service.history_text(league), "en")


async def test_missing_the_first_minutes_of_a_round_is_a_no_show_and_a_standby_is_offered_the_seat(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    night_id = await start_night(service, clock, [1, 2, 3, 4])
    assert "standby list" in await service.answer(night_id, 7, "sub")
    with pytest.raises(LeagueRefusal, match="already on tonight's standby list"):
        await service.answer(night_id, 7, "sub")
    lt = await the_table(service, night_id)
    late = lt.players[0]
    live(gateway, lt, **{f"p{late}": SeatState(3, 3, False)})  # the bot acted each time
    clock.advance(minutes=5)
    await service.tick()
    assert gateway.released == [] and gateway.offers == []  # not yet
    clock.advance(minutes=6)
    await service.tick()
    assert gateway.released == [(lt.table_id, late)]  # the bot plays the seat from now on
    ((channel, table, out, standby, content),) = gateway.offers
    assert (channel, table, out, standby) == (lt.channel_id, lt.id, late, 7) and "<@7>" in content
    await service.tick()
    assert len(gateway.offers) == 1  # offered once
    with pytest.raises(LeagueRefusal, match="standby players"):
        await service.take_seat(lt.id, late, 8)
    assert "You took the seat" in await service.take_seat(lt.id, late, 7)
    await service.answer(night_id, 8, "sub")
    with pytest.raises(LeagueRefusal, match="already took"):
        await service.take_seat(lt.id, late, 8)  # two clicks: one seat
    assert 7 in (await the_table(service, night_id)).players
    # the game ends; round 2 seats the substitute, not the no-show
    seats = {u: (20, 0) for u in (await the_table(service, night_id)).players} | {7: (20, 0)}
    outcome = TableOutcome([510, 300], [0, 0], 0, complete=True, seats=seats)
    await service.game_finished(lt.table_id or 0, outcome)
    r2 = await the_table(service, night_id, 2)
    assert 7 in r2.players and late not in r2.players
    rows = {r.entrant: r for r in (await service.standings_rows(await league_of(service)))[0]}
    assert rows[7].sub_games == 1 and rows[7].games == 1
    assert late not in rows or rows[late].games == 0
    with pytest.raises(LeagueRefusal, match="out for tonight"):
        await service.answer(night_id, late, "in")


async def test_checking_out_during_the_night(
    storage: Storage, service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    night_id = await start_night(service, clock, [1, 2, 3, 4, 5])  # five: one bye-less bot seat
    tables = await service.store.rounds.round_tables(night_id, 1)
    seated = [u for t in tables for u in t.players]
    leaving = seated[0]
    lt = next(t for t in tables if leaving in t.players)
    live(gateway, lt)
    await service.answer(night_id, 8, "sub")
    message = render(await service.answer(night_id, leaving, "out"), "en")
    assert "out for tonight" in message and "standby" in message
    assert gateway.released == [(lt.table_id, leaving)]
    assert gateway.offers and gateway.offers[0][3] == 8
    with pytest.raises(LeagueRefusal, match="already out"):
        await service.answer(night_id, leaving, "out")
    with pytest.raises(LeagueRefusal, match="nothing to check out"):
        await service.answer(night_id, 42, "out")
    # a restart: nothing is offered twice, the player stays out
    service = LeagueService(LeagueStore(storage), gateway, clock=clock)
    await service.tick()
    assert len(gateway.offers) == 1
    with pytest.raises(LeagueRefusal, match="already out"):
        await service.answer(night_id, leaving, "out")
    # nobody takes the seat: the bot plays on; the player who left is not seated again
    for t in tables:
        assert t.table_id is not None
        outcome = TableOutcome([510, 300], [0, 0], 0, complete=True, seats={u: (20, 0) for u in t.players})
        await service.game_finished(t.table_id, outcome)
    r2 = [u for t in await service.store.rounds.round_tables(night_id, 2) for u in t.players]
    assert leaving not in r2 and 8 not in r2


async def test_an_admin_substitute_plays_the_rest_of_the_night_unless_the_player_comes_back(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    night_id = await start_night(service, clock, [1, 2, 3, 4], rounds=3)
    lt = await the_table(service, night_id)
    out = lt.players[0]
    live(gateway, lt)
    league = await league_of(service)
    await service.substitute(league, ADMIN, out, 9, "called away")

    async def finish(round_no: int) -> list[int]:
        t = await the_table(service, night_id, round_no)
        outcome = TableOutcome([510, 300], [0, 0], 0, complete=True, seats={u: (20, 0) for u in t.players})
        await service.game_finished(t.table_id or 0, outcome)
        return (await the_table(service, night_id, round_no + 1)).players

    r2 = await finish(1)
    assert 9 in r2 and out not in r2  # the substitute plays on
    assert "Welcome back" in render(await service.answer(night_id, out, "in"), "en")
    r3 = await finish(2)
    assert out in r3 and 9 not in r3
    assert await service.store.attendance.standbys(night_id) == [9]  # a standby again


async def test_the_drop_rule_takes_a_repeated_no_show_off_the_roster(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, leftover="bot")
    league = await league_of(service)
    with pytest.raises(LeagueRefusal, match="10 to 90 percent"):
        await service.set_attendance(league, ADMIN, share=5)
    with pytest.raises(LeagueRefusal, match="Nothing to change"):
        await service.set_attendance(league, ADMIN)
    league = await service.set_attendance(league, ADMIN, drop_after=1)
    assert "1 no-show in a season: off the roster" in render(await service.schedule_text(league), "en")
    night_id = await open_checkin(service, clock)
    for p in (1, 2, 3, 4):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    lt = await the_table(service, night_id)
    gone = lt.players[1]
    seats = {u: (20, 0) for u in lt.players} | {gone: (20, 20)}
    await service.game_finished(lt.table_id or 0, TableOutcome([510, 300], [0, 0], 0, True, seats=seats))
    assert await service.store.rosters.member(league.id, gone) is None
    assert gateway.posted("off the roster")


async def test_a_fixed_team_keeps_its_result_while_one_partner_was_there(
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
    lt = await the_table(service, night_id)
    aces = next(i for i, side in enumerate(lt.sides) if 1 in side)
    # one Ace never played; both Kings never played
    seats = {1: (20, 20), 2: (20, 0), 3: (20, 20), 4: (20, 20)}
    scores = [300, 300]
    scores[aces] = 510
    outcome = TableOutcome(scores, [0, 0], aces, complete=True, seats=seats)
    await service.game_finished(lt.table_id or 0, outcome)
    rows = (await service.standings_rows(league))[0]
    names = await service.entrant_names(league)
    by_name = {render(names(r.entrant), "en").split("**")[1]: r for r in rows}
    assert by_name["Aces"].points == 2 and by_name["Aces"].no_shows == 0
    assert by_name["Kings"].points == 0 and by_name["Kings"].no_shows == 1 and by_name["Kings"].losses == 1
