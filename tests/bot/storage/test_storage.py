"""Storage: migrations, live tables, optimistic concurrency, settings, metadata, games and stats.

Every test taking ``db`` or ``db_target`` runs twice: on SQLite and on a real PostgreSQL server
(tests/postgres_server.py)."""

from __future__ import annotations

import asyncio
import copy
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    ChannelBusy,
    Claim,
    FinishedGame,
    MigrationError,
    StaleTable,
    Storage,
    StorageClosed,
    StorageError,
    TableRow,
)
from bot.storage.migrations import default_directory, discover


async def _tables(target: str | Path) -> set[str]:
    db = await Storage.open(target, migrations_dir=Path(__file__).parent / "no-migrations")
    try:
        if db.dialect == "sqlite":
            rows = await db._fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await db._fetchall(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        return {r[0] for r in rows}
    finally:
        await db.close()


async def _versions(target: str | Path) -> list[int]:
    db = await Storage.open(target, migrations_dir=Path(__file__).parent / "no-migrations")
    try:
        return [int(r[0]) for r in await db._fetchall("SELECT version FROM schema_migrations ORDER BY 1")]
    finally:
        await db.close()


# --- opening and migrations -------------------------------------------------------------------


async def test_open_creates_file_in_wal_with_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "new.db"
    db = await Storage.open(path)
    try:
        assert path.exists()
        assert await db.pragma("journal_mode") == "wal"
        assert await db.pragma("foreign_keys") == 1
        assert await db.schema_version() == discover()[-1].version
    finally:
        await db.close()
    # WAL is a property of the file: a plain connection sees it too
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_migrations_are_idempotent(db_target: str) -> None:
    db = await Storage.open(db_target)
    row = await db.tables.create(1, 10, 100, {"kept": True})
    await db.close()
    before = await _tables(db_target)
    db = await Storage.open(db_target)  # second start: nothing re-applied, nothing lost
    try:
        assert await _tables(db_target) == before
        assert (await db.tables.get(row.id)) == row
        assert await _versions(db_target) == [m.version for m in discover(dialect=db.dialect)]
    finally:
        await db.close()


async def test_failing_migration_is_rolled_back_whole(db_target: str, tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    shutil.copytree(default_directory(), migrations)
    (migrations / "900_half_done.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO half_done VALUES (1);\nTHIS IS NOT SQL;\n"
    )
    with pytest.raises(MigrationError, match="900_half_done"):
        await Storage.open(db_target, migrations_dir=migrations)
    tables = await _tables(db_target)
    assert "half_done" not in tables  # the failing file left nothing behind
    assert "tables" in tables  # the earlier, good migrations stayed applied
    assert 900 not in await _versions(db_target)

    # fixed file: applied on the next start, exactly once
    (migrations / "900_half_done.sql").write_text("CREATE TABLE half_done (x INTEGER);\n")
    db = await Storage.open(db_target, migrations_dir=migrations)
    assert await db.schema_version() == 900
    await db.close()
    assert "half_done" in await _tables(db_target)


async def test_a_migration_twin_replaces_the_shared_file_on_its_backend(
    db_target: str, tmp_path: Path
) -> None:
    migrations = tmp_path / "migrations"
    shutil.copytree(default_directory(), migrations)
    (migrations / "900_twin.sql").write_text("CREATE TABLE twin_shared (x INTEGER);\n")
    (migrations / "900_twin.postgresql.sql").write_text("CREATE TABLE twin_pg (x BIGINT);\n")
    (migrations / "901_only_pg.postgresql.sql").write_text("CREATE TABLE only_pg (x BIGINT);\n")
    db = await Storage.open(db_target, migrations_dir=migrations)
    try:
        assert await db.schema_version() == 901  # both backends agree on the version
        dialect = db.dialect
    finally:
        await db.close()
    tables = await _tables(db_target)
    if dialect == "postgresql":
        assert {"twin_pg", "only_pg"} <= tables and "twin_shared" not in tables
    else:
        assert "twin_shared" in tables and not {"twin_pg", "only_pg"} & tables


async def test_two_processes_migrating_at_once_apply_each_file_once(db_target: str) -> None:
    opened = await asyncio.gather(Storage.open(db_target), Storage.open(db_target))
    try:
        assert [await d.schema_version() for d in opened] == [discover()[-1].version] * 2
        assert await _versions(db_target) == [m.version for m in discover()]
    finally:
        for d in opened:
            await d.close()


def test_misnamed_migration_is_refused(tmp_path: Path) -> None:
    (tmp_path / "001_ok.sql").write_text("SELECT 1;")
    (tmp_path / "2-bad name.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"2-bad name\.sql"):
        discover(tmp_path)


def test_duplicate_migration_versions_are_refused(tmp_path: Path) -> None:
    (tmp_path / "001_one.sql").write_text("SELECT 1;")
    (tmp_path / "001_two.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="share version 1"):
        discover(tmp_path)


# --- live tables ------------------------------------------------------------------------------------


async def test_create_and_read_back(db: Storage) -> None:
    data = {"seats": [None, None, None, None], "settings": {"preset": "standard"}, "n": 1.5}
    row = await db.tables.create(1, 10, 100, data)
    assert (row.status, row.version, row.guild_id, row.channel_id, row.host_id) == ("open", 1, 1, 10, 100)
    assert await db.tables.get(row.id) == row
    assert await db.tables.live_in(10) == row
    assert await db.tables.live_in(11) is None
    assert await db.tables.get(row.id + 1000) is None


async def test_channel_busy_while_a_table_is_live(db: Storage) -> None:
    first = await db.tables.create(1, 10, 100, {})
    with pytest.raises(ChannelBusy) as info:
        await db.tables.create(1, 10, 200, {})
    assert info.value.table_id == first.id and info.value.channel_id == 10
    other = await db.tables.create(1, 11, 200, {})  # another channel is fine
    assert other.id != first.id

    first.status = "playing"
    await db.tables.save(first)
    with pytest.raises(ChannelBusy):
        await db.tables.create(1, 10, 200, {})

    first.status = "finished"
    await db.tables.save(first)
    again = await db.tables.create(1, 10, 200, {})  # the channel is free once the game is over
    assert again.status == "open"
    assert [t.id for t in await db.tables.live()] == [other.id, again.id]


async def test_concurrent_creates_in_one_channel_exactly_one_wins(db: Storage) -> None:
    results = await asyncio.gather(
        *(db.tables.create(1, 10, host, {"host": host}) for host in range(8)), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, TableRow)]
    losers = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(winners) == 1 and len(losers) == 7
    assert all(e.table_id == winners[0].id for e in losers)


async def test_reviving_a_table_into_a_busy_channel_is_refused(db: Storage) -> None:
    old = await db.tables.create(1, 10, 100, {})
    old.status = "abandoned"
    await db.tables.save(old)
    await db.tables.create(1, 10, 100, {})
    old.status = "open"
    with pytest.raises(ChannelBusy) as info:
        await db.tables.save(old)
    assert str(info.value) == "channel 10 already has a live table"
    assert info.value.__cause__ is not None  # the database's own error, for the log
    assert (await db.tables.get(old.id)).status == "abandoned"  # type: ignore[union-attr]


async def test_save_bumps_version_in_place_and_persists(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"turn": 0})
    for turn in range(1, 4):
        row.data["turn"] = turn
        returned = await db.tables.save(row)
        assert returned is row and row.version == turn + 1
    stored = await db.tables.get(row.id)
    assert stored is not None and stored.data == {"turn": 3} and stored.version == 4


async def test_stale_row_is_refused_and_nothing_written(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"turn": 0})
    racer = copy.deepcopy(row)
    row.data["turn"] = 1
    await db.tables.save(row)
    racer.data["turn"] = 99
    with pytest.raises(StaleTable) as info:
        await db.tables.save(racer)
    assert (info.value.version, info.value.current) == (1, 2)
    assert str(info.value) == f"table {row.id} was saved at version 1 but it is now at version 2"  # (the log)
    assert racer.version == 1  # untouched on failure
    stored = await db.tables.get(row.id)
    assert stored is not None and stored.data == {"turn": 1} and stored.version == 2


async def test_concurrent_saves_of_one_version_exactly_one_counts(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"click": None})
    copies = [copy.deepcopy(row) for _ in range(5)]
    for i, c in enumerate(copies):
        c.data["click"] = i
    results = await asyncio.gather(*(db.tables.save(c) for c in copies), return_exceptions=True)
    ok = [r for r in results if isinstance(r, TableRow)]
    assert len(ok) == 1 and sum(isinstance(r, StaleTable) for r in results) == 4
    stored = await db.tables.get(row.id)
    assert stored is not None and stored.data == ok[0].data and stored.version == 2


async def test_two_processes_saving_one_version_exactly_one_counts(db_target: str) -> None:
    """Two Storage objects (two connections, as two bot processes would have) race on one row:
    the version check in the database lets exactly one save through, every time."""
    first = await Storage.open(db_target)
    second = await Storage.open(db_target)
    try:
        row = await first.tables.create(1, 10, 100, {"n": 0})
        for n in range(1, 11):
            a, b = copy.deepcopy(row), copy.deepcopy(row)
            a.data, b.data = {"n": n, "by": "a"}, {"n": n, "by": "b"}
            results = await asyncio.gather(
                first.tables.save(a), second.tables.save(b), return_exceptions=True
            )
            stale = [r for r in results if isinstance(r, StaleTable)]
            saved = [r for r in results if isinstance(r, TableRow)]
            assert len(stale) == 1 and len(saved) == 1, results
            stored = await second.tables.get(row.id)
            assert stored is not None and stored.data == saved[0].data and stored.version == row.version + 1
            row = stored
    finally:
        await first.close()
        await second.close()


async def test_missing_table_is_stale(db: Storage) -> None:
    ghost = TableRow(999, 1, 10, 100, "open", {}, 1, 0, 0)
    with pytest.raises(StaleTable) as info:
        await db.tables.save(ghost)
    assert info.value.current is None


async def test_bad_data_and_status_are_refused_before_writing(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"ok": 1})
    row.data["bad"] = {1, 2}
    with pytest.raises(TypeError):
        await db.tables.save(row)
    row.data = {"nan": float("nan")}
    with pytest.raises(ValueError):
        await db.tables.save(row)
    row.data = {"ok": 2}
    row.status = "paused"
    with pytest.raises(ValueError) as info:
        await db.tables.save(row)
    assert str(info.value) == (
        "bad table status 'paused'; expected one of open, playing, finished, abandoned"
    )
    stored = await db.tables.get(row.id)
    assert stored is not None and stored.data == {"ok": 1} and stored.version == 1
    with pytest.raises(TypeError):
        await db.tables.create(1, 11, 100, {"bad": object()})
    assert await db.tables.live_in(11) is None


async def test_failed_game_insert_rolls_back_the_table_save(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"state": "before"})
    row.status = "finished"
    row.data = {"state": "after"}
    broken = _game(row, winner_side=0, players=[{"seat": 0}])  # no "side": the insert fails
    with pytest.raises(KeyError):
        await db.tables.save(row, game=broken)
    stored = await db.tables.get(row.id)
    assert stored is not None
    assert (stored.status, stored.data, stored.version) == ("open", {"state": "before"}, 1)
    assert row.version == 1
    assert await db.games.finished(1) == []


async def test_state_survives_reopen(db_target: str) -> None:
    path = db_target
    db = await Storage.open(path)
    row = await db.tables.create(1, 10, 100, {"trick": ["AS"]})
    row.status = "playing"
    await db.tables.save(row)
    await db.set_meta("k", "v")
    await db.close()
    db = await Storage.open(path)
    try:
        assert await db.tables.live() == [row]
        assert await db.get_meta("k") == "v"
    finally:
        await db.close()


# --- settings and metadata ------------------------------------------------------------------------


async def test_guild_settings_default_and_merge(db: Storage) -> None:
    assert await db.settings.guild(1) == {"default_preset": "standard", "options": {}}
    mine = await db.settings.guild(1)
    mine["options"]["x"] = 1  # a caller's copy never leaks into the defaults
    assert await db.settings.guild(1) == {"default_preset": "standard", "options": {}}
    stored = await db.settings.set_guild(1, default_preset="classic-online")
    assert stored == {"default_preset": "classic-online", "options": {}}
    await db.settings.set_guild(1, options={"target_score": 300})
    expected = {"default_preset": "classic-online", "options": {"target_score": 300}}
    assert await db.settings.guild(1) == expected
    assert await db.settings.guild(2) == {"default_preset": "standard", "options": {}}


async def test_meta_roundtrip(db: Storage) -> None:
    assert await db.get_meta("command_hash:global") is None
    await db.set_meta("command_hash:global", "abc")
    await db.set_meta("command_hash:global", "def")
    assert await db.get_meta("command_hash:global") == "def"


# --- finished games ------------------------------------------------------------------------------


def _game(
    row: TableRow,
    *,
    winner_side: int | None,
    players: list[dict],
    game_no: int = 1,
) -> FinishedGame:
    return FinishedGame(
        table_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game_no=game_no,
        ruleset={"preset": "standard"},
        hands=7,
        winner_side=winner_side,
        started_at=1_700_000_000,
        finished_at=1_700_003_600,
        sides=[{"seats": [0, 2], "score": 512, "bags": 3}, {"seats": [1, 3], "score": 471, "bags": 8}],
        players=players,
    )


def _four(users: list[int | None]) -> list[dict]:
    return [
        {
            "seat": s,
            "side": s % 2,
            "user_id": u,
            "is_bot": u is None,
            "name": f"user{u}" if u is not None else f"Bot {s}",
        }
        for s, u in enumerate(users)
    ]


async def _finish(db: Storage, guild: int, channel: int, users: list[int | None], winner: int) -> None:
    row = await db.tables.create(guild, channel, users[0] or 1, {})
    row.status = "finished"
    await db.tables.save(row, game=_game(row, winner_side=winner, players=_four(users)))


async def test_games_feed_wins_and_bot_marks(db: Storage) -> None:
    await _finish(db, 1, 10, [11, 12, 13, 14], winner=0)  # 11 & 13 win
    await _finish(db, 1, 10, [11, 12, 13, 14], winner=1)  # 12 & 14 win
    await _finish(db, 1, 10, [11, None, 13, None], winner=0)  # with bots: 11 & 13 win
    await _finish(db, 2, 20, [11, 12, 13, 14], winner=1)  # another server

    s11 = await db.stats.player(1, 11, humans_only=False)
    assert s11 is not None
    assert (s11.games, s11.wins, s11.losses, s11.not_counted) == (3, 2, 1, 1)
    assert s11.win_pct == pytest.approx(200 / 3)
    counted = await db.stats.player(1, 11)  # by default only counted games: the bot game is not
    assert counted is not None and (counted.games, counted.wins, counted.not_counted) == (2, 1, 1)
    s12 = await db.stats.player(1, 12)
    assert s12 is not None and (s12.games, s12.wins, s12.not_counted) == (2, 1, 0)
    assert await db.stats.player(1, 99) is None
    assert await db.stats.count(1) == 4  # bots never count
    assert await db.stats.count(2) == 4
    assert await db.stats.count(3) == 0

    board = await db.stats.leaderboard(1, sort="wins", humans_only=False)
    assert [p.user_id for p in board] == [11, 13, 12, 14]
    assert [p.rank for p in board] == [1, 2, 3, 4]
    # "games": 11 and 13 have 3, 12 and 14 have 2; ties end on user id
    games_board = await db.stats.leaderboard(1, sort="games", humans_only=False)
    assert [p.user_id for p in games_board] == [11, 13, 12, 14]
    page = await db.stats.leaderboard(1, sort="wins", limit=2, offset=2, humans_only=False)
    assert [(p.user_id, p.rank) for p in page] == [(12, 3), (14, 4)]
    assert (await db.stats.player(1, 14, sort="wins", humans_only=False)).rank == 4  # type: ignore[union-attr]

    games = await db.games.finished(1)
    assert len(games) == 3 and [g["with_bots"] for g in games] == [True, False, False]
    assert [p["won"] for p in games[-1]["players"]] == [True, False, True, False]
    assert games[0]["players"][1]["user_id"] is None and games[0]["players"][1]["is_bot"]


async def test_a_drawn_or_abandoned_game_has_no_winner(db: Storage) -> None:
    await _finish(db, 1, 10, [11, 12, 13, 14], winner=0)
    row = await db.tables.create(1, 10, 11, {})
    row.status = "finished"
    await db.tables.save(row, game=_game(row, winner_side=None, players=_four([11, 12, 13, 14])))
    s = await db.stats.player(1, 11)
    assert s is not None and (s.games, s.wins) == (2, 1)
    s12 = await db.stats.player(1, 12)
    assert s12 is not None and (s12.games, s12.wins) == (2, 0)


async def test_unknown_sort_is_refused(db: Storage) -> None:
    with pytest.raises(ValueError, match="unknown sort"):
        await db.stats.leaderboard(1, sort="score; DROP TABLE tables")


async def test_use_after_close_is_a_clear_error(db_target: str) -> None:
    db = await Storage.open(db_target)
    row = await db.tables.create(1, 10, 100, {})
    await db.close()
    await db.close()  # idempotent
    with pytest.raises(StorageClosed):
        await db.tables.get(row.id)
    with pytest.raises(StorageClosed):
        await db.tables.save(row)


# ---- group commit: saves queued together share one transaction, each keeps its own outcome ----------


async def _batches(db: Storage, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the size of every batch the writer commits (the write itself goes through)."""
    sizes: list[int] = []
    original = db.tables._writer._write_batch

    async def recording(batch: list) -> None:
        sizes.append(len(batch))
        await original(batch)

    monkeypatch.setattr(db.tables._writer, "_write_batch", recording)
    return sizes


async def test_concurrent_saves_of_different_tables_land_in_one_group(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(6)]
    sizes = await _batches(db, monkeypatch)
    for i, r in enumerate(rows):
        r.data = {"n": i + 1}
    saved = await asyncio.gather(*(db.tables.save(r) for r in rows))
    assert sizes == [6]
    assert [s.version for s in saved] == [2] * 6 and saved == rows  # the same objects, bumped
    for i, r in enumerate(rows):
        stored = await db.tables.get(r.id)
        assert stored is not None and (stored.data, stored.version) == ({"n": i + 1}, 2)


@pytest.mark.parametrize("leased", [False, True], ids=["unsharded", "leased"])
async def test_a_group_without_conflicts_is_written_in_one_statement(
    db: Storage, monkeypatch: pytest.MonkeyPatch, leased: bool
) -> None:
    """The group's fast path (one version-checked UPDATE for every row, also fenced by a shard
    lease) writes it; the one-by-one fallback is only for a group with a stale or refused save.
    (The fallback gives the same outcome, slower: only this test notices it taking over.)"""
    if leased:
        db.shards.claim = Claim("A", 1)
        await db.shards.acquire("A", 1, (0,), ttl=30)
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(2)]
    finished = await db.tables.create(1, 20, 100, {"n": 0})
    one_by_one: list[int] = []
    original = db.tables._writer._write_one

    async def counted(tx: Any, s: Any) -> Exception | None:
        one_by_one.append(s.row.id)
        return await original(tx, s)

    monkeypatch.setattr(db.tables._writer, "_write_one", counted)
    sizes = await _batches(db, monkeypatch)
    for r in rows:
        r.data = {"n": 1}
    await asyncio.gather(*(db.tables.save(r) for r in rows))  # a group of two
    finished.status = "finished"
    group = [db.tables.save(r) for r in rows] + [
        db.tables.save(finished, game=_game(finished, winner_side=0, players=_four([21, 22, 23, 24])))
    ]
    await asyncio.gather(*group)  # with a finished game
    assert sizes == [2, 3] and one_by_one == []
    assert [g["table_id"] for g in await db.games.finished(1)] == [finished.id]
    for r in (*rows, finished):
        stored = await db.tables.get(r.id)
        assert stored is not None and stored.version == r.version


async def test_a_stale_save_in_a_group_is_refused_alone(db: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(4)]
    stale = copy.deepcopy(rows[2])
    await db.tables.save(rows[2])  # someone else got there first: version 2
    sizes = await _batches(db, monkeypatch)
    batch = [rows[0], rows[1], stale, rows[3]]
    for r in batch:
        r.data = {"n": "new"}
    results = await asyncio.gather(*(db.tables.save(r) for r in batch), return_exceptions=True)
    assert sizes == [4]
    assert isinstance(results[2], StaleTable) and results[2].current == 2
    assert stale.version == 1  # untouched
    for r in (rows[0], rows[1], rows[3]):
        stored = await db.tables.get(r.id)
        assert stored is not None and stored.data == {"n": "new"} and stored.version == r.version == 2
    stored = await db.tables.get(stale.id)
    assert stored is not None and stored.data == {"n": 0} and stored.version == 2


async def test_a_caller_gone_while_its_group_is_written_one_by_one_is_skipped_alone(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale save sends the group down the one-by-one path; a caller cancelled meanwhile (its
    interaction gave up) is skipped, and the saves after it are still written and answered."""
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(4)]
    stale = copy.deepcopy(rows[1])
    await db.tables.save(rows[1])  # someone else got there first
    batch = [rows[0], stale, rows[2], rows[3]]
    for r in batch:
        r.data = {"n": "new"}
    original = db.tables._writer._write_one
    tasks: list[asyncio.Task[TableRow]] = []

    async def first_then_cancel(tx: Any, s: Any) -> Exception | None:
        if s.row is rows[0]:
            tasks[2].cancel()  # rows[2]'s caller goes away while rows[0] is being written
        return await original(tx, s)

    monkeypatch.setattr(db.tables._writer, "_write_one", first_then_cancel)
    tasks.extend(asyncio.create_task(db.tables.save(r)) for r in batch)
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=30)
    assert results[0] is rows[0] and results[3] is rows[3]
    assert isinstance(results[1], StaleTable) and isinstance(results[2], asyncio.CancelledError)
    versions = [(await db.tables.get(r.id)).version for r in rows]  # type: ignore[union-attr]
    assert versions == [2, 2, 1, 2]  # rows[2] was skipped, rows[3] after it written


async def test_a_caller_gone_while_its_own_refused_save_is_written_fails_no_other_save(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting save cancelled while the one-by-one path writes it (and refuses it as stale):
    its refusal has nobody to go to, and the other saves of the batch are still written and
    answered (setting the refusal on the cancelled future raised InvalidStateError, which
    rolled the whole group back and failed every other save)."""
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(3)]
    stale = copy.deepcopy(rows[1])
    await db.tables.save(rows[1])  # someone else got there first
    batch = [rows[0], stale, rows[2]]
    for r in batch:
        r.data = {"n": "new"}
    original = db.tables._writer._write_one
    tasks: list[asyncio.Task[TableRow]] = []

    async def cancel_while_written(tx: Any, s: Any) -> Exception | None:
        if s.row is stale:
            tasks[1].cancel()  # the stale save's caller goes away while its own write runs
            await asyncio.sleep(0)
        return await original(tx, s)

    monkeypatch.setattr(db.tables._writer, "_write_one", cancel_while_written)
    tasks.extend(asyncio.create_task(db.tables.save(r)) for r in batch)
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=30)
    assert results[0] is rows[0] and results[2] is rows[2], results
    assert isinstance(results[1], asyncio.CancelledError)
    versions = [(await db.tables.get(r.id)).version for r in rows]  # type: ignore[union-attr]
    assert versions == [2, 2, 2]


async def test_a_failing_save_in_a_group_rolls_back_only_itself(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await db.tables.create(1, 10, 100, {"s": "a"})
    b = await db.tables.create(1, 11, 100, {"s": "b"})
    c = await db.tables.create(1, 12, 100, {"s": "c"})
    d = await db.tables.create(1, 13, 100, {"s": "d"})
    # c finishes, so a new live table may open in its channel; reopening c then collides
    c.status = "finished"
    await db.tables.save(c)
    await db.tables.create(1, 12, 101, {"s": "rematch"})
    sizes = await _batches(db, monkeypatch)
    a.status, a.data = "finished", {"s": "a2"}
    broken = _game(a, winner_side=0, players=[{"seat": 0}])  # no "side": this insert fails
    b.data = {"s": "b2"}
    c.status, c.data = "open", {"s": "c2"}
    d.status, d.data = "finished", {"s": "d2"}
    good = _game(d, winner_side=1, players=_four([21, 22, 23, 24]))
    results = await asyncio.gather(
        db.tables.save(a, game=broken),
        db.tables.save(b),
        db.tables.save(c),
        db.tables.save(d, game=good),
        return_exceptions=True,
    )
    assert sizes[0] == 4
    assert isinstance(results[0], KeyError) and isinstance(results[2], ChannelBusy)
    assert results[1] is b and results[3] is d
    stored = {r.id: await db.tables.get(r.id) for r in (a, b, c, d)}
    sa, sb, sc, sd = (stored[r.id] for r in (a, b, c, d))
    assert sa is not None and sb is not None and sc is not None and sd is not None
    assert (sa.status, sa.data, sa.version) == ("open", {"s": "a"}, 1)
    assert (sc.status, sc.data) == ("finished", {"s": "c"})
    assert sb.data == {"s": "b2"} and sd.status == "finished"
    games = await db.games.finished(1)
    assert [g["table_id"] for g in games] == [d.id]  # d's game landed, a's did not


async def test_a_move_alone_is_one_statement_that_commits_by_itself(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The common save (one table, no finished hand or game) is its UPDATE alone, outside any
    transaction block (BEGIN, a savepoint and COMMIT were four more trips to the database), and
    refusals and failures still reach its caller with nothing written."""
    row = await db.tables.create(1, 10, 100, {"n": 0})
    other = await db.tables.create(1, 11, 100, {"n": 0})

    def no_transaction() -> Any:
        raise AssertionError("a save alone opened a transaction")

    monkeypatch.setattr(db.backend, "transaction", no_transaction)
    row.data = {"n": 1}
    assert (await db.tables.save(row)).version == 2
    stale = await db.tables.get(row.id)
    assert stale is not None
    stale.version = 1
    with pytest.raises(StaleTable):
        await db.tables.save(stale)

    async def full_disk(sql: str, params: Any = ()) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(db.backend, "write_one", full_disk)
    other.data = {"n": 1}
    with pytest.raises(OSError, match="No space"):
        await db.tables.save(other)
    monkeypatch.undo()
    assert other.version == 1
    for r, data in ((row, {"n": 1}), (other, {"n": 0})):
        stored = await db.tables.get(r.id)
        assert stored is not None and stored.data == data


async def test_a_failed_commit_answers_every_waiter_and_writes_nothing(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(3)]

    async def failing_commit(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(db.backend, "_commit", failing_commit)
    for r in rows:
        r.data = {"n": 1}
    results = await asyncio.wait_for(
        asyncio.gather(*(db.tables.save(r) for r in rows), return_exceptions=True), 5
    )
    assert all(isinstance(r, OSError) and r.errno == 28 for r in results), results
    monkeypatch.undo()
    for r in rows:
        assert r.version == 1
        stored = await db.tables.get(r.id)
        assert stored is not None and (stored.data, stored.version) == ({"n": 0}, 1)
    rows[0].data = {"n": 2}
    assert (await db.tables.save(rows[0])).version == 2  # the storage still works


async def test_a_writer_cancelled_mid_write_answers_every_waiter_with_a_storage_error(
    db: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer cancelled while it writes (the event loop shutting down): every waiting save
    gets a storage error (its move is refused as not saved), and the cancellation goes on."""
    rows = [await db.tables.create(1, 10 + i, 100, {"n": 0}) for i in range(2)]
    writing = asyncio.Event()

    async def stuck(batch: list) -> None:
        writing.set()
        await asyncio.sleep(60)

    monkeypatch.setattr(db.tables._writer, "_write_batch", stuck)
    saves = [asyncio.ensure_future(db.tables.save(r)) for r in rows]
    await writing.wait()
    writer = db.tables._writer._task
    assert writer is not None
    writer.cancel()
    results = await asyncio.wait_for(asyncio.gather(*saves, return_exceptions=True), 30)
    assert [type(r) for r in results] == [StorageError, StorageError]
    assert [str(r) for r in results] == ["CancelledError()", "CancelledError()"]
    with pytest.raises(asyncio.CancelledError):
        await writer
    monkeypatch.undo()
    assert (await db.tables.save(rows[0])).version == 2  # a new writer takes the next save


async def test_saves_queued_at_close_are_refused(db: Storage) -> None:
    row = await db.tables.create(1, 10, 100, {"n": 0})
    pending = asyncio.ensure_future(db.tables.save(row))
    closing = asyncio.ensure_future(db.close())
    await asyncio.sleep(0)
    done = await asyncio.gather(pending, closing, return_exceptions=True)
    assert done[0] is row or isinstance(done[0], StorageClosed)
    with pytest.raises(StorageClosed):
        await db.tables.save(row)


async def test_an_io_error_that_ends_the_transaction_is_the_error_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Disk full / an unwritable WAL: SQLite rolls the transaction back by itself and reports
    ``disk I/O error``. That error must reach the caller (and the log), not the follow-up
    ``cannot rollback - no transaction is active`` of a second ROLLBACK."""
    db = await Storage.open(tmp_path / "spades.db")
    try:
        conn = db.backend._conn  # type: ignore[attr-defined]
        original = conn.execute

        def failing(sql: str, *args: object) -> object:
            if sql.startswith("INSERT INTO tables"):

                async def fail() -> None:
                    await original("ROLLBACK")  # what SQLite does on SQLITE_IOERR / SQLITE_FULL
                    raise sqlite3.OperationalError("disk I/O error")

                return _Awaitable(fail())
            return original(sql, *args)

        monkeypatch.setattr(conn, "execute", failing)
        with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
            await db.tables.create(1, 10, 100, {})
        monkeypatch.undo()
        row = await db.tables.create(1, 10, 100, {})  # and the storage still works
        assert (await db.tables.get(row.id)) == row
    finally:
        await db.close()


class _Awaitable:
    """Stands in for aiosqlite's awaitable/async-context-manager cursor result."""

    def __init__(self, coro: object) -> None:
        self.coro = coro

    def __await__(self):  # type: ignore[no-untyped-def]
        return self.coro.__await__()  # type: ignore[attr-defined]

    async def __aenter__(self) -> object:
        return await self  # type: ignore[misc]

    async def __aexit__(self, *exc: object) -> None:
        return None
