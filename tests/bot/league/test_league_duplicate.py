"""Duplicate rounds (``bot.league.duplicate``): a round's full tables open with the round's shared
deal seed, and the matchpoints of a stored round, worked out from its tables' stored hand records,
are what an independent count in this file gives; the standings rank by them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.league import duplicate
from bot.league.core import table_ruleset
from bot.league.service import LeagueService, TableOutcome
from bot.league.settings import LeagueSettings
from bot.storage import HandResult, Storage
from bot.storage.leagues import LeagueStore, LeagueTable, NightRow
from engine import duplicate as engine_duplicate
from engine.ruleset import Ruleset

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


def record(hand_no: int, before: list[int], after: list[int], commitment: str) -> dict[str, Any]:
    """The parts of a stored hand record (docs/HAND_RECORD.md) the matchpoints read."""
    return {
        "hand_no": hand_no,
        "before": {"scores": before, "bags": [0, 0]},
        "result": {"scores": after, "bags": [0, 0]},
        "fair": {"commitment": commitment},
    }


def records_of(per_hand: list[list[int]], commitment: str) -> list[dict[str, Any]]:
    out, total = [], [0] * len(per_hand[0])
    for n, points in enumerate(per_hand, start=1):
        after = [a + b for a, b in zip(total, points, strict=True)]
        out.append(record(n, total, after, f"{commitment}-{n}"))
        total = after
    return out


def independent_matchpoints(tables: dict[int, list[list[int]]]) -> dict[tuple[int, int], float]:
    """Written out again: in each hand, +1 per other table whose same side scored less, +0.5 a tie."""
    mp: dict[tuple[int, int], float] = {}
    for t, hands in tables.items():
        for s in range(len(hands[0])):
            total = 0.0
            for h, hand in enumerate(hands):
                for u, theirs in tables.items():
                    if u == t or h >= len(theirs):
                        continue
                    if hand[s] > theirs[h][s]:
                        total += 1
                    elif hand[s] == theirs[h][s]:
                        total += 0.5
            mp[(t, s)] = total
    return mp


async def store_hands(db: Storage, table_id: int, records: list[dict[str, Any]]) -> None:
    row = await db.tables.get(table_id)
    assert row is not None
    for r in records:
        row = await db.tables.save(
            row, hand=HandResult(table_id=table_id, game_no=1, hand_no=r["hand_no"], record=r, rows=[])
        )


async def test_a_stored_duplicate_round_scores_matchpoints_and_ranks_by_them(
    service: LeagueService, gateway: FakeGateway, clock: Clock, storage: Storage
) -> None:
    league = await create(service, rounds=1, weeks=1, late_minutes=0)
    league = await service.set_season_rules(league, ADMIN, duplicate=True)
    assert "Duplicate rounds" in str(await service.schedule_text(league))  # the league's info post
    night_id = await open_checkin(service, clock)
    for p in range(1, 9):
        await service.check_in(night_id, p)
    clock.at = FIRST_START
    await service.tick()
    tables = await service.store.rounds.round_tables(night_id, 1)
    assert len(tables) == 2 and all(t.table_id is not None for t in tables)
    # both tables open with the round's deal seed, derived from the night's committed seed
    night = await service.store.nights.get_night(night_id)
    assert night is not None
    seed = engine_duplicate.round_seed(night.data["seating_key"]["seed"], 1)
    for t in tables:
        assert gateway.table_settings[t.id]["duplicate"] == {"seed": seed, "salt": "duplicate-round-1"}
    # the hands the two tables played (points by side, per hand): same deals, so same commitments
    played = {
        tables[0].id: [[60, -50], [40, 81], [-100, 70], [53, 20]],
        tables[1].id: [[60, 71], [-40, 81], [110, -30], [53, 20]],
    }
    for t in tables:
        assert t.table_id is not None
        await store_hands(storage, t.table_id, records_of(played[t.id], "round-1"))
    expected = independent_matchpoints(played)
    got = await duplicate.Duplicate(service.store).matchpoints(league, night_id=night_id)
    assert got == expected
    assert expected[(tables[0].id, 0)] == 2.0 and expected[(tables[1].id, 1)] == 2.0  # (by hand)
    # the games end; the standings rank by each player's side's matchpoints
    for t in tables:
        assert t.table_id is not None
        totals = [sum(h[s] for h in played[t.id]) for s in (0, 1)]
        outcome = TableOutcome(totals, [0, 0], 0 if totals[0] > totals[1] else 1, complete=True)
        gateway.finished[t.table_id] = outcome
        await service.game_finished(t.table_id, outcome)
    rows, _held = await service.standings_rows(league)
    by_player = {r.entrant: r.matchpoints for r in rows}
    for t in tables:
        for s, side in enumerate(t.sides):
            for p in side:
                assert by_player[p] == expected[(t.id, s)]
    ranked = [r.matchpoints for r in rows]
    assert ranked == sorted(ranked, reverse=True)
    assert gateway.posted("matchpoints")  # the night's results and the standings say them


def table(lt_id: int, round_no: int, n_sides: int) -> LeagueTable:
    sides: list[list[int | None]] = [[lt_id * 10 + s] for s in range(n_sides)]
    return LeagueTable(lt_id, 1, round_no, lt_id, sides, 1, lt_id, "finished")


def test_only_tables_that_played_the_same_deals_at_the_full_size_are_compared() -> None:
    a = records_of([[50, 20], [30, 30]], "r1")
    b = records_of([[40, 20], [30, 10]], "r1")
    other_round = records_of([[90, 0], [90, 0]], "r2")
    three = [record(1, [0, 0, 0], [10, 50, 30], "three")]
    got = duplicate.round_matchpoints(
        [(table(1, 1, 2), a), (table(2, 1, 2), b), (table(3, 2, 2), other_round), (table(4, 1, 3), three)],
        num_sides=2,
    )
    assert got[(1, 0)] == 1.5 and got[(2, 0)] == 0.5  # hand 1: 50 beats 40; hand 2: 30 ties 30
    assert got[(1, 1)] == 1.5 and got[(2, 1)] == 0.5  # hand 1: 20 ties 20; hand 2: 30 beats 10
    assert got[(3, 0)] == got[(3, 1)] == 0.0  # alone in its round
    assert all(got[(4, s)] == 0.0 for s in range(3))  # a table of three is not compared


def test_a_table_of_three_and_a_league_without_duplicate_get_no_shared_seed() -> None:
    night = NightRow(
        7, 1, 1, 1, "2026-10-22", 0, 0, "playing", 1, {"seating_key": {"seed": "s", "salt": "t"}}, 0
    )
    four = Ruleset.preset("standard")
    three = table_ruleset(four, [[1], [2], [3]])
    on = LeagueSettings(duplicate=True)
    shared = duplicate.table_settings(on, night, 2, four, four)
    assert shared == {"duplicate": {"seed": engine_duplicate.round_seed("s", 2), "salt": "duplicate-round-2"}}
    assert duplicate.table_settings(on, night, 2, four, three) == {}
    assert duplicate.table_settings(LeagueSettings(), night, 2, four, four) == {}
