"""Ratings: OpenSkill over finished games; bots and bot-played seats never rated."""

from __future__ import annotations

import random

from bot.league.ratings import (
    PROVISIONAL_GAMES,
    RatedGame,
    Rating,
    SeatResult,
    leaderboard,
    ranks,
    rate_game,
    rate_games,
    rated_players,
)


def human(uid: int, share: float = 0.0) -> SeatResult:
    return SeatResult(uid, False, share)


BOT = SeatResult(None, True)


def team_game(a: tuple[int, int], b: tuple[int, int], a_wins: bool) -> RatedGame:
    return RatedGame(
        sides=[[human(a[0]), human(a[1])], [human(b[0]), human(b[1])]],
        scores=[500, 300] if a_wins else [300, 500],
        winner=0 if a_wins else 1,
    )


def test_a_known_sequence_gives_the_expected_order() -> None:
    # players 1..8 have true strengths 8..1; rotating partners, the stronger team always wins
    rng = random.Random(7)
    games = []
    players = list(range(1, 9))
    for _ in range(60):
        rng.shuffle(players)
        a, b = (players[0], players[1]), (players[2], players[3])
        games.append(team_game(a, b, a_wins=sum(a) < sum(b)))  # lower ids are stronger
    board = leaderboard(rate_games(games))
    order = [uid for uid, _ in board]
    assert order[0] in (1, 2) and order[-1] in (7, 8)
    # mostly sorted: few inversions against the true order
    inversions = sum(1 for i in range(8) for j in range(i + 1, 8) if order[i] > order[j])
    assert inversions <= 4


def test_partners_share_the_team_result() -> None:
    new = rate_game(team_game((1, 2), (3, 4), a_wins=True), {})
    assert new[1].mu == new[2].mu > 25 > new[3].mu == new[4].mu
    assert all(r.games == 1 for r in new.values())


def test_teams_of_three_share_the_team_result_and_a_missing_member_is_a_bot() -> None:
    game = RatedGame(
        sides=[[human(1), human(2), human(3)], [human(4), human(5), BOT]], scores=[420, 380], winner=0
    )
    new = rate_game(game, {})
    assert set(new) == {1, 2, 3, 4, 5}  # the bot's seat is never rated
    assert new[1].mu == new[2].mu == new[3].mu > 25 > new[4].mu == new[5].mu
    assert all(r.games == 1 for r in new.values())


def test_solo_ranks_every_seat() -> None:
    game = RatedGame(sides=[[human(1)], [human(2)], [human(3)]], scores=[200, 350, 100], winner=1)
    new = rate_game(game, {})
    assert new[2].mu > new[1].mu > new[3].mu


def test_bots_are_never_rated_and_one_human_with_bots_is_not_a_rated_game() -> None:
    game = RatedGame(sides=[[human(1), BOT], [BOT, BOT]], scores=[500, 100], winner=0)
    assert rated_players(game) == []
    assert rate_game(game, {}) == {}


def test_human_partnered_with_a_bot_is_rated_against_humans() -> None:
    game = RatedGame(sides=[[human(1), BOT], [human(2), human(3)]], scores=[500, 100], winner=0)
    new = rate_game(game, {})
    assert set(new) == {1, 2, 3} and new[1].mu > 25


def test_a_seat_the_bot_played_most_of_the_game_is_not_rated() -> None:
    game = RatedGame(
        sides=[[human(1), human(2, share=0.8)], [human(3), human(4)]], scores=[500, 100], winner=0
    )
    new = rate_game(game, {})
    assert 2 not in new and set(new) == {1, 3, 4}
    # a short absence still counts, with a smaller update
    partial = rate_game(
        RatedGame(sides=[[human(1), human(2, share=0.3)], [human(3), human(4)]], scores=[500, 100], winner=0),
        {},
    )
    assert 2 in partial and partial[2].mu - 25 < partial[1].mu - 25


def test_ranks_put_the_winner_first_and_share_ties() -> None:
    assert ranks([300, 500], 1) == [2, 1]
    assert ranks([200, 200, 100], 0) == [1, 2, 3]
    assert ranks([200, 200, 100], None) == [1, 1, 3]


def test_provisional_until_enough_games() -> None:
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional
    assert Rating(games=1).display().endswith("?")


def test_rating_is_conservative() -> None:
    # a player with one lucky win is ranked below a steady winner
    games = [team_game((1, 2), (3, 4), True)] + [team_game((5, 6), (7, 8), True) for _ in range(10)]
    board = [uid for uid, _ in leaderboard(rate_games(games))]
    assert board.index(5) < board.index(1)


def test_seat_records_say_how_much_the_bot_played() -> None:
    from bot.model import Seat, Table, players
    from engine.ruleset import Ruleset

    t = Table(
        id=1, guild_id=1, channel_id=1, host_id=1, status="playing", ruleset=Ruleset.preset("standard"),
        preset="standard", settings={},
        seats=[Seat(1, "a", acts=10, auto_acts=8), Seat(2, "b", acts=10), Seat(None, "bot", bot=True, acts=9),
               Seat(4, "d", acts=4, auto_acts=1)],
    )  # fmt: skip
    shares = [p["bot_share"] for p in players(t, with_side=True)]
    assert shares == [0.8, 0.0, 0.0, 0.25]
    assert Seat.from_dict(Seat(1, "a", acts=3, auto_acts=2).to_dict()).auto_acts == 2
