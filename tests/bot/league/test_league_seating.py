"""League seating: balance by rating, fixed teams, no repeated partners, bots spread, byes rotate."""

from __future__ import annotations

import statistics
from collections import Counter
from itertools import combinations

import pytest

from bot.league.seating import (
    BOT,
    BYE,
    FIXED,
    ROTATING,
    SOLO,
    THREES,
    History,
    Seating,
    SeatingError,
    TablePlan,
    pair,
    partner_repeats,
    seat_round,
    threes_split,
)
from engine.ruleset import Ruleset


def ratings_for(players: list[int]) -> dict[int, float]:
    # player i has rating i: a wide, known spread
    return {p: float(p) for p in players}


def table_means(s: Seating, ratings: dict[int, float]) -> list[float]:
    return [statistics.mean(ratings[p] for p in t.players) for t in s.tables]


def test_tables_are_balanced_by_rating() -> None:
    players = list(range(1, 17))
    r = ratings_for(players)
    s = seat_round(players=players, ratings=r, table_size=4, team_size=2, fmt=ROTATING)
    assert len(s.tables) == 4 and sorted(s.seated) == players and not s.byes
    means = table_means(s, r)
    # sorted-by-rating tables would have means 2.5 .. 14.5; balanced ones are all near 8.5
    assert max(means) - min(means) <= 1.0
    for t in s.tables:
        a, b = (statistics.mean(r[p] for p in side) for side in t.sides)  # type: ignore[misc]
        assert abs(a - b) <= 2.0  # strong players partner weak ones


def test_rotating_partners_never_repeat_within_a_night() -> None:
    players = list(range(1, 9))
    r = ratings_for(players)
    h = History()
    rounds = []
    for rnd in range(3):
        s = seat_round(
            players=players, ratings=r, table_size=4, team_size=2, fmt=ROTATING, history=h, seed=rnd
        )
        h.record(s)
        rounds.append(s)
    assert partner_repeats(rounds) == 0


def test_four_players_get_three_different_partnerships_then_the_least_repeated() -> None:
    players = [1, 2, 3, 4]
    h = History()
    seen = []
    for rnd in range(3):
        s = seat_round(players=players, table_size=4, team_size=2, fmt=ROTATING, history=h, seed=rnd)
        h.record(s)
        seen.append(frozenset(frozenset(side) for side in s.tables[0].sides))
    assert len(set(seen)) == 3  # every possible partnership once


def test_partners_avoid_repeats_across_the_season_where_possible() -> None:
    players = list(range(1, 9))
    h = History()
    nights = []
    for night in range(2):
        h = h.new_night()
        for rnd in range(3):
            s = seat_round(
                players=players, table_size=4, team_size=2, fmt=ROTATING, history=h, seed=night * 10 + rnd
            )
            h.record(s)
            nights.append(s)
    # 8 players have 28 pairs; 6 rounds use 24 partnerships: a good seating repeats none
    assert partner_repeats(nights) == 0


def test_fixed_teams_stay_together_and_tables_balance_team_strength() -> None:
    teams = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14], [15, 16]]
    r = ratings_for(list(range(1, 17)))
    s = seat_round(teams=teams, ratings=r, table_size=4, team_size=2, fmt=FIXED)
    assert len(s.tables) == 4
    sides = {frozenset(side) for t in s.tables for side in t.sides}
    assert sides == {frozenset(t) for t in teams}

    def gap(a: frozenset[int], b: frozenset[int]) -> float:
        return abs(statistics.mean(r[p] for p in a) - statistics.mean(r[p] for p in b))

    # among the round robin's rounds the first is a balanced one: closer than two teams on average
    chosen = [gap(*map(frozenset, t.sides)) for t in s.tables]  # type: ignore[arg-type]
    every = [gap(frozenset(a), frozenset(b)) for a, b in combinations(teams, 2)]
    assert statistics.mean(chosen) < statistics.mean(every)
    h = History()
    h.record(s)
    s2 = seat_round(teams=teams, ratings=r, table_size=4, team_size=2, fmt=FIXED, history=h)
    first = {frozenset(t.players) for t in s.tables}
    assert not first & {frozenset(t.players) for t in s2.tables}  # new opponents in round 2


def test_fixed_team_missing_a_member_gets_a_bot_partner() -> None:
    s = seat_round(teams=[[1, 2], [3]], table_size=4, team_size=2, fmt=FIXED)
    assert len(s.tables) == 1
    assert sorted((tuple(sorted(x, key=lambda v: v or 0)) for x in s.tables[0].sides), key=str) == sorted(
        [(1, 2), (None, 3)], key=str
    )


def test_two_fixed_teams_of_three_sit_on_opposite_sides_of_one_six_seat_table() -> None:
    threes = Ruleset.preset("six-player-threes")
    teams = [[1, 2, 3], [4, 5, 6]]
    s = seat_round(
        teams=teams, ratings=ratings_for(list(range(1, 7))), table_size=threes.num_seats,
        team_size=threes.team_size, fmt=FIXED,
    )  # fmt: skip
    (table,) = s.tables
    assert sorted(map(sorted, table.sides)) == teams and table.bots == 0 and not s.byes  # type: ignore[arg-type]
    seats = table.seats(threes.sides)
    # the engine's sides with six seats in threes are the even and the odd seats: partners
    # alternate round the table, so every player sits between two opponents
    assert threes.sides == ((0, 2, 4), (1, 3, 5))
    assert {frozenset(seats[0::2]), frozenset(seats[1::2])} == {frozenset(t) for t in teams}
    for seat, player in enumerate(seats):
        assert player is not None
        team = next(t for t in teams if player in t)
        assert {seats[(seat + 1) % 6], seats[(seat - 1) % 6]}.isdisjoint(team)
        assert {seats[threes.side_of(seat) + 2 * k] for k in range(3)} == set(team)


def test_four_fixed_teams_of_three_fill_two_tables_and_meet_new_opponents() -> None:
    teams = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    r = ratings_for(list(range(1, 13)))
    s = seat_round(teams=teams, ratings=r, table_size=6, team_size=3, fmt=FIXED)
    assert len(s.tables) == 2 and all(t.bots == 0 and len(t.sides) == 2 for t in s.tables)
    assert {frozenset(side) for t in s.tables for side in t.sides} == {frozenset(t) for t in teams}
    assert sorted(s.seated) == list(range(1, 13))
    h = History()
    h.record(s)
    s2 = seat_round(teams=teams, ratings=r, table_size=6, team_size=3, fmt=FIXED, history=h, seed=1)
    assert not {frozenset(t.players) for t in s.tables} & {frozenset(t.players) for t in s2.tables}
    # a team of three with a member missing plays with a bot in that seat; a team too big is refused
    short = seat_round(teams=[[1, 2, 3], [4, 5]], table_size=6, team_size=3, fmt=FIXED)
    (table,) = short.tables
    assert table.bots == 1 and sorted(table.players) == [1, 2, 3, 4, 5]
    with pytest.raises(SeatingError, match="more than 3"):
        seat_round(teams=[[1, 2, 3, 4], [5, 6]], table_size=6, team_size=3, fmt=FIXED)


def test_nine_players_five_handed_solo_two_tables_one_bot() -> None:
    players = list(range(1, 10))
    s = seat_round(players=players, table_size=5, team_size=1, fmt=SOLO, leftover=BOT)
    assert len(s.tables) == 2
    assert sorted(t.bots for t in s.tables) == [0, 1]
    assert sorted(s.seated) == players


def test_bot_seats_are_spread_one_per_table() -> None:
    players = list(range(1, 10))  # 9 players at 4-seat tables: 3 tables, 3 bots
    s = seat_round(players=players, ratings=ratings_for(players), table_size=4, team_size=2, fmt=ROTATING)
    assert len(s.tables) == 3
    assert [t.bots for t in s.tables] == [1, 1, 1]


def test_byes_rotate_fairly() -> None:
    players = list(range(1, 10))  # 9 players, 4 seats: 2 tables, one bye a round
    h = History()
    byes: Counter[int] = Counter()
    for rnd in range(9):
        s = seat_round(
            players=players, table_size=4, team_size=2, fmt=ROTATING, leftover=BYE, history=h, seed=rnd
        )
        assert len(s.byes) == 1 and len(s.tables) == 2
        assert set(s.seated) | set(s.byes) == set(players)
        h.record(s)
        byes.update(s.byes)
    assert all(byes[p] == 1 for p in players)  # nine rounds: everyone sits out exactly once


def test_byes_prefer_players_with_fewer_byes_this_season() -> None:
    players = list(range(1, 6))
    h = History()
    h.byes_season.update({1: 2, 2: 2, 3: 2, 4: 2})
    s = seat_round(players=players, table_size=4, team_size=2, fmt=ROTATING, leftover=BYE, history=h)
    assert s.byes == (5,)


def test_fixed_team_byes_are_whole_teams() -> None:
    teams = [[1, 2], [3, 4], [5, 6]]
    s = seat_round(teams=teams, table_size=4, team_size=2, fmt=FIXED, leftover=BYE)
    assert len(s.byes) == 2 and frozenset(s.byes) in {frozenset(t) for t in teams}


def test_too_few_players_for_a_bye_only_league() -> None:
    with pytest.raises(SeatingError, match="at least 4"):
        seat_round(players=[1, 2, 3], table_size=4, team_size=2, fmt=ROTATING, leftover=BYE)


def test_bad_input_is_refused() -> None:
    with pytest.raises(SeatingError):
        seat_round(players=[1, 1, 2, 3], table_size=4, team_size=2, fmt=ROTATING)
    with pytest.raises(SeatingError):
        seat_round(players=[], table_size=4, team_size=2, fmt=ROTATING)
    with pytest.raises(SeatingError):
        seat_round(players=[1, 2], table_size=4, team_size=2, fmt="swiss")


def test_seats_follow_the_ruleset_layout() -> None:
    plan = TablePlan(((1, 2), (3, None)))
    # standard 4 seats: sides (0, 2) and (1, 3), partners sit across
    assert plan.seats([(0, 2), (1, 3)]) == [1, 3, 2, None]
    with pytest.raises(SeatingError):
        plan.seats([(0,), (1,), (2,), (3,)])


def test_six_seat_teams_of_two_balance_and_rotate() -> None:
    players = list(range(1, 13))
    h = History()
    rounds = []
    for rnd in range(3):
        s = seat_round(
            players=players,
            ratings=ratings_for(players),
            table_size=6,
            team_size=2,
            fmt=ROTATING,
            history=h,
            seed=rnd,
        )
        assert all(len(t.sides) == 3 for t in s.tables)
        h.record(s)
        rounds.append(s)
    assert partner_repeats(rounds) == 0


def test_solo_tables_mix_who_meets_whom() -> None:
    players = list(range(1, 9))
    h = History()
    met: Counter[frozenset[int]] = Counter()
    for rnd in range(2):
        s = seat_round(players=players, table_size=4, team_size=1, fmt=SOLO, history=h, seed=rnd)
        h.record(s)
        for t in s.tables:
            met.update(pair(a, b) for a, b in combinations(t.players, 2))
    # two rounds of two 4-player tables: 12 meetings; the ideal repeats at most 4 of them
    assert sum(c - 1 for c in met.values() if c > 1) <= 4


def _opponents(s: Seating) -> list[frozenset[frozenset[int]]]:
    return [frozenset(frozenset(p for p in side if p is not None) for side in t.sides) for t in s.tables]


@pytest.mark.parametrize("n_teams", [4, 6, 8])
def test_fixed_teams_play_a_round_robin_across_nights(n_teams: int) -> None:
    # two rounds a night, the same teams every week: every team meets every other exactly once
    # in n - 1 rounds (a round robin), whatever the ratings say about balance
    teams = [[2 * i + 1, 2 * i + 2] for i in range(n_teams)]
    r = ratings_for(list(range(1, 2 * n_teams + 1)))
    h = History()
    met: Counter[frozenset[frozenset[int]]] = Counter()
    for night in range(-(-(n_teams - 1) // 2)):
        h = h.new_night()
        for rnd in range(2):
            if sum(met.values()) == n_teams * (n_teams - 1) // 2:
                break
            s = seat_round(teams=teams, ratings=r, table_size=4, team_size=2, fmt=FIXED, history=h,
                           seed=night * 100 + rnd)  # fmt: skip
            assert not s.byes
            h.record(s)
            met.update(_opponents(s))
    assert set(met.values()) == {1}
    assert len(met) == n_teams * (n_teams - 1) // 2


def test_an_odd_number_of_fixed_teams_rotates_the_bye_and_never_plays_two_bots() -> None:
    # five teams: a round robin with one team out each round; under the bot rule too (a team against
    # two bots would be no league game)
    teams = [[2 * i + 1, 2 * i + 2] for i in range(5)]
    for leftover in (BOT, BYE):
        h = History()
        met: Counter[frozenset[frozenset[int]]] = Counter()
        out: Counter[frozenset[int]] = Counter()
        for rnd in range(5):
            s = seat_round(teams=teams, table_size=4, team_size=2, fmt=FIXED, leftover=leftover,
                           history=h, seed=rnd)  # fmt: skip
            assert len(s.tables) == 2 and all(t.bots == 0 for t in s.tables)
            assert len(s.byes) == 2
            out[frozenset(s.byes)] += 1
            h.record(s)
            met.update(_opponents(s))
        assert set(out.values()) == {1} and len(out) == 5  # each team sat out once
        assert set(met.values()) == {1} and len(met) == 10  # and met every other once


def test_fixed_teams_whose_attendance_changes_meet_the_fewest_repeats() -> None:
    teams = [[2 * i + 1, 2 * i + 2] for i in range(6)]
    h = History()
    s = seat_round(teams=teams, table_size=4, team_size=2, fmt=FIXED, history=h)
    h.record(s)
    # one table's teams stay home; the four others must not meet again
    gone = set(s.tables[0].players)
    tonight = [t for t in teams if not set(t) & gone]
    s2 = seat_round(teams=tonight, table_size=4, team_size=2, fmt=FIXED, history=h.new_night())
    assert not set(_opponents(s)) & set(_opponents(s2))


@pytest.mark.parametrize(
    ("n", "leftover", "fours", "threes", "bots", "byes"),
    [
        (5, BOT, 2, 0, 3, 0),
        (7, BOT, 2, 0, 1, 0),
        (9, BOT, 3, 0, 3, 0),
        (11, BOT, 3, 0, 1, 0),
        (5, BYE, 1, 0, 0, 1),
        (7, BYE, 1, 0, 0, 3),
        (9, BYE, 2, 0, 0, 1),
        (11, BYE, 2, 0, 0, 3),
        (5, THREES, 1, 0, 0, 1),
        (7, THREES, 1, 1, 0, 0),
        (9, THREES, 0, 3, 0, 0),
        (11, THREES, 2, 1, 0, 0),
    ],
)
def test_odd_numbers_under_each_leftover_rule(
    n: int, leftover: str, fours: int, threes: int, bots: int, byes: int
) -> None:
    players = list(range(1, n + 1))
    s = seat_round(players=players, ratings=ratings_for(players), table_size=4, team_size=2, fmt=ROTATING,
                   leftover=leftover)  # fmt: skip
    sizes = Counter(len(t.players) + t.bots for t in s.tables)
    assert (sizes[4], sizes[3]) == (fours, threes)
    assert sum(t.bots for t in s.tables) == bots
    assert len(s.byes) == byes
    assert sorted(s.seated + list(s.byes)) == players  # everyone once
    for t in s.tables:
        if len(t.players) + t.bots == 3:
            assert t.cutthroat and t.bots == 0  # three players, each for themselves
        else:
            assert [len(side) for side in t.sides] == [2, 2]
            # never a side of two bots against two players
            assert all(any(p is not None for p in side) for side in t.sides)


def test_the_table_of_three_rotates() -> None:
    players = list(range(1, 8))
    h = History()
    at_three: Counter[int] = Counter()
    for rnd in range(7):
        s = seat_round(players=players, table_size=4, team_size=2, fmt=ROTATING, leftover=THREES,
                       history=h, seed=rnd)  # fmt: skip
        (three,) = [t for t in s.tables if t.cutthroat]
        at_three.update(three.players)
        h.record(s)
    # 21 seats at the table of three over 7 rounds: three each
    assert set(at_three.values()) == {3}


def test_threes_is_for_individuals_at_four_seat_tables() -> None:
    with pytest.raises(SeatingError):
        seat_round(teams=[[1, 2], [3, 4]], table_size=4, team_size=2, fmt=FIXED, leftover=THREES)
    with pytest.raises(SeatingError):
        seat_round(players=[1, 2, 3, 4, 5], table_size=6, team_size=2, fmt=ROTATING, leftover=THREES)
    with pytest.raises(SeatingError):  # two players: no table of three or four
        seat_round(players=[1, 2], table_size=4, team_size=2, fmt=ROTATING, leftover=THREES)
    assert threes_split(6) == (0, 2, 0) and threes_split(8) == (2, 0, 0) and threes_split(3) == (0, 1, 0)
