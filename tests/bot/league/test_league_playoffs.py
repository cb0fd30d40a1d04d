"""Playoffs (bot.league.playoffs): who qualifies, the bracket, and over real storage with the
recording gateway of test_league_service.py, a season whose finals night crowns its champion."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.league import playoffs, standings
from bot.league.finals import finals_number
from bot.league.playoffs import PlayoffError, PlayoffRule, matches, pair_sides, qualify, take_places, winner
from bot.league.schedule import Schedule
from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.storage import Storage
from bot.storage.leagues import LeagueStore, Result
from tests.bot.league.test_league_service import (
    ADMIN,
    FIRST_START,
    GUILD,
    MONDAY,
    Clock,
    FakeGateway,
    create,
    finish_all,
    open_checkin,
)


class TestClock(Clock):
    """test_league_service.py's clock, with all of ``bot.clock.Clock``."""

    __test__ = False

    def real_seconds(self, seconds: float) -> float:
        return 0.0


@pytest.fixture
def clock() -> TestClock:
    return TestClock(MONDAY)


@pytest.fixture
def gateway(storage: Storage, clock: TestClock) -> FakeGateway:
    return FakeGateway(storage, clock=clock)


@pytest.fixture
def service(storage: Storage, gateway: FakeGateway, clock: TestClock) -> LeagueService:
    return LeagueService(LeagueStore(storage), gateway, clock=clock)


def row(e: int, points: int, nights: int, rank: int, games: int | None = None) -> standings.Row:
    return standings.Row(
        e,
        points=points,
        games=nights if games is None else games,
        nights=set(range(1, nights + 1)),
        rank=rank,
    )


# ---- qualifying ---------------------------------------------------------------------------------


def test_the_top_n_in_the_standings_order_qualify_and_the_rest_wait_in_line() -> None:
    rows = [row(1, 9, 3, 1), row(2, 7, 3, 2), row(3, 6, 3, 3), row(4, 5, 3, 4), row(5, 4, 3, 5)]
    assert qualify(rows, PlayoffRule(on=True, size=4)) == ([1, 2, 3, 4], [5])


def test_a_tie_at_the_cut_goes_to_the_entrant_with_more_nights_played() -> None:
    # 3 and 4 share third place (every tiebreak level): 4 played more nights and takes the place
    rows = [row(1, 9, 3, 1), row(2, 7, 3, 2), row(3, 6, 2, 3, games=3), row(4, 6, 3, 3), row(5, 6, 1, 3)]
    assert qualify(rows, PlayoffRule(on=True, size=3)) == ([1, 2, 4], [3, 5])


def test_the_minimum_of_nights_keeps_out_who_played_too_little_and_the_next_moves_up() -> None:
    rows = [row(1, 9, 1, 1), row(2, 7, 3, 2), row(3, 6, 3, 3), row(4, 5, 2, 4), row(5, 4, 2, 5)]
    assert qualify(rows, PlayoffRule(on=True, size=4, min_nights=2)) == ([2, 3, 4, 5], [])
    # unranked (short of the standings' own minimum) or never played: no place either
    unranked = [row(1, 9, 3, 0), row(2, 0, 0, 2), row(3, 6, 3, 3)]
    assert qualify(unranked, PlayoffRule(on=True, size=4)) == ([3], [])


def test_points_per_night_played_orders_uneven_attendance() -> None:
    # 1 has the most points over 4 nights; 2 and 3 more per night over fewer
    rows = [row(1, 8, 4, 1), row(2, 6, 2, 2), row(3, 5, 1, 3), row(4, 2, 4, 4), row(5, 1, 1, 5)]
    assert qualify(rows, PlayoffRule(on=True, size=4, per_night=True)) == ([3, 2, 1, 5], [4])
    assert qualify(rows, PlayoffRule(on=True, size=4)) == ([1, 2, 3, 4], [5])


def test_the_setting_is_checked_where_entered() -> None:
    with pytest.raises(PlayoffError) as bad:
        PlayoffRule(on=True, size=3).check("rotating")
    assert bad.value.code == "playoff_size"
    assert PlayoffRule(on=True, size=2).check("fixed").size == 2
    with pytest.raises(PlayoffError) as nights:
        PlayoffRule(on=True, min_nights=60).check("fixed")
    assert nights.value.code == "playoff_nights_range"
    schedule = Schedule.starting_after(
        FIRST_START - timedelta(days=3), weekday=3, at=FIRST_START.time(), zone_name="UTC", weeks=2
    )
    for day in ("2026-10-23", "2026-10-29", "soon"):  # not the weekday; not after the last night; not a date
        with pytest.raises(PlayoffError) as when:
            PlayoffRule(on=True, date=day).check("rotating", schedule)
        assert when.value.code == "playoff_date"
    assert PlayoffRule(on=True, date="2026-11-12").check("rotating", schedule).date == "2026-11-12"


# ---- the bracket -------------------------------------------------------------------------------


def test_a_no_show_loses_the_place_to_the_next_in_line_and_an_empty_place_stays_empty() -> None:
    assert take_places([1, 2, 3, 4], [5, 6], {1, 3, 4, 6}) == [1, 3, 4, 6]
    assert take_places([1, 2, 3, 4], [5], {2, 4}) == [2, 4, None, None]


def test_seeds_pair_up_and_four_sides_play_semis_then_the_final() -> None:
    assert pair_sides([1, 2, 3, 4], fixed=False) == [(1, 4), (2, 3)]
    assert pair_sides(list(range(1, 9)), fixed=False) == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert pair_sides(["a", "b"], fixed=True) == [("a",), ("b",)]
    assert matches(2, 1) == [(0, 1)] and matches(2, 2) == []
    assert matches(4, 1) == [(0, 3), (1, 2)]
    assert matches(4, 2, [3, 1]) == [(3, 1)]
    assert playoffs.rounds_for(2) == 1 and playoffs.rounds_for(4) == 2


def test_the_winner_of_a_match_walkovers_and_a_final_called_level() -> None:
    assert winner(0, 3, (300, 510), 1) == 3
    assert winner(0, None, None, None) == 0  # the opponent advances
    assert winner(None, None, None, None) is None
    assert winner(1, 2, (200, 200), None) == 1  # level: the higher seed
    assert winner(1, 2, (190, 200), None) == 2  # level at the top of the called hand: more points


def test_a_table_is_matched_to_its_match_whichever_side_it_seated_first() -> None:
    sides = [(1, 4), (2, None)]
    res = Result(1, 1, 2, 1, 1, [[2, None], [1, 4]], [300, 510], [0, 0], 1, True, False, None)
    assert playoffs._result_of([res], 1, sides, 0, 1) == ((510, 300), 0)
    assert playoffs._result_of([res], 2, sides, 0, 1) is None


# ---- a season with playoffs, over storage ---------------------------------------------------------


async def test_a_season_ends_with_finals_and_the_final_names_the_champion(
    storage: Storage, service: LeagueService, gateway: FakeGateway, clock: TestClock
) -> None:
    league = await create(service, weeks=1, rounds=1)
    with pytest.raises(LeagueRefusal) as bad:
        await service.set_playoffs(league, ADMIN, on=True, size=5)
    assert bad.value.code == "playoff_size"
    league = await service.set_playoffs(league, ADMIN, on=True, size=4)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    (table,) = await service.store.rounds.round_tables(night_id, 1)
    assert table.table_id is not None
    winners = set(table.sides[0])
    outcome = TableOutcome([510, 300], [2, 4], 0, complete=True)
    gateway.finished[table.table_id] = outcome
    await service.game_finished(table.table_id, outcome)
    await service.tick()
    # the regular season is over: no champion yet, the qualifiers are posted and pinged
    assert gateway.posted("final standings") == []
    (post,) = gateway.posted("the regular season is over")
    pinged = gateway.pinged[[c for _, c in gateway.posts].index(post)]
    assert sorted(pinged) == [1, 2, 3, 4]
    (league,) = await service.store.rosters.leagues(GUILD)
    assert league.status == "active"
    state = playoffs.state_of(league)
    assert state is not None and state["night"] == 2 and state["date"] == "2026-10-29"
    assert set(state["qualifiers"][:2]) == winners
    # the finals night has its own event, a week after the last night at the usual time
    assert 2 in gateway.events_by_night()

    # a restart before the finals: a new service over the same database picks it all up
    service = LeagueService(LeagueStore(storage), gateway, clock=clock)
    clock.at = FIRST_START + timedelta(days=7, minutes=-30)
    await service.tick()
    finals = await service.current_night(league)
    assert finals is not None and finals.number == 2 and finals.status == "checkin"
    seeds = state["qualifiers"]
    came = [seeds[0], seeds[1], seeds[3]]  # the third seed does not come: a bot plays their seat
    for p in (*came, 42):
        await service.check_in(finals.id, p)
    clock.at = FIRST_START + timedelta(days=7)
    await service.tick()
    (final,) = await service.store.rounds.round_tables(finals.id, 1)
    # the fourth seed moved up to the third's place; the empty last place is a bot's seat
    assert {frozenset(side) for side in final.sides} == {
        frozenset({seeds[0], None}),
        frozenset({seeds[1], seeds[3]}),
    }
    assert 42 not in final.players  # not a qualifier nor in line: not seated
    assert final.table_id is not None
    won = 0 if seeds[1] in final.sides[0] else 1  # seeds 2 and 4 win the final
    outcome = TableOutcome([420, 380] if won == 0 else [380, 420], [1, 1], won, complete=True)
    gateway.finished[final.table_id] = outcome
    await service.game_finished(final.table_id, outcome)
    await service.tick()
    (champion,) = gateway.posted("winner of the final")
    assert f"<@{seeds[1]}>" in champion and f"<@{seeds[3]}>" in champion
    assert f"<@{seeds[0]}>" not in champion
    assert sorted(gateway.pinged[[c for _, c in gateway.posts].index(champion)]) == sorted(
        [seeds[1], seeds[3]]
    )
    # the regular season's standings follow the finals, with the final's winners as champions
    (final_post,) = gateway.posted("final standings")
    assert f"Champions: <@{seeds[1]}>, <@{seeds[3]}>" in final_post
    (league,) = await service.store.rosters.leagues(GUILD)
    assert league.status == "ended"
    # the finals are no night of the standings
    rows, held = await service.standings_rows(league)
    assert held == 1 and sum(r.games for r in rows) == 4
    await service.tick()
    assert len(gateway.posted("winner of the final")) == 1  # once
    # a new season: the last one's finals stay out of its standings (its CSV export reads them)
    league = await service.new_season(league, ADMIN)
    assert finals_number(league, 1) == 2 and playoffs.state_of(league) is None
    assert len(service.schedule_of(league).nights()) == 1  # as long as the last regular season
    rows, held = await service.standings_rows(league, 1)
    assert held == 1 and sum(r.games for r in rows) == 4


async def test_fixed_teams_play_semis_then_the_final_and_a_no_show_gives_the_walkover(
    service: LeagueService, gateway: FakeGateway, clock: TestClock
) -> None:
    league = await create(service, fmt="fixed", weeks=1, rounds=1)
    for a, b, name in ((1, 2, "Aces"), (3, 4, "Kings"), (5, 6, "Queens"), (7, 8, "Jacks")):
        await service.invite(league, a, b, name)
        await service.answer_invite(league, b, accept=True)
    league = await service.set_playoffs(league, ADMIN, on=True)  # 4 teams: semis and a final
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    await service.tick()
    (league,) = await service.store.rosters.leagues(GUILD)
    state = playoffs.state_of(league)
    assert state is not None
    members = {f"team:{t.id}": t.members for t in await service.store.rosters.teams(league.id)}
    names = {f"team:{t.id}": t.name for t in await service.store.rosters.teams(league.id)}
    seeds = state["qualifiers"]
    assert len(seeds) == 4
    clock.at = FIRST_START + timedelta(days=7, minutes=-30)
    await service.tick()
    finals = await service.current_night(league)
    assert finals is not None and finals.number == 2
    for team in seeds[:3]:  # the fourth seed stays home: the first seed's semi is a walkover
        for p in members[team]:
            await service.check_in(finals.id, p)
    clock.at = FIRST_START + timedelta(days=7)
    await service.tick()
    (semi,) = await service.store.rounds.round_tables(finals.id, 1)
    assert {frozenset(s) for s in semi.sides} == {frozenset(members[seeds[1]]), frozenset(members[seeds[2]])}
    assert gateway.posted("night 2, round 1 of 2")
    # the third seed wins the semi
    assert semi.table_id is not None
    won = 0 if set(semi.sides[0]) == set(members[seeds[2]]) else 1
    outcome = TableOutcome([510, 300] if won == 0 else [300, 510], [0, 0], won, complete=True)
    gateway.finished[semi.table_id] = outcome
    await service.game_finished(semi.table_id, outcome)
    (final,) = await service.store.rounds.round_tables(finals.id, 2)
    assert {frozenset(s) for s in final.sides} == {frozenset(members[seeds[0]]), frozenset(members[seeds[2]])}
    assert gateway.posted("round 2 of 2") and gateway.posted("winner of the final") == []
    assert final.table_id is not None
    won = 0 if set(final.sides[0]) == set(members[seeds[2]]) else 1  # and the final
    outcome = TableOutcome([250, 240] if won == 0 else [240, 250], [0, 0], won, complete=True)
    gateway.finished[final.table_id] = outcome
    await service.game_finished(final.table_id, outcome)
    await service.tick()
    (champion,) = gateway.posted("winner of the final")
    assert f"**{names[seeds[2]]}**" in champion and f"**{names[seeds[0]]}**" not in champion
    assert sorted(gateway.pinged[[c for _, c in gateway.posts].index(champion)]) == sorted(members[seeds[2]])
    (league,) = await service.store.rosters.leagues(GUILD)
    assert league.status == "ended"


def test_fewer_qualifiers_than_places_leave_the_last_places_empty() -> None:
    # three players qualified for a bracket of four: the third seed's partner is a bot
    field = take_places([1, 2, 3], [], {1, 2, 3}, 4)
    assert field == [1, 2, 3, None]
    assert pair_sides(field, fixed=False) == [(1, None), (2, 3)]


async def test_ending_the_season_before_the_finals_names_the_standings_first(
    service: LeagueService, gateway: FakeGateway, clock: TestClock
) -> None:
    league = await create(service, weeks=1, rounds=1)
    league = await service.set_playoffs(league, ADMIN, on=True, finals_date="2026-11-12")
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    await finish_all(service, gateway, 1, night_id)
    await service.tick()
    (league,) = await service.store.rosters.leagues(GUILD)
    state = playoffs.state_of(league)
    assert (
        state is not None and state["date"] == "2026-11-12"
    )  # the date the organiser set (29 Oct and 5 Nov skipped)
    with pytest.raises(LeagueRefusal) as started:
        await service.set_playoffs(league, ADMIN, size=8)
    assert started.value.code == "playoffs_started"
    await service.end_season(league, ADMIN)
    (final,) = gateway.posted("final standings")
    assert "Champions" in final
    nights = await service.store.nights.nights(league.id, league.season)
    assert [n.status for n in nights if n.number == 2] in ([], ["cancelled"])
    await service.tick()
    assert gateway.posted("winner of the final") == []
