"""Players' own settings (/spades me) as the tables hold them: kept in memory, read again after
their TTL, so a change made through another process is seen here."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage
from bot.table.players import PLAYER_SETTINGS_TTL, Players


class Timer:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_change_through_another_process_is_seen_after_the_ttl(tmp_path: Path) -> None:
    path = tmp_path / "spades.db"
    here_db, there_db = await Storage.open(path), await Storage.open(path)  # two processes, one file
    try:
        timer = Timer()
        here = Players(here_db, timer=timer)
        there = Players(there_db)
        assert await here.load([7]) is True
        assert here.get(7).no_blind_nil is False
        assert here.unknown([7]) == []  # fresh: not read again

        await there.set(7, no_blind_nil=True)  # /spades me through the other process
        assert there.get(7).no_blind_nil is True
        timer.now += PLAYER_SETTINGS_TTL / 2
        assert here.unknown([7]) == [] and await here.load([7]) is False
        assert here.get(7).no_blind_nil is False  # still the value read (a table never waits)

        timer.now += PLAYER_SETTINGS_TTL  # past the TTL: due, read again at the next load
        assert here.unknown([7, 7]) == [7]
        assert here.get(7).no_blind_nil is False  # due, but kept until it is read again
        assert await here.load([7]) is True
        assert here.get(7).no_blind_nil is True and here.get(7).turn_ping is False
        assert here.unknown([7]) == []
    finally:
        await here_db.close()
        await there_db.close()


async def test_a_change_made_here_is_fresh_at_once(storage: Storage) -> None:
    timer = Timer()
    players = Players(storage, timer=timer)
    assert players.unknown([1, 2]) == [1, 2]
    await players.set(1, turn_ping=True)
    assert players.unknown([1, 2]) == [2]
    assert players.get(1).turn_ping is True and players.get(2).turn_ping is False
