"""Storage faults through Discord: bad rows at start-up, a full disk while playing.

* A table row with invalid JSON, or one the table service cannot load, no longer stops the bot: it
  is set aside (marked, logged once), its channel is told and freed, every other table restores.
* With the disk full (a small file system of its own, filled by the test), `/spades new` and
  `/spades config` answer like a refused bid, the log keeps the real cause, and everything works
  again once there is room.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.model import NO_TABLE, SAVE_FAILED
from tests.e2e.harness import Spades, live_message, open_seen, said


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
            ids.append(await open_seen(spades, alice, channel))  # ("Table N is open", its message up)
    broken_json, unloadable, good = ids
    async with spades.stored() as db, db.backend.transaction() as tx:
        await tx.execute("UPDATE tables SET data = ? WHERE id = ?", ('{"seats": [', broken_json))
        await tx.execute("UPDATE tables SET data = ? WHERE id = ?", ('{"not": "a table"}', unloadable))

    caplog.set_level(logging.INFO)
    async with spades.running():  # no ExtensionFailed: the bot starts and serves the rest
        # the good table is live (/table shows its message), the other two channels have none
        r = await fake.slash(alice, channels[2], "table")
        assert await said(r) != NO_TABLE
        assert live_message(spades, channels[2], good) is not None
        for channel in channels[:2]:
            assert await spades.no_table_in(channel)
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
        assert await said(r) == spades.mentioned(NO_TABLE)
        r = await fake.slash(alice, channels[1], "score")
        assert "went wrong" not in await said(r)
        for channel in channels[:2]:
            r = await fake.slash(alice, channel, "spades new")
            assert "is open" in await said(r)
        assert len(_set_aside_lines(caplog)) == 2  # logged once each
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and "Traceback" in r.getMessage()]
    assert not [r for r in caplog.records if "ExtensionFailed" in r.getMessage()]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 4 MB of its own (tmpfs), to fill up: a full disk, outside our code."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here (needs root): {mounted.stderr!r}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """A file that takes every byte left on ``disk``."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC, exc
    finally:
        os.close(fd)
    return filler


async def test_a_full_disk_is_answered_like_a_bid_and_the_log_keeps_the_cause(
    spades: Spades, small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alice = spades.users["alice"]
    fake = spades.fake
    other = spades.guild.add_text_channel("other")
    spades.db_path = str(small_disk / "spades.db")
    async with spades.running():
        r = await fake.slash(alice, spades.channel, "spades new")
        assert "is open" in await said(r)
        # a write goes to the write-ahead log first: empty it (on a connection of the test's own),
        # so the next write has to grow a file; then the disk fills up
        own = sqlite3.connect(spades.db_path)
        try:
            busy, _, _ = own.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            own.close()
        assert busy == 0
        filler = fill(small_disk)
        caplog.clear()
        caplog.set_level(logging.ERROR)

        r = await fake.slash(alice, other, "spades new")
        assert await said(r) == spades.mentioned(SAVE_FAILED)
        r = await fake.slash(spades.users["admin"], other, "spades config", play_seconds=45)
        assert await said(r) == spades.mentioned(SAVE_FAILED)
        causes = [str(rec.exc_info[1]) for rec in caplog.records if rec.exc_info and rec.exc_info[1]]
        assert causes and all("full" in c for c in causes), causes
        assert not any("cannot rollback" in rec.getMessage() + str(rec.exc_info) for rec in caplog.records)
        assert await spades.no_table_in(other)  # nothing was half made

        filler.unlink()  # room again
        r = await fake.slash(alice, other, "spades new")
        assert "is open" in await said(r)
        r = await fake.slash(spades.users["admin"], other, "spades config", play_seconds=45)
        assert await said(r) != SAVE_FAILED
        fake.bot_errors.clear()
