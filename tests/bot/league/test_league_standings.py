"""League standings: points per game, close losses, tiebreaks, attendance, dropped worst week."""

from __future__ import annotations

import pytest

from bot.league.standings import GameResult, PointsError, PointsRule, champions, game_points, standings


def g(
    night: int, a: tuple[str, ...], b: tuple[str, ...], sa: int, sb: int, ba: int = 0, bb: int = 0
) -> GameResult:
    winner = 0 if sa > sb else 1 if sb > sa else None
    return GameResult(night, (a, b), (sa, sb), (ba, bb), winner)


def test_win_close_loss_and_loss_points() -> None:
    rule = PointsRule()
    assert game_points(g(1, ("a",), ("b",), 500, 460), rule) == [2, 1]
    assert game_points(g(1, ("a",), ("b",), 500, 420), rule) == [2, 0]
    assert game_points(g(1, ("a",), ("b",), 300, 300), rule) == [1, 1]  # time called level
    custom = PointsRule(win=3, close_loss=1, close_margin=100)
    assert game_points(g(1, ("a",), ("b",), 500, 420), custom) == [3, 1]


def test_solo_game_points_close_to_the_winner() -> None:
    game = GameResult(1, (("a",), ("b",), ("c",)), (300, 260, 100), (0, 0, 0), 0)
    assert game_points(game, PointsRule()) == [2, 1, 0]


def test_standings_order_by_points() -> None:
    games = [
        g(1, ("a", "b"), ("c", "d"), 500, 300),
        g(1, ("a", "c"), ("b", "d"), 500, 470),
    ]
    rows = standings(games, PointsRule(), entrants=["a", "b", "c", "d", "e"])
    by = {r.entrant: r for r in rows}
    assert [r.entrant for r in rows][:1] == ["a"] and by["a"].points == 4 and by["a"].wins == 2
    assert by["b"].points == 3 and by["b"].close_losses == 1
    assert by["c"].points == 2 and by["d"].points == 1
    assert by["e"].games == 0 and rows[-1].entrant == "e"


def test_head_to_head_breaks_a_tie_before_point_differential() -> None:
    # x and y both finish on 2 points; y beat x directly, x has the bigger point differential
    games = [
        g(1, ("x",), ("z",), 500, 0),  # x +500
        g(1, ("y",), ("x",), 500, 300),  # y beats x
        g(2, ("w",), ("y",), 500, 100),  # y loses big to w
    ]
    rows = standings(games, PointsRule())
    # w, y and x are level on 2 points; head to head among them: w 2 (beat y), y 2 (beat x), x 0;
    # w and y are still level, so the point differential puts w (+400) before y (-200)
    assert [r.entrant for r in rows] == ["w", "y", "x", "z"]
    assert rows[0].points == rows[1].points == rows[2].points == 2
    assert rows[1].point_diff < rows[2].point_diff  # x's better differential did not help it


def test_point_differential_then_fewest_bags() -> None:
    games = [
        g(1, ("p",), ("q",), 500, 100, ba=3),
        g(1, ("r",), ("s",), 500, 100, ba=1),
        g(1, ("t",), ("u",), 500, 200),
    ]
    rows = standings(games, PointsRule())
    # p, r and t all have 2 points and met nobody tied: t has the smallest differential
    assert [r.entrant for r in rows[:3]] == ["r", "p", "t"]
    assert rows[0].bags == 1 and rows[1].bags == 3


def test_a_complete_tie_shares_the_rank() -> None:
    rows = standings([g(1, ("a",), ("c",), 500, 100), g(1, ("b",), ("d",), 500, 100)], PointsRule())
    assert rows[0].rank == rows[1].rank == 1 and rows[0].tied
    assert set(champions(rows)) == {"a", "b"}


def test_attendance_counts_nights_played_and_byes() -> None:
    games = [g(1, ("a",), ("b",), 500, 0), g(2, ("a",), ("c",), 500, 0)]
    rows = {r.entrant: r for r in standings(games, PointsRule(bye=1), byes=[(2, "b")], nights_held=[1, 2, 3])}
    assert rows["a"].attendance(3) == "2/3"
    assert rows["b"].attendance(3) == "2/3" and rows["b"].byes == 1 and rows["b"].points == 1
    assert rows["c"].attendance(3) == "1/3"


def test_drop_the_worst_week() -> None:
    games = [
        g(1, ("a",), ("b",), 0, 500),  # a: 0 in week 1
        g(2, ("a",), ("b",), 500, 0),
        g(3, ("a",), ("b",), 500, 0),
        # b missed nothing; c missed week 3 entirely
        g(1, ("c",), ("d",), 500, 0),
        g(2, ("c",), ("d",), 500, 0),
    ]
    rule = PointsRule(drop_worst_week=True)
    rows = {r.entrant: r for r in standings(games, rule, nights_held=[1, 2, 3])}
    assert rows["a"].dropped == 1 and rows["a"].total == 4
    assert rows["c"].dropped == 3 and rows["c"].total == 4  # the missed week is the one dropped
    assert rows["b"].total == 2


def test_fixed_teams_rank_as_one_entrant() -> None:
    games = [GameResult(1, (("team:1",), ("team:2",)), (510, 480), (2, 1), 0)]
    rows = standings(games, PointsRule())
    assert [r.entrant for r in rows] == ["team:1", "team:2"]
    assert rows[1].points == 1


@pytest.mark.parametrize(
    "kwargs",
    [{"win": 0, "loss": 0}, {"close_loss": 3}, {"win": 11}, {"close_margin": -1}],
)
def test_bad_points_rules_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(PointsError):
        PointsRule(**kwargs)


def test_points_rule_round_trips() -> None:
    rule = PointsRule(win=3, close_loss=1, drop_worst_week=True)
    assert PointsRule.from_dict(rule.to_dict()) == rule
    assert "worst week" in rule.describe()


def _season() -> list[GameResult]:
    # a: two narrow wins (2 games); b: one big win in three games, many points; c: one game, one win
    return [
        g(1, ("a",), ("b",), 510, 500),
        g(2, ("a",), ("b",), 505, 500),
        g(3, ("b",), ("d",), 700, 100),
        g(3, ("c",), ("d",), 500, 100),
    ]


def test_ranking_by_league_points_game_points_or_points_per_game() -> None:
    games = _season()
    by_points = standings(games, PointsRule())
    assert [r.entrant for r in by_points][:3] == ["a", "b", "c"]  # 4, 4 (a beat b twice), 2
    assert by_points[0].total == 4 and by_points[1].total == 4
    by_scored = standings(games, PointsRule(ranking="game_points"))
    assert [(r.entrant, r.scored) for r in by_scored] == [("b", 1700), ("a", 1015), ("c", 500), ("d", 200)]
    per_game = standings(games, PointsRule(ranking="per_game"))
    # c 2/1, a 4/2 (more points than c at the same rate), b 4/3, d 0/2
    assert [r.entrant for r in per_game] == ["a", "c", "b", "d"]
    assert [r.rank for r in per_game] == [1, 2, 3, 4]
    assert champions(per_game) == ["a"]


def test_a_minimum_of_nights_to_be_ranked_and_champion() -> None:
    games = _season()
    rule = PointsRule(ranking="per_game", min_nights=2)
    rows = standings(games, rule, entrants=["a", "b", "c", "d", "e"])
    ranked = [r.entrant for r in rows if r.ranked]
    assert ranked == ["a", "b"]  # c and d played one night only, e none
    assert (
        rows[2].entrant == "c"
        and {r.entrant for r in rows[3:]} == {"d", "e"}
        and all(r.rank == 0 for r in rows[2:])
    )
    assert champions(rows) == ["a"]
    # nobody with four nights: no champion at all
    assert champions(standings(games, PointsRule(min_nights=4))) == []
    # a bye night counts as a night
    with_bye = standings(games, PointsRule(min_nights=2), byes=[(1, "c")])
    assert next(r for r in with_bye if r.entrant == "c").ranked


@pytest.mark.parametrize(
    ("change", "code"),
    [({"ranking": "wins"}, "bad_ranking"), ({"min_nights": -1}, "min_nights_range"),
     ({"min_nights": 53}, "min_nights_range"), ({"bye": 11}, "points_range")],
)  # fmt: skip
def test_ranking_settings_are_checked(change: dict[str, object], code: str) -> None:
    with pytest.raises(PointsError) as info:
        PointsRule.from_dict(change)
    assert info.value.code == code
    assert PointsRule.from_dict(PointsRule(ranking="game_points", min_nights=3).to_dict()).min_nights == 3


def test_an_organisers_forfeit_is_a_forfeit_loss_and_the_other_side_wins() -> None:
    rule = PointsRule(win=3, close_loss=1, loss=0)
    game = GameResult(1, (("a", "b"), ("c", "d")), (0, 0), (0, 0), 0, conceded=frozenset({"c", "d"}))
    rows = {r.entrant: r for r in standings([game], rule)}
    assert (rows["a"].points, rows["a"].wins, rows["a"].forfeit_losses) == (3, 1, 0)
    # a 0-0 "loss by 0" would be a close loss: conceded, it is a plain forfeit loss, not a no-show
    assert (rows["c"].points, rows["c"].losses, rows["c"].close_losses) == (0, 1, 0)
    assert (rows["c"].forfeit_losses, rows["c"].no_shows, rows["c"].games) == (1, 0, 1)
    assert rows["c"].nights == set()  # not a night played


def test_a_duplicate_league_ranks_by_matchpoints_then_league_points() -> None:
    games = [g(1, ("a",), ("b",), 300, 200), g(1, ("c",), ("d",), 250, 260)]
    # b lost its game but outscored its counterpart at the other table in more hands
    rows = standings(games, PointsRule(), matchpoints={"a": 1.0, "b": 3.0, "c": 1.0, "d": 1.0})
    assert [(r.entrant, r.matchpoints) for r in rows] == [("b", 3.0), ("a", 1.0), ("d", 1.0), ("c", 1.0)]
    assert [r.rank for r in rows] == [
        1,
        2,
        3,
        4,
    ]  # a, d level on matchpoints: league points, then a's larger margin
    assert [r.entrant for r in standings(games, PointsRule())][:1] != ["b"]  # (not by points)
