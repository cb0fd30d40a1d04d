"""The Storage class: all SQL of the bot, run on a backend (SQLite by default, or PostgreSQL).

Every query here is written once with ``?``/``:name`` placeholders; ``backends/`` runs it on either
database (see ``backends/base.py`` for how to add queries in the same style)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..config import Faults
from . import stats
from .backends import Backend, Session, open_backend
from .backends.faults import SlowBackend
from .history import HistoryMixin
from .models import (
    LIVE_STATUSES,
    STATUSES,
    ChannelBusy,
    FinishedGame,
    HandResult,
    PlayerStats,
    SetAside,
    StaleTable,
    StorageClosed,
    StorageError,
    TableDamaged,
    TableRow,
    Timestamp,
)
from .shards import Claim, NotOwner, ShardLeases, shard_of
from .sql import Params

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

    def params(self, owner: str | None) -> tuple[Any, ...]:
        r = self.row
        base = (r.status, r.host_id, self.blob, self.now, r.id, r.version)
        return base if owner is None else (*base, owner)


def _why(exc: BaseException) -> str:
    """A set-aside reason: the error's class and message (a JSON error's message names only a
    position, never the row's content)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON in its data ({exc.msg} at character {exc.pos})"
    return f"{' '.join(str(exc).split())[:300]} ({type(exc).__name__})"


def _row_to_table(row: Any) -> TableRow:
    data = json.loads(row[5])
    if not isinstance(data, dict):
        raise ValueError(f"its data is JSON but not an object ({type(data).__name__})")
    return TableRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=row[4],
        data=data,
        version=row[6],
        created_at=row[7],
        updated_at=row[8],
    )


class Storage(ShardLeases, HistoryMixin):
    """All persistence of the bot. Open with ``await Storage.open(path_or_url)``.

    The backend owns the connections (SQLite: one connection behind a lock; PostgreSQL: a pool).
    Table saves go through one writer task per process (group commit, see ``save_table``).
    """

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._queue: list[_Save] = []
        self._writer: asyncio.Task[None] | None = None
        self._set_aside: dict[int, SetAside] = {}
        self.claim: Claim | None = None  # set: every table write is fenced by this process's leases
        self.migrated: list[int] = []  # migration versions applied when this Storage opened
        self.path = backend.description  # the file, or the URL without its password

    # --- lifecycle ------------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, target: str | Path, *, migrations_dir: Path | None = None, faults: Faults | None = None
    ) -> Storage:
        """Open the database and apply pending migrations.

        ``target`` is a SQLite file (created if needed; WAL, foreign keys on) or a
        ``postgresql://user:password@host/db`` URL. ``faults`` (testing only, see
        ``bot.config.Faults``) slows every later read and write down."""
        backend, applied = await open_backend(target, migrations_dir=migrations_dir, now=_now())
        if faults is not None:
            backend = SlowBackend(backend, faults)
        storage = cls(backend)
        storage.migrated = applied
        if applied:
            log.info("database %s migrated to version %d", storage.path, applied[-1])
        return storage

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self.backend.dialect

    @property
    def closed(self) -> bool:
        return self.backend.closed

    @property
    def queued_saves(self) -> int:
        """Table saves waiting for the writer (the health line)."""
        return len(self._queue)

    async def close(self) -> None:
        """Close the connection(s) (idempotent); waits for a running operation to finish."""
        await self.backend.close()

    def _transaction(self) -> AbstractAsyncContextManager[Session]:
        """One write transaction (a ``Session``), rolled back on any exception (cancellation too)."""
        return self.backend.transaction()

    def _check_open(self) -> None:
        if self.backend.closed:
            raise StorageClosed(f"storage {self.path} is closed")

    async def _fetchone(self, sql: str, params: Params = ()) -> Any:
        async with self.backend.connection() as db:
            return await db.fetchone(sql, params)

    async def _fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        async with self.backend.connection() as db:
            return await db.fetchall(sql, params)

    async def pragma(self, name: str) -> Any:
        """Read one SQLite PRAGMA (tests and diagnostics); None on PostgreSQL."""
        return await self.backend.pragma(name)

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
            async with self._transaction() as tx:
                table_id = await tx.fetchval(
                    "INSERT INTO tables (guild_id, channel_id, host_id, status, data, version,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'open', ?, 1, ?, ?) RETURNING id",
                    (guild_id, channel_id, host_id, blob, now, now),
                )
                if self.claim is not None:
                    shard = shard_of(guild_id, self.claim.count)
                    held = await tx.fetchval(
                        "SELECT 1 FROM shard_leases WHERE shard_id = ? AND owner = ?"
                        f" AND expires_at > {self._now_ms()}",
                        (shard, self.claim.owner),
                    )
                    if held is None:
                        raise NotOwner(None, shard)
        except Exception as exc:
            if not self._live_channel_conflict(exc):
                raise
            existing = await self.live_table_in(channel_id)
            if existing is None and (damaged := await self._live_id_in(channel_id)) is not None:
                # a set-aside table that could not be marked still holds the channel's index entry
                entry = self._set_aside.get(damaged)
                reason = entry.reason if entry else "it cannot be read back"
                raise TableDamaged(damaged, reason, channel_id) from exc
            raise ChannelBusy(channel_id, existing.id if existing else None) from exc
        assert table_id is not None
        return TableRow(int(table_id), guild_id, channel_id, host_id, "open", data, 1, now, now)

    def _live_channel_conflict(self, exc: BaseException) -> bool:
        return self.backend.is_unique_violation(exc, "tables_one_live_per_channel", "tables.channel_id")

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
        """The writer: while saves are queued, write all of them in one go."""
        while self._queue:
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
        if len(batch) > 1:
            try:
                async with self._transaction() as tx:
                    batch = [s for s in batch if not s.done.done()]  # skip callers cancelled meanwhile
                    owner = self.claim.owner if self.claim else None
                    changed = await tx.executemany(
                        _UPDATE_TABLE + self.fence_sql(), [s.params(owner) for s in batch]
                    )
                    if changed != len(batch):
                        raise _Fallback
                    for s in batch:
                        await self._insert_results(tx, s)
            except Exception:
                pass  # stale, refused or failed: write them one by one below
            else:
                self._settle(batch)
                return
        written: list[_Save] = []
        async with self._transaction() as tx:
            for s in batch:
                if s.done.done():
                    continue
                outcome = await self._write_one(tx, s)
                if outcome is None:
                    written.append(s)
                else:
                    s.done.set_exception(outcome)
        self._settle(written)

    async def _write_one(self, tx: Session, s: _Save) -> Exception | None:
        """One save inside the batch's transaction (in a savepoint: PostgreSQL aborts a whole
        transaction on a failed statement); returns its failure, nothing of it written."""
        try:
            async with tx.savepoint("save"):
                owner = self.claim.owner if self.claim else None
                changed = await tx.execute(_UPDATE_TABLE + self.fence_sql(), s.params(owner))
                if changed != 1:
                    found = await tx.fetchval("SELECT version FROM tables WHERE id = ?", (s.row.id,))
                    if self.claim is not None and found is not None and int(found) == s.row.version:
                        raise NotOwner(s.row.id, shard_of(s.row.guild_id, self.claim.count))
                    raise StaleTable(s.row.id, s.row.version, None if found is None else int(found))
                await self._insert_results(tx, s)
        except Exception as exc:
            if s.row.status in LIVE_STATUSES and self._live_channel_conflict(exc):
                busy = ChannelBusy(s.row.channel_id)
                busy.__cause__ = exc
                return busy
            return exc
        return None

    async def _insert_results(self, tx: Session, s: _Save) -> None:
        if s.hand is not None:
            await self._insert_hand(tx, s.row, s.hand, s.hand_result, s.hand_rows, s.now)
        if s.game is not None:
            await self._insert_game(tx, s.game)

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
        tx: Session,
        row: TableRow,
        hand: HandResult,
        result: dict[str, Any] | None,
        players: list[dict[str, Any]],
        now: int,
    ) -> None:
        hand_id = await tx.fetchval(
            "INSERT INTO hands (table_id, guild_id, game_no, hand_no, record, result, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
        await tx.executemany(
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

    async def _insert_game(self, tx: Session, game: FinishedGame) -> None:
        with_bots = any(bool(p.get("is_bot")) for p in game.players)
        game_id = await tx.fetchval(
            "INSERT INTO games (table_id, guild_id, channel_id, game_no, ruleset, hands, winner_side,"
            " sides, with_bots, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
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
        await tx.executemany(
            "INSERT INTO game_players (game_id, guild_id, seat, side, user_id, is_bot, name, won,"
            " with_bots, bot_share) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    float(p.get("bot_share") or 0.0),
                )
                for p in game.players
            ],
        )

    async def get_table(self, table_id: int) -> TableRow | None:
        """The table, or None if there is none (or it was set aside: it cannot be loaded)."""
        return await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ? AND set_aside IS NULL", (table_id,), table_id
        )

    async def live_table_in(self, channel_id: int) -> TableRow | None:
        row = await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('open', 'playing')",
            (channel_id,),
            None,
            channel_id,
        )
        return row

    async def latest_table_in(self, channel_id: int) -> TableRow | None:
        """The channel's most recent table, whatever its status (``/score`` after the game)."""
        return await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND set_aside IS NULL"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
            None,
            channel_id,
        )

    async def live_tables(
        self, shards: tuple[int, tuple[int, ...] | set[int]] | None = None
    ) -> list[TableRow]:
        """Every open or playing table, oldest first (for restore at start-up); with
        ``shards=(count, ids)`` only the tables of guilds on those shards.

        A row that cannot be read back (invalid JSON, a damaged page) is set aside (see
        ``set_aside_table``) and left out: one bad row never stops the others."""
        live = "status IN ('open', 'playing')"  # a set-aside table is 'abandoned'
        if shards is not None:
            count, ids = shards
            wanted = ", ".join(str(int(i)) for i in sorted(ids)) or "NULL"
            live += f" AND ((guild_id / 4194304) % {int(count)}) IN ({wanted})"
        try:
            raw = await self._fetchall(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {live} ORDER BY id")
        except Exception as exc:
            if not self.backend.is_damage(exc):
                raise
            raw = None
        if raw is not None:
            rows: list[TableRow] = []
            for r in raw:
                try:
                    rows.append(_row_to_table(r))
                except ValueError as exc:
                    await self.set_aside_table(int(r[0]), _why(exc), guild_id=r[1], channel_id=r[2])
            return rows
        # a damaged page somewhere: list the ids from the index alone, then read the rows one by one
        listed = await self._fetchall(f"SELECT id FROM tables WHERE {live} ORDER BY id")
        found: list[TableRow] = []
        for (table_id,) in listed:
            if int(table_id) in self._set_aside:
                continue
            row = await self._read_table(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (int(table_id),), int(table_id)
            )
            if row is not None:
                found.append(row)
        return found

    async def _read_table(
        self, sql: str, params: Params, table_id: int | None, channel_id: int | None = None
    ) -> TableRow | None:
        """One table row; a row that cannot be read back is set aside and reads as None."""
        try:
            row = await self._fetchone(sql, params)
        except Exception as exc:
            if not self.backend.is_damage(exc):
                raise
            if table_id is None and channel_id is not None:
                table_id = await self._live_id_in(channel_id)
            if table_id is None:
                log.error("reading the tables of channel %s failed: %s", channel_id, exc)
                return None
            if channel_id is None:
                channel_id = await self._channel_of(table_id)
            await self.set_aside_table(table_id, f"damaged database page: {_why(exc)}", channel_id=channel_id)
            return None
        if row is None:
            return None
        try:
            return _row_to_table(row)
        except ValueError as exc:
            await self.set_aside_table(int(row[0]), _why(exc), guild_id=row[1], channel_id=row[2])
            return None

    async def _live_id_in(self, channel_id: int) -> int | None:
        """The id of the channel's live table, read from the index alone (works around a damaged row)."""
        try:
            found = await self._fetchone(
                "SELECT id FROM tables WHERE channel_id = ? AND status IN ('open', 'playing')", (channel_id,)
            )
        except Exception:
            return None
        return None if found is None else int(found[0])

    async def _channel_of(self, table_id: int) -> int | None:
        """A damaged row's channel, from the channel index alone (SQLite; None elsewhere)."""
        if self.dialect != "sqlite":
            return None
        try:
            found = await self._fetchone(
                "SELECT channel_id FROM tables INDEXED BY tables_channel WHERE id = ?", (table_id,)
            )
        except Exception:
            return None
        return None if found is None else int(found[0])

    async def set_aside_table(
        self, table_id: int, reason: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> SetAside:
        """Leave a table that cannot be restored out, for good: mark it (status 'abandoned', which
        frees its channel, and ``set_aside`` = reason) and log it once. If marking fails too (a
        damaged page), it is left out by this process only. ``set_aside`` lists what this process
        set aside, so the table service can tell those channels."""
        known = self._set_aside.get(table_id)
        if known is not None and known.marked:
            return known
        marked = False
        try:
            async with self._transaction() as tx:
                changed = await tx.execute(
                    "UPDATE tables SET status = 'abandoned', set_aside = ?, updated_at = ?"
                    " WHERE id = ? AND set_aside IS NULL",
                    (reason[:500], _now(), table_id),
                )
            marked = changed == 1
        except Exception as exc:
            if not self.backend.is_damage(exc):
                raise
        if channel_id is None and guild_id is None and known is not None:
            guild_id, channel_id = known.guild_id, known.channel_id
        entry = SetAside(table_id, guild_id, channel_id, reason, marked)
        self._set_aside[table_id] = entry
        if known is None:
            log.error(
                "table %s (server %s, channel %s) cannot be restored and is set aside: %s%s",
                table_id,
                guild_id if guild_id is not None else "?",
                channel_id if channel_id is not None else "?",
                reason,
                "" if marked else "; marking it failed too: repair the database file (sqlite3 .recover)",
            )
        return entry

    @property
    def set_aside(self) -> list[SetAside]:
        """The tables this process set aside, in the order it met them."""
        return list(self._set_aside.values())

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
        async with self._transaction() as tx:
            row = await tx.fetchone("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
            settings = json.loads(_dumps(DEFAULT_GUILD_SETTINGS))
            if row:
                settings.update(json.loads(row[0]))
            settings.update(changes)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                (guild_id, _dumps(settings), _now()),
            )
        return settings

    # --- stats ------------------------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        sort: str = "wins",
        limit: int = 10,
        offset: int = 0,
        *,
        humans_only: bool = False,
    ) -> list[PlayerStats]:
        """One page of the server's humans, ranked by ``sort`` (see ``stats.SORTS``); ``humans_only``
        counts only games without bots in games and wins."""
        sql = stats.leaderboard_sql(sort, humans_only=humans_only)
        sql += " ORDER BY rank LIMIT :limit OFFSET :offset"
        rows = await self._fetchall(
            sql, {"guild": guild_id, "limit": max(0, limit), "offset": max(0, offset)}
        )
        return [stats.stats_from_row(r) for r in rows]

    async def leaderboard_count(self, guild_id: int) -> int:
        """How many humans have at least one finished hand or game in this server."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM (SELECT user_id FROM hand_players WHERE guild_id = :g AND is_bot = 0"
            " AND user_id IS NOT NULL UNION SELECT user_id FROM game_players WHERE guild_id = :g"
            " AND is_bot = 0 AND user_id IS NOT NULL) AS humans",
            {"g": guild_id},
        )
        return int(row[0])

    async def player_stats(
        self, guild_id: int, user_id: int, sort: str = "wins", *, humans_only: bool = False
    ) -> PlayerStats | None:
        """One human's numbers in this server, with their rank under ``sort``; None if never played."""
        inner = stats.leaderboard_sql(sort, humans_only=humans_only)
        sql = f"SELECT * FROM ({inner}) AS ranked WHERE user_id = :user"
        row = await self._fetchone(sql, {"guild": guild_id, "user": user_id})
        return stats.stats_from_row(row) if row else None

    # --- key/value metadata -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
