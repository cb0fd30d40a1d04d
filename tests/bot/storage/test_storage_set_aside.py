"""One bad table row never stops the others: it is set aside (marked, logged once, channel freed).

Invalid JSON and JSON that is not an object run on both backends; a damaged database page is
SQLite's own failure (a page of the ``tables`` b-tree overwritten on disk).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import SetAside, Storage, TableDamaged


async def _three_live(db: Storage) -> list[int]:
    ids = []
    for channel in (10, 11, 12):
        row = await db.tables.create(1, channel, 100, {"channel": channel})
        row.status = "playing"
        await db.tables.save(row)
        ids.append(row.id)
    return ids


async def _corrupt_json(db: Storage, table_id: int, text: str) -> None:
    async with db.backend.transaction() as tx:
        await tx.execute("UPDATE tables SET data = ? WHERE id = ?", (text, table_id))


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("bad", ['{"seats": [1, 2', '["not", "an", "object"]'])
async def test_a_bad_row_is_set_aside_and_the_others_restore(
    db_target: str, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = await Storage.open(db_target)
    a, b, c = await _three_live(db)
    await _corrupt_json(db, b, bad)
    await db.close()

    caplog.set_level(logging.ERROR, logger="bot.storage")
    db = await Storage.open(db_target)  # a restart
    try:
        assert [r.id for r in await db.tables.live()] == [a, c]
        assert db.tables.aside == [SetAside(b, 1, 11, db.tables.aside[0].reason, True)]
        errors = _errors(caplog)
        assert len(errors) == 1 and f"table {b} " in errors[0] and "channel 11" in errors[0]
        assert "seats" not in errors[0]  # the row's content is not logged

        # it does not count as live, nor as the channel's latest table, and the channel is free
        assert await db.tables.live_in(11) is None
        assert await db.tables.get(b) is None
        assert await db.tables.latest_in(11) is None
        fresh = await db.tables.create(1, 11, 100, {"new": True})
        assert (await db.tables.live_in(11)) == fresh

        # the mark is in the database: the next start neither meets it nor logs it again
        await db.close()
        caplog.clear()
        db = await Storage.open(db_target)
        assert [r.id for r in await db.tables.live()] == [a, c, fresh.id]
        assert db.tables.aside == [] and _errors(caplog) == []
        stored = await db._fetchone("SELECT status, set_aside FROM tables WHERE id = ?", (b,))
        assert stored[0] == "abandoned" and "JSON" in stored[1]
    finally:
        await db.close()


async def test_a_bad_row_met_later_reads_as_none_not_as_an_error(db: Storage) -> None:
    (a, b, _c) = await _three_live(db)
    await _corrupt_json(db, a, "{oops")
    assert await db.tables.get(a) is None  # e.g. /score or an old button
    assert [s.table_id for s in db.tables.aside] == [a]
    assert (await db.tables.get(b)) is not None


async def test_the_service_can_set_a_table_aside(db: Storage) -> None:
    """A row that is valid JSON but that the table service cannot load (item: it does not count
    as live) is set aside the same way."""
    (a, _b, _c) = await _three_live(db)
    entry = await db.tables.set_aside(a, "could not be restored (KeyError)")
    assert entry.marked and entry.table_id == a
    assert await db.tables.live_in(10) is None
    assert a not in [r.id for r in await db.tables.live()]
    await db.tables.create(1, 10, 100, {})


def _damage_row(path: Path, marker: bytes) -> None:
    """Overwrite the database page that holds ``marker`` (one table's data) with garbage."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    at = data.find(marker)
    assert at > 0
    start = at - at % page_size
    data[start : start + page_size] = bytes((0xAB if i % 3 else 0) for i in range(page_size))
    path.write_bytes(bytes(data))


async def test_a_damaged_page_sets_its_table_aside_and_the_bot_serves_the_rest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "spades.db"
    db = await Storage.open(path)
    ids = []
    for channel in range(100, 105):
        # big rows: one per page, so the damage hits exactly one table
        row = await db.tables.create(1, channel, 7, {"pad": "x" * 3000, "channel": channel})
        ids.append(row.id)
    await db.close()
    with sqlite3.connect(path) as conn:  # fold the WAL into the file, as after a clean stop
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    _damage_row(path, b'"channel":102}')

    caplog.set_level(logging.ERROR, logger="bot.storage")
    db = await Storage.open(path)  # start-up goes on
    try:
        live = await db.tables.live()
        assert [r.id for r in live] == [ids[0], ids[1], ids[3], ids[4]]
        [entry] = db.tables.aside
        assert (entry.table_id, entry.channel_id, entry.marked) == (ids[2], 102, False)
        assert "damaged" in entry.reason
        assert len(_errors(caplog)) == 1
        # the others work as usual, the damaged one reads as nothing
        other = await db.tables.get(ids[3])
        assert other is not None
        other.data["more"] = 1
        await db.tables.save(other)
        assert await db.tables.live_in(102) is None and await db.tables.latest_in(102) is None
        assert await db.tables.latest_in(103) is not None
        # its channel cannot get a new table until the file is repaired: said so, specifically
        with pytest.raises(TableDamaged) as info:
            await db.tables.create(1, 102, 7, {})
        assert info.value.table_id == ids[2] and info.value.channel_id == 102
        assert len(_errors(caplog)) == 1  # still logged once
    finally:
        await db.close()
    assert json.loads(json.dumps(entry.reason))  # plain text


def _guild(shard: int, n: int, count: int = 2) -> int:
    """A guild id on ``shard`` of ``count`` (Discord's ``(guild_id >> 22) % count``)."""
    return (n * count + shard) << 22


def _damage_page(path: Path, number: int) -> None:
    """Overwrite page ``number`` (1-based) of the database file with garbage."""
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    start = (number - 1) * size
    data[start : start + size] = bytes((0xAB if i % 3 else 0) for i in range(size))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("which", [0, 20, 41, "the live index"])
@pytest.mark.parametrize("sharded", [False, True])
async def test_a_damaged_page_among_many_tables_costs_only_its_own_rows(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, which: int | str, sharded: bool
) -> None:
    """42 live tables on two shards (and finished ones between them), one page damaged (a leaf of
    the table: the first, one in the middle, the last; or the index of live tables): restoring
    every table, or only one shard's, leaves out only the tables on that page (the fallback's
    shard filter on ``guild_id`` read the damaged page again, and start-up stopped)."""
    path = tmp_path / "spades.db"
    db = await Storage.open(path)
    rows = []
    for i in range(42):
        shard = i % 2
        row = await db.tables.create(_guild(shard, i), 1000 + i, 7, {"pad": "x" * 1500, "n": f"t{i}"})
        row.status = "playing"
        await db.tables.save(row)
        rows.append(row)
        done = await db.tables.create(_guild(shard, i), 5000 + i, 7, {"pad": "y" * 1500})
        done.status = "finished"
        await db.tables.save(done)
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert pages > 20  # a b-tree of many leaves: the damaged one is not the root
    if isinstance(which, int):
        _damage_row(path, f'"n":"t{which}"'.encode())
    else:
        with sqlite3.connect(path) as conn:
            (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'tables_live'").fetchone()
        conn.close()
        _damage_page(path, root)
    with sqlite3.connect(path) as conn:  # which rows the damage took, read on a plain connection
        lost = set()
        for r in rows:
            try:
                conn.execute("SELECT data FROM tables WHERE id = ?", (r.id,)).fetchone()
            except sqlite3.DatabaseError:
                lost.add(r.id)
    conn.close()
    assert (rows[which].id in lost if isinstance(which, int) else not lost) and len(lost) <= 3

    caplog.set_level(logging.ERROR, logger="bot.storage")
    db = await Storage.open(path)
    try:
        shards = (2, {0}) if sharded else None
        wanted = [r.id for r in rows if (not sharded or (r.guild_id >> 22) % 2 == 0) and r.id not in lost]
        assert [r.id for r in await db.tables.live(shards=shards)] == wanted
        mine_lost = {r.id for r in rows if r.id in lost and (not sharded or (r.guild_id >> 22) % 2 == 0)}
        assert {e.table_id for e in db.tables.aside} == mine_lost
        assert len(_errors(caplog)) == len(mine_lost)
    finally:
        await db.close()
