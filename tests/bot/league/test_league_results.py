"""Corrections of a league table's result (``Results.correct``) in any season: the game's bags are
worked out again, the season's standings follow, and the ratings are recomputed from that game on."""

from __future__ import annotations

import pytest

from bot.league.ratings import RatedGame, SeatResult, rate_games
from bot.league.results import bags_of_score
from bot.league.service import LeagueRefusal, LeagueService, TableOutcome
from bot.storage import FinishedGame, Storage
from bot.storage.leagues import LeagueStore
from engine.ruleset import Ruleset

from .test_league_service import ADMIN, FIRST_START, GUILD, MONDAY, Clock, FakeGateway, create, open_checkin


@pytest.fixture
def clock() -> Clock:
    return Clock(MONDAY)


@pytest.fixture
def gateway(storage: Storage, clock: Clock) -> FakeGateway:
    return FakeGateway(storage, clock=clock)


@pytest.fixture
def service(storage: Storage, gateway: FakeGateway, clock: Clock) -> LeagueService:
    return LeagueService(LeagueStore(storage), gateway, clock=clock)


async def stored_game(
    db: Storage, channel: int, sides: list[list[int]], scores: list[int], winner: int, finished_at: int
) -> int:
    """A finished two-side game in ``games`` (what the ratings rate); returns its id."""
    row = await db.tables.create(GUILD, channel, 1, {})
    row.status = "finished"
    seats = [(sides[0][0], 0), (sides[1][0], 1), (sides[0][1], 0), (sides[1][1], 1)]
    game = FinishedGame(
        table_id=row.id,
        guild_id=GUILD,
        channel_id=channel,
        game_no=1,
        ruleset={"name": "standard"},
        hands=5,
        winner_side=winner,
        started_at=finished_at - 600,
        finished_at=finished_at,
        sides=[
            {"seats": [0, 2], "score": scores[0], "bags": 0},
            {"seats": [1, 3], "score": scores[1], "bags": 0},
        ],
        players=[
            {"seat": i, "side": side, "user_id": uid, "is_bot": False, "name": f"p{uid}"}
            for i, (uid, side) in enumerate(seats)
        ],
    )
    await db.tables.save(row, game=game)
    got = await LeagueStore(db).rounds.game_for_table(row.id)
    assert got is not None
    return int(got["game_id"])


def rated(sides: list[list[int]], scores: list[int], winner: int) -> RatedGame:
    return RatedGame([[SeatResult(u) for u in side] for side in sides], scores, winner)


def test_bags_follow_the_score_where_the_scoring_tells() -> None:
    standard = Ruleset()
    assert [bags_of_score(standard, s) for s in (517, 300, -23, 0)] == [7, 0, 7, 0]
    assert bags_of_score(Ruleset(bag_limit=5), 517) is None  # 5 bags a penalty: the digit does not say
    assert bags_of_score(Ruleset(bag_value=2), 517) is None


async def test_a_correction_in_a_past_season_changes_its_standings_and_later_ratings(
    service: LeagueService, gateway: FakeGateway, clock: Clock, storage: Storage
) -> None:
    league = await create(service, weeks=1, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    (lt,) = await service.store.rounds.round_tables(night_id, 1)
    assert lt.table_id is not None
    sides = [[p for p in side if p is not None] for side in lt.sides]
    g1 = await stored_game(storage, 80, sides, [510, 300], 0, finished_at=1000)
    await service.game_finished(lt.table_id, TableOutcome([510, 300], [0, 0], 0, complete=True, game_id=g1))
    await service.tick()
    league = (await service.store.rosters.leagues(GUILD))[0]
    assert league.status == "ended"
    league = await service.new_season(league, ADMIN)
    assert league.season == 2
    # a later game of the same four (not a league game) is rated after it
    g2 = await stored_game(storage, 81, sides, [500, 420], 0, finished_at=5000)
    await service.rate_pending()
    before = await service.store.ratings.get(GUILD)
    assert all(r.games == 2 for r in before.values())
    champions_before = {r.entrant for r in (await service.standings_rows(league, 1))[0] if r.rank == 1}
    assert champions_before == set(sides[0])

    fixed = await service.correct(
        league,
        ADMIN,
        night_number=1,
        round_no=1,
        table_no=1,
        scores=[300, 517],
        reason="scores swapped",
        season=1,
    )
    assert fixed.winner_side == 1 and fixed.bags == [0, 7] and fixed.game_id == g1
    rows, _held = await service.standings_rows(league, 1)
    assert {r.entrant for r in rows if r.rank == 1} == set(sides[1])
    assert all(r.bags == 7 for r in rows if r.entrant in sides[1])
    # the ratings are what rating the corrected game and then the later one gives
    after = await service.store.ratings.get(GUILD)
    expected = rate_games([rated(sides, [300, 517], 1), rated(sides, [500, 420], 0)])
    assert set(after) == set(expected)
    for uid, r in expected.items():
        assert after[uid].mu == pytest.approx(r.mu) and after[uid].sigma == pytest.approx(r.sigma)
        assert after[uid].games == 2
    assert after[sides[1][0]].mu > before[sides[1][0]].mu  # the later rating moved
    assert await service.rate_pending() == 0  # nothing left to rate twice
    assert g2 != g1
    (entry,) = await service.store.audit.log(league.id, actions=["correct"])
    assert entry.actor_id == ADMIN and entry.reason == "scores swapped"
    assert entry.detail["before"]["scores"] == [510, 300]
    assert entry.detail["after"] == {"scores": [300, 517], "bags": [0, 7], "winner": 1}


async def test_a_correction_names_a_season_and_night_that_exist(service: LeagueService, clock: Clock) -> None:
    league = await create(service, weeks=1, rounds=1)
    for kw, code in [
        (dict(season=5), "no_season"),
        (dict(season=1, night_number=9), "no_night"),
    ]:
        args = dict(night_number=1, round_no=1, table_no=1, scores=[1, 2], reason="why")
        args.update(kw)
        with pytest.raises(LeagueRefusal) as refused:
            await service.correct(league, ADMIN, **args)  # type: ignore[arg-type]
        assert refused.value.code == code


async def test_a_forfeit_of_a_finished_rated_game_rates_it_as_the_forfeiting_sides_loss(
    service: LeagueService, clock: Clock, storage: Storage
) -> None:
    league = await create(service, weeks=2, rounds=1)
    night_id = await open_checkin(service, clock)
    for p in range(1, 5):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    (lt,) = await service.store.rounds.round_tables(night_id, 1)
    assert lt.table_id is not None
    sides = [[p for p in side if p is not None] for side in lt.sides]
    g1 = await stored_game(storage, 90, sides, [510, 300], 0, finished_at=1000)
    await service.game_finished(lt.table_id, TableOutcome([510, 300], [0, 0], 0, complete=True, game_id=g1))
    await service.rate_pending()
    before = await service.store.ratings.get(GUILD)
    assert before[sides[0][0]].mu > before[sides[1][0]].mu
    await service.forfeit_table(league, ADMIN, table_no=1, loser_id=sides[0][0], reason="ineligible")
    after = await service.store.ratings.get(GUILD)
    expected = rate_games([rated(sides, [0, 1], 1)])  # side 0 ranked below side 1
    for uid, r in expected.items():
        assert after[uid].mu == pytest.approx(r.mu) and after[uid].games == 1
    assert after[sides[0][0]].mu < after[sides[1][0]].mu
