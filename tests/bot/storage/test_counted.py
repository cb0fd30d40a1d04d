"""The counted-game rule (bot/storage/counted.py), as storage and the leaderboard apply it."""

from __future__ import annotations

import pytest

from bot.storage import FinishedGame, Storage
from bot.storage.counted import game_counts


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
        ([0.0, 0.9, 0.0, 0.0], True),  # the bot played for someone who left: still their game
        ([0.0, None, 0.0, 0.0], False),  # a bot seat
        ([0.0, None, 0.0, None], False),
    ],
)
def test_a_game_counts_when_every_seat_is_a_person(shares: list, counted: bool) -> None:
    assert game_counts(_seats(shares)) is counted


def test_no_game_without_two_seats() -> None:
    assert not game_counts([]) and not game_counts(_seats([0.0])[:1])


async def test_leaving_a_losing_game_keeps_the_loss_and_a_bot_seat_counts_for_nobody(db: Storage) -> None:
    for table_no, shares in enumerate(([0.0, 0.9, 0.0, 0.0], [0.0, None, 0.0, 0.0])):
        row = await db.tables.create(1, 10 + table_no, 100, {})
        row.status = "finished"
        game = FinishedGame(
            table_id=row.id, guild_id=1, channel_id=row.channel_id, game_no=1, ruleset={"preset": "standard"},
            hands=3, winner_side=0, started_at=0, finished_at=1 + table_no, players=_seats(shares),
            sides=[{"seats": [0, 2], "score": 305, "bags": 1}, {"seats": [1, 3], "score": 210, "bags": 2}],
        )  # fmt: skip
        await db.tables.save(row, game=game)
    page = await db.history.recent_games(1)
    assert [g.counted for g in page.games] == [False, True]  # newest first: the bot game
    leaver = await db.stats.player(1, 101)  # left the first game (the bot played 90 % of it) and lost
    assert leaver is not None and (leaver.games, leaver.wins, leaver.not_counted) == (1, 0, 0)
    winner = await db.stats.player(1, 100)
    assert winner is not None and (winner.games, winner.wins, winner.not_counted) == (1, 1, 1)
    everything = await db.stats.player(1, 100, humans_only=False)
    assert everything is not None and (everything.games, everything.wins, everything.not_counted) == (2, 2, 1)
    assert [g["counted"] for g in await db.games.finished(1)] == [False, True]
