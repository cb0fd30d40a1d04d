"""Storage faults through Discord: bad rows at start-up, a full disk while playing.

* A table row with invalid JSON, or one the table service cannot load, no longer stops the bot: it
  is set aside (marked, logged once), its channel is told and freed, every other table restores.
* With the database full, `/spades new` and `/spades config` answer like a refused bid, the log
  keeps the real cause, and everything works again once there is room.
"""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.model import NO_TABLE, SAVE_FAILED
from tests.e2e.conftest import Spades, answer_of


def _set_aside_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "is set aside" in r.getMessage()]


async def test_rows_that_cannot_be_restored_are_set_aside_and_their_channels_freed(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    alice = spades.users["alice"]
    fake = spades.fake
    channels = [spades.channel, spades.guild.add_text_channel("two"), spades.guild.add_text_channel("three")]
    ids: list[int] = []
    async with spades.running():
        for channel in channels:
            r = await fake.slash(alice, channel, "spades new")
            assert "is open" in await answer_of(spades, r)
            t = spades.service.in_channel(channel.id)
            assert t is not None
            ids.append(t.id)
    broken_json, unloadable, good = ids
    async with spades.stored() as db, db.backend.transaction() as tx:
        await tx.execute("UPDATE tables SET data = ? WHERE id = ?", ('{"seats": [', broken_json))
        await tx.execute("UPDATE tables SET data = ? WHERE id = ?", ('{"not": "a table"}', unloadable))

    caplog.set_level(logging.INFO)
    async with spades.running():  # no ExtensionFailed: the bot starts and serves the rest
        assert set(spades.service.tables) == {good}
        lines = _set_aside_lines(caplog)
        assert len(lines) == 2 and f"table {broken_json} " in lines[0] and f"table {unloadable} " in lines[1]
        for table_id, channel in ((broken_json, channels[0]), (unloadable, channels[1])):
            await spades.wait_for(
                lambda c=channel, t=table_id: any(
                    f"Table {t} could not be restored" in m.content for m in fake.public_messages(c)
                ),
                what="the set-aside notice",
            )
        # it does not count as live: /table and /score agree there is none, /spades new works
        r = await fake.slash(alice, channels[1], "table")
        assert await answer_of(spades, r) == NO_TABLE
        r = await fake.slash(alice, channels[1], "score")
        assert "went wrong" not in await answer_of(spades, r)
        for channel in channels[:2]:
            r = await fake.slash(alice, channel, "spades new")
            assert "is open" in await answer_of(spades, r)
        assert len(_set_aside_lines(caplog)) == 2  # logged once each
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and "Traceback" in r.getMessage()]
    assert not [r for r in caplog.records if "ExtensionFailed" in r.getMessage()]


async def test_a_full_database_is_answered_like_a_bid_and_the_log_keeps_the_cause(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    alice = spades.users["alice"]
    fake = spades.fake
    other = spades.guild.add_text_channel("other")
    async with spades.running() as bot:
        storage = bot.storage
        conn = storage.backend._conn  # type: ignore[attr-defined]
        pages = (await (await conn.execute("PRAGMA page_count")).fetchone())[0]
        await conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full now
        n = 10**12
        fillers = (
            lambda size: storage.create_table(1, n, 1, {"pad": "x" * size}),
            lambda size: storage.set_guild_settings(n, pad="x" * size),
        )
        for fill in fillers:
            for size in (2000, 500, 100, 20):  # use up the room left in the pages of each b-tree
                for _ in range(1000):
                    n += 1
                    try:
                        await fill(size)
                    except sqlite3.OperationalError as exc:
                        assert "full" in str(exc)
                        break
        caplog.clear()
        caplog.set_level(logging.ERROR)

        r = await fake.slash(alice, other, "spades new")
        assert await answer_of(spades, r) == SAVE_FAILED
        r = await fake.slash(spades.users["admin"], other, "spades config", play_seconds=45)
        assert await answer_of(spades, r) == SAVE_FAILED
        causes = [str(rec.exc_info[1]) for rec in caplog.records if rec.exc_info and rec.exc_info[1]]
        assert causes and all("full" in c for c in causes), causes
        assert not any("cannot rollback" in rec.getMessage() + str(rec.exc_info) for rec in caplog.records)

        await conn.execute("PRAGMA max_page_count = 1073741823")  # room again
        r = await fake.slash(alice, other, "spades new")
        assert "is open" in await answer_of(spades, r)
        fake.bot_errors.clear()
