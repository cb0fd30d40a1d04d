"""The counted-game rule (bot/storage/counted.py) and the column storage keeps from it."""

from __future__ import annotations

import pytest

from bot.storage import FinishedGame, Storage
from bot.storage.counted import MOST_OF_THE_GAME, game_counts


def _seats(shares: list[float | None]) -> list[dict]:
    """Four seats; None is a bot seat, a number the share of a person's seat the bot played."""
    return [
        {
            "seat": s,
            "side": s % 2,
            "user_id": None if share is None else 100 + s,
            "is_bot": share is None,
            "name": f"p{s}",
            "bot_share": share or 0.0,
        }
        for s, share in enumerate(shares)
    ]


@pytest.mark.parametrize(
    ("shares", "counted"),
    [
        ([0.0, 0.0, 0.0, 0.0], True),
        ([0.0, 0.2, MOST_OF_THE_GAME, 0.0], True),  # half the game stood in for: still theirs
        ([0.0, 0.51, 0.0, 0.0], False),  # the bot played most of a seat
        ([0.0, None, 0.0, 0.0], False),  # a bot seat
        ([0.0, None, 0.0, None], False),
    ],
)
def test_a_game_counts_when_people_played_every_seat_themselves(shares: list, counted: bool) -> None:
    assert game_counts(_seats(shares)) is counted


def test_no_game_without_two_seats() -> None:
    assert not game_counts([]) and not game_counts(_seats([0.0])[:1])


async def test_storage_keeps_the_rule_and_the_leaderboard_reads_it(db: Storage) -> None:
    for table_no, shares in enumerate(([0.0, 0.0, 0.0, 0.0], [0.0, 0.9, 0.0, 0.0])):
        row = await db.tables.create(1, 10 + table_no, 100, {})
        row.status = "finished"
        game = FinishedGame(
            table_id=row.id, guild_id=1, channel_id=row.channel_id, game_no=1, ruleset={"preset": "standard"},
            hands=3, winner_side=1, started_at=0, finished_at=1 + table_no, players=_seats(shares),
            sides=[{"seats": [0, 2], "score": 210, "bags": 1}, {"seats": [1, 3], "score": 305, "bags": 2}],
        )  # fmt: skip
        await db.tables.save(row, game=game)
    page = await db.history.recent_games(1)
    assert [g.counted for g in page.games] == [False, True]  # newest first: the away player's game
    away = await db.stats.player(1, 101)  # away for most of the second game: it counts for nobody
    assert away is not None and (away.games, away.wins, away.not_counted) == (1, 1, 1)
    other = await db.stats.player(1, 100)
    assert other is not None and (other.games, other.wins, other.not_counted) == (1, 0, 1)
    assert [g["counted"] for g in await db.games.finished(1)] == [False, True]
