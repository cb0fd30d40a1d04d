"""A league's time call, house rules and turn timers: tables are opened with them, and when a
round's time is up the hand in progress is played out (the round waits for its result)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.i18n import render
from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.league.settings import LeagueSettings, SettingsError
from engine.ruleset import Ruleset
from tests.bot.league.test_league_service import (  # the fakes and fixtures of the service tests
    FIRST_START,
    Clock,
    FakeGateway,
    clock,
    create,
    db,
    gateway,
    open_checkin,
    service,
)

__all__ = ["clock", "db", "gateway", "service"]  # (fixtures)


async def _night_under_way(service: LeagueService, clock: Clock, players: int = 8) -> int:
    night_id = await open_checkin(service, clock)
    for p in range(1, players + 1):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    return night_id


async def test_time_up_plays_the_last_hand_and_the_round_waits_for_it(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, rounds=1, late_minutes=0)
    night_id = await _night_under_way(service, clock)
    tables = await service.store.rounds.round_tables(night_id, 1)
    assert len(tables) == 2
    clock.advance(minutes=31)
    await service.tick()
    # every table was told its hand in progress is the last, with the league's tiebreak
    assert sorted(gateway.time_called) == sorted(t.table_id for t in tables)
    assert gateway.time_calls == ["overtime", "overtime"]
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "playing"  # not scored as it stands
    assert not gateway.posted("results")
    first, second = tables
    assert first.table_id is not None and second.table_id is not None
    won = TableOutcome([260, 200], [3, 1], 0, complete=True, seats={1: (40, 0)})
    gateway.finished[first.table_id] = won
    await service.game_finished(first.table_id, won)
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "playing"  # the other table plays on
    # the other table's overtime hand ended level too: a draw
    drawn = TableOutcome([210, 210], [2, 2], None, complete=True)
    gateway.finished[second.table_id] = drawn
    await service.game_finished(second.table_id, drawn)
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "finished"
    (results,) = gateway.posted("night 1 results")
    assert "(a draw)" in render(results, "en") and "as it stood" not in render(results, "en")
    rows, _held = await service.standings_rows((await service.store.rosters.leagues(1))[0])
    assert sum(r.draws for r in rows) == 4 and sum(r.wins for r in rows) == 2


async def test_as_it_stands_still_stops_the_tables(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    await create(service, rounds=1, late_minutes=0, time_call="as_it_stands")
    night_id = await _night_under_way(service, clock)
    clock.advance(minutes=31)
    await service.tick()
    assert gateway.time_calls == ["as_it_stands", "as_it_stands"]
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "finished"
    assert gateway.posted("as it stood")


async def test_tables_open_with_the_league_rules_and_timers(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league = await create(
        service,
        rounds=1,
        late_minutes=0,
        rules="set_limit=2 ten_for_200=on ten_for_value=150",
        time_call="bags",
        bid_seconds=45,
        play_seconds=20,
        target=300,
    )
    rs = service.ruleset_of(league)
    assert (rs.set_limit, rs.ten_for_200, rs.ten_for_value, rs.target_score) == (2, True, 150, 300)
    night_id = await _night_under_way(service, clock)
    tables = await service.store.rounds.round_tables(night_id, 1)
    for t in tables:
        assert gateway.table_settings[t.id] == {"bid_seconds": 45, "play_seconds": 20, "time_call": "bags"}
        assert gateway.rulesets[t.id] == rs
    shown = render(await service.schedule_text(league), "en")
    assert "set 2 times loses" in shown and "10 for 150" in shown and "to 300" in shown
    assert "20 s to play, 45 s to bid" in shown and "fewer bags" in shown
    assert "10 for 150" in render(service.tables_text(league), "en")


async def test_edit_changes_house_rules_and_timers_and_keeps_the_target(
    service: LeagueService, gateway: FakeGateway
) -> None:
    league = await create(service, target=300, rules="bag_limit=5")
    league = await service.edit(league, 1, rules="set_limit=1", play_seconds=30, time_call="draw")
    rs = service.ruleset_of(league)
    assert rs.set_limit == 1 and rs.bag_limit == 10 and rs.target_score == 300
    settings = service.settings_of(league)
    assert (settings.play_seconds, settings.bid_seconds, settings.time_call) == (30, 90, "draw")
    league = await service.edit(league, 1, rules="none")
    assert service.ruleset_of(league) == Ruleset.preset("standard", target_score=300)
    league = await service.edit(league, 1, hand_limit=12)  # the house rules stay as they are
    assert service.ruleset_of(league).max_hands == 12


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"rules": "bag_limit"}, "no_equals"),
        ({"rules": "jokerz=on"}, "unknown_rule"),
        ({"rules": "set_limit=0"}, "out_of_range"),
        ({"rules": "ten_for_value=5"}, "out_of_range"),
        ({"rules": "whiz=on blind_bids=on"}, "incompatible"),
        ({"bid_seconds": 5}, "bid_seconds_range"),
        ({"play_seconds": 601}, "play_seconds_range"),
        ({"time_call": "coin"}, "bad_time_call"),
    ],
)
async def test_bad_house_rules_and_timers_are_refused_with_a_code(
    service: LeagueService, kw: dict[str, object], code: str
) -> None:
    with pytest.raises(LeagueRefusal) as refused:
        await create(service, **kw)
    assert refused.value.code == code
    assert render(refused.value.message, "pl") != render(refused.value.message, "en")
    league = await create(service, name="Fine")
    with pytest.raises(LeagueRefusal) as again:
        await service.edit(league, 1, **kw)  # type: ignore[arg-type]
    assert again.value.code == code
    assert await service.store.rosters.get_league(league.id) == league  # nothing was saved


def test_settings_round_trip_and_old_leagues_read_the_defaults() -> None:
    s = LeagueSettings(time_call="bags", bid_seconds=30, play_seconds=15)
    assert LeagueSettings.from_dict(s.to_dict()) == s
    old = LeagueSettings.from_dict({"rounds": 3})
    assert (old.time_call, old.bid_seconds, old.play_seconds) == ("overtime", 90, 60)
    with pytest.raises(SettingsError):
        LeagueSettings(play_seconds=14)
