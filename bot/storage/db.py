"""The Storage class: one aiosqlite connection, WAL, explicit transactions, all SQL of the bot."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from . import migrations, stats
from .models import (
    LIVE_STATUSES,
    STATUSES,
    ChannelBusy,
    FinishedGame,
    HandResult,
    PlayerStats,
    StaleTable,
    StorageClosed,
    StorageError,
    TableRow,
    Timestamp,
)

log = logging.getLogger(__name__)

DEFAULT_GUILD_SETTINGS: dict[str, Any] = {"default_preset": "standard", "options": {}}

_TABLE_COLUMNS = "id, guild_id, channel_id, host_id, status, data, version, created_at, updated_at"


def _now() -> int:
    return int(time.time())


def _unix(value: Timestamp) -> int:
    if isinstance(value, datetime):
        return int(value.timestamp())
    return int(value)


def _dumps(value: Any) -> str:
    # compact and strict: NaN/Infinity are not JSON and would not round-trip
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


_UPDATE_TABLE = (
    "UPDATE tables SET status = ?, host_id = ?, data = ?, version = version + 1, updated_at = ?"
    " WHERE id = ? AND version = ?"
)


class _Fallback(Exception):
    """The batch's fast path met a stale or refused row: write the saves one by one."""


@dataclass(eq=False)
class _Save:
    """One queued ``save_table`` call and the future its caller waits on."""

    row: TableRow
    blob: str
    now: int
    hand: HandResult | None
    hand_result: dict[str, Any] | None
    hand_rows: list[dict[str, Any]]
    game: FinishedGame | None
    done: asyncio.Future[TableRow]

    def params(self) -> tuple[Any, ...]:
        r = self.row
        return (r.status, r.host_id, self.blob, self.now, r.id, r.version)


def _row_to_table(row: Any) -> TableRow:
    return TableRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=row[4],
        data=json.loads(row[5]),
        version=row[6],
        created_at=row[7],
        updated_at=row[8],
    )


class Storage:
    """All persistence of the bot. Open with ``await Storage.open(path)``.

    One connection serves the whole process; an asyncio lock serializes every operation so that a
    transaction never interleaves with another coroutine's statements on the same connection.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._queue: list[_Save] = []
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self.path = path

    # --- lifecycle ------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, migrations_dir: Path | None = None) -> Storage:
        """Open (creating if needed) the database, switch on WAL and foreign keys, apply migrations."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA synchronous=NORMAL")  # safe with WAL: no corruption on crash
            await conn.execute("PRAGMA busy_timeout=5000")
            applied = await migrations.migrate(conn, migrations_dir, now=_now())
        except BaseException:
            await conn.close()
            raise
        if applied:
            log.info("database %s migrated to version %d", path, applied[-1])
        return cls(conn, path)

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Close the connection (idempotent); waits for a running operation to finish."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT, rolled back on any exception (including cancellation)."""
        async with self._lock:
            self._check_open()
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    def _check_open(self) -> None:
        if self._closed:
            raise StorageClosed(f"storage {self.path} is closed")

    async def _fetchone(self, sql: str, params: Any = ()) -> Any:
        async with self._lock:
            self._check_open()
            async with self._conn.execute(sql, params) as cur:
                return await cur.fetchone()

    async def _fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        async with self._lock:
            self._check_open()
            async with self._conn.execute(sql, params) as cur:
                return list(await cur.fetchall())

    async def pragma(self, name: str) -> Any:
        """Read one PRAGMA (tests and diagnostics)."""
        if not name.isidentifier():
            raise ValueError(f"bad pragma name {name!r}")
        row = await self._fetchone(f"PRAGMA {name}")
        return row[0] if row else None

    async def schema_version(self) -> int:
        row = await self._fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0])

    # --- live tables ----------------------------------------------------------------------------

    async def create_table(
        self, guild_id: int, channel_id: int, host_id: int, data: dict[str, Any]
    ) -> TableRow:
        """Insert a new table with status "open"; raises ChannelBusy if the channel has a live one."""
        blob = _dumps(data)
        now = _now()
        try:
            async with self._transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO tables (guild_id, channel_id, host_id, status, data, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'open', ?, 1, ?, ?)",
                    (guild_id, channel_id, host_id, blob, now, now),
                )
                table_id = cur.lastrowid
        except sqlite3.IntegrityError as exc:
            existing = await self.live_table_in(channel_id)
            raise ChannelBusy(channel_id, existing.id if existing else None) from exc
        assert table_id is not None
        return TableRow(table_id, guild_id, channel_id, host_id, "open", data, 1, now, now)

    async def save_table(
        self,
        row: TableRow,
        *,
        hand: HandResult | None = None,
        game: FinishedGame | None = None,
    ) -> TableRow:
        """Write the row's status/host/data and, when given, a finished hand and/or game, atomically.

        Raises StaleTable when ``row.version`` is not the stored version (nothing is written).
        On success the same row object is updated in place (new ``version``, ``updated_at``) and
        returned, so a caller may keep using it. Returns only once the write is committed.

        Group commit: saves queued while another batch is being written go out together in the next
        transaction (see ``_write_batch``); each caller still gets its own outcome.
        """
        if row.status not in STATUSES:
            raise ValueError(f"bad table status {row.status!r}; expected one of {', '.join(STATUSES)}")
        blob = _dumps(row.data)
        # pure CPU work before queueing
        hand_rows: list[dict[str, Any]] = []
        hand_result: dict[str, Any] | None = None
        if hand is not None:
            hand_result = stats.replay_record(hand.record)
            if hand_result is not None:
                hand_rows = stats.hand_player_rows(hand_result, hand.players)
        self._check_open()
        save = _Save(
            row, blob, _now(), hand, hand_result, hand_rows, game, asyncio.get_running_loop().create_future()
        )
        self._queue.append(save)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued(), name="storage-writer")
        # A caller cancelled here may still see its save committed (its row object is then one
        # version behind, and its next save is refused as stale); one not yet written is skipped.
        return await save.done

    async def _write_queued(self) -> None:
        """The writer: while saves are queued, take the lock and write all of them in one go."""
        while self._queue:
            async with self._lock:
                batch, self._queue = [s for s in self._queue if not s.done.done()], []
                if not batch:
                    continue
                try:
                    self._check_open()
                    await self._write_batch(batch)
                except BaseException as exc:  # every waiter gets an answer, whatever happened
                    for s in batch:
                        if not s.done.done():
                            failure = exc if isinstance(exc, Exception) else StorageError(repr(exc))
                            s.done.set_exception(failure)
                    if not isinstance(exc, Exception):
                        raise

    async def _write_batch(self, batch: list[_Save]) -> None:
        """One transaction for the whole batch. Fast path: one ``executemany`` UPDATE (version-checked)
        for every row; if any row is stale or refused, roll back and write them one by one, so that a
        stale table fails only its own save."""
        conn = self._conn
        if len(batch) > 1:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                cur = await conn.executemany(_UPDATE_TABLE, [s.params() for s in batch])
                if cur.rowcount != len(batch):
                    raise _Fallback
                for s in batch:
                    await self._insert_results(conn, s)
                await conn.execute("COMMIT")
            except BaseException as exc:
                await conn.execute("ROLLBACK")
                if not isinstance(exc, Exception):
                    raise  # cancelled: the writer's caller sorts out the waiters
            else:
                self._settle(batch)
                return
        await conn.execute("BEGIN IMMEDIATE")
        written: list[_Save] = []
        try:
            for s in batch:
                outcome = await self._write_one(conn, s)
                if outcome is None:
                    written.append(s)
                else:
                    s.done.set_exception(outcome)
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        self._settle(written)

    async def _write_one(self, conn: aiosqlite.Connection, s: _Save) -> Exception | None:
        """One save inside the batch's transaction; returns its failure (nothing of it written)."""
        extra = s.hand is not None or s.game is not None
        if extra:
            await conn.execute("SAVEPOINT save")
        try:
            cur = await conn.execute(_UPDATE_TABLE, s.params())
            if cur.rowcount != 1:
                async with conn.execute("SELECT version FROM tables WHERE id = ?", (s.row.id,)) as c:
                    found = await c.fetchone()
                raise StaleTable(s.row.id, s.row.version, found[0] if found else None)
            await self._insert_results(conn, s)
        except Exception as exc:
            if extra:
                await conn.execute("ROLLBACK TO save")
                await conn.execute("RELEASE save")
            if (
                isinstance(exc, sqlite3.IntegrityError)
                and s.row.status in LIVE_STATUSES
                and "tables.channel_id" in str(exc)
            ):
                busy = ChannelBusy(s.row.channel_id)
                busy.__cause__ = exc
                return busy
            return exc
        if extra:
            await conn.execute("RELEASE save")
        return None

    async def _insert_results(self, conn: aiosqlite.Connection, s: _Save) -> None:
        if s.hand is not None:
            await self._insert_hand(conn, s.row, s.hand, s.hand_result, s.hand_rows, s.now)
        if s.game is not None:
            await self._insert_game(conn, s.game)

    @staticmethod
    def _settle(saves: list[_Save]) -> None:
        """Committed: bump each row in place and wake its caller."""
        for s in saves:
            s.row.version += 1
            s.row.updated_at = s.now
            if not s.done.done():
                s.done.set_result(s.row)

    async def _insert_hand(
        self,
        conn: aiosqlite.Connection,
        row: TableRow,
        hand: HandResult,
        result: dict[str, Any] | None,
        players: list[dict[str, Any]],
        now: int,
    ) -> None:
        cur = await conn.execute(
            "INSERT INTO hands (table_id, guild_id, game_no, hand_no, record, result, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                hand.table_id,
                row.guild_id,
                hand.game_no,
                hand.hand_no,
                _dumps(hand.record),
                None if result is None else _dumps(result),
                now,
            ),
        )
        hand_id = cur.lastrowid
        await conn.executemany(
            "INSERT INTO hand_players (hand_id, guild_id, seat, side, user_id, is_bot, with_bots,"
            " tricks, contract_bid, contract_made, nil_attempted, nil_made, blind_nil, bags, points)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    hand_id,
                    row.guild_id,
                    p["seat"],
                    p["side"],
                    p["user_id"],
                    int(p["is_bot"]),
                    int(p["with_bots"]),
                    p["tricks"],
                    int(p["contract_bid"]),
                    int(p["contract_made"]),
                    int(p["nil_attempted"]),
                    int(p["nil_made"]),
                    int(p["blind_nil"]),
                    p["bags"],
                    p["points"],
                )
                for p in players
            ],
        )

    async def _insert_game(self, conn: aiosqlite.Connection, game: FinishedGame) -> None:
        with_bots = any(bool(p.get("is_bot")) for p in game.players)
        cur = await conn.execute(
            "INSERT INTO games (table_id, guild_id, channel_id, game_no, ruleset, hands, winner_side,"
            " sides, with_bots, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.table_id,
                game.guild_id,
                game.channel_id,
                game.game_no,
                _dumps(game.ruleset),
                game.hands,
                game.winner_side,
                _dumps(game.sides),
                int(with_bots),
                _unix(game.started_at),
                _unix(game.finished_at),
            ),
        )
        game_id = cur.lastrowid
        await conn.executemany(
            "INSERT INTO game_players (game_id, guild_id, seat, side, user_id, is_bot, name, won,"
            " with_bots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    game.guild_id,
                    p["seat"],
                    p["side"],
                    None if p.get("is_bot") else p.get("user_id"),
                    int(bool(p.get("is_bot"))),
                    str(p.get("name", "")),
                    int(game.winner_side is not None and p["side"] == game.winner_side),
                    int(with_bots),
                )
                for p in game.players
            ],
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._fetchone(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return _row_to_table(row) if row else None

    async def live_table_in(self, channel_id: int) -> TableRow | None:
        row = await self._fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('open', 'playing')",
            (channel_id,),
        )
        return _row_to_table(row) if row else None

    async def latest_table_in(self, channel_id: int) -> TableRow | None:
        """The channel's most recent table, whatever its status (``/score`` after the game)."""
        row = await self._fetchone(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _row_to_table(row) if row else None

    async def live_tables(self) -> list[TableRow]:
        """Every open or playing table, oldest first (for restore at start-up)."""
        rows = await self._fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('open', 'playing') ORDER BY id"
        )
        return [_row_to_table(r) for r in rows]

    # --- finished hands and games -----------------------------------------------------------------

    async def hand_records(self, table_id: int, game_no: int | None = None) -> list[dict[str, Any]]:
        """Stored hand records of a table (optionally one game), in play order."""
        sql = "SELECT record FROM hands WHERE table_id = ?"
        params: tuple[int, ...] = (table_id,)
        if game_no is not None:
            sql += " AND game_no = ?"
            params = (table_id, game_no)
        rows = await self._fetchall(sql + " ORDER BY game_no, hand_no", params)
        return [json.loads(r[0]) for r in rows]

    async def finished_games(self, guild_id: int, *, limit: int = 10) -> list[dict[str, Any]]:
        """The server's most recent finished games, newest first, with their players."""
        rows = await self._fetchall(
            "SELECT id, table_id, channel_id, game_no, ruleset, hands, winner_side, sides, with_bots,"
            " started_at, finished_at FROM games WHERE guild_id = ? ORDER BY finished_at DESC, id DESC"
            " LIMIT ?",
            (guild_id, limit),
        )
        games: list[dict[str, Any]] = []
        for r in rows:
            players = await self._fetchall(
                "SELECT seat, side, user_id, is_bot, name, won FROM game_players WHERE game_id = ?"
                " ORDER BY seat",
                (r[0],),
            )
            games.append(
                {
                    "table_id": r[1],
                    "channel_id": r[2],
                    "game_no": r[3],
                    "ruleset": json.loads(r[4]),
                    "hands": r[5],
                    "winner_side": r[6],
                    "sides": json.loads(r[7]),
                    "with_bots": bool(r[8]),
                    "started_at": r[9],
                    "finished_at": r[10],
                    "players": [
                        {
                            "seat": p[0],
                            "side": p[1],
                            "user_id": p[2],
                            "is_bot": bool(p[3]),
                            "name": p[4],
                            "won": bool(p[5]),
                        }
                        for p in players
                    ],
                }
            )
        return games

    # --- per-server settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's settings over the defaults (a fresh dict the caller may change)."""
        row = await self._fetchone("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
        settings = json.loads(_dumps(DEFAULT_GUILD_SETTINGS))
        if row:
            settings.update(json.loads(row[0]))
        return settings

    async def set_guild_settings(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        """Merge top-level keys into the server's settings; returns the settings now stored."""
        async with self._transaction() as conn:
            async with conn.execute("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
                row = await cur.fetchone()
            settings = json.loads(_dumps(DEFAULT_GUILD_SETTINGS))
            if row:
                settings.update(json.loads(row[0]))
            settings.update(changes)
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                (guild_id, _dumps(settings), _now()),
            )
        return settings

    # --- stats ------------------------------------------------------------------------------------

    async def leaderboard(
        self, guild_id: int, sort: str = "wins", limit: int = 10, offset: int = 0
    ) -> list[PlayerStats]:
        """One page of the server's humans, ranked by ``sort`` (see ``stats.SORTS``)."""
        sql = stats.leaderboard_sql(sort) + " ORDER BY rank LIMIT :limit OFFSET :offset"
        rows = await self._fetchall(
            sql, {"guild": guild_id, "limit": max(0, limit), "offset": max(0, offset)}
        )
        return [stats.stats_from_row(r) for r in rows]

    async def leaderboard_count(self, guild_id: int) -> int:
        """How many humans have at least one finished hand or game in this server."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM (SELECT user_id FROM hand_players WHERE guild_id = :g AND is_bot = 0"
            " AND user_id IS NOT NULL UNION SELECT user_id FROM game_players WHERE guild_id = :g"
            " AND is_bot = 0 AND user_id IS NOT NULL)",
            {"g": guild_id},
        )
        return int(row[0])

    async def player_stats(self, guild_id: int, user_id: int, sort: str = "wins") -> PlayerStats | None:
        """One human's numbers in this server, with their rank under ``sort``; None if never played."""
        sql = f"SELECT * FROM ({stats.leaderboard_sql(sort)}) WHERE user_id = :user"
        row = await self._fetchone(sql, {"guild": guild_id, "user": user_id})
        return stats.stats_from_row(row) if row else None

    # --- key/value metadata -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
