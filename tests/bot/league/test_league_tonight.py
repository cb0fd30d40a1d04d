"""An organiser's forfeit of a league table (``Tonight.forfeit_table``, ``/league-season forfeit``)
over real storage and the recording gateway of ``test_league_service``."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.storage import Storage
from bot.storage.leagues import LeagueRow, LeagueStore, LeagueTable

from .test_league_service import ADMIN, FIRST_START, MONDAY, Clock, FakeGateway, create, open_checkin


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY)


@pytest.fixture
def gateway(storage: Storage, clock: Clock) -> FakeGateway:
    return FakeGateway(storage, clock=clock)


@pytest.fixture
def service(storage: Storage, gateway: FakeGateway, clock: Clock) -> LeagueService:
    return LeagueService(LeagueStore(storage), gateway, clock=clock)


async def two_tables(service: LeagueService, clock: Clock) -> tuple[LeagueRow, int, LeagueTable, LeagueTable]:
    """A one-round night of eight players under way: its two live tables."""
    league = await create(service, rounds=1, late_minutes=0)
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START + timedelta(seconds=5)
    await service.tick()
    t1, t2 = await service.store.rounds.round_tables(night_id, 1)
    assert t1.table_id is not None and t2.table_id is not None
    return league, night_id, t1, t2


def side_of(lt: LeagueTable, uid: int) -> int:
    return next(i for i, side in enumerate(lt.sides) if uid in side)


async def test_a_forfeit_stops_the_live_game_and_gives_a_forfeit_loss_and_a_win(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league, night_id, t1, t2 = await two_tables(service, clock)
    await service.game_finished(t1.table_id or 0, TableOutcome([510, 300], [2, 4], 0, complete=True))
    loser = t2.players[0]
    losers = [p for p in t2.sides[side_of(t2, loser)] if p is not None]
    winners = [p for s in t2.sides for p in s if p is not None and p not in losers]
    said = str(
        await service.forfeit_table(league, ADMIN, table_no=2, loser_id=loser, reason="left after a row")
    )
    assert "forfeits" in said and "overturned" not in said
    assert gateway.stopped == [t2.table_id] and gateway.forfeited == [t2.table_id]
    # the forfeit finishes the round: the one-round night is over, both tables count
    night = await service.store.nights.get_night(night_id)
    assert night is not None and night.status == "finished"
    results = {r.table_no: r for r in await service.store.rounds.night_results(night_id)}
    assert set(results) == {1, 2}
    assert results[2].forfeit_side == side_of(t2, loser) and results[2].winner_side == 1 - side_of(t2, loser)
    # a game result arriving late does not replace the forfeit
    await service.game_finished(t2.table_id or 0, TableOutcome([100, 520], [0, 2], 1, complete=True))
    again = {r.table_no: r for r in await service.store.rounds.night_results(night_id)}
    assert again[2].forfeit_side == results[2].forfeit_side and again[2].scores == [0, 0]
    rows = {r.entrant: r for r in (await service.standings_rows(league))[0]}
    rule_win, rule_loss = 2, 0
    for p in losers:
        assert (rows[p].losses, rows[p].points, rows[p].games) == (1, rule_loss, 1)
        assert (rows[p].forfeit_losses, rows[p].no_shows, rows[p].bags) == (1, 0, 0)
    for p in winners:
        assert (rows[p].wins, rows[p].points, rows[p].forfeit_losses) == (1, rule_win, 0)
    assert "1 forfeit loss" in str(await service.standings_text(league))
    (entry,) = await service.store.audit.log(league.id, actions=["forfeit"])
    assert entry.actor_id == ADMIN and entry.reason == "left after a row"
    assert entry.detail["user"] == loser and entry.detail["before"] is None
    history = await service.history_text(league)
    assert "table forfeited" in history and "left after a row" in history
    files = dict(await service.export_files(league, None, lambda uid: ""))
    standings_csv = list(csv.DictReader(io.StringIO(files["season1-standings.csv"])))
    assert {
        row["entrant"]: row["forfeit_losses"] for row in standings_csv if row["entrant"] in map(str, losers)
    } == {str(p): "1" for p in losers}
    results_csv = list(csv.DictReader(io.StringIO(files["season1-results.csv"])))
    assert [(row["table"], row["side"]) for row in results_csv if row["forfeit"] == "1"] == [
        ("2", str(side_of(t2, loser) + 1))
    ]


async def test_forfeit_refusals_say_which(service: LeagueService, gateway: FakeGateway, clock: Clock) -> None:
    league, _night_id, t1, t2 = await two_tables(service, clock)
    stranger = 4242
    cases = [
        (dict(table_no=7, loser_id=t1.players[0]), "no_table"),
        (dict(table_no=1, loser_id=t1.players[0], round_no=5), "no_table"),
        (dict(table_no=1, loser_id=t1.players[0], night_number=3), "no_night"),
        (dict(table_no=1, loser_id=t2.players[0]), "not_at_table"),
        (dict(table_no=1, loser_id=stranger), "not_at_table"),
    ]
    for kw, code in cases:
        with pytest.raises(LeagueRefusal) as refused:
            await service.forfeit_table(league, ADMIN, reason="why", **kw)
        assert refused.value.code == code, kw
    with pytest.raises(LeagueRefusal) as refused:
        await service.forfeit_table(league, ADMIN, table_no=1, loser_id=t1.players[0], reason="  ")
    assert refused.value.code == "no_reason"
    await service.void_table(league, ADMIN, round_no=None, table_no=2, reason="cheat")
    with pytest.raises(LeagueRefusal) as refused:
        await service.forfeit_table(league, ADMIN, table_no=2, loser_id=t2.players[0], reason="late")
    assert refused.value.code == "table_void"
    await service.forfeit_table(league, ADMIN, table_no=1, loser_id=t1.players[0], reason="late")
    with pytest.raises(LeagueRefusal) as refused:
        await service.forfeit_table(league, ADMIN, table_no=1, loser_id=t1.players[1], reason="twice")
    assert refused.value.code == "forfeited" and "already forfeited" in str(refused.value)
    assert gateway.forfeited == [t1.table_id]  # nothing stopped by a refusal
    assert len(await service.store.audit.log(league.id, actions=["forfeit"])) == 1


async def test_a_forfeit_overturns_a_finished_result_and_keeps_the_old_one_in_the_audit(
    service: LeagueService, gateway: FakeGateway, clock: Clock
) -> None:
    league, night_id, t1, _t2 = await two_tables(service, clock)
    await service.game_finished(t1.table_id or 0, TableOutcome([510, 300], [2, 4], 0, complete=True))
    winner_then = t1.sides[0][0]
    assert winner_then is not None
    said = str(
        await service.forfeit_table(league, ADMIN, table_no=1, loser_id=winner_then, reason="played a sub")
    )
    assert "overturned" in said
    assert gateway.forfeited == []  # the game had ended: nothing to stop
    (r,) = [r for r in await service.store.rounds.night_results(night_id) if r.table_no == 1]
    assert (r.winner_side, r.forfeit_side, r.corrected) == (1, 0, True)
    (entry,) = await service.store.audit.log(league.id, actions=["forfeit"])
    assert entry.detail["before"] == {"scores": [510, 300], "bags": [2, 4], "winner": 0}
    rows = {row.entrant: row for row in (await service.standings_rows(league))[0]}
    assert rows[winner_then].wins == 0 and rows[winner_then].losses == 1
    # a correction afterwards replaces the forfeit with the scores it gives
    fixed = await service.correct(
        league, ADMIN, night_number=1, round_no=1, table_no=1, scores=[512, 300], reason="it was fine"
    )
    assert fixed.forfeit_side is None and fixed.winner_side == 0
