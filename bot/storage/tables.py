"""Live tables (``storage.tables``): create one (one live table per channel), save it (the writer in
``saves.py``), read them back, and set aside a row that cannot be read (invalid JSON, a damaged
page) so that it never stops the others."""

from __future__ import annotations

import json
import logging
from typing import Any

from .backends import Backend
from .base import Repository, _dumps, _now
from .games import Games
from .models import ChannelBusy, FinishedGame, HandResult, SetAside, TableDamaged, TableRow
from .saves import Writer, live_channel_conflict
from .shards import NotOwner, Shards, shard_of
from .sql import Params

log = logging.getLogger(__name__)

_TABLE_COLUMNS = "id, guild_id, channel_id, host_id, status, data, version, created_at, updated_at"


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


class Tables(Repository):
    """``storage.tables``: live tables; a new table and every save are fenced by this process's
    shard leases (``shards.claim``)."""

    def __init__(self, backend: Backend, shards: Shards, games: Games) -> None:
        super().__init__(backend)
        self.shards = shards
        self._writer = Writer(backend, shards, games)
        self._set_aside: dict[int, SetAside] = {}  # what this process set aside, by table id

    async def save(
        self,
        row: TableRow,
        *,
        hand: HandResult | None = None,
        game: FinishedGame | None = None,
    ) -> TableRow:
        """Write the row and, when given, a finished hand and/or game, atomically (see ``Writer.save``:
        version-checked, fenced, group-committed; the same row object comes back, one version on)."""
        return await self._writer.save(row, hand=hand, game=game)

    @property
    def queued(self) -> int:
        """Table saves waiting for the writer (the health line)."""
        return self._writer.queued

    async def create(self, guild_id: int, channel_id: int, host_id: int, data: dict[str, Any]) -> TableRow:
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
                claim = self.shards.claim
                if claim is not None:
                    shard = shard_of(guild_id, claim.count)
                    held = await tx.fetchval(  # (fenced as saves are: see ``fence_sql``)
                        "SELECT 1 FROM shard_leases WHERE shard_id = ? AND owner = ?",
                        (shard, claim.owner),
                    )
                    if held is None:
                        raise NotOwner(None, shard)
        except Exception as exc:
            if not live_channel_conflict(self.backend, exc):
                raise
            existing = await self.live_in(channel_id)
            if existing is None and (damaged := await self._live_id_in(channel_id)) is not None:
                # a set-aside table that could not be marked still holds the channel's index entry
                entry = self._set_aside.get(damaged)
                reason = entry.reason if entry else "it cannot be read back"
                raise TableDamaged(damaged, reason, channel_id) from exc
            raise ChannelBusy(channel_id, existing.id if existing else None) from exc
        assert table_id is not None
        return TableRow(int(table_id), guild_id, channel_id, host_id, "open", data, 1, now, now)

    async def get(self, table_id: int) -> TableRow | None:
        """The table, or None if there is none (or it was set aside: it cannot be loaded)."""
        return await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ? AND set_aside IS NULL", (table_id,), table_id
        )

    async def live_in(self, channel_id: int) -> TableRow | None:
        row = await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('open', 'playing')",
            (channel_id,),
            None,
            channel_id,
        )
        return row

    async def latest_in(self, channel_id: int) -> TableRow | None:
        """The channel's most recent table, whatever its status (``/score`` after the game)."""
        return await self._read_table(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND set_aside IS NULL"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
            None,
            channel_id,
        )

    async def live(self, shards: tuple[int, tuple[int, ...] | set[int]] | None = None) -> list[TableRow]:
        """Every open or playing table, oldest first (for restore at start-up); with
        ``shards=(count, ids)`` only the tables of guilds on those shards.

        A row that cannot be read back (invalid JSON, a damaged page) is set aside (see
        ``set_aside``) and left out: one bad row never stops the others."""
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
                    await self.set_aside(int(r[0]), _why(exc), guild_id=r[1], channel_id=r[2])
            return rows
        return await self._live_tables_around_damage(shards)

    async def _live_tables_around_damage(
        self, shards: tuple[int, tuple[int, ...] | set[int]] | None
    ) -> list[TableRow]:
        """``live`` when a damaged page stopped the one query: the ids (and their guilds,
        for the shard filter) from the indexes alone, which hold no table row, then the rows one
        by one by id (a rowid lookup reads only that row's page): only the rows on a damaged page
        are lost, whichever page it is and however many tables there are."""
        guilds = await self._guilds_by_id()
        try:
            listed = await self._fetchall(
                f"SELECT id FROM tables{self._indexed('tables_live')} WHERE status IN ('open', 'playing')"
            )
            ids = sorted(int(r[0]) for r in listed)
        except Exception as exc:
            if not self.backend.is_damage(exc) or guilds is None:
                raise
            ids = sorted(guilds)  # the live index is the damaged page: every table, by its status
        if shards is not None and guilds is not None:
            count, wanted = shards
            ids = [i for i in ids if i not in guilds or shard_of(guilds[i], count) in wanted]
        found: list[TableRow] = []
        for table_id in ids:
            if table_id in self._set_aside:
                continue
            row = await self._read_table(
                f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,), table_id
            )
            if row is None or row.status not in ("open", "playing"):
                continue
            if shards is not None and shard_of(row.guild_id, shards[0]) not in shards[1]:
                continue  # (its guild was not in the index)
            found.append(row)
        return found

    def _indexed(self, index: str) -> str:
        """SQLite's ``INDEXED BY``: the query reads that index alone (nothing on PostgreSQL)."""
        return f" INDEXED BY {index}" if self.dialect == "sqlite" else ""

    async def _guilds_by_id(self) -> dict[int, int] | None:
        """Every table's guild, from the guild index alone (None if that index is the damaged page)."""
        try:
            listed = await self._fetchall(
                f"SELECT id, guild_id FROM tables{self._indexed('tables_guild')} WHERE guild_id IS NOT NULL"
            )
        except Exception as exc:
            if not self.backend.is_damage(exc):
                raise
            return None
        return {int(i): int(g) for i, g in listed}

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
            await self.set_aside(table_id, f"damaged database page: {_why(exc)}", channel_id=channel_id)
            return None
        if row is None:
            return None
        try:
            return _row_to_table(row)
        except ValueError as exc:
            await self.set_aside(int(row[0]), _why(exc), guild_id=row[1], channel_id=row[2])
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

    async def set_aside(
        self, table_id: int, reason: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> SetAside:
        """Leave a table that cannot be restored out, for good: mark it (status 'abandoned', which
        frees its channel, and ``set_aside`` = reason) and log it once. If marking fails too (a
        damaged page), it is left out by this process only. ``aside`` lists what this process
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
    def aside(self) -> list[SetAside]:
        """The tables this process set aside, in the order it met them."""
        return list(self._set_aside.values())
